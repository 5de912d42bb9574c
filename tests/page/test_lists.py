"""Repeated-block regions on hand-made pages: the main list wins over look-alike noise."""

from __future__ import annotations

import pytest

from structurer.lexicon import Lexicon, load_lexicon
from structurer.page.lists import find_regions, is_product_region
from structurer.page.view import PageView

LEX = load_lexicon()


def card(i: int, cls: str = "card", extra: str = "") -> str:
    return (f'<li class="{cls}"><a href="/p/{i}"><img src="/i/{i}.jpg"></a>'
            f'<h3><a href="/p/{i}">Product number {i}</a></h3>{extra}'
            f'<span class="price">${10 + i}.99</span></li>')


def page(body: str) -> PageView:
    return PageView.from_html("http://shop.test/c/x", f"<html><body>{body}</body></html>", LEX)


def test_main_grid_beats_sidebar_and_menu() -> None:
    menu = "<nav><ul class='menu'>" + "".join(
        f"<li><a href='/c/{i}'>Category {i}</a></li>" for i in range(8)) + "</ul></nav>"
    sidebar = "<aside><h3>Bestsellers</h3><ul class='grid'>" + "".join(
        card(100 + i) for i in range(4)) + "</ul></aside>"
    main = "<main><h1>Shoes</h1><ul class='grid'>" + "".join(
        card(i, extra="<del>$99.00</del>" if i % 3 == 0 else "") for i in range(12)) + "</ul></main>"
    view = page(menu + sidebar + main)
    products = [r for r in view.regions if is_product_region(r.features)]
    assert len(products[0]) == 12
    assert products[0].parent.getparent().tag == "main"
    assert view.kind == "list"


def test_table_rows_skip_group_headers() -> None:
    rows = []
    for i in range(9):
        if i % 4 == 0:
            rows.append(f"<tr class='group'><td colspan='4'>Group {i}</td></tr>")
        rows.append(f"<tr><td>SKU-{i:04d}</td><td><a href='/p/{i}'>Hex bolt M{i}</a></td>"
                    f"<td>Pack of 100</td><td>£{i}.49 incl. VAT</td></tr>")
    view = page("<table><tbody>" + "".join(rows) + "</tbody></table>")
    best = view.product_regions[0]
    assert len(best) == 9
    assert all(item.get("class") != "group" for item in best.items)


def test_records_spanning_two_siblings() -> None:
    body = "<dl class='results'>" + "".join(
        f"<dt><a href='/p/{i}'>Lamp model {i}</a></dt><dd>A fine lamp, ${i}0.00</dd>"
        for i in range(1, 7)) + "</dl>"
    regions = find_regions(page(body).tree, LEX)
    best = max(regions, key=lambda r: r.score)
    assert best.k == 2 and len(best) == 6
    assert [m.tag for m in best.records[0]] == ["dt", "dd"]


def test_ad_tile_inside_grid_is_stepped_over() -> None:
    items = [card(i) for i in range(10)]
    items.insert(4, "<li class='promo'><div class='banner'>Spring sale!</div></li>")
    view = page("<ul class='grid'>" + "".join(items) + "</ul>")
    best = view.product_regions[0]
    assert len(best) == 10
    assert all(item.get("class") == "card" for item in best.items)


def test_no_repeated_blocks_on_a_text_page() -> None:
    view = page("<h1>About us</h1><p>We sell things.</p><p>Since 1999.</p>")
    assert view.product_regions == []
    assert view.kind == "other"


def _with(**thresholds: object) -> Lexicon:
    return LEX.model_copy(update={"thresholds": LEX.thresholds.model_copy(update=thresholds)})


_TAGS = ("em", "strong", "code", "kbd", "var")


def _record(late: str) -> str:
    """A record of 37 nodes: six blocks, each a chain of five inline elements; the last
    four chains in the order ``late`` names ("a": as the first two, "b": reversed), so
    records of both kinds share their first 8 nodes (breadth-first) and their labels."""
    def chain(tags: tuple[str, ...]) -> str:
        return "".join(f"<{t}>" for t in tags) + "".join(f"</{t}>" for t in reversed(tags))

    same, swapped = chain(_TAGS), chain(_TAGS[::-1])
    return "<li>" + f"<div>{same}</div>" * 2 + \
        f"<div>{same if late == 'a' else swapped}</div>" * 4 + "</li>"


def test_the_edit_distance_node_budget_is_the_lexicons() -> None:
    """At the default budget (32 nodes) the edit distance sees where the records differ
    (0.19 apart: more than beta 0.1); at a budget of 8 it sees only their alike tops."""
    html = "<ul>" + "".join(_record("ab"[n % 2]) for n in range(4)) + "</ul>"
    tree = page(html).tree
    strict = {"alpha": 0.3, "beta": 0.1}     # coarse similarity 0.6

    def records(lexicon: Lexicon) -> list[int]:
        return [len(r) for r in find_regions(tree, lexicon) if r.parent.tag == "ul"]

    assert LEX.thresholds.ted_nodes == 32 and records(_with(**strict)) == []
    assert records(_with(**strict, ted_nodes=8)) == [4]


def test_a_run_steps_over_the_lexicons_number_of_intruders() -> None:
    cards = [card(i) for i in range(6)]
    ads = "<li class='ad'><p>Advert</p><p>More advert text here</p><p>x</p></li>" * 2
    html = "<ul class='grid'>" + "".join(cards[:3]) + ads + "".join(cards[3:]) + "</ul>"
    tree = page(html).tree

    def longest(lexicon: Lexicon) -> int:
        return max((len(r) for r in find_regions(tree, lexicon)
                    if r.parent.get("class") == "grid"), default=0)

    assert LEX.thresholds.max_gap == 2 and longest(LEX) == 6
    assert longest(_with(max_gap=1)) == 3


def _shelf_card(i: int, rating: bool = True, price: bool = True) -> str:
    """A card as shops write them: a rating only where there are reviews, no price at all
    for a sold-out product (the markup of a real storefront theme, reduced)."""
    stars = (f"<div><span class='rating rating-{i % 5}'></span><span>({10 + i})</span></div>"
             if rating else "")
    money = f"<div><span>R$ {20 + i}<sup>00</sup></span><s>R$ {40 + i},00</s></div>" \
        if price else "<div></div>"
    state = "instock" if price else "outofstock"
    return (f"<li class='availability {state}'><a href='/p/{i}.html'><img src='/i/{i}.webp' "
            f"alt='Book {i}'></a><h3><a href='/p/{i}.html'>Baking book number {i}</a></h3>"
            f"<div>Penrose</div>{stars}{money}</li>")


def test_an_odd_card_does_not_split_the_list_in_two() -> None:
    """A sold-out card (no rating, no price) is like the card before it (no rating), not
    like the next one: the run compares the next card with the member before the odd
    one too, so the list stays one region of eleven (it was two, of five and six)."""
    cards = [_shelf_card(i) for i in range(3)] + [_shelf_card(3, rating=False),
                                                   _shelf_card(4, rating=False, price=False)]
    cards += [_shelf_card(i) for i in range(5, 11)]
    view = page("<main><ul id='hits'>" + "".join(cards) + "</ul></main>")
    lists = [r for r in view.regions if r.parent.get("id") == "hits"]
    assert [len(r) for r in lists] == [11]


def test_a_card_stepped_over_is_taken_back_when_like_other_members() -> None:
    """A sold-out card between two rated ones is unlike both, so the run steps over it as
    it would over an advert; compared after the run is built with members spread over
    it, it is like the unrated card further up and is a record. The advert stays out."""
    cards = [_shelf_card(0), _shelf_card(1, rating=False)] + [_shelf_card(i) for i in (2, 3, 4)]
    cards += [_shelf_card(5, rating=False, price=False)] + [_shelf_card(i) for i in range(6, 11)]
    cards.insert(8, "<li class='ad'><p>Advert</p><p>Spring sale on every book</p></li>")
    view = page("<ul id='hits'>" + "".join(cards) + "</ul>")
    best = [r for r in view.regions if r.parent.get("id") == "hits"]
    assert len(best) == 1 and len(best[0]) == 11
    assert [i.get("class") for i in best[0].items].count("availability outofstock") == 1
    assert all(i.get("class") != "ad" for i in best[0].items)


def _unpriced(i: int, state: str) -> str:
    return (f'<li class="card {state}"><a href="/p/{i}"><img src="/i/{i}.jpg"></a>'
            f'<h3><a href="/p/{i}">Product number {i}</a></h3>'
            + ("<p>Nema na zalihi</p>" if not state else "") + "</li>")


def test_sold_out_cards_without_a_price_still_make_a_product_list() -> None:
    # half a category sold out, those cards show their stock state (text, or only a
    # class) instead of a price: the page is still a list of products
    for state in ("", "is-soldout"):
        cards = "".join(card(i) if i % 2 else _unpriced(i, state) for i in range(12))
        view = page(f"<main><h1>Science kits</h1><ul class='grid'>{cards}</ul></main>")
        assert view.product_regions and len(view.product_regions[0]) == 12, state
        assert view.kind == "list"


@pytest.mark.parametrize("said", ["缺货", "售罄", "无货", "品切れ"])
def test_sold_out_cards_saying_so_in_two_or_three_cjk_characters_make_a_product_list(
        said: str) -> None:
    """Half the cards sold out, each showing a blank price and a stock word of two or
    three CJK characters (as much as a word of four Latin letters): still a product list."""
    def article(i: int, price: str, stock: str) -> str:
        return (f'<article><a href="/p/{i}"><img src="/i/{i}.jpg"></a>'
                f'<h2><a href="/p/{i}">Product number {i}</a></h2>'
                f"<footer><span>{price}</span><p>{stock}</p></footer></article>")

    cards = "".join(article(i, f"¥{10 + i}.99", "有货") if i % 2 else article(i, "&nbsp;", said)
                    for i in range(12))
    view = page(f"<main><section>{cards}</section></main>")
    assert view.product_regions and len(view.product_regions[0]) == 12
    assert view.kind == "list"


def test_a_list_of_links_without_prices_is_no_product_list() -> None:
    items = "".join(f'<li><a href="/blog/{i}"><img src="/i/{i}.jpg"></a>'
                    f'<h3><a href="/blog/{i}">Unavailable post {i}</a></h3></li>'
                    for i in range(12))
    view = page(f"<main><ul>{items}</ul></main>")
    assert not view.product_regions


def test_sold_out_cards_saying_so_by_a_disabled_buy_button_make_a_product_list() -> None:
    """Five of nine cards priced; the four sold out show no price and no stock word, only
    their add-to-cart button disabled: still a product list. Enabled buttons beside no
    price say nothing of the kind."""
    def div(i: int, priced: bool, disabled: str) -> str:
        price = f"<span>${10 + i}.95</span>" if priced else "<span></span>"
        return (f'<div class="tile"><a href="/p/{i}" title="Product number {i}">'
                f'<img src="/i/{i}.jpg"><span>Product number {i}</span>{price}</a>'
                f'<button type="submit" name="add" value="{i}"{disabled}>Add to cart</button>'
                "</div>")

    for disabled, listed in ((" disabled", True), ("", False)):
        cards = "".join(div(i, i % 2 == 0, disabled) for i in range(9))
        view = page(f"<main><h1>Plates</h1><div id='items'>{cards}</div></main>")
        assert bool(view.product_regions) is listed, disabled
        assert (view.kind == "list") is listed


def test_all_records_holds_the_cards_the_repetition_left_out_in_order() -> None:
    """A grid of rated cards with two unrated ones (no rating block: less like their
    neighbours than they are alike): the region leaves them out of its records, and
    ``all_records`` gives every card in the page's order."""
    from structurer.page.lists import all_records

    def one(i: int, rated: bool) -> str:
        stars = ("<div class='x7'>" + "<i class='q1'></i>" * 5 +
                 f"<span>4,{i} / 5</span><span>({i})</span></div>" if rated else "")
        return (f"<li class='k2'><a href='/p/{i}'><img src='/i/{i}.jpg' alt=''></a>"
                f"<h3><a href='/p/{i}'>Lamp number {i}</a></h3>{stars}"
                f"<div class='x7'><span>€ {i + 10},95</span></div></li>")
    view = page("<ul class='grid'>" + "".join(one(i, i not in (2, 5)) for i in range(6))
                + "</ul>")
    region = view.product_regions[0]
    assert len(region.records) == 4
    assert [rec[0].findtext(".//h3/a") for rec in all_records(region)] == [
        f"Lamp number {i}" for i in range(6)]


def test_a_sponsored_tile_sharing_layout_classes_is_no_left_out_card() -> None:
    """A grid of utility-class cards with a sponsored tile among them that shares two of
    their layout classes (not all the classes every card carries): the tile is not one of
    the cards the repetition left out, so nothing learned from ``all_records`` counts it."""
    from structurer.page.lists import all_records, left_out

    def one(i: int) -> str:
        return card(i, cls="group relative flex flex-col rounded-lg border bg-white")
    promo = ("<li class='relative col-span-2 flex flex-col rounded-lg bg-indigo-900'>"
             "<p>Sponsored</p><h3>Winter sale: up to 40% off</h3>"
             "<a href='/collections/sale?utm_source=grid'>Shop the sale</a></li>")
    view = page("<ul class='grid'>" + "".join(one(i) for i in range(3)) + promo
                + "".join(one(i) for i in range(3, 8)) + "</ul>")
    region = view.product_regions[0]
    assert left_out(region) == []
    assert [rec[0].findtext(".//h3/a") for rec in all_records(region)] == [
        f"Product number {i}" for i in range(8)]
