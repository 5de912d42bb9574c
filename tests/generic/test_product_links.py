"""A text field shown only as a link to its own page (the brand as a logo linking to
``/brands/x``) in the product's own block; a menu of brands elsewhere on the page is no
product's brand."""

from __future__ import annotations

import pytest

from structurer.generic.extract import extract_page_generic
from structurer.lexicon import load_lexicon

LEX = load_lexicon()
URL = "http://shop.test/product/1619"
MENU = ("<header><nav><a href='/brands/penrose'>Penrose</a><a href='/brands/lune'>Édition "
        "Lune</a></nav></header>")


def page(logo: str) -> str:
    return ("<html><head><title>Secret Picture Book C826 | Books</title></head><body>"
            f"{MENU}<main><div class='row'><div class='col'><img src='/p/1.jpg' alt=''></div>"
            f"<div class='col'>{logo}<h1>Secret Picture Book C826</h1>"
            "<p class='price'>£530.50</p><form action='/cart/add'><button>Add to cart"
            "</button></form></div></div></main></body></html>")


@pytest.mark.parametrize(("logo", "brand"), [
    ("<a href='/brands/penrose'><img src='/img/brands/penrose.png' alt='Penrose'></a>",
     "Penrose"),
    ("<a href='/brands/harbour-press'>Harbour Press</a>", "Harbour Press"),
    ("", None),        # the menu's brands are not the product's
])
def test_a_brand_shown_as_a_link_to_its_page(logo: str, brand: str | None) -> None:
    out = extract_page_generic(page(logo), URL, LEX)
    assert out["fields"]["price"] == 530.5
    assert out["fields"]["brand"] == brand


def test_only_a_strong_word_of_the_field_names_it_in_a_link_path() -> None:
    """The lexicon's ``thresholds.path_word`` decides which of the field's words name it
    in a path: above every brand word's weight, no link names the brand."""
    logo = "<a href='/brands/harbour-press'>Harbour Press</a>"
    strict = LEX.model_copy(update={"thresholds": LEX.thresholds.model_copy(
        update={"path_word": 1 + max(LEX.fields["brand"].words.values())})})
    assert extract_page_generic(page(logo), URL, strict)["fields"]["brand"] is None
