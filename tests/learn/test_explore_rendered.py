"""Analysis of shops whose pages JavaScript builds: render modes detected per level, and
the rules learned on rendered pages replay right on rendered pages."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from structurer.clean import parse_html
from structurer.config import Settings
from structurer.demo.scoring import DETAIL_FIELDS, LIST_FIELDS, score_rules
from structurer.fetch import run_sync
from structurer.fetch.base import Page
from structurer.fetch.browser import BrowserFetcher
from structurer.replay.extract import compile_rules, extract_detail, extract_list
from structurer.rules.model import SiteRules
from tests.conftest import Analyzed

STEP = 4   # every 4th list and detail page, rendered in Chromium


def _finished(rules: SiteRules, lists: set[str]) -> Callable[[str, Page], bool]:
    """Whether a rendered page is whole as the crawl judges it: settled, and a list page
    with a card holding something (not a skeleton grid its script has not filled), a
    detail page with its name."""
    compiled = compile_rules(rules)

    def whole(url: str, page: Page) -> bool:
        if not page.settled:
            return False
        tree = parse_html(page.text, base_url=url)
        if url in lists:
            return any(any(v not in (None, "", []) for v in item.values())
                       for item in extract_list(compiled, tree, url).items)
        return bool(extract_detail(compiled, tree, url).get("name"))
    return whole


def _rendered(urls: list[str], whole: Callable[[str, Page], bool]) -> dict[str, str]:
    """The pages as a browser renders them; one not yet whole (:func:`_finished`: handed
    over before its network went quiet, or before its grid was filled, on a busy machine)
    is rendered again, as the crawl does, so the rules are judged on finished pages."""
    async def run() -> dict[str, str]:
        async with BrowserFetcher(Settings(browser_pages=6)) as browser:
            pages = list(await browser.fetch_all(urls))
            for _ in range(Settings().crawl_retries):
                again = [i for i, p in enumerate(pages)
                         if not isinstance(p, Exception) and not whole(urls[i], p)]
                for i, page in zip(again, await browser.fetch_all([urls[i] for i in again]),
                                   strict=True):
                    pages[i] = page
        return {u: p.text for u, p in zip(urls, pages, strict=True)
                if not isinstance(p, Exception)}

    return run_sync(run())


@pytest.mark.browser
@pytest.mark.parametrize("name", ["pixel", "maple"])
def test_rendered_shop_zero_shot(name: str, demo_server: Any, analyzed: Analyzed) -> None:
    shop = demo_server.shops[name]
    base = demo_server.urls[name]
    rules, _ = analyzed(base + "/")
    levels = rules.levels
    assert levels.category and levels.list and levels.detail
    for level in ("category", "list", "detail"):
        decision = getattr(levels, level).render
        assert decision.mode == shop.render[level], level
        assert decision.decided_by == "auto" and len(decision.samples) >= 2
    truth = shop.ground_truth(base)
    urls: list[str] = []
    if shop.render["list"] == "browser":
        urls += list(truth["list_pages"])[::STEP]
    lists = set(urls)
    if shop.render["detail"] == "browser":
        urls += [p["url"] for p in truth["products"]][::STEP]
    rendered = _rendered(urls, _finished(rules, lists))
    scores = score_rules(shop, base, rules, rendered=rendered, step=STEP, max_errors=5)
    assert scores.recall >= 0.99 and scores.precision >= 0.99, scores.errors
    for field in LIST_FIELDS:
        assert scores.list_fields[field] >= 0.98, (field, scores.errors)
    for field in DETAIL_FIELDS:
        assert scores.detail_fields[field] >= 0.95, (field, scores.errors)


def test_static_shop_levels_are_marked_static(demo_server: Any, analyzed: Analyzed) -> None:
    rules, _ = analyzed(demo_server.urls["brightline"] + "/")
    for level in (rules.levels.category, rules.levels.list, rules.levels.detail):
        assert level is not None and level.render.mode == "static"
        assert all(s.similarity >= 0.9 for s in level.render.samples)


def test_render_override_skips_the_browser(demo_server: Any, analyzed: Analyzed) -> None:
    rules, report = analyzed(demo_server.urls["kumo"] + "/", "static")
    assert report.rendered == 0
    assert rules.levels.list is not None and rules.levels.list.render.decided_by == "override"
