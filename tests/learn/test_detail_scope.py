"""Detail fields of the page's own product: never another product's value, labels paired
with their own values, availability from the buy control."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from structurer.learn.detail import learn_detail
from structurer.lexicon import load_lexicon
from structurer.page.view import PageView
from structurer.replay.records import build_record, compile_fields
from structurer.rules.model import FieldRule
from structurer.values import Base

LEX = load_lexicon()

NAMES = ["Trail Shoe A1", "Rain Jacket B2", "Camp Stove C3", "Head Lamp D4", "Water Filter E5",
         "Tent Pole F6"]
PRICES = ["$59.00", "$120.50", "$35.25", "$19.95", "$44.10", "$12.75"]


def _cards(seed: int) -> str:
    """Four cards of other products, their prices in the main price's class."""
    return "".join(
        f"<li class='card'><a href='/p/{seed + i}'><img src='/t/{seed + i}.jpg' alt=''></a>"
        f"<h3><a href='/p/{seed + i}'>Other thing number {seed + i}</a></h3>"
        f"<span class='price'>${seed + i}.99</span></li>" for i in range(4))


def page(i: int, *, price: str = "shown", stock: str = "", button: str = "on",
         spec: str = "", others: bool = True) -> PageView:
    """Product ``i``: its price shown, empty (``&nbsp;``) or absent; a stock line; its buy
    button enabled, disabled or absent; a specification block; a grid of others."""
    shown = {"shown": f"<span class='price'>{PRICES[i]}</span>",
             "empty": "<span class='price'>&nbsp;</span>", "absent": ""}[price]
    control = {"on": "<button type='submit' name='add'>Add to cart</button>",
               "off": "<button type='submit' name='add' disabled>Add to cart</button>",
               "none": ""}[button]
    html = (f"<html><head><title>{NAMES[i]} | Shop</title></head><body>"
            f"<header><a href='/'>Shop</a><a href='/cart'>Cart</a></header><main>"
            f"<div class='product'><h1>{NAMES[i]}</h1><div class='box'>{shown}</div>"
            f"{stock}<form action='/cart/add' method='post'>{control}</form>{spec}</div>"
            + (f"<section><h2>More to look at</h2><ul class='grid'>{_cards(10 * i + 100)}"
               "</ul></section>" if others else "") + "</main></body></html>")
    return PageView.from_html(f"http://shop.test/p/{i}", html, LEX)


def record(fields: dict[str, FieldRule], view: PageView) -> dict[str, Any]:
    """What the crawl makes of a page with these rules."""
    plan = compile_fields(fields, "detail")
    return build_record(plan, view.tree, Base(view.url), None, {})


@pytest.mark.parametrize("missing", ["empty", "absent"])
def test_an_empty_or_missing_price_is_null_not_a_related_products(missing: str) -> None:
    pages = [page(0), page(1), page(2, price=missing), page(3)]
    learned = learn_detail(pages, LEX)
    rule = learned.fields["price"]
    assert record({"price": rule}, page(4))["price"] == 44.10
    assert record({"price": rule}, page(5, price=missing))["price"] is None


@pytest.mark.parametrize(("spec", "want"), [
    ("<ul class='facts'><li><strong>ISBN-13</strong>: {v}</li>"
     "<li><strong>ISBN-10</strong>: 0316{n}</li></ul>", "97803161{n}"),
    ("<table><tr><th>Weight</th><td>2 kg</td></tr><tr><th>UPC</th><td>{v}</td></tr></table>",
     "97803161{n}"),
    ("<dl><dt>Colour</dt><dd>Green</dd><dt>Art.-Nr.</dt><dd>{v}</dd></dl>", "97803161{n}"),
    ("<p>Colour: Green</p><p>Šifra: {v}</p><p>Ships in 2 days</p>", "97803161{n}"),
    ("<p>Артикул: <span>{v}</span></p>", "97803161{n}"),
], ids=["li-strong", "th-td", "dt-dd", "label-text", "label-span"])
def test_an_identifier_is_the_value_beside_its_own_label(spec: str, want: str) -> None:
    def specs(i: int) -> str:
        return spec.format(v=f"97803161{i}", n=i)

    pages = [page(i, spec=specs(i)) for i in range(4)]
    learned = learn_detail(pages, LEX)
    rule = learned.fields["sku"]
    assert record({"sku": rule}, page(5, spec=specs(5)))["sku"] == want.format(n=5)


def test_availability_from_the_pages_own_buy_button() -> None:
    pages = [page(0), page(1, button="off"), page(2), page(3, button="none")]
    learned = learn_detail(pages, LEX)
    rule = learned.fields["availability"]
    assert record({"availability": rule}, page(4))["availability"] == "in_stock"
    assert record({"availability": rule}, page(5, button="off"))["availability"] == \
        "out_of_stock"
    assert record({"availability": rule}, page(5, button="none"))["availability"] == \
        "out_of_stock"


@pytest.mark.parametrize("others", [True, False], ids=["scoped", "by-heading"])
def test_a_page_without_the_products_region_has_no_availability_from_the_buy_button(
        others: bool) -> None:
    pages = [page(0, others=others), page(1, button="off", others=others),
             page(2, others=others), page(3, button="none", others=others)]
    rule = learn_detail(pages, LEX).fields["availability"]
    gone = PageView.from_html("http://shop.test/p/9", (
        "<html><body><header><a href='/'>Shop</a><a href='/cart'>Cart</a></header><main>"
        f"<p>This page has moved.</p><section><ul class='grid'>{_cards(900)}</ul></section>"
        "</main></body></html>"), LEX)
    assert record({"availability": rule}, gone)["availability"] is None
    assert record({"availability": rule}, page(5, button="none"))["availability"] == \
        "out_of_stock"


@pytest.mark.parametrize(("yes", "no"), [
    ("I lager (4 st)", "Tillfälligt slut"), ("Auf Lager", "Ausverkauft"),
    ("В наличии", "Нет в наличии"), ("En stock", "Épuisé"), ("在庫あり", "在庫切れ")],
    ids=["sv", "de", "ru", "fr", "ja"])
def test_stock_words_of_many_languages(yes: str, no: str) -> None:
    def line(text: str) -> str:
        return f"<p class='stock'>{text}</p>"

    pages = [page(i, stock=line(w)) for i, w in enumerate([yes, no, yes, yes])]
    rule = learn_detail(pages, LEX).fields["availability"]
    assert record({"availability": rule}, page(4, stock=line(yes)))["availability"] == "in_stock"
    assert record({"availability": rule}, page(5, stock=line(no)))["availability"] == \
        "out_of_stock"


WORDS = ["one", "two", "three", "four", "five"]


def test_a_rating_given_only_as_a_class_word_is_learned() -> None:
    def stars(i: int) -> str:
        return (f"<div class='rating'><p class='stars {WORDS[i % 5]}'><i></i></p>"
                f"<span>({10 + i} reviews)</span></div>")

    pages = [page(i, stock=stars(i)) for i in range(4)]
    rule = learn_detail(pages, LEX).fields["rating"]
    assert record({"rating": rule}, page(4, stock=stars(3)))["rating"] == 4.0


@pytest.mark.parametrize(("said", "want"), [
    ("{n} out of 5 stars", 3.0), ("Rated {n} of 5", 3.0), ("{n},5 von 5 Sternen", 3.5)])
def test_a_rating_written_out_of_5_without_a_label_is_learned(said: str, want: float) -> None:
    """No rating word in the markup, no "Rating:" label: the text states a rating on the
    vocabulary's scale of 5 (``rating_scales``), and the count of reviews follows it."""
    def stars(i: int) -> str:
        return (f"<div class='meta'><span>{said.format(n=1 + i % 4)}</span>"
                f"<a href='#reviews'>({10 + i} reviews)</a></div>")

    pages = [page(i, stock=stars(i)) for i in range(4)]
    fields = learn_detail(pages, LEX).fields
    got = record({k: fields[k] for k in ("rating", "review_count")}, page(5, stock=stars(6)))
    assert got["rating"] == want
    assert got["review_count"] == 16


@pytest.mark.parametrize("extra", ["+ {x} shipping", "or 4 × {x}", "{x} excl. VAT", "{x} / m",
                                   "Spend {x} more for free shipping", "zzgl. {x} Versand",
                                   "{x}/米", "每米{x}", "{x}（1mあたり）", "{x}/m"])
def test_money_labelled_as_another_amount_is_not_the_price(extra: str) -> None:
    def view(i: int) -> PageView:
        amount = f"${3 + i}.{i}5"
        html = (f"<html><body><main><div class='product'><h1>{NAMES[i]}</h1>"
                f"<p>{extra.format(x=amount)}</p><div><span>{PRICES[i]}</span></div>"
                f"</div></main></body></html>")
        return PageView.from_html(f"http://shop.test/p/{i}", html, LEX)

    rule = learn_detail([view(i) for i in range(4)], LEX).fields["price"]
    assert record({"price": rule}, view(5))["price"] == 12.75


def test_availability_from_the_buy_button_where_only_unavailable_products_say_so() -> None:
    gone = "<p>This product is currently unavailable.</p>"
    pages = [page(0), page(1, button="none", stock=gone), page(2), page(3),
             page(4, button="none", stock=gone)]
    rule = learn_detail(pages, LEX).fields["availability"]
    assert record({"availability": rule}, page(5))["availability"] == "in_stock"
    assert record({"availability": rule}, page(5, button="none", stock=gone))[
        "availability"] == "out_of_stock"


CATEGORIES = [("Shoes", "Trail"), ("Jackets", "Rain"), ("Kitchen", "Stoves"), ("Lights", "Head")]


def _learned_trail(view: Callable[[int], PageView]) -> FieldRule:
    """The breadcrumb rule learned on the product pages ``view`` gives of four categories
    (pages 0-3), which must read a fifth page's trail (page 5: Jackets > Rain)."""
    cats = [set(CATEGORIES[i % 4]) for i in range(4)]
    rule = learn_detail([view(i) for i in range(4)], LEX, categories=cats).fields["breadcrumb"]
    assert record({"breadcrumb": rule}, view(5))["breadcrumb"] == ["Jackets", "Rain"]
    return rule


def test_the_breadcrumb_is_the_trail_not_the_menu_beside_it() -> None:
    def view(i: int) -> PageView:
        top, leaf = CATEGORIES[i % 4]
        menu = "".join(f"<li><a href='/c/{t.lower()}'>{t}</a></li>" for t, _ in CATEGORIES)
        html = (f"<html><body><div class='bar'><nav><ol><li><a href='/'>Start</a></li>"
                f"<li><a href='/c/{top.lower()}'>{top}</a></li><li>{leaf}</li>"
                f"<li>{NAMES[i]}</li></ol></nav><div class='drop'><button>All</button>"
                f"<ul>{menu}</ul></div></div><main><div class='product'><h1>{NAMES[i]}</h1>"
                f"<span class='price'>{PRICES[i]}</span></div></main></body></html>")
        return PageView.from_html(f"http://shop.test/p/{i}", html, LEX)

    _learned_trail(view)


@pytest.mark.parametrize("end", ["category", "product"])
def test_a_trail_of_links_and_separators_ends_with_its_unlinked_category(end: str) -> None:
    """``Home » Jackets » <span>Rain</span>`` in a block whose class another block shares
    (the one holding a "Notify me" link on sold-out pages): the trail is the links and the
    unlinked category at its end, from that block only — not an unlinked product name."""
    def view(i: int) -> PageView:
        top, leaf = CATEGORIES[i % 4]
        notify = "<a href='#notify'>Notify me</a>" if i % 2 else ""
        last = (f"<span>{leaf}</span>" if end == "category" else
                f"<a href='/c/{top.lower()}/{leaf.lower()}/'>{leaf}</a> » <span>{NAMES[i]}</span>")
        html = (f"<html><body><div class='w-full gap-2'><a href='/'>Start</a> » "
                f"<a href='/c/{top.lower()}/'>{top}</a> » {last}</div>"
                f"<main><div class='product'><h1>{NAMES[i]}</h1><div class='w-full gap-2'>"
                f"<span class='price'>{PRICES[i]}</span>{notify}</div></div></main>"
                f"</body></html>")
        return PageView.from_html(f"http://shop.test/p/{i}", html, LEX)

    rule = _learned_trail(view)
    assert record({"breadcrumb": rule}, view(3))["breadcrumb"] == list(CATEGORIES[3])


def test_a_trail_with_one_link_is_a_breadcrumb() -> None:
    """``<ol>`` items: the parent category linked, the category and the product not: one
    link is enough for a trail of list items."""
    def view(i: int) -> PageView:
        top, leaf = CATEGORIES[i % 4]
        html = (f"<html><body><ol class='crumbs'><li><a href='/c/{top.lower()}'>{top}</a></li>"
                f"<li><span>{leaf}</span></li><li><span>{NAMES[i % 6]} {i}</span></li></ol>"
                f"<main><div class='product'><h1>{NAMES[i % 6]} {i}</h1>"
                f"<span class='price'>{PRICES[i % 6]}</span></div></main></body></html>")
        return PageView.from_html(f"http://shop.test/p/{i}", html, LEX)

    _learned_trail(view)
    same = [view(4 * i + 1) for i in range(1, 5)]    # samples of one category, with its parent
    rule = learn_detail(same, LEX, categories=[set(CATEGORIES[1])] * 4).fields["breadcrumb"]
    assert rule.confidence >= 0.9, rule.evidence   # one trail here is no menu
