"""The demo shop base: URL scheme, pagination, routing and ground truth.

A concrete shop subclasses :class:`Shop`, gives its vocabulary and catalog spec,
and renders three kinds of page (home, list, detail) as HTML strings. Everything
else — which products a list page shows, where pagination leads, what the ground
truth says — is derived here from one catalog, so pages and truth cannot drift.
"""

from __future__ import annotations

import html
import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from decimal import Decimal
from functools import cached_property, partial
from importlib import resources
from typing import Any, ClassVar, Literal

from structurer.demo.catalog import (
    Catalog,
    CatalogSpec,
    Category,
    Product,
    Vocabulary,
    build_catalog,
)

ParentMode = Literal["links", "both", "products"]
RenderMode = Literal["static", "browser"]


@dataclass
class Response:
    status: int
    body: bytes
    content_type: str
    headers: dict[str, str] = field(default_factory=dict)


def esc(text: object) -> str:
    """HTML-escape any value for text or attribute context."""
    return html.escape(str(text), quote=True)


def money_plain(amount: Decimal) -> float:
    return float(amount)


def static_file(name: str) -> bytes:
    """A file of ``structurer/demo/static`` (a client-rendered shop's script, styles)."""
    return (resources.files("structurer.demo") / "static" / name).read_bytes()


def json_response(data: Any) -> Response:
    """A JSON API answer of a client-rendered shop."""
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
    return Response(200, body, "application/json; charset=utf-8", {"Cache-Control": "no-store"})


def json_script(data: Any) -> str:
    """JSON for embedding inside a <script> element (no '</' breakouts)."""
    return json.dumps(data, ensure_ascii=False).replace("</", "<\\/")


class Shop(ABC):
    """A deterministic demo shop. Subclasses fill in the class attributes and renderers."""

    name: ClassVar[str]
    title: ClassVar[str]
    hard: ClassVar[str]  # what makes this shop hard, one sentence
    encoding: ClassVar[str] = "utf-8"
    render: ClassVar[dict[str, RenderMode]] = {
        "category": "static", "list": "static", "detail": "static"}
    page_size: ClassVar[int] = 12
    parent_mode: ClassVar[ParentMode] = "both"
    pagination: ClassVar[str] = "query"  # query | path | rel-next | numbered | text
    jsonld: ClassVar[bool] = False
    vocabulary: ClassVar[Vocabulary]
    spec: ClassVar[CatalogSpec]
    robots_txt: ClassVar[str] = "User-agent: *\nDisallow: /cart\nDisallow: /account\n"
    # lexicon words a person must add for this shop (the edit-the-lexicon fixture)
    extra_words: ClassVar[dict[str, dict[str, float]]] = {}

    # ----- catalog and URL scheme -------------------------------------------------
    @cached_property
    def catalog(self) -> Catalog:
        return build_catalog(self.vocabulary, self.spec)

    def set_prices(self, prices: Mapping[int, Decimal]) -> None:
        """Change the prices of products (by id) while the shop is served: the shop a
        recrawl finds changed. Pages and ground truth follow."""
        products = tuple(replace(p, price=prices.get(p.id, p.price))
                         for p in self.catalog.products)
        self.__dict__["catalog"] = replace(self.catalog, products=products)
        self.__dict__.pop("routes", None)     # its detail pages hold the old products

    def home_url(self) -> str:
        return "/"

    def category_url(self, cat: Category, page: int = 1) -> str:
        base = f"/c/{cat.slug}/"
        return base if page == 1 else f"{base}?page={page}"

    def product_url(self, product: Product) -> str:
        return f"/p/{product.slug}.html"

    def card_image(self, product: Product) -> str:
        """The image URL a list card shows (often a thumbnail of the first image)."""
        return product.images[0]

    def card_image_best(self, product: Product) -> str:
        """The largest image a list card offers (its srcset's widest entry): the truth."""
        return self.card_image(product)

    # ----- money -------------------------------------------------------------------
    def format_money(self, amount: Decimal) -> str:
        return f"${amount:,.2f}"

    def price_text(self, product: Product) -> str:
        text = self.format_money(product.price)
        return f"From {text}" if product.price_from else text

    # ----- listings ----------------------------------------------------------------
    def lists_products(self, cat: Category) -> bool:
        return cat.is_leaf or self.parent_mode in ("both", "products")

    def shows_subcategory_links(self, cat: Category) -> bool:
        return not cat.is_leaf and self.parent_mode in ("links", "both")

    def listing(self, cat: Category) -> list[Product]:
        return self.catalog.products_in(cat.slug) if self.lists_products(cat) else []

    def pages_of(self, cat: Category) -> list[list[Product]]:
        items = self.listing(cat)
        if not items:
            return [[]]
        n = self.page_size
        return [items[i:i + n] for i in range(0, len(items), n)]

    def page_count(self, cat: Category) -> int:
        return len(self.pages_of(cat))

    def bestsellers(self, exclude: Iterable[int] = ()) -> list[Product]:
        """Sidebar products that reuse the card markup (noise for list detection)."""
        skip = set(exclude)
        picks = [p for p in self.catalog.products[::7] if p.id not in skip]
        return picks[:4]

    def breadcrumb(self, product: Product) -> list[Category]:
        cat = self.catalog.category(product.category)
        chain = [cat]
        while chain[0].parent:
            chain.insert(0, self.catalog.category(chain[0].parent))
        return chain

    # ----- rendering (subclasses) ----------------------------------------------------
    @abstractmethod
    def render_home(self) -> str:
        """Render this page as HTML text."""

    @abstractmethod
    def render_list(self, cat: Category, page: int) -> str:
        """Render this page as HTML text."""

    @abstractmethod
    def render_detail(self, product: Product) -> str:
        """Render this page as HTML text."""

    def extra_routes(self) -> dict[str, Callable[[], Response]]:
        """Routes beyond home/list/detail (APIs of client-rendered shops, static files)."""
        return {}

    def html_response(self, text: str, *, status: int = 200) -> Response:
        # strict: a character the charset lacks must fail here, not drift from the truth
        return Response(status, text.encode(self.encoding),
                        f"text/html; charset={self.encoding}")

    # ----- routing -----------------------------------------------------------------
    @cached_property
    def routes(self) -> dict[str, Callable[[], Response]]:
        table: dict[str, Callable[[], Response]] = {
            self.home_url(): lambda: self.html_response(self.render_home()),
            "/robots.txt": lambda: Response(200, self.robots_txt.encode(), "text/plain"),
        }
        pages: list[tuple[str, Callable[[], Response]]] = [
            (self.category_url(cat, page), partial(self._list_response, cat, page))
            for cat in self.catalog.categories for page in range(1, self.page_count(cat) + 1)]
        pages += [(self.product_url(p), partial(self._detail_response, p))
                  for p in self.catalog.products]
        pages += list(self.extra_routes().items())
        for url, handler in pages:
            if url in table:
                raise ValueError(f"demo shop {self.name!r} has two pages at {url}")
            table[url] = handler
        return table

    def _list_response(self, cat: Category, page: int) -> Response:
        return self.html_response(self.render_list(cat, page))

    def _detail_response(self, product: Product) -> Response:
        return self.html_response(self.render_detail(product))

    def handle(self, path_and_query: str) -> Response:
        route = self.routes.get(path_and_query)
        if route is not None:
            return route()
        if path_and_query.startswith("/img/"):
            return Response(200, placeholder_svg(path_and_query), "image/svg+xml",
                            {"Cache-Control": "max-age=86400"})
        return self.html_response(
            f"<!doctype html><html><head><title>Not found</title></head><body>"
            f"<h1>Page not found</h1><p>{esc(path_and_query)}</p>"
            f"<a href=\"{self.home_url()}\">Home</a></body></html>", status=404)

    # ----- ground truth ----------------------------------------------------------------
    def product_record(self, product: Product, base_url: str) -> dict[str, Any]:
        """The product as a crawler should report it (contract in ARCHITECTURE.md)."""
        path = [c.name for c in self.breadcrumb(product)]
        return {
            "id": product.id,
            "url": base_url + self.product_url(product),
            "name": product.name,
            "price": money_plain(product.price),
            "currency": product.currency,
            "price_text": self.price_text(product),
            "original_price": (money_plain(product.original_price)
                               if product.original_price is not None else None),
            "image": base_url + product.images[0],
            "images": [base_url + i for i in product.images],
            "availability": product.availability,
            "sku": product.sku,
            "brand": product.brand,
            "description": product.description,
            "breadcrumb": path,
            "category": path,
            "categories": [list(c.path) for c in self.categories_listing(product)],
            "rating": product.rating,
            "review_count": product.review_count,
        }

    def categories_listing(self, product: Product) -> list[Category]:
        return [c for c in self.catalog.categories
                if self.lists_products(c) and product in self.listing(c)]

    def ground_truth(self, base_url: str) -> dict[str, Any]:
        """Everything a test or benchmark needs to score extraction on this shop."""
        base_url = base_url.rstrip("/")
        cats = []
        list_pages: dict[str, Any] = {}
        for cat in self.catalog.categories:
            urls = [base_url + self.category_url(cat, n)
                    for n in range(1, self.page_count(cat) + 1)]
            cats.append({
                "slug": cat.slug, "name": cat.name, "path": list(cat.path),
                "url": urls[0], "parent": cat.parent, "leaf": cat.is_leaf,
                "lists_products": self.lists_products(cat),
                "subcategory_links": self.shows_subcategory_links(cat),
                "pages": urls,
            })
            if not self.lists_products(cat):
                continue
            for n, items in enumerate(self.pages_of(cat), start=1):
                list_pages[urls[n - 1]] = {
                    "category": list(cat.path),
                    "page": n,
                    "next": urls[n] if n < len(urls) else None,
                    "items": [{
                        "url": base_url + self.product_url(p),
                        "name": p.name,
                        "price": money_plain(p.price),
                        "price_text": self.price_text(p),
                        "currency": p.currency,
                        "image": base_url + self.card_image_best(p),
                    } for p in items],
                }
        products = [self.product_record(p, base_url) for p in self.catalog.products]
        return {
            "shop": self.name,
            "title": self.title,
            "hard": self.hard,
            "encoding": self.encoding,
            "render": dict(self.render),
            "pagination": self.pagination,
            "parent_mode": self.parent_mode,
            "jsonld": self.jsonld,
            "base_url": base_url,
            "home": base_url + self.home_url(),
            "categories": cats,
            "list_pages": list_pages,
            "detail_pages": {p["url"]: p["id"] for p in products},
            "products": products,
        }


def placeholder_svg(path: str) -> bytes:
    """A small deterministic picture for any image URL, so screenshots look like a shop."""
    hue = sum(path.encode()) % 360
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="300" viewBox="0 0 300 300">'
        f'<rect width="300" height="300" fill="hsl({hue},45%,78%)"/>'
        f'<circle cx="150" cy="130" r="70" fill="hsl({(hue + 40) % 360},40%,55%)"/>'
        f'<rect x="60" y="220" width="180" height="24" rx="6" fill="hsl({hue},30%,45%)"/>'
        "</svg>"
    ).encode()
