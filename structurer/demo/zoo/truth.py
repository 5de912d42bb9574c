"""Ground truth of a zoo shop: what a correct crawl outputs and which pages it reaches.

Input: a zoo and the base URL it is served at. Output: JSON in the shape of
:meth:`structurer.demo.base.Shop.ground_truth` (``categories``, ``list_pages``,
``detail_pages``, ``products``, ...) plus ``seed``, ``axes``, ``sitemap`` (the URLs the
sitemaps list) and ``endpoints`` (list page URL -> the JSON endpoint that serves its
items, for levels built by script). Per product, the values are those the page
shows: ``price`` null (and ``currency`` null) when an out-of-stock product shows no
price; the lower end of a price range; ``original_price`` only on sale items;
``sku`` the identifier without its label; ``image`` the full-size detail image, or
null when the product shows a placeholder; ``rating`` as displayed (a class word is a
whole number) and ``review_count`` null without one; ``category`` the breadcrumb path.
"""

from __future__ import annotations

from typing import Any

from structurer.demo.catalog import Category
from structurer.demo.zoo.model import Item, Zoo
from structurer.demo.zoo.nav import SCRIPTED, sitemap_urls


def _render(z: Zoo) -> dict[str, str]:
    lists = "static" if z.axes["list_render"] == "static" else "browser"
    client_home = z.axes["list_render"] == z.axes["detail_render"] == "client"
    return {"category": "browser" if z.axes["list_render"] == "client" or client_home
            else "static", "list": lists,
            "detail": "browser" if z.axes["detail_render"] == "client" else "static"}


def _subcategory_links(z: Zoo, cat: Category) -> bool:
    """Does the category's own page link its children (server HTML or built by script)?"""
    return not cat.is_leaf and z.axes["discovery"] in ("server_menu", "tiles", *SCRIPTED)


def _parent_mode(z: Zoo) -> str:
    """The demo shops' word for what parent pages show (links, products or both)."""
    if z.axes["parent_page"] == "links":
        return "links"
    return "both" if _subcategory_links(z, z.catalog.tops()[0]) else "products"


def product_record(z: Zoo, it: Item, base: str) -> dict[str, Any]:
    p = it.product
    path = [c.name for c in z.chain(p)]
    listing = [list(c.path) for c in z.catalog.categories
               if any(i.id == it.id for i in z.listing(c))]
    return {
        "id": p.id,
        "url": base + z.urls.product(p),
        "name": p.name,
        "price": float(it.price) if it.price is not None else None,
        "currency": z.locale.currency if it.price is not None else None,
        "price_text": z.price_text(it) or None,
        "original_price": float(it.original) if it.original is not None else None,
        "image": base + it.images[0] if it.images else None,
        "images": [base + i for i in it.images],
        "availability": p.availability,
        "sku": it.sku,
        "brand": p.brand,
        "description": p.description,
        "breadcrumb": path,
        "category": path,
        "categories": listing,
        "rating": it.rating,
        "review_count": it.reviews,
    }


def ground_truth(z: Zoo, base_url: str) -> dict[str, Any]:
    base = base_url.rstrip("/")
    cats: list[dict[str, Any]] = []
    list_pages: dict[str, Any] = {}
    endpoints: dict[str, str] = {}
    scripted = (z.axes["list_render"] == "json_grid"
                or z.axes["pagination"] in ("script", "load_more", "infinite"))
    for cat in z.catalog.categories:
        pages = z.pages_of(cat)
        urls = [base + z.urls.category(cat, n) for n in range(1, len(pages) + 1)]
        cats.append({"slug": cat.slug, "name": cat.name, "path": list(cat.path),
                     "url": urls[0], "parent": cat.parent, "leaf": cat.is_leaf,
                     "lists_products": z.lists_products(cat),
                     "subcategory_links": _subcategory_links(z, cat), "pages": urls})
        if not z.lists_products(cat):
            continue
        for n, items in enumerate(pages, start=1):
            url = urls[n - 1]
            list_pages[url] = {
                "category": list(cat.path), "page": n,
                "next": urls[n] if n < len(urls) else None,
                "items": [{"url": base + z.urls.product(it.product), "name": it.product.name,
                           "price": float(it.price) if it.price is not None else None,
                           "price_text": z.price_text(it) or None,
                           "currency": z.locale.currency if it.price is not None else None,
                           "image": base + it.thumb if it.thumb else None}
                          for it in items]}
            if scripted:
                endpoints[url] = base + z.urls.api_grid(cat, n)
    products = [product_record(z, it, base) for it in z.items]
    return {
        "shop": f"zoo-{z.seed}", "seed": z.seed, "title": z.title,
        "hard": "generated: " + ", ".join(f"{k}={v}" for k, v in z.axes.items()),
        "axes": dict(z.axes), "encoding": "utf-8" if z.axes["encoding"] == "utf-8"
        else z.locale.legacy,
        "render": _render(z), "pagination": z.axes["pagination"],
        "parent_mode": _parent_mode(z),
        "jsonld": z.axes["structured"] == "jsonld",
        "base_url": base, "home": base + "/",
        "categories": cats, "list_pages": list_pages, "endpoints": endpoints,
        "detail_pages": {p["url"]: p["id"] for p in products},
        "products": products,
        "sitemap": [base + u for u in sitemap_urls(z)] if z.axes["sitemap"] != "none" else [],
    }
