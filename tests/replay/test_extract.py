"""Replaying hand-written rule files on the static demo shops, scored against ground truth.

Every list page and every detail page of outfitters, kumo, huaxia and nordlicht is
extracted through the demo server and compared field by field with
``shop.ground_truth()``: items in order, next-page URLs, auto level detection, JSON-LD,
constants, variants and URL-pattern pagination.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from lxml import etree

from structurer import structured as structured_module
from structurer.clean import parse_html
from structurer.demo import DemoServer
from structurer.errors import RuleError
from structurer.lexicon import load_lexicon
from structurer.page.view import PageView
from structurer.replay import (
    RuleTimeout,
    compile_rules,
    extract_categories,
    extract_detail,
    extract_list,
    extract_page,
)
from structurer.replay.extract import extract_item_links
from structurer.replay.records import REGEX_INPUT
from structurer.replay.xpaths import Clock, optimize_xpath
from structurer.rules import rules_from_text
from tests.conftest import FIXTURES, STATIC_SHOPS, compiled_for, rule_text

Truth = dict[str, dict[str, Any]]
Tree = Callable[[str], Any]
LIST_KEYS = ("url", "name", "price", "price_text", "currency", "image")
DETAIL_KEYS = ("url", "name", "price", "price_text", "currency", "original_price", "image",
               "sku", "brand", "availability", "description", "breadcrumb", "category")


@pytest.mark.parametrize("shop", STATIC_SHOPS)
def test_every_list_page(shop: str, demo_truth: Truth, page_tree: Tree) -> None:
    compiled = compiled_for(shop)
    truth = demo_truth[shop]
    assert len(truth["list_pages"]) >= 20
    for url, page in truth["list_pages"].items():
        tree = page_tree(url)
        result = extract_list(compiled, tree, url)
        got = [{k: item[k] for k in LIST_KEYS} for item in result.items]
        assert got == page["items"], url
        assert result.next_url == page["next"], url
        # huaxia lists its food department as rows: the rule file's "rows" variant
        rows = shop == "huaxia" and page["category"][0] == "食品饮料"
        assert result.layout == ("rows" if rows else None), url
        for item in result.items:  # every field of the rules is there, missing ones None
            assert {"original_price", "original_price_text", "availability"} <= set(item)
            assert item["availability"] in ("in_stock", "out_of_stock")
        auto = extract_page(compiled, tree, url)
        assert (auto.level, auto.records, auto.next_url) == ("list", result.items,
                                                             result.next_url)


def _expected(product: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    return {k: product[k] for k in keys}


@pytest.mark.parametrize("shop", STATIC_SHOPS)
def test_every_detail_page(shop: str, demo_truth: Truth, page_tree: Tree) -> None:
    compiled = compiled_for(shop)
    truth = demo_truth[shop]
    products = {p["id"]: p for p in truth["products"]}
    for url, pid in truth["detail_pages"].items():
        product = products[pid]
        tree = page_tree(url)
        record = extract_detail(compiled, tree, url)
        assert _expected(record, DETAIL_KEYS) == _expected(product, DETAIL_KEYS), url
        assert record["price_text"] is not None
        if "rating" in record:
            assert record["rating"] == product["rating"], url
        if "review_count" in record and product["rating"] is not None:
            assert record["review_count"] == product["review_count"], url
        if "images" in record:
            assert record["images"] == product["images"]
        auto = extract_page(compiled, tree, url)
        assert (auto.level, auto.records) == ("detail", [record]), url


def test_auto_level_with_related_products(demo_truth: Truth, page_tree: Tree) -> None:
    """Outfitters' detail pages carry a 'You may also like' grid that the list item XPath
    selects too: auto must still see a detail page (most detail fields are there)."""
    compiled = compiled_for("outfitters")
    url = next(iter(demo_truth["outfitters"]["detail_pages"]))
    tree = page_tree(url)
    assert len(extract_list(compiled, tree, url).items) >= 2
    assert extract_page(compiled, tree, url).level == "detail"
    assert extract_page(compiled, tree, url, level="list").level == "list"


def test_categories(demo_truth: Truth, page_tree: Tree) -> None:
    for shop in ("outfitters", "huaxia"):
        truth = demo_truth[shop]
        home = truth["home"]
        found = extract_categories(compiled_for(shop), page_tree(home), home)
        assert found == [(c["name"], c["url"]) for c in truth["categories"]], shop


VARIANT = """
    variants:
      - name: home featured
        when: boolean(//main[contains(@class, 'home')])
        item_xpath: //main[contains(@class, 'home')]/ul[@class='products']/li
"""


def test_list_variant_when(demo_truth: Truth, page_tree: Tree) -> None:
    """A variant holds where its `when` does, keeps the level's fields and says so."""
    text = (FIXTURES / "outfitters.yaml").read_text(encoding="utf-8")
    text = text.replace("  detail:\n", VARIANT.lstrip("\n") + "  detail:\n", 1)
    compiled = compile_rules(rules_from_text(text))
    truth = demo_truth["outfitters"]
    home = truth["home"]
    result = extract_list(compiled, page_tree(home), home)
    assert result.layout == "home featured"
    featured = [p["name"] for p in truth["products"][3::11][:8]]
    assert [item["name"] for item in result.items] == featured
    assert all(item["price"] is not None and item["url"] for item in result.items)
    first_list = next(iter(truth["list_pages"]))
    assert extract_list(compiled, page_tree(first_list), first_list).layout is None


def test_detail_variant_when(demo_truth: Truth, page_tree: Tree) -> None:
    compiled = compiled_for("kumo")
    truth = demo_truth["kumo"]
    products = {p["id"]: p for p in truth["products"]}
    seen = 0
    for url, pid in truth["detail_pages"].items():
        if not products[pid]["price_text"].startswith("From"):
            continue
        seen += 1
        result = extract_page(compiled, page_tree(url), url, level="detail")
        record = result.records[0]
        assert result.layout == "variant product"
        assert record["pack_prices"][0] == products[pid]["price"]
        assert len(record["pack_prices"]) == len(record["pack_prices_text"]) == 3
        assert record["sku"] == products[pid]["sku"]  # the level's fields still apply
    assert seen >= 5
    plain = next(u for u, pid in truth["detail_pages"].items()
                 if not products[pid]["price_text"].startswith("From"))
    result = extract_page(compiled, page_tree(plain), plain, level="detail")
    assert result.layout is None and "pack_prices" not in result.records[0]


JSONLD_DETAIL = rule_text("127.0.0.1:8004", """
  detail:
    fields:
      name: {jsonld: name, kind: text}
      price: {jsonld: offers.price, kind: money}
      sku: {jsonld: sku, kind: text}
      brand: {jsonld: brand, kind: text}
      image: {jsonld: image, kind: image}
      images: {jsonld: image, kind: image, multiple: true}
      availability: {jsonld: offers.availability, kind: availability}
      rating: {jsonld: aggregateRating.ratingValue, kind: rating}
      description: {xpath: "//p[@class='nothing-here']", jsonld: description, kind: text}
      shop: {const: Kumo Goods, kind: text}
""")


@pytest.mark.parametrize("shop", ["kumo", "outfitters"])
def test_jsonld_and_const_fields(shop: str, demo_truth: Truth, page_tree: Tree) -> None:
    compiled = compile_rules(rules_from_text(JSONLD_DETAIL))
    truth = demo_truth[shop]
    products = {p["id"]: p for p in truth["products"]}
    for url, pid in list(truth["detail_pages"].items())[:40]:
        record = extract_detail(compiled, page_tree(url), url)
        product = products[pid]
        keys = ("name", "price", "currency", "sku", "brand", "image", "images", "availability",
                "rating", "description")
        assert {k: record[k] for k in keys} == {k: product[k] for k in keys}, url
        assert record["price_text"] == f"{product['price']:.2f}"  # JSON-LD's own text
        assert record["shop"] == "Kumo Goods"


def test_jsonld_is_parsed_only_when_needed(demo_truth: Truth, page_tree: Tree,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    original = structured_module._LD_SCRIPTS
    monkeypatch.setattr(structured_module, "_LD_SCRIPTS",
                        lambda root: calls.append(1) or original(root))
    url = next(iter(demo_truth["kumo"]["detail_pages"]))
    tree = page_tree(url)
    record = extract_detail(compiled_for("kumo"), tree, url)  # price found by XPath first
    assert record["price"] is not None and calls == []
    extract_detail(compiled_for("huaxia"), tree, url)  # no jsonld fields at all
    assert calls == []
    extract_detail(compile_rules(rules_from_text(JSONLD_DETAIL)), tree, url)
    assert calls == [1]  # parsed once for all the page's JSON-LD fields


def test_jsonld_read_before_the_scripts_were_emptied(demo_truth: Truth,
                                                    page_text: Callable[[str], str]) -> None:
    """A page as analysis holds it (its scripts emptied, its JSON-LD read before) gives the
    JSON-LD fields when the objects are handed over."""
    compiled = compile_rules(rules_from_text(JSONLD_DETAIL))
    url = next(iter(demo_truth["kumo"]["detail_pages"]))
    raw = extract_detail(compiled, parse_html(page_text(url), url), url)
    view = PageView.from_html(url, page_text(url), load_lexicon())
    assert raw["description"] is not None
    assert extract_detail(compiled, view.tree, url)["description"] is None
    assert extract_detail(compiled, view.tree, url, jsonld=view.jsonld) == raw


def test_const_and_missing_fields(demo_truth: Truth, page_tree: Tree) -> None:
    extra = ("      currency: {const: eur, kind: currency}\n"
             "      sale_ends: {xpath: \".//time[@class='sale-end']\", kind: datetime}\n")
    text = (FIXTURES / "nordlicht.yaml").read_text(encoding="utf-8")
    text = text.replace("      name: {xpath: .//h3/a, kind: text}\n",
                        "      name: {xpath: .//h3/a, kind: text}\n" + extra, 1)
    compiled = compile_rules(rules_from_text(text))
    url, page = next(iter(demo_truth["nordlicht"]["list_pages"].items()))
    items = extract_list(compiled, page_tree(url), url).items
    assert [i["name"] for i in items] == [i["name"] for i in page["items"]]
    assert all(i["currency"] == "EUR" and i["sale_ends"] is None for i in items)


PATTERNS = [("kumo", "?page={page}"), ("huaxia", "-{page}.html"), ("nordlicht", "page/{page}/")]


@pytest.mark.parametrize(("shop", "pattern"), PATTERNS, ids=[p[0] for p in PATTERNS])
def test_pagination_by_url_pattern(shop: str, pattern: str, demo_truth: Truth,
                                   page_tree: Tree) -> None:
    """Only the URL pattern (no next link XPath): the page number comes from the URL and
    the next URL counts only when the page links to it."""
    text = (FIXTURES / f"{shop}.yaml").read_text(encoding="utf-8")
    lines = [line for line in text.splitlines(keepends=True)
             if "next_xpath" not in line and "url_pattern" not in line]
    text = "".join(lines).replace("    pagination:\n", "")
    text = text.replace("    item_xpath:", f"    pagination: {{url_pattern: '{pattern}'}}\n"
                        "    item_xpath:", 1)
    compiled = compile_rules(rules_from_text(text))
    assert compiled.lists[-1].pagination.next_xpath is None  # type: ignore[union-attr]
    for url, page in demo_truth[shop]["list_pages"].items():
        assert extract_list(compiled, page_tree(url), url).next_url == page["next"], url


def test_pattern_guess_from_baseline() -> None:
    """Without any link to the next page, a full page (baseline items per page) still
    gets the pattern's next URL; a short page does not."""
    text = (FIXTURES / "outfitters.yaml").read_text(encoding="utf-8").replace(
        "pagination: {next_xpath: \"//a[@rel='next']\"}", "pagination: {url_pattern: '?p={page}'}")
    compiled = compile_rules(rules_from_text(text))
    items = "".join(f"<li class='product'><h2 class='product-name'><a href='/p/{i}'>P{i}</a>"
                    "</h2></li>" for i in range(12))
    html = f"<html><body><main><ul class='products'>{items}</ul></main></body></html>"
    url = "http://shop.example/c/x/?p=3"
    assert extract_list(compiled, parse_html(html, url), url).next_url == \
        "http://shop.example/c/x/?p=4"
    short = html.replace(items, items[: len(items) // 3])
    assert extract_list(compiled, parse_html(short, url), url).next_url is None


def test_base_href_and_plain_trees() -> None:
    compiled = compiled_for("outfitters")
    html = ("<html><head><base href='https://cdn.shop.example/en/'></head><body><main>"
            "<ul class='products'><li class='product'><h2 class='product-name'>"
            "<a href='p/1.html'>One</a></h2><span class='price'>$5</span>"
            "<img class='product-image' src='i/1.jpg'></li></ul></main></body></html>")
    url = "https://shop.example/c/"
    for tree in (parse_html(html, url), etree.fromstring(html, etree.HTMLParser()).getroottree()):
        (item,) = extract_list(compiled, tree, url).items
        assert item["url"] == "https://cdn.shop.example/en/p/1.html"
        assert item["image"] == "https://cdn.shop.example/en/i/1.jpg"
        assert (item["price"], item["currency"], item["original_price"]) == (5.0, "USD", None)


REWRITES = [
    ("plain", "//a", "/descendant::a"),
    ("attribute-test", "//li[@class='x']/a", "/descendant::li[@class='x']/a"),
    ("inner-step", ".//h2//a[contains(@href, '//')]",
     "./descendant::h2/descendant::a[contains(@href, '//')]"),
    ("in-predicate", "//a[.//img]", "/descendant::a[./descendant::img]"),
    ("positional-kept", "//li[1]/a", "//li[1]/a"),
    ("positional-after-space", "//li [2]", "//li [2]"),
    ("last-kept", "//li[last()]", "//li[last()]"),
    ("position-kept", "//li[position() < 3]", "//li[position() < 3]"),
    ("count-kept", "//li[count(a)]", "//li[count(a)]"),
    ("comparison-ok", "//li[count(a) > 1]", "/descendant::li[count(a) > 1]"),
    ("node-tests-kept", "//text()", "//text()"),
    ("attributes-kept", "//@href", "//@href"),
    ("axes-kept", "//self::a", "//self::a"),
    ("in-function", "boolean(//main[@id])", "boolean(/descendant::main[@id])"),
]


@pytest.mark.parametrize(("expr", "expected"), [r[1:] for r in REWRITES],
                         ids=[r[0] for r in REWRITES])
def test_optimize_xpath(expr: str, expected: str) -> None:
    assert optimize_xpath(expr) == expected


def test_optimized_xpaths_select_the_same(demo_truth: Truth, page_tree: Tree) -> None:
    """The `//x[test]` -> `/descendant::x[test]` rewrite changes no result."""
    extra = ["//li[1]", "//ul/li[last()]", "//a[position() < 3]", "(//a)[2]", "//*[@id]",
             "//div[.//img]//a", "//a[contains(@href, '//')]", "//text()[1]", "//li[2]/a",
             "//li [1]", "//ul[li]//a[@href][1]"] + [r[1] for r in REWRITES]
    for shop in STATIC_SHOPS:
        rules = FIXTURES.joinpath(f"{shop}.yaml").read_text(encoding="utf-8")
        xpaths = [line.split("xpath: ", 1)[1].strip().strip("\"'{}").split(", kind")[0]
                  .strip("\"'") for line in rules.splitlines() if "xpath: /" in line]
        truth = demo_truth[shop]
        urls = [truth["home"], next(iter(truth["list_pages"])), next(iter(truth["detail_pages"]))]
        for url in urls:
            tree = page_tree(url)
            for expr in xpaths + extra:
                assert tree.xpath(optimize_xpath(expr)) == tree.xpath(expr), expr


def test_bad_xpath_is_a_rule_error() -> None:
    text = (FIXTURES / "kumo.yaml").read_text(encoding="utf-8").replace(
        ".//span[@itemprop='name']", ".//span[nosuch(@itemprop)]")
    with pytest.raises(RuleError, match=r"levels\.list\.fields\.name\.xpath"):
        compile_rules(rules_from_text(text))


def test_missing_levels_are_rule_errors() -> None:
    compiled = compile_rules(rules_from_text(JSONLD_DETAIL))
    tree = parse_html("<html><body></body></html>")
    for read in (extract_list, extract_item_links):     # records and links alike
        with pytest.raises(RuleError, match="no list level"):
            read(compiled, tree, "http://x/")
    # a page that shows none of the detail level is not taken for a detail page
    assert extract_page(compiled, tree, "http://x/").level == "other"
    forced = extract_page(compiled, tree, "http://x/", "detail")
    assert forced.level == "detail" and forced.records[0]["name"] is None


def test_server_fixture_is_shared(demo_server: DemoServer) -> None:
    assert set(STATIC_SHOPS) <= set(demo_server.urls)


SLOW_LIST = rule_text("shop.example", """
  list:
    item_xpath: //ul/li
    fields:
      name: {xpath: ./b, kind: text}
      rank: {xpath: 'count(following-sibling::li)', kind: integer}
""")


def test_a_page_whose_rules_run_too_long_is_given_up() -> None:
    """Counting each item's following siblings is allowed (it stays among the siblings),
    but on a list of 20,000 items it is quadratic: the page's time budget stops it after
    about the budget, naming the rule that took the time."""
    compiled = compile_rules(rules_from_text(SLOW_LIST))
    items = "".join(f"<li><b>Item {i}</b></li>" for i in range(20_000))
    url = "http://shop.example/c/all/"
    tree = parse_html(f"<html><body><ul>{items}</ul></body></html>", url)
    started = time.thread_time()
    with pytest.raises(RuleTimeout) as info:
        extract_list(compiled, tree, url, budget=1.0)
    assert time.thread_time() - started < 3  # given up soon after the budget's CPU second
    message = str(info.value)
    assert message.startswith(f"{url}: the rules took over the page's 1 s budget, so it was "
                              "not extracted; most of the time (")
    assert message.endswith("went to levels.list.fields.rank.xpath: XPath "
                            "'count(following-sibling::li)'")
    assert "\n" not in message
    small = parse_html(f"<html><body><ul>{items[:2000]}</ul></body></html>", url)
    records = extract_list(compiled, small, url).items  # the default budget is plenty here
    assert [r["rank"] for r in records[:2]] == [len(records) - 1, len(records) - 2]



def test_the_budget_counts_cpu_time_not_waiting() -> None:
    """A machine busy with other work makes a page wait for the processor: that is not
    rule cost, and must not fail the page (the budget is the thread's CPU time)."""
    clock = Clock("http://shop.example/p/1", budget=0.05)
    time.sleep(0.2)                      # four budgets of wall time, next to no CPU
    clock.check()
    burn = time.thread_time() + 0.1
    while time.thread_time() < burn:     # two budgets of CPU time
        pass
    with pytest.raises(RuleTimeout):
        clock.check()

def test_regex_steps_read_a_bounded_part_of_a_value() -> None:
    """'(\\d+)x' is fine on a SKU but takes quadratic time on 100,000 digits with no x:
    a regex step reads the first REGEX_INPUT characters only."""
    text = JSONLD_DETAIL.replace("      sku: {jsonld: sku, kind: text}",
                                 "      sku: {xpath: //h1, kind: text, post: ['regex:(\\d+)x']}")
    compiled = compile_rules(rules_from_text(text))
    url = "http://127.0.0.1:8004/p/1"
    started = time.monotonic()
    digits = parse_html(f"<html><body><h1>{'1' * 100_000}</h1></body></html>", url)
    assert extract_detail(compiled, digits, url)["sku"] is None
    assert time.monotonic() - started < 2
    found = parse_html(f"<html><body><h1>{'7' * 50}x</h1></body></html>", url)
    assert extract_detail(compiled, found, url)["sku"] == "7" * 50
    assert REGEX_INPUT == 1000
