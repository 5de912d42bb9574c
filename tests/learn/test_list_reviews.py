"""List-level learning of a rating given by markup alone and the review count beside it
(learn.stars.learn_list_rating, learn_list_review_count): a bare "(12)" after a card's
stars, where some cards are rated and some not."""

from __future__ import annotations

import pytest
from lxml.html import HtmlElement

from structurer.learn import xpaths
from structurer.learn.listing import learn_list
from structurer.lexicon import load_lexicon
from structurer.page.dom import text_of
from structurer.page.view import PageView
from structurer.values import Base, ValueSpec, field_value

LEX = load_lexicon()
NUMBERS = ["zero", "one", "two", "three", "four", "five"]
STARS = {"text": lambda n: f"<span class='rating'>{n % 5}.5</span>",
         "class_word": lambda n: f"<p class='star-rating {NUMBERS[n % 5 + 1]}'></p>",
         "class_num": lambda n: f"<span class='rating rating-{n % 5 + 1}'></span>",
         "width": lambda n: (f"<span class='stars-outer'><span class='stars-inner' "
                             f"style='width:{(n % 5 + 1) * 20}%'></span></span>")}
WANT = {"text": [0.5, None, 2.5, 3.5, None, 0.5], "class_word": [1, None, 3, 4, None, 1],
        "class_num": [1, None, 3, 4, None, 1], "width": [1, None, 3, 4, None, 1]}


def _page(page: int, stars: str) -> PageView:
    """Utility-class cards; two of every three rated (the rating as ``stars`` shows it,
    then a class-less review count "(N)"), the third showing neither."""
    cards = []
    for i in range(6):
        n = page * 10 + i
        rating = (f"<div class='flex gap-2'>{STARS[stars](n)}"
                  f"<span>({n * 3 + 7})</span></div>" if i % 3 != 1 else "")
        cards.append(f"<li class='p-2 border'><a href='/p/{n}.html'><img src='/i/{n}.jpg'></a>"
                     f"<h3><a href='/p/{n}.html'>Lamp {n}</a></h3>{rating}"
                     f"<p class='text-lg'>${n}.50</p></li>")
    html = (f"<html><body><main><h1>Lamps</h1><ul class='grid'>{''.join(cards)}</ul>"
            "</main></body></html>")
    return PageView.from_html(f"http://shop.test/c/{page}", html, LEX)


@pytest.mark.parametrize("stars", list(STARS))
def test_a_bare_review_count_beside_the_rating_is_learned_where_cards_mix(stars: str) -> None:
    """The rating where the text states it or its markup alone does (a class word, a
    number in a class, a bar's width); no word names "(37)": it is the count right after
    the rating on every rated card, read from the rating, so a card nobody rated has
    none (not its price)."""
    learned = learn_list([_page(1, stars), _page(2, stars)], LEX)
    base = Base("http://shop.test/c/3")
    got: dict[str, list[object]] = {"rating": [], "review_count": []}
    for item in xpaths.evaluate(learned.item_xpath, _page(3, stars).tree):
        assert isinstance(item, HtmlElement)
        for name, kind in (("rating", "rating"), ("review_count", "integer")):
            found = [n for n in xpaths.evaluate(learned.fields[name].xpath or "", item)
                     if isinstance(n, HtmlElement)]
            got[name].append(field_value(found, ValueSpec(kind=kind), base) if found else None)
            if name == "review_count":
                assert not found or text_of(found[0]).startswith("(")
    assert got == {"rating": WANT[stars], "review_count": [97, None, 103, 106, None, 112]}
