"""The category sources of a rule file, replayed on one page (beyond the menu XPath).

Input: :class:`~structurer.rules.model.SiteRules` (its category level's ``url_patterns``
and ``sources``), compiled once by :func:`compile_discovery`, then per page an lxml tree
and its URL, or a sitemap's bytes. Output: category links as ``(path, absolute URL)``:

* on a category page: every link matching a pattern (``links``) and every URL string
  of the inline JSON state matching one (``inline_json``), each named by its own text;
* on a product page: the links of the breadcrumb trail (``breadcrumb``), each with the
  trail's names up to it as its path (matching a pattern, when the level has any);
* on a list page, when breadcrumbs are a source: the product links outside its list
  (``side_products``: "bestsellers", "recently viewed"), whose pages' trails may name
  categories no page links;
* in a sitemap: the sitemaps an index names (``more``) and the category URLs it lists.

Pure; the crawler (:mod:`structurer.crawler.traverse`) turns these into queued links.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import urldefrag, urlsplit

from structurer.page.catlinks import inline_json_links, matching_links, url_matches
from structurer.page.dom import link_href
from structurer.page.linkclusters import url_shape
from structurer.page.sitemaps import parse_sitemap
from structurer.replay.xpaths import PAGE_BUDGET, Clock, XPathFn, compile_xpath
from structurer.rules.model import SiteRules
from structurer.values import Base, element_text, link_target

__all__ = ["CompiledDiscovery", "SitemapLinks", "breadcrumb_links", "compile_discovery",
           "page_links", "side_products", "sitemap_links"]

Found = list[tuple[tuple[str, ...], str]]


@dataclass(frozen=True)
class CompiledDiscovery:
    patterns: tuple[re.Pattern[str], ...] = ()
    links: bool = False
    inline_json: bool = False
    breadcrumb: XPathFn | None = None
    breadcrumb_label: str = ""
    sitemaps: tuple[str, ...] = ()

    @property
    def active(self) -> bool:
        return self.links or self.inline_json or self.breadcrumb is not None or bool(
            self.sitemaps)


@dataclass(frozen=True)
class SitemapLinks:
    more: list[str]          # sitemaps an index names
    categories: list[str]    # category URLs listed (matching the patterns)
    listed: int              # URLs the file lists


def compile_discovery(rules: SiteRules) -> CompiledDiscovery:
    level = rules.levels.category
    if level is None:
        return CompiledDiscovery()
    kinds = {s.kind for s in level.sources}
    crumb = next((s.xpath for s in level.sources if s.kind == "breadcrumb" and s.xpath), None)
    where = "levels.category.sources.breadcrumb.xpath"
    sitemaps = [u for s in level.sources if s.kind == "sitemap" for u in s.sitemaps]
    return CompiledDiscovery(
        tuple(re.compile(p) for p in level.url_patterns), "links" in kinds,
        "inline_json" in kinds, compile_xpath(crumb, where) if crumb else None,
        f"{where}: XPath {crumb!r}" if crumb else "", tuple(dict.fromkeys(sitemaps)))


def page_links(d: CompiledDiscovery, root: Any, url: str) -> list[tuple[str, str]]:
    """(name, URL) of a category page's links and inline JSON URLs matching a pattern."""
    found: dict[str, str] = {}
    if d.links and d.patterns:
        for name, link in matching_links(root, url, d.patterns):
            found.setdefault(link, name)
    if d.inline_json and d.patterns:
        for name, link in inline_json_links(root, url):
            if url_matches(d.patterns, link):
                found.setdefault(link, name)
    return [(name, link) for link, name in found.items()]


def breadcrumb_links(d: CompiledDiscovery, root: Any, url: str, *,
                     budget: float | None = PAGE_BUDGET) -> Found:
    """(trail names up to the link, URL) of each breadcrumb link that is a category."""
    if d.breadcrumb is None:
        return []
    base = Base(url)
    selected = Clock(url, budget).run(d.breadcrumb_label, d.breadcrumb, root)
    out: Found = []
    names: list[str] = []
    for node in selected if isinstance(selected, list) else []:
        if isinstance(node, str) or not hasattr(node, "get"):
            continue
        href = link_target(node)
        link = base.join(href) if href else None
        if link is None or urlsplit(link).netloc.lower() != urlsplit(url).netloc.lower():
            continue
        if d.patterns and not url_matches(d.patterns, link):
            continue          # "Home", a brand or the product itself
        names.append(element_text(node))   # "" for none: its page names it when read
        if all(link != u for _, u in out):
            out.append((tuple(names), link))
    return out


def _product_shape(url: str) -> tuple[str, bool] | None:
    """What a product URL shares with the shop's other product URLs (host, first folder,
    depth, extension, query keys, trailing slash); None when that is nothing but the
    host and depth (``/some-product``: a footer page looks the same)."""
    shape = url_shape(url)
    if not any(shape.split("|")[1:2] + shape.split("|")[3:]):
        return None
    return shape, urlsplit(url).path.endswith("/")


def side_products(d: CompiledDiscovery, root: Any, url: str,
                  items: list[str]) -> list[str]:
    """The page's links to products outside its list: URLs of the shape of its items'
    detail links (``items``, absolute) that are no item and match no category pattern,
    in document order, once. Only a breadcrumb source needs them (their product pages'
    trails); [] otherwise."""
    if d.breadcrumb is None:
        return []
    shapes = {s for s in map(_product_shape, items) if s is not None}
    if not shapes:
        return []
    base, host = Base(url), urlsplit(url).netloc.lower()
    seen = set(items)
    out: list[str] = []
    for a in root.iter("a"):
        href = link_href(a)
        link = base.join(href) if href else None
        link = urldefrag(link)[0] if link else None
        if not link or link in seen or urlsplit(link).netloc.lower() != host:
            continue
        seen.add(link)
        if _product_shape(link) in shapes and not (d.patterns
                                                   and url_matches(d.patterns, link)):
            out.append(link)
    return out


def sitemap_links(d: CompiledDiscovery, body: bytes, url: str, *, max_bytes: int,
                  max_urls: int) -> SitemapLinks:
    """What one fetched sitemap gives the crawl."""
    sitemap = parse_sitemap(body, url, max_bytes=max_bytes, max_urls=max_urls)
    if sitemap.index:
        return SitemapLinks(sitemap.urls, [], len(sitemap.urls))
    cats = [u for u in sitemap.urls if d.patterns and url_matches(d.patterns, u)]
    return SitemapLinks([], cats, len(sitemap.urls))
