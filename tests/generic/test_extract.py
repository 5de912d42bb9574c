"""Rule-free extraction of one page: `structurer extract-page` and analyze.generic.

Demo shops (static ones, with ground truth) for product detail fields and main
lists, hand-written news articles (tests/fixtures/news) for the news template, and
the real saved product pages of ``tests/fixtures/real`` (extruct, scrapely) for robustness.
"""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from structurer.clean import decode_html
from structurer.cli import main
from structurer.generic.extract import extract_page_generic
from structurer.lexicon import load_lexicon
from tests.page.test_density import EXPECTED, NEWS, token_f1
from tests.test_corpora import PAGES, REAL, real_text

SWEEP = [str(p.relative_to(REAL)) for p in PAGES if p.parent.name in ("extruct", "scrapely")]
STATIC_SHOPS = ["outfitters", "nordlicht", "brightline", "kumo", "huaxia", "maple", "ledger"]
FIELDS = ("name", "price", "currency", "sku", "availability", "brand")


def fetch(url: str) -> str:
    with urllib.request.urlopen(url, timeout=30) as response:
        return decode_html(response.read(), response.headers.get("Content-Type"))[0]


@pytest.fixture(scope="module")
def ecommerce() -> Any:
    return load_lexicon("ecommerce")


@pytest.mark.parametrize("shop", STATIC_SHOPS)
def test_detail_fields_match_truth(shop: str, demo_truth: dict[str, Any], ecommerce: Any) -> None:
    products = demo_truth[shop]["products"]
    sample = products[::max(1, len(products) // 15)]
    hits = dict.fromkeys(FIELDS, 0)
    kinds = 0
    for product in sample:
        out = extract_page_generic(fetch(product["url"]), product["url"], ecommerce)
        kinds += out["kind"] == "detail"
        for name in FIELDS:
            hits[name] += out["fields"].get(name) == product[name]
    assert kinds == len(sample)
    accuracy = {name: hit / len(sample) for name, hit in hits.items()}
    assert all(value >= 0.95 for value in accuracy.values()), accuracy


@pytest.mark.parametrize("shop", [s for s in STATIC_SHOPS if s != "maple"])  # maple lists render
def test_main_list_urls_match_truth(shop: str, demo_truth: dict[str, Any], ecommerce: Any) -> None:
    pages = list(demo_truth[shop]["list_pages"].items())[:3]
    for url, truth in pages:
        out = extract_page_generic(fetch(url), url, ecommerce)
        assert out["kind"] == "list"
        got = {item["url"] for item in out["items"]}
        want = {item["url"] for item in truth["items"]}
        assert len(got & want) >= 0.95 * len(want) and len(got & want) >= 0.95 * len(got)
        titles = {item["title"] for item in out["items"]}
        assert len(titles & {i["name"] for i in truth["items"]}) >= 0.9 * len(want)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_news_articles_through_the_cli(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["extract-page", str(NEWS / name), "--template", "news",
                 "--base-url", "http://news.example/2024/"]) == 0
    out = json.loads(capsys.readouterr().out)
    want = EXPECTED[name]
    assert out["kind"] == "detail" and out["url"] == f"http://news.example/2024/{name}"
    fields = out["fields"]
    assert set(fields) == {"title", "content", "published", "author"}
    assert fields["title"] == want["title"]
    assert token_f1(fields["content"], want["content"]) >= 0.9
    assert fields["published"].startswith(want["published"])
    assert fields["author"] == want["author"]


def test_microdata_product_page(ecommerce: Any) -> None:
    out = extract_page_generic(real_text("extruct/product_microdata.html"),
                               "http://shop.example/p/1", ecommerce)
    fields = out["fields"]
    assert out["kind"] == "detail"
    assert (fields["name"], fields["price"], fields["currency"]) == ("Executive Anvil", 119.99,
                                                                     "USD")
    assert (fields["sku"], fields["brand"], fields["availability"]) == ("925872", "ACME",
                                                                       "in_stock")
    assert fields["image"] == "http://shop.example/p/anvil_executive.jpg"
    assert out["sources"]["price"] == "microdata"


def test_real_pages_are_there() -> None:
    assert len(SWEEP) == 10, SWEEP


@pytest.mark.parametrize("page", SWEEP)
@pytest.mark.parametrize("template", ["ecommerce", "news"])
def test_never_crashes_on_real_pages(page: str, template: str) -> None:
    out = extract_page_generic(real_text(page), f"http://corpus.example/{page}",
                               load_lexicon(template))
    assert out["kind"] in ("list", "detail", "other")
    json.dumps(out)


def test_cli_bad_input_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["extract-page", str(tmp_path / "missing.html")]) == 2
    assert main(["extract-page", str(NEWS / "article-1.html"), "--template", "nosuch"]) == 2
    assert main(["extract-page", str(NEWS / "article-1.html"), "--base-url", "ftp://x/"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 3 and all(line.startswith("structurer: error:") for line in err)


def test_cli_fetches_urls(demo_truth: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    product = demo_truth["ledger"]["products"][3]
    assert main(["extract-page", product["url"]]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["kind"] == "detail" and out["fields"]["sku"] == product["sku"]
    assert out["fields"]["price"] == product["price"]


def test_a_text_field_a_lexicon_adds_is_read_by_its_labels(tmp_path: Path) -> None:
    """No code names the fields read by their labels: a lexicon's new text field is."""
    source = (Path(__file__).resolve().parents[2] / "templates" / "ecommerce.yaml")
    path = tmp_path / "shop.yaml"
    path.write_text(source.read_text(encoding="utf-8") + (
        "\n  color:\n    kind: text\n    level: detail\n    words: {color: 10, colour: 10}\n"
        "    labels: {colour: 10, color: 10}\n"), encoding="utf-8")
    page = ("<html><head><title>Blue Kettle</title></head><body><main><h1>Blue Kettle</h1>"
            "<p class='price'>£24.00</p><table class='specs'><tr><th>SKU:</th><td>K-17</td></tr>"
            "<tr><th>Colour:</th><td>Cobalt blue</td></tr></table>"
            "<button class='add-to-cart'>Add to cart</button></main></body></html>")
    out = extract_page_generic(page, "http://shop.test/p/kettle", load_lexicon(path))
    assert out["kind"] == "detail"
    assert (out["fields"]["sku"], out["fields"]["color"]) == ("K-17", "Cobalt blue")
    assert out["sources"]["color"] == "label"


def test_an_article_body_given_as_escaped_html_is_plain_text() -> None:
    body = json.dumps({"@context": "https://schema.org", "@type": "NewsArticle",
                       "headline": "Bridge  opens", "author": {"name": "Ana Ruiz"},
                       "articleBody": "&lt;p class=&quot;t&quot;&gt;Traffic flows &amp;amp; "
                                      "the mayor speaks.&lt;/p&gt;&lt;p&gt;More "
                                      "solu&amp;ccedil;&amp;otilde;es.&lt;/p&gt;"})
    page = (f'<html><head><script type="application/ld+json">{body}</script></head>'
            "<body><h1>Bridge opens</h1><p>Short.</p></body></html>")
    out = extract_page_generic(page, "http://news.test/a/1", load_lexicon("news"))
    assert out["kind"] == "detail" and out["sources"]["content"] == "jsonld"
    assert out["fields"]["title"] == "Bridge opens"
    assert out["fields"]["content"] == "Traffic flows & the mayor speaks. More soluções."
    assert out["fields"]["author"] == "Ana Ruiz"
