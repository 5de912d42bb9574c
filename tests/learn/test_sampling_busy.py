"""Analysis on a busy machine: a browser that runs out of time on a page once is asked
again (as HTTP asks again after a timeout), so what analysis learns does not depend on
how loaded the machine was."""

from __future__ import annotations

import asyncio
from collections import Counter

from structurer.config import Settings
from structurer.errors import RenderTimeout
from structurer.fetch.base import Expand, Page
from structurer.learn.sampling import RenderSampler

HTML = "<html><body><ul><li>One</li></ul></body></html>"


class _Busy:
    """A browser whose first rendering of each page runs out of time."""

    def __init__(self) -> None:
        self.asked: Counter[str] = Counter()

    def _once(self, url: str) -> Page:
        self.asked[url] += 1
        if self.asked[url] == 1:
            raise RenderTimeout("page did not finish loading within 30s", url=url)
        return Page(url=url, final_url=url, status=200, body=HTML.encode(), text=HTML,
                    encoding="utf-8", rendered=True, rounds=2)

    async def fetch(self, url: str) -> Page:
        return self._once(url)

    async def fetch_expanded(self, url: str, expand: Expand) -> Page:
        return self._once(url + "#expanded")


def _sampler() -> tuple[RenderSampler, _Busy]:
    sampler = RenderSampler(None, Settings(), 0.8)  # type: ignore[arg-type]
    browser = _Busy()
    sampler.browser = browser  # type: ignore[assignment]
    return sampler, browser


def test_a_rendering_that_ran_out_of_time_is_asked_again() -> None:
    sampler, browser = _sampler()
    page = asyncio.run(sampler.rendered("http://s.test/c/x"))
    assert page is not None and page.text == HTML
    assert browser.asked == {"http://s.test/c/x": 2}


def test_a_list_expanded_after_running_out_of_time_once() -> None:
    sampler, browser = _sampler()
    page = asyncio.run(sampler.expanded("http://s.test/c/x", Expand("scroll", "//li")))
    assert page is not None and page.rounds == 2
    assert browser.asked == {"http://s.test/c/x": 2, "http://s.test/c/x#expanded": 2}
