"""`extract-page` on real product pages nobody here wrote, scored against their truth.

The pages are the scrapely, Portia and autopager copies of ``tests/fixtures/real`` (each
folder's NOTICE names its origin and license). The truth comes from the pages' sources
themselves: scrapely's and Portia's annotated pages
mark the name, price and item number with ``data-scrapy-annotate`` (read here, then
stripped, so the extractor never sees them; Portia keeps the untouched original body
beside each annotated one), and scrapely's Icône pair has its expected items in JSON.
These pages have no JSON-LD and mostly no <h1>: table layouts, ASP.NET label spans,
prices in text tails after a "Price:" label, shipping costs and cart totals nearby.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from lxml import html as lxml_html

from structurer.clean import decode_html
from structurer.fetch.replay import read_saved
from structurer.generic.extract import extract_page_generic
from structurer.lexicon import load_lexicon
from structurer.values import parse_money
from tests.test_corpora import REAL, real_text, real_url

SCRAPELY = REAL / "scrapely"
PORTIA = REAL / "portia"
_ANNOTATION = re.compile(rb'\sdata-scrapy-annotate="[^"]*"')
RENAMED = {"aaaa-aaaa": "price", "product_id": "sku"}   # Portia's project field names


def annotated_truth(body: bytes) -> dict[str, str]:
    """Field -> annotated text of a page (the first annotation of each field)."""
    out: dict[str, str] = {}
    for el in lxml_html.fromstring(body).xpath("//*[@data-scrapy-annotate]"):
        for attr, name in (json.loads(el.get("data-scrapy-annotate")).get("annotations")
                           or {}).items():
            value = el.text_content() if attr == "content" else el.get(attr)
            out.setdefault(RENAMED.get(name, name), " ".join((value or "").split()))
    return out


def cases() -> list[tuple[str, bytes, dict[str, str]]]:
    out: list[tuple[str, bytes, dict[str, str]]] = []
    for name in ("samples_pageparsing_0", "samples_htmlpage_0", "samples_htmlpage_1"):
        body = read_saved(next(SCRAPELY.glob(f"{name}.html*")))
        out.append((name, _ANNOTATION.sub(b"", body), annotated_truth(body)))
    for name in ("samples_scraper_loadstore_0", "samples_scraper_loadstore_1"):
        page = SCRAPELY / f"{name}.html"
        out.append((name, page.read_bytes(), json.loads(page.with_suffix(".json").read_text())))
    for page in sorted(PORTIA.glob("*seedsofchange*annotated_body.html.gz")):
        truth = annotated_truth(read_saved(page))
        if "name" in truth:       # the annotated list page has no product fields
            original = PORTIA / page.name.replace("annotated_body", "original_body")
            site, template = page.name.split(".")[0].split("__")[-2:]
            out.append((f"{site}-{template}", read_saved(original), truth))
    return out


CASES = cases()


@pytest.fixture(scope="module")
def results() -> dict[str, tuple[dict[str, Any], dict[str, str]]]:
    lexicon = load_lexicon("ecommerce")
    out = {}
    for name, raw, truth in CASES:
        html = decode_html(raw, None)[0]
        out[name] = (extract_page_generic(html, "http://shop.example/item", lexicon), truth)
    return out


def test_the_corpus_gives_enough_truth() -> None:
    assert len(CASES) == 8
    assert sum("price" in t for _, _, t in CASES) == 8
    assert sum("sku" in t for _, _, t in CASES) >= 1


@pytest.mark.parametrize("name", [c[0] for c in CASES])
def test_product_page_kind_and_price(name: str, results: dict[str, Any]) -> None:
    out, truth = results[name]
    assert out["kind"] == "detail"
    want = parse_money(truth["price"]).amount
    assert want is not None and out["fields"]["price"] == pytest.approx(float(want)), out["fields"]


@pytest.mark.parametrize("name", [c[0] for c in CASES])
def test_product_name_and_sku(name: str, results: dict[str, Any]) -> None:
    out, truth = results[name]
    if not truth.get("name", "").endswith(".."):   # retrosixty annotated a menu crumb
        assert out["fields"]["name"] == truth["name"]
    if "sku" in truth:
        assert out["fields"]["sku"] == truth["sku"]


def test_availability_from_what_the_page_says(results: dict[str, Any]) -> None:
    # Play.com prints "In stock" beside its price (the word "stock" is also the label)
    assert results["samples_htmlpage_1"][0]["fields"]["availability"] == "in_stock"
    # none of these pages says a product is unavailable: a cart holding "0" items or a
    # quantity box does not make one out of stock
    said = {name: out["fields"]["availability"] for name, (out, _) in results.items()}
    assert "out_of_stock" not in said.values(), said
    # an enabled add-to-cart control ("Add to Your Cart", an AddtoCartButton) means the
    # shop sells the product now
    assert said["seedsofchange-t1"] == said["samples_scraper_loadstore_0"] == "in_stock"


@pytest.mark.parametrize("name", ["52", "53"])
def test_a_category_page_marking_up_each_product_is_no_product_page(name: str) -> None:
    # de Bijenkorf's paginated category pages (autopager corpus: they carry a pager)
    # mark every product card up as a schema.org Product
    html = real_text(f"autopager/{name}.html.gz")
    assert html.count("schema.org/Product") > 1
    out = extract_page_generic(html, real_url(f"autopager/{name}.html.gz"),
                               load_lexicon("ecommerce"))
    assert out["kind"] != "detail"
