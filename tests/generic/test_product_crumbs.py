"""A product page's category path without rules: a BreadcrumbList in structured data,
else the innermost block named a breadcrumb (never the menu beside it in the same bar,
nor a navigation menu), without the link to the site's root ("Home" in any language)
and without the product's own name."""

from __future__ import annotations

import json

import pytest

from structurer.generic.extract import extract_page_generic
from structurer.lexicon import load_lexicon

LEX = load_lexicon()
URL = "http://shop.test/product/2875"
MENU = ("<header><nav><ul><li><a href='/category/125/outdoor-play'>Outdoor Play</a></li>"
        "<li><a href='/category/146/building'>Building</a></li></ul></nav></header>")
BAR = ("<div class='crumb-bar'><nav aria-label='breadcrumb'><ol class='rounded p-2'>"
       "<li><a href='/'>Главная</a></li><li><a href='/category/125/outdoor-play'>Outdoor "
       "Play</a></li><li><a href='/category/132/bikes'>Bikes</a></li><li aria-current="
       "'page'>Wonder Balance Bike K780</li></ol></nav><div class='dropdown'><button>"
       "Каталог</button><ul class='dropdown-menu'><li><a href='/category/125/outdoor-play'>"
       "Outdoor Play</a></li><li><a href='/category/146/building'>Building</a></li></ul>"
       "</div></div>")
SEPARATED = ("<div class='breadcrumb'><a href='/'>Home</a> / <a href='/c/119'>Outdoor "
             "Play</a> / <a href='/c/126'>Bikes</a></div>")
LD = json.dumps({"@context": "https://schema.org", "@type": "BreadcrumbList",
                 "itemListElement": [
                     {"@type": "ListItem", "position": 2, "name": "Bikes", "item": "/c/2"},
                     {"@type": "ListItem", "position": 1, "name": "Outdoor Play",
                      "item": "/c/1"}]})


def page(crumbs: str, head: str = "") -> str:
    return (f"<html><head><title>Wonder Balance Bike K780 | Playmore</title>{head}</head>"
            f"<body>{MENU}{crumbs}<main><h1>Wonder Balance Bike K780</h1>"
            "<p class='price'>$72.99</p><form action='/cart'><button>Add to cart</button>"
            "</form></main></body></html>")


@pytest.mark.parametrize(("crumbs", "head", "trail"), [
    (BAR, "", ["Outdoor Play", "Bikes"]),
    (SEPARATED, "", ["Outdoor Play", "Bikes"]),
    ("", f"<script type='application/ld+json'>{LD}</script>", ["Outdoor Play", "Bikes"]),
    ("", "", None),        # a navigation menu is no breadcrumb
])
def test_the_category_path_of_a_product(crumbs: str, head: str, trail: list[str] | None
                                        ) -> None:
    out = extract_page_generic(page(crumbs, head), URL, LEX)
    assert out["fields"]["price"] == 72.99
    assert out["fields"].get("breadcrumb") == trail


def test_the_home_link_dropped_is_the_root_with_no_query_of_its_own() -> None:
    """A first link to the root carrying only the page's own language is home (dropped,
    whatever it says); one to a category by the root's query is the top category."""
    carried = ("<div class='breadcrumb'><a href='/?lang=en'>Playmore</a> / <a href='/c/119"
               "?lang=en'>Outdoor Play</a> / <a href='/c/126?lang=en'>Bikes</a></div>")
    out = extract_page_generic(page(carried), URL + "?lang=en", LEX)
    assert out["fields"].get("breadcrumb") == ["Outdoor Play", "Bikes"]
    queried = ("<div class='breadcrumb'><a href='/?cat=119'>Outdoor Play</a> / "
               "<a href='/?cat=126'>Bikes</a></div>")
    out = extract_page_generic(page(queried), URL, LEX)
    assert out["fields"].get("breadcrumb") == ["Outdoor Play", "Bikes"]
