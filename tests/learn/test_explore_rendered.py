"""Analysis of shops whose pages JavaScript builds: render modes detected per level, and
the rules learned on rendered pages replay right on rendered pages."""

from __future__ import annotations

from typing import Any

import pytest

from structurer.api import analyze_site
from structurer.config import Settings
from structurer.demo.scoring import DETAIL_FIELDS, LIST_FIELDS, score_rules
from structurer.fetch import run_sync
from structurer.fetch.browser import BrowserFetcher

STEP = 4   # every 4th list and detail page, rendered in Chromium


def _rendered(urls: list[str]) -> dict[str, str]:
    """The pages as a browser renders them; one handed over before its network went quiet
    (``settled`` False: a busy machine) is rendered again, as the crawl does, so the
    rules are judged on finished pages."""
    async def run() -> dict[str, str]:
        async with BrowserFetcher(Settings(browser_pages=6)) as browser:
            pages = list(await browser.fetch_all(urls))
            for _ in range(Settings().crawl_retries):
                again = [i for i, p in enumerate(pages)
                         if not isinstance(p, Exception) and not p.settled]
                for i, page in zip(again, await browser.fetch_all([urls[i] for i in again]),
                                   strict=True):
                    pages[i] = page
        return {u: p.text for u, p in zip(urls, pages, strict=True)
                if not isinstance(p, Exception)}

    return run_sync(run())


@pytest.mark.browser
@pytest.mark.parametrize("name", ["pixel", "maple"])
def test_rendered_shop_zero_shot(name: str, demo_server: Any) -> None:
    shop = demo_server.shops[name]
    base = demo_server.urls[name]
    rules, _ = analyze_site(base + "/")
    levels = rules.levels
    assert levels.category and levels.list and levels.detail
    for level in ("category", "list", "detail"):
        decision = getattr(levels, level).render
        assert decision.mode == shop.render[level], level
        assert decision.decided_by == "auto" and len(decision.samples) >= 2
    truth = shop.ground_truth(base)
    urls = []
    if shop.render["list"] == "browser":
        urls += list(truth["list_pages"])[::STEP]
    if shop.render["detail"] == "browser":
        urls += [p["url"] for p in truth["products"]][::STEP]
    scores = score_rules(shop, base, rules, rendered=_rendered(urls), step=STEP, max_errors=5)
    assert scores.recall >= 0.99 and scores.precision >= 0.99, scores.errors
    for field in LIST_FIELDS:
        assert scores.list_fields[field] >= 0.98, (field, scores.errors)
    for field in DETAIL_FIELDS:
        assert scores.detail_fields[field] >= 0.95, (field, scores.errors)


def test_static_shop_levels_are_marked_static(demo_server: Any) -> None:
    rules, _ = analyze_site(demo_server.urls["brightline"] + "/")
    for level in (rules.levels.category, rules.levels.list, rules.levels.detail):
        assert level is not None and level.render.mode == "static"
        assert all(s.similarity >= 0.9 for s in level.render.samples)


def test_render_override_skips_the_browser(demo_server: Any) -> None:
    rules, report = analyze_site(demo_server.urls["kumo"] + "/", settings=Settings(
        render="static"))
    assert report.rendered == 0
    assert rules.levels.list is not None and rules.levels.list.render.decided_by == "override"
