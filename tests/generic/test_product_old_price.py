"""The price before a discount on a product page without rules: struck through, labelled
(RRP, Was) or named by the old price's words beside the product's own price; never a
related product's old price, a saving, a free-shipping threshold or an amount below the
price."""

from __future__ import annotations

import pytest

from structurer.generic.extract import extract_page_generic
from structurer.lexicon import load_lexicon

LEX = load_lexicon()
URL = "http://shop.test/p/tv-5.html"


def page(prices: str, after: str = "") -> str:
    return ("<html><head><title>Vexa 37in LCD TV | Harbour</title></head><body><main>"
            "<div class='gallery'><img src='/img/5.jpg' alt='Vexa 37in LCD TV'></div>"
            f"<div class='info'><h1>Vexa 37in LCD TV</h1>{prices}"
            "<form action='/cart'><button>Add to basket</button></form></div>"
            f"{after}</main></body></html>")


RELATED = ("<section><h2>Customers also bought</h2><ul>" + "".join(
    f"<li><a href='/p/other-{i}.html'>Vexa Wall Bracket {i}</a><s>£{i}9.99</s>"
    f"<b>£{i}4.99</b></li>" for i in range(3, 7)) + "</ul></section>")


@pytest.mark.parametrize(("prices", "old"), [
    ("<h6><span>£579.99</span> Free Delivery</h6><p class='saving'><span>RRP: "
     "<strong>£749.99</strong></span> | <span>You save: <strong>£170.00</strong></span></p>",
     749.99),
    ("<p class='price'><del>£649.00</del> <ins>£579.99</ins></p>", 649.0),
    ("<p>Was £699.00</p><p class='price'>£579.99</p>", 699.0),
    ("<p class='price'>£579.99</p><p>Free delivery on orders over £750</p>", None),
    ("<p class='price'>£579.99</p><p>or 6 × £96.67 interest free</p>", None),
    ("<p class='price'>£579.99</p><p>Delivered for £795.00</p><p>Was £699.00</p>", 699.0),
    ("<p class='price'>£579.99</p><p>Freight £795.00</p>", None),
    ("<p class='price'>£579.99</p><p>Free shipping on orders over £750</p>"
     "<p>Compare at £699.00</p>", 699.0),
], ids=["rrp", "del", "was", "threshold", "instalment", "after-a-charge", "freight",
        "after-a-threshold"])
def test_the_old_price_beside_the_price(prices: str, old: float | None) -> None:
    """Money that is no price at all (``signals.not_price``: a delivery charge, a
    threshold) is never the old price, nor are its words the label of the amount after
    it; other sums' words (``vocabulary.other_money``: "Compare at", "Was") label one."""
    out = extract_page_generic(page(prices, RELATED), URL, LEX)
    assert out["fields"]["price"] == 579.99
    assert out["fields"]["original_price"] == old


def test_a_related_products_old_price_is_not_the_products() -> None:
    out = extract_page_generic(page("<p class='price'>£5.99</p>", RELATED), URL, LEX)
    assert out["fields"]["price"] == 5.99
    assert out["fields"]["original_price"] is None



def _unit_page(prices: str) -> str:
    return ("<html><head><title>铜管 15毫米 | 五金店</title></head><body><main>"
            f"<div class='info'><h1>铜管 15毫米</h1>{prices}"
            "<form action='/cart'><button>加入购物车</button></form></div></main></body></html>")


@pytest.mark.parametrize(("unit", "price"), [
    ("¥12.50/米", "¥125.00"), ("¥12.50 / 米", "¥125.00"), ("每米 ¥12.50", "¥125.00"),
    ("¥12.50/公斤", "¥125.00"), ("1mあたり ¥12.50", "¥125.00"), ("12.50 ₽ / м", "125.00 ₽"),
    ("$12.50/m", "$125.00")], ids=["zh", "zh-spaced", "zh-before", "zh-kg", "ja", "ru", "en"])
def test_a_price_per_unit_is_not_the_price(unit: str, price: str) -> None:
    """The signal ``not_price`` knows per-unit words of CJK ("/米", "每米", "あたり"),
    found inside unspaced text; the price after a per-unit amount is not taken for one
    because that amount's unit stands before it."""
    out = extract_page_generic(_unit_page(f"<p>{unit}</p><p>{price}</p>"), URL, LEX)
    assert out["fields"]["price"] == 125.0


@pytest.mark.parametrize(("cls", "price"), [
    ("fw-bold", 579.99), ("price-bold", 579.99), ("text_bold", 579.99),
    ("old-price", 12.5), ("price mini_cart", 12.5), ("minicart", 12.5),
    ("price relationship", 579.99), ("shipping-cost", 12.5)])
def test_other_sums_class_words_are_words_not_letters(cls: str, price: float) -> None:
    """``vocabulary.other_money_classes`` are matched as the fields' class words are: "old"
    names ``old-price`` but is no part of ``fw-bold``, so a bold price is still the
    price over the gift box's charge above it; "ship" names ``shipping-cost`` but not
    ``relationship``; ``mini-cart`` names ``mini_cart`` and ``minicart``."""
    prices = (f"<div><span>Gift box</span> <span class='x1'>£12.50</span></div>"
              f"<div class='price'><span class='{cls}'>£579.99</span></div>")
    out = extract_page_generic(page(prices), URL, LEX)
    assert out["fields"]["price"] == price
