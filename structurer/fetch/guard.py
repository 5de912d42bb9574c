"""The request route every Chromium tab goes through: hosts checked before a request leaves.

Input: a :class:`~structurer.fetch.scope.HostScope`, the resource types to refuse, the
redirect and size limits. Output: a Playwright route installed on a browser context
(:meth:`RouteGuard.install`) and :meth:`RouteGuard.open`, which navigates a tab; both
the browser fetcher and the review's camera use them.

What the route does with each request Chromium makes:

* a refused resource type (images, fonts, media unless asked for) is aborted;
* scripts, stylesheets, images, fonts and media the page embeds are let through
  (shops load them from CDNs);
* everything else — the page's documents (frames too), XHR/fetch, event streams,
  beacons — is aborted unless its host is in scope (the scope's hosts, or with none
  the site of the URL the tab was opened for);
* documents and XHR/fetch are requested by the route itself without following
  redirects, because Chromium follows a redirect without showing it to the route:
  the main page's redirect is handed to :meth:`RouteGuard.open`, which checks the new
  URL (hosts, robots.txt: the caller's ``check``) before asking for it; a frame's or an
  XHR's redirect is followed inside the route, each hop checked. A main page larger
  than ``max_bytes`` is refused. WebSockets off the hosts are closed unopened.

A page refused a navigation of its own (a script sending it elsewhere) stays as it was,
but Chromium may then never fire its ``load`` event: :func:`settle` waits for load and
network quiet only up to a limit and then takes the page as it stands.
"""

from __future__ import annotations

import time
import weakref
from collections.abc import Awaitable, Callable, Collection
from typing import Any, Literal
from urllib.parse import urljoin

from playwright.async_api import APIResponse, BrowserContext, Request, Response, Route
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page as Tab
from playwright.async_api import TimeoutError as PlaywrightTimeout

from structurer.errors import FetchError
from structurer.fetch.scope import HostScope
from structurer.logs import logger

log = logger(__name__)

__all__ = ["EMBEDDED", "RouteGuard", "ms_left", "settle"]

#: Resource types a page embeds to look right; their hosts are not checked.
EMBEDDED = frozenset({"script", "stylesheet", "image", "font", "media", "texttrack"})
#: Requested by the route itself so that their redirects can be checked.
FETCHED = frozenset({"document", "xhr", "fetch"})
REDIRECTS = frozenset({301, 302, 303, 307, 308})
WaitUntil = Literal["commit", "domcontentloaded", "load", "networkidle"]
Check = Callable[[str], Awaitable[None]]

#: (what a transport error says, how to abort, failure kind)
_FAILURES = (("ENOTFOUND", "namenotresolved", "dns"), ("EAI_AGAIN", "namenotresolved", "dns"),
             ("ECONNREFUSED", "connectionrefused", "connection"),
             ("ECONNRESET", "connectionreset", "connection"),
             ("TIMEOUT", "timedout", "timeout"), ("TIMED OUT", "timedout", "timeout"),
             ("CERT", "failed", "tls"), ("SSL", "failed", "tls"), ("TLS", "failed", "tls"))


class RouteGuard:
    """One context's route: see the module docstring. ``refused`` counts by kind."""

    def __init__(self, scope: HostScope, *, block: Collection[str] = (), max_redirects: int = 5,
                 max_bytes: int | None = None, timeout: float = 30.0,
                 on_refuse: Callable[[str], None] | None = None) -> None:
        self.scope = scope
        self.block = frozenset(block)
        self.max_redirects = max_redirects
        self.max_bytes = max_bytes
        self.timeout_ms = timeout * 1000
        self.on_refuse = on_refuse or (lambda kind: None)
        self._start: weakref.WeakKeyDictionary[Tab, str] = weakref.WeakKeyDictionary()
        self._redirect: weakref.WeakKeyDictionary[Tab, str] = weakref.WeakKeyDictionary()
        # per tab: why its page navigation was refused (kind, message, URL)
        self._why: weakref.WeakKeyDictionary[Tab, tuple[str, str, str]] = \
            weakref.WeakKeyDictionary()

    async def install(self, context: BrowserContext) -> None:
        await context.route("**/*", self._route)
        await context.route_web_socket(self._socket_refused, _close_socket)

    # ----- navigation --------------------------------------------------------------------
    async def open(self, tab: Tab, url: str, *, wait_until: WaitUntil,
                   timeout: Callable[[], float], check: Check) -> Response | None:
        """``tab.goto(url)``, following the page's redirects here one hop at a time, each
        new URL given to ``check`` (which raises to refuse it) before it is requested.
        ``timeout`` gives the milliseconds left for each hop."""
        self._start[tab] = url
        self._redirect.pop(tab, None)
        self._why.pop(tab, None)
        target, hops = url, 0
        while True:
            try:
                return await tab.goto(target, wait_until=wait_until, timeout=timeout())
            except PlaywrightError:
                why = self._why.pop(tab, None)
                if why is not None and why[2] == target:
                    raise FetchError(why[1], url=url, kind=why[0]) from None
                hop = self._redirect.pop(tab, None)
                if hop is None:
                    raise
            hops += 1
            if hops > self.max_redirects:
                raise FetchError(f"too many redirects ({hops})", url=url, kind="redirects")
            await check(hop)
            target = hop

    # ----- the route ---------------------------------------------------------------------
    def _socket_refused(self, url: str) -> bool:
        http = "http" + url[2:] if url.startswith("ws") else url
        return not self.scope or not self.scope.allows(http)

    async def _route(self, route: Route) -> None:
        request = route.request
        try:
            kind = request.resource_type
            if kind in self.block:
                self.on_refuse("blocked")
                await route.abort("blockedbyclient")
                return
            if kind in EMBEDDED:
                await route.fallback()
                return
            tab, main = _tab_of(request)
            start = self._start.get(tab) if tab is not None else None
            if kind in FETCHED:
                await self._fetched(route, tab if main else None, start)
            elif self.scope.allows(request.url, start=start):
                await route.fallback()
            else:
                await self._refuse(route, None, "offsite", f"off-site host in {request.url}")
        except PlaywrightError as error:  # the tab or browser closed meanwhile
            log.debug("route of %s: %s", request.url, error)

    async def _fetched(self, route: Route, main: Tab | None, start: str | None) -> None:
        """Ask for a document or XHR without following redirects (see the module doc)."""
        url, method = route.request.url, None
        for hop in range(self.max_redirects + 1):
            if not self.scope.allows(url, start=start):
                what = "redirect to" if hop else "host in"
                await self._refuse(route, main, "offsite", f"off-site {what} {url}")
                return
            try:
                response = await route.fetch(url=url, method=method, max_redirects=0,
                                             timeout=self.timeout_ms)
            except PlaywrightError as error:
                await self._failed(route, main, error)
                return
            location = response.headers.get("location")
            if response.status not in REDIRECTS or not location:
                await self._deliver(route, main, response)
                return
            target = urljoin(url, location.strip())
            if main is not None:
                self._redirect[main] = target   # open() checks it, then asks for it
                await route.abort("aborted")
                return
            if response.status == 303 or (response.status in (301, 302)
                                          and route.request.method == "POST"):
                method = "GET"
            url = target
        await self._refuse(route, main, "redirects", f"too many redirects ({hop + 1})")

    async def _deliver(self, route: Route, main: Tab | None, response: APIResponse) -> None:
        if main is not None and self.max_bytes is not None:
            declared = response.headers.get("content-length", "")
            size = int(declared) if declared.isdigit() else 0
            if size <= self.max_bytes and (not declared.isdigit()
                                           or "content-encoding" in response.headers):
                size = len(await response.body())   # what it unpacks to
            if size > self.max_bytes:
                await self._refuse(route, main, "too_large",
                                   f"page larger than {self.max_bytes} bytes ({size})")
                return
        await route.fulfill(response=response)

    async def _failed(self, route: Route, main: Tab | None, error: PlaywrightError) -> None:
        """A transport error: abort so that Chromium reports it as its own."""
        message = str(error)
        code, kind = "failed", "connection"
        for needle, abort_code, failure in _FAILURES:
            if needle in message.upper():
                code, kind = abort_code, failure
                break
        if main is not None and kind == "tls":
            self._why[main] = (kind, f"TLS error: {message.splitlines()[0]}", route.request.url)
        await route.abort(code)

    async def _refuse(self, route: Route, main: Tab | None, kind: str, message: str) -> None:
        self.on_refuse(kind)
        log.debug("refused: %s", message)
        if main is not None:
            self._why[main] = (kind, message, route.request.url)
        # a navigation merely "aborted" leaves the page as it was (a script's redirect
        # elsewhere); "blocked" would replace it by Chromium's error page
        navigation = route.request.is_navigation_request()
        await route.abort("aborted" if navigation else "blockedbyclient")


def ms_left(deadline: float) -> float:
    """Milliseconds until ``deadline`` (at least 1: Playwright reads 0 as 'no limit')."""
    return max(1.0, (deadline - time.monotonic()) * 1000)


async def settle(tab: Tab, until: float) -> bool:
    """Wait for the page's load event, then for its network to go idle (no request for
    500 ms), but not past ``until``; False when the page is taken as it stands then (it
    never goes quiet: polling, chat widgets; or its load was cut short)."""
    try:
        await tab.wait_for_load_state("load", timeout=ms_left(until))
        await tab.wait_for_load_state("networkidle", timeout=ms_left(until))
    except PlaywrightTimeout:
        return False
    return True


def _tab_of(request: Request) -> tuple[Tab | None, bool]:
    """The tab a request belongs to, and whether it is that tab's page navigation."""
    try:
        frame = request.frame
    except PlaywrightError:  # a worker's request has no frame
        return None, False
    return frame.page, request.is_navigation_request() and frame.parent_frame is None


async def _close_socket(socket: Any) -> None:
    """A WebSocket refused: closed without connecting to the server."""
    await socket.close()
