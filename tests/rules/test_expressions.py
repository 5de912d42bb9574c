"""What a rule file's XPaths and regexes may be: accepted as written by people and by the
analyzer, refused when the crawler could not afford them (and the time those cost)."""

from __future__ import annotations

import re
import time

import pytest
from lxml import etree, html

from structurer.rules.expressions import check_xpath
from structurer.rules.regexes import check_regex

# XPaths of the hand-written and analyzer-written rule files, and common hand-written ones
GOOD_XPATHS = [
    "//main//ul[contains(@class, 'products')]/li[@class='product']",
    "//nav[@aria-label='Pagination']//a[@aria-current='page']/parent::li/"
    "following-sibling::li[1]/a",
    "//nav[contains(concat(' ', normalize-space(@class), ' '), ' site-nav ')]//a",
    "//li[a[@aria-current='page']]/following-sibling::li[1]//a",
    "//dt[.='Designer']/following-sibling::dd",
    "//details[summary='Description']//p",
    "boolean(//fieldset[legend='Size'])",
    "//div[@class='sort-list']//h3/a | //div[@class='sort-list']//dt/a",
    "//li[.//span[@class='price']]",
    "(//h1)[1]",
    "//h1/following::p[1]",
    "//h1/text()[normalize-space()][1]",
    "re:test(//body/@class, 'product')",
    "count(//li) > 2",
]
# (XPath, what the message says)
BAD_XPATHS = [
    ("//*[count(//*) > 0]", "'//*' is an absolute path that searches the whole page, once for "
                            "every node the predicate tests"),
    ("//li[contains(., //h1)]", "'//h1' is an absolute path"),
    ("//li[/html/body]", "'/html/body' is an absolute path"),
    ("//*[ancestor::*//x]", "'ancestor::*//x' goes up and then down again"),
    ("//li[../..//span]", "'../..//span' goes up and then down again"),
    ("//li[(..)//span]", "'(..)//span' goes up and then down again"),
    ("//li[ancestor::ul/descendant::a]", "goes up and then down again"),
    ("//*[following::x]", "uses the following:: axis"),
    ("//*[preceding::x]", "uses the preceding:: axis"),
    ("//a[b[c[d]]]", "predicates nested more than 2 deep"),
    ("foo(//h1)", "unknown function foo()"),
    ("str:tokenize(//h1, ' ')", "unknown function str:tokenize()"),
    ("//a[@href=$url]", "XPath variables ($name) are not supported"),
    ("//a[", "invalid XPath"),
    ("//a" + "[@id]" * 2000, "characters long; at most 4000"),
]
# item-relative XPaths (list fields, the detail link): run once per item
ITEM_GOOD = [".//h2/a", "../span", "following-sibling::tr[1]//td", "string(.)",
             ".//div[@class='rating']/@title", ".//a[contains(@href, '/p/')]"]
ITEM_BAD = [(".//a | //b", "'//b' is an absolute path that searches the whole page, for every "
                           "list item"),
            ("ancestor::section//h2", "goes up and then down again"),
            ("(//span)[1]", "'//span' is an absolute path"),
            ("count(//li)", "'//li' is an absolute path"),
            ("following::span[1]", "uses the following:: axis")]


@pytest.mark.parametrize("xpath", GOOD_XPATHS)
def test_good_xpaths(xpath: str) -> None:
    assert check_xpath(f"  {xpath} ") == xpath


@pytest.mark.parametrize(("xpath", "message"), BAD_XPATHS, ids=[x[:30] for x, _ in BAD_XPATHS])
def test_bad_xpaths(xpath: str, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        check_xpath(xpath)


@pytest.mark.parametrize("xpath", ITEM_GOOD)
def test_item_relative_xpaths(xpath: str) -> None:
    assert check_xpath(xpath, per_item=True) == xpath


@pytest.mark.parametrize(("xpath", "message"), ITEM_BAD, ids=[x for x, _ in ITEM_BAD])
def test_item_relative_xpaths_stay_in_the_item(xpath: str, message: str) -> None:
    check_xpath(xpath)  # fine once per page
    with pytest.raises(ValueError, match=re.escape(message)):
        check_xpath(xpath, per_item=True)


@pytest.mark.parametrize(("xpath", "ok"), [
    ("//ul/li", True), ("(//li)[1]", True), ("//li | //div", True), ("/descendant::li[1]", True),
    ("//li/self::node()", True), ("//li/@id", False), ("//li/text()", False),
    ("//li | //a/@href", False), ("//attribute::id", False), ("count(//li)", False),
    ("string(//li)", False), ("boolean(//li)", False), ("//li = 'x'", False),
])
def test_what_an_item_xpath_selects(xpath: str, ok: bool) -> None:
    if ok:
        check_xpath(xpath, gives="elements")
    else:
        with pytest.raises(ValueError, match="it must select elements"):
            check_xpath(xpath, gives="elements")


def test_links_may_be_attributes_or_strings_but_not_numbers() -> None:
    for xpath in ["//a[@rel='next']", "//a[@rel='next']/@href", "string(//a/@href)"]:
        check_xpath(xpath, gives="links")
    for xpath, what in [("count(//a)", "a number"), ("boolean(//a)", "a boolean")]:
        with pytest.raises(ValueError, match=f"gives {what}; it must select links"):
            check_xpath(xpath, gives="links")


def test_refused_xpaths_are_the_costly_ones() -> None:
    """On a page of 3,000 elements the refused '//*[count(//*) > 0]' costs far more than
    its accepted, anchored form (and it grows with the square of the page)."""
    page = html.fromstring("<html><body>" + "<div><p>x</p><span>y</span></div>" * 1000
                           + "</body></html>")

    def seconds(xpath: str) -> float:  # the fastest of 3 runs: other processes run too
        compiled = etree.XPath(xpath)
        times = []
        for _ in range(3):
            started = time.perf_counter()
            compiled(page)
            times.append(time.perf_counter() - started)
        return min(times)

    anchored = seconds("//*[count(.//*) > 0]")
    with pytest.raises(ValueError):
        check_xpath("//*[count(//*) > 0]")
    assert seconds("//*[count(//*) > 0]") > 20 * anchored


GOOD_REGEXES = [r"([A-Z]{2}-\d+)", r"(\d+(?:[.,]\d+)*)", r"SKU:\s*(\S+)", r"—\s*(.+)$",
                r"(\w+\s)+$", r"(\d|,)+", r"(?:USD|EUR)+", r"((ab)*c)*d", r"(?:a++)+b",
                r"(.+?)\s*$", r"[^,]*,[^,]*,[^,]*,", r"(\d+)\s*x\s*(\d+)"]
BAD_REGEXES = [(r"(a+)+$", "a repeated group holds another repeat"),
               (r"(\w+\s?)+$", "a repeated group holds another repeat"),
               (r"(.*?,)+x", "a repeated group holds another repeat"),
               (r"(a*)*b", "a repeated group holds another repeat"),
               (r"(x+x+)+y", "a repeated group holds another repeat"),
               (r"(a|ab)+c", "alternatives inside a repeated group"),
               (r".*.*.*=", "three or more repeats in a row"),
               (r"a.*b.*c.*d", "three or more repeats in a row"),
               (r"([A-Z]{2}-\d+", "invalid regex")]


@pytest.mark.parametrize("pattern", GOOD_REGEXES)
def test_good_regexes(pattern: str) -> None:
    assert check_regex(pattern) == pattern


@pytest.mark.parametrize(("pattern", "message"), BAD_REGEXES, ids=[p for p, _ in BAD_REGEXES])
def test_bad_regexes(pattern: str, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        check_regex(pattern)


def test_refused_regexes_are_the_slow_ones() -> None:
    """'(a+)+$' on 24 characters that almost match takes as long as the accepted 'a+$'
    takes on a thousand."""
    def seconds(pattern: str, text: str) -> float:  # the fastest of 3 runs
        compiled = re.compile(pattern)
        times = []
        for _ in range(3):
            started = time.perf_counter()
            compiled.search(text)
            times.append(time.perf_counter() - started)
        return min(times)

    assert seconds(r"(a+)+$", "a" * 24 + "!") > 5 * seconds(r"a+$", "a" * 1_000 + "!")
