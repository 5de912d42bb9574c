"""A product page's buy box and its site navigation are no fields of the product: the
block holding the heading, price and add-to-cart form is never the description (the
bare paragraph under it is, or the structured data's), a description the structured data
contradicts is not written, and a menu every page shows alike is never the breadcrumb,
however few pages of one category a layout was learned from."""

from __future__ import annotations

import json

import pytest

from structurer.clean import parse_html
from structurer.learn.detail import learn_detail, learn_layouts
from structurer.learn.trails import navigation
from structurer.lexicon import Lexicon
from structurer.page.view import PageView
from structurer.replay.records import build_record, compile_fields
from structurer.structured import JsonLd
from structurer.values import Base
from tests.learn.test_detail_scope import LEX, NAMES, PRICES, record

SENTENCES = ["Built from steel, it is light and durable.",
             "Backed by a two-year warranty and free returns within 30 days.",
             "Customers love how easy it is to use and clean.",
             "A smart design that fits any home or office."]


def _prose(i: int) -> tuple[str, str]:
    """(the description's markup: a paragraph and a list, its text as a crawl gives it)."""
    first, second, third = (SENTENCES[(i + k) % 4] for k in range(3))
    first = f"{first[:-1]}, from batch {100 + i}."
    html = f"<p>{first}</p><ul><li>{second}</li><li>{third}</li></ul>"
    return html, f"{first} {second} {third}"


def _box(i: int, *, jsonld: bool = False, specs: bool = True) -> PageView:
    """BEM markup like many shops': the info block holds the heading, rating, price, the
    buy form, then the description with no heading; a specification table after it."""
    prose, text = _prose(i)
    ld = ("<script type='application/ld+json'>" + json.dumps(
        {"@context": "https://schema.org/", "@type": "Product", "name": NAMES[i],
         "description": text}) + "</script>") if jsonld else ""
    table = (f"<section><h2>Specifications</h2><table class='product-detail__specs'><tr>"
             f"<th>Weight</th><td>{i + 1},2 kg</td></tr><tr><th>Colour</th><td>White</td></tr>"
             f"</table></section>") if specs else ""
    html = (f"<html><head><title>{NAMES[i]} | Shop</title>{ld}</head><body>"
            f"<header><a href='/'>Shop</a> <a href='/cart'>Cart</a></header><main>"
            f"<div class='product-detail'><div class='product-detail__gallery'>"
            f"<img src='/img/{i}.png' alt=''></div><div class='product-detail__info'>"
            f"<h1 class='product-detail__title'>{NAMES[i]}</h1>"
            f"<div class='product-detail__rating'><span>4,{i} / 5</span></div>"
            f"<p class='product-detail__price'>{PRICES[i]}</p>"
            f"<form action='/cart/add' method='post' class='product-detail__buy'>"
            f"<button type='submit' name='add'>Add to cart</button></form>{prose}</div>"
            f"{table}</div></main></body></html>")
    return PageView.from_html(f"http://shop.test/p/{i}", html, LEX)


@pytest.mark.parametrize("specs", [False, True], ids=["alone", "with-specifications"])
def test_the_buy_box_is_no_description_the_paragraph_under_it_is(specs: bool) -> None:
    """The info block's class says 'detail', but it holds the product's heading, price
    and buy button; the specification table's class says so too, but it is a grid of
    label pairs: the description is the paragraph and list under the title block."""
    rule = learn_detail([_box(i, specs=specs) for i in range(4)], LEX).fields["description"]
    assert record({"description": rule}, _box(5, specs=specs))["description"] == _prose(5)[1]


def test_a_description_the_structured_data_contradicts_is_not_written() -> None:
    """With the buy box left out, the specification table (its class says 'detail' too)
    disagrees with every page's JSON-LD description: the JSON-LD's is read instead."""
    fields = learn_detail([_box(i, jsonld=True) for i in range(4)], LEX).fields
    assert fields["description"].jsonld == "description"
    page = _box(5, jsonld=True)
    tree = parse_html(page.html, base_url=page.url)
    got = build_record(compile_fields({"description": fields["description"]}, "detail"), tree,
                       Base(page.url), JsonLd(tree), {})
    assert got["description"] == _prose(5)[1]


def _microdata(i: int, *, note: bool) -> PageView:
    """No classes; the description a microdata paragraph after a free-shipping note only
    some products show (its place among the paragraphs shifts)."""
    spend = "<p>Spend 20,00 € more for free shipping</p>" if note else ""
    prose, _ = _prose(i)
    prose = prose.replace("<p>", "<p itemprop='description'>", 1)
    html = (f"<html><body><main><div itemscope itemtype='https://schema.org/Product'>"
            f"<div><img itemprop='image' src='/img/{i}.png' alt=''></div><div>"
            f"<h1 itemprop='name'>{NAMES[i % 6]}</h1><p>{PRICES[i % 6]}</p>{spend}"
            f"<p class='availability'>In stock</p>"
            f"<form action='/cart/add' method='post'><button name='add'>Add to cart</button>"
            f"</form>{prose}</div></div></main></body></html>")
    return PageView.from_html(f"http://shop.test/p/{i}", html, LEX)


def test_a_microdata_description_whose_place_shifts_is_read_by_its_property() -> None:
    pages = [_microdata(i, note=i % 2 == 0) for i in range(6)]
    rule = learn_detail(pages, LEX).fields["description"]
    for note in (True, False):
        assert record({"description": rule}, _microdata(7, note=note))["description"] == \
            _prose(7)[1]


def _bare(i: int, *, sold: bool) -> PageView:
    """Hashed classes; a sold-out product says so in a paragraph of its own right before
    the description (a paragraph and a list with no heading)."""
    notice = "<p>This product is currently unavailable.</p>" if sold else (
        "<form action='/cart/add' method='post'><button name='add'>Add to cart</button></form>")
    html = (f"<html><body><main><div class='sc-rksixr'><div class='sc-zseghb'><img "
            f"src='/img/{i}.png' alt=''></div><div class='sc-qp6poa'><h1><span>{NAMES[i % 6]}"
            f"</span> <small>(Unisex)</small></h1><p class='sc-b5ztsy'>{PRICES[i % 6]}</p>"
            f"{notice}{_prose(i)[0]}</div></div></main></body></html>")
    return PageView.from_html(f"http://shop.test/p/{i}", html, LEX)


def test_a_stock_notice_before_a_bare_description_is_not_part_of_it() -> None:
    pages = [_bare(i, sold=i == 3) for i in range(6)]
    rule = learn_detail(pages, LEX).fields["description"]
    for sold in (False, True):
        assert record({"description": rule}, _bare(7, sold=sold))["description"] == \
            _prose(7)[1]


TOPS = ["Men", "Women", "Accessories"]
LEAVES = {"Men": ["Shirts", "Shoes"], "Women": ["Dresses", "Bags"], "Accessories": ["Belts"]}


def _shop_page(i: int, top: str, *, sold: bool = False, sets: bool = False) -> PageView:
    """Utility classes only: a top menu of the three departments on every page, the trail
    (Home › department › leaf) right above the product; sold-out products say so (a
    stock note, no price, no buy button); ``sets``: products of their own layout, sets
    priced in a box of their own."""
    leaf = LEAVES[top][i % len(LEAVES[top])]
    price = (f"<div class='mt-4'><b>Set of three</b> <span class='text-2xl'>{PRICES[i % 6]}"
             "</span></div>" if sets else f"<p class='text-xl'>{PRICES[i % 6]}</p>")
    menu = "".join(f"<li class='text-red-600'><a class='flex text-lg' href='/collections/"
                   f"{t.lower()}'>{t}</a></li>" for t in TOPS)
    state = ("<p class='stock out-of-stock'>Sold out</p>" if sold else
             "<form action='/cart/add' method='post' class='mb-2'><button name='add' "
             "class='p-4'>Add to cart</button></form>")
    html = (f"<html><head><title>{NAMES[i % 6]} | Shop</title></head><body>"
            f"<header class='text-sm p-4'><a href='/'>Shop</a><nav class='text-lg flex'>"
            f"<ul class='text-sm gap-4' id='menu-top'>{menu}</ul></nav></header>"
            f"<div class='h-auto text-lg'><a href='/'>Accueil</a> › <a href='/collections/"
            f"{top.lower()}'>{top}</a> › <a href='/collections/{leaf.lower()}'>{leaf}</a></div>"
            f"<main class='mb-2'><div class='w-full'><div class='rounded'>"
            f"<h1 class='justify-between'>{NAMES[i % 6]} {i}</h1>"
            f"{'' if sold else price}{state}</div></div></main></body></html>")
    return PageView.from_html(f"http://shop.test/products/{i}", html, LEX)


def test_the_menu_every_page_shows_is_no_breadcrumb_of_a_layout_seen_in_one_category() -> None:
    """The layout of sets is learned from three products of one department: by itself it
    cannot tell the menu (naming that department) from the trail; the menu is the same
    on every sampled page of every department, so it is navigation."""
    tops = [TOPS[i % 3] for i in range(9)] + ["Men"] * 3
    pages = [_shop_page(i, top, sets=i >= 9) for i, top in enumerate(tops)]
    layouts = learn_layouts(pages, LEX, categories=[{t} for t in tops])
    assert len(layouts.variants) == 1
    sets = layouts.variants[0][1].fields["breadcrumb"]
    assert record({"breadcrumb": sets}, _shop_page(13, "Men", sets=True))["breadcrumb"] == \
        ["Men", "Shoes"]


def test_sold_out_products_without_a_price_are_the_same_layout() -> None:
    """Products that cannot be bought now show no price (their state, not another
    template): one rule set reads every page, the price null and the stock out of
    stock on a sold-out product, the price on one for sale."""
    tops = [TOPS[i % 3] for i in range(9)] + ["Men"] * 3
    pages = [_shop_page(i, top, sold=i >= 9) for i, top in enumerate(tops)]
    layouts = learn_layouts(pages, LEX, categories=[{t} for t in tops])
    assert (layouts.variants, layouts.misfits) == ([], [])
    rules = {k: layouts.main.fields[k] for k in ("name", "price", "availability")}
    sold = record(rules, _shop_page(13, "Men", sold=True))
    assert {k: sold[k] for k in rules} == {"name": f"{NAMES[1]} 13", "price": None,
                                           "availability": "out_of_stock"}
    offered = record(rules, _shop_page(14, "Women"))
    assert (offered["price"], offered["availability"]) == (35.25, "in_stock")


def test_a_trail_ends_next_to_the_product_a_menu_does_not() -> None:
    """Pages of one department only, nothing to tell the two link lists apart by their
    links: the one ending right above the product's heading is its trail."""
    pages = [_shop_page(i, "Men") for i in range(4)]
    rule = learn_detail(pages, LEX, categories=[{"Men"}] * 4).fields["breadcrumb"]
    assert record({"breadcrumb": rule}, _shop_page(5, "Men"))["breadcrumb"] == ["Men", "Shoes"]


def test_navigation_is_what_every_page_shows_alike() -> None:
    pages = [_shop_page(i, TOPS[i % 3]) for i in range(3)]
    menu = tuple(f"http://shop.test/collections/{t.lower()}" for t in TOPS)
    assert menu in navigation(pages)
    assert not any("shirts" in url for urls in navigation(pages) for url in urls)


def test_a_prose_field_of_any_name_is_never_the_specification_table() -> None:
    """What makes the description prose is the lexicon's ``prose`` flag, not its name: the
    same field called ``blurb`` is the paragraph under the title block, not the table; the
    flag off, the table (its class says 'detail') is what the field's words point at."""
    def renamed(prose: bool) -> Lexicon:
        spec = LEX.fields["description"].model_copy(update={"prose": prose})
        fields = {("blurb" if k == "description" else k): (spec if k == "description" else v)
                  for k, v in LEX.fields.items()}
        return LEX.model_copy(update={"fields": fields})
    pages = [_box(i) for i in range(4)]
    rule = learn_detail(pages, renamed(True)).fields["blurb"]
    assert record({"blurb": rule}, _box(5))["blurb"] == _prose(5)[1]
    plain = learn_detail(pages, renamed(False)).fields.get("blurb")
    assert plain is None or record({"blurb": plain}, _box(5))["blurb"] != _prose(5)[1]


BRANDS = ["Ridgeline", "Kestrel", "Northpeak", "Fjällräv", "Cairn"]


def _branded_page(i: int, brand: str, *, sets: bool = False) -> PageView:
    """Bootstrap-like markup: the shop's name in the header's ``navbar-brand`` on every
    page, the product's brand as a link above its heading; sets have their own layout
    (their price in a box of its own)."""
    price = (f"<div class='card'><b>Set of three</b> <span class='fs-3'>{PRICES[i % 6]}</span>"
             "</div>" if sets else f"<p class='price h4'>{PRICES[i % 6]}</p>")
    state = (f"{price}<p class='small'>In stock</p>"
             "<form action='/cart/add' method='post'><button name='add'>Add to cart</button>"
             "</form>")
    html = (f"<html><head><title>{NAMES[i % 6]} {i} | Lindqvist Outdoor</title></head><body>"
            "<nav class='navbar'><a class='navbar-brand' href='/'>Lindqvist Outdoor</a>"
            "<a class='nav-link' href='/c/tents'>Tents</a></nav><main class='container'>"
            f"<div class='row'><div class='col'><img class='img-fluid' src='/img/{i}.jpg' "
            f"alt='{NAMES[i % 6]} {i}'></div><div class='col'><div class='text-muted'>"
            f"<a href='/brands/{brand.lower()}'>{brand}</a></div>"
            f"<h1 class='h3'>{NAMES[i % 6]} {i}</h1>{state}</div></div></main></body></html>")
    return PageView.from_html(f"http://shop.test/p/{i}", html, LEX)


def test_a_layout_seen_on_few_pages_takes_no_value_every_page_of_the_shop_shows() -> None:
    """Two sets of one brand make a layout of their own: by itself it cannot tell the
    shop's name in ``navbar-brand`` (the same on both) from the brand link; it is
    the same on every sampled page of the level, so it is no field of the layout, and the
    level's own brand rule reads that layout's pages too."""
    pages = [_branded_page(i, BRANDS[i % 4]) for i in range(6)] + [
        _branded_page(i, "Cairn", sets=True) for i in (6, 7)]
    layouts = learn_layouts(pages, LEX)
    assert len(layouts.variants) == 1
    sets = layouts.variants[0][1].fields
    brand = sets.get("brand", layouts.main.fields["brand"])
    assert record({"brand": brand}, _branded_page(9, "Cairn", sets=True))["brand"] == "Cairn"
    assert record({"brand": layouts.main.fields["brand"]}, _branded_page(8, "Kestrel"))[
        "brand"] == "Kestrel"


SIBLINGS = ["Trail Running", "Approach Shoes", "Sandals", "Hiking Boots"]


def _sibling_page(i: int, *, leaf: str | None = None) -> PageView:
    """A product of one of the sibling categories of one department: its trail links the
    department alone (``Home > Footwear``, the same on every page), then names its own
    category and the product in unlinked items; a menu of departments beside it."""
    leaf = leaf or SIBLINGS[i % 4]
    html = (f"<html><head><title>{NAMES[i % 6]} {i} | Shop</title></head><body><header>"
            f"<nav><ul><li><a href='/c/1/footwear'>Footwear</a></li><li><a href='/c/2/camp'>"
            f"Camping</a></li></ul></nav></header><nav aria-label='breadcrumb'><ol><li>"
            f"<a href='/'>Home</a></li><li><a href='/c/1/footwear'>Footwear</a></li>"
            f"<li>{leaf}</li><li aria-current='page'>{NAMES[i % 6]} {i}</li></ol></nav>"
            f"<main><div class='product'><h1>{NAMES[i % 6]} {i}</h1><span class='price'>"
            f"{PRICES[i % 6]}</span></div></main></body></html>")
    return PageView.from_html(f"http://shop.test/p/{i}", html, LEX)


def test_a_trail_whose_linked_part_is_alike_on_sibling_categories_is_the_breadcrumb() -> None:
    """Products of sibling categories share the trail's links (Home > Footwear): its
    unlinked items (the category, then the product) make it vary with the product, so it
    is the trail, not navigation; the product's own item is no category."""
    pages = [_sibling_page(i) for i in range(8)]
    layouts = learn_layouts(pages, LEX, categories=[{SIBLINGS[i % 4]} for i in range(8)])
    rule = layouts.main.fields["breadcrumb"]
    assert record({"breadcrumb": rule}, _sibling_page(9))["breadcrumb"] == \
        ["Footwear", "Approach Shoes"]


def test_unlinked_items_that_never_change_make_no_trail() -> None:
    """The same guard holds for the unlinked items: a list showing the same items on
    products of different categories is never the breadcrumb."""
    pages = [_sibling_page(i, leaf="Footwear") for i in range(8)]
    layouts = learn_layouts(pages, LEX, categories=[{SIBLINGS[i % 4]} for i in range(8)])
    assert "breadcrumb" not in layouts.main.fields
