"""Confidence that means what it says: agreement with structured data earns 0.9 and more,
words alone never do, a disagreeing source caps it, a close runner-up with other values
makes the field ambiguous, and list fields are checked against their products' pages."""

from __future__ import annotations

import json

import pytest

from structurer.errors import RuleValidationError
from structurer.learn.confidence import calibrate, confirm_lists, is_ambiguous
from structurer.learn.detail import learn_detail
from structurer.learn.fields import FieldChoice
from structurer.learn.slots import Slot
from structurer.lexicon import load_lexicon
from structurer.page.view import PageView
from structurer.rules import dump_rules, rules_from_text
from structurer.rules.model import Candidate, FieldRule
from tests.conftest import rule_text

LEX = load_lexicon()
NAMES = ["Trail Shoe", "Rain Jacket", "Camp Stove", "Head Lamp", "Tent Pole", "Day Pack",
         "Water Filter", "Sleeping Mat", "Rope Bag", "Map Case"]


def product_page(i: int, shown: str, ld_price: str | None) -> PageView:
    """A product page showing ``shown`` as its price; JSON-LD says ``ld_price``."""
    name = NAMES[i]
    ld = ("<script type='application/ld+json'>" + json.dumps(
        {"@type": "Product", "name": name, "sku": f"SK-{i}",
         "offers": {"@type": "Offer", "price": ld_price, "priceCurrency": "EUR"}})
          + "</script>") if ld_price else ""
    html = (f"<html><head><title>{name} | Shop</title>{ld}</head><body>"
            f"<div class='product'><h1>{name}</h1>"
            f"<p class='price'>{shown}</p>"
            f"<table class='spec'><tr><th>Brand</th><td>Brand {i % 3}</td></tr></table>"
            f"</div></body></html>")
    return PageView.from_html(f"http://shop.test/p/{i}", html, LEX)


def test_a_price_structured_data_contradicts_is_not_confident() -> None:
    """The visible text loses its cents ("€ 352<sup>,50</sup>" read as 352): every page's
    JSON-LD says otherwise, so the field is no longer chosen at confidence 1.0."""
    pages = [product_page(i, f"€ {10 + i}<sup>,50</sup>", f"{10 + i}.50") for i in range(8)]
    price = learn_detail(pages, LEX).fields["price"]
    assert price.confidence < 0.5
    assert any("structured data on 0%" in e for e in price.evidence)


def test_agreement_with_structured_data_earns_high_confidence() -> None:
    pages = [product_page(i, f"€ {10 + i},50", f"{10 + i}.50") for i in range(8)]
    fields = learn_detail(pages, LEX).fields
    assert 0.9 <= fields["price"].confidence < 1.0      # one source: at most 0.99
    assert fields["name"].confidence == 1.0              # structured data and the title
    assert fields["brand"].confidence <= LEX.thresholds.unconfirmed_cap   # words only


def test_without_independent_evidence_confidence_stays_below_the_cap() -> None:
    pages = [product_page(i, f"€ {10 + i},50", None) for i in range(8)]
    fields = learn_detail(pages, LEX).fields
    cap = LEX.thresholds.unconfirmed_cap
    assert fields["price"].confidence <= cap and fields["brand"].confidence <= cap
    assert "nothing independent" in fields["price"].evidence[-1]


def _choice(score: float, values: list[str | None], key: str = "p") -> FieldChoice:
    slot = Slot(key, [None] * len(values), {"text": values})
    return FieldChoice("price", slot, "text", score)


def _rule(best: FieldChoice, runner: FieldChoice) -> FieldRule:
    return FieldRule(xpath="//p", kind="money", samples=best.slot.samples("text"),
                     runner_up=Candidate(xpath="//q", confidence=0.5,
                                         samples=runner.slot.samples("text")))


def test_a_close_runner_up_with_other_values_is_ambiguous() -> None:
    best = _choice(0.80, ["$1.00", "$2.00", "$3.00"])
    close = _choice(0.78, ["$9.00", "$8.00", "$7.00"], "q")
    twin = _choice(0.79, ["$1.00", "$2.00", "$3.00"], "q")     # another path, same text
    far = _choice(0.50, ["$9.00", "$8.00", "$7.00"], "q")
    assert is_ambiguous(best, close) and not is_ambiguous(best, twin)
    assert not is_ambiguous(best, far)
    rule = calibrate(_rule(best, close), best, close)
    assert rule.ambiguous and rule.runner_up is not None
    assert rule.samples == ["$1.00", "$2.00", "$3.00"]
    assert rule.runner_up.samples == ["$9.00", "$8.00", "$7.00"]
    assert rule.confidence < 0.5          # a tie is about a coin toss
    assert not calibrate(_rule(best, far), best, far).ambiguous


def _ambiguous_price(runner: str) -> str:
    return rule_text("shop.test", f"""
      detail:
        fields:
          price:
            xpath: //p
            kind: money
            confidence: 0.4
            ambiguous: true
            samples: ['$1.00']
            {runner}
    """)


def test_an_ambiguous_field_names_its_runner_up_in_the_rule_file() -> None:
    rules = rules_from_text(_ambiguous_price(
        "runner_up: {xpath: //q, confidence: 0.38, samples: ['$9.00']}"))
    assert rules.levels.detail is not None and rules.levels.detail.fields["price"].ambiguous
    assert "ambiguous: true" in dump_rules(rules)
    with pytest.raises(RuleValidationError, match="runner_up"):
        rules_from_text(_ambiguous_price(""))


def test_list_names_cut_short_lose_their_confidence() -> None:
    """A list shows "Trail Sh…" where the product's own page (and its structured data)
    says "Trail Shoe": the list rule's words cannot make that right."""
    items = "".join(f"<li><a href='/p/{i}'>{NAMES[i][:6]}…</a> <b>€ {10 + i},50</b></li>"
                    for i in range(8))
    lists = [PageView.from_html("http://shop.test/c/", f"<html><body><ul>{items}</ul>"
                                "</body></html>", LEX)]
    details = [product_page(i, f"€ {10 + i},50", f"{10 + i}.50") for i in range(8)]
    rules = rules_from_text(rule_text("shop.test", """
      list:
        item_xpath: //ul/li
        detail_link_xpath: ./a
        fields:
          name: {xpath: ./a, kind: text, confidence: 0.8}
          price: {xpath: ./b, kind: money, confidence: 0.7}
      detail:
        fields:
          name: {xpath: //h1, kind: text, confidence: 0.99}
    """))
    checked = confirm_lists(rules, lists, details, LEX)
    assert checked.levels.list is not None
    fields = checked.levels.list.fields
    assert fields["name"].confidence < 0.5 and "0% of 8" in fields["name"].evidence[-1]
    assert fields["price"].confidence >= 0.9      # the products' structured data agrees
