"""Confidence that means what it says: agreement with structured data earns 0.9 and more,
words alone never do, a disagreeing source caps it, a close runner-up with other values
makes the field ambiguous, and list fields are checked against their products' pages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from structurer.errors import RuleValidationError
from structurer.learn.confidence import (
    agreement,
    calibrate,
    confidence,
    confirm_lists,
    is_ambiguous,
)
from structurer.learn.detail import learn_detail
from structurer.learn.fields import FieldChoice
from structurer.learn.slots import Slot
from structurer.lexicon import load_lexicon, shipped_templates
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


def tiled_page(i: int, css: str, own: str, others: list[str]) -> PageView:
    """Product ``i`` showing ``own`` in a ``span.css``, then related products' tiles
    showing ``others`` in spans of the same class."""
    cards = "".join(f"<div class='tile'><span class='{css}'>{v}</span></div>" for v in others)
    return PageView.from_html(f"http://shop.test/p/{i}", f"<html><body><h1>{NAMES[i]}</h1>"
                              f"<span class='{css}'>{own}</span>{cards}</body></html>", LEX)


def test_a_price_structured_data_contradicts_is_not_confident() -> None:
    pages = [product_page(i, f"€ {10 + i},50", f"{20 + i}.00") for i in range(8)]
    price = learn_detail(pages, LEX).fields["price"]
    assert price.confidence < 0.5
    assert any("structured data on 0%" in e for e in price.evidence)


def test_a_price_missing_its_cents_is_not_confident() -> None:
    """The visible text splits the amount ("€ 352<sup>,50</sup>"): the element's own text
    is 352 — the list page, read the same way, would agree with it. The ranking reads the
    whole amount; a rule left reading the own text is doubted."""
    pages = [product_page(i, f"€ {10 + i}<sup>,50</sup>", None) for i in range(8)]
    price = learn_detail(pages, LEX).fields["price"]
    assert price.samples[0] == "€ 10,50"          # the own text "€ 10" was chosen before
    own = [p.body.find(".//p") for p in pages]
    slot = Slot("p.price", own, {"own": ["€ " + str(10 + i) for i in range(8)],
                                 "text": [f"€ {10 + i},50" for i in range(8)]})
    doubted, why = confidence(FieldChoice("price", slot, "own", 0.9), None, "money")
    assert doubted <= 0.3 and "longer amount" in why


def test_a_currency_agrees_by_its_code_not_by_its_letters() -> None:
    """A table header "Couleur" holds "eur" and, compared as text, agreed with every
    page's JSON-LD ``EUR``: it was learned as the currency at confidence 0.99."""
    hints = ["EUR", "EUR", "EUR"]
    assert agreement(["Couleur"] * 3, hints, "currency") == (0.0, 3)
    assert agreement(["€", "EUR", "Prix en EUR"], hints, "currency") == (1.0, 3)


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
          price: {xpath: ./b, kind: money, confidence: 0.7,
                  evidence: [nothing independent to check the values against]}
      detail:
        fields:
          name: {xpath: //h1, kind: text, confidence: 0.99}
    """))
    checked = confirm_lists(rules, lists, details, LEX)
    assert checked.levels.list is not None
    fields = checked.levels.list.fields
    assert fields["name"].confidence < 0.5 and "0% of 8" in fields["name"].evidence[-1]
    assert fields["price"].confidence >= 0.9      # the products' structured data agrees
    # ... and the list page's own "nothing to check against" no longer stands beside it
    assert fields["price"].evidence == [
        "agrees with the structured data of the product on every checked sample"]


def _crumb_page(i: int, trail: list[tuple[str, str]], query: str = "") -> PageView:
    links = "".join(f"<a href='{href}'>{name}</a> " for href, name in trail)
    html = (f"<html><body><div class='crumbs'>{links}</div><h1>{NAMES[i]}</h1>"
            f"<p class='price'>$1.00</p></body></html>")
    return PageView.from_html(f"http://shop.test/p/{i}{query}", html, LEX)


def test_breadcrumb_confidence_comes_from_the_categories_it_names() -> None:
    from structurer.learn.confidence import calibrate_breadcrumb

    cats = ["Tents", "Stoves", "Lamps", "Packs", "Tents", "Stoves"]
    rule = FieldRule(xpath="//div[@class='crumbs']//a", kind="breadcrumb", multiple=True,
                     confidence=1.0)
    right = [_crumb_page(i, [("/c/gear/", "Gear"), (f"/c/{c.lower()}/", c)])
             for i, c in enumerate(cats)]
    homed = [_crumb_page(i, [("/", "Strona główna"), ("/c/gear/", "Gear"),
                             (f"/c/{c.lower()}/", c)]) for i, c in enumerate(cats)]
    menu = [_crumb_page(i, [("/c/tents/", "Tents"), ("/c/stoves/", "Stoves")])
            for i in range(len(cats))]
    names = [{c} for c in cats]
    good = calibrate_breadcrumb(rule, right, names)
    assert good is not None and 0.9 <= good.confidence < 1.0
    for pages in (homed, menu):
        bad = calibrate_breadcrumb(rule, pages, names)
        assert bad is not None and bad.confidence < 0.5, bad.evidence


def test_a_home_link_is_the_root_with_no_query_of_its_own() -> None:
    """A home crumb carrying the language every link of the shop carries is still home;
    a category on the root by its query (``/?product_cat=gear``) is a category."""
    from structurer.learn.confidence import calibrate_breadcrumb

    cats = ["Tents", "Stoves", "Lamps", "Packs", "Tents", "Stoves"]
    rule = FieldRule(xpath="//div[@class='crumbs']//a", kind="breadcrumb", multiple=True,
                     confidence=1.0)
    names = [{c} for c in cats]
    homed = [_crumb_page(i, [("/?lang=pl", "Strona główna"), ("/c/gear/?lang=pl", "Gear"),
                             (f"/c/{c.lower()}/?lang=pl", c)], query="?lang=pl")
             for i, c in enumerate(cats)]
    bad = calibrate_breadcrumb(rule, homed, names)
    assert bad is not None and bad.confidence < 0.5, bad.evidence
    queried = [_crumb_page(i, [("/?product_cat=gear", "Gear"),
                               (f"/?product_cat={c.lower()}", c)]) for i, c in enumerate(cats)]
    good = calibrate_breadcrumb(rule, queried, names)
    assert good is not None and 0.9 <= good.confidence < 1.0, good.evidence


def test_a_trail_going_past_the_department_a_product_was_listed_under_is_right() -> None:
    """Products reached through their department's list (the sub-categories linked from
    product pages only): the trail names that department, then the product's own
    sub-category. One ending with the product's name instead is still not confirmed."""
    from structurer.learn.confidence import calibrate_breadcrumb

    cats = [("Gear", "Tents"), ("Gear", "Stoves"), ("Wear", "Jackets"), ("Wear", "Boots"),
            ("Gear", "Lamps"), ("Wear", "Hats")]
    rule = FieldRule(xpath="//div[@class='crumbs']//a", kind="breadcrumb", multiple=True,
                     confidence=1.0)
    deeper = [_crumb_page(i, [(f"/c/{top.lower()}/", top), (f"/c/{leaf.lower()}/", leaf)])
              for i, (top, leaf) in enumerate(cats)]
    named = [_crumb_page(i, [(f"/c/{top.lower()}/", top), (f"/p/{i}", NAMES[i])])
             for i, (top, _) in enumerate(cats)]
    departments = [{top} for top, _ in cats]
    good = calibrate_breadcrumb(rule, deeper, departments)
    assert good is not None and good.confidence >= 0.9, good.evidence
    bad = calibrate_breadcrumb(rule, named, departments)
    assert bad is not None and bad.confidence < 0.5, bad.evidence


def test_one_crumb_trails_are_not_confirmed() -> None:
    """A trail of just the listing category may stop short (Tools, not Tools > Drills)."""
    from structurer.learn.confidence import calibrate_breadcrumb

    cats = ["Tents", "Stoves", "Lamps", "Packs"]
    rule = FieldRule(xpath="//div[@class='crumbs']//a", kind="breadcrumb", multiple=True,
                     confidence=1.0)
    pages = [_crumb_page(i, [(f"/c/{c.lower()}/", c)]) for i, c in enumerate(cats)]
    short = calibrate_breadcrumb(rule, pages, [{c} for c in cats])
    assert short is not None and short.confidence <= LEX.thresholds.unconfirmed_cap
    assert "one crumb" in short.evidence[-1]


def test_a_value_the_page_repeats_is_confirmed_by_structured_data_only() -> None:
    """The first of several '.tile-rating' elements: the product's own on the sample
    pages, a related product's card where the product has none."""
    def page(i: int, tiles: int) -> PageView:
        return tiled_page(i, "tile-rating", f"4.{i}", [f"{j}.5" for j in range(tiles)])
    values = [f"4.{i}" for i in range(8)]
    best = FieldChoice("rating", Slot("r", [None] * 8, {"text": list(values)}), "text", 1.2)
    rule = FieldRule(xpath="//span[@class='tile-rating']", kind="rating")
    alone = calibrate(rule, best, None, hints=list(values), pages=[page(i, 0) for i in range(8)])
    tiled = calibrate(rule, best, None, hints=list(values), pages=[page(i, 3) for i in range(8)])
    assert alone.confidence >= 0.9
    assert tiled.confidence <= LEX.thresholds.unconfirmed_cap and "several" in tiled.evidence[-1]
    by_data = calibrate(rule, best, None, structured=list(values),
                        pages=[page(i, 3) for i in range(8)])
    assert by_data.confidence >= 0.9


def test_the_samples_that_confirm_are_the_lexicons(tmp_path: Path) -> None:
    """Eight product pages agreeing with their structured data confirm the price (0.9 and
    more); a lexicon asking for nine samples (``thresholds: {min_checks: 9}``) leaves it
    at what words alone are worth, and says why."""
    pages = [product_page(i, f"€ {10 + i},50", f"{10 + i}.50") for i in range(8)]
    price = learn_detail(pages, LEX).fields["price"]
    assert price.confidence >= 0.9 and any("agrees with structured data" in e
                                           for e in price.evidence)
    text = shipped_templates()["ecommerce"].read_text(encoding="utf-8")
    path = tmp_path / "strict.yaml"
    path.write_text(text.replace("thresholds:\n", "thresholds:\n  min_checks: 9\n"
                                 "  full_checks: 12\n", 1), encoding="utf-8")
    strict = load_lexicon(path)
    doubted = learn_detail(pages, strict).fields["price"]
    assert doubted.xpath == price.xpath
    assert doubted.confidence <= strict.thresholds.unconfirmed_cap
    assert any("structured data speaks for only 8 samples" in e for e in doubted.evidence)


def test_a_price_xpath_giving_several_differing_amounts_loses_its_confidence() -> None:
    """``//span[@class='price']``: the product's price first, then the related products'
    (the price of another product wherever the product's own is missing). Repeating the
    product's own price (a sticky bar) is no doubt of that kind; differing amounts bring
    the confidence to the cap times the chance of picking the right one of them."""
    def page(i: int, others: list[str]) -> PageView:
        return tiled_page(i, "price", f"€ 1{i},50", others)
    values = [f"€ 1{i},50" for i in range(8)]
    best = FieldChoice("price", Slot("p", [None] * 8, {"text": list(values)}), "text", 1.2)
    rule = FieldRule(xpath="//span[@class='price']", kind="money")
    cap = LEX.thresholds.unconfirmed_cap

    def calibrated(others: list[list[str]], **sources: list[str]) -> FieldRule:
        return calibrate(rule, best, None, pages=[page(i, o) for i, o in enumerate(others)],
                         **sources)  # type: ignore[arg-type]

    alone = calibrated([[]] * 8, hints=values)
    assert alone.confidence >= 0.9 and "differing" not in alone.evidence[-1]
    sticky = calibrated([[v] for v in values], hints=values)
    assert sticky.confidence == cap and "differing" not in sticky.evidence[-1]
    related = [["€ 3,00", "€ 4,00", "€ 5,00"] if i % 2 else [] for i in range(8)]
    half = calibrated(related, hints=values)     # 4 pages of one amount, 4 of four
    assert half.confidence == round(cap * (4 * 1 + 4 * 0.25) / 8, 2)
    assert "several differing amounts on 50% of pages" in half.evidence[-1]
    assert calibrated(related, structured=values).confidence == cap
    unchecked = calibrated([[]] * 8).confidence
    assert calibrated(related).confidence == round(unchecked * 0.625, 2) < unchecked
