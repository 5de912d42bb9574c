"""Shop "outfitters": a classic ul/li product grid with semantic class names.

The easy case of the method, made realistic: a mega-menu of category links, a
"Bestsellers" sidebar that reuses the product-card markup, a footer link farm, an
ad and a cookie banner. Query-string pagination (``?page=2``) with numbered links
and a ``rel=next`` "Next" link. JSON-LD Product on detail pages. Parent categories
show their sub-category links and the products of all their children.
"""

from __future__ import annotations

from structurer.demo.base import Shop, esc, json_script
from structurer.demo.catalog import CatalogSpec, Category, Product, Vocabulary

VOCAB = Vocabulary(
    tree={
        "Footwear": {
            "Trail Running": ["Trail Runner", "Fell Shoe", "Ultra Trainer"],
            "Hiking Boots": ["Hiking Boot", "Mid Boot", "Approach Shoe"],
            "Sandals": ["Sport Sandal", "Camp Slide"],
        },
        "Camping": {
            "Tents": ["Dome Tent", "Tunnel Tent", "Ultralight Shelter"],
            "Sleeping Bags": ["Down Bag", "Synthetic Bag", "Quilt"],
        },
        "Clothing": {
            "Jackets": ["Rain Shell", "Insulated Jacket", "Softshell"],
            "Base Layers": ["Merino Top", "Thermal Leggings", "Zip Neck"],
        },
    },
    adjectives=["Alpine", "Summit", "Ridge", "Storm", "Canyon", "Glacier", "Boreal", "Tundra"],
    brands=["Northpeak", "Ridgeline", "Kestrel", "Arctos", "Fjell", "Cairn"],
    materials=["recycled nylon", "merino wool", "Gore-Tex", "ripstop polyester", "suede"],
    sentences=[
        "The {name} is built for long days in the mountains.",
        "Made from {material}, it stays light without giving up durability.",
        "{brand} tested this {noun} on three continents before release.",
        "A {adj} design with taped seams and a lifetime repair promise.",
        "Pairs well with the rest of the {brand} range.",
    ],
)


class Outfitters(Shop):
    name = "outfitters"
    title = "Alpine Outfitters"
    hard = ("Baseline ul/li grid with semantic classes, but a Bestsellers sidebar and a "
            "home-page 'featured' grid reuse the exact card markup; mega-menu and footer "
            "link farm; ?page=N pagination with rel=next; camping products have a second "
            "detail layout.")
    parent_mode = "both"
    pagination = "query"
    jsonld = True
    page_size = 12
    vocabulary = VOCAB
    spec = CatalogSpec(seed=101, currency="USD", price_range=(12, 1400),
                       sku_prefix="AO", sku_pattern="{prefix}-{n:05d}")

    def card_image(self, product: Product) -> str:
        return product.images[0] + "?w=320"

    # ----- shared chrome ---------------------------------------------------------
    def _head(self, title: str, extra: str = "") -> str:
        return (
            "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{esc(title)} | {self.title}</title>"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            "<link rel=\"stylesheet\" href=\"/static/site.css\">"
            f"<style>body{{font-family:sans-serif;margin:0}} .products{{display:grid;"
            f"grid-template-columns:repeat(4,1fr);list-style:none;padding:0;gap:16px}}"
            f" .product img{{width:100%}} .site-nav li{{display:inline-block;margin:0 8px}}"
            f" .layout{{display:flex}} .sidebar{{width:220px}} .content{{flex:1}}</style>"
            f"{extra}</head><body>"
        )

    def _header(self) -> str:
        items = []
        for top in self.catalog.tops():
            subs = "".join(
                f"<li class=\"menu-item\"><a href=\"{self.category_url(self.catalog.category(s))}\">"
                f"{esc(self.catalog.category(s).name)}</a></li>" for s in top.children)
            items.append(
                f"<li class=\"menu-item has-children\"><a href=\"{self.category_url(top)}\">"
                f"{esc(top.name)}</a><ul class=\"sub-menu\">{subs}</ul></li>")
        return (
            "<div id=\"cookie-banner\" class=\"cookie-notice\"><p>We use cookies to improve "
            "your experience. <a href=\"/privacy\">Learn more</a></p>"
            "<button class=\"btn accept\">Accept all</button></div>"
            "<header class=\"site-header\"><div class=\"topbar\">Free shipping over $99 · "
            "<a href=\"/account\">Sign in</a> · <a href=\"/cart\">Cart (0)</a></div>"
            f"<a class=\"logo\" href=\"/\">{self.title}</a>"
            "<form class=\"search\" action=\"/search\"><input type=\"search\" name=\"q\" "
            "placeholder=\"Search gear\"><button type=\"submit\">Search</button></form>"
            f"<nav class=\"site-nav\"><ul class=\"menu\">{''.join(items)}</ul></nav></header>"
        )

    def _footer(self) -> str:
        cols = {
            "Customer service": ["Contact us", "Shipping", "Returns", "Warranty", "Size guide"],
            "About": ["Our story", "Careers", "Press", "Sustainability", "Affiliates"],
            "Explore": ["Gift cards", "Blog", "Trip reports", "Store locator", "Rentals"],
        }
        html_cols = "".join(
            f"<div class=\"footer-col\"><h4>{esc(h)}</h4><ul>"
            + "".join(f"<li><a href=\"/info/{i}-{j}\">{esc(t)}</a></li>"
                      for j, t in enumerate(links))
            + "</ul></div>" for i, (h, links) in enumerate(cols.items()))
        return (f"<footer class=\"site-footer\">{html_cols}<p class=\"copyright\">© 2026 "
                f"{self.title}. All prices in USD.</p></footer></body></html>")

    def _card(self, p: Product) -> str:
        url = esc(self.product_url(p))
        old = (f"<del class=\"price-old\">{esc(self.format_money(p.original_price))}</del>"
               if p.original_price else "")
        badge = ("<span class=\"badge sold-out\">Sold out</span>"
                 if p.availability == "out_of_stock" else "")
        rating = (f"<div class=\"rating\" title=\"{p.rating} out of 5\">★ {p.rating} "
                  f"<span class=\"count\">({p.review_count})</span></div>" if p.rating else "")
        return (
            f"<li class=\"product\"><a class=\"product-link\" href=\"{url}\">"
            f"<img class=\"product-image\" src=\"{esc(self.card_image(p))}\" "
            f"alt=\"{esc(p.name)}\" loading=\"lazy\"></a>{badge}"
            f"<h2 class=\"product-name\"><a href=\"{url}\">{esc(p.name)}</a></h2>"
            f"<div class=\"product-brand\">{esc(p.brand)}</div>{rating}"
            f"<div class=\"product-price\"><span class=\"price\">{esc(self.price_text(p))}"
            f"</span>{old}</div>"
            f"<button class=\"btn add-to-cart\" data-id=\"{p.id}\">Add to cart</button></li>"
        )

    def _sidebar(self, exclude: list[int]) -> str:
        cards = "".join(self._card(p) for p in self.bestsellers(exclude))
        return (f"<aside class=\"sidebar\"><h3>Bestsellers</h3>"
                f"<ul class=\"products products-small\">{cards}</ul>"
                "<div class=\"ad-slot\"><a href=\"https://ads.example.invalid/click?id=7\">"
                "<img src=\"/img/ad-spring-sale.svg\" alt=\"Spring sale: 20% off tents\">"
                "</a></div></aside>")

    # ----- pages -------------------------------------------------------------------
    def render_home(self) -> str:
        featured = "".join(self._card(p) for p in self.catalog.products[3::11][:8])
        tiles = "".join(
            f"<li class=\"category-tile\"><a href=\"{self.category_url(c)}\">"
            f"<img src=\"/img/cat-{esc(c.slug.replace('/', '-'))}.svg\" alt=\"\">"
            f"<span>{esc(c.name)}</span></a></li>" for c in self.catalog.tops())
        return (self._head("Outdoor gear for every trail") + self._header()
                + "<main class=\"home\"><section class=\"hero\"><h1>Gear up for the season"
                "</h1><p>New arrivals from Northpeak and Kestrel.</p></section>"
                f"<h2>Shop by category</h2><ul class=\"category-tiles\">{tiles}</ul>"
                f"<h2>Featured products</h2><ul class=\"products\">{featured}</ul></main>"
                + self._footer())

    def _pagination(self, cat: Category, page: int) -> str:
        total = self.page_count(cat)
        if total == 1:
            return ""
        parts = []
        if page > 1:
            parts.append(f"<a class=\"prev\" rel=\"prev\" href=\"{self.category_url(cat, page - 1)}\">"
                         "‹ Previous</a>")
        for n in range(1, total + 1):
            if n == page:
                parts.append(f"<span class=\"current\" aria-current=\"page\">{n}</span>")
            else:
                parts.append(f"<a class=\"page-number\" href=\"{self.category_url(cat, n)}\">{n}</a>")
        if page < total:
            parts.append(f"<a class=\"next\" rel=\"next\" href=\"{self.category_url(cat, page + 1)}\">"
                         "Next ›</a>")
        return f"<nav class=\"pagination\" aria-label=\"Pagination\">{''.join(parts)}</nav>"

    def render_list(self, cat: Category, page: int) -> str:
        items = self.pages_of(cat)[page - 1]
        crumbs = " › ".join(
            ["<a href=\"/\">Home</a>"]
            + [f"<a href=\"{self.category_url(self.catalog.category(c.parent))}\">"
               f"{esc(self.catalog.category(c.parent).name)}</a>" for c in [cat] if c.parent]
            + [f"<span>{esc(cat.name)}</span>"])
        subs = ""
        if self.shows_subcategory_links(cat):
            subs = "<ul class=\"subcategories\">" + "".join(
                f"<li><a href=\"{self.category_url(self.catalog.category(s))}\">"
                f"{esc(self.catalog.category(s).name)}</a></li>" for s in cat.children) + "</ul>"
        total = len(self.listing(cat))
        start = (page - 1) * self.page_size + 1
        grid = "".join(self._card(p) for p in items)
        return (self._head(cat.name) + self._header()
                + f"<div class=\"breadcrumbs\">{crumbs}</div><div class=\"layout\">"
                + self._sidebar([p.id for p in items])
                + f"<main class=\"content\"><h1 class=\"page-title\">{esc(cat.name)}</h1>{subs}"
                f"<p class=\"result-count\">Showing {start}–{start + len(items) - 1} of "
                f"{total} results</p>"
                "<select class=\"orderby\" name=\"orderby\"><option>Sort by popularity</option>"
                "<option>Sort by price</option></select>"
                f"<ul class=\"products columns-4\">{grid}</ul>"
                + self._pagination(cat, page) + "</main></div>" + self._footer())

    def _jsonld(self, p: Product) -> str:
        data = {
            "@context": "https://schema.org/", "@type": "Product", "name": p.name,
            "image": list(p.images), "description": p.description, "sku": p.sku,
            "brand": {"@type": "Brand", "name": p.brand},
            "offers": {"@type": "Offer", "url": self.product_url(p), "priceCurrency": p.currency,
                       "price": f"{p.price:.2f}",
                       "availability": "https://schema.org/" + (
                           "InStock" if p.availability == "in_stock" else "OutOfStock")},
        }
        if p.rating:
            data["aggregateRating"] = {"@type": "AggregateRating", "ratingValue": p.rating,
                                       "reviewCount": p.review_count}
        return f"<script type=\"application/ld+json\">{json_script(data)}</script>"

    # Products of this top category get a second detail layout ("gear sheet"), so the
    # analyzer must keep one rule set per layout.
    feature_top: str | None = "camping"

    def _gear_sheet(self, p: Product) -> str:
        """The second detail layout: other containers, classes and labels for every field."""
        stock = "In stock" if p.availability == "in_stock" else "Out of stock"
        was = f" <s>{esc(self.format_money(p.original_price))}</s>" if p.original_price else ""
        return (
            "<article class=\"gear-sheet\"><div class=\"gear-media\">"
            f"<img class=\"gear-hero\" src=\"{esc(p.images[0])}\" alt=\"{esc(p.name)}\">"
            "<div class=\"gear-thumbs\">" + "".join(
                f"<img src=\"{esc(src)}\" alt=\"\">" for src in p.images) + "</div></div>"
            "<div class=\"gear-info\"><span class=\"gear-kicker\">Expedition series</span>"
            f"<h1 class=\"gear-name\">{esc(p.name)}</h1>"
            f"<div class=\"gear-maker\">Made by <strong>{esc(p.brand)}</strong></div>"
            f"<table class=\"gear-facts\"><tr><th>Model code</th><td>{esc(p.sku)}</td></tr>"
            f"<tr><th>Availability</th><td>{stock}</td></tr></table>"
            f"<div class=\"gear-buy\"><b class=\"now\">{esc(self.price_text(p))}</b>{was} "
            "<button class=\"btn add-to-cart\">Add to cart</button></div></div>"
            "<div class=\"gear-story\"><h2>About this gear</h2>"
            f"<p>{esc(p.description)}</p></div></article>")

    def render_detail(self, p: Product) -> str:
        chain = self.breadcrumb(p)
        crumbs = "".join(
            f"<li><a href=\"{self.category_url(c)}\">{esc(c.name)}</a></li>" for c in chain)
        gallery = "".join(
            f"<li><img src=\"{esc(src)}\" alt=\"{esc(p.name)} view {i}\"></li>"
            for i, src in enumerate(p.images, start=1))
        old = (f"<del class=\"price-old\">{esc(self.format_money(p.original_price))}</del>"
               f"<span class=\"saving\">Save {esc(self.format_money(p.original_price - p.price))}"
               "</span>" if p.original_price else "")
        stock = ("<p class=\"stock in-stock\">In stock</p>" if p.availability == "in_stock"
                 else "<p class=\"stock out-of-stock\">Out of stock</p>")
        rating = (f"<div class=\"product-rating\"><span class=\"rating-value\">{p.rating}"
                  f"</span> / 5 · <a href=\"#reviews\" class=\"review-count\">{p.review_count} "
                  "reviews</a></div>" if p.rating else "")
        paragraphs = f"<p>{esc(p.description)}</p>"
        related = [q for q in self.catalog.products_in(p.category) if q.id != p.id][:4]
        if self.feature_top and chain[0].slug == self.feature_top:
            return (self._head(p.name, self._jsonld(p)) + self._header()
                    + f"<nav class=\"breadcrumb\" aria-label=\"Breadcrumb\"><ol><li>"
                    f"<a href=\"/\">Home</a></li>{crumbs}<li aria-current=\"page\">"
                    f"{esc(p.name)}</li></ol></nav><main class=\"gear-page\">"
                    + self._gear_sheet(p)
                    + "<section class=\"related\"><h2>You may also like</h2><ul class=\"products\">"
                    + "".join(self._card(q) for q in related) + "</ul></section></main>"
                    + self._footer())
        return (self._head(p.name, self._jsonld(p)) + self._header()
                + f"<nav class=\"breadcrumb\" aria-label=\"Breadcrumb\"><ol><li><a href=\"/\">"
                f"Home</a></li>{crumbs}<li aria-current=\"page\">{esc(p.name)}</li></ol></nav>"
                "<main class=\"product-page\"><div class=\"product-gallery\">"
                f"<ul class=\"thumbnails\">{gallery}</ul></div><div class=\"summary\">"
                f"<h1 class=\"product-title\">{esc(p.name)}</h1>"
                f"<p class=\"brand\">by <a href=\"/brand/{esc(p.brand.lower())}\">{esc(p.brand)}</a></p>"
                f"{rating}<div class=\"product-price\"><span class=\"price\">"
                f"{esc(self.price_text(p))}</span>{old}</div>{stock}"
                f"<p class=\"sku\">SKU: <span class=\"sku-value\">{esc(p.sku)}</span></p>"
                "<form class=\"cart\" action=\"/cart\" method=\"post\"><input type=\"number\" "
                "name=\"quantity\" value=\"1\" min=\"1\"><button type=\"submit\" class=\"btn "
                "add-to-cart\">Add to cart</button></form></div>"
                "<section class=\"product-description\"><h2>Description</h2>"
                f"<div class=\"description\">{paragraphs}</div></section>"
                f"<section id=\"reviews\"><h2>Reviews</h2><p>Be the first to review "
                f"{esc(p.name)}.</p></section>"
                "<section class=\"related\"><h2>You may also like</h2><ul class=\"products\">"
                + "".join(self._card(q) for q in related) + "</ul></section></main>"
                + self._footer())
