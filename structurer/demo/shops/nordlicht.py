"""Shop "nordlicht": a Tailwind-style home goods shop whose class names mean nothing.

What makes it hard: every node carries utility-CSS soup (``text-sm font-medium
text-gray-900``), so class names carry no field semantics; cards are anonymous
``div > div > div`` nests in a ``grid grid-cols-2 md:grid-cols-4`` container, the
product link is an overlay ``<a><span class="absolute inset-0"></span>name</a>``, a
promo tile sits inside the product grid, and a "Bestsellers" section below the list
uses the identical grid and card markup. Money is European (``1.299,00 €``), lists
paginate by path (``/category/<slug>/page/2/``) with a bare ``»`` link, parent
categories show only sub-category tiles, and there is no JSON-LD.
"""

from __future__ import annotations

from decimal import Decimal

from structurer.demo.base import Shop, esc
from structurer.demo.catalog import CatalogSpec, Category, Product, Vocabulary

VOCAB = Vocabulary(
    tree={
        "Kitchen": {"Cookware": ["Frying Pan", "Saucepan", "Dutch Oven", "Wok"],
                    "Tableware": ["Dinner Plate Set", "Serving Bowl", "Mug Set", "Carafe"],
                    "Kitchen Storage": ["Storage Jar", "Bread Bin", "Spice Rack"]},
        "Lighting": {"Pendant Lights": ["Pendant Lamp", "Cluster Pendant", "Rattan Shade"],
                     "Table Lamps": ["Table Lamp", "Desk Lamp", "Cordless Lamp"]},
        "Textiles": {"Cushions & Throws": ["Cushion Cover", "Wool Throw", "Knitted Blanket"],
                     "Rugs": ["Flatweave Rug", "Runner", "Washable Rug"]},
    },
    adjectives=["Halden", "Fjord", "Solveig", "Birka", "Lunde", "Aurora", "Skagen", "Vinter"],
    brands=["Nordlicht Studio", "Hygge & Co", "Ljus", "Tovik", "Moss Atelier", "Fenja"],
    materials=["solid oak", "enamelled cast iron", "mouth-blown glass", "stoneware",
               "organic cotton", "New Zealand wool", "powder-coated steel"],
    sentences=[
        "The {name} brings calm Scandinavian lines to everyday living.",
        "Crafted from {material} and finished by hand in small batches.",
        "{brand} designs each piece to be used daily and kept for years.",
        "Part of the {brand} range, it works in both modern and rustic interiors.",
        "Easy to care for and backed by our 3-year guarantee.",
    ],
    slugs={"Cushions & Throws": "cushions-throws"},
    name_pattern="{adj} {noun} {model}",
)

DASH = "\u2013"  # en dash, as typeset shops write it
STAR = "M10 1.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8L10 14.9l-5.2 2.7 1-5.8L1.5 7.7l5.9-.9z"
CHEVRON = ('<svg class="h-5 w-4 text-gray-300" viewBox="0 0 16 20" fill="currentColor" '
           'aria-hidden="true"><path d="M5.697 4.34L8.98 16.532h1.327L7.025 4.341H5.697z"/></svg>')
CARD = "group relative flex flex-col rounded-lg border border-gray-200 bg-white hover:shadow-md"
CARE = "Wipe clean with a damp cloth. Avoid harsh detergents and dishwashers."
SHIPPING = "Free delivery from 49,00 €. Return unused items within 30 days."
FILTERS = ("Price", "Colour", "Material", "In stock only")
GRID = "grid grid-cols-2 gap-x-4 gap-y-8 md:grid-cols-4 lg:gap-x-6"


class Nordlicht(Shop):
    name = "nordlicht"
    title = "Nordlicht Home"
    hard = ('Tailwind utility-class soup on anonymous div>div>div cards with an overlay link, a '
            'promo tile inside the grid and an identical Bestsellers grid below it; European '
            "money (1.299,00 €), /page/N/ path pagination with a bare '»' link, no JSON-LD.")
    parent_mode = "links"
    pagination = "path"
    jsonld = False
    page_size = 12
    vocabulary = VOCAB
    spec = CatalogSpec(seed=202, currency="EUR", price_range=(9, 1900), per_leaf=(14, 40),
                       sku_prefix="NLH", sku_pattern="{prefix}-{n:06d}", images=(2, 5),
                       out_of_stock_rate=0.12, discount_rate=0.3)

    # ----- URL scheme and money ------------------------------------------------------
    def category_url(self, cat: Category, page: int = 1) -> str:
        base = f"/category/{cat.slug}/"
        return base if page == 1 else f"{base}page/{page}/"

    def product_url(self, product: Product) -> str:
        return f"/products/{product.slug}"

    def card_image(self, product: Product) -> str:
        return product.images[0] + "?width=400"

    def card_image_best(self, product: Product) -> str:
        return product.images[0] + "?width=800"   # the card's srcset 2x entry

    def format_money(self, amount: Decimal) -> str:
        text = f"{amount:,.2f}".replace(",", "_").replace(".", ",").replace("_", ".")
        return f"{text} €"

    # ----- shared chrome ---------------------------------------------------------------
    def _head(self, title: str) -> str:
        return (
            '<!DOCTYPE html><html lang="en" class="h-full scroll-smooth"><head><meta '
            'charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<title>{esc(title)} {DASH} {self.title}</title><link rel="preconnect" '
            'href="https://fonts.example.invalid"><link rel="stylesheet" '
            'href="/_next/static/css/4f1b2c9e8a.css"><meta property="og:site_name" content="'
            f'{self.title}"><script defer src="/_next/static/chunks/main-8c1d.js"></script></head>'
            '<body class="h-full bg-white antialiased"><div id="__next">'
        )

    def _menu_links(self, top: Category, cls: str) -> str:
        return "".join(
            f'<li class="flex"><a href="{self.category_url(self.catalog.category(s))}" '
            f'class="{cls}">{esc(self.catalog.category(s).name)}</a></li>' for s in top.children)

    def _header(self) -> str:
        tops = self.catalog.tops()
        desktop = "".join(
            f'<div class="flex"><div class="relative flex"><a href="{self.category_url(t)}" '
            'class="relative z-10 -mb-px flex items-center border-b-2 border-transparent pt-px '
            f'text-sm font-medium text-gray-700 hover:text-gray-800">{esc(t.name)}</a></div>'
            '<div class="absolute inset-x-0 top-full hidden text-sm text-gray-500 '
            'group-hover:block"><div class="mx-auto max-w-7xl px-8"><div class="grid '
            'grid-cols-4 gap-x-8 gap-y-10 py-16"><div><p class="font-medium text-gray-900">'
            f'{esc(t.name)}</p><ul role="list" class="mt-6 space-y-6 sm:mt-4 sm:space-y-4">'
            + self._menu_links(t, "hover:text-gray-800") + "</ul></div></div></div></div></div>"
            for t in tops)
        mobile = "".join(
            f'<div class="space-y-6 px-4 pb-8 pt-10"><p class="font-medium text-gray-900">'
            f'{esc(t.name)}</p><ul role="list" class="mt-6 flex flex-col space-y-6">'
            + self._menu_links(t, "-m-2 block p-2 text-gray-500") + "</ul></div>" for t in tops)
        return (
            '<div class="relative z-40 lg:hidden" role="dialog" aria-modal="true" hidden><div '
            f'class="fixed inset-0 z-40 flex">{mobile}</div></div><header class="relative '
            'bg-white"><p class="flex h-10 items-center justify-center bg-gray-900 px-4 text-sm '
            'font-medium text-white">Free delivery from 49,00 € · 30-day returns</p><nav '
            'aria-label="Top" class="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8"><div class="border-b '
            'border-gray-200"><div class="flex h-16 items-center"><div class="ml-4 flex lg:ml-0">'
            f'<a href="/"><span class="sr-only">{self.title}</span><img class="h-8 w-auto" '
            'src="/img/logo-nordlicht.svg" alt=""></a></div><div class="hidden lg:ml-8 lg:block '
            f'lg:self-stretch"><div class="flex h-full space-x-8">{desktop}<a href="/journal" '
            'class="flex items-center text-sm font-medium text-gray-700">Journal</a><a '
            'href="/stores" class="flex items-center text-sm font-medium text-gray-700">Stores</a>'
            '</div></div><div class="ml-auto flex items-center"><a href="/search" class="p-2 '
            'text-gray-400"><span class="sr-only">Search</span></a><a href="/account" class="p-2 '
            'text-gray-400">Account</a><a href="/cart" class="group -m-2 flex items-center p-2">'
            '<span class="ml-2 text-sm font-medium text-gray-700">0</span><span class="sr-only">'
            'items in cart, view bag</span></a></div></div></div></nav></header>'
        )

    def _footer(self) -> str:
        cols = {"Shop": ["New in", "Bestsellers", "Gift cards", "Outlet", "Lookbook"],
                "Company": ["Who we are", "Sustainability", "Press", "Careers", "Terms"],
                "Help": ["Contact", "Shipping", "Returns", "Care guides", "FAQ"],
                "Connect": ["Instagram", "Pinterest", "Newsletter", "Affiliates"]}
        html_cols = "".join(
            f'<div><h3 class="text-sm font-medium text-gray-900">{h}</h3><ul role="list" '
            'class="mt-6 space-y-6">' + "".join(
                f'<li class="text-sm"><a href="/pages/{t.lower().replace(" ", "-")}" '
                f'class="text-gray-500 hover:text-gray-600">{t}</a></li>' for t in links)
            + "</ul></div>" for h, links in cols.items())
        return (
            '<footer aria-labelledby="footer-heading" class="border-t border-gray-200 bg-white">'
            '<h2 id="footer-heading" class="sr-only">Footer</h2><div class="mx-auto max-w-7xl '
            'px-4 py-20 sm:px-6 lg:px-8"><div class="grid grid-cols-2 gap-8 md:grid-cols-4">'
            f'{html_cols}</div><div class="mt-10 border-t border-gray-100 pt-8"><p class="text-xs '
            f'text-gray-500">© 2026 {self.title} GmbH. All prices incl. VAT.</p></div></div>'
            '</footer><div id="cookie-consent" class="fixed inset-x-0 bottom-0 z-50 px-6 pb-6">'
            '<div class="pointer-events-auto max-w-xl rounded-xl bg-white p-6 shadow-lg ring-1 '
            'ring-gray-900/10"><p class="text-sm leading-6 text-gray-900">We use cookies to '
            'personalise content and analyse our traffic. See our <a href="/pages/privacy" '
            'class="font-semibold text-indigo-600">cookie policy</a>.</p><div class="mt-4 flex '
            'items-center gap-x-5"><button type="button" class="rounded-md bg-gray-900 px-3 py-2 '
            'text-sm font-semibold text-white">Accept all</button><button type="button" '
            'class="text-sm font-semibold text-gray-900">Reject all</button></div></div></div>'
            '</div></body></html>'
        )

    def _stars(self, rating: float, size: str = "h-4 w-4") -> str:
        return "".join(
            f'<svg class="{size} flex-shrink-0 '
            f'{"text-yellow-400" if rating >= i + 0.5 else "text-gray-200"}" viewBox="0 0 20 20" '
            f'fill="currentColor" aria-hidden="true"><path d="{STAR}"/></svg>'
            for i in range(5))

    def _card(self, p: Product) -> str:
        img = esc(self.card_image(p))
        color = "text-red-600" if p.original_price else "text-gray-900"
        old = (f'<div class="text-sm line-through text-gray-500">'
               f"{esc(self.format_money(p.original_price))}</div>" if p.original_price else "")
        badge = (f'<div class="absolute left-2 top-2 rounded bg-red-600 px-2 py-0.5 text-xs '
                 f'font-semibold text-white">-{round(100 * (1 - p.price / p.original_price))}%'
                 "</div>" if p.original_price else "")
        rating = (f'<div class="mt-1 flex items-center" aria-label="Rated {p.rating} out of 5">'
                  f"{self._stars(p.rating, 'h-3 w-3')}"
                  f'<span class="ml-1 text-xs text-gray-500">({p.review_count})</span></div>'
                  if p.rating else "")
        stock = ('<div class="mt-1 text-xs text-red-600">Currently unavailable</div>'
                 if p.availability == "out_of_stock" else "")
        return (
            f'<div class="{CARD}"><div class="aspect-square w-full overflow-hidden rounded-t-lg '
            f'bg-gray-100 relative"><img src="{img}" srcset="{img} 1x, '
            f'{esc(self.card_image_best(p))} 2x" alt="{esc(p.name)}" class="h-full w-full object-cover object-center '
            f'group-hover:opacity-75" loading="lazy">{badge}</div><div class="flex flex-1 '
            'flex-col p-4"><div class="text-xs uppercase tracking-wide text-gray-500">'
            f'{esc(p.brand)}</div><h3 class="text-sm font-medium text-gray-900"><a href="'
            f'{esc(self.product_url(p))}"><span aria-hidden="true" class="absolute inset-0">'
            f'</span>{esc(p.name)}</a></h3>{rating}<div class="mt-auto flex items-baseline gap-2 '
            f'pt-2"><div class="mt-1 text-lg font-semibold {color}">{esc(self.price_text(p))}'
            f'</div>{old}</div>{stock}</div></div>'
        )

    def _section(self, key: str, heading: str, cards: str, visible: bool = True) -> str:
        cls = "text-2xl font-bold tracking-tight text-gray-900" if visible else "sr-only"
        return (f'<section aria-labelledby="{key}-heading" class="pb-16 pt-8">'
                f'<h2 id="{key}-heading" class="{cls}">{heading}</h2>'
                f'<div class="mt-6 {GRID}">{cards}</div></section>')

    def _bestsellers(self, exclude: list[int], title: str = "Bestsellers") -> str:
        cards = "".join(self._card(p) for p in self.bestsellers(exclude))
        return self._section(title.split()[0].lower(), title, cards)

    def _promo(self) -> str:
        return ('<div class="relative col-span-2 flex flex-col justify-end overflow-hidden '
                'rounded-lg bg-indigo-900 p-6 text-white"><p class="text-xs uppercase '
                'tracking-wide text-indigo-200">Sponsored</p><h3 class="mt-1 text-xl font-bold">'
                'Winter Sale: up to 40% off</h3><a href="/collections/sale?utm_source=grid" '
                'class="mt-4 text-sm font-semibold underline">Shop the sale</a><img '
                'src="/img/promo-winter.svg" alt="" class="absolute inset-0 -z-10"></div>')

    def _crumbs(self, chain: list[Category], current: str) -> str:
        items = "".join(
            f'<li><div class="flex items-center"><a href="{self.category_url(c)}" '
            f'class="mr-2 text-sm font-medium text-gray-900">{esc(c.name)}</a>{CHEVRON}</div></li>'
            for c in chain)
        return (
            '<nav aria-label="Breadcrumb" class="mx-auto max-w-7xl px-4 pt-6"><ol role="list" '
            'class="flex items-center space-x-2"><li><div class="flex items-center"><a href="/" '
            f'class="mr-2 text-sm font-medium text-gray-900">Home</a>{CHEVRON}</div></li>{items}'
            '<li class="text-sm"><span aria-current="page" class="font-medium text-gray-500">'
            f"{esc(current)}</span></li></ol></nav>")

    def _tiles(self, cats: list[Category]) -> str:
        return '<div class="grid grid-cols-1 gap-6 sm:grid-cols-3">' + "".join(
            f'<div class="group relative h-80 overflow-hidden rounded-lg bg-gray-100"><img src='
            f'"/img/cat-{esc(c.slug.replace("/", "-"))}.svg" alt="" class="h-full w-full '
            'object-cover"><div class="absolute inset-x-0 bottom-0 p-6"><h3 class="text-lg '
            f'font-semibold text-white"><a href="{self.category_url(c)}"><span class="'
            f'absolute inset-0"></span>{esc(c.name)}</a></h3><p class="text-sm text-white">'
            "Shop now</p></div></div>" for c in cats) + "</div>"

    # ----- pages -------------------------------------------------------------------------
    def render_home(self) -> str:
        featured = "".join(self._card(p) for p in self.catalog.products[2::13][:8])
        return (self._head("Scandinavian home goods") + self._header()
                + '<main><div class="relative bg-gray-900 px-6 py-32 text-center"><h1 '
                'class="text-4xl font-bold tracking-tight text-white">Light for the long '
                'nights</h1><a href="' + self.category_url(self.catalog.tops()[1])
                + '" class="mt-8 inline-block rounded-md bg-white px-8 py-3">Shop lighting'
                '</a></div><div class="mx-auto max-w-7xl px-4">'
                + self._tiles(self.catalog.tops())
                + self._section("featured", "Trending now", featured) + "</div></main>"
                + self._footer())

    def _pagination(self, cat: Category, page: int) -> str:
        total = self.page_count(cat)
        if total == 1:
            return ""
        link = ("inline-flex items-center border-t-2 border-transparent px-4 pt-4 text-sm "
                "font-medium text-gray-500 hover:border-gray-300 hover:text-gray-700")
        current = ('aria-current="page" class="inline-flex items-center border-t-2 '
                   'border-indigo-500 px-4 pt-4 text-sm font-medium text-indigo-600"')
        parts = [f'<a href="{self.category_url(cat, page - 1)}" class="{link}">«</a>'] * (page > 1)
        parts += [f'<a href="#" {current}>{n}</a>' if n == page else
                  f'<a href="{self.category_url(cat, n)}" class="{link}">{n}</a>'
                  for n in range(1, total + 1)]
        if page < total:
            parts.append(f'<a href="{self.category_url(cat, page + 1)}" class="{link}">»</a>')
        return ('<nav class="flex items-center justify-center border-t border-gray-200 px-4 '
                f'sm:px-0">{"".join(parts)}</nav>')

    def render_list(self, cat: Category, page: int) -> str:
        chain = [self.catalog.category(cat.parent)] if cat.parent else []
        title = cat.name if page == 1 else f"{cat.name} {DASH} Page {page}"
        head = (self._head(title) + self._header() + self._crumbs(chain, cat.name) + '<main class="mx-auto max-w-7xl px-4">'
                '<div class="border-b border-gray-200 pb-10 pt-12"><h1 class="text-4xl '
                f'font-bold tracking-tight text-gray-900">{esc(cat.name)}</h1>')
        if not self.lists_products(cat):
            subs = [self.catalog.category(s) for s in cat.children]
            return (head + '<p class="mt-4 text-base text-gray-500">Explore our '
                    f"{esc(cat.name.lower())} collections.</p></div>{self._tiles(subs)}"
                    + self._bestsellers([]) + "</main>" + self._footer())
        items = self.pages_of(cat)[page - 1]
        cards = [self._card(p) for p in items]
        if len(cards) >= 6:
            cards.insert(4, self._promo())
        filters = "".join(f'<button type="button" class="rounded-full border border-gray-300 '
                          f'px-3 py-1 text-sm text-gray-700">{f}</button>' for f in FILTERS)
        return (head + f'<p class="mt-4 text-base text-gray-500">{len(self.listing(cat))} '
                'products</p></div><div class="flex items-center justify-between pt-6">'
                f'<div class="flex gap-2">{filters}</div><select class="rounded-md border-gray-300 '
                'text-sm"><option>Most popular</option><option>Newest</option><option>Price: low '
                "to high</option></select></div>"
                + self._section("products", "Products", "".join(cards), visible=False)
                + self._pagination(cat, page) + self._bestsellers([p.id for p in items])
                + "</main>" + self._footer())

    def render_detail(self, p: Product) -> str:
        thumbs = "".join(
            f'<button type="button" class="relative flex h-24 cursor-pointer items-center '
            f'justify-center rounded-md bg-white"><span class="sr-only">View {i}</span>'
            f'<img src="{esc(src)}?width=200" alt="" class="h-full w-full object-cover">'
            "</button>" for i, src in enumerate(p.images, start=1))
        old = (f'<p class="text-lg line-through text-gray-500">'
               f'{esc(self.format_money(p.original_price))}</p><span class="rounded-full '
               'bg-red-100 px-2.5 py-0.5 text-xs font-medium text-red-800">Save '
               f"{esc(self.format_money(p.original_price - p.price))}</span>"
               if p.original_price else "")
        rating = (f'<div class="mt-3 flex items-center">{self._stars(p.rating, "h-5 w-5")}'
                  f'<p class="sr-only">{p.rating} out of 5 stars</p><a href="#reviews" '
                  f'class="ml-3 text-sm font-medium text-indigo-600">{p.review_count} reviews'
                  "</a></div>" if p.rating else "")
        stock = ('<span class="h-2 w-2 rounded-full bg-green-500"></span><p class="ml-2 '
                 'text-sm text-gray-500">In stock</p>' if p.availability == "in_stock" else
                 '<span class="h-2 w-2 rounded-full bg-gray-400"></span><p class="ml-2 '
                 'text-sm text-gray-500">Currently unavailable</p>')
        facts = "".join(
            f'<div class="flex py-2 text-sm"><dt class="w-32 text-gray-500">{k}</dt>'
            f'<dd class="text-gray-900">{v}</dd></div>' for k, v in (
                ("Item no.", esc(p.sku)), ("Designer", esc(p.brand)),
                ("Delivery", f"2{DASH}4 working days" if p.availability == "in_stock" else DASH)))
        texts = [("Description", esc(p.description)), ("Care", CARE), ("Shipping", SHIPPING)]
        panels = "".join(
            f'<details class="border-t border-gray-200 py-6"{" open" if i == 0 else ""}><summary '
            f'class="text-sm font-medium text-gray-900">{h}</summary><div class="mt-4 '
            f'space-y-6 text-base text-gray-700"><p>{t}</p></div></details>'
            for i, (h, t) in enumerate(texts))
        also = [q for q in self.catalog.products_in(p.category) if q.id != p.id][1:5]
        return (self._head(p.name) + self._header() + self._crumbs(self.breadcrumb(p), p.name)
                + '<main class="mx-auto max-w-7xl px-4 py-10"><div class="lg:grid '
                'lg:grid-cols-2 lg:gap-x-8"><div class="flex flex-col-reverse"><div class="mt-6 '
                f'grid grid-cols-4 gap-6">{thumbs}</div><div class="aspect-square w-full">'
                f'<img src="{esc(p.images[0])}" alt="{esc(p.name)}" class="h-full w-full '
                'object-cover sm:rounded-lg"></div></div><div class="mt-10 px-4 sm:mt-16 sm:px-0 '
                'lg:mt-0"><p class="text-sm text-gray-500">by <a href="/brands/'
                f'{esc(p.brand.lower().replace(" ", "-"))}" class="hover:underline">'
                f'{esc(p.brand)}</a></p><h1 class="text-3xl font-bold tracking-tight '
                f'text-gray-900">{esc(p.name)}</h1>{rating}<div class="mt-3"><h2 class="'
                'sr-only">Product information</h2><div class="flex items-baseline gap-3"><p '
                f'class="text-3xl tracking-tight text-gray-900">{esc(self.price_text(p))}</p>'
                f'{old}</div><p class="mt-1 text-xs text-gray-500">Incl. VAT, plus <a href="'
                '/pages/shipping" class="underline">shipping</a></p></div><div class="mt-6 '
                f'flex items-center">{stock}</div><form class="mt-6"><button type="submit" '
                'class="flex w-full items-center justify-center rounded-md bg-indigo-600 px-8 '
                'py-3 text-base font-medium text-white">Add to bag</button></form><dl class="'
                f'mt-8 divide-y divide-gray-200">{facts}</dl><div class="mt-8">{panels}</div>'
                '</div></div><section id="reviews" class="mt-16"><h2 class="text-lg '
                'font-medium text-gray-900">Customer reviews</h2><p class="mt-2 text-sm '
                'text-gray-500">Share your thoughts with other customers.</p></section>'
                + self._section("related", "Customers also viewed",
                                "".join(self._card(q) for q in also))
                + self._bestsellers([p.id, *(q.id for q in also)], "Recently viewed")
                + "</main>" + self._footer())
