"""Pagination of list pages and links in rule results: the next list page's URL.

Input: a rule file's :class:`~structurer.rules.model.Pagination` (compiled once by
:func:`compile_pagination`), then per list page its tree, URL, base and item count.
Output: the next page's absolute URL or None (:func:`next_url`), and the first usable
link of an XPath result (:func:`first_link`). Every evaluation is timed by the page's
:class:`~structurer.replay.xpaths.Clock`.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import urljoin, urlsplit, urlunsplit

from lxml import etree

from structurer.replay.xpaths import Clock, XPathFn, compile_xpath
from structurer.rules.model import Pagination
from structurer.values import Base, link_target

__all__ = ["CompiledPagination", "compile_pagination", "first_link", "further_page", "guesses",
           "label", "next_url", "pattern_next"]

_LINKED: XPathFn = etree.XPath("//a[contains(@href, $needle)]/@href | "
                               "//link[contains(@href, $needle)]/@href")
_PARAM_PATTERN = re.compile(r"\?([\w.\-\[\]]+)=\{page\}")


@dataclass(frozen=True, slots=True)
class CompiledPagination:
    next_xpath: XPathFn | None
    pattern: str | None
    first_page: int
    param: re.Pattern[str] | None    # '?page={page}': the query parameter
    suffix: re.Pattern[str] | None   # 'page/{page}/', '-{page}.html': the URL's tail
    next_label: str = ""             # 'levels.list.pagination.next_xpath: XPath ...' (timing)
    method: str = "link"
    step: int = 1
    page_size: int | None = None


def compile_pagination(p: Pagination | None, where: str) -> CompiledPagination | None:
    """The next link's XPath compiled and the URL pattern as regexes (``where``: the
    pagination's place in the rule file, for messages)."""
    if p is None:
        return None
    param = suffix = None
    if p.url_pattern:
        found = _PARAM_PATTERN.fullmatch(p.url_pattern)
        if found:
            param = re.compile(rf"([?&]{re.escape(found[1])}=)(\d*)")
        else:
            suffix = re.compile(re.escape(p.url_pattern).replace(r"\{page\}", r"(\d+)") + "$")
    return CompiledPagination(
        compile_xpath(p.next_xpath, f"{where}.next_xpath") if p.next_xpath else None,
        p.url_pattern, p.first_page, param, suffix, label(f"{where}.next_xpath", p.next_xpath),
        p.method, p.step, p.page_size)


def label(where: str, expr: str | None) -> str:
    """How a timed expression is named in a RuleTimeout: its place and its text."""
    return f"{where}: XPath {expr!r}" if expr else ""


def first_link(selected: Any, base: Base) -> str | None:
    """The first usable link of an XPath result (element -> its href) made absolute."""
    for node in selected if isinstance(selected, list) else [selected]:
        href = node if isinstance(node, str) else link_target(node)
        url = base.join(href) if href else None
        if url is not None:
            return url
    return None


def _pattern_next(p: CompiledPagination, url: str) -> tuple[str, str]:
    """(URL of the page after ``url`` by the URL pattern, the text a link to it contains)."""
    assert p.pattern is not None
    url = url.split("#", 1)[0]
    if p.param is not None:
        found = p.param.search(url)
        value = int(found[2]) + p.step if found and found[2] else p.first_page
        key = p.pattern[1:].replace("{page}", str(value))
        if found:
            return url[:found.start(2)] + str(value) + url[found.end(2):], key
        return url + ("&" if "?" in url else "?") + key, key
    assert p.suffix is not None
    parts = urlsplit(url)
    found = p.suffix.search(parts.path if p.pattern.startswith("/") else url)
    value = int(found[1]) + p.step if found else p.first_page
    tail = p.pattern.replace("{page}", str(value))
    if p.pattern.startswith("/"):   # a tail of the first page's path (its query kept)
        path = parts.path[:found.start()] if found else parts.path.rstrip("/")
        return urlunsplit(parts._replace(path=path + tail, fragment="")), tail.lstrip("/")
    if found:
        return url[:found.start()] + tail, tail.lstrip("./")
    return urljoin(url, tail), tail.lstrip("./")


def next_url(p: CompiledPagination | None, root: Any, url: str, base: Base, items: int,
             items_per_page: float | None, clock: Clock) -> str | None:
    """The next list page. By a link: the next link, else the URL pattern's next page if
    the page links to it (or, without a next link rule, if the page is full by the
    baseline). By a pattern: its next page while this one has items and is full (its
    ``page_size``). A browser method (load more, scroll) loads every page in one."""
    if p is None or p.method in ("load_more", "scroll"):
        return None
    if p.method == "pattern":
        if p.pattern is None or not items or (p.page_size and items < p.page_size):
            return None
        return _pattern_next(p, url)[0]
    if p.next_xpath is not None:
        found = first_link(clock.run(p.next_label, p.next_xpath, root), base)
        if found == url:  # a page pointing at itself is the last one
            found = None
        if found is not None or p.pattern is None:
            return found
    candidate, needle = _pattern_next(p, url)
    linked = clock.run(f"{p.next_label or 'pagination'}: links to the next page", _LINKED, root,
                       needle=needle)
    if any(base.join(href) == candidate for href in linked):
        return candidate
    # no link to it: guess it only from a full page, and only when no next link is known
    if p.next_xpath is None and items_per_page and items and \
            items >= math.floor(items_per_page):
        return candidate
    return None


def guesses(p: CompiledPagination | None) -> bool:
    """Whether :func:`next_url` may give a page no link names (the URL pattern's next page
    after a full page): such a page answering 404 is where its category ends."""
    return p is not None and p.pattern is not None and (
        p.method == "pattern" or (p.method == "link" and p.next_xpath is None))


def pattern_next(p: CompiledPagination, url: str) -> str:
    """The page after ``url`` by the pagination's URL pattern (analysis walks with it)."""
    return _pattern_next(p, url)[0]


def further_page(p: CompiledPagination | None, url: str) -> bool:
    """Is ``url`` a numbered page of a list by the pagination's URL pattern (its page
    parameter set, or its path ending in the pattern's tail)? Such a URL is never a
    category of its own."""
    if p is None or p.pattern is None:
        return False
    url = url.split("#", 1)[0]
    if p.param is not None:
        found = p.param.search(url)
        return bool(found and found[2])
    assert p.suffix is not None
    return p.suffix.search(urlsplit(url).path if p.pattern.startswith("/") else url) is not None
