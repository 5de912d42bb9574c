"""Browser fetching with Playwright: Chromium renders pages built by JavaScript.

Input: URLs and a :class:`~structurer.config.Settings` (``chromium_path``,
``browser_timeout``, ``browser_pages``, ``user_agent``, ``obey_robots``, ``delay``,
``allowed_hosts``...). Output: :class:`~structurer.fetch.base.Page` objects with
``rendered=True`` whose ``text`` is the rendered DOM (``page.content()``), or a
one-line :class:`~structurer.errors.FetchError` (with a ``kind``), or its
:class:`~structurer.errors.RenderTimeout` (kind ``render_timeout``).

What every fetch goes through, in order:

1. the URL checks and the robots.txt verdict of :class:`~structurer.fetch.http.HttpFetcher`
   (an HttpFetcher with the same settings asks for robots.txt, so both fetchers agree),
   and the per-host spacing of ``delay`` / ``Crawl-delay``;
2. a tab from a small pool (at most ``browser_pages`` open, reused between fetches);
   every request of the tab passes :class:`~structurer.fetch.guard.RouteGuard`: images,
   fonts and media are refused unless the fetcher was built with ``block=()``, and
   documents, XHR/fetch and the like go nowhere off ``allowed_hosts`` (without them,
   off the site of the URL fetched) — refused before Chromium sends them;
3. navigation (the page's redirects followed hop by hop, each checked like 1. before
   it is requested, at most ``max_redirects``), then waiting until the page has loaded
   and its network is idle (no request for 500 ms) or, with ``wait_for_xpath``, until
   that XPath matches; ``browser_timeout`` caps navigation and waiting together
   (counted from taking a tab, so queueing for the pool is free) and
   :class:`RenderTimeout` reports running out of it. A page that arrived but never
   finishes loading or never goes quiet (polling, chat widgets) is taken as it stands
   after half of ``browser_timeout`` rather than lost (its ``settled`` is False: a crawl
   asks again for such a list page that shows no item);
4. the final URL (a script may have navigated) is checked again against the hosts and
   robots.txt; a page larger than ``max_page_bytes`` is refused.

Chromium is found and launched by :mod:`structurer.fetch.chromium` and never
downloaded: a missing binary is one ``FetchError`` (kind ``browser``) saying where it was
looked for and how to install one. A URL's ``user:password@`` is dropped (the
browser sends no credentials). Everything opened (Playwright driver, browser,
context, tabs, the robots HttpFetcher) is closed by :meth:`BrowserFetcher.close`, which
``async with`` calls also on errors, Ctrl-C and task cancellation; a tab whose fetch
failed or was cancelled is closed at once instead of going back to the pool.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import Counter
from collections.abc import AsyncIterator, Collection, Iterable
from contextlib import asynccontextmanager
from dataclasses import asdict, dataclass, field
from http import HTTPStatus
from types import TracebackType
from typing import Any

from playwright.async_api import (
    Browser,
    BrowserContext,
    Playwright,
    ViewportSize,
    async_playwright,
)
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page as Tab
from playwright.async_api import TimeoutError as PlaywrightTimeout

from structurer.config import Settings
from structurer.errors import FetchError, RenderTimeout
from structurer.fetch.base import Expand, Page, fetch_each
from structurer.fetch.chromium import first_line, launch
from structurer.fetch.guard import RouteGuard, ms_left, settle
from structurer.fetch.http import HttpFetcher
from structurer.fetch.robots import origin_of
from structurer.fetch.scope import strip_userinfo
from structurer.fetch.tab import expand_items, page_html
from structurer.logs import logger

log = logger(__name__)

#: Playwright resource types refused by default: they never change the DOM's structure.
BLOCKED_RESOURCES = frozenset({"image", "font", "media"})
VIEWPORT: ViewportSize = {"width": 1366, "height": 900}
__all__ = ["BLOCKED_RESOURCES", "BrowserFetcher", "BrowserStats"]


@dataclass
class BrowserStats:
    """Counters for progress displays and tests."""

    pages: int = 0            # fetch() calls that returned a Page
    tabs_opened: int = 0      # tabs created over the fetcher's life
    in_flight: int = 0        # fetches holding a tab now
    max_in_flight: int = 0    # the most at once
    blocked: int = 0          # requests refused (images, fonts, media)
    refused: Counter[str] = field(default_factory=Counter)  # off-site, too large ... by kind
    unsettled: int = 0        # loaded pages taken before their network went idle
    errors: Counter[str] = field(default_factory=Counter)

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["errors"] = dict(self.errors)
        data["refused"] = dict(self.refused)
        return data


class BrowserFetcher:
    """The Playwright :class:`Fetcher`: ``async with BrowserFetcher(s) as f: await f.fetch(u)``."""

    def __init__(self, settings: Settings | None = None, *, raise_for_status: bool = True,
                 block: Collection[str] = BLOCKED_RESOURCES) -> None:
        self.settings = settings or Settings()
        self.raise_for_status = raise_for_status
        self.block = frozenset(block)
        self.stats = BrowserStats()
        self.http = HttpFetcher(self.settings)   # robots.txt and URL checks
        self.guard = RouteGuard(self.http.scope, block=self.block,
                                max_redirects=self.settings.max_redirects,
                                max_bytes=self.settings.max_page_bytes,
                                timeout=self.settings.browser_timeout, on_refuse=self._refused)
        self._playwright: Playwright | None = None
        self._browser: Browser | None = None
        self._context: BrowserContext | None = None
        self._idle: list[Tab] = []
        self._slots = asyncio.Semaphore(self.settings.browser_pages)
        self._start_lock = asyncio.Lock()
        self._host_locks: dict[str, asyncio.Lock] = {}
        self._last_start: dict[str, float] = {}

    # ----- lifecycle -------------------------------------------------------------------
    async def __aenter__(self) -> BrowserFetcher:
        await self.start()
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        await self.close()

    @property
    def running(self) -> bool:
        return self._context is not None

    async def start(self) -> None:
        """Launch Chromium (once); :meth:`fetch` calls this itself when needed."""
        if self._context is not None:
            return
        async with self._start_lock:
            if self._context is not None:
                return
            try:
                self._playwright = await async_playwright().start()
                self._browser = await launch(self._playwright, self.settings)
                self._context = await self._new_context()
            except BaseException as error:
                await self.close()
                if isinstance(error, PlaywrightError):
                    raise FetchError(f"Chromium did not start: {first_line(error)}",
                                     kind="browser") from None
                raise
            log.debug("Chromium %s started", self._browser.version)

    async def _new_context(self) -> BrowserContext:
        assert self._browser is not None
        context = await self._browser.new_context(
            user_agent=self.settings.user_agent, viewport=VIEWPORT, service_workers="block")
        await self.guard.install(context)
        return context

    async def _new_tab(self, shared: BrowserContext) -> Tab:
        """A tab in the shared context with a session, else in a context of its own: no
        page sees the cookies another page's answers set (pages fetch-order free)."""
        if self.settings.session:
            return await shared.new_page()
        return await (await self._new_context()).new_page()

    async def _drop(self, tab: Tab) -> None:
        """Close a tab, and its own context (without a session)."""
        own = tab.context if tab.context is not self._context else None
        await tab.close()
        if own is not None:
            await own.close()

    async def close(self) -> None:
        """Close tabs, context, browser, the Playwright driver and the robots fetcher."""
        tabs, self._idle = self._idle, []
        for tab in tabs:
            await _quietly(self._drop(tab))
        context, self._context = self._context, None
        browser, self._browser = self._browser, None
        playwright, self._playwright = self._playwright, None
        if context is not None:
            await _quietly(context.close())
        if browser is not None:
            await _quietly(browser.close())
        if playwright is not None:
            await _quietly(playwright.stop())
        await self.http.close()

    # ----- public API ------------------------------------------------------------------
    async def fetch(self, url: str, wait_for_xpath: str | None = None) -> Page:
        """Render ``url``; wait for network idle, or for ``wait_for_xpath`` to match."""
        return await self._fetch(url, wait_for_xpath, None)

    async def fetch_expanded(self, url: str, expand: Expand) -> Page:
        """Render ``url``, then load its further items as ``expand`` says (click "load
        more" or scroll, until no new items arrive, at most ``expand.rounds`` times);
        ``Page.rounds`` is how many rounds brought items."""
        return await self._fetch(url, None, expand)

    async def _fetch(self, url: str, wait_for_xpath: str | None, expand: Expand | None
                     ) -> Page:
        started = time.monotonic()
        url = strip_userinfo(url)
        try:
            await self._check(url, url, redirected=False)
            await self.start()
            await self._space(url)
            async with self._tab() as tab:
                page = await self._render(tab, url, wait_for_xpath, started, expand)
        except FetchError as error:
            self.stats.errors[error.kind] += 1
            raise
        self.stats.pages += 1
        return page

    async def fetch_all(self, urls: Iterable[str], wait_for_xpath: str | None = None
                        ) -> list[Page | FetchError]:
        """Render concurrently (at most ``browser_pages`` at once); errors in place."""
        return await fetch_each(lambda url: self.fetch(url, wait_for_xpath), urls)

    # ----- one fetch -------------------------------------------------------------------
    async def _check(self, url: str, target: str, *, redirected: bool) -> None:
        """HttpFetcher's URL checks and robots.txt verdict; errors name ``url``."""
        self.http.check_url(url, target, redirected=redirected)
        if not self.settings.obey_robots:
            return
        try:
            rules = await self.http.robots.rules_for(target)
        except FetchError as error:   # the host is unreachable: say so for this page
            raise FetchError(error.message, url=url, kind=error.kind,
                             status=error.status) from None
        if not rules.allowed(target, self.settings.user_agent):
            where = f" (redirected to {target})" if redirected else ""
            why = f"; {rules.reason}" if rules.reason else ""
            raise FetchError(f"disallowed by robots.txt{where}{why}", url=url, kind="robots")

    async def _space(self, url: str) -> None:
        """Space render starts to one host by ``delay`` or robots.txt ``Crawl-delay``."""
        delay = await self.http.crawl_delay(url) if self.settings.obey_robots else \
            self.settings.delay
        if delay <= 0:
            return
        key = origin_of(url)
        async with self._host_locks.setdefault(key, asyncio.Lock()):
            wait = self._last_start.get(key, float("-inf")) + delay - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            self._last_start[key] = time.monotonic()

    @asynccontextmanager
    async def _tab(self) -> AsyncIterator[Tab]:
        """A pooled tab; one that failed (or was cancelled) is closed, not reused."""
        async with self._slots:
            context = self._context
            if context is None:  # closed meanwhile
                raise FetchError("the browser was closed", kind="browser")
            if self._idle:
                tab = self._idle.pop()
                if not self.settings.session:
                    await tab.context.clear_cookies()   # nothing from its last page
            else:
                tab = await self._new_tab(context)
                self.stats.tabs_opened += 1
            self.stats.in_flight += 1
            self.stats.max_in_flight = max(self.stats.max_in_flight, self.stats.in_flight)
            reuse = False
            try:
                yield tab
                reuse = True
            finally:
                self.stats.in_flight -= 1
                if reuse and self._context is context and not tab.is_closed():
                    self._idle.append(tab)
                else:
                    await _quietly(self._drop(tab))

    async def _render(self, tab: Tab, url: str, xpath: str | None, started: float,
                      expand: Expand | None = None) -> Page:
        limit = self.settings.browser_timeout
        rounds, settled = 0, True
        deadline = time.monotonic() + limit  # from getting a tab: queueing is not rendering
        try:
            response = await self.guard.open(
                tab, url, wait_until="commit", timeout=lambda: ms_left(deadline),
                check=lambda target: self._check(url, target, redirected=True))
            if xpath:
                await tab.wait_for_selector(f"xpath={xpath}", state="attached",
                                            timeout=ms_left(deadline))
            elif not await settle(tab, min(deadline, time.monotonic() + limit / 2)):
                self.stats.unsettled += 1
                settled = False
            if expand is not None:   # the loading gets its own time, like the page
                rounds = await expand_items(tab, expand, limit, self.settings.round_wait)
            text = await page_html(tab, time.monotonic() + limit)
        except PlaywrightTimeout:
            what = f"XPath {xpath} did not match" if xpath else "page did not finish loading"
            raise RenderTimeout(f"{what} within {limit:g}s", url=url) from None
        except PlaywrightError as error:
            message = first_line(error)
            raise FetchError(message, url=url, kind=_kind(message)) from None
        final_url = tab.url
        if final_url != url:
            await self._check(url, final_url, redirected=True)
        status = response.status if response is not None else 200
        headers = await response.all_headers() if response is not None else {}
        if not 200 <= status < 300 and self.raise_for_status:
            reason = (response.status_text if response is not None else "") or _phrase(status)
            raise FetchError(f"HTTP {status} {reason}", url=url, kind="http", status=status)
        if len(text) > self.settings.max_page_bytes:
            raise FetchError(f"rendered page larger than {self.settings.max_page_bytes}"
                             " characters", url=url, kind="too_large")
        return Page(url=url, final_url=final_url, status=status, body=text.encode("utf-8"),
                    text=text, encoding="utf-8", headers=headers, rendered=True,
                    elapsed=time.monotonic() - started, rounds=rounds,
                    settled=settled)

    def _refused(self, kind: str) -> None:
        if kind == "blocked":
            self.stats.blocked += 1
        else:
            self.stats.refused[kind] += 1


def _kind(message: str) -> str:
    """FetchError kind of a Chromium network error (``net::ERR_...``)."""
    if "ERR_NAME_NOT_RESOLVED" in message or "ERR_NAME_RESOLUTION_FAILED" in message:
        return "dns"
    if "ERR_CERT_" in message or "ERR_SSL_" in message:
        return "tls"
    return "connection"


def _phrase(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return ""


async def _quietly(closing: Any) -> None:
    """Await a close/stop call, ignoring errors from what is already gone."""
    with contextlib.suppress(PlaywrightError, OSError, RuntimeError):
        await closing
