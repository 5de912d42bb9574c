"""The one structured-data reader: analysis, replay and extract-page read JSON-LD,
microdata and OpenGraph by the same rules, at the lexicon's paths."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from lxml import html as lxml_html

from structurer.generic.extract import extract_page_generic
from structurer.lexicon import TEMPLATES_DIR, load_lexicon
from structurer.page.view import PageView
from structurer.replay import compile_rules, extract_detail
from structurer.rules import rules_from_text
from structurer.structured import (
    jsonld_objects,
    jsonld_strings,
    jsonld_value,
    microdata_fields,
    microdata_items,
    opengraph_fields,
    product_object,
)
from structurer.values import scalar_text
from tests.conftest import rule_text

REAL = Path(__file__).parent / "fixtures" / "real"

RULES = rule_text("shop.example", """
  detail:
    fields:
      name: {jsonld: name, kind: text}
      price: {jsonld: offers.price, kind: money}
      brand: {jsonld: brand.name, kind: text}
""")


def page(*blocks: Any, body: str = "<h1>A page</h1>") -> str:
    scripts = "".join(f'<script type="application/ld+json">{b if isinstance(b, str) else json.dumps(b)}'
                      "</script>" for b in blocks)
    return f"<html><head>{scripts}</head><body>{body}</body></html>"


ANVIL = {"@type": "Product", "name": "Anvil", "brand": "Acme",
         "offers": {"@type": "Offer", "price": "12.50", "priceCurrency": "EUR"}}


def replayed(text: str) -> dict[str, Any]:
    compiled = compile_rules(rules_from_text(RULES))
    return extract_detail(compiled, lxml_html.fromstring(text), "http://shop.example/p/1")


def test_analysis_and_replay_find_a_product_the_page_is_about() -> None:
    text = page({"@context": "https://schema.org", "@type": "ItemPage", "mainEntity": ANVIL})
    view = PageView.from_html("http://shop.example/p/1", text, load_lexicon("ecommerce"))
    assert view.product is not None and view.product["name"] == "Anvil"
    record = replayed(text)
    assert (record["name"], record["price"], record["currency"]) == ("Anvil", 12.5, "EUR")


def test_a_list_of_other_products_is_not_the_pages_product() -> None:
    listing = {"@type": "ItemList", "itemListElement": [
        {"@type": "ListItem", "position": 1, "item": ANVIL}]}
    text = page(listing)
    view = PageView.from_html("http://shop.example/c/1", text, load_lexicon("ecommerce"))
    assert view.product is None
    assert replayed(text)["price"] is None     # not the listed product's price


def test_brand_given_as_a_plain_string_is_its_name() -> None:
    assert replayed(page(ANVIL))["brand"] == "Acme"
    assert jsonld_value(ANVIL, "brand.name") == "Acme"


@pytest.mark.parametrize(("script", "name"), [
    ("<!-- " + json.dumps(ANVIL) + " -->", "Anvil"),                     # in an HTML comment
    ('{"@type": "schema:Product", "name": "Tab\tName"}', "Tab\tName"),   # control character
    (json.dumps({"@graph": [{"@type": "WebSite"}, {"@type": "http://schema.org/PRODUCT",
                                                    "name": "Graph"}]}), "Graph"),
    (json.dumps([{"@type": "Organization"}, {"@type": ["Thing", "ProductGroup"],
                                              "name": "Group"}]), "Group"),
])
def test_jsonld_forms_every_reader_accepts(script: str, name: str) -> None:
    product = product_object(jsonld_objects(lxml_html.fromstring(page(script))))
    assert product is not None and product["name"] == name


def test_paths_take_first_elements_low_prices_and_currencies() -> None:
    offer = {"@type": "Product", "image": [{"url": "/a.jpg"}, "/b.jpg"],
             "offers": [{"@type": "AggregateOffer", "lowPrice": 9, "highPrice": 20.0,
                         "priceCurrency": "GBP"}]}
    assert jsonld_value(offer, "offers.price") == 9
    assert jsonld_strings(offer, "offers.price") == (["9"], "GBP")
    assert jsonld_strings(offer, "offers.highPrice") == (["20"], "GBP")
    assert jsonld_strings(offer, "image") == (["/a.jpg", "/b.jpg"], None)
    assert jsonld_value(offer, "image") == {"url": "/a.jpg"}
    assert jsonld_value(offer, "missing.path") is None


def test_microdata_follows_the_same_paths() -> None:
    tree = lxml_html.fromstring((REAL / "extruct" / "product_microdata.html").read_text())
    paths = load_lexicon("ecommerce").structured_paths()
    found = microdata_fields(tree, paths)
    assert found == {"name": "Executive Anvil", "price": "119.99", "currency": "USD",
                     "image": "anvil_executive.jpg", "brand": "ACME",
                     "availability": "http://schema.org/InStock",
                     "description": "Sleeker than ACME's Classic Anvil, the Executive Anvil is "
                                    "perfect for the business traveler looking for something "
                                    "to drop from a height.",
                     "rating": "4.4", "review_count": "89"}


def test_microdata_does_not_take_a_reviews_rating_or_a_sellers_name() -> None:
    tree = lxml_html.fromstring(
        '<div itemscope itemtype="http://schema.org/Product"><span itemprop="name">Vise</span>'
        '<div itemprop="review" itemscope itemtype="http://schema.org/Review">'
        '<div itemprop="reviewRating" itemscope itemtype="http://schema.org/Rating">'
        '<span itemprop="ratingValue">1</span></div></div>'
        '<div itemprop="offers" itemscope itemtype="http://schema.org/Offer">'
        '<div itemprop="seller" itemscope itemtype="http://schema.org/Organization">'
        '<span itemprop="name">Seller Ltd</span></div>'
        '<meta itemprop="price" content="30.00"></div></div>')
    found = microdata_fields(tree, {"rating": ["aggregateRating.ratingValue"],
                                    "brand": ["brand.name"], "name": ["name"],
                                    "price": ["offers.price", "price"]})
    assert found == {"name": "Vise", "price": "30.00"}


def test_items_an_item_refers_to_are_part_of_it() -> None:
    """Microdata's ``itemref`` adds the properties of elements elsewhere on the page to an
    item (another product it names, related products, more of its own properties): the
    page still describes one product, read as a detail page."""
    html = ('<html><head><title>Gallery</title></head><body>'
            '<div itemscope itemtype="http://schema.org/Product" itemref="ref more rel">'
            '<span itemprop="name">Executive Anvil</span>'
            '<span itemprop="offers" itemscope itemtype="http://schema.org/Offer">'
            '$<span itemprop="price">119.99</span></span></div>'
            '<div id="ref" itemprop="referenced_product" itemscope '
            'itemtype="http://schema.org/Product"><span itemprop="name">Other</span></div>'
            '<div id="more" itemscope itemtype="http://schema.org/Product">'
            '<span itemprop="prop3">More of it</span></div>'
            '<div id="rel"><div itemscope itemtype="http://schema.org/Product" '
            'itemprop="related_products"><span itemprop="name">Rel 1</span></div></div>'
            '</body></html>')
    tops = microdata_items(lxml_html.fromstring(html), "schema.org/Product", top=True)
    assert [el.get("itemref") for el in tops] == ["ref more rel"]
    out = extract_page_generic(html, "http://shop.example/anvil", load_lexicon("ecommerce"))
    assert out["kind"] == "detail"
    assert (out["fields"]["name"], out["fields"]["price"]) == ("Executive Anvil", 119.99)


@pytest.mark.parametrize(("img", "image"), [
    ('<a href="/media/7/full.png" data-lightbox="p"><img itemprop="image" '
     'src="/media/7/full.png?w=600"></a>', "/media/7/full.png"),          # a zoom link
    ('<img itemprop="image" src="/m/7-300.jpg" srcset="/m/7-300.jpg 300w, /m/7-1200.jpg '
     '1200w">', "/m/7-1200.jpg"),                                           # the widest
    ('<img itemprop="image" src="/img/placeholder.gif" data-src="/m/7.jpg">', "/m/7.jpg"),
    ('<img itemprop="image" src="/m/7.jpg">', "/m/7.jpg"),
])
def test_a_microdata_picture_at_its_best_size(img: str, image: str) -> None:
    tree = lxml_html.fromstring('<div itemscope itemtype="http://schema.org/Product">'
                                f'<span itemprop="name">Vise</span>{img}</div>')
    assert microdata_fields(tree, {"image": ["image"]}) == {"image": image}


def test_opengraph_names_in_order() -> None:
    tree = lxml_html.fromstring(
        '<html><head><meta property="og:price:amount" content="5"><meta property='
        '"product:price:amount" content="6"><meta name="og:title" content=" Hat "></head></html>')
    assert opengraph_fields(tree, {"price": ["product:price:amount", "og:price:amount"],
                                   "name": ["og:title"], "brand": ["og:brand"]}) == \
        {"price": "6", "name": "Hat"}


def test_the_lexicon_says_where_a_new_field_is(tmp_path: Path) -> None:
    """A field added to the lexicon with its schema.org path comes out of extract-page
    from JSON-LD and from microdata: no code names it."""
    source = TEMPLATES_DIR / "ecommerce.yaml"
    text = source.read_text(encoding="utf-8") + (
        "\n  gtin:\n    kind: text\n    level: detail\n    words: {gtin: 12, ean: 10}\n"
        "    structured: [gtin13, gtin]\n")
    lexicon_path = tmp_path / "shop.yaml"
    lexicon_path.write_text(text, encoding="utf-8")
    lexicon = load_lexicon(lexicon_path)
    from_ld = extract_page_generic(page({**ANVIL, "gtin": "4006381333931"}),
                                   "http://shop.example/p/1", lexicon)
    assert from_ld["fields"]["gtin"] == "4006381333931"
    assert from_ld["sources"]["gtin"] == "jsonld"
    micro = ('<div itemscope itemtype="https://schema.org/Product"><h1 itemprop="name">Anvil'
             '</h1><span itemprop="gtin13">4006381333932</span><div itemprop="offers" '
             'itemscope itemtype="https://schema.org/Offer"><span itemprop="price">3.00</span>'
             '</div></div>')
    from_md = extract_page_generic(page(body=micro), "http://shop.example/p/2", lexicon)
    assert from_md["fields"]["gtin"] == "4006381333932"
    assert from_md["sources"]["gtin"] == "microdata"


@pytest.mark.parametrize(("value", "text"), [
    (12.0, "12"), (12.5, "12.5"), (True, "true"), (False, "false"), (7, "7"),
    ({"name": "Kumo"}, "Kumo"), ({"price": 9.0}, "9"), ("in stock", "in stock")],
    ids=["whole-float", "float", "true", "false", "int", "named", "priced", "string"])
def test_json_ld_scalars_read_as_a_page_shows_them(value: object, text: str) -> None:
    """JSON-LD's numbers and booleans read as the page would show them, one way for a
    structured field (:func:`jsonld_strings`) and a rule's selected value
    (:func:`~structurer.values.scalar_text`)."""
    assert jsonld_strings({"offers": {"price": value}}, "offers.price")[0] == [text]
    if not isinstance(value, dict):
        assert scalar_text(value) == text
