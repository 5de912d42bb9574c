"""Shop "pixel" (Pixel Bazaar): a client-side rendered single-page-app electronics shop.

What makes it hard: every HTML URL — home, category list pages including
``?page=N``, product pages ``/item/<slug>`` — answers with the same small shell
(``<div id="root">``, a ``<noscript>`` line and ``/static/app.js``). The script
reads ``location``, fetches JSON from the shop's own API and builds the whole page:
mega-menu, cookie banner, product grid of ``div.card`` cards, a "Trending now" rail
that reuses the card markup, numbered pagination with *relative* ``?page=N`` links,
footer link farm, and the detail page's fields. A static fetch sees no product data
at all, so every level needs a browser.

API routes (all derived from the same :class:`Shop` methods as the ground truth):
``/api/nav.json``, ``/api/home.json``, ``/api/category/<slug>.json?page=N`` (one per
existing list page) and ``/api/product/<slug>.json``; the app is
``/static/app.js`` + ``/static/app.css`` (files ``pixel.js`` / ``pixel.css``).
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from functools import partial
from typing import Any

from structurer.demo.base import Response, Shop, json_response, static_file
from structurer.demo.catalog import CatalogSpec, Category, Product, Vocabulary

VOCAB = Vocabulary(
    tree={
        "Gaming": {
            "Consoles": ["Home Console", "Handheld Console", "Retro Console"],
            "Video Games": ["Racing Game", "Action RPG", "Platformer", "Tactical Shooter"],
            "Controllers": ["Wireless Controller", "Arcade Stick", "Racing Wheel"],
        },
        "Computers": {
            "Laptops": ["Gaming Laptop", "Ultrabook", "Chromebook"],
            "Monitors": ["4K Monitor", "Curved Monitor", "Portable Monitor"],
            "Keyboards & Mice": ["Mechanical Keyboard", "Gaming Mouse", "Macro Keypad"],
        },
        "Audio": {
            "Headphones": ["Gaming Headset", "Wireless Earbuds", "Studio Headphones"],
            "Speakers": ["Soundbar", "Bluetooth Speaker", "Desktop Speakers"],
        },
    },
    adjectives=["Turbo", "Nova", "Quantum", "Hyper", "Neon", "Pulse", "Vortex", "Titan",
                "Stealth"],
    brands=["Voltix", "Kairo", "Bitforge", "Nexon Labs", "Arcadia", "Lumen", "Zentro"],
    materials=["anodized aluminium", "matte ABS", "braided nylon", "tempered glass",
               "magnesium alloy"],
    sentences=[
        "The {name} brings {adj} performance to your desk or living room.",
        "Its {material} shell keeps it light and tough.",
        "{brand} tuned every {noun} in this line for low latency.",
        "Includes a two-year limited warranty and free firmware updates.",
        "Plug in, pair once, and play in seconds.",
        "Reviewers call it the best {noun} {brand} has made so far.",
    ],
)

FOOTER = {
    "Shop": ["Deals of the day", "New arrivals", "Gift cards", "Pre-orders", "Refurbished"],
    "Help": ["Order status", "Shipping", "Returns & exchanges", "Warranty", "Contact us"],
    "Pixel Bazaar": ["About us", "Careers", "Press", "Affiliate program", "Store finder"],
    "Legal": ["Terms of use", "Privacy policy", "Cookie settings", "Accessibility"],
}


def percent_off(price: Decimal, original: Decimal) -> int:
    return int(((original - price) / original * 100).to_integral_value())


class Pixel(Shop):
    name = "pixel"
    title = "Pixel Bazaar"
    hard = ("Client-side rendered single-page app: every URL returns the same empty shell and "
            "the whole page (menu, product grid, relative ?page=N pagination, detail fields) "
            "is built by JavaScript from a JSON API.")
    render = {"category": "browser", "list": "browser", "detail": "browser"}
    page_size = 16
    parent_mode = "both"
    pagination = "query"
    jsonld = False
    vocabulary = VOCAB
    spec = CatalogSpec(seed=404, currency="USD", price_range=(9, 2400), per_leaf=(14, 30),
                       sku_prefix="PB", sku_pattern="{prefix}-{n:06d}-{a}", discount_rate=0.3)

    # ----- URL scheme ----------------------------------------------------------------
    def category_url(self, cat: Category, page: int = 1) -> str:
        base = f"/browse/{cat.slug}"
        return base if page == 1 else f"{base}?page={page}"

    def product_url(self, product: Product) -> str:
        return f"/item/{product.slug}"

    def card_image(self, product: Product) -> str:
        return product.images[0] + "?w=400"

    def api_list_url(self, cat: Category, page: int) -> str:
        return f"/api/category/{cat.slug}.json?page={page}"

    def api_product_url(self, product: Product) -> str:
        return f"/api/product/{product.slug}.json"

    # ----- HTML: one shell for every route ---------------------------------------------
    def shell(self) -> str:
        return (
            "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            "<meta name=\"theme-color\" content=\"#12121f\">"
            "<link rel=\"icon\" href=\"/img/favicon.svg\">"
            f"<title>{self.title}</title>"
            "<link rel=\"stylesheet\" href=\"/static/app.css\"></head>"
            "<body><div id=\"root\"></div>"
            "<noscript>You need to enable JavaScript to run this app.</noscript>"
            "<script src=\"/static/app.js\" defer></script></body></html>"
        )

    def render_home(self) -> str:
        return self.shell()

    def render_list(self, cat: Category, page: int) -> str:
        return self.shell()

    def render_detail(self, product: Product) -> str:
        return self.shell()

    # ----- API payloads ------------------------------------------------------------------
    def card_json(self, p: Product) -> dict[str, Any]:
        old = p.original_price
        return {
            "id": p.id,
            "url": self.product_url(p),
            "name": p.name,
            "brand": p.brand,
            "image": self.card_image(p),
            "price": float(p.price),
            "price_text": self.price_text(p),
            "old_price_text": self.format_money(old) if old is not None else None,
            "badge": f"-{percent_off(p.price, old)}%" if old is not None else None,
            "rating": p.rating,
            "reviews": p.review_count,
            "in_stock": p.availability == "in_stock",
        }

    def link_json(self, cat: Category) -> dict[str, Any]:
        return {"name": cat.name, "url": self.category_url(cat),
                "count": len(self.catalog.products_in(cat.slug))}

    def nav_json(self) -> dict[str, Any]:
        menu = []
        for top in self.catalog.tops():
            menu.append({**self.link_json(top), "children": [
                self.link_json(self.catalog.category(s)) for s in top.children]})
        footer = [{"title": title, "links": [
            {"label": label, "url": f"/help/{i}-{j}"} for j, label in enumerate(labels)]}
            for i, (title, labels) in enumerate(FOOTER.items())]
        return {"store": self.title, "currency": self.spec.currency,
                "promo": "Free 2-day shipping on orders over $49",
                "menu": menu, "footer": footer}

    def home_json(self) -> dict[str, Any]:
        deals = [p for p in self.catalog.products if p.original_price is not None][::5][:8]
        return {
            "hero": {"title": "Level up your setup",
                     "text": "New consoles, monitors and headsets every week.",
                     "cta": self.link_json(self.catalog.tops()[0])},
            "tiles": [self.link_json(c) for c in self.catalog.leaves()],
            "deals": [self.card_json(p) for p in deals],
            "trending": [self.card_json(p) for p in self.bestsellers()],
        }

    def list_json(self, cat: Category, page: int) -> dict[str, Any]:
        items = self.pages_of(cat)[page - 1]
        parent = self.catalog.category(cat.parent) if cat.parent else None
        brands = sorted({p.brand for p in self.listing(cat)})
        return {
            "category": {
                "slug": cat.slug, "name": cat.name, "url": self.category_url(cat),
                "parent": self.link_json(parent) if parent else None,
                "children": [self.link_json(self.catalog.category(s)) for s in cat.children],
            },
            "page": page,
            "pages": self.page_count(cat),
            "page_size": self.page_size,
            "total": len(self.listing(cat)),
            "brands": brands,
            "items": [self.card_json(p) for p in items],
            "trending": [self.card_json(p) for p in self.bestsellers(p.id for p in items)],
        }

    def product_json(self, p: Product) -> dict[str, Any]:
        old = p.original_price
        related = [q for q in self.catalog.products_in(p.category) if q.id != p.id][:4]
        return {
            **self.card_json(p),
            "sku": p.sku,
            "currency": p.currency,
            "original_price": float(old) if old is not None else None,
            "save_text": self.format_money(old - p.price) if old is not None else None,
            "availability": p.availability,
            "description": p.description,
            "images": list(p.images),
            "breadcrumb": [{"name": c.name, "url": self.category_url(c)}
                           for c in self.breadcrumb(p)],
            "related": [self.card_json(q) for q in related],
        }

    def list_response(self, cat: Category, page: int) -> Response:
        return json_response(self.list_json(cat, page))

    def product_response(self, product: Product) -> Response:
        return json_response(self.product_json(product))

    def extra_routes(self) -> dict[str, Callable[[], Response]]:
        table: dict[str, Callable[[], Response]] = {
            "/static/app.js": lambda: Response(200, static_file("pixel.js"),
                                               "application/javascript; charset=utf-8"),
            "/static/app.css": lambda: Response(200, static_file("pixel.css"),
                                                "text/css; charset=utf-8"),
            "/api/nav.json": lambda: json_response(self.nav_json()),
            "/api/home.json": lambda: json_response(self.home_json()),
        }
        for cat in self.catalog.categories:
            if not self.lists_products(cat):
                continue
            for page in range(1, self.page_count(cat) + 1):
                table[self.api_list_url(cat, page)] = partial(self.list_response, cat, page)
        for product in self.catalog.products:
            table[self.api_product_url(product)] = partial(self.product_response, product)
        return table
