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
    # one page rendered, its rendering asked for again: the report says both
    assert (sampler.renders, sampler.rerenders) == (1, 1)


def test_a_list_expanded_after_running_out_of_time_once() -> None:
    sampler, browser = _sampler()
    page = asyncio.run(sampler.expanded("http://s.test/c/x", Expand("scroll", "//li")))
    assert page is not None and page.rounds == 2
    assert browser.asked == {"http://s.test/c/x": 2, "http://s.test/c/x#expanded": 2}
    # the page rendered, then rendered again with its items loaded: two renders, each
    # asked for again once
    assert (sampler.renders, sampler.rerenders) == (2, 2)


SHELL = "<html><body><ul></ul><p>Loading</p></body></html>"
GRID = "<html><body><ul><li>One</li><li>Two</li><li>Three</li></ul><p>Loading</p></body></html>"


class _Http:
    """The shop's server: the page before its script fills the grid."""

    async def fetch(self, url: str) -> Page:
        return Page(url=url, final_url=url, status=200, body=SHELL.encode(), text=SHELL,
                    encoding="utf-8")


class _Unsettled:
    """A browser on a busy machine: its first ``early`` renderings of each page are handed
    over before the page's network went quiet, before the script filled the grid."""

    def __init__(self, early: int) -> None:
        self.asked: Counter[str] = Counter()
        self.early = early

    async def fetch(self, url: str) -> Page:
        self.asked[url] += 1
        settled = self.asked[url] > self.early
        text = GRID if settled else SHELL
        return Page(url=url, final_url=url, status=200, body=text.encode(), text=text,
                    encoding="utf-8", rendered=True, settled=settled)


def _items(html: str, url: str) -> int:
    return html.count("<li>")


def _decide(early: int) -> tuple[RenderSampler, _Unsettled, Page]:
    sampler = RenderSampler(_Http(), Settings(), 0.8)  # type: ignore[arg-type]
    browser = _Unsettled(early)
    sampler.browser = browser  # type: ignore[assignment]

    async def run() -> Page:
        pages = [await sampler.page(f"http://s.test/c/{n}/", "list") for n in (1, 2)]
        return pages[0]
    return sampler, browser, asyncio.run(run())


def test_a_rendering_handed_over_unsettled_is_rendered_again() -> None:
    """A list page a busy browser handed over before its grid arrived is rendered again
    before analysis uses it: the level is decided on the finished pages (a browser: only
    the rendered pages list the items), as on an idle machine."""
    sampler, browser, page = _decide(early=1)
    assert page.settled and "<li>" in page.text
    assert browser.asked == {"http://s.test/c/1/": 2, "http://s.test/c/2/": 2}
    assert (sampler.renders, sampler.rerenders) == (2, 2)
    assert sampler.by_content("list", _items).mode == "browser"
    idle, _, _ = _decide(early=0)
    assert sampler.by_content("list", _items) == idle.by_content("list", _items)


def test_a_site_that_never_goes_quiet_costs_a_few_renders_more() -> None:
    """The retries are bounded: a page that stays unsettled stands after ``crawl_retries``
    more renderings, and later pages of that site are taken as they come."""
    sampler, browser, _ = _decide(early=99)
    assert sampler.restless and not sampler.rendered_pages["http://s.test/c/1/"].settled
    assert browser.asked == {"http://s.test/c/1/": 1 + Settings().crawl_retries,
                             "http://s.test/c/2/": 1}
    assert (sampler.renders, sampler.rerenders) == (2, Settings().crawl_retries)
