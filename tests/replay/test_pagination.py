"""Replaying pagination rules: URL patterns stepped by their number (pages, offsets, path
tails after a path with or without a slash), a pattern followed only while pages are
full, browser methods giving no next URL, and the rule model's checks of each method."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from structurer.clean import parse_html
from structurer.replay.pagination import (
    compile_pagination,
    further_page,
    next_url,
    pattern_next,
)
from structurer.replay.xpaths import Clock
from structurer.rules.model import Pagination
from structurer.values import Base


@pytest.mark.parametrize(("pattern", "first", "step", "url", "want"), [
    ("?page={page}", 2, 1, "http://s/c/x", "http://s/c/x?page=2"),
    ("?page={page}", 2, 1, "http://s/c/x?sort=a&page=4", "http://s/c/x?sort=a&page=5"),
    ("?start={page}", 24, 24, "http://s/c/x/", "http://s/c/x/?start=24"),
    ("?start={page}", 24, 24, "http://s/c/x/?start=24", "http://s/c/x/?start=48"),
    ("?p={page}", 1, 1, "http://s/c/x", "http://s/c/x?p=1"),
    ("/page/{page}/", 2, 1, "http://s/collections/x", "http://s/collections/x/page/2/"),
    ("/page/{page}/", 2, 1, "http://s/c/x/", "http://s/c/x/page/2/"),
    ("/page/{page}/", 2, 1, "http://s/c/x/page/3/", "http://s/c/x/page/4/"),
    ("/page/{page}", 2, 1, "http://s/c/x?sort=a", "http://s/c/x/page/2?sort=a"),
    ("page/{page}/", 2, 1, "http://s/c/x/", "http://s/c/x/page/2/"),
], ids=["query", "query-kept", "offset", "offset-next", "zero-based", "path-no-slash",
        "path-slash", "path-next", "path-query", "relative"])
def test_pattern_steps(pattern: str, first: int, step: int, url: str, want: str) -> None:
    compiled = compile_pagination(Pagination(method="pattern", url_pattern=pattern,
                                             first_page=first, step=step), "p")
    assert compiled is not None and pattern_next(compiled, url) == want


@pytest.mark.parametrize(("pattern", "url", "want"), [
    ("?page={page}", "http://s/collections/lips?page=3", True),
    ("?page={page}", "http://s/collections/lips?sort=a&page=2#top", True),
    ("?page={page}", "http://s/collections/lips", False),
    ("?page={page}", "http://s/collections/lips?pages=3", False),
    ("?start={page}", "http://s/c/x/?start=24", True),
    ("/page/{page}/", "http://s/c/x/page/3/", True),
    ("/page/{page}/", "http://s/c/page-turners/", False),
    ("-{page}.html", "http://s/c/list-3.html", True),
], ids=["query", "query-kept", "first", "other-param", "offset", "path", "path-no", "tail"])
def test_a_numbered_page_of_a_list_is_told_by_its_url(pattern: str, url: str, want: bool
                                                      ) -> None:
    """Discovery never takes such a URL (a script pager's page list in inline JSON) for a
    category of its own."""
    compiled = compile_pagination(Pagination(method="pattern", url_pattern=pattern), "p")
    assert further_page(compiled, url) is want
    assert not further_page(None, url)


def _next(rule: Pagination, items: int) -> str | None:
    url = "http://s/c/x?page=2"
    tree = parse_html("<html><body><ul><li>a</li></ul></body></html>", url)
    return next_url(compile_pagination(rule, "p"), tree, url, Base(url), items, None,
                    Clock(url, None))


def test_a_pattern_is_followed_while_pages_are_full() -> None:
    rule = Pagination(method="pattern", url_pattern="?page={page}", page_size=24)
    assert _next(rule, 24) == "http://s/c/x?page=3"
    assert _next(rule, 23) is None      # the last page
    assert _next(rule, 0) is None       # an empty page ends it too
    assert _next(rule.model_copy(update={"page_size": None}), 5) == "http://s/c/x?page=3"


def test_browser_methods_give_no_next_url() -> None:
    assert _next(Pagination(method="scroll"), 24) is None
    assert _next(Pagination(method="load_more", more_xpath="//button"), 24) is None


@pytest.mark.parametrize(("fields", "message"), [
    ({"method": "pattern"}, "needs 'url_pattern'"),
    ({"method": "load_more"}, "needs 'more_xpath'"),
    ({"method": "link"}, "needs 'next_xpath' or 'url_pattern'"),
    ({"method": "pages"}, "Input should be"),
    ({"method": "pattern", "url_pattern": "?page={page}", "step": 0}, "greater than or equal"),
])
def test_each_method_needs_its_parts(fields: dict[str, object], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        Pagination.model_validate(fields)
