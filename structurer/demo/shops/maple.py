"""Shop "maple" (Maple & Co.): a Canadian home & kitchen shop with mixed rendering.

What makes it hard: the page levels differ in how they are built. The home page and
the department pages (sub-category tiles only, no product list) are static HTML;
the leaf category list pages are a static shell — header, mega-menu, breadcrumb,
sibling links, footer — whose product grid, facets, result count, pagination and
"Customers also viewed" rail are fetched by script from ``/api/v2/categories/<id>/products?page=N``
(the raw HTML holds no product data at all); product pages are static again with
JSON-LD. Static department and home pages also show product tiles ("Top picks",
"Popular in …") in the same markup as the list grid, and tiles show a struck-through
list price *before* the sale price. Prices are Canadian dollars shown as ``$24.99``.
The parts of its markup that need no shop state are :mod:`~structurer.demo.shops.maple_parts`.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from structurer.demo.base import Response, Shop, esc, json_response, static_file
from structurer.demo.catalog import CatalogSpec, Category, Product, Vocabulary, slugify
from structurer.demo.shops import maple_parts as parts

VOCAB = Vocabulary(
    tree={
        "Kitchen": {
            "Cookware": ["Dutch Oven", "Fry Pan", "Saucepan", "Stock Pot"],
            "Small Appliances": ["Stand Mixer", "Kettle", "Toaster", "Slow Cooker"],
            "Bakeware": ["Loaf Pan", "Baking Sheet", "Pie Dish", "Muffin Tin"],
            "Cutlery": ["Chef's Knife", "Knife Block", "Paring Knife", "Bread Knife"],
        },
        "Garden & Patio": {
            "Planters & Pots": ["Planter", "Window Box", "Hanging Basket"],
            "Garden Tools": ["Pruning Shears", "Trowel Set", "Garden Hose", "Wheelbarrow"],
            "Outdoor Lighting": ["Solar Path Light", "String Lights", "Lantern"],
        },
        "Home Décor": {
            "Throws & Blankets": ["Wool Throw", "Sherpa Blanket", "Knit Throw"],
            "Candles": ["Soy Candle", "Pillar Candle", "Candle Set"],
            "Wall Art": ["Framed Print", "Canvas Print", "Wall Mirror"],
        },
    },
    adjectives=["Heritage", "Rustic", "Lakeside", "Nordic", "Harvest", "Enamelled", "Frost",
                "Birchwood", "Prairie"],
    brands=["Muskoka Home", "Laurentian", "True North Kitchen", "Cedar & Pine", "Bayfield",
            "Okanagan Living"],
    materials=["enamelled cast iron", "tri-ply stainless steel", "Canadian maple",
               "stoneware", "recycled cotton", "powder-coated steel"],
    sentences=[
        "The {name} is made to last through many Canadian winters.",
        "Crafted from {material} for everyday use.",
        "{brand} designs every {noun} in its Ontario studio.",
        "A {adj} look that suits cottages and city condos alike.",
        "Backed by our 90-day no-hassle return policy.",
        "Easy to clean and built for years of family meals.",
    ],
    slugs={"Garden & Patio": "garden-patio", "Home Décor": "home-decor"},
)



class Maple(Shop):
    name = "maple"
    title = "Maple & Co."
    hard = ("Mixed rendering: static home and department pages, but leaf list pages are a "
            "static shell whose product grid and pagination are fetched by script from a "
            "JSON API, then static detail pages with JSON-LD.")
    render = {"category": "static", "list": "browser", "detail": "static"}
    page_size = 24
    parent_mode = "links"
    pagination = "query"
    jsonld = True
    vocabulary = VOCAB
    spec = CatalogSpec(seed=1867, currency="CAD", price_range=(6, 1300), per_leaf=(20, 60),
                       sku_prefix="", sku_pattern="{n:07d}", out_of_stock_rate=0.18,
                       discount_rate=0.3)

    # ----- URL scheme ----------------------------------------------------------------
    def home_url(self) -> str:
        return "/en/"

    def category_url(self, cat: Category, page: int = 1) -> str:
        base = f"/en/{cat.slug}/"
        return base if page == 1 else f"{base}?page={page}"

    def product_url(self, product: Product) -> str:
        return f"/en/pdp/{product.slug}p.html"

    def card_image(self, product: Product) -> str:
        return product.images[0] + "?sw=300&sh=300"

    def category_id(self, cat: Category) -> int:
        return self.catalog.categories.index(cat) + 101

    def api_list_url(self, cat: Category, page: int) -> str:
        return f"/api/v2/categories/{self.category_id(cat)}/products?page={page}"

    # ----- data shared by static tiles and the list API ------------------------------
    def tile_json(self, p: Product) -> dict[str, Any]:
        old = p.original_price
        return {
            "id": p.id, "pid": p.sku, "url": self.product_url(p), "name": p.name,
            "brand": p.brand, "image": self.card_image(p),
            "price": {
                "sales": {"value": float(p.price), "decimal": f"{p.price:.2f}",
                          "formatted": self.price_text(p)},
                "list": ({"value": float(old), "decimal": f"{old:.2f}",
                          "formatted": self.format_money(old)} if old is not None else None),
            },
            "rating": p.rating, "reviewCount": p.review_count,
            "available": p.availability == "in_stock",
        }

    def list_json(self, cat: Category, page: int) -> dict[str, Any]:
        items = self.pages_of(cat)[page - 1]
        total = self.page_count(cat)
        return {
            "category": {"id": self.category_id(cat), "name": cat.name,
                         "url": self.category_url(cat)},
            "page": page, "pageCount": total, "pageSize": self.page_size,
            "total": len(self.listing(cat)),
            "products": [self.tile_json(p) for p in items],
            "pagination": {
                "pages": [{"n": n, "url": self.category_url(cat, n)} for n in range(1, total + 1)],
                "prev": self.category_url(cat, page - 1) if page > 1 else None,
                "next": self.category_url(cat, page + 1) if page < total else None,
            },
            "refinements": self.refinements(cat),
            "recommendations": {"title": "Customers also viewed", "products": [
                self.tile_json(p) for p in self.bestsellers(p.id for p in items)]},
        }

    def refinements(self, cat: Category) -> list[dict[str, Any]]:
        """Facets of a leaf listing, as the search API reports them (values with counts)."""
        products = self.listing(cat)
        brands = sorted({p.brand for p in products})
        bands = [("$0 - $25", 0, 25), ("$25 - $100", 25, 100), ("$100 - $500", 100, 500),
                 ("$500+", 500, 10**9)]
        return [
            {"id": "brand", "name": "Brand", "values": [
                {"label": b, "count": sum(p.brand == b for p in products)} for b in brands]},
            {"id": "price", "name": "Price", "values": [
                {"label": label, "count": sum(lo <= p.price < hi for p in products)}
                for label, lo, hi in bands]},
            {"id": "rating", "name": "Customer Rating", "values": [
                {"label": f"{n} stars & up", "count": sum((p.rating or 0) >= n for p in products)}
                for n in (4, 3, 2)]},
        ]

    def list_response(self, cat: Category, page: int) -> Response:
        return json_response(self.list_json(cat, page))

    def extra_routes(self) -> dict[str, Callable[[], Response]]:
        table: dict[str, Callable[[], Response]] = {
            "/": lambda: Response(302, b"", "text/html; charset=utf-8", {"Location": "/en/"}),
            "/static/js/main.js": lambda: Response(200, static_file("maple.js"),
                                                   "application/javascript; charset=utf-8"),
            "/static/css/global.css": lambda: Response(200, static_file("maple.css"),
                                                       "text/css; charset=utf-8"),
        }
        for cat in self.catalog.leaves():
            for page in range(1, self.page_count(cat) + 1):
                table[self.api_list_url(cat, page)] = partial(self.list_response, cat, page)
        return table

    # ----- shared chrome -------------------------------------------------------------------
    def _header(self) -> str:
        items = []
        for top in self.catalog.tops():
            subs = "".join(
                f"<li class=\"dropdown-item\" role=\"presentation\"><a class=\"dropdown-link\" "
                f"role=\"menuitem\" href=\"{self.category_url(c)}\">{esc(c.name)}</a></li>"
                for c in (self.catalog.category(s) for s in top.children))
            items.append(
                "<li class=\"nav-item dropdown\" role=\"presentation\"><a class=\"nav-link "
                f"dropdown-toggle\" role=\"menuitem\" href=\"{self.category_url(top)}\">"
                f"{esc(top.name)}</a><ul class=\"dropdown-menu\" role=\"menu\">{subs}"
                f"<li class=\"dropdown-item view-all\"><a href=\"{self.category_url(top)}\">"
                f"Shop all {esc(top.name)}</a></li></ul></li>")
        return (
            "<div class=\"consent-banner\" id=\"consent-tracking\" role=\"region\" "
            "aria-label=\"Cookie consent\"><p>We use cookies to give you the best shopping "
            "experience. See our <a href=\"/en/help/3-0\">Privacy Policy</a>.</p>"
            "<button class=\"btn btn-primary js-consent-accept\" type=\"button\">Accept</button>"
            "<button class=\"btn btn-outline js-consent-decline\" type=\"button\">Decline</button>"
            "</div><div class=\"header-banner\">Free shipping on orders over $75 across Canada "
            "· <a href=\"/en/help/0-2\">Details</a></div>"
            "<header class=\"site-header\"><div class=\"header-top container\">"
            f"<a class=\"logo-home\" href=\"/en/\" title=\"{esc(self.title)} Home\">"
            "<img class=\"leaf\" src=\"/img/logo-leaf.svg\" alt=\"\" width=\"30\" height=\"30\"> "
            f"{esc(self.title)}</a>"
            "<form class=\"site-search\" role=\"search\" action=\"/en/search\" method=\"get\">"
            "<input class=\"search-field\" type=\"search\" name=\"q\" placeholder=\"What can we "
            "help you find?\" aria-label=\"Search\"><button type=\"submit\">Search</button></form>"
            "<div class=\"header-links\"><a href=\"/en/stores\">Find a store</a>"
            "<a href=\"/en/account/login\">Sign in</a><a href=\"/fr/\" lang=\"fr\">Français</a>"
            "<a class=\"minicart-link\" href=\"/en/cart\">Cart <span class=\"minicart-quantity\">0"
            "</span></a></div></div><nav class=\"navbar\" role=\"navigation\" aria-label=\"Main\">"
            f"<ul class=\"nav navbar-nav container\" role=\"menu\">{''.join(items)}"
            "<li class=\"nav-item\"><a class=\"nav-link\" href=\"/en/flyer\">Weekly Flyer</a></li>"
            "<li class=\"nav-item\"><a class=\"nav-link sale\" href=\"/en/clearance\">Clearance</a>"
            "</li></ul></nav></header>")

    def _crumbs(self, links: list[tuple[str, str]], current: str | None = None) -> str:
        parts = [f"<li class=\"breadcrumb-item\"><a href=\"{esc(url)}\">{esc(name)}</a></li>"
                 for name, url in [("Home", self.home_url()), *links]]
        if current:
            parts.append(f"<li class=\"breadcrumb-item active\" aria-current=\"page\">"
                         f"{esc(current)}</li>")
        return f"<nav aria-label=\"Breadcrumb\"><ol class=\"breadcrumb container\">{''.join(parts)}</ol></nav>"

    def _tiles(self, title: str, products: list[Product]) -> str:
        return (f"<section class=\"recommendations container\"><h2 class=\"rec-title\">"
                f"{esc(title)}</h2><div class=\"row product-grid\">"
                f"{''.join(parts.tile(self.tile_json(p)) for p in products)}</div></section>")

    def _category_tiles(self, cats: list[Category]) -> str:
        tiles = "".join(
            f"<div class=\"col-6 col-md-3\"><a class=\"category-tile\" href=\""
            f"{self.category_url(c)}\"><img src=\"/img/cat-{c.slug.replace('/', '-')}.svg\" "
            f"alt=\"\"><h2 class=\"category-tile__name\">{esc(c.name)}</h2><span class=\""
            f"category-tile__count\">{len(self.catalog.products_in(c.slug))} products</span>"
            "</a></div>" for c in cats)
        return f"<div class=\"row category-tiles\">{tiles}</div>"

    # ----- pages -------------------------------------------------------------------
    def render_home(self) -> str:
        return (parts.head("Home, Kitchen & Garden", self.title) + self._header()
                + "<main id=\"maincontent\" class=\"home-main\"><section class=\"hero-banner\">"
                "<h1>Cottage season starts here</h1><p>Up to 30% off patio lights, planters and "
                "outdoor dining.</p><a class=\"btn btn-primary\" href=\""
                f"{self.category_url(self.catalog.tops()[1])}\">Shop Garden &amp; Patio</a>"
                "</section><section class=\"container\"><h2>Shop by department</h2>"
                + self._category_tiles(self.catalog.leaves()) + "</section>"
                + self._tiles("Top picks for you", self.bestsellers())
                + "<div class=\"ad-banner container\"><a href=\"https://ads.example.invalid/"
                "click?c=maple-bbq\" rel=\"sponsored\"><img src=\"/img/ad-bbq-season.svg\" "
                "alt=\"BBQ season: save on grills\"></a></div></main>" + parts.footer(self.title))

    def render_list(self, cat: Category, page: int) -> str:
        return self._leaf_shell(cat) if cat.is_leaf else self._department(cat)

    def _department(self, cat: Category) -> str:
        children = [self.catalog.category(s) for s in cat.children]
        popular = self.catalog.products_in(cat.slug)[2::9][:4]
        brands = sorted({p.brand for p in self.catalog.products_in(cat.slug)})
        brand_links = "".join(f"<li><a href=\"/en/brands/{slugify(b)}/\">{esc(b)}</a></li>"
                              for b in brands)
        return (parts.head(cat.name, self.title) + self._header() + self._crumbs([], cat.name)
                + f"<main id=\"maincontent\" class=\"container clp\"><h1 class=\"page-title\">"
                f"{esc(cat.name)}</h1><p class=\"clp-intro\">Everything for your "
                f"{esc(cat.name.lower())}, chosen by our buyers and loved by Canadians coast to "
                "coast.</p>" + self._category_tiles(children)
                + self._tiles(f"Popular in {cat.name}", popular)
                + f"<section class=\"shop-by-brand\"><h2>Shop by brand</h2><ul>{brand_links}"
                "</ul></section></main>" + parts.footer(self.title))

    def _leaf_shell(self, cat: Category) -> str:
        parent = self.catalog.category(cat.parent or "")
        siblings = "".join(
            f"<li><a class=\"{'selected' if s == cat.slug else ''}\" href=\""
            f"{self.category_url(self.catalog.category(s))}\">"
            f"{esc(self.catalog.category(s).name)}</a></li>" for s in parent.children)
        skeleton = "<div class=\"col-6 col-sm-4 col-lg-3\"><div class=\"tile-skeleton\"></div></div>"
        return (parts.head(cat.name, self.title) + self._header()
                + self._crumbs([(parent.name, self.category_url(parent))], cat.name)
                + "<main id=\"maincontent\" class=\"container search-results\">"
                f"<h1 class=\"page-title\">{esc(cat.name)}</h1><div class=\"row\">"
                "<aside class=\"refinements col-md-3\"><div class=\"refinement refinement-"
                f"category\"><h2>Category</h2><ul>{siblings}</ul></div>"
                "<div id=\"plp-refinements\"></div><div class=\"ad-banner\"><a href=\"https://ads.example.invalid/click"
                "?c=maple-sidebar\" rel=\"sponsored\"><img src=\"/img/ad-kitchen-event.svg\" "
                "alt=\"Kitchen event: up to 40% off\"></a></div></aside>"
                f"<div class=\"col-md-9\" id=\"plp-root\" data-category-id=\"{self.category_id(cat)}\">"
                "<div class=\"grid-header\"><div class=\"result-count\" id=\"plp-count\">Loading "
                "products…</div><select class=\"custom-select sort-order\" name=\"sort-order\" "
                "aria-label=\"Sort By\"><option>Best matches</option><option>Price low to high"
                "</option><option>Price high to low</option><option>Top rated</option></select>"
                f"</div><div class=\"row product-grid\" id=\"product-grid\" aria-busy=\"true\">"
                f"{skeleton * 6}</div><nav class=\"plp-pagination\" id=\"plp-pagination\" "
                "aria-label=\"Pagination\"></nav></div></div>"
                "<section class=\"recommendations\" id=\"plp-recs\"></section></main>"
                + parts.footer(self.title))

    def render_detail(self, p: Product) -> str:
        chain = self.breadcrumb(p)
        t = self.tile_json(p)
        slides = "".join(
            f"<div class=\"carousel-item{' active' if i == 1 else ''}\"><img class=\"d-block "
            f"img-fluid\" src=\"{esc(src)}\" alt=\"{esc(p.name)} image number {i}\"></div>"
            for i, src in enumerate(p.images, start=1))
        save = (f"<div class=\"promo-callout\">Save "
                f"{esc(self.format_money(p.original_price - p.price))}</div>"
                if p.original_price is not None else "")
        stock = ("In stock online" if t["available"] else "Out of stock online")
        rating = (f"<div class=\"ratings\"><span class=\"stars\" style=\"--rating:{p.rating}\">"
                  f"</span><span class=\"rating-value\">{p.rating}</span> / 5 <a class=\""
                  f"rating-count\" href=\"#reviews\">{p.review_count} Reviews</a></div>"
                  if p.rating else "<div class=\"ratings\">Be the first to review</div>")
        related = [q for q in self.catalog.products_in(p.category) if q.id != p.id][3:7]
        qty = "".join(f"<option>{n}</option>" for n in range(1, 6))
        return (parts.head(p.name, self.title, parts.jsonld(p, self.product_url(p))) + self._header()
                + self._crumbs([(c.name, self.category_url(c)) for c in chain])
                + f"<main id=\"maincontent\" class=\"container product-detail product-wrapper\" "
                f"data-pid=\"{esc(p.sku)}\"><div class=\"row\"><div class=\"col-sm-6 "
                f"primary-images\"><div class=\"carousel\">{slides}</div></div>"
                "<div class=\"col-sm-6 product-info\"><div class=\"product-brand\"><a href=\""
                f"/en/brands/{slugify(p.brand)}/\">{esc(p.brand)}</a></div>"
                f"<h1 class=\"product-name\">{esc(p.name)}</h1><div class=\"product-number\">"
                f"Item # <span class=\"product-id\">{esc(p.sku)}</span></div>{rating}"
                f"<div class=\"prices\">{parts.price(t)}{save}</div><div class=\"availability product-"
                f"availability\" data-available=\"{str(t['available']).lower()}\"><span class=\""
                f"availability-msg\">{stock}</span></div><div class=\"store-pickup\">Free pickup "
                "at <a href=\"/en/stores\">your nearest store</a> in 2 hours</div>"
                "<div class=\"cart-and-ipay\"><label>Quantity <select class=\"quantity-select\">"
                f"{qty}</select></label><button class=\"add-to-cart btn btn-primary\" data-pid=\""
                f"{esc(p.sku)}\"{'' if t['available'] else ' disabled'}>Add to Cart</button></div>"
                "</div></div><div class=\"description-and-detail\"><h2 class=\"title\">"
                f"Description</h2><div class=\"description content\">{esc(p.description)}</div>"
                "<h2 class=\"title\">Specifications</h2><table class=\"specs\"><tr><th>Brand</th>"
                f"<td>{esc(p.brand)}</td></tr><tr><th>Item #</th><td>{esc(p.sku)}</td></tr>"
                f"<tr><th>Department</th><td>{esc(chain[-1].name)}</td></tr></table></div>"
                f"<section id=\"reviews\"><h2>Reviews</h2><p>{p.review_count} reviews from "
                "verified buyers.</p></section></main>"
                + self._tiles("Frequently bought together", related) + parts.footer(self.title))
