"""Shop "brightline": a classic B2B industrial-supply shop whose lists are table rows.

What makes it hard: products are ``<tr>`` rows of a ``<table class="catalog">`` inside a
table-based page layout (SKU | Product | Pack size | Unit price | Stock | Qty), with
sub-category group-header rows mixed into the tbody on parent pages and a "Frequently
bought together" table in the right column that reuses the exact row markup. Prices read
``£12.99 incl. VAT``; detail pages also show an ``ex. VAT`` figure and ex-VAT volume
breaks. Detail URLs are query strings (``/item.php?id=N``), pagination is ``?p=N`` with
``<link rel="next">`` in the head and a body "Next page" link, parent categories list all
their children's products and link sub-categories only from the header mega-menu. Detail
pages carry schema.org microdata (no JSON-LD) and the spec sheet twice: a ``<dl>`` and a
``<table class="specs">``.
"""

from __future__ import annotations

from decimal import Decimal

from structurer.demo.base import Shop, esc
from structurer.demo.catalog import CatalogSpec, Category, Product, Vocabulary

VOCAB = Vocabulary(
    tree={
        "Fasteners": {
            "Bolts & Screws": ["Hex Bolts M8 x 40", "Coach Screws 8 x 60", "Wood Screws 4 x 40",
                               "Machine Screws M5 x 20", "Self-Tapping Screws 4.2 x 19"],
            "Nuts & Washers": ["Nyloc Nuts M10", "Flat Washers M8", "Spring Washers M12",
                               "Wing Nuts M6"],
            "Anchors & Plugs": ["Wall Plugs 6mm", "Sleeve Anchors M10", "Chemical Resin 380ml",
                                "Cavity Fixings"],
        },
        "Hand Tools": {
            "Spanners & Sockets": ["Combination Spanner Set", "Socket Set 1/2in",
                                   "Ratchet Spanner 13mm"],
            "Screwdrivers": ["VDE Screwdriver Set", "Stubby Screwdriver", "Bit Holder"],
            "Pliers & Cutters": ["Combination Pliers 200mm", "Side Cutters 160mm",
                                 "Cable Cutters"],
        },
        "Safety Equipment": {
            "Gloves": ["Nitrile Gloves", "Cut Level C Gloves", "Rigger Gloves"],
            "Eye Protection": ["Safety Spectacles", "Overspecs", "Safety Goggles"],
            "Hi-Vis Clothing": ["Hi-Vis Vest", "Hi-Vis Jacket", "Hi-Vis Trousers"],
        },
    },
    adjectives=["Heavy Duty", "Trade", "Professional", "Industrial", "Economy", "Pro-Series"],
    brands=["Torqwell", "Fixmaster", "Hexcore", "SafeGuard", "Steelmark", "Apex Industrial"],
    materials=["zinc-plated steel", "A2 stainless steel", "chrome vanadium steel",
               "nitrile-coated nylon", "polycarbonate", "high-tensile 8.8 steel"],
    sentences=[
        "The {name} is stocked in depth at our Leeds warehouse for same-day despatch.",
        "Manufactured from {material} to the relevant BS EN standards.",
        "{brand} {noun} are a trade favourite for site and workshop use.",
        "Supplied in trade packs; volume discounts apply automatically at checkout.",
        "A {adj} grade product suitable for professional installers.",
    ],
    name_pattern="{brand} {adj} {noun} {model}",
)
PACKS = {"Fasteners": ["Box of 100", "Box of 200", "Bag of 50", "Box of 500"],
         "Hand Tools": ["Each", "Each", "Set", "Each"],
         "Safety Equipment": ["Pair", "Pack of 10 pairs", "Each", "Box of 12"]}
COLUMNS = ("SKU", "Product", "Pack size", "Unit price", "Stock", "Qty")
VAT = Decimal("1.2")


class Brightline(Shop):
    name = "brightline"
    title = "Brightline Supply"
    hard = ("B2B table rows inside a table layout, group-header rows in the tbody and a "
            "'Frequently bought together' table with the same rows; '£x incl. VAT' prices "
            "next to ex-VAT figures, /item.php?id=N detail URLs, ?p=N with rel=next, "
            "microdata and a spec sheet as dl and table.")
    parent_mode = "products"
    pagination = "rel-next"
    jsonld = False
    page_size = 15
    vocabulary = VOCAB
    spec = CatalogSpec(seed=303, currency="GBP", price_range=(2, 420), per_leaf=(9, 34),
                       sku_prefix="BL", sku_pattern="{prefix}{n:06d}-{a}", images=(2, 4),
                       out_of_stock_rate=0.18, discount_rate=0.2, rating_rate=0.55)

    # ----- URL scheme and money ------------------------------------------------------
    def category_url(self, cat: Category, page: int = 1) -> str:
        base = f"/catalogue/{cat.slug}/"
        return base if page == 1 else f"{base}?p={page}"

    def item_id(self, product: Product) -> int:
        return 1041 + product.id * 3

    def product_url(self, product: Product) -> str:
        return f"/item.php?id={self.item_id(product)}"

    def card_image(self, product: Product) -> str:
        return product.images[0] + "?size=48"

    def format_money(self, amount: Decimal) -> str:
        return f"£{amount:,.2f}"

    def price_text(self, product: Product) -> str:
        return super().price_text(product) + " incl. VAT"

    def ex_vat(self, amount: Decimal) -> str:
        return self.format_money((amount / VAT).quantize(Decimal("0.01")))

    def pack(self, p: Product) -> str:
        top = self.breadcrumb(p)[0].name
        return PACKS[top][p.id % 4]

    def together(self, seed: int, exclude: list[int]) -> list[Product]:
        """'Frequently bought together' picks: vary with the page, never the main items."""
        pool = [q for q in self.catalog.products if q.id not in exclude]
        return [pool[(seed * 31 + k * 17) % len(pool)] for k in range(4)]

    def stock_level(self, p: Product) -> int:
        return 0 if p.availability == "out_of_stock" else 3 + (p.id * 53) % 900

    # ----- shared chrome ---------------------------------------------------------------
    def _head(self, title: str, extra: str = "") -> str:
        return (
            '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org'
            '/TR/xhtml1/DTD/xhtml1-transitional.dtd"><html><head><meta http-equiv="Content-Type" '
            f'content="text/html; charset=utf-8"><title>{esc(title)} - {self.title} Ltd</title>'
            '<link rel="stylesheet" type="text/css" href="/css/style.css?v=2011"><script '
            f'type="text/javascript" src="/js/jquery-1.7.2.min.js"></script>{extra}</head><body>'
            '<div id="cookie-msg" class="cookiebar">This site uses cookies. By continuing to '
            'browse you agree to our use of cookies. <a href="/cookies.php">More info</a> <a '
            'href="#" class="close">[X] Close</a></div><table id="wrapper" width="980" '
            'align="center" cellpadding="0" cellspacing="0" border="0">' + self._header()
        )

    def _header(self) -> str:
        depts = "".join(
            f'<li class="dept"><a href="{self.category_url(t)}">{esc(t.name)}</a><div '
            'class="flyout"><ul>' + "".join(
                f'<li><a href="{self.category_url(self.catalog.category(s))}">'
                f"{esc(self.catalog.category(s).name)}</a></li>" for s in t.children)
            + "</ul></div></li>" for t in self.catalog.tops())
        return (
            '<tr><td id="hdr" colspan="2"><table width="100%" cellpadding="4"><tr><td>'
            '<a href="/"><img src="/img/brightline-logo.gif" alt="Brightline Supply Ltd" '
            'width="220" height="60" border="0"></a></td><td align="right" class="tel">'
            'Trade sales: <b>0113 496 0000</b><br><a href="/account/login.php">Log in</a> | '
            '<a href="/account/register.php">Open a trade account</a> | <a href="/basket.php">'
            'Basket (0 items)</a></td></tr></table><form action="/search.php" method="get" '
            'class="search">Search: <input type="text" name="q" size="30"> <input '
            'type="submit" value="Go"> &nbsp; Quick order by part no: <input type="text" '
            'name="sku" size="12"></form><ul id="nav" class="megamenu">' + depts
            + '<li><a href="/offers.php">Special offers</a></li><li><a href="/brands.php">'
            'Brands</a></li><li><a href="/clearance.php">Clearance</a></li></ul></td></tr>'
        )

    def _right(self, picks: list[Product]) -> str:
        return (
            '<td id="right" valign="top" width="250"><div class="box"><h3>Frequently '
            "bought together</h3>" + self._table(picks, "catalog mini") + '</div><div class="box '
            'banner"><a href="https://ads.example.invalid/c?b=brightline&amp;s=r1" '
            'target="_blank"><img src="/img/ad-credit.gif" width="240" height="120" alt="Trade '
            'account? 30 days credit"></a><br><small>Advertisement</small></div><div class="box">'
            '<h3>Why Brightline?</h3><ul><li>Next-day delivery on orders before 4pm</li><li>Free '
            'delivery over £75.00 ex. VAT</li><li>30-day credit accounts</li></ul></div></td>'
        )

    def _footer(self) -> str:
        cols = {"Customer services": ["Contact us", "Delivery", "Returns", "Track order",
                                      "Credit accounts"],
                "Company": ["About us", "Careers", "Quality ISO 9001", "Terms of sale",
                            "Modern slavery statement"],
                "Resources": ["Data sheets", "Safety data sheets", "Size charts",
                              "Catalogue PDF", "Trade counter"]}
        cells = "".join(
            f'<td valign="top"><b>{h}</b><br>' + "<br>".join(
                f'<a href="/info.php?page={i * 10 + j}">{t}</a>' for j, t in enumerate(links))
            + "</td>" for i, (h, links) in enumerate(cols.items()))
        return (
            f'<tr><td id="ftr" colspan="2"><table width="100%"><tr>{cells}</tr></table>'
            '<p class="legal">© 2004-2026 Brightline Supply Ltd. Registered in England No. '
            "04812233. VAT No. GB 812 3345 21. All prices include VAT at 20% unless stated."
            "</p></td></tr></table></body></html>"
        )

    def _row(self, p: Product, odd: bool) -> str:
        url = esc(self.product_url(p))
        rrp = (f'<br><span class="rrp">RRP <s>{self.format_money(p.original_price)}</s></span>'
               if p.original_price else "")
        stock = (f'<span class="instock">In stock ({self.stock_level(p)})</span>'
                 if p.availability == "in_stock" else
                 '<span class="nostock">Out of stock</span><br><small>Back-order 5-7 days</small>')
        return (
            f'<tr class="{"odd" if odd else "even"}"><td class="sku">{esc(p.sku)}</td><td '
            f'class="prod"><a href="{url}"><img src="{esc(self.card_image(p))}" width="48" '
            f'height="48" alt="" class="thumb" border="0"></a> <a href="{url}" class="pname">'
            f'{esc(p.name)}</a><br><span class="mfr">{esc(p.brand)}</span></td><td class="pack">'
            f'{self.pack(p)}</td><td class="price"><b>{esc(self.price_text(p))}</b>{rrp}</td><td '
            f'class="stock">{stock}</td><td class="qty"><input type="text" name="qty['
            f'{self.item_id(p)}]" size="3" value=""> <input type="image" src="/img/btn-add.gif" '
            'alt="Add"></td></tr>'
        )

    def _table(self, items: list[Product], cls: str, groups: bool = False) -> str:
        rows, last = [], ""
        for i, p in enumerate(items):
            if groups and p.category != last:
                rows.append(f'<tr class="group"><td colspan="6"><b>'
                            f"{esc(self.catalog.category(p.category).name)}</b></td></tr>")
                last = p.category
            rows.append(self._row(p, i % 2 == 0))
        head = "".join(f"<th>{c}</th>" for c in COLUMNS)
        return (f'<table class="{cls}" width="100%" cellspacing="0" cellpadding="3">'
                f"<thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>")

    def _crumbs(self, chain: list[Category], current: str) -> str:
        links = "".join(f'<a href="{self.category_url(c)}">{esc(c.name)}</a> &gt; '
                        for c in chain)
        return (f'<div class="crumbs">You are here: <a href="/">Home</a> &gt; {links}'
                f"<b>{esc(current)}</b></div>")

    # ----- pages -------------------------------------------------------------------------
    def render_home(self) -> str:
        offers = [p for p in self.catalog.products if p.original_price][:8]
        depts = "".join(
            f'<td valign="top" width="33%"><h2><a href="{self.category_url(t)}">'
            f'{esc(t.name)}</a></h2><img src="/img/dept-{t.slug}.gif" width="200" alt="">'
            "</td>" for t in self.catalog.tops())
        return (self._head("Industrial fasteners, tools and PPE")
                + '<tr><td id="main" valign="top"><h1>Welcome to Brightline Supply</h1>'
                "<p>Over 12,000 lines of fixings, tools and safety equipment for the trade, "
                f'with next-day delivery.</p><table width="100%"><tr>{depts}</tr></table>'
                "<h2>This month's special offers</h2>" + self._table(offers, "catalog")
                + "</td>" + self._right(list(self.catalog.products[5::17][:4])) + "</tr>"
                + self._footer())

    def _pager(self, cat: Category, page: int) -> str:
        total = self.page_count(cat)
        parts = [f"Page {page} of {total}"]
        if page > 1:
            parts.append(f'<a href="{self.category_url(cat, page - 1)}" rel="prev">'
                         "&laquo; Previous page</a>")
        if page < total:
            parts.append(f'<a href="{self.category_url(cat, page + 1)}" rel="next">'
                         "Next page &raquo;</a>")
        return f'<div class="pager">{" | ".join(parts)}</div>'

    def render_list(self, cat: Category, page: int) -> str:
        items = self.pages_of(cat)[page - 1]
        total = self.page_count(cat)
        links = "".join(
            f'<link rel="{rel}" href="{self.category_url(cat, n)}">'
            for rel, n in (("prev", page - 1), ("next", page + 1)) if 1 <= n <= total)
        chain = [self.catalog.category(cat.parent)] if cat.parent else []
        count = len(self.listing(cat))
        start = (page - 1) * self.page_size + 1
        picks = self.together(page + len(cat.slug), [p.id for p in items])
        return (self._head(cat.name if page == 1 else f"{cat.name} (page {page})", links)
                + '<tr><td id="main" valign="top">' + self._crumbs(chain, cat.name)
                + f'<h1>{esc(cat.name)}</h1><p class="intro">Trade prices on {count} '
                f"{esc(cat.name.lower())} lines. Volume discounts apply at checkout.</p>"
                f'<div class="listbar">Showing {start}-{start + len(items) - 1} of {count} '
                'products &nbsp; Sort by: <select name="sort"><option>Part number</option>'
                "<option>Price</option><option>Description</option></select></div>"
                '<form action="/basket.php?action=multi" method="post">'
                + self._table(items, "catalog", groups=not cat.is_leaf)
                + '<div class="multiadd"><input type="submit" value="Add selected to '
                'basket"></div></form>' + self._pager(cat, page) + "</td>"
                + self._right(picks) + "</tr>" + self._footer())

    def _buy(self, p: Product) -> str:
        """The buy box: schema.org offer, prices with and without VAT, stock, rating, the
        basket form and volume pricing."""
        availability = "InStock" if p.availability == "in_stock" else "OutOfStock"
        stock = (f"In stock - {self.stock_level(p)} available, order by 4pm for next-day "
                 "delivery" if p.availability == "in_stock"
                 else "Out of stock - available on back-order (5-7 days)")
        rrp = (f'<div class="rrp">RRP <s>{self.format_money(p.original_price)}</s> - you save '
               f"{self.format_money(p.original_price - p.price)}</div>" if p.original_price
               else "")
        rating = (f'<div class="stars" itemprop="aggregateRating" itemscope itemtype="'
                  f'https://schema.org/AggregateRating"><img src="/img/stars-{round(p.rating)}'
                  f'.gif" alt="{round(p.rating)} stars"> <span itemprop="ratingValue">'
                  f'{p.rating}</span>/5 (<a href="#reviews"><span itemprop="reviewCount">'
                  f"{p.review_count}</span> reviews</a>)</div>" if p.rating else
                  '<div class="stars">No reviews yet</div>')
        breaks = "".join(
            f"<tr><td>{q}</td><td>{self.ex_vat(p.price * Decimal(f))}</td></tr>"
            for q, f in (("10-49", "0.95"), ("50+", "0.9")))
        return (
            '<td class="buy" valign="top"><div itemprop="offers" itemscope '
            'itemtype="https://schema.org/Offer"><meta itemprop="priceCurrency" content="GBP">'
            f'<meta itemprop="price" content="{p.price:.2f}"><link itemprop="availability" '
            f'href="https://schema.org/{availability}">'
            f'<div class="pinc">{esc(self.price_text(p))}</div>'
            f'<div class="pex">{self.ex_vat(p.price)} ex. VAT</div>{rrp}'
            f'<div class="stock">{stock}</div></div>{rating}'
            '<form action="/basket.php" method="post">Qty: <input type="text" name="qty" '
            'value="1" size="3"> <input type="submit" value="Add to basket"></form>'
            '<table class="breaks"><caption>Volume pricing (ex. VAT)</caption><tr><th>Qty</th>'
            f"<th>Unit price</th></tr>{breaks}</table></td>")

    def render_detail(self, p: Product) -> str:
        stock_short = (f"In stock ({self.stock_level(p)})" if p.availability == "in_stock"
                       else "Out of stock")
        thumbs = "".join(
            f'<a href="{esc(src)}" target="_blank"><img src="{esc(src)}?size=60" '
            f'width="60" height="60" alt="{esc(p.name)} image {i}" border="0"></a> '
            for i, src in enumerate(p.images, start=1))
        spec = (("Manufacturer", esc(p.brand), "brand"), ("Part number", esc(p.sku), "sku"),
                ("Pack size", self.pack(p), ""), ("Stock", stock_short, ""))
        dl = "".join(f"<dt>{k}</dt><dd" + (f' itemprop="{ip}"' if ip else "") + f">{v}</dd>"
                     for k, v, ip in spec)
        specs = "".join(f'<tr><th align="left">{k}</th><td>{v}</td></tr>' for k, v in (
            *((k, v) for k, v, _ in spec[:3]),
            ("Weight", f"{0.05 + (p.id * 7) % 40 / 20:.2f} kg"),
            ("Commodity code", f"{73181000 + p.id * 11}"), ("Country of origin", "United Kingdom"
                                                            if p.id % 3 else "Germany")))
        doc = f"/docs/{self.item_id(p)}"
        body = (
            '<h2>Description</h2><div class="desc" itemprop="description">'
            f'<p>{esc(p.description)}</p></div><h2>Specification</h2><dl class="spec">{dl}</dl>'
            f'<h2>Technical data</h2><table class="specs" cellpadding="3">{specs}</table>'
            f'<h2>Downloads</h2><ul class="docs"><li><a href="{doc}-datasheet.pdf">Data sheet '
            f'(PDF)</a></li><li><a href="{doc}-sds.pdf">Safety data sheet (PDF)</a></li></ul>'
            '<h2 id="reviews">Reviews</h2><p>Log in to write a review.</p>')
        return (self._head(p.name) + '<tr><td id="main" valign="top">'
                + self._crumbs(self.breadcrumb(p), p.name)
                + '<div id="product" itemscope itemtype="https://schema.org/Product">'
                f'<h1 itemprop="name">{esc(p.name)}</h1><div class="codeline">Part no: '
                f"{esc(p.sku)} | Manufacturer: {esc(p.brand)}</div>"
                '<table class="prodtop" width="100%"><tr><td class="gallery" valign="top" '
                f'width="320"><img id="mainimg" itemprop="image" src="{esc(p.images[0])}" '
                f'width="300" height="300" alt="{esc(p.name)}"><div class="thumbs">{thumbs}</div>'
                f"</td>{self._buy(p)}</tr></table>{body}</div></td>"
                + self._right(self.together(p.id, [p.id])) + "</tr>" + self._footer())
