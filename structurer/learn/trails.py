"""The breadcrumb trail of product pages, as a source of category links.

Input: the sampled product pages, the entry page, the category URL patterns learned so
far and the detail level's breadcrumb XPath (when the field was learned). Output: an
XPath selecting the links of the trail, or None. The field's XPath is kept unless it
selects site chrome: the same links on every product page, in the same order, that a
container of the entry page holds too (a top menu looks like a trail to the field
learner when category names are all it has to go by). Then the trail is the smallest
container of each product page whose links are all category URLs (or the home page),
at least one of them, and which no container of the entry page repeats. Pure and
deterministic (pages sorted by URL, containers in document order).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from urllib.parse import urldefrag, urljoin, urlsplit

from lxml.html import HtmlElement

from structurer.learn import xpaths
from structurer.page.catlinks import url_matches
from structurer.page.view import PageView
from structurer.values import link_target

__all__ = ["links_of", "navigation", "trail_xpath"]

_CONTAINERS = ("ol", "ul", "nav", "div", "p", "span")


def _urls(links: Sequence[object], base: str) -> tuple[str, ...]:
    out = []
    for a in links:
        # a trail's links, or its items (li) holding them
        href = link_target(a) if isinstance(a, HtmlElement) else None
        if href and not href.startswith(("#", "javascript:")):
            out.append(urldefrag(urljoin(base, href.strip()))[0])
    return tuple(out)


def _groups(page: PageView) -> list[tuple[HtmlElement, tuple[str, ...]]]:
    """Containers with 2..12 links, and their links' URLs in order."""
    out = []
    for el in page.body.iter(*_CONTAINERS):
        urls = links_of(el, page.url)
        if 2 <= len(urls) <= page.lexicon.thresholds.trail_links:
            out.append((el, urls))
    return out


def navigation(pages: Sequence[PageView]) -> set[tuple[str, ...]]:
    """The link lists every page shows alike (the same links, in the same order): site
    navigation, never a product's breadcrumb trail, which varies with the product. Empty
    for fewer than two pages."""
    if len(pages) < 2:
        return set()
    common: set[tuple[str, ...]] | None = None
    for page in pages:
        groups = {urls for _, urls in _groups(page)}
        common = groups if common is None else common & groups
    return common or set()


def links_of(el: HtmlElement, base: str) -> tuple[str, ...]:
    """The addresses a block's links lead to, in order (as :func:`navigation` keys them)."""
    return _urls(el.findall(".//a"), base)


def _is_chrome(xpath: str, pages: Sequence[PageView], entry: set[tuple[str, ...]]) -> bool:
    found = {_urls(xpaths.evaluate(xpath, p.tree), p.url) for p in pages}
    return len(pages) >= 2 and len(found) == 1 and found <= entry


def _trail_of(page: PageView, patterns: Sequence[re.Pattern[str]],
              entry: set[tuple[str, ...]]) -> HtmlElement | None:
    best: tuple[int, HtmlElement] | None = None
    for el, urls in _groups(page):
        if urls in entry:
            continue
        cats = [u for u in urls if url_matches(patterns, u)]
        rest = [u for u in urls if u not in cats]
        if not cats or any(urlsplit(u).path not in ("", "/") for u in rest):
            continue
        size = sum(1 for _ in el.iter())
        if best is None or size < best[0]:
            best = (size, el)
    return best[1] if best else None


def trail_xpath(pages: Sequence[PageView], entry: PageView,
                patterns: Sequence[re.Pattern[str]], field: str | None) -> str | None:
    """The XPath of the trail's links (see the module docstring)."""
    pages = sorted(pages, key=lambda p: p.url)
    chrome = {urls for _, urls in _groups(entry)}
    if field is not None and not _is_chrome(field, pages, chrome):
        return field
    if not patterns or not pages:
        return field
    for page in pages:
        el = _trail_of(page, patterns, chrome)
        if el is None:
            continue
        for candidate in (f"{x}//a" for x in xpaths.absolute_candidates(el)):
            hits = [_urls(xpaths.evaluate(candidate, p.tree), p.url) for p in pages]
            good = sum(1 <= len(h) <= entry.lexicon.thresholds.trail_links and h not in chrome
                       and any(url_matches(patterns, u) for u in h) for h in hits)
            if good >= 0.8 * len(pages):
                return candidate
    return None
