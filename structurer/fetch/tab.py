"""What a rendered tab is asked once its page has loaded: its further items (click "load
more" or scroll until no new items arrive) and its HTML (waiting out a script's navigation).

Used by :class:`~structurer.fetch.browser.BrowserFetcher`; Playwright errors and timeouts
propagate to it, which turns them into a :class:`~structurer.errors.FetchError`.
"""

from __future__ import annotations

import asyncio
import time

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page as Tab
from playwright.async_api import Request
from playwright.async_api import TimeoutError as PlaywrightTimeout

from structurer.fetch.base import Expand
from structurer.fetch.guard import ms_left

_COUNT = """xp => { try {
  return document.evaluate(xp, document, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null)
    .snapshotLength; } catch (e) { return -1; } }"""
_SCRIPT_REQUESTS = frozenset({"xhr", "fetch"})


async def _count(tab: Tab, xpath: str) -> int:
    return int(await tab.evaluate(_COUNT, xpath))


class _InFlight:
    """The tab's script requests (XHR, fetch) asked for and not answered yet: a round of
    "load more" or scrolling whose request is still out is waiting for the server, not
    finished, however slow the machine or the server is."""

    def __init__(self, tab: Tab) -> None:
        self.tab, self.open = tab, 0
        tab.on("request", self._started)
        tab.on("requestfinished", self._ended)
        tab.on("requestfailed", self._ended)

    def _started(self, request: Request) -> None:
        self.open += request.resource_type in _SCRIPT_REQUESTS

    def _ended(self, request: Request) -> None:
        if request.resource_type in _SCRIPT_REQUESTS:
            self.open = max(0, self.open - 1)

    def close(self) -> None:
        self.tab.remove_listener("request", self._started)
        self.tab.remove_listener("requestfinished", self._ended)
        self.tab.remove_listener("requestfailed", self._ended)


async def expand_items(tab: Tab, expand: Expand, limit: float, wait: float) -> int:
    """Click "load more" (or scroll to the bottom) until no new items arrive: the
    rounds that brought items. Stops when the control is gone or hidden, a round
    brings nothing (see :func:`_round`, which waits ``wait`` seconds of quiet), or
    ``expand.rounds`` are done; each round may take ``limit`` seconds."""
    count = await _count(tab, expand.item_xpath)
    rounds = 0
    requests = _InFlight(tab)
    try:
        while rounds < expand.rounds and count >= 0:
            deadline = time.monotonic() + limit
            if expand.method == "load_more":
                control = tab.locator(f"xpath={expand.more_xpath}").first
                if not await control.count() or not await control.is_visible():
                    break
                try:
                    await control.click(timeout=ms_left(min(deadline, time.monotonic() + 5)))
                except (PlaywrightTimeout, PlaywrightError):
                    break
            else:
                await tab.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
            now = await _round(tab, expand.item_xpath, count, requests, deadline, wait)
            if now <= count:
                break
            count, rounds = now, rounds + 1
            await asyncio.sleep(0.2)    # let the page finish the round (its pager redrawn)
    finally:
        requests.close()
    return rounds


async def _round(tab: Tab, item_xpath: str, count: int, requests: _InFlight,
                 deadline: float, wait: float) -> int:
    """The items once a click or scroll has brought more, or has brought nothing: no
    new item within ``wait`` s of the last script request being answered (or
    of the action, with none asked), or at ``deadline``."""
    quiet = min(deadline, time.monotonic() + wait)
    now = count
    while now <= count and time.monotonic() < quiet:
        await asyncio.sleep(0.1)
        now = await _count(tab, item_xpath)
        if requests.open:       # an answer still to come: the wait starts after it
            quiet = min(deadline, time.monotonic() + wait)
    return now


async def page_html(tab: Tab, deadline: float) -> str:
    """The DOM as HTML, waiting out a navigation a script started (a JS redirect)."""
    for _ in range(3):
        try:
            return await tab.content()
        except PlaywrightError as error:
            if "navigating" not in str(error):
                raise
            await tab.wait_for_load_state("load", timeout=ms_left(deadline))
    return await tab.content()
