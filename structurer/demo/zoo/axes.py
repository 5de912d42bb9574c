"""The zoo's axes: independent ways real storefronts differ, each a weighted set of values.

Input: a seeded :class:`random.Random`. Output: one value per axis (:func:`draw_axes`),
drawn independently in the fixed order of :data:`AXES`. Only the pairs in
:data:`EXCLUDED` never occur together (the shop could not be built, e.g. "category
links only in the sitemap" without a sitemap); a draw that hits one is redrawn whole,
so the other axes stay independent of each other.

Each value is a behaviour seen on real shops; :data:`MEANING` says which, in a phrase.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

Axis = tuple[tuple[str, float], ...]


def _even(*values: str) -> Axis:
    return tuple((v, 1.0) for v in values)


AXES: dict[str, Axis] = {
    # what is sold and where
    "domain": _even("outdoor", "electronics", "books", "kitchen", "fashion", "hardware",
                    "toys", "beauty"),
    "locale": (("en-US", 2.0), ("en-GB", 1.0), ("en-IN", 0.6), ("de-DE", 1.5), ("de-CH", 0.6),
               ("fr-FR", 1.0), ("es-ES", 0.8), ("it-IT", 0.8), ("nl-NL", 0.6), ("pt-BR", 0.8),
               ("pl-PL", 0.8), ("ru-RU", 0.8), ("hr-HR", 0.6), ("sv-SE", 0.6), ("ja-JP", 0.8),
               ("zh-CN", 0.8)),
    "encoding": (("utf-8", 4.0), ("legacy", 1.0)),
    "classes": _even("bootstrap", "tailwind", "bem", "hashed", "none"),
    "urls": _even("classic", "nested", "ids", "query", "shopify"),
    # category level
    "discovery": _even("server_menu", "script_menu", "tiles", "sitemap_only", "breadcrumbs_only",
                       "inline_json"),
    "parent_page": (("products", 2.0), ("links", 1.0)),
    "sitemap": _even("none", "flat", "index"),
    # list level
    "list_render": (("static", 2.0), ("json_grid", 1.0), ("client", 1.0)),
    "list_markup": _even("ul_li", "div_grid", "table", "dl", "article", "nested_links"),
    "pagination": _even("shared_class", "numbered", "rel_next", "text_next", "script",
                        "load_more", "infinite"),
    "page_url": (("query", 2.0), ("path", 1.0), ("offset", 1.0)),
    "list_names": (("full", 2.0), ("truncated", 1.0)),
    "list_noise": _even("none", "bestsellers", "recommendations"),
    "placeholder": (("none", 2.0), ("some", 1.0)),
    # detail level
    "detail_render": (("static", 3.0), ("client", 1.0)),
    "session": (("none", 2.0), ("recently_viewed", 1.0), ("first_500", 1.0)),
    "related": _even("none", "distinct", "same_class"),
    "structured": (("none", 3.0), ("jsonld", 1.0), ("jsonld_partial", 1.0), ("microdata", 1.0),
                   ("opengraph", 1.0)),
    "title": _even("plain", "subtitle", "small_inside"),
    "price_markup": _even("plain", "split", "sup"),
    "oos_price": _even("shown", "empty", "absent"),
    "old_price": _even("del", "span_old", "was_text", "s"),
    "price_extras": _even("none", "instalments", "shipping", "vat", "unit", "free_ship", "range"),
    "stock": _even("text", "button_only", "class_only"),
    "id_markup": _even("table", "label_text", "li_strong", "dl"),
    "id_label": _even("SKU", "UPC", "EAN", "GTIN", "MPN", "Art.-Nr.", "Šifra", "Item #",
                      "Product code", "Артикул", "货号", "ISBN-13", "Model"),
    "brand": _even("link", "label", "logo"),
    "rating": _even("none", "class_word", "class_num", "width", "aria", "text"),
    "description": _even("heading", "bare", "tabs"),
    "detail_image": _even("src", "srcset", "zoom_link", "data_zoom", "lazy"),
    "breadcrumb": _even("ol", "separators", "microdata", "with_dropdown"),
}

#: pairs of (axis, value) that never occur together: the second is redrawn with the rest
EXCLUDED: frozenset[tuple[tuple[str, str], tuple[str, str]]] = frozenset({
    (("discovery", "sitemap_only"), ("sitemap", "none")),   # nowhere to find sub-categories
    (("urls", "query"), ("page_url", "path")),              # /index.php?route=…/page/2/
})

MEANING: dict[str, str] = {
    "domain": "what the shop sells (category tree, product names)",
    "locale": "language of every label and the money format (en-US $1,234.56; de-DE 1.234,56 €)",
    "encoding": "utf-8, or the locale's legacy charset (windows-1252, iso-8859-2, gbk, …)",
    "classes": "class vocabulary: Bootstrap, Tailwind utilities, BEM, hashed CSS modules, none",
    "urls": "URL scheme: /c/x/ + /p/x.html, nested paths, numeric ids, index.php?route=…, "
            "/collections/ + /products/",
    "discovery": "where sub-category links are: server menu, menu built by script, tiles, only "
                 "in sitemap.xml, only in product breadcrumbs, only in inline JSON state",
    "parent_page": "top categories list their children's products, or only link them",
    "sitemap": "no sitemap, one sitemap.xml, or a sitemap index (named in robots.txt)",
    "list_render": "list pages static, skeleton + grid from a JSON endpoint, or a client shell",
    "list_markup": "ul/li, div grid, table rows, dl per item, article, cards with several links",
    "pagination": "prev/next sharing the numbers' class, numbers only, rel=next, a 'Next' link, "
                  "href=# script pager, load-more button, infinite scroll",
    "page_url": "?page=N, /page/N/ or ?start=offset",
    "list_names": "full names in lists, or truncated with … (full in a/@title and img/@alt)",
    "list_noise": "nothing, a bestsellers sidebar or recommendations below, in the card markup",
    "placeholder": "every product has an image, or some show a placeholder (truth: null)",
    "detail_render": "detail pages static or a client shell filled from a JSON view",
    "session": "no session, a cookie-driven 'recently viewed' block, 500 on a page's first hit",
    "related": "no related block, one with its own classes, or one with the main price's class",
    "structured": "no structured data, JSON-LD, partial JSON-LD, microdata, OpenGraph",
    "title": "plain heading, a '(Hardcover)' subtitle beside it, or in a <small> inside it",
    "price_markup": "plain price text, currency in its own span, cents in <sup>",
    "oos_price": "out-of-stock products show their price, an empty price element, or none",
    "old_price": "sale prices beside <del>, span.old-price, 'Was …' text, <s>",
    "price_extras": "instalments, shipping, VAT-excluded, per-metre, free-shipping threshold or "
                    "price ranges near the price",
    "stock": "availability as text, only as an enabled buy form, or only as a class",
    "id_markup": "identifier in a th/td table, 'Label: value' text, <li><strong>, dt/dd",
    "id_label": "the identifier's label (SKU, UPC, EAN, Art.-Nr., Šifra, Артикул, 货号, …)",
    "brand": "brand as a link, as a labelled value, or only as a logo's alt text",
    "rating": "no ratings, class word (stars three), class number, star width, aria-label, text",
    "description": "under a 'Product Description' heading, bare <p>+<ul> under the title, tabs",
    "detail_image": "full image as src, largest srcset entry, zoom link, data-zoom, lazy data-src",
    "breadcrumb": "ol/li, text with separators, BreadcrumbList microdata, beside a dropdown",
}


def _pick(rng: random.Random, axis: Axis) -> str:
    values = [v for v, _ in axis]
    return rng.choices(values, weights=[w for _, w in axis])[0]


def excluded(values: Mapping[str, str]) -> bool:
    """Does this combination hold a pair that cannot be built?"""
    return any(values.get(a) == va and values.get(b) == vb for (a, va), (b, vb) in EXCLUDED)


def draw_axes(rng: random.Random) -> dict[str, str]:
    """One value per axis, independent draws (whole draws repeated past an excluded pair)."""
    while True:
        values = {name: _pick(rng, axis) for name, axis in AXES.items()}
        if not excluded(values):
            return values


def axes_of_seed(seed: int) -> dict[str, str]:
    """The axis values of a seed's shop (cheap: no catalog is built)."""
    return draw_axes(random.Random(seed))


def parse_seeds(text: str) -> list[int]:
    """Seeds from ``"0-199"``, ``"5"`` or ``"0-9,100,200-204"`` (ValueError names the bad part)."""
    seeds: list[int] = []
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        low, sep, high = part.partition("-")
        if not low.isdigit() or (sep and not high.isdigit()):
            raise ValueError(f"bad seed range {part!r} (expected N or A-B)")
        first, last = int(low), int(high) if sep else int(low)
        if last < first:
            raise ValueError(f"bad seed range {part!r} (end before start)")
        seeds.extend(range(first, last + 1))
    if not seeds:
        raise ValueError("no seed given")
    return list(dict.fromkeys(seeds))
