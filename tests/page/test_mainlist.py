"""The main list of a page (analyze.mainlist): tree-edit-distance regions cross-checked
with link clusters, against demo shop ground truth, hand-made pages and real pages."""

from __future__ import annotations

from typing import Any

import pytest

from structurer.learn.listing import choose_main_regions
from structurer.lexicon import load_lexicon
from structurer.page.mainlist import list_items, main_list
from structurer.page.view import PageView
from tests.page.test_linkclusters import LIST_SHOPS, fetch, news_page, real_view, tiles

LEX = load_lexicon()


def card(i: int, extra: str = "") -> str:
    return (f'<li class="card"><a href="/p/{i}.html"><img src="/i/{i}.jpg"></a>'
            f'<h3><a href="/p/{i}.html">Product number {i}</a></h3>{extra}'
            f'<span class="price">${10 + i}.99</span></li>')


def shop_page(body: str) -> PageView:
    return PageView.from_html("http://shop.test/c/tents/", f"<html><body>{body}</body></html>",
                              LEX)


@pytest.mark.parametrize("shop", LIST_SHOPS)
def test_demo_shop_lists_match_truth(shop: str, demo_truth: dict[str, Any]) -> None:
    """The first pages and every short last page (one or two products left beside a
    sidebar of bestsellers): exact URLs and titles."""
    pages = list(demo_truth[shop]["list_pages"].items())
    chosen = pages[:2] + [(u, t) for u, t in pages if len(t["items"]) < 3]
    for url, truth in chosen:
        view = PageView.from_html(url, fetch(url), LEX)
        items = list_items(view)
        assert [i["url"] for i in items] == [i["url"] for i in truth["items"]], url
        assert [i["title"] for i in items] == [i["name"] for i in truth["items"]], url


def test_cluster_recovers_an_item_the_regions_step_over() -> None:
    """One product carries a large promotion box: too unlike its neighbours for the tree
    similarity (the region bridges over it), while its title link sits where the others'
    do, so the link cluster has it."""
    promo = ('<div class="promo"><p>Bundle offer with extras</p><ul>'
             + "".join(f"<li><span>Extra {k}</span> <b>free</b></li>" for k in range(8))
             + "</ul><table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>"
             "</div>")
    view = shop_page('<main><h1>Tents</h1><ul class="grid">'
                     + "".join(card(i, promo if i == 4 else "") for i in range(12)) + "</ul></main>")
    assert len(view.product_regions[0]) == 11
    found = main_list(view)
    assert found is not None and found.source == "region+cluster"
    assert [i["url"] for i in list_items(view)] == [
        f"http://shop.test/p/{i}.html" for i in range(12)]


def test_news_list_titles_and_urls() -> None:
    view = PageView.from_html("http://news.test/", news_page("rec,hot,main", named=False),
                              load_lexicon("news"))
    items = list_items(view)
    assert [i["url"] for i in items] == [
        f"http://news.test/2024/05/{i:02d}/story-{i}.html" for i in range(10)]
    assert all(i["title"] and len(i["title"].split()) == 4 for i in items)


def test_card_links_titled_by_their_first_block() -> None:
    """Whole-card links (picture, title, teaser inside one <a>) are titled by the title."""
    cards = "".join(f'<div class="c"><a href="/n/{i}.html"><img src="/i/{i}.jpg">'
                    f'<div class="t">Headline number {i}</div><div class="x">A teaser of some '
                    f"length for story {i}, with more words.</div></a><div class='d'>3 May</div>"
                    "</div>" for i in range(8))
    view = PageView.from_html("http://news.test/", f"<html><body><div>{cards}</div></body></html>",
                              load_lexicon("news"))
    assert [i["title"] for i in list_items(view)] == [f"Headline number {i}" for i in range(8)]


def test_varied_search_results_are_one_list() -> None:
    """The regions cut baldur-garten.ch's 32 results into a run of 22 (tiles with badges and
    a second price differ); the cluster joins them."""
    view = real_view("197")
    found = main_list(view)
    assert found is not None and found.source == "region+cluster"
    assert len(view.product_regions[0]) < 32 and len(found) == 32
    items = list_items(view)
    assert [(i["title"], i["url"]) for i in items] == tiles("197")


@pytest.mark.parametrize(("name", "count"), [("17", 11), ("19", 8)])
def test_real_shop_grid_main_list(name: str, count: int) -> None:
    items = list_items(real_view(name))
    assert len(items) == count and [(i["title"], i["url"]) for i in items] == tiles(name)


def test_close_regions_go_to_the_one_the_clusters_confirm() -> None:
    """Two priced grids whose tree-similarity scores are close (the side one's cards carry
    more markup and it has more of them): the grid the main link cluster agrees with (long
    product names) is the main list, for the analyzer's vote and for extract-page alike."""
    def side_card(i: int) -> str:
        return (f'<li class="card"><a href="/p/{i}.html"><img src="/i/{i}.jpg"></a>'
                f'<h3><a href="/p/{i}.html">Item {i} xx</a></h3>{"<i></i>" * 5}'
                f'<span class="price">${10 + i}.99</span></li>')

    def main_card(i: int) -> str:
        return (f'<li class="card"><a href="/q/{i}.html"><img src="/i/{i}.jpg"></a>'
                f'<h3><a href="/q/{i}.html">Lightweight alpine two person tent model {i}</a>'
                f'</h3><span class="price">${10 + i}.99</span></li>')

    view = shop_page('<div class="a"><ul class="grid">' + "".join(side_card(100 + i) for i in range(6))
                     + '</ul></div><div class="b"><ul class="grid">'
                     + "".join(main_card(i) for i in range(6)) + "</ul></div>")
    first, second = view.product_regions[:2]
    assert first.parent.getparent().get("class") == "a" and second.score > first.score / 1.25
    chosen = choose_main_regions([view])[0]
    assert chosen is not None and chosen.parent.getparent().get("class") == "b"
    assert [i["url"] for i in list_items(view)] == [f"http://shop.test/q/{i}.html" for i in range(6)]
