"""Lists paged by a "load more" button or by infinite scroll, whose further items exist
only behind a script's JSON requests: the browser fetcher clicks or scrolls until no new
items arrive (bounded), analysis learns and verifies which, and the crawl gets every item.

Needs Chromium (Debian's ``/usr/bin/chromium`` or ``$STRUCTURER_CHROMIUM``); these tests
fail without it, they never skip.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from pathlib import Path

import pytest

from structurer.config import Settings
from structurer.crawler.engine import crawl_site
from structurer.fetch.base import Expand
from structurer.fetch.browser import BrowserFetcher
from structurer.learn.pagewalk import PagingPlan, learn_paging
from structurer.lexicon import load_lexicon
from structurer.page.view import PageView
from structurer.rules import rules_from_text
from tests.conftest import rule_text
from tests.learn.pager_shop import CATEGORIES, products, serve, site

pytestmark = pytest.mark.browser

ITEMS = "//ul[@class='products']/li"
MORE = "//button[normalize-space()='Mehr laden']"
SETTINGS = Settings(obey_robots=False)
LEX = load_lexicon()


async def _expanded(url: str, *expands: Expand, settings: Settings = SETTINGS
                    ) -> list[tuple[int, int]]:
    """(items, rounds) of ``url`` loaded each way, in one browser."""
    out = []
    async with BrowserFetcher(settings) as browser:
        for expand in expands:
            page = await browser.fetch_expanded(url, expand)
            view = PageView.from_html(url, page.text, LEX)
            out.append((len(view.tree.xpath(ITEMS)), page.rounds))
    return out


@pytest.mark.parametrize(("kind", "method", "control"), [
    ("api_more", "load_more", MORE), ("api_scroll", "scroll", None)])
def test_browser_loads_every_item_and_stops(kind: str, method: str, control: str | None) -> None:
    with serve(kind) as (base, requests):
        # every item, then bounded: one round only brings the second page's four items
        assert asyncio.run(_expanded(base + "/c/boots/", Expand(method, ITEMS, control),
                                     Expand(method, ITEMS, control, 1))) == [(10, 2), (8, 1)]
        assert requests.count("/api/boots?n=3") == 1


@pytest.mark.parametrize(("kind", "method", "control"), [
    ("api_more", "load_more", MORE), ("api_scroll", "scroll", None)])
def test_a_slow_answer_is_waited_for(kind: str, method: str, control: str | None) -> None:
    """A round whose request is still out is not over: answers slower than the round's
    wait (a busy machine or server) still bring every item."""
    short = SETTINGS.model_copy(update={"round_wait": 0.5})
    with serve(kind, slow=1.5) as (base, _):
        assert asyncio.run(_expanded(base + "/c/boots/", Expand(method, ITEMS, control),
                                     settings=short)) == [(10, 2)]


def _plan(base: str, browser: BrowserFetcher) -> PagingPlan:
    async def fetch(url: str) -> PageView | None:
        return None       # no page URL serves the further items

    async def expand(url: str, how: Expand) -> tuple[PageView, int]:
        page = await browser.fetch_expanded(url, how)
        return PageView.from_html(url, page.text, LEX), page.rounds
    return PagingPlan(ITEMS, "./a", LEX.pagination, 3, 30, 2, fetch, expand)


async def _learn(kind: str, base: str) -> tuple[object, list[str]]:
    pages = site(kind)
    firsts = [PageView.from_html(base + f"/c/{c}/", pages[f"/c/{c}/"], LEX) for c in CATEGORIES]
    notes: list[str] = []
    async with BrowserFetcher(SETTINGS) as browser:
        found = await learn_paging(firsts, _plan(base, browser), notes)
    return found, notes


@pytest.mark.parametrize(("kind", "method"), [("api_more", "load_more"),
                                              ("api_scroll", "scroll")])
def test_learned_in_a_browser_and_crawled(kind: str, method: str, tmp_path: Path) -> None:
    with serve(kind) as (base, requests):
        found, notes = asyncio.run(_learn(kind, base))
        assert found is not None and found.method == method, notes   # type: ignore[attr-defined]
        checks = found.verified                                       # type: ignore[attr-defined]
        assert sorted((c.pages, c.items) for c in checks) == [(3, 9), (3, 10)]
        more = f", more_xpath: \"{found.more_xpath}\"" if found.more_xpath else ""  # type: ignore[attr-defined]
        rules = rules_from_text(rule_text(base.removeprefix("http://"), f"""
          category:
            link_xpath: //nav[@class='menu']//a
          list:
            item_xpath: "{ITEMS}"
            detail_link_xpath: ./a
            pagination: {{method: {method}{more}}}
            fields:
              name: {{xpath: ./a, kind: text}}
          detail:
            fields:
              name: {{xpath: //h1, kind: text}}
        """))
        requests.clear()
        out = tmp_path / "out.jsonl"
        crawl_site(rules, out, SETTINGS)
        asked = Counter(requests)
    records = [json.loads(line) for line in out.read_text("utf-8").splitlines()]
    assert sorted(r["url"].removeprefix(base) for r in records) == sorted(
        f"/p/{slug}.html" for c in CATEGORIES for slug, _, _ in products(c))
    assert {u: n for u, n in asked.items() if u.startswith("/api/")} == {
        "/api/boots?n=2": 1, "/api/boots?n=3": 1, "/api/tents?n=2": 1, "/api/tents?n=3": 1}
