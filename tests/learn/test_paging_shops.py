"""Pagination end to end on a tiny shop, one pager kind at a time: analysis learns and
verifies it (walking two categories to their end), the rule file records how, and the
crawl fetches every list page exactly once and every product once."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from pathlib import Path

import pytest

from structurer.api import analyze_site
from structurer.config import Settings
from structurer.crawler.engine import crawl_site
from structurer.errors import FetchError
from structurer.fetch.base import Page
from structurer.learn.explore import Explorer
from structurer.lexicon import load_lexicon
from structurer.rules import rules_from_text
from tests.conftest import rule_text
from tests.learn.pager_shop import CATEGORIES, list_url, pages_of, products, serve

STATIC = Settings(render="static")
KINDS = {"shared_class": "link", "numbered": "link", "rel_head": "link", "path": "link",
         "offset": "link", "script": "pattern", "load_more": "pattern"}


@pytest.mark.parametrize("kind", list(KINDS))
def test_every_list_page_once(kind: str, tmp_path: Path) -> None:
    with serve(kind) as (base, requests):
        rules, report = analyze_site(base + "/", settings=STATIC)
        paging = rules.levels.list.pagination if rules.levels.list else None
        assert paging is not None and paging.method == KINDS[kind], report.notes
        # verified on two categories walked to their end, each past its first page
        assert len(paging.verified) == 2
        assert all(c.pages == 3 for c in paging.verified)
        assert sorted(c.items for c in paging.verified) == [9, 10]
        requests.clear()
        out = tmp_path / "out.jsonl"
        crawl_site(rules, out, STATIC)
        asked = Counter(requests)
    wanted = [list_url(kind, c, n) for c in CATEGORIES for n in range(1, pages_of(c) + 1)]
    assert {u: asked[u] for u in wanted} == dict.fromkeys(wanted, 1)
    # nothing else of a list was asked for: no page 1 twice, no page past the end
    assert not [u for u in asked if u.startswith("/c/") and u not in wanted]
    records = [json.loads(line) for line in out.read_text("utf-8").splitlines()]
    urls = Counter(r["url"].removeprefix(base) for r in records)
    assert urls == Counter(f"/p/{slug}.html" for c in CATEGORIES for slug, _, _ in products(c))


def test_offsets_and_paths_are_recorded_as_patterns() -> None:
    with serve("offset") as (base, _):
        rules, _ = analyze_site(base + "/", settings=STATIC)
    paging = rules.levels.list.pagination if rules.levels.list else None
    assert paging is not None
    assert (paging.url_pattern, paging.first_page, paging.step) == ("?start={page}", 4, 4)


def test_unverifiable_pagination_is_dropped_with_a_note() -> None:
    """Every ?page=N answers page 1 again: the next link, its pattern and every guess fail
    their walk, so the rule file has no pagination and the report says why."""
    with serve("stuck") as (base, _):
        rules, report = analyze_site(base + "/", settings=STATIC)
    assert rules.levels.list is not None and rules.levels.list.pagination is None
    dropped = [n for n in report.notes if n.startswith("pagination by")]
    assert any("link" in n and "items already seen" in n for n in dropped), report.notes


def test_crawl_stops_a_pattern_at_a_page_of_repeated_items(tmp_path: Path) -> None:
    """A shop answering every page number with page 1 again: the crawl reads one such
    page and follows the pattern no further."""
    with serve("stuck") as (base, requests):
        rules = rules_from_text(rule_text(base.removeprefix("http://"), """
          category:
            link_xpath: //nav[@class='menu']//a
          list:
            item_xpath: //ul[@class='products']/li
            detail_link_xpath: ./a
            pagination: {method: pattern, url_pattern: "?page={page}"}
            fields:
              name: {xpath: ./a, kind: text}
          detail:
            fields:
              name: {xpath: //h1, kind: text}
        """))
        crawl_site(rules, tmp_path / "out.jsonl", STATIC)
        asked = Counter(requests)
    assert asked["/c/boots/?page=2"] == 1 and asked["/c/tents/?page=2"] == 1
    assert not [u for u in asked if "page=3" in u]


def test_a_walk_asks_again_after_a_server_error() -> None:
    """A page answering 500 once (a browser does not retry) is asked for again, not
    taken as the end of the pagination; a 404 is the end."""
    class Flaky:
        def __init__(self) -> None:
            self.asked: list[str] = []

        async def fetch(self, url: str) -> Page:
            self.asked.append(url)
            if url.endswith("404"):
                raise FetchError("HTTP 404 Not Found", url=url, kind="http", status=404)
            if self.asked.count(url) == 1:
                raise FetchError("HTTP 500 Internal Server Error", url=url, kind="http",
                                 status=500)
            html = "<html><body><ul><li>a</li><li>b</li></ul></body></html>"
            return Page(url, url, 200, html.encode(), html, "utf-8")

        async def close(self) -> None:
            return None

    flaky = Flaky()
    explorer = Explorer(flaky, load_lexicon(), STATIC)
    view = asyncio.run(explorer.walk_view("http://s.test/c/x?page=2"))
    assert view is not None and view.url == "http://s.test/c/x?page=2"
    assert asyncio.run(explorer.walk_view("http://s.test/c/404")) is None
    assert flaky.asked == ["http://s.test/c/x?page=2"] * 2 + ["http://s.test/c/404"]
