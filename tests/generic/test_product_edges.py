"""Product pages at their edges: a sold-out product with no price shown is still a product
page (its stock stated beside its title), a category's last page of one or two cards is
a list, a price range split over inline tags is read from its lower end, and a SKU is a
code, never a text of words found near an identifier word."""

from __future__ import annotations

import pytest

from structurer.demo.zoo import ZooShop
from structurer.generic.extract import extract_page_generic
from structurer.kinds import parse_identifier
from structurer.lexicon import load_lexicon
from structurer.page.productkind import can_buy
from structurer.page.view import PageView

LEX = load_lexicon()
URL = "http://shop.test/p/item-7.html"


def page(main: str, after: str = "") -> str:
    return ("<html><head><title>Krafter Spiral Hose N704 | Harbour</title></head><body>"
            "<header><a href='/'>Harbour</a><a href='/cart'>Cart (0)</a></header><main>"
            "<div class='gallery'><img src='/img/7.png' alt='Krafter Spiral Hose N704'></div>"
            f"<div class='info'><h1>Krafter Spiral Hose N704</h1>{main}</div>"
            "<section><h2>Description</h2><p>Built from copper, it is light and durable. "
            "Every hose is tested before it leaves the workshop.</p></section>"
            f"{after}</main><footer><a href='/pages/about'>About</a></footer></body></html>")


@pytest.mark.parametrize("stock", [
    "<p>Распродано</p><a href='#notify'>Сообщить о поступлении</a>",
    "<p>Den här produkten är inte tillgänglig just nu.</p>",
])
def test_a_sold_out_product_without_a_price_is_a_detail_page(stock: str) -> None:
    out = extract_page_generic(page("<div class='prices'></div>" + stock), URL, LEX)
    assert out["kind"] == "detail"
    assert out["fields"]["name"] == "Krafter Spiral Hose N704"
    assert out["fields"]["availability"] == "out_of_stock"
    assert out["fields"]["price"] is None


def related(n: int) -> str:
    return "<section><h2>You may also like</h2><div>" + "".join(
        f"<dl><dt><a href='/p/other-{i}.html'>Porcelana Sol Hand Blender H9{i}</a></dt>"
        f"<dd><a href='/p/other-{i}.html'><img src='/t/{i}.jpg' alt=''></a></dd>"
        f"<dd><span>${i}6<sup>95</sup></span></dd><dd><p>In stock</p></dd></dl>"
        for i in range(n)) + "</div></section>"


def test_a_stated_stock_beside_the_title_outweighs_a_related_list() -> None:
    main = ("<div><p>$160<span class='sr-only'>.</span><sup>99</sup></p></div>"
            "<p>Currently out of stock</p><a href='#notify'>Notify me</a>")
    out = extract_page_generic(page(main, related(4)), URL, LEX)
    assert out["kind"] == "detail"
    assert out["fields"]["price"] == 160.99
    assert out["fields"]["availability"] == "out_of_stock"


def last_page(sort: str, cards: int) -> str:
    items = "".join(
        f"<dl><dt><a href='/product/{i}'>Quill Hidden Popular Science B30{i}</a></dt>"
        f"<dd><a href='/product/{i}'><img src='/t/{i}.jpg' alt=''></a></dd>"
        f"<dd><span><span>{i}01,95</span> <span>€</span></span></dd>"
        f"<dd><button type='submit' name='add' value='{i}'>In den Warenkorb</button></dd></dl>"
        for i in range(1, cards + 1))
    return ("<html><head><title>Sachbuch | Sunline</title></head><body><header>"
            "<a href='/'>Sunline</a></header><main><h1>Sachbuch</h1><p>68 Artikel</p>"
            f"<label>{sort} <select name='sort'><option value='pos'>—</option>"
            f"<option value='price'>Preis</option></select></label><div id='plp'>{items}</div>"
            "<nav><a href='?page=3' rel='prev'>«</a><span aria-current='page'>4</span></nav>"
            "</main></body></html>")


@pytest.mark.parametrize("sort", ["Sortieren nach", "Sortuj według", ""])
@pytest.mark.parametrize("cards", [1, 2])
def test_a_last_list_page_of_one_or_two_cards_is_a_list(sort: str, cards: int) -> None:
    out = extract_page_generic(last_page(sort, cards), "http://shop.test/c/8?page=4", LEX)
    assert out["kind"] == "list"


def test_a_price_range_split_over_inline_tags_reads_its_lower_end() -> None:
    main = ("<div><p>$1,553<span class='sr-only'>.</span><sup>50</sup> – "
            "$1,910<span class='sr-only'>.</span><sup>81</sup></p></div><p>In stock</p>"
            "<form action='/cart/add' method='post'><button type='submit'>Add to cart</button>"
            "</form>")
    out = extract_page_generic(page(main), URL, LEX)
    assert out["fields"]["price"] == 1553.5


@pytest.mark.parametrize(("text", "code"), [
    ("0051-064", "0051-064"), ("FDE0084902", "FDE0084902"), ("ABC-XYZ", "ABC-XYZ"),
    ("978 0 316 12558 1", "978 0 316 12558 1"), ("Product code: 83810610", "83810610"),
    ("В избранное", None), ("Couleur : noir/blanc", None), ("Standort:A-6805", None),
    ("Size 10", None), ("Ships in 3 days", None), ("Grey", None),
], ids=lambda v: str(v))
def test_an_identifier_is_shaped_like_a_code(text: str, code: str | None) -> None:
    assert parse_identifier(text, ["product code"]) == code


@pytest.mark.parametrize("junk", [
    "<span class='product-code'>В избранное</span>",
    "<div class='product-sku'><span>Couleur : noir/blanc</span></div>",
    "<p class='item-code'>Standort:A-6805</p>",
])
def test_words_near_an_identifier_word_are_no_sku(junk: str) -> None:
    main = ("<p class='price'>£12.50</p><form action='/cart/add' method='post'>"
            f"<button type='submit'>Add to basket</button></form>{junk}")
    out = extract_page_generic(page(main), URL, LEX)
    assert out["kind"] == "detail"
    assert out["fields"]["sku"] is None


def test_a_labelled_code_is_the_sku_without_its_label() -> None:
    main = ("<p class='price'>£12.50</p><form action='/cart/add' method='post'>"
            "<button type='submit'>Add to basket</button></form>"
            "<p class='ref'>Product code: 83810610</p>")
    out = extract_page_generic(page(main), URL, LEX)
    assert out["fields"]["sku"] == "83810610"



def test_a_card_the_repetition_left_out_has_no_buy_button_of_the_page() -> None:
    """A category page whose own grid a script fills (empty as fetched) beside a
    bestsellers list whose third card differs (no rating, an old price), so the repeated
    region holds the other three: that card's "add to cart" button is still a list card's,
    not the page's own, and the page is no product page (zoo seed 2: its category was
    taken for a product page and the whole shop's categories were lost)."""
    shop = ZooShop(2)
    shop.handle("/collections/cleansers")      # its session axis fails a first request
    response = shop.handle("/collections/cleansers")
    assert response.status == 200 and b'id="products"></div>' in response.body
    url = "http://shop.test/collections/cleansers"
    view = PageView.from_html(url, response.body.decode("utf-8"), LEX)
    assert not can_buy(view)
    assert view.kind == "list"
