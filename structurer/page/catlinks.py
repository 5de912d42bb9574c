"""Category links a page holds beyond its menus: anchors matching a URL pattern, URL
strings in its inline JSON state, and the keys URL patterns are matched against.

Input: an lxml tree and its URL (and compiled category URL patterns). Output:
``(name, absolute URL)`` pairs in document order, each URL once, on the page's own
host only. Inline JSON is what shops put in ``<script type="application/json">`` or
``<script>window.__STATE__ = {...};</script>``: every string value that looks like a
URL, named by a sibling ``name``/``title``/``label`` string. Pure; shared by analysis
(:mod:`structurer.learn.discovery`) and the crawl (:mod:`structurer.replay.discovery`).
:func:`home_link` tells the one link that is no category: the site's home page.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from typing import Any
from urllib.parse import parse_qsl, urldefrag, urljoin, urlsplit

from structurer.fetch.scope import same_site
from structurer.page.dom import link_href, text_of

__all__ = ["home_link", "inline_json_links", "matching_links", "url_key", "url_matches"]

_NAME_KEYS = ("name", "title", "label", "text")
_ASSIGN = re.compile(r"=\s*(?=[\[{])")
_JSON_TYPES = ("application/json", "application/ld+json", "text/javascript",
               "application/javascript", "")
_MAX_SCRIPT = 2_000_000          # characters of one script read for JSON
_URLISH = re.compile(r"^(?:https?://[^\s\"'<>]+|/(?!/)[^\s\"'<>]*)$")
_ASSETS = re.compile(r"\.(?:js|css|png|jpe?g|gif|webp|svg|ico|woff2?|ttf|json|xml|pdf|mp4)$",
                     re.IGNORECASE)


def url_key(url: str) -> str:
    """What category URL patterns match: the path, then ``?`` and the query's pairs
    sorted by key (so parameter order never matters)."""
    parts = urlsplit(url)
    pairs = sorted(parse_qsl(parts.query, keep_blank_values=True))
    query = "&".join(f"{k}={v}" for k, v in pairs)
    return (parts.path or "/") + (f"?{query}" if query else "")


def home_link(href: str | None, page_url: str) -> bool:
    """Whether ``href`` (on the page at ``page_url``) leads to the site's home page: its
    root, on the page's own site (:func:`~structurer.fetch.scope.same_site`: another
    host's root — a brand's or a marketplace's — is no home of this shop), with no query
    of its own. A query the page's own URL carries too (``/?lang=en`` on
    ``/p/1?lang=en``) is state the shop passes along every link, still home; any other
    (``/?page=2``, a search ``/?s=tent``, a category ``/?cat=5``) picks a page of its own."""
    if href is None:
        return False
    url = urljoin(page_url, href.strip())
    target = urlsplit(url)
    carried = set(parse_qsl(urlsplit(page_url).query, keep_blank_values=True))
    return target.path in ("", "/") and same_site(url, page_url) and \
        set(parse_qsl(target.query, keep_blank_values=True)) <= carried


def url_matches(patterns: Sequence[re.Pattern[str]], url: str) -> bool:
    key = url_key(url)
    return any(p.fullmatch(key) for p in patterns)


def _same_host(url: str, base: str) -> bool:
    return urlsplit(url).netloc.lower() == urlsplit(base).netloc.lower()


def matching_links(root: Any, url: str, patterns: Sequence[re.Pattern[str]]
                   ) -> list[tuple[str, str]]:
    """Every anchor of the page on its host whose URL matches a pattern."""
    out: dict[str, str] = {}
    for a in root.iter("a"):
        href = link_href(a)
        if not href:
            continue
        link = urldefrag(urljoin(url, href))[0]
        if link in out or not _same_host(link, url) or not url_matches(patterns, link):
            continue
        out[link] = text_of(a)[:120]
    return [(name, link) for link, name in out.items()]


def _script_json(text: str) -> Iterator[Any]:
    """The JSON values a script holds: the whole text, or what follows ``x =``."""
    text = text.strip()[:_MAX_SCRIPT]
    if not text:
        return
    decoder = json.JSONDecoder()
    if text[0] in "[{":
        try:
            yield decoder.raw_decode(text)[0]
            return
        except ValueError:
            pass
    for match in _ASSIGN.finditer(text):
        try:
            yield decoder.raw_decode(text, match.end())[0]
        except ValueError:
            continue


def _walk(value: Any, depth: int = 0) -> Iterator[tuple[str, str]]:
    """(name, URL-like string) of a JSON value, depth first, keys in their order."""
    if depth > 40:
        return
    if isinstance(value, dict):
        name = next((str(value[k]) for k in _NAME_KEYS if isinstance(value.get(k), str)), "")
        for item in value.values():
            if isinstance(item, str):
                if _URLISH.match(item):
                    yield name, item
            else:
                yield from _walk(item, depth + 1)
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, str):
                if _URLISH.match(item):
                    yield "", item
            else:
                yield from _walk(item, depth + 1)


def inline_json_links(root: Any, url: str) -> list[tuple[str, str]]:
    """(name, absolute URL) of the URL strings in the page's inline JSON, same host
    only, no asset files (scripts, images, styles, data)."""
    out: dict[str, str] = {}
    for script in root.iter("script"):
        if script.get("src") or (script.get("type") or "").strip().lower() not in _JSON_TYPES:
            continue
        for value in _script_json(script.text or ""):
            for name, raw in _walk(value):
                link = urldefrag(urljoin(url, raw))[0]
                if link in out or not _same_host(link, url) or _ASSETS.search(
                        urlsplit(link).path):
                    continue
                out[link] = name[:120]
    return [(name, link) for link, name in out.items()]
