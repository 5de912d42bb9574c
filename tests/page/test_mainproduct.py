"""One main product without a buy button, structured data or a titled heading: its slug,
a quantity input or a specification table beside the price under its single title
outweigh a carousel of related products; a category page with a slug and a price filter
stays a list."""

from __future__ import annotations

import pytest

from structurer.generic.extract import extract_page_generic
from structurer.lexicon import load_lexicon
from structurer.page.mainproduct import slug_names

LEX = load_lexicon()


def cards(n: int) -> str:
    return "".join(
        f"<div class='card'><a href='/p/{i}'><img src='/t/{i}.jpg'></a>"
        f"<a href='/p/{i}'>Another lovely kettle number {i}</a>"
        f"<span class='price'>{i},99 €</span><button>Add to cart</button></div>"
        for i in range(10, 16))


def product(main: str) -> str:
    """A product page whose <title> names the shop only, a strip of six related cards."""
    return ("<html><head><title>Kettleshop – best kettles online</title></head><body>"
            "<header><a href='/'>Home</a></header><main><div class='product'>"
            "<div class='gallery'><img src='/i/main.jpg'></div><div class='info'>"
            f"<h1>Red Kettle 1.7 l</h1><p class='price'>€39.90</p>{main}</div></div>"
            f"<section class='related'><h2>You may also like</h2>{cards(6)}</section></main>"
            "<footer>© Kettleshop</footer></body></html>")


SPECS = ("<table><tr><th>Volume</th><td>1.7 l</td></tr><tr><th>Colour</th><td>red</td></tr>"
         "<tr><th>Power</th><td>2200 W</td></tr></table>")


@pytest.mark.parametrize(("main", "url"), [
    ("", "https://shop.test/red-kettle-1-7-l"),
    ("<input type='number' name='qty' value='1'>", "https://shop.test/p/9921"),
    ("<select name='menge'><option>1</option><option>2</option></select>",
     "https://shop.test/p/9921"),
    (SPECS, "https://shop.test/p/9921"),
], ids=["slug", "quantity", "quantity-select", "specifications"])
def test_one_product_shown_without_a_buy_button(main: str, url: str) -> None:
    out = extract_page_generic(product(main), url, LEX)
    assert out["kind"] == "detail"
    assert out["fields"]["price"] == 39.9


def test_without_a_cue_the_carousel_still_wins() -> None:
    """The cues are the evidence: a bare price under an untitled h1 is not enough."""
    out = extract_page_generic(product(""), "https://shop.test/p/9921", LEX)
    assert out["kind"] == "list"


def test_a_category_with_its_slug_and_a_price_filter_stays_a_list() -> None:
    html = ("<html><head><title>Kettleshop</title></head><body><main><h1>Electric Kettles</h1>"
            "<form><input type='number' name='price_min' value='0'>"
            "<input type='number' name='price_max' value='100'></form>"
            f"<p>Free delivery from €50.00</p><div class='grid'>{cards(6)}</div></main>"
            "</body></html>")
    out = extract_page_generic(html, "https://shop.test/electric-kettles", LEX)
    assert out["kind"] == "list"


@pytest.mark.parametrize(("url", "heading", "named"), [
    ("https://shop.test/red-kettle-1-7-l", "Red Kettle 1.7 l", True),
    ("https://shop.test/cafe-creme-kettle/1234", "Café Crème Kettle", True),
    ("https://shop.test/p/red-kettle.html", "Red Kettle", True),
    ("https://shop.test/p/9921", "Red Kettle", False),
    ("https://shop.test/kettles", "Kettles", False),   # one word names a category as well
    ("https://shop.test/blue-teapot", "Red Kettle 1.7 l", False),
])
def test_a_slug_names_the_heading(url: str, heading: str, named: bool) -> None:
    assert slug_names(url, heading) is named


def test_a_gallery_beside_the_title_is_one_products() -> None:
    thumbs = "".join(f"<a href='/i/big{i}.jpg'><img src='/i/t{i}.jpg'></a>" for i in range(3))
    html = product("").replace("<div class='gallery'>", f"<div class='gallery'>{thumbs}")
    assert extract_page_generic(html, "https://shop.test/p/9921", LEX)["kind"] == "detail"
    tiles = "".join(f"<a href='/c/{i}'><img src='/i/t{i}.jpg'></a>" for i in range(3))
    html = product("").replace("<div class='gallery'>", f"<div class='gallery'>{tiles}")
    assert extract_page_generic(html, "https://shop.test/p/9921", LEX)["kind"] == "list"
