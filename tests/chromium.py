"""Chromium for the tests that look at pages in a real browser: launched as the package
launches it (:func:`structurer.fetch.chromium.find_chromium`, ``CHROMIUM_FLAGS``)
through Playwright's sync API, and always closed. Without Chromium these tests fail
with the package's install hint; they never skip."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from playwright.sync_api import Browser, Page, sync_playwright

from structurer.config import CHROMIUM_FLAGS, Settings
from structurer.fetch.chromium import find_chromium


@contextmanager
def chromium() -> Iterator[Browser]:
    """A headless Chromium, closed afterwards whatever happened."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=find_chromium(Settings()),
                                             args=list(CHROMIUM_FLAGS))
        try:
            yield browser
        finally:
            browser.close()


@contextmanager
def watched_tab() -> Iterator[Page]:
    """One laptop-sized tab (1366x900) of its own Chromium; a script error on any page it
    showed fails the test when it closes."""
    with chromium() as browser:
        tab = browser.new_context(viewport={"width": 1366, "height": 900}).new_page()
        errors: list[str] = []
        tab.on("pageerror", lambda error: errors.append(str(error)))
        yield tab
        assert not errors, f"script errors while rendering: {errors}"
