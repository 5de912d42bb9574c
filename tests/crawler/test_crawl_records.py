"""Record merging, category paths, price errors and drift on hand-made inputs."""

from __future__ import annotations

from typing import Any

import pytest

from structurer.config import Settings
from structurer.crawler.drift import check_drift
from structurer.crawler.products import build_product, category_name, trusted_trail
from structurer.crawler.stats import CrawlStats, price_error
from structurer.replay.extract import compile_rules
from structurer.rules import rules_from_text
from tests.conftest import FIXTURES, compiled_for, rule_text


def test_detail_wins_and_the_most_specific_listing_fills_in() -> None:
    listings = [
        ("http://s/c/gear/", ("Gear",), {"name": "Tent", "price": 10.0, "image": "http://s/a.jpg",
                                         "rating": 4.0}),
        ("http://s/c/gear/tents/", ("Gear", "Tents"), {"name": "Tent X", "price": 10.0,
                                                       "image": None}),
    ]
    detail = {"name": "Tent X2", "price": None, "sku": "T-1",
              "category": ["Outdoor Gear", "Tents"]}
    record = build_product("http://s/p/1", reversed(listings), detail, ["url", "brand"])
    assert record["name"] == "Tent X2"            # detail wins where it has a value
    assert record["price"] == 10.0                # ... and keeps the list's where not
    assert record["image"] == "http://s/a.jpg"    # the parent's listing fills a gap
    assert record["brand"] is None and record["sku"] == "T-1"
    # "Gear" is not in the breadcrumb: its own path stays; "Tents" takes the breadcrumb's
    assert record["category"] == ["Outdoor Gear", "Tents"]
    assert record["categories"] == [["Gear"], ["Outdoor Gear", "Tents"]]


def test_a_stock_line_the_detail_page_cannot_read_leaves_the_lists_state() -> None:
    """A detail rule reading another line on a sold-out product's page ("unknown") does
    not overwrite the list's "out of stock"; a state it does read wins as any value does."""
    listings = [("http://s/c/", ("C",), {"name": "Plate", "availability": "out_of_stock"})]
    assert build_product("http://s/p/1", listings, {"availability": "unknown"}
                         )["availability"] == "out_of_stock"
    assert build_product("http://s/p/1", listings, {"availability": "in_stock"}
                         )["availability"] == "in_stock"
    assert build_product("http://s/p/1", [], {"availability": "unknown"}
                         )["availability"] == "unknown"


def test_without_breadcrumb_the_longest_path_is_the_category() -> None:
    record = build_product("http://s/p/1", [("a", ("A",), {}), ("b", ("A", "B"), {})], None)
    assert record["category"] == ["A", "B"] and record["categories"] == [["A"], ["A", "B"]]
    assert build_product("http://s/p/2", [], None)["category"] is None


@pytest.mark.parametrize(("link", "crumbs", "path"), [
    ("Consoles 16", ["Gaming", "Consoles"], ["Gaming", "Consoles"]),
    ("Candles", ["Home Décor", "Candles"], ["Home Décor", "Candles"]),
    ("Lamps", ["Lighting", "Lamp"], ["Lamps"]),
], ids=["count", "plain", "different"])
def test_category_paths_from_the_breadcrumb(link: str, crumbs: list[str], path: list[str]
                                            ) -> None:
    record = build_product("http://s/p/1", [("p", (link,), {})], {"category": crumbs})
    assert path in record["categories"]


def test_an_unconfirmed_trail_the_crawl_contradicts_gives_way() -> None:
    """A breadcrumb rule not confirmed on the samples (a menu the same on every page may
    read like one) never overrides the path the crawl reached the product through; one
    naming that path's category refines it, and with no path it is all there is."""
    listings = [("http://s/c/tents/", ("Gear", "Tents"), {"name": "Tent"})]
    menu = {"category": ["Men", "Women", "Kids"]}
    doubted = build_product("http://s/p/1", listings, menu, trusted=False)
    assert doubted["category"] == ["Gear", "Tents"]
    assert doubted["categories"] == [["Gear", "Tents"]]
    assert build_product("http://s/p/1", listings, menu)["category"] == ["Men", "Women", "Kids"]
    trail = {"category": ["Outdoor", "Gear", "Tents"]}
    assert build_product("http://s/p/1", listings, trail, trusted=False)["category"] == \
        ["Outdoor", "Gear", "Tents"]
    assert build_product("http://s/p/2", [], menu, trusted=False)["category"] == \
        ["Men", "Women", "Kids"]


@pytest.mark.parametrize(("confidence", "trusted"), [(0.6, False), (0.8, False), (0.93, True)])
def test_a_trail_is_trusted_once_its_rule_was_confirmed(confidence: float, trusted: bool) -> None:
    text = (FIXTURES / "nordlicht.yaml").read_text(encoding="utf-8")
    rule = "kind: breadcrumb, multiple: true}"
    assert rule in text
    text = text.replace(rule, f"kind: breadcrumb, multiple: true, confidence: {confidence}}}")
    assert trusted_trail(compile_rules(rules_from_text(text))) is trusted
    assert trusted_trail(compiled_for("nordlicht"))   # written by hand: confidence 1.0


def test_category_names_lose_their_counts() -> None:
    assert [category_name(t) for t in ("Candles 34 products", "Lamps (12)", "手机 (120)",
                                       "Route 66", " Tents ")] == \
        ["Candles", "Lamps", "手机", "Route 66", "Tents"]


@pytest.mark.parametrize(("record", "why"), [
    ({"price": 12.5, "price_text": "$12.50"}, None),
    ({"price": None, "price_text": None}, "empty"),
    ({"price": None, "price_text": "call us"}, "non-numeric"),
    ({"price": 12.5, "price_text": "Â£12.50"}, "garbled"),
    ({"price": -1.0, "price_text": "-1"}, "non-numeric"),
    ({"price": 4.0, "price_text": "or 4 × $308.38"}, "multiplier"),
    ({"price": 3.0, "price_text": "3x 19,99 €"}, "multiplier"),
    ({"price": 5.0, "price_text": "$5.00 – $9.00"}, "range"),
    ({"price": 10.0, "price_text": "10~20元"}, "range"),
    ({"price": 1299.0, "price_text": "1.299,- €"}, None),
    ({"price": 12.5, "price_text": "£12.50 (save £2.50)"}, None),
], ids=["ok", "empty", "text", "mojibake", "negative", "instalment", "times", "range",
        "tilde", "dash-cents", "two-amounts"])
def test_price_errors(record: dict[str, Any], why: str | None) -> None:
    assert price_error(record) == why


RULES = rule_text("s", """
  list:
    item_xpath: //li
    fields: {name: {xpath: ./a, kind: text}}
  detail:
    fields:
      name: {xpath: //h1, kind: text}
      sku: {xpath: //b, kind: text, confidence: 0.9}
""")


def test_drift_without_a_baseline_names_empty_fields() -> None:
    rules = rules_from_text(RULES, "r.yaml")
    stats = CrawlStats(fields={"detail": ["name", "sku"], "list": ["name"]})
    stats.count("detail", [{"name": f"P{i}", "sku": None} for i in range(30)])
    stats.count("list", [{"name": f"P{i}"} for i in range(30)])
    stats.list_pages, stats.items, stats.empty_lists = 4, 30, 3
    messages = [str(d) for d in check_drift(rules, stats)]
    assert messages == ["list: 3 of 4 list pages had no items",
                        "detail.sku: empty on all 30 detail pages (the rule file has no "
                        "baseline for this level)"]


def test_drift_thresholds_are_settings() -> None:
    rules = rules_from_text(RULES, "r.yaml")
    stats = CrawlStats(fields={"detail": ["name", "sku"], "list": ["name"]})
    stats.count("detail", [{"name": f"P{i}", "sku": None} for i in range(30)])
    stats.count("list", [{"name": f"P{i}"} for i in range(30)])
    stats.list_pages, stats.items, stats.empty_lists = 4, 30, 3
    assert len(check_drift(rules, stats, Settings())) == 2
    # 30 records say nothing with drift_min_records 40; 4 list pages nothing with 5
    assert check_drift(rules, stats, Settings(drift_min_records=40, drift_min_pages=5)) == []


@pytest.mark.parametrize(("detail", "listed", "why"), [
    ({"price": 12.0, "_structured_price": "12.00"}, [12.0], None),
    ({"price": 4.0, "_structured_price": "308.38"}, [4.0], "structured-mismatch"),
    ({"price": 11.0}, [10.0], "list-mismatch"),
    ({"price": 11.0}, [10.0, 11.0], None),          # one list page agrees
    ({"price": 11.0}, [None], None),                # nothing to compare
    ({"price": None}, [10.0], None),                # the list's price is the record's
    ({"price": 12.0, "_structured_price": "1,299.00"}, [], "structured-mismatch"),
], ids=["agree", "structured", "list", "one-agrees", "no-list-price", "no-detail-price",
        "formatted"])
def test_prices_the_product_pages_contradict(detail: dict[str, Any], listed: list[Any],
                                             why: str | None) -> None:
    record = build_product("http://s/p/1", [(f"http://s/c/{i}", ("C",), {"price": p})
                                           for i, p in enumerate(listed)],
                           {"price_text": f"${detail['price']}", **detail})
    assert "_structured_price" not in record          # never a column
    assert price_error(record) == why
    stats = CrawlStats()
    stats.count("record", [record])
    assert dict(stats.price_errors) == ({why: 1} if why else {})


def test_many_suspicious_prices_warn_empty_ones_do_not() -> None:
    rules = rules_from_text(RULES, "r.yaml")
    stats = CrawlStats()
    stats.count("record", [{"url": f"u{i}", "price": 4.0, "price_text": "or 4 × $30.00"}
                           for i in range(3)])
    stats.count("record", [{"url": f"v{i}", "price": None, "price_text": None}
                           for i in range(20)])
    stats.count("record", [{"url": f"w{i}", "price": 9.0, "price_text": "$9.00"}
                           for i in range(17)])
    assert [d.message for d in check_drift(rules, stats) if d.field == "price"] == [
        "price: 3 of 40 records (8%) have a garbled or suspicious price (multiplier 3)"]
    assert not [d for d in check_drift(rules, stats, Settings(drift_price_errors=0.1))
                if d.field == "price"]
