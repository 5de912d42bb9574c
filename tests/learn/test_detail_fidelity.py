"""Detail fields shops show without the words the lexicon looks for in markup: a rating
only in an ``aria-label`` (any language, the scale first or last), its review count
beside it, old prices labelled in the shop's language, a trail a menu's sub-list also
names, a stock line whose place shifts."""

from __future__ import annotations

import pytest

from structurer.learn.detail import learn_detail
from structurer.learn.listing import learn_list
from structurer.page.view import PageView
from structurer.replay.records import build_record, compile_fields
from structurer.values import Base
from tests.learn.test_detail_scope import CATEGORIES, LEX, NAMES, PRICES, page, record

RATINGS = ["4,5", "3,9", "4,8", "2,5", "4,1", "3,3"]


@pytest.mark.parametrize(("said", "want"), [
    ("Noté {r} sur 5", 4.1), ("Rated {r} out of 5", 4.1), ("5点中{r}点", 4.1)],
    ids=["fr", "en", "ja-scale-first"])
def test_a_rating_only_an_aria_label_states_is_learned(said: str, want: float) -> None:
    """Utility classes only (``small text-warning``): the aria-label stating a rating out
    of 5 is the rating, and the count right after it the review count."""
    def stars(i: int) -> str:
        label = said.format(r=RATINGS[i] if said[0] != "R" else RATINGS[i].replace(",", "."))
        return (f"<div class='small text-warning' role='img' aria-label='{label}'>★★★☆☆</div>"
                f"<span class='text-muted small'>{120 + i} avis</span>")

    pages = [page(i, stock=stars(i)) for i in range(4)]
    fields = learn_detail(pages, LEX).fields
    got = record({k: fields[k] for k in ("rating", "review_count")}, page(4, stock=stars(4)))
    assert got == {"rating": want, "review_count": 124}


def test_a_slide_counter_is_no_rating() -> None:
    """The same "N of 5" on every page (an image carousel's) is not a rating."""
    slide = "<div role='group' aria-label='1 of 5'><img src='/i.jpg' alt=''></div>"
    assert "rating" not in learn_detail([page(i, stock=slide) for i in range(4)], LEX).fields


def _info(i: int, *, rated: bool, old: bool) -> PageView:
    """A product block without classes: a rating and its count (when rated), then the
    price box with the old price "De R$ …" (when on sale)."""
    rating = (f"<div><p class='stars {['two', 'three', 'four', 'five'][i % 4]}'></p>"
              f"<span>{30 + i} avaliações</span></div>" if rated else "")
    was = f"<span>De R$ {200 + i},95</span>" if old else ""
    html = (f"<html><body><main><div><div><img src='/p/{i}.jpg' alt=''></div><div>"
            f"<h1>{NAMES[i % 6]} {i}</h1>{rating}<div><p>R$ {100 + i},00</p>{was}</div>"
            f"<form action='/cart/add' method='post'><button name='add'>Comprar</button></form>"
            f"</div></div></main></body></html>")
    return PageView.from_html(f"http://shop.test/p/{i}", html, LEX)


def test_the_review_count_is_read_from_the_rating_not_from_its_place() -> None:
    """Where a product has no rating, what then stands where the count was (the price
    box's old price) is no review count."""
    pages = [_info(i, rated=i % 3 != 2, old=i % 3 == 1) for i in range(6)]
    fields = learn_detail(pages, LEX).fields
    rules = {k: fields[k] for k in ("rating", "review_count")}
    assert record(rules, _info(7, rated=True, old=True)) == {"rating": 5.0, "review_count": 37}
    assert record(rules, _info(8, rated=False, old=True)) == {"rating": None,
                                                              "review_count": None}


def _text_rating(i: int) -> str:
    """A rating written as text in a bare span, its review count in a classed one beside
    it, in the shop's language (no word of the lexicon names either)."""
    return (f"<div class='x9Tq'><span>{RATINGS[i % 6]} / 5</span> "
            f"<span class='k2Rw'>{480 - 37 * i} отзывов</span></div>")


def test_a_text_rating_and_its_count_are_learned_when_every_sample_is_rated() -> None:
    """Every sampled product rated: taken out, the rating leaves its count in its place,
    so a path reading any span there would read the count where a product has no rating;
    the rating's own bare span is the path, and the count is read beside it."""
    pages = [page(i, stock=_text_rating(i)) for i in range(5)]
    fields = learn_detail(pages, LEX).fields
    rules = {k: fields[k] for k in ("rating", "review_count")}
    assert record(rules, page(5, stock=_text_rating(5))) == {"rating": 3.3, "review_count": 295}
    assert record(rules, page(5)) == {"rating": None, "review_count": None}


def _scaled(i: int, *, rated: bool) -> PageView:
    """No classes: a rating "4,5 / 5" and its count in a block before the price box, the
    price box an old price "Au lieu de …" beside the price; a product without ratings
    has no rating block, so its price box stands where the rating block was."""
    rating = (f"<div><span>{RATINGS[i % 6]} / 5</span> <span>({30 + i})</span></div>"
              if rated else "")
    html = (f"<html><body><main><div><div><img src='/p/{i}.jpg' alt=''></div><div>"
            f"<h1><span>{NAMES[i % 6]} {i}</span></h1>{rating}<div><p><span>{100 + i},95"
            f"</span> <span>€</span></p><span>Au lieu de 1 {200 + i},50 €</span></div>"
            f"<form action='/cart/add' method='post'><button name='add'>Ajouter</button></form>"
            f"</div></div></main></body></html>")
    return PageView.from_html(f"http://shop.test/p/{i}", html, LEX)


def test_an_old_price_where_the_rating_stands_on_others_is_no_rating() -> None:
    """A path by position reaches the old price ("Au lieu de 1 205,50 €") on a product
    without ratings: a money amount is no rating (it read as 1.0)."""
    pages = [_scaled(i, rated=i != 3) for i in range(8)]
    rule = learn_detail(pages, LEX).fields["rating"]
    assert record({"rating": rule}, _scaled(10, rated=True))["rating"] == 4.1
    assert record({"rating": rule}, _scaled(11, rated=False))["rating"] is None


def test_an_old_price_labelled_in_the_shops_language() -> None:
    pages = [_info(i, rated=True, old=i % 2 == 0) for i in range(6)]
    rule = learn_detail(pages, LEX).fields["original_price"]
    assert record({"original_price": rule}, _info(8, rated=True, old=True))[
        "original_price"] == 208.95


def test_a_trail_is_chosen_over_a_menus_sub_list_naming_the_same_category() -> None:
    """Products reached through their sub-category alone: the menu's sub-list (``Shoes,
    Bags`` under ``Women``) names it as well as the trail's unlinked last crumb; the
    trail is the one that changes with the product."""
    def view(i: int) -> PageView:
        top, leaf = CATEGORIES[i % 4]
        menu = "".join(f"<li><a href='/c/{t.lower()}'>{t}</a><ul><li><a href='/c/{t.lower()}/"
                       f"{s.lower()}'>{s}</a></li><li><a href='/c/x{n}'>Sale {n}</a></li>"
                       f"</ul></li>" for n, (t, s) in enumerate(CATEGORIES))
        html = (f"<html><body><header><nav><ul id='menu'>{menu}</ul></nav></header>"
                f"<div><a href='/'>Início</a> » <a href='/c/{top.lower()}'>{top}</a> » "
                f"<span>{leaf}</span></div><main><div><h1>{NAMES[i % 6]}</h1>"
                f"<span class='price'>{PRICES[i % 6]}</span></div></main></body></html>")
        return PageView.from_html(f"http://shop.test/p/{i}", html, LEX)

    cats = [{CATEGORIES[i % 4][1]} for i in range(4)]
    rule = learn_detail([view(i) for i in range(4)], LEX, categories=cats).fields["breadcrumb"]
    assert record({"breadcrumb": rule}, view(5))["breadcrumb"] == ["Jackets", "Rain"]


def test_a_stock_line_whose_place_shifts_gives_way_to_the_buy_button() -> None:
    """A classless stock line after a note only some products show ("Spend $20 more for
    free shipping"): a path by position misses it on the others, the buy button does not."""
    def view(i: int, note: bool, sold: bool) -> PageView:
        spend = "<p>Spend $20.00 more for free shipping</p>" if note else ""
        stock = "<p>Currently out of stock</p>" if sold else f"<p>In stock ({i} available)</p>"
        buy = "" if sold else "<form action='/cart/add'><button name='add'>Add to cart</button></form>"
        html = (f"<html><body><main><div><div><h1>{NAMES[i % 6]}</h1><div><p>{PRICES[i % 6]}</p>"
                f"</div>{spend}{stock}{buy}</div></div></main></body></html>")
        return PageView.from_html(f"http://shop.test/p/{i}", html, LEX)

    pages = [view(0, True, False), view(1, True, False), view(2, False, False),
             view(3, True, True), view(4, True, False)]
    rule = learn_detail(pages, LEX).fields["availability"]
    for note in (True, False):
        assert record({"availability": rule}, view(5, note, False))["availability"] == "in_stock"
        assert record({"availability": rule}, view(6, note, True))["availability"] == \
            "out_of_stock"


def _list_page(n: int) -> PageView:
    """Cards whose inner block carries the stock state's class; a sold-out card shows a
    blank price; some cards an old price "原价 ¥…" in the shop's language."""
    cards = []
    for i in range(8 * n, 8 * n + 8):
        sold = i % 4 == 3
        state = "is-unavailable" if sold else "is-available"
        price = "&nbsp;" if sold else f"¥{10 + i}.50"
        was = f"<span class='line-clamp-2 text-lg'>原价 ¥{90 + i}.00</span>" if i % 3 == 0 else ""
        cards.append(f"<div><div class='stock-status {state}'><a class='block' href='/p/{i}'>"
                     f"<img src='/t/{i}.jpg' alt=''></a><h5><a class='text-sm' href='/p/{i}'>"
                     f"Thing number {i}</a></h5><div class='grid-cols-2'><span class='mt-4'>"
                     f"{price}</span>{was}</div><span class='shadow-sm'>({30 + i})</span>"
                     f"</div></div>")
    html = f"<html><body><main><div id='items'>{''.join(cards)}</div></main></body></html>"
    return PageView.from_html(f"http://shop.test/c/{n}", html, LEX)


def test_list_prices_where_sold_out_items_show_a_blank_one_and_old_prices_by_label() -> None:
    learned = learn_list([_list_page(n) for n in range(3)], LEX)
    plan = compile_fields({k: learned.fields[k] for k in ("price", "original_price")}, "list")
    view = _list_page(4)
    items = view.tree.xpath(learned.item_xpath)
    got = [build_record(plan, item, Base(view.url), None, {}) for item in items[:7]]
    assert [(r["price"], r["original_price"]) for r in got] == [
        (42.5, None), (43.5, 123.0), (44.5, None), (None, None), (46.5, 126.0), (47.5, None),
        (48.5, None)]


def test_a_microdata_trail_ending_in_the_name_is_not_the_name() -> None:
    """The trail's last crumb (``itemprop="name"`` of a ``BreadcrumbList``) repeats the
    product's name: the name is the heading's, so the fields around the heading (the
    rating beside it) are read in the product's region, not the trail's."""
    def view(i: int) -> PageView:
        top, leaf = CATEGORIES[i % 4]
        crumbs = "".join(
            f"<li itemprop='itemListElement' itemscope itemtype='https://schema.org/ListItem'>"
            f"<span itemprop='name'>{t}</span></li>" for t in (top, leaf, NAMES[i % 6]))
        html = (f"<html><body><ol class='flex' itemscope "
                f"itemtype='https://schema.org/BreadcrumbList'>{crumbs}</ol><main><div class='p-2'>"
                f"<h1 class='text-xl'><span>{NAMES[i % 6]}</span> <small>(2024 model)</small></h1>"
                f"<div role='img' aria-label='Noté {RATINGS[i]} sur 5'>★★★☆☆</div>"
                f"<span class='mt-2'>{40 + i} avis</span><p class='price'>{PRICES[i % 6]}</p>"
                f"</div></main></body></html>")
        return PageView.from_html(f"http://shop.test/p/{i}", html, LEX)

    fields = learn_detail([view(i) for i in range(4)], LEX).fields
    got = record({k: fields[k] for k in ("name", "rating", "review_count")}, view(5))
    assert got == {"name": NAMES[5], "rating": 3.3, "review_count": 45}


def test_a_price_whose_sign_is_a_span_of_its_own_keeps_its_currency() -> None:
    """``<p><span>£</span><span>103.99</span></p>``: the number alone is less of the
    price, not a more specific value; the price read with its sign gives the currency."""
    def view(i: int) -> PageView:
        html = (f"<html><body><main><div><h1>{NAMES[i % 6]}</h1><div><p><span>£</span>"
                f"<span>{PRICES[i % 6][1:]}</span></p></div>"
                f"<form action='/cart/add'><button name='add'>Add to cart</button></form>"
                f"</div></main></body></html>")
        return PageView.from_html(f"http://shop.test/p/{i}", html, LEX)

    rule = learn_detail([view(i) for i in range(4)], LEX).fields["price"]
    assert record({"price": rule}, view(5)) == {"price": 12.75, "price_text": "£12.75",
                                                "currency": "GBP"}


def _rated_list(n: int) -> PageView:
    """Cards whose rating, under a 'rating' class, is an aria-label written after its
    scale ("5点中3.9点")."""
    cards = "".join(
        f"<li class='tile'><a class='tile__link' href='/p/{i}'><img src='/t/{i}.jpg' alt=''></a>"
        f"<h3 class='tile__title'><a href='/p/{i}'>Thing number {i}</a></h3>"
        f"<div class='tile__rating' role='img' aria-label='5点中{RATINGS[i % 6].replace(',', '.')}"
        f"点'>★★★★☆</div><span class='tile__price'>¥{1000 + 37 * i}</span></li>"
        for i in range(8 * n, 8 * n + 8))
    html = f"<html><body><main><ul class='tiles'>{cards}</ul></main></body></html>"
    return PageView.from_html(f"http://shop.test/c/{n}", html, LEX)


def test_a_list_rating_written_after_its_scale_reads_the_second_number() -> None:
    """A rating the field's words point at (class 'tile__rating'), its aria-label the
    scale first: the rating is the second number, not the scale 5."""
    learned = learn_list([_rated_list(n) for n in range(3)], LEX)
    plan = compile_fields({"rating": learned.fields["rating"]}, "list")
    view = _rated_list(4)
    items = view.tree.xpath(learned.item_xpath)
    got = [build_record(plan, item, Base(view.url), None, {})["rating"] for item in items[:3]]
    assert got == [4.8, 2.5, 4.1]
