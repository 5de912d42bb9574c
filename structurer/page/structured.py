"""A page's structured data: JSON-LD objects, schema.org microdata and OpenGraph tags.

Input: a parsed page (lxml tree; read the JSON-LD before the scripts are emptied).
Output: plain dicts and values — every JSON-LD object (``@graph`` flattened), the
Product or Article among them, a value at a dotted JSON-LD path, and the product
fields a page's microdata and OpenGraph tags carry (raw strings, keyed by the
e-commerce field names). Pure, and light to import: ``extract-page`` reads these
without loading the learning code.
"""

from __future__ import annotations

import json
from typing import Any

from lxml.html import HtmlElement

from structurer.page.dom import text_of

ARTICLE_TYPES = frozenset({"Article", "NewsArticle", "BlogPosting", "ReportageNewsArticle",
                           "Report", "AnalysisNewsArticle", "OpinionNewsArticle",
                           "TechArticle", "LiveBlogPosting", "ScholarlyArticle"})
PRODUCT_TYPES = frozenset({"Product", "ProductGroup", "IndividualProduct"})

# Where schema.org Product keeps each field (dotted paths; lists take their first item).
JSONLD_PATHS = {
    "name": "name", "sku": "sku", "brand": "brand.name", "description": "description",
    "image": "image", "price": "offers.price", "currency": "offers.priceCurrency",
    "availability": "offers.availability", "rating": "aggregateRating.ratingValue",
    "review_count": "aggregateRating.reviewCount", "original_price": "offers.highPrice",
}
_MICRODATA = {"name": "name", "price": "price", "currency": "priceCurrency", "sku": "sku",
              "availability": "availability", "brand": "brand", "image": "image",
              "description": "description", "rating": "ratingValue",
              "review_count": "reviewCount"}
# a property read inside a nested item only when the item is of one of these types
_NESTED = {"price": ("Offer",), "currency": ("Offer",), "availability": ("Offer",),
           "brand": ("Brand", "Organization"), "rating": ("Rating",),
           "review_count": ("Rating",)}
_OPENGRAPH = {"name": ("og:title",), "image": ("og:image",), "description": ("og:description",),
              "price": ("product:price:amount", "og:price:amount"),
              "currency": ("product:price:currency", "og:price:currency"),
              "availability": ("product:availability", "og:availability"),
              "brand": ("product:brand", "og:brand")}


def jsonld_objects(tree: HtmlElement) -> list[dict[str, Any]]:
    """Every JSON object in the page's ld+json scripts, @graph flattened."""
    out: list[dict[str, Any]] = []
    for script in tree.xpath('//script[contains(@type, "ld+json")]'):
        try:
            data = json.loads(script.text or "")
        except ValueError:
            continue
        stack = data if isinstance(data, list) else [data]
        while stack:
            item = stack.pop(0)
            if isinstance(item, dict):
                out.append(item)
                graph = item.get("@graph")
                if isinstance(graph, list):
                    stack.extend(graph)
            elif isinstance(item, list):
                stack.extend(item)
    return out


def types_of(obj: dict[str, Any]) -> set[str]:
    """The schema.org types of a JSON-LD object, without their URL prefix."""
    kind = obj.get("@type", [])
    return {str(k).rsplit("/", 1)[-1] for k in (kind if isinstance(kind, list) else [kind])}


def jsonld_product(objects: list[dict[str, Any]]) -> dict[str, Any] | None:
    for obj in objects:
        if types_of(obj) & PRODUCT_TYPES:
            return obj
    return None


def jsonld_value(obj: Any, path: str) -> Any:
    """Follow a dotted path through JSON-LD (lists take their first element)."""
    for part in path.split("."):
        while isinstance(obj, list):
            obj = obj[0] if obj else None
        if isinstance(obj, dict):
            obj = obj.get(part)
        elif isinstance(obj, str) and part == "name":
            return obj   # "brand": "Acme" instead of {"name": "Acme"}
        else:
            return None
    while isinstance(obj, list):
        obj = obj[0] if obj else None
    return obj


def microdata_product(tree: HtmlElement) -> dict[str, str]:
    """Product fields of the page's first schema.org Product item (raw strings)."""
    scopes = tree.xpath('//*[@itemscope][contains(@itemtype, "Product")]')
    if not scopes:
        return {}
    scope = scopes[0]
    out: dict[str, str] = {}
    for field, prop in _MICRODATA.items():
        for el in scope.xpath(f'.//*[@itemprop="{prop}"]'):
            owner = next((a for a in el.iterancestors() if a.get("itemscope") is not None), None)
            owner_type = (owner.get("itemtype") or "") if owner is not None else ""
            if owner is not scope and not any(t in owner_type for t in _NESTED.get(field, ())):
                continue
            if el.get("itemscope") is not None:
                names = el.xpath('.//*[@itemprop="name"]')
                value = names[0].get("content") or text_of(names[0]) if names else text_of(el)
            else:
                value = (el.get("content") or el.get("href") or el.get("src")
                         or el.get("datetime") or text_of(el))
            if value:
                out[field] = value.strip()
                break
    return out


def opengraph_product(tree: HtmlElement) -> dict[str, str]:
    """Product fields of the page's OpenGraph (and ``product:``) meta tags."""
    metas: dict[str, str] = {}
    for meta in tree.iter("meta"):
        key = (meta.get("property") or meta.get("name") or "").lower()
        if key and meta.get("content") and key not in metas:
            metas[key] = meta.get("content", "").strip()
    out = {}
    for field, keys in _OPENGRAPH.items():
        for key in keys:
            if metas.get(key):
                out[field] = metas[key]
                break
    return out
