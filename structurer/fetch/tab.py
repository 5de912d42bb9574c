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
from playwright.async_api import TimeoutError as PlaywrightTimeout

from structurer.fetch.base import Expand
from structurer.fetch.guard import ms_left

_COUNT = """xp => { try {
  return document.evaluate(xp, document, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null)
    .snapshotLength; } catch (e) { return -1; } }"""
_ROUND_WAIT = 4.0    # seconds one click or scroll may take to bring items


async def _count(tab: Tab, xpath: str) -> int:
    return int(await tab.evaluate(_COUNT, xpath))


async def expand_items(tab: Tab, expand: Expand, deadline: float) -> int:
    """Click "load more" (or scroll to the bottom) until no new items arrive: the
    rounds that brought items. Stops when the control is gone or hidden, a round
    brings nothing within ``_ROUND_WAIT`` s, ``expand.rounds`` are done, or at
    ``deadline``."""
    count = await _count(tab, expand.item_xpath)
    rounds = 0
    while rounds < expand.rounds and count >= 0 and time.monotonic() < deadline:
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
        waited = min(deadline, time.monotonic() + _ROUND_WAIT)
        now = count
        while now <= count and time.monotonic() < waited:
            await asyncio.sleep(0.1)
            now = await _count(tab, expand.item_xpath)
        if now <= count:
            break
        count, rounds = now, rounds + 1
        await asyncio.sleep(0.2)    # let the page finish the round (its pager redrawn)
    return rounds


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
