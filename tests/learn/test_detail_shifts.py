"""Detail fields on markup without classes, where an optional block (a rating that only
reviewed products show) shifts the sibling index of what follows it: the price is in the
second ``div`` of the buy box on one page and in the first on the next. The learned
XPath must read every page's own price, not only the pages shaped like the first."""

from __future__ import annotations

from structurer.learn import xpaths
from structurer.learn.detail import learn_detail
from structurer.learn.listing import learn_list
from structurer.learn.slots import collect_slots, merge_shifted
from structurer.page.view import PageView
from structurer.replay.records import build_record, compile_fields
from structurer.values import Base
from tests.learn.test_detail_scope import LEX, NAMES, record


def _view(i: int, *, rated: bool, note: bool = False, old: bool = False) -> PageView:
    """Product ``i``, class-less: image, brand, heading, a rating block when reviewed,
    the price box (and the struck old price, on sale), a free-shipping note on some."""
    rating = (f"<div><span>★★★★☆</span><span>{40 + i} avaliações</span></div>"
              if rated else "")
    spend = f"<p>Faltam R$ {300 + i},00 para frete grátis</p>" if note else ""
    html = (f"<html><head><title>{NAMES[i % 6]} {i} :: Shop</title></head><body>"
            f"<header><a href='/'>Shop</a></header><main><div>"
            f"<div><img src='/img/{i}.webp' alt=''></div><div>"
            f"<a href='/brands/b{i % 3}'>Brand {i % 3}</a><h1>{NAMES[i % 6]} {i}</h1>{rating}"
            f"<div><p>R$ {100 + 7 * i},50</p>{f'<s>R$ {900 + i},00</s>' if old else ''}</div>"
            f"{spend}"
            f"<form action='/cart/add' method='post'><button name='add'>Comprar</button></form>"
            f"</div></div></main></body></html>")
    return PageView.from_html(f"http://shop.test/p/{i}", html, LEX)


def _price(i: int) -> float:
    return 100 + 7 * i + 0.5


SAMPLE = [(0, True, True), (1, True, False), (2, False, False), (3, True, True),
          (4, True, False), (5, False, True), (6, True, False), (7, True, True)]


def test_a_price_an_optional_rating_shifts_is_read_on_every_page() -> None:
    """Rated and unrated products in the sample: the price rule reads each one's price,
    and so it does on new pages of either kind (a path by position read nothing on the
    unrated ones)."""
    pages = [_view(i, rated=r, note=n) for i, r, n in SAMPLE]
    hints = [{"price": f"R$ {100 + 7 * i},50" if r else None} for i, r, _ in SAMPLE]
    rule = learn_detail(pages, LEX, list_hints=hints).fields["price"]
    for (i, _, _), view in zip(SAMPLE, pages, strict=True):
        assert record({"price": rule}, view)["price"] == _price(i)
    for i, rated in ((20, True), (21, False), (22, False)):
        assert record({"price": rule}, _view(i, rated=rated, note=i % 2 == 0))[
            "price"] == _price(i)


def test_an_old_price_seen_only_beside_a_rating_is_read_without_one() -> None:
    """Only rated products were on sale in the sample: the old price's box is the price's,
    which the sample showed shifting, so its path does not count on its position."""
    pages = [_view(i, rated=r, note=n, old=r and i % 2 == 1) for i, r, n in SAMPLE]
    rule = learn_detail(pages, LEX).fields["original_price"]
    for i, rated in ((31, True), (33, False)):
        assert record({"original_price": rule}, _view(i, rated=rated, old=True))[
            "original_price"] == 900.0 + i
    assert record({"original_price": rule}, _view(35, rated=False))["original_price"] is None


def test_the_shifted_places_of_one_field_are_one_slot() -> None:
    """The price's ``p`` keyed ``div#2/p`` under rated pages and ``div/p`` elsewhere is one
    slot holding every page's price; the rating's own spans, on rated pages only, stay
    a slot of their own."""
    pages = [_view(i, rated=r) for i, r, _ in SAMPLE]
    slots = merge_shifted(collect_slots([[p.body] for p in pages], tag_keys=False,
                                        digits=False, max_depth=12))
    prices = [s for s in slots if s.values("text") == [
        f"R$ {100 + 7 * i},50" for i, _, _ in SAMPLE] and s.elements[0].tag == "p"]
    assert len(prices) == 1 and prices[0].presence == 1.0
    assert not any(s.elements[2] is prices[0].elements[2] for s in slots if s is not prices[0])
    stars = [s for s in slots if s.values("text")[0] == "★★★★☆"]
    assert len(stars) == 1 and [e is not None for e in stars[0].elements] == [
        r for _, r, _ in SAMPLE]


def test_paths_leave_out_the_positions_the_pages_do_not_share() -> None:
    rated, plain = _view(0, rated=True), _view(1, rated=False)
    nodes = [rated.tree.xpath("//div/p")[0], plain.tree.xpath("//div/p")[0]]
    paths = xpaths.shifted_paths(nodes)
    assert paths == ["/html/body/main/div/div[2]/div/p",
                     "/html/body/main/div/div[2]/div[last()]/p"]
    for path in paths:
        assert [xpaths.evaluate(path, v.tree)[0] for v in (rated, plain)] == nodes
    assert xpaths.shifted_paths(nodes[:1]) == []
    assert xpaths.shifted_paths([nodes[0], _view(2, rated=True).tree.xpath("//div/p")[0]]) \
        == []


def _list_page(n: int) -> PageView:
    """Class-less cards: image, name, brand, a rating block on reviewed items only (its
    star span and review count "(37)"), then the price box; one item in five sold out
    with an empty price box."""
    cards = []
    for i in range(8 * n, 8 * n + 8):
        rating = (f"<div><span></span><span>({30 + i})</span></div>" if i % 3 else "")
        price = "" if i % 5 == 4 else f"<span>R$ {10 + i},50</span>"
        cards.append(f"<li><a href='/p/{i}'><img src='/t/{i}.jpg' alt=''></a>"
                     f"<h3><a href='/p/{i}'>Thing number {i}</a></h3><div>Brand {i % 3}</div>"
                     f"{rating}<div>{price}</div></li>")
    html = (f"<html><body><main><h1>Books</h1><ul id='hits'>{''.join(cards)}</ul>"
            f"</main></body></html>")
    return PageView.from_html(f"http://shop.test/c/{n}", html, LEX)


def test_a_list_price_an_optional_rating_shifts_is_read_on_every_item() -> None:
    """The list's price, in the third ``div`` of a rated card and the second of another,
    read on both; never the review count where a sold-out card's box is empty."""
    learned = learn_list([_list_page(n) for n in range(3)], LEX)
    plan = compile_fields({"price": learned.fields["price"]}, "list")
    view = _list_page(4)
    got = [build_record(plan, item, Base(view.url), None, {})["price"]
           for item in view.tree.xpath(learned.item_xpath)]
    assert got == [None if i % 5 == 4 else 10 + i + 0.5 for i in range(32, 40)]


def _labelled_view(i: int, *, note: bool) -> PageView:
    """Product ``i``, class-less: ``<p>Item #: <span>…</span></p><p>品牌: <span>…</span></p>``
    below the price, one line lower where a free-shipping note comes first."""
    spend = f"<p>再买¥{300 + i}.00即可包邮</p>" if note else ""
    html = (f"<html><head><title>{NAMES[i % 6]} {i} - Shop</title></head><body>"
            f"<header><a href='/'>Shop</a></header><main><div>"
            f"<div><img src='/img/{i}.webp' alt=''></div><div>"
            f"<h1><span>{NAMES[i % 6]} {i}</span></h1><div><p>¥{100 + 7 * i}.50</p></div>"
            f"{spend}<p>Item #: <span>{4400 + 101 * i}</span></p>"
            f"<p>品牌: <span>Brand{'ABA'[i % 3]}</span></p>"
            f"<form action='/cart/add' method='post'><button name='add'>加入购物车</button></form>"
            f"</div></div></main></body></html>")
    return PageView.from_html(f"http://shop.test/product/{i}", html, LEX)


def test_a_labelled_value_an_optional_line_shifts_is_read_by_its_label() -> None:
    """The first sampled page has no shipping note, the others do: the second ``p`` is
    the brand on one page and the item number on the others, the third the brand where
    it is there at all. The brand and the item number are read by their labels, on
    every page and on new pages of either shape."""
    sample = [(0, False), (1, True), (2, True)]
    pages = [_labelled_view(i, note=n) for i, n in sample]
    fields = learn_detail(pages, LEX).fields
    rules = {"brand": fields["brand"], "sku": fields["sku"]}
    for i, note in [*sample, (7, False), (8, True)]:
        got = record(rules, _labelled_view(i, note=note))
        assert (got["brand"], got["sku"]) == (f"Brand{'ABA'[i % 3]}", str(4400 + 101 * i))


def _related(i: int) -> str:
    """Four cards of other products below the product, class-less too."""
    return "<section><h2>猜你喜欢</h2><div>" + "".join(
        f"<div><div><a href='/p/{j}'><img src='/t/{j}.png' alt='{NAMES[j % 6]} {j}'></a><div>"
        f"<h5><a href='/p/{j}'>{NAMES[j % 6]} {j}</a></h5><div><span>¥{500 + j},00</span>"
        f"</div></div></div></div>" for j in range(i + 20, i + 24)) + "</div></section>"


def _tabbed(i: int, *, sold: bool = False) -> PageView:
    """Class-less: the price box (``div/p``, cents in ``sup``, an old price on some) in the
    info column after an optional rating block, then the price per metre and the item
    number (``p``), the description in a tab panel (``div/p``) beside it, so the price and
    the description are both ``main/div/div/div/p``; a sold-out product's price box is
    empty, and it shows no price per metre."""
    old = f"<span class='old-price'>¥{2000 + 37 * i:,}.00</span>" if i % 2 else ""
    price = "" if sold else (f"<p>¥{1000 + 37 * i:,}<span class='sr-only'>.</span>"
                             f"<sup>95</sup></p>{old}")
    rating = "<div><span class='rating rating-4'></span><span>32条评价</span></div>" \
        if i % 3 else ""
    html = (f"<html><head><title>{NAMES[i % 6]} {i} :: Shop</title></head><body>"
            f"<header><a href='/'>Shop</a></header><main><div>"
            f"<div><img src='/img/{i}.webp' alt=''></div><div>"
            f"<div><h1>{NAMES[i % 6]} {i}</h1></div>{rating}<div>{price}</div>"
            f"{'' if sold else f'<p>¥{10 + i}.50 / 米</p>'}<p>Item #: {7000 + i}</p>"
            f"<p>品牌: Brand {i % 3}</p><p class='stock-status'><i class='icon-ok'></i></p>"
            f"<form action='/cart/add' method='post'><button name='add'>加入购物车</button></form>"
            f"</div><div><ul role='tablist'><li><a href='#d'>商品详情</a></li></ul>"
            f"<div id='d' role='tabpanel'><p>Backed by a two-year warranty and free returns within "
            f"{30 + i} days. Made for everyday use.</p></div></div></div>{_related(i)}</main>"
            "</body></html>")
    return PageView.from_html(f"http://shop.test/p/{i}", html, LEX)


def test_a_class_less_price_reads_no_paragraph_beside_it_where_a_page_shows_none() -> None:
    """The sample shows every price; the path by tags alone also selects the description's
    paragraph, which replay would read as the price of a sold-out product ("within 33
    days": 33), and one by position the item number: the price path chosen reads
    nothing where the price is taken out."""
    pages = [_tabbed(i) for i in range(8)]
    hints = [{"name": f"{NAMES[i % 6]} {i}", "price": f"¥{1000 + 37 * i:,}.95"} for i in range(8)]
    rule = learn_detail(pages, LEX, list_hints=hints).fields["price"]
    for i, view in enumerate(pages):
        assert record({"price": rule}, view)["price"] == 1000 + 37 * i + 0.95
    assert record({"price": rule}, _tabbed(8))["price"] == 1000 + 37 * 8 + 0.95
    assert record({"price": rule}, _tabbed(3, sold=True))["price"] is None
