"""The render sampler's samples and decision do not follow which fetch finished first.

Detail pages are fetched a few at a time; while their level is undecided (its two
confirming renders failed, say, on a loaded machine) each page is fetched both ways and
recorded as a sample. Which pages become the samples, in which order, and so the
decision and the similarities the rule file shows, must be the same whatever order the
fetches complete in.
"""

from __future__ import annotations

import asyncio

from structurer.config import Settings
from structurer.fetch.base import Page
from structurer.learn.sampling import RenderSampler
from structurer.schema import RenderMode

URLS = [f"http://shop.test/p/{i}" for i in range(6)]
RAW = "<html><body><main><h1>P</h1><p class='price'>1.00</p></main></body></html>"


class _Slow:
    """A fetcher whose answer for each URL takes the given seconds (HTTP or browser)."""

    def __init__(self, delays: dict[str, float], rendered: bool) -> None:
        self.delays, self.rendered = delays, rendered

    async def fetch(self, url: str) -> Page:
        await asyncio.sleep(self.delays[url])
        text = RAW.replace("<h1>", f"<h1 data-p='{url}'>") if self.rendered else RAW
        return Page(url=url, final_url=url, status=200, body=text.encode(), text=text,
                    encoding="utf-8", rendered=self.rendered)


async def _samples(delays: dict[str, float]) -> tuple[list[str], list[str], RenderMode]:
    """(the pages recorded, the pages the decision shows, the mode decided)."""
    sampler = RenderSampler(_Slow(delays, False), Settings(), 0.8, RenderMode.AUTO)
    sampler.browser = _Slow(delays, True)  # type: ignore[assignment]
    await asyncio.gather(*(sampler.page(u, "detail") for u in URLS))
    decision = sampler.decision("detail")
    return ([u for u, _, _ in sampler.samples["detail"]], [s.url for s in decision.samples],
            decision.mode)


def test_samples_follow_the_order_pages_were_asked_for_not_finished() -> None:
    first = {u: 0.001 * i for i, u in enumerate(URLS)}            # in order
    last = {u: 0.001 * (len(URLS) - i) for i, u in enumerate(URLS)}  # the last one first
    assert asyncio.run(_samples(first)) == (URLS[:2], URLS[:2], RenderMode.STATIC)
    assert asyncio.run(_samples(last)) == (URLS[:2], URLS[:2], RenderMode.STATIC)
