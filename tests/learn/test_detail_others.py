"""Detail fields where the page's own value is missing or blank: never another product's
card, never the next element of the same path, and a description is prose."""

from __future__ import annotations

from typing import Any

from structurer.learn.detail import learn_detail
from structurer.lexicon import load_lexicon
from structurer.page.scope import main_region, other_products, sibling_cards
from structurer.page.view import PageView
from structurer.replay.records import build_record, compile_fields
from structurer.rules.model import FieldRule
from structurer.values import Base

LEX = load_lexicon()

NAMES = ["Trail Shoe A1", "Rain Jacket B2", "Camp Stove C3", "Head Lamp D4", "Water Filter E5",
         "Tent Pole F6"]
PRICES = ["59,00 €", "120,50 €", "35,25 €", "19,95 €", "44,10 €", "12,75 €"]


def record(fields: dict[str, FieldRule], view: PageView) -> dict[str, Any]:
    plan = compile_fields(fields, "detail")
    return build_record(plan, view.tree, Base(view.url), None, {})


def _card(n: int, kind: str) -> str:
    """A card of another product: rated, on sale (an old price in the main old price's
    class), sold out (no rating, an empty price) or plain."""
    rating = (f"<div class='tile__rating'><span>4,{n % 10} / 5</span></div>"
              if kind in ("rated", "sale") else "")
    price = ("<span class='tile__price'>&nbsp;</span>" if kind == "gone" else
             f"<span class='tile__price'>{n},99 €</span>")
    old = f"<span class='tile__price tile__price--old'>{n + 40},00 €</span>" \
        if kind == "sale" else ""
    state = "outofstock" if kind == "gone" else "instock"
    return (f"<li class='tile {state}'><a href='/p/{n}'><img src='/t/{n}.jpg' alt=''></a>"
            f"<h3><a href='/p/{n}'>Other product {n}</a></h3>{rating}"
            f"<div class='tile__prices'>{price}{old}</div></li>")


def carousel_page(i: int, old: bool = False) -> PageView:
    """Product ``i`` (its old price shown where ``old``), then a small carousel of four
    unlike cards in the same classes as the page's own price: one sold out, one on sale."""
    kinds = ["rated", "sale", "gone", "plain"]
    kinds = kinds[i % 4:] + kinds[:i % 4]
    own_old = f"<span class='tile__price tile__price--old'>{PRICES[i]}</span>" if old else ""
    html = (f"<html><head><title>{NAMES[i]}</title></head><body><main>"
            f"<div class='product-detail'><h1>{NAMES[i]}</h1><div class='tile__prices'>"
            f"<p class='tile__price'>{PRICES[(i + 1) % 6]}</p>{own_old}</div>"
            f"<form action='/cart/add'><button name='add'>Add to cart</button></form></div>"
            f"<section class='carousel'><h2>You may also like</h2><ul class='catalog'>"
            + "".join(_card(10 * i + 20 + k, kind) for k, kind in enumerate(kinds))
            + "</ul></section></main></body></html>")
    return PageView.from_html(f"http://shop.test/p/{i}", html, LEX)


def test_a_carousel_of_unlike_cards_is_other_products_whole() -> None:
    for i in range(4):
        cards = other_products(carousel_page(i))
        assert len(cards) == 4, i
        assert all(c.tag == "li" for c in cards)


def test_layout_columns_and_boxes_of_links_are_no_cards() -> None:
    """A layout table: the product's column (its heading, price and many links) beside a
    column of boxes (a list of links with prices, an advert): neither column nor box is
    another product's card, and the product's column is its main region."""
    links = "".join(f"<li><a href='/c/{n}'>Category {n}</a> from {n},00 €</li>"
                    for n in range(5))
    html = ("<html><body><table><tr><td><a href='/'>Home</a> <a href='/c/1'>Bolts</a>"
            f"<h1>{NAMES[0]}</h1><img src='/i/0.jpg'><p>{PRICES[0]}</p>"
            "<a href='/cart'>Cart</a> <a href='/help'>Help</a></td>"
            f"<td><div class='box'><ul>{links}</ul></div><div class='box'><a href='/ad'>"
            "<img src='/ad.gif'></a><small>Advertisement</small></div></td></tr></table>"
            "</body></html>")
    view = PageView.from_html("http://shop.test/p/0", html, LEX)
    cards = other_products(view)
    assert not [c for c in cards if c.tag in ("td", "div")]
    assert main_region(view, view.body.find(".//h1")).tag == "td"


def test_no_old_price_of_a_carousel_card_where_the_product_has_none() -> None:
    pages = [carousel_page(i) for i in range(4)]
    rule = learn_detail(pages, LEX).fields.get("original_price")
    for i in range(6):
        got = record({"original_price": rule}, carousel_page(i))["original_price"] \
            if rule else None
        assert got is None, (i, rule)


def bare_page(i: int, price: str = "shown") -> PageView:
    """Class-less markup: the price paragraph is empty (``&nbsp;``) on a sold-out product,
    and the description below holds numbers at the same tag path; a rating line before
    the price comes and goes (positions shift); other products' cards follow."""
    shown = f"<span>{PRICES[i].split()[0]}</span> <span>€</span>" if price == "shown" \
        else "&nbsp;"
    old = f"<span class='old-price'>{i + 70},00 €</span>" if i % 2 else ""
    html = (f"<html><head><title>{NAMES[i]}</title></head><body><main><div>"
            f"<div><img src='/i/{i}.jpg' alt='{NAMES[i]}'></div>"
            f"<div><h1><span>{NAMES[i]}</span></h1>"
            + (f"<div><span>4,{i} / 5</span></div>" if i != 1 else "") +   # one unrated
            f"<div><p>{shown}</p>{old}</div>"
            f"<p>Product code: <span>6628{i}</span></p></div>"
            f"<div><div><p>The {NAMES[i]} by Atelier {i + 3} is made for {30 + i} days "
            f"of everyday use.</p></div></div></div><section><h2>You may also like</h2><ul>"
            + "".join(f"<li><a href='/p/{n}'><img src='/t/{n}.jpg' alt=''></a><a href="
                      f"'/p/{n}'>Other product {n}</a><p><span>{n},99</span> <span>€</span>"
                      f"</p></li>" for n in range(20 + i, 24 + i))
            + "</ul></section></main></body></html>")
    return PageView.from_html(f"http://shop.test/p/{i}", html, LEX)


def test_a_blank_price_is_null_not_the_next_number_on_its_path() -> None:
    pages = [bare_page(0), bare_page(1), bare_page(2, price="empty"), bare_page(3)]
    rule = learn_detail(pages, LEX).fields["price"]
    assert record({"price": rule}, bare_page(4))["price"] == 44.10
    assert record({"price": rule}, bare_page(5, price="empty"))["price"] is None


SENTENCES = ["Customers love how easy it is to use and clean.",
             "Built from cashmere, it is light and durable.",
             "Backed by a two-year warranty and free returns.",
             "Designed with care for every detail."]


def prose_page(i: int, extra: str = "") -> PageView:
    """Hashed classes; under the title block ``Art.-Nr.: 27895`` and ``Brand: X`` lines,
    then the description: a paragraph and a list, no heading, class or label; ``extra``
    right after the price."""
    first, *rest = SENTENCES[i % 4:] + SENTENCES[:i % 4]
    bullets = "".join(f"<li>{s}</li>" for s in rest)
    html = (f"<html><head><title>{NAMES[i]}</title></head><body><main class='Main_m__x1'>"
            f"<div class='Info_info__9G'><h1 class='Title_t__a1'>{NAMES[i]}</h1>"
            f"<p class='Dprice_d__0B'>{PRICES[i]}</p>{extra}<p>Art.-Nr.: 2789{i}</p>"
            f"<p>Brand: Make{i}</p><p>{first}</p><ul>{bullets}</ul></div>"
            f"</main></body></html>")
    return PageView.from_html(f"http://shop.test/p/{i}", html, LEX)


def test_a_number_is_never_a_description() -> None:
    rule = learn_detail([prose_page(i) for i in range(4)], LEX).fields.get("description")
    assert rule is not None
    got = record({"description": rule}, prose_page(5))["description"]
    assert got == " ".join(SENTENCES[1:] + SENTENCES[:1])


def test_a_price_line_is_never_a_description() -> None:
    """A line naming the price without taxes ("R$ 19,96 sem impostos") under the title
    block reads as words after a label; it is a price line, not prose."""
    def page(i: int) -> PageView:
        return prose_page(i, f"<p class='Extras_extras__SN'>R$ {i + 19},96 sem impostos</p>")

    rule = learn_detail([page(i) for i in range(4)], LEX).fields.get("description")
    assert rule is not None
    assert record({"description": rule}, page(5))["description"] == " ".join(
        SENTENCES[1:] + SENTENCES[:1])


def _linked_card(n: int, rated: bool, priced: bool) -> str:
    """A card whose stars link its product's reviews (``/p/N#reviews``), beside its
    brand's page and a wish-list link; a sold-out one shows no price."""
    stars = (f"<a href='/p/{n}#reviews'><div role='img' aria-label='Rated 4.{n % 10} of 5'>"
             "★★★★☆</div><span>(12)</span></a>" if rated else "")
    price = f"<span>{n},99 €</span>" if priced else ""
    return (f"<div class='card'><a href='/p/{n}'><img src='/t/{n}.jpg' alt=''>"
            f"<span>Other product {n}</span>{price}</a>"
            f"<a href='/brands/b{n % 3}'>Brand {n % 3}</a>{stars}"
            f"<a href='/wishlist?add={n}'>♡</a></div>")


def test_cards_whose_stars_link_their_reviews_are_other_products() -> None:
    """A link to a part of a page is that page: cards linking their product, its
    reviews (``#reviews``), a brand and a wish list link three pages, and are cards (a
    small row of unlike cards: one unrated, two sold out); so a product without a rating
    of its own has a main region without theirs."""
    cards = "".join(_linked_card(n, rated=n != 30, priced=n in (30, 33)) for n in range(30, 34))
    html = (f"<html><head><title>{NAMES[0]}</title></head><body><main><div class='row'>"
            f"<div><h1>{NAMES[0]}</h1><p>{PRICES[0]}</p></div></div>"
            f"<section><h2>You may also like</h2><div class='related'>{cards}</div></section>"
            "</main></body></html>")
    view = PageView.from_html("http://shop.test/p/0", html, LEX)
    # told by what each card shows, whether or not their likeness makes them a list
    assert [c.get("class") for c in sibling_cards(view.body)] == ["card"] * 4
    found = other_products(view)
    assert [c.get("class") for c in found] == ["card"] * 4
    region = main_region(view, view.body.find(".//h1"), found)
    assert region.tag == "div" and region.find(".//*[@role='img']") is None


def logo_page(i: int, placeholder: bool = False) -> PageView:
    """Product ``i``, class-less: its picture (alt: its name; a placeholder where sold
    out), its brand's logo linked to the brand's page (alt: the brand, a word of the
    title), the heading, the price."""
    brand = ["Acme", "Borel"][i % 2]
    name = f"{brand} {NAMES[i]}"
    src = "/static/no-image.svg" if placeholder else f"/img/p{i}_large.png"
    html = (f"<html><head><title>{name} | Outdoor Shop</title></head><body><main><div>"
            f"<div><img src='{src}' alt='{name}'></div>"
            f"<div><a href='/brands/{brand.lower()}'><img src='/img/brands/{brand.lower()}.png' "
            f"alt='{brand}' title='{brand}'></a><h1>{name}</h1><p>{PRICES[i]}</p></div>"
            f"</div></main></body></html>")
    return PageView.from_html(f"http://shop.test/p/{i}", html, LEX)


def test_the_picture_named_by_its_alt_text_beats_the_brand_logo() -> None:
    """Two pages, one showing a placeholder (a sold-out layout learned on its own): the
    logo is on both, the picture on one, yet the picture's alt names the product."""
    pages = [logo_page(0), logo_page(1, placeholder=True)]
    rules = learn_detail(pages, LEX).fields
    assert rules["image"].xpath is not None
    assert "its alt text names the page's product on 100% of pages" in rules["image"].evidence
    assert record(rules, pages[0])["image"] == "http://shop.test/img/p0_large.png"
    assert record(rules, pages[1])["image"] != "http://shop.test/img/brands/borel.png"
    many = [logo_page(i) for i in range(5)]
    assert [record(learn_detail(many, LEX).fields, p)["image"] for p in many] == \
        [f"http://shop.test/img/p{i}_large.png" for i in range(5)]


def test_rules_from_two_layouts_at_once_split_the_pages_by_their_title() -> None:
    """The name read on one layout, the image on the other: no page fits both, so the
    pages the title rule reads are the main layout and the others a variant."""
    from structurer.learn.layouts import misfits
    one = [PageView.from_html(f"http://shop.test/a/{i}", (
        f"<html><head><title>{NAMES[i]} | Shop</title></head><body><main class='a'>"
        f"<h1 class='title'>{NAMES[i]}</h1><p>{PRICES[i]}</p></main></body></html>"), LEX)
        for i in range(3)]
    two = [PageView.from_html(f"http://shop.test/b/{i}", (
        f"<html><head><title>{NAMES[i]} | Shop</title></head><body><main class='b'>"
        f"<img class='hero' src='/img/{i}.png' alt='{NAMES[i]}'><h2>{NAMES[i]}</h2>"
        f"<p>{PRICES[i]}</p></main></body></html>"), LEX) for i in range(3, 6)]
    fields = {"name": FieldRule(xpath="//h1[@class='title']", kind="text"),
              "image": FieldRule(xpath="//img[@class='hero']", kind="image"),
              "price": FieldRule(xpath="//main/p", kind="money")}
    assert misfits([*one, *two], fields, LEX) == [3, 4, 5]
    assert misfits([*one, *two], {k: fields[k] for k in ("name", "price")}, LEX) == [3, 4, 5]
