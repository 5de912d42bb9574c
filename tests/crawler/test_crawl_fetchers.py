"""Each level is fetched by the fetcher its render mode asks for, made by one factory; a
crawl whose levels are all static never creates a browser."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

from structurer.config import Settings
from structurer.crawler.engine import crawl_site, make_fetcher
from structurer.fetch.base import Fetcher, Page
from structurer.fetch.http import HttpFetcher
from structurer.rules import rules_from_text

RULES = """
schema_version: 1
site: {site}
start_url: http://{site}/
generated_at: '2026-01-01T00:00:00Z'
template: {{name: ecommerce, hash: 'sha256:0123456789abcdef'}}
levels:
  category:
    link_xpath: //nav//a
  list:
    item_xpath: //ul/li
    detail_link_xpath: ./a
    render: {{mode: {list_mode}}}
    fields:
      name: {{xpath: ./a, kind: text}}
  detail:
    fields:
      name: {{xpath: //h1, kind: text}}
"""
PAGES = {"/": '<nav><a href="/c/a/">A</a></nav>',
         "/c/a/": '<nav><a href="/c/a/">A</a></nav><ul><li><a href="/p/1">One</a></li>'
                  '<li><a href="/p/2">Two</a></li></ul>',
         "/p/1": "<h1>One!</h1>", "/p/2": "<h1>Two!</h1>"}


class FakeBrowser(HttpFetcher):
    """Stands in for the browser fetcher: HTTP underneath, remembering what it fetched."""

    fetched: ClassVar[list[str]] = []

    async def fetch(self, url: str, **kwargs: object) -> Page:  # type: ignore[override]
        FakeBrowser.fetched.append(url)
        return await super().fetch(url)


def _crawl(tiny_site: Callable[[dict[str, str]], str], tmp_path: Path, list_mode: str
           ) -> tuple[list[str], list[dict[str, object]]]:
    site = tiny_site(PAGES).split("//")[1]
    rules = rules_from_text(RULES.format(site=site, list_mode=list_mode), "r.yaml")
    modes: list[str] = []

    def factory(mode: str, settings: Settings) -> Fetcher:
        modes.append(mode)
        return FakeBrowser(settings) if mode == "browser" else make_fetcher(mode, settings)

    crawl_site(rules, tmp_path / "o.jsonl", Settings(), display=False, factory=factory)
    records = [json.loads(line) for line in (tmp_path / "o.jsonl").read_text().splitlines()]
    return modes, records


def test_static_levels_never_make_a_browser(tiny_site: Callable[[dict[str, str]], str],
                                            tmp_path: Path) -> None:
    modes, records = _crawl(tiny_site, tmp_path, "static")
    assert modes == ["static"]  # one fetcher, shared by the three levels
    assert sorted(r["name"] for r in records) == ["One!", "Two!"]


def test_a_browser_level_gets_the_browser_fetcher(tiny_site: Callable[[dict[str, str]], str],
                                                  tmp_path: Path) -> None:
    FakeBrowser.fetched = []
    modes, records = _crawl(tiny_site, tmp_path, "browser")
    assert sorted(modes) == ["browser", "static"]
    # lists need a browser: the category page /c/a/, which lists products, is rendered;
    # the start page follows the category level, detail pages their own: static
    assert [url.split("/", 3)[3] for url in FakeBrowser.fetched] == ["c/a/"]
    assert sorted(r["name"] for r in records) == ["One!", "Two!"]
    assert records[0]["categories"] == [["A"]]


def test_make_fetcher_picks_by_mode() -> None:
    from structurer.fetch.browser import BrowserFetcher

    static = make_fetcher("static", Settings())
    browser = make_fetcher("browser", Settings())  # built, not launched
    assert isinstance(static, HttpFetcher) and isinstance(browser, BrowserFetcher)

    async def close() -> None:
        await static.close()
        await browser.close()

    asyncio.run(close())
