"""Pages for analysis, fetched the way each level needs: "pre-fetch, compare, mark".

Input: URLs with the level they are sampled for (category, list, detail), an HTTP
fetcher, settings and the lexicon's render threshold. Output: the page to analyze
(raw HTML where a level is static, the browser-rendered DOM where it is not) and,
per level, a :class:`RenderDecision` with the similarities that decided it. While a
level is undecided its pages are fetched both ways and compared; from two pages on
the level is marked and later pages are fetched one way only. Once rules are learned,
:meth:`RenderSampler.by_content` decides the level again from what those rules find
in its pages as fetched and as rendered (a level of one sample page is decided then).

Every page fetched, either way, must lie in :attr:`RenderSampler.scope` (the hosts
analysis may visit, see :meth:`RenderSampler.confine`): one that does not is an
``offsite`` :class:`~structurer.errors.FetchError`, and nothing is requested. The browser
comes from :func:`structurer.fetch.open_fetcher`, started at the first page rendered.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from structurer.config import Settings
from structurer.errors import FetchError
from structurer.fetch import open_fetcher
from structurer.fetch.base import Expand, Fetcher, Page
from structurer.fetch.scope import HostScope, strip_userinfo
from structurer.learn.render import (
    MIN_PAGES,
    Count,
    added_links,
    decide_level,
    override,
    render_similarity,
)
from structurer.logs import logger
from structurer.rules.model import RenderDecision
from structurer.schema import RenderMode

if TYPE_CHECKING:
    from structurer.fetch.browser import BrowserFetcher

log = logger(__name__)


class RenderSampler:
    """Raw and rendered fetching for one analysis run; closes its browser at the end."""

    def __init__(self, http: Fetcher, settings: Settings, threshold: float,
                 option: RenderMode = RenderMode.AUTO, content_ratio: float = 0.5,
                 new_links: int = 6, min_pages: int = MIN_PAGES) -> None:
        self.http = http
        self.settings = settings
        self.threshold = threshold
        self.content_ratio = content_ratio
        self.new_links = new_links
        self.min_pages = min_pages
        self.option = option
        self.decisions: dict[str, RenderDecision] = {}
        self.samples: dict[str, list[tuple[str, str, str]]] = defaultdict(list)
        # pages recorded for an undecided level take turns in the order they were asked
        # for, so the samples and the decision do not follow which fetch finished first
        self._turns: dict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        self.raw: dict[str, Page] = {}
        self.rendered_pages: dict[str, Page] = {}
        self.browser: BrowserFetcher | None = None
        self.unavailable: str | None = None    # why no browser could be used
        self.renders = 0                       # renderings, a list loaded whole too ...
        self.rerenders = 0                     # ... and renderings asked for again
        self.restless = False                  # a page stayed unsettled through its retries
        self.scope = HostScope(settings.allowed_hosts)

    def confine(self, sites: list[str]) -> None:
        """Analysis stays on these sites (``host`` or ``host:port``) unless the settings
        name the allowed hosts themselves."""
        if not self.settings.allowed_hosts:
            self.scope = HostScope(sites)

    def _check(self, url: str) -> str:
        """``url`` without userinfo: the key pages are kept by; refused when off the scope."""
        key = strip_userinfo(url)
        if self.scope and not self.scope.allows(key):
            raise FetchError(f"off-site host (analysis stays on {self.scope.describe()})",
                             url=key, kind="offsite")
        return key

    # ----- the two ways to fetch -------------------------------------------------------
    async def fetch_raw(self, url: str) -> Page:
        key = self._check(url)
        if key not in self.raw:
            self.raw[key] = await self.http.fetch(url)
        return self.raw[key]

    async def rendered(self, url: str) -> Page | None:
        """The browser's DOM of ``url`` (None when no browser can be had)."""
        key = self._check(url)
        if key in self.rendered_pages:
            return self.rendered_pages[key]
        if self.unavailable is not None:
            return None
        if self.browser is None:
            browser = open_fetcher(RenderMode.BROWSER, self.settings)
            try:
                await browser.start()
            except FetchError as error:
                await browser.close()
                if self.option == RenderMode.BROWSER:
                    raise
                self.unavailable = error.message
                log.warning("render modes not checked: %s", error.message)
                return None
            self.browser = browser
        browser = self.browser
        page = await self._settled(lambda: browser.fetch(key))
        self.renders += 1
        self.rendered_pages[key] = page
        return page

    async def expanded(self, url: str, expand: Expand) -> Page | None:
        """``url`` rendered with its further items loaded (load more, scroll); None when
        no browser can be had. A rendering of its own, counted in ``renders`` (its
        clicks and scrolls are rounds of that rendering, not renders)."""
        if await self.rendered(url) is None or self.browser is None:
            return None
        browser, key = self.browser, self._check(url)
        page = await self._settled(lambda: browser.fetch_expanded(key, expand))
        self.renders += 1
        return page

    async def _settled(self, fetch: Callable[[], Awaitable[Page]]) -> Page:
        """A browser's page (:meth:`_twice`), rendered again, at most ``crawl_retries``
        times, while the browser hands it over before its network went quiet (a busy
        machine; the crawl asks again for such a page too), so that the rules learned
        from it and the level's render decision do not depend on machine load. The last
        rendering stands as it is; once a page stayed unsettled through its retries the
        site's pages are taken as they come (they never go quiet: polling, a chat
        widget), so such a site costs ``crawl_retries`` renders more, not three times
        its renders."""
        page = await self._twice(fetch)
        tries = self.settings.crawl_retries if self.restless else 0
        while not page.settled and tries < self.settings.crawl_retries:
            self.rerenders += 1
            page = await self._twice(fetch)
            tries += 1
        self.restless = self.restless or not page.settled
        return page

    async def _twice(self, fetch: Callable[[], Awaitable[Page]]) -> Page:
        """A browser's page, asked for once more after a 5xx (as HTTP retries one) or
        after running out of time (a busy machine renders slowly): what analysis learns
        should not depend on how loaded the machine was."""
        try:
            return await fetch()
        except FetchError as error:
            if error.kind != "render_timeout" and (error.kind != "http"
                                                   or (error.status or 0) < 500):
                raise
        self.rerenders += 1
        return await fetch()

    def both_ways(self, url: str) -> tuple[Page | None, Page | None]:
        """``url`` as fetched and as rendered, where analysis has them (a page is found
        by the URL asked for or the one it ended at)."""
        def find(pages: dict[str, Page]) -> Page | None:
            key = strip_userinfo(url)
            return pages.get(key) or next(
                (p for k, p in sorted(pages.items()) if (p.final_url or k) == key), None)
        return find(self.raw), find(self.rendered_pages)

    async def close(self) -> None:
        if self.browser is not None:
            await self.browser.close()
            self.browser = None

    # ----- per level ---------------------------------------------------------------------
    def decision(self, level: str) -> RenderDecision:
        if self.option != RenderMode.AUTO:
            return override(self.option)
        return self.decisions.get(level, RenderDecision())

    def by_content(self, level: str, count: Count) -> RenderDecision:
        """Decide ``level`` again from its sample pages with ``count``, what its rules
        select on a page: browser also when the rendered pages hold far more of it."""
        if self.option == RenderMode.AUTO and self.samples[level]:
            self.decisions[level] = decide_level(
                self.samples[level], self.threshold, count=count,
                content_ratio=self.content_ratio, min_pages=1)
        return self.decision(level)

    def _record(self, level: str, url: str, raw: Page, rendered: Page) -> float:
        if any(u == url for u, _, _ in self.samples[level]):
            return render_similarity(raw.text, rendered.text)
        self.samples[level].append((url, raw.text, rendered.text))
        if len(self.samples[level]) >= self.min_pages and level not in self.decisions:
            self.decisions[level] = decide_level(self.samples[level], self.threshold,
                                                 min_pages=self.min_pages)
        return render_similarity(raw.text, rendered.text)

    async def page(self, url: str, level: str, *, record: bool = True) -> Page:
        """The page to analyze for ``level``: rendered where the level needs a browser.

        ``record=False`` for pages not known to belong to ``level`` (a category link may
        lead to a department page or to a list): they are compared, not counted. A list
        page whose rendered DOM links many pages the fetched one does not (a grid built
        by a script beside a server-rendered side list) is analyzed as rendered even when
        the structures are alike: its main list is the one a visitor sees.
        """
        if self.option == RenderMode.STATIC:
            return await self.fetch_raw(url)
        if self.option == RenderMode.BROWSER:
            page = await self.rendered(url)
            assert page is not None
            return page
        if record and level not in self.decisions:
            async with self._turns[level]:   # FIFO: taken in call order, before any await
                return await self._auto(url, level, record)
        return await self._auto(url, level, record)

    async def _auto(self, url: str, level: str, record: bool) -> Page:
        """:meth:`page` with ``render: auto``: both ways and compared while ``level`` is
        undecided, then the one way it was decided."""
        decided = self.decisions.get(level)
        if decided is not None:
            if decided.mode == RenderMode.BROWSER:
                page = await self.rendered(url)
                return page if page is not None else await self.fetch_raw(url)
            return await self.fetch_raw(url)
        raw = await self.fetch_raw(url)
        rendered = await self.rendered(url)
        if rendered is None:
            return raw
        similarity = (self._record(level, raw.url, raw, rendered) if record
                      else render_similarity(raw.text, rendered.text))
        if similarity < self.threshold or (
                level == "list" and added_links(raw.text, rendered.text) >= self.new_links):
            return rendered
        return raw

    def restart(self, level: str) -> None:
        """Forget ``level``'s samples and decision: it is judged again on other pages."""
        if self.option == RenderMode.AUTO:
            self.samples.pop(level, None)
            self.decisions.pop(level, None)

    def judge_on(self, level: str, samples: list[tuple[str, str, str]]) -> None:
        """Judge ``level`` on these samples (url, as fetched, as rendered) from now on."""
        if self.option == RenderMode.AUTO and samples != self.samples[level]:
            self.restart(level)
            self.samples[level] = list(samples)

    async def confirm(self, level: str, urls: list[str]) -> None:
        """Make sure ``level`` is decided from these pages (two of them, fetched both ways
        at the same time)."""
        if self.option != RenderMode.AUTO or level in self.decisions:
            return
        todo = [u for u in dict.fromkeys(urls)
                if not any(u == s for s, _, _ in self.samples[level])]
        while todo and len(self.samples[level]) < 2 and self.unavailable is None:
            batch, todo = todo[: 2 - len(self.samples[level])], todo[2 - len(self.samples[level]):]
            if self.browser is None:
                await self.rendered(batch[0])        # starts the browser once
                if self.unavailable is not None:
                    return
            pairs = await asyncio.gather(*(self._both(u) for u in batch))
            for url, pair in zip(batch, pairs, strict=True):
                if pair is not None:
                    self._record(level, url, *pair)

    async def _both(self, url: str) -> tuple[Page, Page] | None:
        """The page as fetched, then as rendered: one after the other, so that which of
        them meets a page's first answer (a 500 the next request does not get) is the
        same in every run."""
        try:
            raw = await self.fetch_raw(url)
            rendered = await self.rendered(url)
        except FetchError:
            return None
        return (raw, rendered) if rendered is not None else None

