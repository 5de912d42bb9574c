"""Category links beyond menus: inline JSON state, pattern-matched anchors, URL keys,
the URL patterns analysis learns from list and product URLs, and the home link."""

from __future__ import annotations

import re

import pytest

from structurer.clean import parse_html
from structurer.learn.patterns import learn_patterns
from structurer.page.catlinks import (
    home_link,
    inline_json_links,
    matching_links,
    url_key,
    url_matches,
)

URL = "https://shop.example/"

PAGE = """<html><head>
<script>window.__STATE__ = {"nav": {"categories": [
  {"name": "Shoes", "url": "/c/shoes/", "children": [{"title": "Boots", "href": "/c/shoes/boots/"}]},
  {"name": "Elsewhere", "url": "https://other.example/c/x/"}]},
  "logo": "/img/logo.png", "api": "/api/menu.json", "text": "not a url"};</script>
<script type="application/json" id="cfg">{"links": ["/c/bags/", "//cdn.example/a.js"]}</script>
<script type="text/template">{"url": "/c/ignored/"}</script>
<script src="/app.js"></script>
</head><body>
<a href="/c/shoes/">Shoes</a><a href="/p/boot.html">Boot</a><a href="/c/hats/#top">Hats</a>
<a href="https://other.example/c/far/">Far</a><a href="/c/shoes/?page=2">2</a>
</body></html>"""


def test_inline_json_links_same_host_no_assets() -> None:
    tree = parse_html(PAGE, URL)
    assert inline_json_links(tree, URL) == [
        ("Shoes", "https://shop.example/c/shoes/"),
        ("Boots", "https://shop.example/c/shoes/boots/"),
        ("", "https://shop.example/c/bags/")]


def test_url_key_sorts_query() -> None:
    assert url_key("https://s.example/index.php?route=a/b&path=1_2") == \
        "/index.php?path=1_2&route=a/b"
    assert url_key("https://s.example") == "/"


def test_matching_links() -> None:
    tree = parse_html(PAGE, URL)
    patterns = [re.compile(r"/c/(?:[^/?]+/)*[^/?]+/")]
    assert matching_links(tree, URL, patterns) == [
        ("Shoes", "https://shop.example/c/shoes/"), ("Hats", "https://shop.example/c/hats/")]
    assert not url_matches(patterns, "https://shop.example/c/shoes/?page=2")


H = "https://shop.example"


def test_patterns_generalize_depth_and_refuse_counter_examples() -> None:
    patterns = learn_patterns([f"{H}/c/shoes/", f"{H}/c/bags/"], [f"{H}/p/boot.html"])
    compiled = [re.compile(p) for p in patterns]
    assert url_matches(compiled, f"{H}/c/shoes/boots/")          # a sub-category
    assert not url_matches(compiled, f"{H}/p/boot.html")
    assert not url_matches(compiled, f"{H}/c/shoes/?page=2")
    # a further list page under the path: one pattern per number of segments instead
    paged = learn_patterns([f"{H}/c/shoes/", f"{H}/c/bags/"],
                           [f"{H}/p/boot.html", f"{H}/c/shoes/page/2/"])
    assert paged == ["/c/[^/?]+/"]


def test_patterns_of_query_urls_and_need_two_examples() -> None:
    cats = [f"{H}/index.php?route=product/category&path=20",
            f"{H}/index.php?path=20_27&route=product/category"]
    patterns = learn_patterns(cats, [f"{H}/index.php?route=product/product&product_id=4"])
    compiled = [re.compile(p) for p in patterns]
    assert url_matches(compiled, f"{H}/index.php?route=product/category&path=33")
    assert not url_matches(compiled, f"{H}/index.php?route=product/product&product_id=4")
    assert learn_patterns([f"{H}/c/shoes/"], []) == []
    assert learn_patterns(reversed(cats), []) == learn_patterns(cats, [])   # order-free


@pytest.mark.parametrize(("href", "page", "home"), [
    ("/", f"{H}/p/1", True),
    ("https://shop.example", f"{H}/p/1", True),
    (" / ", f"{H}/p/1", True),
    ("/?lang=en", f"{H}/p/1?lang=en", True),          # state the shop carries on every link
    ("/?lang=en", f"{H}/p/1?id=4&lang=en", True),
    ("/?lang=de", f"{H}/p/1?lang=en", False),         # another language's home: not this one
    ("/?page=2", f"{H}/p/1", False),
    ("/?s=tent", f"{H}/p/1", False),                  # a search
    ("/?product_cat=gear", f"{H}/p/1", False),        # a category on plain permalinks
    ("/index.php", f"{H}/p/1", False),
    ("/c/gear/", f"{H}/p/1", False),
    (None, f"{H}/", False),
    ("http://www.shop.example/", f"{H}/p/1", True),    # the same site: www., http
    ("https://brand.example/", f"{H}/p/1", False),     # another host's root
    ("//market.example", f"{H}/p/1", False),
    ("https://shop.example:8443/", f"{H}/p/1", False),  # another port
    ("https://evilshop.example/", f"{H}/p/1", False),
], ids=["root", "absolute", "spaces", "carried-lang", "carried-among-others", "other-lang",
        "page-2", "search", "query-category", "index-file", "category", "no-href",
        "same-site", "other-host", "other-host-relative-scheme", "other-port", "suffix-host"])
def test_the_home_link_is_the_root_with_no_query_of_its_own(href: str | None, page: str,
                                                            home: bool) -> None:
    assert home_link(href, page) is home
