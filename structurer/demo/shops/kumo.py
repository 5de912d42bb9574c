"""Shop "kumo": a Next.js-style server-rendered shop whose class names mean nothing.

Hard because every class is a build hash (emotion ``css-1q8zt4k`` for layout, minified
CSS modules ``_k2v9d_1`` in cards): only ``data-*`` (``data-testid="product-card"``,
``data-product-id``, ``data-price``), microdata ``itemprop``, ``aria-label`` and structure
carry meaning. ``<article>`` cards sit in a ``<section>`` (plus an editorial promo tile);
a "Recently viewed" carousel on list and detail pages reuses the exact card markup.
Pagination is numbered links only (``aria-label="Page 2"``, no next text), ``?page=N``
with page 1 as the bare URL. Variant products show ``From $5.00``; list images go
through ``/_next/image?url=...``; JSON-LD Product on detail pages.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from decimal import Decimal
from functools import cache
from urllib.parse import quote

from structurer.demo.base import Response, Shop, esc, json_script, placeholder_svg
from structurer.demo.catalog import CatalogSpec, Category, Product, Vocabulary

VOCAB = Vocabulary(
    tree={
        "Stationery": {"Notebooks": ["Dot Grid Notebook", "Ruled Journal", "Sketchbook", "Planner"],
                       "Pens & Pencils": ["Gel Pen Set", "Fountain Pen", "Mechanical Pencil"],
                       "Paper & Cards": ["Letter Set", "Sticky Notes", "Greeting Card Pack"]},
        "Home Office": {"Desk Organizers": ["Desk Tray", "Pen Cup", "Monitor Riser", "Cable Box"],
                        "Lighting": ["Desk Lamp", "Clip Light", "Light Bar"]},
        "Gadgets": {"Chargers & Cables": ["USB-C Cable", "Wireless Charger", "Power Bank"],
                    "Audio": ["Wireless Earbuds", "Desk Speaker", "Headphone Stand"]},
    },
    adjectives=["Minimal", "Classic", "Compact", "Pocket", "Pro", "Soft-Touch", "Matte", "Slim"],
    brands=["Kumo", "Tsubame", "Linden & Co", "Papier Nord", "Hako", "Voltix"],
    materials=["FSC-certified paper", "anodised aluminium", "recycled PET", "beech wood",
               "vegan leather", "braided nylon"],
    sentences=["The {name} is designed in Tokyo and made to last for years of daily use.",
               "Crafted from {material}, it feels good in the hand and looks calm on the desk.",
               "{brand} sweats the details, so this {noun} just works.",
               "A {adj} take on an everyday essential, with nothing you do not need.",
               "Ships plastic-free in a recyclable box.", "Backed by a two-year {brand} warranty."],
    slugs={"Pens & Pencils": "pens-pencils", "Paper & Cards": "paper-cards",
           "Chargers & Cables": "chargers-cables"},
)

_BANNED = ("nam", "pri", "img", "ima", "sku", "bra", "rat", "sto", "tit", "car", "gri", "ite",
           "pro", "lis", "lin", "des", "pag", "nav", "old", "sal", "buy", "url", "tag", "cat",
           "new", "off", "ad", "btn", "hd", "ft")
CENT = Decimal("0.01")
_B36 = "0123456789abcdefghijklmnopqrstuvwxyz"


@cache
def _token(role: str, length: int) -> str:
    """A deterministic random-looking token for a style role, free of readable words."""
    n = 0
    while True:
        num = int.from_bytes(hashlib.sha256(f"kumo:7219:{role}:{n}".encode()).digest(), "big")
        out = ""
        while len(out) < length:
            num, rem = divmod(num, 36)
            out += _B36[rem]
        if not any(word in out for word in _BANNED):
            return out
        n += 1


def cx(role: str) -> str:
    """Emotion-style class, e.g. ``css-1q8zt4k``."""
    return f"css-{_token(role, 7)}"


def mx(role: str) -> str:
    """Minified CSS-modules class, e.g. ``_k2v9d_1``."""
    return f"_{_token(role, 5)}_{sum(map(ord, role)) % 9 + 1}"


_STAR = ('<svg aria-hidden="true" viewBox="0 0 20 20" width="14" height="14"><path d="M10 1l2.9'
         ' 6 6.6.9-4.8 4.6 1.2 6.5L10 16l-5.9 3 1.2-6.5L.5 7.9l6.6-.9z"/></svg>')


class Kumo(Shop):
    name = "kumo"
    title = "Kumo Goods"
    hard = ("Hashed CSS-in-JS class names carry no meaning, so only data-testid/itemprop/"
            "aria-label and structure identify <article> cards in a <section>; numbered-only "
            "pagination; 'From $x' variant prices; a Recently-viewed carousel reuses the cards.")
    parent_mode = "both"
    pagination = "numbered"
    jsonld = True
    page_size = 12
    vocabulary = VOCAB
    spec = CatalogSpec(seed=7219, currency="USD", price_range=(4, 320), per_leaf=(9, 27),
                       sku_prefix="KG", sku_pattern="{prefix}{n:06d}", price_from_rate=0.15,
                       discount_rate=0.22, out_of_stock_rate=0.12, images=(2, 5))

    # ----- URL scheme --------------------------------------------------------------
    def category_url(self, cat: Category, page: int = 1) -> str:
        base = f"/collections/{cat.slug.rsplit('/', 1)[-1]}"
        return base if page == 1 else f"{base}?page={page}"

    def product_url(self, product: Product) -> str:
        return f"/products/{product.slug}"

    def card_image(self, product: Product) -> str:
        return f"/_next/image?url={quote(product.images[0], safe='')}&w=640&q=75"

    def extra_routes(self) -> dict[str, Callable[[], Response]]:
        """The image optimizer's URLs answer with the placeholder picture."""
        def image(path: str) -> Callable[[], Response]:
            return lambda: Response(200, placeholder_svg(path), "image/svg+xml")
        return {self.card_image(p): image(p.images[0]) for p in self.catalog.products}

    def recently_viewed(self, exclude: list[int]) -> list[Product]:
        picks = [p for p in self.catalog.products[5::9] if p.id not in exclude]
        return picks[:6]

    # ----- chrome --------------------------------------------------------------------
    def _doc(self, title: str, body: str, route: str, props: dict[str, object],
             extra_head: str = "") -> str:
        build = _token("build", 21)
        data = {"props": {"pageProps": props, "__N_SSP": True}, "page": route,
                "query": props.get("query", {}), "buildId": build, "isFallback": False,
                "gssp": True, "scriptLoader": []}
        chunks = "".join(f'<script src="/_next/static/chunks/{c}-{_token("js" + c, 16)}.js" defer>'
                         "</script>" for c in ("webpack", "framework", "main", "pages/_app"))
        return (
            '<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/>'
            '<meta name="viewport" content="width=device-width"/>'
            f"<title>{esc(title)} | {self.title}</title>"
            f'<link rel="stylesheet" href="/_next/static/css/{_token("css", 16)}.css"/>'
            f"{extra_head}{chunks}</head><body><div id=\"__next\">"
            f'<div class="{cx("cookie")}" role="dialog" aria-label="Cookie consent"><p>We use '
            'cookies to run the shop and measure traffic. <a href="/pages/privacy">Privacy</a>'
            f'</p><button class="{cx("ck-b")}" type="button">Reject</button><button class="'
            f'{cx("ck-b")} {cx("ck-p")}" type="button">Accept</button></div>'
            f"{self._header()}{body}{self._footer()}</div>"
            f'<script id="__NEXT_DATA__" type="application/json">{json_script(data)}</script>'
            "</body></html>")

    def _header(self) -> str:
        panels = []
        for i, top in enumerate(self.catalog.tops()):
            links = "".join(
                f'<li><a class="{cx("mm-a")}" href="{self.category_url(self.catalog.category(s))}'
                f'">{esc(self.catalog.category(s).name)}</a></li>' for s in top.children)
            panels.append(
                f'<li class="{cx("mm-li")}"><button class="{cx("mm-b")}" aria-expanded="false" '
                f'aria-controls=":R{i}m6:">{esc(top.name)}</button><div id=":R{i}m6:" class='
                f'"{cx("mm-p")}" hidden><ul class="{cx("mm-ul")}">{links}<li><a class='
                f'"{cx("mm-a")}" href="{self.category_url(top)}">Shop all {esc(top.name)}</a>'
                f'</li></ul><a class="{cx("mm-promo")}" href="/collections/new"><img src="/img/'
                f'promo-{i}.svg" alt="" width="240" height="160"/><span>New this week</span>'
                "</a></div></li>")
        return (
            f'<div class="{cx("bar")}">Free US shipping on orders over $50 · 30-day returns</div>'
            f'<header class="{cx("head")}"><a class="{cx("logo")}" href="/" aria-label="'
            f'{self.title} home"><svg viewBox="0 0 64 24" width="96" height="36" aria-hidden="'
            'true"><circle cx="12" cy="12" r="10"/></svg></a>'
            f'<nav class="{cx("mm")}" aria-label="Main"><ul class="{cx("mm-top")}">'
            f'{"".join(panels)}<li class="{cx("mm-li")}"><a class="{cx("mm-b")}" href='
            '"/collections/gift-cards">Gift cards</a></li></ul></nav>'
            f'<form class="{cx("search")}" role="search" action="/search"><input type="search" '
            'name="q" aria-label="Search" placeholder="Search Kumo"/></form>'
            f'<a class="{cx("icon")}" href="/account" aria-label="Account"></a>'
            f'<a class="{cx("icon")}" href="/cart" aria-label="Cart, 0 items"><span class='
            f'"{cx("bubble")}">0</span></a></header>')

    def _footer(self) -> str:
        cols = {"Shop": ["New arrivals", "Bestsellers", "Gift cards", "Corporate gifting"],
                "Help": ["Shipping", "Returns & exchanges", "Warranty", "Track your order"],
                "Kumo": ["Our story", "Journal", "Stockists", "Careers", "Sustainability"]}
        html_cols = "".join(
            f'<div class="{cx("f-col")}"><h2 class="{cx("f-h")}">{esc(h)}</h2><ul>'
            + "".join(f'<li><a class="{cx("f-a")}" href="/pages/{h.lower()}-{j}">{esc(t)}</a>'
                      "</li>" for j, t in enumerate(links)) + "</ul></div>"
            for h, links in cols.items())
        return (
            f'<footer class="{cx("foot")}"><div class="{cx("f-news")}"><h2>Join the list</h2>'
            '<form action="/contact"><input type="email" aria-label="Email"/><button type="submit"'
            f'>Subscribe</button></form></div><div class="{cx("f-grid")}">{html_cols}</div>'
            f'<p class="{cx("f-legal")}">© 2026 Kumo Goods, Inc. · United States (USD $) · '
            '<a href="/pages/terms">Terms</a> · <a href="/pages/privacy">Privacy</a></p>'
            "</footer>")

    def _ad(self) -> str:
        return (f'<div class="{cx("spons")}" data-slot="div-gpt-7319" aria-label="Sponsored">'
                '<span>Sponsored</span><a href="https://ads.example.invalid/c?k=kumo" rel='
                '"nofollow sponsored"><img src="/img/banner-desk-week.svg" alt="Desk week: 15% '
                'off lamps" width="300" height="250"/></a></div>')

    def _card(self, p: Product) -> str:
        url = esc(self.product_url(p))
        src = esc(self.card_image(p))
        badge = ""
        if p.availability == "out_of_stock":
            badge = f'<span class="{mx("c-bd")}">Sold out</span>'
        elif p.original_price:
            pct = round(100 * (1 - p.price / p.original_price))
            badge = f'<span class="{mx("c-bd")} {mx("c-bs")}">-{pct}%</span>'
        was = (f'<s class="{mx("c-w")}" aria-label="Regular price">'
               f"{esc(self.format_money(p.original_price))}</s>" if p.original_price else "")
        stock = "InStock" if p.availability == "in_stock" else "OutOfStock"
        stars = (f'<div class="{mx("c-r")}" role="img" aria-label="Rated {p.rating} out of 5 '
                 f'stars">{_STAR}<span class="{mx("c-rn")}">{p.review_count}</span></div>'
                 if p.rating is not None else "")
        return (
            f'<article class="{mx("c")}" data-testid="product-card" data-product-id="{p.id}" '
            f'data-price="{p.price:.2f}" itemscope itemtype="https://schema.org/Product">'
            f'<a class="{mx("c-m")}" href="{url}" tabindex="-1" aria-hidden="true">'
            f'<img itemprop="image" class="{mx("c-i")}" alt="{esc(p.name)}" src="{src}" '
            f'srcset="{src} 1x" loading="lazy" decoding="async" width="320" height="320" '
            f'style="color:transparent"/></a>{badge}<div class="{mx("c-b")}">'
            f'<p class="{mx("c-v")}" itemprop="brand">{esc(p.brand)}</p>'
            f'<h3 class="{mx("c-h")}"><a href="{url}" itemprop="url"><span itemprop="name">'
            f'{esc(p.name)}</span></a></h3>{stars}'
            f'<div class="{mx("c-o")}" itemprop="offers" itemscope itemtype='
            f'"https://schema.org/Offer"><meta itemprop="priceCurrency" content="USD"/>'
            f'<span class="{mx("c-p")}" itemprop="price" content="{p.price:.2f}">'
            f'{esc(self.price_text(p))}</span>{was}<link itemprop="availability" '
            f'href="https://schema.org/{stock}"/></div></div>'
            f'<button class="{mx("c-q")}" type="button" aria-label="Quick add {esc(p.name)}"'
            f'{" disabled" if stock == "OutOfStock" else ""}>+</button></article>')

    def _carousel(self, exclude: list[int]) -> str:
        cards = "".join(self._card(p) for p in self.recently_viewed(exclude))
        return (f'<section class="{cx("rv")}" aria-labelledby=":R5q:"><h2 id=":R5q:" class='
                f'"{cx("h2")}">Recently viewed</h2><div class="{cx("rv-t")}" role="list">'
                f'{cards}</div><button class="{cx("rv-b")}" aria-label="Scroll left"></button>'
                f'<button class="{cx("rv-b")}" aria-label="Scroll right"></button></section>')

    def _crumbs(self, chain: list[Category], last: str) -> str:
        items = "".join(f'<li><a href="{self.category_url(c)}">{esc(c.name)}</a></li>'
                        for c in chain)
        return (f'<nav class="{cx("bc")}" aria-label="Breadcrumb"><ol class="{cx("bc-ol")}">'
                f'<li><a href="/">Home</a></li>{items}<li aria-current="page">{esc(last)}</li>'
                "</ol></nav>")

    # ----- pages -------------------------------------------------------------------------
    def render_home(self) -> str:
        tiles = "".join(
            f'<a class="{cx("tile")}" href="{self.category_url(c)}"><img src="/img/col-{c.slug}'
            f'.svg" alt="" width="400" height="300"/><span>{esc(c.name)}</span></a>'
            for c in self.catalog.tops())
        cards = "".join(self._card(p) for p in self.catalog.products[2::13][:8])
        body = (f'<main class="{cx("main")}"><div class="{cx("hero")}"><h1>Small things for '
                f'a calmer desk</h1><a href="/collections/new">Shop new</a></div><div class="'
                f'{cx("tiles")}">{tiles}</div><section class="{cx("grid")}" aria-label="'
                f'Bestsellers">{cards}</section>{self._ad()}</main>')
        return self._doc("Stationery, desk & gadgets", body, "/", {"query": {}})

    def _pages(self, cat: Category, page: int) -> str:
        total = self.page_count(cat)
        if total == 1:
            return ""
        show = sorted({1, total, page - 1, page, page + 1} & set(range(1, total + 1)))
        parts, prev = [], 0
        for n in show:
            if n - prev > 1:
                parts.append(f'<li class="{cx("pg-li")}"><span aria-hidden="true">…</span></li>')
            cur = ' aria-current="page"' if n == page else ""
            parts.append(f'<li class="{cx("pg-li")}"><a class="{cx("pg-a")}" href="'
                         f'{esc(self.category_url(cat, n))}" aria-label="Page {n}"{cur}>{n}</a>'
                         "</li>")
            prev = n
        return (f'<nav class="{cx("pg")}" aria-label="Pagination"><ul class="{cx("pg-ul")}">'
                f'{"".join(parts)}</ul></nav>')

    def _grid(self, items: list[Product], page: int) -> str:
        """The cards, with an editorial promo tile after the fifth card on first pages."""
        cards = [self._card(p) for p in items]
        if page == 1 and len(cards) > 6:
            cards.insert(5, f'<div class="{cx("edit")}" data-testid="promo-tile"><a href="/'
                         'pages/desk-week"><img src="/img/edit-desk-week.svg" alt="" width="320"'
                         ' height="420"/><p>The Desk Week edit</p><span>Explore</span></a></div>')
        return "".join(cards)

    def render_list(self, cat: Category, page: int) -> str:
        items = self.pages_of(cat)[page - 1]
        chain = [self.catalog.category(cat.parent)] if cat.parent else []
        chips = ""
        if self.shows_subcategory_links(cat):
            chips = f'<ul class="{cx("chips")}">' + "".join(
                f'<li><a class="{cx("chip")}" href="{self.category_url(self.catalog.category(s))}'
                f'">{esc(self.catalog.category(s).name)}</a></li>' for s in cat.children) + "</ul>"
        brands = sorted({p.brand for p in self.listing(cat)})
        facets = "".join(f'<label class="{cx("fc-l")}"><input type="checkbox" name="brand" '
                         f'value="{esc(b)}"/>{esc(b)}</label>' for b in brands)
        handle = self.category_url(cat).rsplit("/", 1)[-1]
        body = (
            f'<main class="{cx("main")}">{self._crumbs(chain, cat.name)}'
            f'<div class="{cx("col")}"><h1 id=":R1a6:" class="{cx("h1")}">{esc(cat.name)}</h1>'
            f'{chips}<div class="{cx("bar2")}"><p class="{cx("cnt")}">{len(self.listing(cat))} '
            f'products</p><details class="{cx("fc")}"><summary>Brand</summary>{facets}</details>'
            f'<details class="{cx("fc")}"><summary>Availability</summary><label><input type='
            '"checkbox"/>In stock only</label></details><select aria-label="Sort by" class="'
            f'{cx("sel")}"><option>Featured</option><option>Price, low to high</option>'
            "<option>Price, high to low</option><option>Newest</option></select></div>"
            f'<section class="{cx("grid")}" aria-labelledby=":R1a6:">{self._grid(items, page)}'
            f'</section>{self._pages(cat, page)}</div>'
            f'{self._ad()}{self._carousel([p.id for p in items])}</main>')
        props = {"query": {"handle": handle, **({"page": str(page)} if page > 1 else {})},
                 "collection": {"handle": handle, "title": cat.name,
                                "productsCount": len(self.listing(cat))}}
        return self._doc(cat.name, body, "/collections/[handle]", props)

    def _jsonld(self, p: Product) -> str:
        stock = "InStock" if p.availability == "in_stock" else "OutOfStock"
        offer = {"@type": "AggregateOffer" if p.price_from else "Offer",
                 "lowPrice" if p.price_from else "price": f"{p.price:.2f}",
                 "priceCurrency": p.currency, "availability": f"https://schema.org/{stock}"}
        data: dict[str, object] = {
            "@context": "https://schema.org", "@type": "Product", "name": p.name, "sku": p.sku,
            "image": list(p.images), "description": p.description,
            "brand": {"@type": "Brand", "name": p.brand}, "offers": offer}
        if p.rating is not None:
            data["aggregateRating"] = {"@type": "AggregateRating", "ratingValue": p.rating,
                                       "reviewCount": p.review_count}
        return f'<script type="application/ld+json">{json_script(data)}</script>'

    def _variants(self, p: Product) -> str:
        if not p.price_from:
            return ""
        packs = [(n, (p.price * n * (20 - i) / 20).quantize(CENT))
                 for i, n in enumerate((1, 3, 6))]
        opts = "".join(f'<button class="{cx("var")}" type="button" aria-pressed="'
                       f'{"true" if n == 1 else "false"}">Pack of {n} — '
                       f"{esc(self.format_money(a))}</button>" for n, a in packs)
        return f'<fieldset class="{cx("vars")}"><legend>Size</legend>{opts}</fieldset>'

    def render_detail(self, p: Product) -> str:
        chain = self.breadcrumb(p)
        thumbs = "".join(
            f'<li><button class="{cx("th")}" aria-label="Show image {i}"><img src="{esc(src)}" '
            f'alt="" width="80" height="80"/></button></li>'
            for i, src in enumerate(p.images, start=1))
        was = (f'<s class="{cx("was")}" aria-label="Regular price">'
               f'{esc(self.format_money(p.original_price))}</s><span class="{cx("save")}">Save '
               f'{esc(self.format_money(p.original_price - p.price))}</span>'
               if p.original_price else "")
        stock = ("In stock, ready to ship" if p.availability == "in_stock"
                 else "Sold out — back soon")
        rating = (f'<a class="{cx("rt")}" href="#reviews" aria-label="Rated {p.rating} out of 5 '
                  f'stars, {p.review_count} reviews">{_STAR}<span>{p.rating}</span> <span>'
                  f'({p.review_count} reviews)</span></a>' if p.rating is not None else "")
        related = [q for q in self.catalog.products_in(p.category) if q.id != p.id][:4]
        avail = "InStock" if p.availability == "in_stock" else "OutOfStock"
        body = (
            f'<main class="{cx("main")}">{self._crumbs(chain, p.name)}<div class="{cx("pdp")}" '
            'itemscope itemtype="https://schema.org/Product">'
            f'<div class="{cx("gal")}"><img itemprop="image" class="{cx("hero-i")}" src="'
            f'{esc(p.images[0])}" alt="{esc(p.name)}" width="720" height="720"/>'
            f'<ul class="{cx("ths")}">{thumbs}</ul></div><div class="{cx("info")}">'
            f'<p class="{cx("vnd")}"><a href="/collections/vendors?q={quote(p.brand)}" '
            f'itemprop="brand">{esc(p.brand)}</a></p><h1 class="{cx("h1")}" itemprop="name">'
            f'{esc(p.name)}</h1>{rating}<div class="{cx("prc")}" itemprop="offers" itemscope '
            f'itemtype="https://schema.org/Offer"><meta itemprop="priceCurrency" content="'
            f'{p.currency}"/><span class="{cx("now")}" itemprop="price" content="{p.price:.2f}">'
            f'{esc(self.price_text(p))}</span>{was}<link itemprop="availability" href="https://'
            f'schema.org/{avail}"/><p class="{cx("tax")}">Taxes and shipping calculated at '
            f'checkout.</p></div>{self._variants(p)}<p class="{cx("inv")}" data-availability="'
            f'{p.availability}">{stock}</p><button class="{cx("atc")}" type="submit"'
            f'{" disabled" if avail == "OutOfStock" else ""}>'
            f'{"Add to cart" if avail == "InStock" else "Sold out"}</button>'
            f'<p class="{cx("skuw")}">SKU: <span itemprop="sku">{esc(p.sku)}</span></p>'
            f'<details class="{cx("acc")}" open><summary>Description</summary><div itemprop='
            f'"description" class="{cx("rte")}"><p>{esc(p.description)}</p></div></details>'
            f'<details class="{cx("acc")}"><summary>Shipping &amp; returns</summary><p>Free US '
            "shipping over $50. Returns within 30 days.</p></details></div></div>"
            f'<section class="{cx("rel")}" aria-labelledby=":R7u:"><h2 id=":R7u:">Pairs well '
            f'with</h2><div class="{cx("grid")}">{"".join(self._card(q) for q in related)}</div>'
            f'</section>{self._ad()}{self._carousel([p.id])}<section id="reviews" class="'
            f'{cx("rev")}"><h2>Reviews</h2><p>Write the first review.</p></section></main>')
        props = {"query": {"handle": p.slug}, "product": {"id": p.id, "handle": p.slug}}
        return self._doc(p.name, body, "/products/[handle]", props, self._jsonld(p))
