"""One zoo shop as data: axes, look, catalog and every product as the shop shows it.

Input: a seed. Output: a :class:`Zoo` (built by :func:`build_zoo`) that every renderer
and the ground truth read, so pages and truth come from one place. Three seeded
streams: the axis values (``Random(seed)``, see :mod:`.axes`), then the shop's look,
vocabulary and per-product display choices (``Random("zoo-<seed>")``), then the
catalog (:func:`structurer.demo.catalog.build_catalog` with a seed derived from it).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from functools import cached_property

from structurer.demo.catalog import Catalog, CatalogSpec, Category, Product, build_catalog
from structurer.demo.zoo.axes import axes_of_seed
from structurer.demo.zoo.locales import LOCALES, Locale
from structurer.demo.zoo.style import Style
from structurer.demo.zoo.urls import Urls
from structurer.demo.zoo.vocab import DOMAINS, shop_title, shop_vocabulary

_ID_POOL = ("catalog", "results", "products", "items", "listing", "plp", "main-grid", "hits")


@dataclass(frozen=True)
class Look:
    """Per-shop presentation that is not an axis of its own (sizes, ids, phrasings)."""

    page_size: int
    ids: dict[str, str]         # grid, pager, root, menu, config, tiles
    script: str                 # where zoo.js is served
    css: str
    state_name: str             # inline state: window[...] or a JSON script's id
    state_global: bool
    pager_words: bool           # "Next"/"Previous" or arrows with aria-label
    stock_variant: int
    oos_disabled: bool          # buy-button-only shops: disabled button, else a sentence
    stock_classes: tuple[str, str, str]   # in, out, shared
    crumb_sep: str
    thumb: str                  # "{id}", "{i}" and "{h}" placeholders
    full: str
    truncate: int
    label_span: bool
    title_sep: str
    sku_prefix: str


@dataclass(frozen=True)
class Item:
    """A product as this shop shows it (the truth is derived from these values)."""

    product: Product
    sku: str
    images: tuple[str, ...]     # full-size image paths; () = placeholder
    thumb: str                  # list image path (the placeholder when no image)
    price: Decimal | None       # None: out of stock and the shop shows no price
    high: Decimal | None        # upper end of a price range
    rating: float | None        # as displayed
    reviews: int | None
    subtitle: str
    specs: tuple[tuple[str, str], ...]
    stock_n: int

    @property
    def id(self) -> int:
        return self.product.id

    @property
    def in_stock(self) -> bool:
        return self.product.availability == "in_stock"

    @property
    def original(self) -> Decimal | None:
        return self.product.original_price if self.price is not None and not self.high else None


@dataclass
class Zoo:
    seed: int
    axes: dict[str, str]
    title: str
    locale: Locale
    style: Style
    look: Look
    catalog: Catalog
    items: tuple[Item, ...]
    urls: Urls
    placeholder: str

    def thumb(self, item: Item) -> str:
        """The list image: the product's thumbnail, else the shop's placeholder."""
        return item.thumb or self.placeholder

    def t(self, key: str, variant: int = 0, **values: object) -> str:
        return self.locale.word(key, variant, **values)

    def money(self, amount: Decimal) -> str:
        return self.locale.money(amount)

    def price_text(self, item: Item) -> str:
        """What the main price element says ("" when it says nothing)."""
        if item.price is None:
            return ""
        if item.high is not None:
            return f"{self.money(item.price)} – {self.money(item.high)}"
        return self.money(item.price)

    def lists_products(self, cat: Category) -> bool:
        return cat.is_leaf or self.axes["parent_page"] == "products"

    def listing(self, cat: Category) -> list[Item]:
        if not self.lists_products(cat):
            return []
        return [self.items[p.id] for p in self.catalog.products_in(cat.slug)]

    @cached_property
    def _pages(self) -> dict[str, list[list[Item]]]:
        out: dict[str, list[list[Item]]] = {}
        n = self.look.page_size
        for cat in self.catalog.categories:
            items = self.listing(cat)
            out[cat.slug] = [items[i:i + n] for i in range(0, len(items), n)] or [[]]
        return out

    def pages_of(self, cat: Category) -> list[list[Item]]:
        return self._pages[cat.slug]

    def chain(self, product: Product) -> list[Category]:
        """The product's category path, top first."""
        chain = [self.catalog.category(product.category)]
        while chain[0].parent:
            chain.insert(0, self.catalog.category(chain[0].parent))
        return chain

    def featured(self) -> list[Item]:
        """The home page's products. Where only product pages' breadcrumbs link the
        sub-categories, a product of each leaf category none of them is in joins them:
        every category of a shop is reachable by some link."""
        chosen = list(self.items[2::9][:8])
        if self.axes["discovery"] != "breadcrumbs_only":
            return chosen
        shown = {i.product.category for i in chosen}
        for cat in self.catalog.categories:
            first = next(iter(self.catalog.products_in(cat.slug)), None)
            if cat.is_leaf and cat.slug not in shown and first is not None:
                chosen.append(self.items[first.id])
                shown.add(cat.slug)
        return chosen

    def others(self, exclude: set[int], count: int, salt: int) -> list[Item]:
        """Products for side blocks (bestsellers, related): never those of the page."""
        pool = [i for i in self.items if i.id not in exclude]
        return random.Random(self.seed * 7919 + salt).sample(pool, min(count, len(pool)))


# ----- building ----------------------------------------------------------------------------------
def _check(digits: str) -> str:
    """The GS1 check digit of a UPC/EAN/ISBN-13 body."""
    total = sum(int(d) * (3 if i % 2 else 1) for i, d in enumerate(reversed(digits), 1))
    return str((10 - total % 10) % 10)


def identifier(label: str, n: int, prefix: str) -> str:
    """The identifier a product with number ``n`` (unique per shop) shows under ``label``."""
    if label == "UPC":
        body = f"0{n:010d}"
        return body + _check(body)
    if label in ("EAN", "GTIN"):
        body = f"40{n:010d}"
        return body + _check(body)
    if label == "ISBN-13":
        body = f"978{n:09d}"
        return body + _check(body)
    if label == "SKU":
        return f"{prefix}-{n % 100000:05d}"
    if label in ("MPN", "Model"):
        return f"{prefix}{n % 10000:04d}-{'ABCDEFGHJK'[n % 10]}"
    if label == "Артикул":
        return f"{n // 1000 % 10000:04d}-{n % 1000:03d}"
    if label == "货号":
        return f"{prefix}{n % 10000000:07d}"
    return str(n)


def _display_rating(axis: str, rating: float | None) -> float | None:
    if axis == "none" or rating is None:
        return None
    value = Decimal(str(rating))
    if axis == "class_word":
        return float(value.quantize(Decimal(1), rounding=ROUND_HALF_UP))
    if axis == "class_num":
        return float((value * 2).quantize(Decimal(1), rounding=ROUND_HALF_UP) / 2)
    return rating


def _item(zoo_axes: dict[str, str], loc: Locale, look: Look, p: Product, rng: random.Random,
          number: int, subtitles: tuple[str, ...]) -> Item:
    no_image = zoo_axes["placeholder"] == "some" and rng.random() < 0.2
    images = () if no_image else tuple(
        look.full.format(id=p.id, i=i) for i in range(1, len(p.images) + 1))
    thumb = look.thumb.format(id=p.id, i=1, h=f"{(p.id * 2654435761) % 16**8:08x}")
    hidden = p.availability == "out_of_stock" and zoo_axes["oos_price"] != "shown"
    high = None
    if zoo_axes["price_extras"] == "range" and rng.random() < 0.4:
        factor = Decimal(str(round(rng.uniform(1.2, 2.5), 2)))
        high = (p.price * factor).quantize(Decimal(1).scaleb(-loc.decimals),
                                           rounding=ROUND_HALF_UP)
    rating = _display_rating(zoo_axes["rating"], p.rating)
    specs = ((loc.word("weight"), f"{loc.number(rng.uniform(0.1, 9.0), 1)} kg"),
             (loc.word("colour"), rng.choice(("Black", "White", "Blue", "Green", "Grey"))))
    return Item(
        product=p, sku=identifier(zoo_axes["id_label"], number, look.sku_prefix),
        images=images, thumb=thumb if images else "", price=None if hidden else p.price,
        high=None if hidden else high, rating=rating,
        reviews=p.review_count if rating is not None else None,
        subtitle=rng.choice(subtitles) if zoo_axes["title"] != "plain" else "",
        specs=specs, stock_n=rng.randint(2, 40))


def _look(rng: random.Random, biggest: int) -> Look:
    ids = dict(zip(("grid", "pager", "root", "menu", "config", "tiles"),
                   [*rng.sample(_ID_POOL, 2), rng.choice(("app", "root", "__next", "shop-app")),
                    rng.choice(("main-menu", "nav", "menu-top")),
                    rng.choice(("app-config", "page-data", "cfg")),
                    rng.choice(("subcats", "child-tiles"))], strict=True))
    ids["pager"] += "-pages"
    page_size = rng.randint(6, 24)
    page_size = max(6, min(page_size, biggest // 3))
    ext = rng.choice(("jpg", "webp", "png"))
    return Look(
        page_size=page_size, ids=ids,
        script=rng.choice(("/static/js/app.{h}.js", "/assets/main-{h}.js", "/js/shop.js")).format(
            h=f"{rng.getrandbits(32):08x}"),
        css=rng.choice(("/static/css/site.css", "/assets/style.css", "/css/shop.css")),
        state_name=rng.choice(("__INITIAL_STATE__", "__NEXT_DATA__", "__NUXT__", "APP_STATE")),
        state_global=rng.random() < 0.5, pager_words=rng.random() < 0.6,
        stock_variant=rng.randrange(3), oos_disabled=rng.random() < 0.4,
        stock_classes=rng.choice((("instock", "outofstock", "availability"),
                                  ("in-stock", "out-of-stock", "stock"),
                                  ("is-available", "is-unavailable", "stock-status"))),
        crumb_sep=rng.choice((" › ", " / ", " > ", " » ")),
        thumb=rng.choice(("/media/cache/{h}/320x320/{id}-{i}." + ext,
                          "/img/thumbs/{id}_{i}_small." + ext,
                          "/images/products/{id}/{i}/w300." + ext)),
        full=rng.choice(("/media/catalog/product/{id}/full-{i}." + ext,
                         "/img/products/{id}_{i}_large." + ext,
                         "/images/products/{id}/{i}/original." + ext)),
        truncate=rng.randint(18, 26), label_span=rng.random() < 0.5,
        title_sep=rng.choice((" | ", " – ", " - ", " :: ")),
        sku_prefix="".join(rng.choice("ABCDEFGHKLMNPRSTVWXZ") for _ in range(rng.randint(2, 3))))


def build_zoo(seed: int) -> Zoo:
    """The zoo shop of ``seed``: the same seed always gives the same shop."""
    axes = axes_of_seed(seed)
    rng = random.Random(f"zoo-{seed}")
    loc = LOCALES[axes["locale"]]
    vocab = shop_vocabulary(axes["domain"], rng)
    leaves = sum(len(subs) for subs in vocab.tree.values())
    target = max(rng.randint(40, 170), 9 * leaves)
    per = target // leaves
    spec = CatalogSpec(seed=rng.getrandbits(31), currency=loc.currency,
                       price_range=loc.price_range, per_leaf=(max(3, per - 3), per + 3),
                       out_of_stock_rate=rng.uniform(0.12, 0.25),
                       discount_rate=rng.uniform(0.15, 0.35), rating_rate=0.75,
                       images=(1, 4), whole_prices=loc.decimals == 0)
    catalog = build_catalog(vocab, spec)
    biggest = max(len(catalog.products_in(c.slug)) for c in catalog.categories
                  if c.is_leaf or axes["parent_page"] == "products")
    look = _look(rng, biggest)
    style = Style(axes["classes"], rng)
    start = rng.randint(1000, 90000)
    step = rng.choice((7, 11, 13, 37, 101))
    subtitles = DOMAINS[axes["domain"]].subtitles
    items = tuple(_item(axes, loc, look, p, rng, start + p.id * step, subtitles)
                  for p in catalog.products)
    urls = Urls(axes["urls"], axes["page_url"], catalog, look.page_size,
                id_offset=rng.randint(100, 5000),
                offset_param=rng.choice(("start", "offset", "from")),
                api=rng.choice(("/api/", "/ajax/", "/rest/v1/")))
    placeholder = rng.choice(("/static/img/no-image.svg", "/media/placeholder/default.png",
                              "/img/placeholder.jpg"))
    return Zoo(seed=seed, axes=axes, title=shop_title(axes["domain"], rng), locale=loc,
               style=style, look=look, catalog=catalog, items=items, urls=urls,
               placeholder=placeholder)
