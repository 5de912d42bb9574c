"""Shop "maple"'s HTML parts that need no shop state: the page head and footer, the price
and product tile drawn from a tile's JSON (the data the list API serves, so static tiles and
script-built ones show the same), and a product page's JSON-LD.
"""

from __future__ import annotations

from typing import Any

from structurer.demo.base import esc, json_script
from structurer.demo.catalog import Product

FOOTER = {
    "Customer Care": ["Contact us", "Order tracking", "Shipping & delivery", "Returns"],
    "Services": ["Gift registry", "Gift cards", "In-store pickup", "Price match"],
    "About Maple & Co.": ["Our story", "Careers", "Sustainability", "Store locator"],
    "Policies": ["Privacy policy", "Terms of use", "Accessibility", "Cookie preferences"],
}


def head(title: str, shop: str, extra: str = "") -> str:
    """The page head (``extra`` inside it) and the opening body tag."""
    return (
        "<!DOCTYPE html><html lang=\"en-CA\"><head><meta charset=\"utf-8\">"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        f"<title>{esc(title)} | {esc(shop)}</title>"
        "<link rel=\"icon\" href=\"/img/favicon.svg\">"
        "<link rel=\"alternate\" hreflang=\"fr-CA\" href=\"/fr/\">"
        "<link rel=\"stylesheet\" href=\"/static/css/global.css\">"
        f"{extra}</head><body class=\"page\">")


def footer(shop: str) -> str:
    """The footer, the page's script and the closing tags."""
    cols = "".join(
        f"<div class=\"footer-item col-6 col-md-3\"><h3 class=\"title\">{esc(h)}</h3>"
        "<ul class=\"menu-footer content\">"
        + "".join(f"<li><a href=\"/en/help/{i}-{j}\">{esc(t)}</a></li>"
                  for j, t in enumerate(links))
        + "</ul></div>" for i, (h, links) in enumerate(FOOTER.items()))
    return (
        "<footer id=\"footercontent\"><div class=\"email-signup container\"><h3>Get 10% off "
        "your first order</h3><form action=\"/en/newsletter\" method=\"post\"><input "
        "type=\"email\" name=\"email\" placeholder=\"Email address\"><button class=\"btn "
        "btn-primary\" type=\"submit\">Sign up</button></form></div>"
        f"<div class=\"container footer-links row\">{cols}</div>"
        "<div class=\"social-links container\"><a href=\"https://www.instagram.com/"
        "example.invalid\">Instagram</a><a href=\"https://www.facebook.com/example.invalid\">"
        "Facebook</a><a href=\"https://www.pinterest.ca/example.invalid\">Pinterest</a></div>"
        f"<p class=\"copyright container\">© 2026 {esc(shop)} Proudly Canadian since "
        "1987. All prices are in Canadian dollars (CAD).</p></footer>"
        "<script src=\"/static/js/main.js\" defer></script></body></html>")


def price(t: dict[str, Any]) -> str:
    """Sale price, preceded by the struck-through list price when discounted."""
    sales, listed = t["price"]["sales"], t["price"]["list"]
    old = (f"<del><span class=\"strike-through list\"><span class=\"value\" content=\""
           f"{listed['decimal']}\">{esc(listed['formatted'])}</span></span></del>"
           if listed else "")
    return (f"<div class=\"price\"><span>{old}<span class=\"sales\"><span class=\"value\" "
            f"content=\"{sales['decimal']}\">{esc(sales['formatted'])}</span></span></span></div>")


def tile(t: dict[str, Any]) -> str:
    """A product tile, from the JSON the list API serves for it."""
    listed = t["price"]["list"]
    badge = ("<span class=\"badge badge-oos\">Out of stock</span>" if not t["available"]
             else "<span class=\"badge badge-sale\">Sale</span>" if listed else "")
    rating = (f"<div class=\"ratings\" aria-label=\"Rated {t['rating']} out of 5\"><span "
              f"class=\"stars\" style=\"--rating:{t['rating']}\"></span><span class=\""
              f"rating-count\">({t['reviewCount']})</span></div>" if t["rating"] else "")
    url = esc(t["url"])
    return (
        f"<div class=\"col-6 col-sm-4 col-lg-3\"><div class=\"product\" data-pid=\"{t['pid']}\">"
        "<div class=\"product-tile\"><div class=\"image-container\">"
        f"<a href=\"{url}\"><img class=\"tile-image\" src=\"{esc(t['image'])}\" alt=\""
        f"{esc(t['name'])}\" title=\"{esc(t['name'])}\"></a>{badge}<button class=\""
        "wishlistTile\" type=\"button\" aria-label=\"Add to wishlist\">&#9825;</button></div>"
        f"<div class=\"tile-body\"><div class=\"tile-brand\">{esc(t['brand'])}</div>"
        f"<div class=\"pdp-link\"><a class=\"link\" href=\"{url}\">{esc(t['name'])}</a></div>"
        f"{price(t)}{rating}<div class=\"availability-tile\">"
        f"{'In stock online' if t['available'] else 'Out of stock online'}</div>"
        "</div></div></div></div>")


def jsonld(p: Product, url: str) -> str:
    """The product page's JSON-LD block (``url``: the page's own)."""
    data: dict[str, Any] = {
        "@context": "https://schema.org", "@type": "Product", "name": p.name,
        "sku": p.sku, "mpn": p.sku, "image": list(p.images), "description": p.description,
        "brand": {"@type": "Brand", "name": p.brand},
        "offers": {"@type": "Offer", "priceCurrency": p.currency, "price": f"{p.price:.2f}",
                   "url": url, "itemCondition": "https://schema.org/NewCondition",
                   "availability": "https://schema.org/" + (
                       "InStock" if p.availability == "in_stock" else "OutOfStock")},
    }
    if p.rating:
        data["aggregateRating"] = {"@type": "AggregateRating", "ratingValue": p.rating,
                                   "reviewCount": p.review_count}
    return f"<script type=\"application/ld+json\">{json_script(data)}</script>"
