"""A currency sign several currencies share ("kr": SEK, DKK, NOK, ISK) is told by the
pages' language, learned into the money rules, and read by the crawl from the rule file."""

from __future__ import annotations

from pathlib import Path

import pytest

from structurer.kinds import compile_words, parse_money
from structurer.learn.currency import local_currency, page_language, with_local_currency
from structurer.learn.detail import learn_detail
from structurer.lexicon import load_lexicon
from structurer.page.view import PageView
from structurer.rules.model import FieldRule
from structurer.validate import validate_file
from tests.learn.test_detail_scope import NAMES, record
from tests.test_lexicon_vocabulary import _edited

LEX = load_lexicon()
WORDS = compile_words(LEX.vocabulary)


@pytest.mark.parametrize(("texts", "langs", "want"), [
    (["4 257,50 kr", "199 kr"], ["sv", "sv"], ("SEK", "KR", "sv")),
    (["4 257,50 kr"], ["da", None], ("DKK", "KR", "da")),
    (["kr 1.299,00"], ["nb"], ("NOK", "KR", "nb")),
    (["199 kr"], ["sv", "da"], None),           # pages of two languages: no telling
    (["199 kr"], [None], None),                 # no language given
    (["199 kr", "$5.00"], ["sv"], None),        # an amount naming its own currency
    (["199 kr"], ["de"], None),                 # a language the table does not know
    (["199 SEK"], ["sv"], None),                # the code is written: nothing to tell
    (["Kraft 12,00"], ["sv"], None),            # "kr" inside a word is no sign
    (["¥1,299", "¥ 5,000"], ["ja"], ("JPY", "¥", "ja")),   # a sign with a default (CNY)
    (["¥1,299"], ["zh"], ("CNY", "¥", "zh")),
    (["¥1,299 JPY"], ["zh"], None),             # the code is written: it says
])
def test_a_shared_sign_is_told_by_the_pages_language(texts: list[str], langs: list[str | None],
                                                     want: tuple[str, str, str] | None) -> None:
    assert local_currency(texts, langs, WORDS) == want


def _view(i: int, lang: str = "sv-SE") -> PageView:
    price = f"<p class='price'>{i + 1} 2{i}9,50 kr</p>" if i != 3 else "<p class='price'></p>"
    html = (f"<html lang='{lang}'><body><main><div class='product'><h1>{NAMES[i % 6]}</h1>"
            f"{price}</div></main></body></html>")
    return PageView.from_html(f"http://shop.test/p/{i}", html, LEX)


def test_kronor_on_swedish_pages_are_sek_and_no_price_has_no_currency() -> None:
    assert page_language(_view(0)) == "sv"
    rule = learn_detail([_view(i) for i in range(3)], LEX).fields["price"]
    assert rule.currency == "SEK", rule
    assert record({"price": rule}, _view(4)) == {
        "price": 5249.5, "price_text": "5 249,50 kr", "currency": "SEK"}
    assert record({"price": rule}, _view(3))["currency"] is None
    danish = learn_detail([_view(i, "da") for i in range(3)], LEX).fields["price"]
    assert danish.currency == "DKK"


def test_a_shared_sign_reads_as_the_rules_currency() -> None:
    """``¥`` alone is CNY by the symbol table; a rule told JPY by the pages' language
    reads it as JPY, and a written code still wins."""
    assert parse_money("¥1,299").currency == "CNY"
    assert parse_money("¥1,299", "JPY").currency == "JPY"
    assert parse_money("価格 ¥1,299 (税込)", "JPY").currency == "JPY"
    assert parse_money("¥1,299 CNY", "JPY").currency == "CNY"
    assert parse_money("$5.00", "CAD").currency == "USD"   # "$" is no shared sign here


def test_a_currency_field_reading_the_bare_sign_is_told_too() -> None:
    """A shop showing ``￥`` in an element of its own: the currency rule reading that sign
    is JPY on Japanese pages as the price rule is, not the symbol table's CNY."""
    def view(i: int, lang: str) -> PageView:
        html = (f"<html lang='{lang}'><body><main><div class='product'><h1>{NAMES[i % 6]}</h1>"
                f"<p class='price'><span class='currency'>￥</span>{i + 1},2{i}9</p>"
                "</div></main></body></html>")
        return PageView.from_html(f"http://shop.test/p/{i}", html, LEX)

    rules = {"price": FieldRule(xpath="//p[@class='price']", kind="money",
                                samples=["￥1,209", "￥2,219"]),
             "currency": FieldRule(xpath="//span[@class='currency']", kind="currency",
                                   samples=["￥", "￥"])}
    japanese = with_local_currency(rules, [view(i, "ja") for i in range(2)], LEX)
    assert (japanese["price"].currency, japanese["currency"].currency) == ("JPY", "JPY")
    assert "'￥' on pages in language 'ja' is JPY" in japanese["currency"].evidence
    assert record(japanese, view(4, "ja"))["currency"] == "JPY"
    chinese = with_local_currency(rules, [view(i, "zh-CN") for i in range(2)], LEX)
    assert record(chinese, view(4, "zh-CN"))["currency"] == "CNY"
    assert record(rules, view(4, "ja"))["currency"] == "CNY"   # untold: the symbol table's


def test_a_product_without_an_amount_has_no_currency() -> None:
    """Structured data names the currency of a sold-out product whose price is gone: a
    record without any amount says no currency either."""
    rules = {"price": FieldRule(xpath="//p[@class='price']", kind="money"),
             "currency": FieldRule(xpath="//meta[@itemprop='priceCurrency']/@content",
                                   kind="text")}
    meta = "<meta itemprop='priceCurrency' content='RUB'>"
    shown, gone = (PageView.from_html(f"http://shop.test/p/{i}", (
        f"<html><body><h1>Kettle</h1>{meta}{price}</body></html>"), LEX)
        for i, price in enumerate(["<p class='price'>1 299 ₽</p>", ""]))
    assert record(rules, shown)["currency"] == "RUB"
    assert record(rules, gone) == {**record(rules, gone), "price": None, "currency": None}


def test_a_rules_currency_must_be_an_iso_code() -> None:
    with pytest.raises(ValueError, match="currency"):
        FieldRule(xpath="//p", kind="money", currency="kr")


def test_editing_the_lexicon_tells_another_shared_sign(tmp_path: Path) -> None:
    """Swedish shops write "199:-": a lexicon naming that sign reads it as SEK."""
    assert local_currency(["199:-"], ["sv"], WORDS) is None
    edited = _edited(tmp_path, "local_currencies", '":-": {sv: SEK}')
    assert local_currency(["199:-"], ["sv"], compile_words(edited.vocabulary)) == (
        "SEK", ":-", "sv")


def test_a_bad_local_currency_is_one_clear_line(tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text("name: mine\nvocabulary:\n  local_currencies: {kr: {Swedish: SEK}}\n"
                    "fields:\n  title: {kind: text, words: {title: 5}}\n", encoding="utf-8")
    report = validate_file(path)
    assert not report.ok and len(report.errors) == 1
    line = str(report.errors[0])
    assert line.startswith(f"{path}:3: ") and (
        "vocabulary.local_currencies.kr.Swedish: 'Swedish' is not a language code") in line, line
