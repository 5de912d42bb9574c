"""Category discovery: every place a shop shows its categories, verified while analyzing.

Input: the analysis so far (the :class:`~structurer.learn.explore.Explorer` with every
page it fetched, the entry page, the chosen menu group, the list pages, the sampled
product pages, the breadcrumb XPath and the pagination URLs). Output: a
:class:`Discovery` — the category URL patterns (learned from the list pages fetched,
none matching a product URL or a further list page), the sources that gave category
URLs (menu, links on category pages, inline JSON state, product breadcrumbs, sitemaps),
each with how many it gave and how many of those were fetched as list pages, and
whether the menu is built by a script (then the category level needs a browser).

Candidates that no pattern covers yet are checked by fetching a few of each source
(a list page joins the examples and the patterns are learned again), so a source
counts only when it leads to pages that list items. The links a browser's rendering
of the entry page shows and the page as fetched lacks (a menu a script builds from a
JSON endpoint) are candidates of their own, checked first and then counted among the
category pages' links; when the patterns cover some of them, the menu is scripted.
Sitemaps (:mod:`structurer.learn.shopmaps`) are told apart by the patterns (products
match the product URL patterns). Deterministic: candidates, patterns and sources are
sorted.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import urldefrag, urljoin, urlsplit

from structurer.clean import parse_html
from structurer.learn.categories import LinkGroup, url_family
from structurer.learn.patterns import learn_patterns
from structurer.learn.shopmaps import shop_sitemaps
from structurer.learn.trails import trail_xpath
from structurer.logs import logger
from structurer.page.catlinks import inline_json_links, url_matches
from structurer.page.view import PageView
from structurer.replay.xpaths import compile_xpath
from structurer.rules.model import CategorySource, SourceKind
from structurer.values import link_target

if TYPE_CHECKING:
    from structurer.learn.explore import Explorer

log = logger(__name__)

__all__ = ["Discovery", "deeper_lists", "discover"]

_PAGE_SOURCES: tuple[SourceKind, ...] = ("menu", "links", "inline_json", "breadcrumb")


@dataclass
class Discovery:
    patterns: list[str] = field(default_factory=list)
    sources: list[CategorySource] = field(default_factory=list)
    scripted_menu: bool = False          # links only the rendered entry page shows
    notes: list[str] = field(default_factory=list)


def _same_host(url: str, base: str) -> bool:
    return urlsplit(url).netloc.lower() == urlsplit(base).netloc.lower()


class _Finder:
    """The candidates of each source and what is known of each URL."""

    def __init__(self, ex: Explorer, entry: PageView,
                 further: Callable[[str], bool] | None = None) -> None:
        self.ex, self.entry = ex, entry
        self.further = further or (lambda url: False)
        self.found: dict[SourceKind, list[str]] = {k: [] for k in (*_PAGE_SOURCES, "sitemap")}
        self.sitemaps: list[str] = []
        self.pages_with: Counter[str] = Counter()   # URL -> pages (or files) giving it

    def add(self, kind: SourceKind, urls: Sequence[str]) -> None:
        have = self.found[kind]
        for url in dict.fromkeys(urls):
            if _same_host(url, self.entry.url) and not self.further(url):
                self.pages_with[url] += 1
                if url not in have:
                    have.append(url)

    def lists(self, exclude: set[str]) -> list[str]:
        """List pages fetched (not the entry, a product page with a related grid, or a
        further page of a list)."""
        return sorted(u for u, v in self.ex.views.items()
                      if v.kind == "list" and u not in exclude and u != self.entry.url
                      and not self.further(u))


async def discover(ex: Explorer, entry: PageView, group: LinkGroup | None,
                   details: Sequence[PageView], breadcrumb: str | None,
                   pages: Sequence[str], menu: str | None = None,
                   further: Callable[[str], bool] | None = None) -> Discovery:
    """The category sources of the shop (see the module docstring); ``pages`` are the
    URLs of further list pages (pagination), which no category pattern may match, and
    ``further`` tells any such page by its URL (a page number in it: never a candidate
    nor an example); ``menu`` is the category level's link XPath (what it reaches needs
    no check)."""
    f = _Finder(ex, entry, further)
    if group is not None:
        f.add("menu", group.urls)
    if menu is not None:
        f.add("menu", _menu_links(f, menu))
    products = sorted({u for u, v in ex.views.items() if v.kind == "detail"}
                      | {p.url for p in details})
    against = sorted(set(products) | set(pages))
    skip = set(against)
    patterns = learn_patterns(f.lists(skip), against)
    breadcrumb = trail_xpath(details, entry, [_compile(p) for p in patterns], breadcrumb)
    _page_candidates(f, patterns, breadcrumb, details)
    await _read_sitemaps(f)
    # links only the rendered entry shows (a menu a script builds) are checked on their own
    scripted = [u for u in _scripted_links(ex, entry)
                if _same_host(u, entry.url) and not f.further(u)]
    patterns = await _check(f, scripted, patterns, skip, against, products)
    for kind in (*_PAGE_SOURCES, "sitemap"):
        patterns = await _check(f, f.found[kind], patterns, skip, against, products)
    f.add("links", scripted)
    patterns = await _verify(f, patterns, skip, against)
    compiled = [_compile(p) for p in patterns]
    out = Discovery(patterns=patterns)
    lists = set(f.lists(skip))
    cats = _categories(f, compiled, lists)
    out.sources = _sources(f, cats, breadcrumb, lists) if patterns else []
    # a menu built from the inline JSON state the page as fetched holds needs no browser:
    # the crawl reads that state (the inline_json source)
    held = set(_raw_inline_json(ex, entry)) if any(
        s.kind == "inline_json" for s in out.sources) else set()
    out.scripted_menu = any(url_matches(compiled, u) and u not in held for u in scripted)
    out.notes = _notes(cats)
    return out


async def deeper_lists(ex: Explorer, entry: PageView, departments: Sequence[PageView],
                       limit: int = 6) -> list[PageView]:
    """List pages one level down, when the menu leads only to department pages (links
    to sub-categories, no products): the departments' links (as rendered, when a
    browser rendered them), the entry's inline JSON and the sitemap's URLs shaped like the
    department URLs (extension, query keys; a department's first path segment first),
    spread, fetched, rendered when fetching finds no two lists (script-built grids)."""
    f = _Finder(ex, entry)
    for page in departments:
        rendered = ex.sampler.rendered_pages.get(page.url)
        view = PageView.from_html(rendered.final_url or page.url, rendered.text, ex.lexicon) \
            if rendered is not None else page
        f.add("links", [u for _, u in _all_links(view)])
    f.add("inline_json", _inline_json(entry))
    await _read_sitemaps(f)
    families = {url_family(p.url) for p in departments}
    shapes = {family[1:] for family in families}
    tops = {p.url for p in departments}
    seen = list(dict.fromkeys(u for k in ("links", "inline_json", "sitemap") for u in f.found[k]))
    todo = [u for u in seen if u not in ex.views and u not in tops
            and url_family(u)[1:] in shapes and urlsplit(u).path not in ("", "/")]
    # a sitemap lists products shaped alike too: /collections/tents, /products/tent-2
    own = [u for u in todo if url_family(u) in families]
    found: list[PageView] = []
    for tier in ([own, todo] if own and len(own) < len(todo) else [todo]):
        found += await _lists_among(ex, [u for u in tier if u not in ex.views], limit)
        if len(found) >= 2:
            break
    return found


async def _lists_among(ex: Explorer, todo: list[str], limit: int) -> list[PageView]:
    """The list pages among ``limit`` of ``todo``, spread (see :func:`deeper_lists`)."""
    room = ex.settings.analyze_max_pages - ex.report.fetched - 20
    if not todo or room <= 0:
        return []
    step = max(1, len(todo) // limit)
    picks = todo[::step][:min(limit, room)]
    fetched = await ex.views_of(picks, "list", record=False)
    found = [p for p in fetched if p.kind == "list"]
    if len(found) < 2:
        built = await ex.render_probes([p for p in fetched if p.kind != "list"])
        await ex.sampler.confirm("list", [p.url for p in built])
        found += built
    return found


def _scripted_links(ex: Explorer, entry: PageView) -> list[str]:
    """The links of the entry page as a browser rendered it that the page as fetched
    lacks (whichever of the two analysis read), in the rendered page's order; none
    when the entry was not fetched both ways."""
    raw, rendered = ex.sampler.both_ways(entry.url)
    if raw is None or rendered is None:
        return []
    have = {u for _, u in _all_links(PageView.from_html(raw.final_url or entry.url, raw.text,
                                                        ex.lexicon))}
    view = PageView.from_html(rendered.final_url or entry.url, rendered.text, ex.lexicon)
    return [u for u in dict.fromkeys(u for _, u in _all_links(view)) if u not in have]


def _raw_inline_json(ex: Explorer, entry: PageView) -> list[str]:
    """The URLs of the entry page's inline JSON state as fetched (no browser)."""
    raw = ex.sampler.both_ways(entry.url)[0]
    if raw is None:
        return []
    url = raw.final_url or entry.url
    return [u for _, u in inline_json_links(parse_html(raw.text, base_url=url), url)]


def _compile(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


def _menu_links(f: _Finder, menu: str) -> list[str]:
    """The URLs the menu XPath selects on the entry and the category-like pages."""
    xpath = compile_xpath(menu, "menu")
    out: list[str] = []
    for page in [f.entry] + [v for _, v in sorted(f.ex.views.items()) if v.kind == "list"]:
        for a in xpath(page.tree):
            href = a.get("href") if hasattr(a, "get") else None
            if href and not href.startswith(("#", "javascript:")):
                out.append(_absolute(page.url, href))
    return out


async def _verify(f: _Finder, patterns: list[str], pages: set[str],
                  against: list[str]) -> list[str]:
    """The patterns, tightened until the candidates they add to the menu's links hold
    up: a few not fetched yet (those most pages link to first: site-wide promotions,
    then the rest) are fetched (failures once more); one that is no category page (an
    error twice, a page neither listing products nor linking to a list page the entry
    does not link to) becomes a
    counter-example and the patterns are learned again (none left: the sources go)."""
    ex, bad = f.ex, list(against)
    menu = set(f.found["menu"])
    th = ex.lexicon.thresholds
    for _ in range(th.verify_rounds):
        compiled = [_compile(p) for p in patterns]
        if not compiled:
            return patterns
        picks: list[str] = []
        for kind in ("links", "inline_json", "breadcrumb", "sitemap"):
            todo = sorted((u for u in f.found[kind]
                           if u not in ex.views and u not in pages and u not in menu
                           and u not in bad and u not in picks
                           and url_matches(compiled, u)),
                          key=lambda u: (-f.pages_with[u], u))
            picks += todo[:th.checks_per_source]
        if not picks or ex.report.fetched + len(picks) > ex.settings.analyze_max_pages:
            return patterns
        await _fetch_candidates(f, picks, pages)
        failed = [u for u in picks if u not in ex.views]     # a 500 may be passing
        if failed and ex.report.fetched + len(failed) <= ex.settings.analyze_max_pages:
            await ex.views_of(failed, "list", record=False)
        wrong = [u for u in picks if not _category_page(f, u, compiled)]
        if not wrong:
            return patterns
        log.info("category pattern checks: %d of %d are no category page", len(wrong),
                 len(picks))
        bad += wrong
        patterns = learn_patterns(f.lists(pages), bad)
    return patterns


def _category_page(f: _Finder, url: str, compiled: list[re.Pattern[str]]) -> bool:
    """A fetched candidate lists products, or leads to a list page (a department)
    that the entry page does not link to itself (site-wide links prove nothing)."""
    view = f.ex.views.get(url)
    if view is None:
        return False
    if view.kind == "list":
        return True
    lists = {u for u, v in f.ex.views.items() if v.kind == "list"}
    chrome = {u for _, u in _all_links(f.entry)}
    return any(u in lists and u not in chrome and url_matches(compiled, u)
               for _, u in _all_links(view))


def _page_candidates(f: _Finder, patterns: list[str], breadcrumb: str | None,
                     details: Sequence[PageView]) -> None:
    """Links of the category-like pages fetched (entry, lists, department pages),
    inline JSON URLs, and the links of the product pages' breadcrumb trails."""
    ex = f.ex
    pages = [f.entry] + [v for u, v in sorted(ex.views.items())
                         if v.kind in ("list", "other") and u != f.entry.url]
    for page in pages:
        f.add("links", [u for _, u in _all_links(page)])
        f.add("inline_json", _inline_json(page))
    if breadcrumb:
        xpath = compile_xpath(breadcrumb, "breadcrumb")
        for page in sorted(details, key=lambda p: p.url):
            for a in xpath(page.tree):
                # a trail's links, or its items (li) holding them
                href = link_target(a) if hasattr(a, "get") else None
                if href:
                    f.add("breadcrumb", [_absolute(page.url, href)])


def _inline_json(page: PageView) -> list[str]:
    """The page's inline JSON URLs (read from its HTML: a view's scripts are emptied)."""
    if "<script" not in page.html:
        return []
    return [u for _, u in inline_json_links(parse_html(page.html, base_url=page.url),
                                            page.url)]


def _absolute(base: str, href: str) -> str:
    return urldefrag(urljoin(base, href.strip()))[0]


def _all_links(page: PageView) -> list[tuple[str, str]]:
    return [("", _absolute(page.url, a.get("href", ""))) for a in page.body.iter("a")
            if a.get("href") and not a.get("href", "").startswith(("#", "javascript:",
                                                                   "mailto:", "tel:"))]


async def _read_sitemaps(f: _Finder) -> None:
    """The URLs the shop's sitemaps list (:mod:`structurer.learn.shopmaps`)."""
    roots, urls = await shop_sitemaps(f.ex, f.entry.url)
    f.sitemaps += [u for u in roots if u not in f.sitemaps]
    f.add("sitemap", urls)


async def _check(f: _Finder, found: Sequence[str], patterns: list[str], pages: set[str],
                 against: list[str], products: list[str]) -> list[str]:
    """Fetch a few of a source's candidates (``found``) no pattern covers (and no product
    pattern claims); list pages among them join the examples and the patterns are
    learned again."""
    ex = f.ex
    compiled = [_compile(p) for p in patterns]
    product_patterns = [_compile(p) for p in learn_patterns(products, f.lists(pages))]
    todo = [u for u in found
            if u not in ex.views and u not in pages
            and not url_matches(compiled, u)
            and not url_matches(product_patterns, u)
            and urlsplit(u).path not in ("", "/")]
    if not todo:
        return patterns
    checks = ex.lexicon.thresholds.checks_per_source
    step = max(1, len(todo) // max(1, checks))
    picks = todo[::step][:checks]
    if ex.report.fetched + len(picks) > ex.settings.analyze_max_pages:
        return patterns
    await _fetch_candidates(f, picks, pages)
    return learn_patterns(f.lists(pages), against) or patterns


async def _fetch_candidates(f: _Finder, urls: list[str], pages: set[str]) -> None:
    """Candidates fetched as list pages; those listing nothing as fetched are rendered
    while no page but the entry has listed items or those that did were read rendered
    (category pages a script builds, reached only through product breadcrumbs)."""
    ex, shown = f.ex, f.ex.sampler.rendered_pages
    fetched = await ex.views_of(urls, "list", record=False)
    lists = f.lists(pages)
    if not lists or any(u in shown and ex.views[u].html == shown[u].text for u in lists):
        await ex.render_probes([p for p in fetched if p.kind != "list"])


def _categories(f: _Finder, compiled: list[re.Pattern[str]], lists: set[str]
                ) -> dict[SourceKind, list[str]]:
    """Per source, its candidates that are categories: those matching a pattern (each
    pattern covers list pages fetched, and no product or further list page); with no
    pattern, the menu's links (the crawl follows them all)."""
    return {kind: sorted(u for u in urls if url_matches(compiled, u)
                         or (kind == "menu" and not compiled))
            for kind, urls in f.found.items()}


def _sources(f: _Finder, cats: dict[SourceKind, list[str]], breadcrumb: str | None,
             lists: set[str]) -> list[CategorySource]:
    """The sources the crawl replays (the menu is the level's ``link_xpath``)."""
    out: list[CategorySource] = []
    for kind in ("links", "inline_json", "breadcrumb", "sitemap"):
        found = cats[kind]
        if not found:
            continue
        verified = sum(u in lists for u in found)
        if kind == "breadcrumb":
            out.append(CategorySource(kind=kind, xpath=breadcrumb, found=len(found),
                                      verified=verified))
        elif kind == "sitemap":
            out.append(CategorySource(kind=kind, sitemaps=sorted(f.sitemaps),
                                      found=len(found), verified=verified,
                                      listed=len(found)))
        else:
            out.append(CategorySource(kind=kind, found=len(found), verified=verified))
    return out


def _notes(cats: dict[SourceKind, list[str]]) -> list[str]:
    """The analyze summary's lines: categories per source, the sitemap's reached."""
    every = set().union(*cats.values())
    parts = [f"{k} {len(cats[k])}" for k in (*_PAGE_SOURCES, "sitemap") if cats[k]]
    notes = [f"categories found: {len(every)} ({', '.join(parts) or 'none'})"]
    listed = set(cats["sitemap"])
    if listed:
        by_links = listed & set().union(*(cats[k] for k in _PAGE_SOURCES))
        notes.append(f"sitemap lists {len(listed)} categories; the pages' links reach "
                     f"{len(by_links)} of them, the sitemap source all")
    return notes
