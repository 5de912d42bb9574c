"""A product's star rating given by markup alone (a class word, a bar's width, an
aria-label) and the count of reviews right after it, read in the product's own block
without structured data; a related product's stars are not the product's."""

from __future__ import annotations

import pytest

from structurer.generic.extract import extract_page_generic
from structurer.lexicon import load_lexicon

LEX = load_lexicon()
URL = "http://shop.test/p/book-3.html"
RELATED = ("<section><h2>You may also like</h2><ul>" + "".join(
    f"<li><a href='/p/other-{i}.html'>Northern Picture Book K48{i}</a>"
    f"<p class='star-rating Five'></p><span>(1{i})</span><b>£{i}4.99</b></li>"
    for i in range(3, 7)) + "</ul></section>")


def page(stars: str) -> str:
    return ("<html><head><title>Secret Picture Book | Penrose</title></head><body><main>"
            "<div class='info'><h1>Secret Picture Book C826</h1>"
            f"<div class='small'>{stars}</div><p class='price'>£530.50</p>"
            "<form action='/cart/add'><button>Add to cart</button></form></div>"
            f"{RELATED}</main></body></html>")


@pytest.mark.parametrize(("stars", "rating", "count"), [
    ("<p class='star-rating Four'><i class='icon-star'></i></p><span>390 reviews</span>",
     4.0, 390),
    ("<div class='rating' aria-label='Rated 3.5 out of 5'></div><span>(1,204)</span>",
     3.5, 1204),
    ("<div class='stars'><span style='width: 90%'></span></div>", 4.5, None),
    ("", None, None),
])
def test_the_rating_in_the_products_markup(stars: str, rating: float | None,
                                           count: int | None) -> None:
    out = extract_page_generic(page(stars), URL, LEX)
    assert out["fields"]["price"] == 530.5
    assert out["fields"]["rating"] == rating
    assert out["fields"]["review_count"] == count


REVIEWS = ("<ul class='reviews'>" + "".join(
    f"<li><b>Ann {i}</b><span>Rating: {i}/5</span><p>Nice book.</p></li>" for i in (2, 5))
    + "</ul>")


@pytest.mark.parametrize(("stars", "rating", "count"), [
    ("<span>3,5 / 5</span> <span>469 отзывов</span>", 3.5, 469),      # zoo seed 0
    ("<span>4.2 out of 5 stars</span><span>(1,204)</span>", 4.2, 1204),
    ("<p>Rating: 4/5</p>", 4.0, None),
    ("<span>Bewertung: 4,5 von 5 Sternen</span>", 4.5, None),
    ("<span>Average rating: 4 out of 5</span>", 4.0, None),
    ("<span>5 out of 5 stars</span><span>(12)</span>", 5.0, 12),   # a unit: rating_units
    ("<span>4 von 5 Sternen</span>", 4.0, None),
    ("<p>Rated 4 of 5</p>", 4.0, None),
    ("<span>4.5 out of 5</span>", 4.5, None),
    ("<span>2 / 5</span>", None, None),              # a bare whole number: a picture counter
    ("<span>3 of 5</span>", None, None),
    (REVIEWS, None, None),                           # each review's rating, not the average
    ("<span>Page 1 of 5</span>", None, None),
])
def test_a_rating_written_as_text_in_the_products_block(stars: str, rating: float | None,
                                                        count: int | None) -> None:
    out = extract_page_generic(page(stars), URL, LEX)
    assert out["fields"]["rating"] == rating
    assert out["fields"]["review_count"] == count


def test_a_related_cards_text_rating_is_not_the_products() -> None:
    related = RELATED.replace("<p class='star-rating Five'></p>", "<span>4.8 / 5</span>")
    html = page("").replace(RELATED, related)
    out = extract_page_generic(html, URL, LEX)
    assert out["fields"]["rating"] is None
