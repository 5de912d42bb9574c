"""Choosing the detail pages to sample from what the list pages said (``learn/plan.py``)."""

from __future__ import annotations

from structurer.learn.listing import learn_list
from structurer.learn.plan import detail_picks
from structurer.lexicon import load_lexicon
from structurer.page.view import PageView

LEX = load_lexicon()


def _list(n: int, unrated: int) -> PageView:
    """Eight cards, each rated but card ``unrated`` (its rating box empty): most products
    show a rating."""
    cards = "".join(
        f"<li class='card'><a class='card__link' href='/p/{i}'>Thing number {i}</a>"
        f"<span class='card__rating'>"
        + ("" if i % 8 == unrated else f"{3 + i % 2},{i % 10} / 5") + "</span>"
        + f"<span class='card__price'>${10 + 3 * i}.50</span></li>"
        for i in range(8 * n, 8 * n + 8))
    html = f"<html><body><main><ul class='cards'>{cards}</ul></main></body></html>"
    return PageView.from_html(f"http://shop.test/c/{n}", html, LEX)


def test_a_product_lacking_a_field_most_show_is_sampled_early() -> None:
    """Where most products show a rating, the few without one are taken first (beside
    rated ones), so the detail samples show the rating both present and absent."""
    pages = [_list(n, unrated=6) for n in range(3)]
    learned = learn_list(pages, LEX)
    assert learned.fields["rating"].xpath
    sources = [(p, r, learned) for p, r in zip(pages, learned.regions, strict=True)]
    picks = detail_picks(sources, ["name", "rating"], count=6, per_page=2)
    assert len(picks) == 6
    unrated = [url for url, (hints, _, _) in picks.items() if not hints["rating"]]
    assert unrated == ["http://shop.test/p/6", "http://shop.test/p/14", "http://shop.test/p/22"]
