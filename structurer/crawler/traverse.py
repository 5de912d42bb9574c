"""One fetched page of a crawl, read: shared by ``structurer crawl`` and the Scrapy runtime.

Input: the compiled rules, the link guards, a task (URL, level, crawl depth, category
path) and the page's decoded text and final URL. Output: an
:class:`~structurer.crawler.frontier.Outcome` — the category and list pages it leads
to (guarded, deduplicated by their canonical URL through ``first_seen``, each with
its category path), its list items (each with its detail link when that may be
fetched), the next list page, or its detail record. Both runtimes call
:meth:`PageReader.read`, so they follow the same links and build the same paths;
only where the "already seen" set lives differs (a Python set, or Redis).

Category paths: the parent page's path plus the link's name, unless the link sits
under a category URL already registered (``/c/shoes/trail/`` under ``/c/shoes/``):
then that category's path plus the name. A link without a name (a sitemap's URL, one
of the inline JSON state, a bare breadcrumb link) gets an empty one, which its own page
fills with the title it shows when read (:meth:`PageReader.named`): a category is
named by what its list page says, never by its URL's slug.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any
from urllib.parse import urlsplit

from simhash import Simhash

from structurer.clean import parse_html
from structurer.crawler.frontier import (
    CATEGORY,
    DETAIL,
    LIST,
    Guards,
    Item,
    Link,
    Outcome,
    Task,
    canonical,
    well_formed,
)
from structurer.crawler.outcomes import GONE, transient
from structurer.crawler.products import STRUCTURED_PRICE, category_name, record_hash
from structurer.logs import logger
from structurer.page.catlinks import url_matches
from structurer.page.sitemaps import is_sitemap
from structurer.page.titles import title_of
from structurer.replay.discovery import (
    breadcrumb_links,
    compile_discovery,
    page_links,
    side_products,
    sitemap_links,
)
from structurer.replay.extract import (
    CompiledRules,
    ListResult,
    extract_categories,
    extract_detail,
    extract_item_links,
    extract_list,
)
from structurer.replay.pagination import guesses
from structurer.structured import JsonLd

log = logger(__name__)

__all__ = ["PageReader", "fingerprint"]

_TEXT_RUNS = re.compile(r">([^<]+)<")


def fingerprint(html: str) -> int:
    """Simhash (64 bits) of the text runs between the page's tags (a regular expression
    over the HTML: twice as fast as walking the parsed tree, the same features)."""
    texts = [t.strip() for t in _TEXT_RUNS.findall(html) if not t.isspace()]
    return int(Simhash(texts).value) if texts else 0


class PageReader:
    """Reads pages of one site's crawl into outcomes (see the module docstring).

    ``first_seen(key)`` says whether a category or list page's canonical URL is new to
    the crawl (and remembers it); ``first_refused(key)`` whether a refused link's is new
    to the crawl's refusals (and remembers it; default: this reader's own set), so that a
    refused link counts once per URL however many pages link it, in both runtimes;
    ``prefixes`` are the registered category URLs (host + path) with their paths.
    ``fingerprints``: fill the outcome's simhash and content digest (what a recrawl
    compares; a one-off crawl can skip them)."""

    def __init__(self, compiled: CompiledRules, guards: Guards,
                 first_seen: Callable[[str], bool], *, fingerprints: bool = True,
                 first_refused: Callable[[str], bool] | None = None) -> None:
        self.c, self.guards, self.first_seen = compiled, guards, first_seen
        self.first_refused = first_refused or _remembering(set())
        self.fingerprints = fingerprints
        self.budget = guards.s.rule_budget     # seconds the rules may take on one page
        price = compiled.rules.levels.detail.fields.get("price") \
            if compiled.rules.levels.detail is not None else None
        # where structured data keeps the price: the rule's path, else schema.org's Offer.price
        self.price_path = tuple((price.jsonld if price and price.jsonld
                                 else "offers.price").split("."))
        self.prefixes: list[tuple[str, tuple[str, ...]]] = []
        self.listed: set[int] = set()          # the item sets of list pages read so far
        self.refused: list[str] = []   # why links first refused on the last page were
        self.refused_keys: list[str] = []   # and their canonical URLs
        self.discovery = compile_discovery(compiled.rules)
        self.start_key = canonical(compiled.rules.start_url)
        self.sitemaps = 0                       # sitemap files read by this reader
        self.guessing = any(guesses(layout.pagination) for layout in compiled.lists)
        self.names = "name" in getattr(compiled.rules.levels.detail, "fields", {})

    # ----- links and category paths ---------------------------------------------------------
    def register(self, url: str, path: tuple[str, ...]) -> None:
        parts = urlsplit(url)
        if not parts.query and parts.path.endswith("/") and parts.path != "/":
            prefix = parts.netloc + parts.path
            self.prefixes = [(p, old) for p, old in self.prefixes if p != prefix]
            self.prefixes.append((prefix, path))

    def category_path(self, parent: tuple[str, ...], name: str, url: str) -> tuple[str, ...]:
        """The path of a category linked as ``name`` from a page of path ``parent`` (its
        name "" when the link has none: :meth:`named` fills it)."""
        parts = urlsplit(url)
        name = category_name(name, self.c.words)
        here = parts.netloc + parts.path
        under = [(p, path) for p, path in self.prefixes
                 if not parts.query and len(here) > len(p) and here.startswith(p)]
        if under:
            return (*max(under, key=lambda x: len(x[0]))[1], name)
        return (*parent, name)

    def named(self, task: Task, tree: Any) -> Task:
        """``task`` with its category named by its page's title (:func:`title_of`, its
        product count cut) when the link to it had no name; unnamed still when the page
        shows none (its products' category is then null, not a made-up name)."""
        if task.level != CATEGORY or not task.path or task.path[-1]:
            return task
        found = title_of(tree, self.c.words)
        name = category_name(found.text, self.c.words) if found else ""
        if not name:
            log.info("%s: a category page without a name (no link text, no title)", task.url)
            return task
        path = (*task.path[:-1], name)
        self.register(task.url, path)
        return replace(task, path=path)

    def listish(self, url: str, level: int, depth: int, path: tuple[str, ...],
                skipped: list[str]) -> Link | None:
        if not well_formed(url):
            skipped.append("malformed")
            return None
        key = canonical(url)
        if not self.first_seen(key):
            return None
        reason = self.guards.check(url, level, depth)
        if reason is None and not self.guards.count_pattern(url):
            reason = "pattern"
        if reason is not None:
            self.refuse(key, reason, skipped)
            return None
        return Link(key, url, level, depth, path)

    def refuse(self, key: str, reason: str, skipped: list[str]) -> None:
        """Count a refused link (in ``skipped`` and ``refused``) if its URL was not refused
        before: the crawl's statistics count URLs, not the pages that link them."""
        if self.first_refused(key):
            skipped.append(reason)
            self.refused.append(reason)
            self.refused_keys.append(key)

    # ----- one page ------------------------------------------------------------------------
    def failed(self, task: Task, kind: str) -> Outcome:
        """An unfetched page: asked again after a transient failure (a transport failure,
        or a status of ``retry_statuses``) while put back fewer than ``crawl_retries``
        times (both runtimes); a guessed next page that is gone ends its category
        (skipped as ``past_last_page``, not a failure)."""
        if task.level == LIST and kind in GONE and self.guessing:
            return Outcome(task, error="past_last_page")
        s = self.guards.s
        return Outcome(task, error=kind, retry=transient(kind, s.retry_statuses)
                       and task.tries < s.crawl_retries)

    def read(self, task: Task, text: str, url: str, size: int,
             body: bytes | None = None) -> Outcome:
        """The outcome of ``task`` whose page (decoded ``text``, ``size`` bytes: ``body``)
        ended at ``url`` after redirects. A category-level page that is a sitemap (the
        rule file's sitemap sources) is read as one."""
        d, self.refused, self.refused_keys = self.discovery, [], []
        if task.level == CATEGORY and d.sitemaps and body is not None and is_sitemap(body):
            return self._sitemap(task, body, url, size)
        tree = parse_html(text, url)
        task = self.named(task, tree)
        o = Outcome(task, fingerprint=fingerprint(text) if self.fingerprints else None,
                    size=size)
        skipped = o.skipped
        if task.level == DETAIL:
            o.detail = extract_detail(self.c, tree, url, budget=self.budget)
            o.content = record_hash(o.detail) if self.fingerprints else None
            for names, link in breadcrumb_links(d, tree, url, budget=self.budget):
                ln = self.listish(link, CATEGORY, 1, names, skipped)
                if ln is not None:
                    self.register(ln.url, ln.path)
                    o.links.append(ln)
            if o.detail.get("price") is not None:   # for the record's price check
                said = JsonLd(tree).lookup(self.price_path)[0]
                if said:
                    o.detail[STRUCTURED_PRICE] = said[0]
        else:
            lists = self.c.has_list and task.level in (CATEGORY, LIST)
            # the start page's product grids ("featured") are not a category's products
            # (unless product breadcrumbs lead to categories, or it has no category link)
            whole = lists and (task.level == LIST or task.depth > 0
                               or self.discovery.breadcrumb is not None)
            listed = extract_list(self.c, tree, url, budget=self.budget) if whole else None
            found = self._categories(task, tree, url, listed, lists)
            if lists and not found and listed is None:
                listed = extract_list(self.c, tree, url, budget=self.budget)
            for name, link in found:
                if not well_formed(link):       # one bad link does not cost the page
                    skipped.append("malformed")
                    continue
                ln = self.listish(link, CATEGORY, task.depth + 1,
                                  self.category_path(task.path, name, link), skipped)
                if ln is not None:
                    self.register(ln.url, ln.path)
                    o.links.append(ln)
            self._start_links(task, o)
            if listed is not None:
                self._items(task, listed, tree, url, o, skipped)
            if self.fingerprints:
                o.content = record_hash({"items": [i.fields for i in o.items or []],
                                         "categories": found, "next": o.next_url})
        return o

    def blank(self, o: Outcome, settled: bool = True) -> bool:
        """Whether a read page holds nothing its level's rules look for: a detail page
        without the product's name (when the rules read one); a list page, or a category
        page below the start, without an item, a link or a next page; a category or list
        page handed over before its network went quiet (not ``settled``) without an item.
        A rendered page like that is a script that did not fill it (its own request
        failed or came late): the crawl asks for it again
        (:class:`~structurer.crawler.session.Crawler`)."""
        if o.error is not None:
            return False
        if o.task.level == DETAIL:
            return self.names and o.detail is not None and not o.detail.get("name")
        if o.items or not self.c.has_list:
            return False
        return not settled or ((o.task.level == LIST or o.task.depth > 0) and not o.links
                               and o.next_url is None)

    def _categories(self, task: Task, tree: Any, url: str, listed: ListResult | None,
                    lists: bool) -> list[tuple[str, str]]:
        """A category page's links: the menu XPath's, then the sources' (URLs once). A
        link of one of the page's list items (``listed``'s, else read when ``lists``) is
        that product's, not a category (a menu XPath like ``main/ul//a`` learned where
        the only list in ``main`` was the tiles selects a grid's products too), unless a
        category URL pattern matches it."""
        if task.level != CATEGORY:
            return []
        found = extract_categories(self.c, tree, url, budget=self.budget)
        seen = {link for _, link in found}
        found += [(n, u) for n, u in page_links(self.discovery, tree, url) if u not in seen]
        if not found:
            return found
        links = [i.get("url") for i in listed.items] if listed is not None else \
            extract_item_links(self.c, tree, url, budget=self.budget) if lists else []
        if links is None:       # the items' URLs may be a field's: read them whole
            whole = extract_list(self.c, tree, url, budget=self.budget)
            links = [i.get("url") for i in whole.items]
        items = {canonical(link) for link in links
                 if isinstance(link, str) and well_formed(link)}
        return [(n, u) for n, u in found if not well_formed(u) or canonical(u) not in items
                or url_matches(self.discovery.patterns, u)]

    def _sitemap(self, task: Task, body: bytes, url: str, size: int) -> Outcome:
        """A sitemap's outcome: the sitemaps an index names, the category URLs it lists
        (at most ``max_sitemaps`` files per reader, ``max_sitemap_urls`` URLs a file)."""
        o = Outcome(task, size=size)
        s = self.guards.s
        self.sitemaps += 1
        got = sitemap_links(self.discovery, body, url, max_bytes=s.max_page_bytes,
                            max_urls=s.max_sitemap_urls)
        for more in got.more:
            if self.sitemaps + len(o.links) >= s.max_sitemaps:
                o.skipped.append("sitemaps")
                continue
            ln = self.listish(more, CATEGORY, task.depth, (), o.skipped)
            if ln is not None:
                o.links.append(ln)
        for link in got.categories:
            ln = self.listish(link, CATEGORY, max(task.depth, 1),
                              self.category_path((), "", link), o.skipped)
            if ln is not None:
                self.register(ln.url, ln.path)
                o.links.append(ln)
        return o

    def _start_links(self, task: Task, o: Outcome) -> None:
        """The start page leads to the rule file's sitemaps too (read as category pages)."""
        if task.depth != 0 or task.key != self.start_key:
            return
        for sitemap in self.discovery.sitemaps:
            ln = self.listish(sitemap, CATEGORY, 0, (), o.skipped)
            if ln is not None:
                o.links.append(ln)

    def _items(self, task: Task, result: ListResult, tree: Any, url: str, o: Outcome,
               skipped: list[str]) -> None:
        items: list[Item] = []
        for i, fields in enumerate(result.items):
            if all(v in (None, "", []) for v in fields.values()):
                continue    # a card holding nothing: a skeleton its script has not filled
            link = fields.get("url")
            if not isinstance(link, str) or not link or not well_formed(link):
                if isinstance(link, str) and link:   # the item stays, its link is skipped
                    skipped.append("malformed")
                items.append(Item(f"{task.key}#{i}", task.url, fields, False))
                continue
            key = canonical(link)
            reason = self.guards.check(link, DETAIL, task.depth) if self.c.has_detail \
                else "no detail level"
            if reason is not None and self.c.has_detail:
                self.refuse(key, reason, skipped)
            items.append(Item(key, link, fields, reason is None))
            if reason is None:
                o.links.append(Link(key, link, DETAIL, task.depth, task.path))
        o.items = items
        self._side_products(task, tree, url, o, skipped)
        o.is_list = bool(items) or task.level == LIST or result.next_url is not None
        o.next_url = result.next_url
        # a page listing exactly what an earlier page of its category did (a shop answering
        # any page number with its last page, or page 1) ends its pagination; another
        # category listing the same products (a parent's first page) does not
        listed = hash((tuple(task.path), tuple(i.key for i in items)))
        if listed in self.listed:
            o.next_url = None
        self.listed.add(listed)
        if o.next_url and items:
            nxt = self.listish(o.next_url, LIST, task.depth, task.path, skipped)
            if nxt is not None:
                o.links.append(nxt)

    def _side_products(self, task: Task, tree: Any, url: str, o: Outcome,
                       skipped: list[str]) -> None:
        """Product pages linked beside the list ("bestsellers" in a side column) are read
        too when product breadcrumbs are a category source: a category no page links may
        show only in the trails of products other lists show (their records are
        products of the shop like any other)."""
        if not self.c.has_detail or not o.items:
            return
        listed = {i.key for i in o.items}
        examples = [i.url for i in o.items if i.detail]
        for link in side_products(self.discovery, tree, url, examples):
            if not well_formed(link) or canonical(link) in listed:
                continue
            reason = self.guards.check(link, DETAIL, task.depth)
            if reason is not None:
                self.refuse(canonical(link), reason, skipped)
                continue
            o.links.append(Link(canonical(link), link, DETAIL, task.depth, ()))


def _remembering(seen: set[str]) -> Callable[[str], bool]:
    """``first(key)``: whether ``key`` is new to ``seen`` (added)."""
    def first(key: str) -> bool:
        new = key not in seen
        seen.add(key)
        return new
    return first
