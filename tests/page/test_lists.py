"""Repeated-block regions on hand-made pages: the main list wins over look-alike noise."""

from __future__ import annotations

from structurer.lexicon import load_lexicon
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
