"""Category links: which links of an entry page's menus the category XPath keeps.

Menus mix category links with search shortcuts, offers and account links; the links
known to lead to lists tell the category URLs apart, and the XPath keeps only those.
"""

from __future__ import annotations

import pytest

from structurer.learn.categories import (
    category_xpath,
    clear_of_items,
    link_groups,
    url_family,
    url_shape,
)
from structurer.lexicon import load_lexicon
from structurer.page.view import PageView

BASE = "http://shop.test/"


def _menu(items: str) -> str:
    return (f"<html><body><header><nav class='main-menu'><ul>{items}</ul></nav></header>"
            "<main><p>Welcome to our shop, browse the departments above.</p></main></body>"
            "</html>")


def _view(html: str) -> PageView:
    return PageView.from_html(BASE, html, load_lexicon("ecommerce"))


def _selected(view: PageView, xpath: str) -> list[str]:
    return [a.get("href") for a in view.tree.xpath(xpath)]


CATS = [f"/category-{i}.html" for i in range(1, 7)]


def test_search_shortcuts_in_the_same_menu_are_left_out() -> None:
    # each department: its category link in <dt>, three search shortcuts in <dd>
    items = "".join(
        f"<li class='dept'><dl><dt><a href='{c}'>Department {i}</a></dt><dd>"
        + "".join(f"<a href='/search.php?keywords=w{i}{j}'>word {j}</a>" for j in range(3))
        + "</dd></dl></li>" for i, c in enumerate(CATS))
    view = _view(_menu(items))
    group = link_groups(view)[0]
    good = {BASE.rstrip("/") + c for c in CATS[:3]}
    assert sorted(_selected(view, category_xpath(view, group, good))) == sorted(CATS)


def test_offer_links_beside_categories_are_left_out() -> None:
    items = "".join(f"<li><a href='/catalogue.php?cat={i}'>Range {i}</a></li>" for i in range(6))
    items += "<li><a href='/offers.php'>Offers</a></li><li><a href='/brands.php'>Brands</a></li>"
    view = _view(_menu(items))
    group = link_groups(view)[0]
    good = {f"{BASE}catalogue.php?cat={i}" for i in (0, 3, 5)}
    got = _selected(view, category_xpath(view, group, good))
    assert sorted(got) == sorted(f"/catalogue.php?cat={i}" for i in range(6))


def test_a_menu_of_only_categories_keeps_every_link() -> None:
    items = "".join(f"<li><a href='/c/{n}/'>{n.title()}</a></li>"
                    for n in ("shoes", "bags", "coats", "hats", "belts"))
    view = _view(_menu(items))
    group = link_groups(view)[0]
    got = _selected(view, category_xpath(view, group, {f"{BASE}c/shoes/", f"{BASE}c/hats/"}))
    assert len(got) == 5


@pytest.mark.parametrize(("a", "b", "same"), [
    ("http://s/category-3.html", "http://s/category-12.html", True),
    ("http://s/c/shoes/", "http://s/c/bags/running/", True),
    ("http://s/catalogue.php?cat=1", "http://s/offers.php", False),
    ("http://s/category-3.html", "http://s/search.php?keywords=x", False),
])
def test_url_family(a: str, b: str, same: bool) -> None:
    assert (url_family(a) == url_family(b)) is same


def test_url_shape_blanks_numbers_and_query_values() -> None:
    assert url_shape("http://s/list-3-1.html?page=2&sort=a") == "/list-0-0.html?page&sort"


def _guard_pages(extra: str = "") -> tuple[PageView, PageView]:
    """An entry page whose only list in ``main`` is three category tiles, and a category
    page showing the tiles, then a grid of six products, then ``extra``."""
    def page(main: str) -> str:
        return f"<html><body><div><main>{main}</main></div></body></html>"

    tiles = "<ul>" + "".join(f"<li><a href='/c/{n}/'>{n.title()}</a></li>"
                             for n in ("women", "men", "kids")) + "</ul>"
    grid = "<ul id='products'>" + "".join(
        f"<li><h3><a href='/p/{i}'>Dress {i}</a></h3><span>{i},95 €</span></li>"
        for i in range(6)) + "</ul>"
    category = PageView.from_html(f"{BASE}c/women/", page(tiles + grid + extra),
                                  load_lexicon("ecommerce"))
    return _view(page(tiles)), category


GOOD_TILES = {f"{BASE}c/women/", f"{BASE}c/men/"}
TILES = ["/c/kids/", "/c/men/", "/c/women/"]


def test_a_menu_xpath_is_kept_clear_of_the_list_items_of_category_pages() -> None:
    """Learned on a home page whose only list in ``main`` is the category tiles, the
    plain path ``/html/body/div/main/ul//a`` also selects the product grid's links on a
    category page (tiles of sub-categories, then the grid): the XPath learned with the
    item XPath the list level learned there stays clear of those list items."""
    entry, category = _guard_pages()
    group = link_groups(entry)[0]
    item = "//ul[@id='products']/li"
    plain = category_xpath(entry, group, GOOD_TILES)
    assert plain == "/html/body/div/main/ul//a"
    assert len(_selected(category, plain)) == 9          # the grid's products too
    xpath = category_xpath(entry, group, GOOD_TILES, [(category.tree, item)])
    assert sorted(_selected(entry, xpath)) == TILES
    assert sorted(_selected(category, xpath)) == TILES


@pytest.mark.parametrize("item", [
    "//ul[@id='products']/li[position() <= 6] | //ul[@class='featured']/li[@class='card']",
    "//main//ul[@id='products']/li[1] | //main//ul[@class='featured']/li[last()]",
    "//ul[@class='featured']/li[@class='card'] | //ul[@id='products']/li",
], ids=["union-positional", "descendant-gap", "union"])
def test_a_menu_xpath_is_kept_clear_of_items_a_union_or_a_position_selects(item: str) -> None:
    """The guard holds for item XPaths that are unions (every branch guarded), that
    count positions (dropped from the guard's step: on the ancestor axis they would count
    ancestors) or that skip levels (``//main//ul``)."""
    featured = "<ul class='featured'>" + "".join(
        f"<li class='card'><a href='/p/f{i}'>Coat {i}</a><span>9{i},00 €</span></li>"
        for i in range(3)) + "</ul>"
    entry, category = _guard_pages(featured)
    group = link_groups(entry)[0]
    assert len(_selected(category, category_xpath(entry, group, GOOD_TILES))) == 12
    xpath = category_xpath(entry, group, GOOD_TILES, [(category.tree, item)])
    assert "position()" not in xpath and "last()" not in xpath
    assert sorted(_selected(entry, xpath)) == TILES
    assert sorted(_selected(category, xpath)) == TILES


def test_clear_of_items_guards_every_branch_of_both_unions() -> None:
    got = clear_of_items("//nav//a | //aside//a",
                         [(None, "//ul[@id='p']/li[2] | //div[@class='f']/article")])
    assert got[0] == ("//nav//a[not(ancestor::ul[@id='p'])][not(ancestor::div[@class='f'])]"
                      " | //aside//a[not(ancestor::ul[@id='p'])]"
                      "[not(ancestor::div[@class='f'])]")
    assert len(got) == 1        # the items (li, article) name nothing: their containers
    assert clear_of_items("//nav//a", [(None, "//ul/li")]) == []   # nothing named
    # a position counted by arithmetic is dropped like ``[2]``: on the ancestor axis it
    # would count the ancestors
    counted = '//div[@class="f"][count(../div) - 1]/article'
    assert clear_of_items("//nav//a", [(None, counted)]) == [
        '//nav//a[not(ancestor::div[@class="f"])]']


def test_a_menu_of_two_departments_is_one_group_with_both_submenus() -> None:
    # two departments, each with its submenu: the outer list of two is no list region,
    # the first submenu is; the group (and the XPath learned from it) takes both
    subs = {"clothing": ["jackets", "fleece", "trousers", "shirts"], "camping": ["tents", "packs"]}
    items = "".join(
        f"<li><a href='/c/{d}'>{d.title()}</a><ul>"
        + "".join(f"<li><a href='/c/{d}/{s}'>{s.title()}</a></li>" for s in leaves)
        + f"<li><a href='/c/{d}'>Show all</a></li></ul></li>" for d, leaves in subs.items())
    view = _view(_menu(items))
    group = link_groups(view)[0]
    leaves = [f"/c/{d}/{s}" for d, ls in subs.items() for s in ls]
    assert set(leaves) <= {u.removeprefix(BASE.rstrip("/")) for u in group.urls}
    good = {BASE.rstrip("/") + u for u in leaves[:3]}
    assert set(leaves) <= set(_selected(view, category_xpath(view, group, good)))


@pytest.mark.parametrize(("chrome", "label"), [
    ("/account", "My account"), ("/cart", "Cart (0)"), ("/konto", "Mein Konto"),
    ("/korzina", "Корзина (0)"), ("/customer/account/login", "Sign in"), ("/basket.php", "购物车")])
def test_account_and_cart_links_in_a_menu_are_left_out(chrome: str, label: str) -> None:
    """Site chrome (the vocabulary's ``site_chrome``, by text or path) beside departments
    none of which analysis saw lead to a list: the XPath keeps the departments."""
    depts = [f"/d/{n}/" for n in ("garden", "kitchen", "tools")]
    view = _view(_menu("".join(f"<li><a href='{d}'>{d[3:-1].title()}</a></li>" for d in depts)
                       + f"<li><a href='{chrome}'>{label}</a></li>"))
    group = link_groups(view)[0]
    assert sorted(_selected(view, category_xpath(view, group, set()))) == depts
