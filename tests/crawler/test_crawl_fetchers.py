"""Each level is fetched by the fetcher its render mode asks for, made by one factory; a
crawl whose levels are all static never creates a browser."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar

from structurer.config import Settings
from structurer.crawler.engine import crawl_site
from structurer.errors import RenderTimeout
from structurer.fetch import open_fetcher
from structurer.fetch.base import Fetcher, Page
from structurer.fetch.http import HttpFetcher
from structurer.rules import rules_from_text
from structurer.schema import RenderMode
from tests.conftest import rule_text

RULES = rule_text("{site}", """
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
""")
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

    def factory(mode: RenderMode, settings: Settings) -> Fetcher:
        modes.append(mode)
        return FakeBrowser(settings) if mode == "browser" else open_fetcher(mode, settings)

    crawl_site(rules, tmp_path / "o.jsonl", Settings(), factory=factory)
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


def test_open_fetcher_picks_by_mode() -> None:
    from structurer.fetch.browser import BrowserFetcher

    static = open_fetcher(RenderMode.STATIC, Settings())
    browser = open_fetcher(RenderMode.BROWSER, Settings())  # built, not launched
    assert isinstance(static, HttpFetcher) and isinstance(browser, BrowserFetcher)

    async def close() -> None:
        await static.close()
        await browser.close()

    asyncio.run(close())


class TimingOutBrowser(FakeBrowser):
    """A browser fetcher whose pages never finish rendering."""

    async def fetch(self, url: str, **kwargs: object) -> Page:
        FakeBrowser.fetched.append(url)
        raise RenderTimeout("page did not finish loading within 30s", url=url)


def test_a_render_timeout_is_counted_by_its_kind(tiny_site: Callable[[dict[str, str]], str],
                                                 tmp_path: Path) -> None:
    """Both engines name a failure by the FetchError's kind (the Scrapy middleware's
    ``failure_kind`` alike): a page the browser did not finish is ``render_timeout``,
    asked again ``crawl_retries`` times like a timeout (a busy machine's render may finish
    next time) and counted once when it never does."""
    FakeBrowser.fetched = []
    site = tiny_site(PAGES).split("//")[1]
    rules = rules_from_text(RULES.format(site=site, list_mode="browser"), "r.yaml")

    def factory(mode: RenderMode, settings: Settings) -> Fetcher:
        return TimingOutBrowser(settings) if mode == "browser" else open_fetcher(mode, settings)

    settings = Settings()
    result = crawl_site(rules, tmp_path / "o.jsonl", settings, factory=factory)
    assert dict(result.stats.failures) == {"render_timeout": 1}
    assert [url.split("/", 3)[3] for url in FakeBrowser.fetched] == ["c/a/"] * (1 + settings.crawl_retries)


BROWSER_RULES = rule_text("{site}", """
  category:
    link_xpath: //nav//a
  list:
    item_xpath: //ul/li
    detail_link_xpath: ./a
    render: {{mode: browser}}
    fields:
      name: {{xpath: ./a, kind: text}}
  detail:
    render: {{mode: browser}}
    fields:
      name: {{xpath: //h1, kind: text}}
      availability:
        xpath: "concat(substring('in_stock', 1, 8 * boolean(//button)), substring('out_of_stock', 1, 12 * not(//button)))"
        kind: availability
""")
SHELL = '<div id="root"><h1 hidden></h1><p>Something went wrong</p></div>'


class BlankingBrowser(FakeBrowser):
    """A browser whose page scripts fail ``blanks`` times per URL: the rendered page is the
    app shell with an error where the content should be (a request of the page's own
    that failed on a busy machine)."""

    blanks: ClassVar[int] = 1

    async def fetch(self, url: str, **kwargs: object) -> Page:
        FakeBrowser.fetched.append(url)
        page = await HttpFetcher.fetch(self, url)
        if FakeBrowser.fetched.count(url) <= BlankingBrowser.blanks:
            return replace(page, text=SHELL, body=SHELL.encode(), rendered=True)
        return replace(page, rendered=True)


def _crawl_blanking(tiny_site: Callable[[dict[str, str]], str], tmp_path: Path, blanks: int
                    ) -> tuple[Any, list[dict[str, Any]]]:
    FakeBrowser.fetched, BlankingBrowser.blanks = [], blanks
    pages = {**PAGES, "/p/1": "<h1>One!</h1><button>Add</button>", "/p/2": "<h1>Two!</h1>"}
    site = tiny_site(pages).split("//")[1]
    rules = rules_from_text(BROWSER_RULES.format(site=site), "r.yaml")

    def factory(mode: RenderMode, settings: Settings) -> Fetcher:
        return BlankingBrowser(settings) if mode == "browser" else open_fetcher(mode, settings)

    result = crawl_site(rules, tmp_path / "o.jsonl", Settings(), factory=factory)
    records = [json.loads(line) for line in (tmp_path / "o.jsonl").read_text().splitlines()]
    return result, sorted(records, key=lambda r: r["url"])


def test_a_rendered_page_its_script_left_blank_is_asked_for_again(
        tiny_site: Callable[[dict[str, str]], str], tmp_path: Path) -> None:
    """A client-rendered list page or product page whose content did not arrive (the app
    shell's "something went wrong") is no empty category and no product without a name
    that is out of stock: it is rendered again, and its items and fields are read."""
    result, records = _crawl_blanking(tiny_site, tmp_path, blanks=1)
    fetched = [url.split("/", 3)[3] for url in FakeBrowser.fetched]
    assert sorted(fetched) == ["c/a/", "c/a/", "p/1", "p/1", "p/2", "p/2"]
    assert [(r["name"], r["availability"]) for r in records] == [("One!", "in_stock"),
                                                                ("Two!", "out_of_stock")]
    assert result.stats.requeued == 3 and not result.stats.failures
    # asked again as blank renders, not HTTP requests retried
    assert result.stats.blank_renders == 3 and result.stats.retries == 0


def test_a_page_blank_every_time_stands_after_the_retries(
        tiny_site: Callable[[dict[str, str]], str], tmp_path: Path) -> None:
    """The retries are bounded like a timeout's: a list page that stays blank is read as
    it is at the last try (no items, no failure), and the crawl ends."""
    settings = Settings()
    result, records = _crawl_blanking(tiny_site, tmp_path, blanks=99)
    assert [url.split("/", 3)[3] for url in FakeBrowser.fetched] == \
        ["c/a/"] * (1 + settings.crawl_retries)
    assert records == [] and not result.stats.failures


def test_a_static_page_without_items_is_not_asked_again(
        tiny_site: Callable[[dict[str, str]], str], tmp_path: Path) -> None:
    """Only a rendered page can be a script's unfinished work: an HTTP page that lists
    nothing is read once."""
    site = tiny_site({**PAGES, "/c/a/": '<p>Nothing here yet</p>'}).split("//")[1]
    rules = rules_from_text(RULES.format(site=site, list_mode="static"), "r.yaml")
    result = crawl_site(rules, tmp_path / "o.jsonl", Settings())
    assert result.stats.requeued == 0 and result.stats.pages_total == 2


class LateDataBrowser(FakeBrowser):
    """A browser fetcher on a busy machine: the first rendering of each page is handed
    over before its network went quiet, without the items a script fills in."""

    async def fetch(self, url: str, **kwargs: object) -> Page:
        page = await super().fetch(url)
        if FakeBrowser.fetched.count(url) > 1:
            return page
        text = page.text.split("<ul>")[0]
        return replace(page, text=text, body=text.encode(), rendered=True, settled=False)


def test_a_list_page_rendered_before_its_data_arrived_is_asked_again(
        tiny_site: Callable[[dict[str, str]], str], tmp_path: Path) -> None:
    """A rendered category or list page taken as it stood (its network never went quiet
    in time) that lists nothing is asked again, not read as an empty list: its items
    are crawled and the retry is counted."""
    FakeBrowser.fetched = []
    site = tiny_site(PAGES).split("//")[1]
    rules = rules_from_text(RULES.format(site=site, list_mode="browser"), "r.yaml")

    def factory(mode: RenderMode, settings: Settings) -> Fetcher:
        return LateDataBrowser(settings) if mode == "browser" else open_fetcher(mode, settings)

    result = crawl_site(rules, tmp_path / "o.jsonl", Settings(), factory=factory)
    records = [json.loads(line) for line in (tmp_path / "o.jsonl").read_text().splitlines()]
    assert sorted(r["name"] for r in records) == ["One!", "Two!"]
    assert [url.split("/", 3)[3] for url in FakeBrowser.fetched] == ["c/a/"] * 2
    assert result.stats.empty_lists == 0 and not result.stats.failures
    assert (result.stats.requeued, result.stats.blank_renders, result.stats.retries) == (1, 1, 0)


def test_links_a_blank_rendering_refused_are_counted_once(
        tiny_site: Callable[[dict[str, str]], str], tmp_path: Path) -> None:
    """A link refused while reading a page that is then asked again (its first rendering
    blank) is counted among the skipped links once, as when the page is read once: the
    second reading does not meet it again (it is seen), the first one's reasons stand."""
    menu = '<nav><a href="/c/a/">A</a><a href="http://elsewhere.test/c/b/">B</a></nav>'
    pages = {**PAGES, "/c/a/": PAGES["/c/a/"].replace('<nav><a href="/c/a/">A</a></nav>', menu)}
    site = tiny_site(pages).split("//")[1]
    skipped: dict[str, dict[str, int]] = {}
    for mode in ("static", "browser"):
        FakeBrowser.fetched = []
        rules = rules_from_text(RULES.format(site=site, list_mode=mode), "r.yaml")

        def factory(mode: RenderMode, settings: Settings) -> Fetcher:
            return LateDataBrowser(settings) if mode == "browser" \
                else open_fetcher(mode, settings)

        result = crawl_site(rules, tmp_path / f"{mode}.jsonl", Settings(), factory=factory)
        skipped[mode] = dict(result.stats.skipped)
    assert FakeBrowser.fetched.count(f"http://{site}/c/a/") == 2     # read twice
    assert skipped == {"static": {"offsite": 1}, "browser": {"offsite": 1}}


class UnsettledOnceBrowser(FakeBrowser):
    """A browser fetcher on a busy machine: each page's first rendering is handed over
    before its network went quiet (whole, as it happens)."""

    async def fetch(self, url: str, **kwargs: object) -> Page:
        page = replace(await super().fetch(url), rendered=True)
        return page if FakeBrowser.fetched.count(url) > 1 else replace(page, settled=False)


def test_a_page_asked_again_keeps_the_categories_it_linked_to(
        tiny_site: Callable[[dict[str, str]], str], tmp_path: Path) -> None:
    """A rendered start page handed over unsettled is asked again (its grid is not read,
    so nothing says it is whole); the category links it showed the first time are
    queued, not lost to the reader having seen them."""
    FakeBrowser.fetched = []
    site = tiny_site(PAGES).split("//")[1]
    text = RULES.format(site=site, list_mode="static").replace(
        "    link_xpath: //nav//a\n", "    link_xpath: //nav//a\n    render: {mode: browser}\n")
    rules = rules_from_text(text, "r.yaml")
    assert rules.levels.category is not None and rules.levels.category.render.mode == "browser"

    def factory(mode: RenderMode, settings: Settings) -> Fetcher:
        return UnsettledOnceBrowser(settings) if mode == "browser" else open_fetcher(mode, settings)

    result = crawl_site(rules, tmp_path / "o.jsonl", Settings(), factory=factory)
    records = [json.loads(line) for line in (tmp_path / "o.jsonl").read_text().splitlines()]
    assert sorted(r["name"] for r in records) == ["One!", "Two!"]
    assert sorted(url.split("/", 3)[3] for url in FakeBrowser.fetched) == ["", "", "c/a/"]
    assert (result.stats.blank_renders, result.stats.retries) == (1, 0) and not result.stats.failures


class SkeletonBrowser(FakeBrowser):
    """A browser fetcher on a busy machine: the first rendering of each list page is the
    page as served, its grid the skeleton cards a script fills in (no link, no text)."""

    async def fetch(self, url: str, **kwargs: object) -> Page:
        page = await super().fetch(url)
        if FakeBrowser.fetched.count(url) > 1 or "<ul>" not in page.text:
            return page
        text = page.text.split("<ul>")[0] + "<ul>" + "<li><div class='skeleton'></div></li>" * 2
        return replace(page, text=text + "</ul>", body=(text + "</ul>").encode(),
                       rendered=True)


def test_a_list_page_rendered_as_skeleton_cards_is_asked_again(
        tiny_site: Callable[[dict[str, str]], str], tmp_path: Path) -> None:
    """Cards that hold nothing (no link, no field) are a grid its script has not filled:
    they are no items, no records of the page's own URL come of them, and the page is
    rendered again (the blank-render retry), its products crawled."""
    FakeBrowser.fetched = []
    site = tiny_site(PAGES).split("//")[1]
    rules = rules_from_text(RULES.format(site=site, list_mode="browser"), "r.yaml")

    def factory(mode: RenderMode, settings: Settings) -> Fetcher:
        return SkeletonBrowser(settings) if mode == "browser" else open_fetcher(mode, settings)

    result = crawl_site(rules, tmp_path / "o.jsonl", Settings(), factory=factory)
    records = [json.loads(line) for line in (tmp_path / "o.jsonl").read_text().splitlines()]
    assert sorted((r["url"].split("/", 3)[3], r["name"]) for r in records) == [
        ("p/1", "One!"), ("p/2", "Two!")]
    assert [url.split("/", 3)[3] for url in FakeBrowser.fetched] == ["c/a/"] * 2
    assert (result.stats.blank_renders, result.stats.retries) == (1, 0) and not result.stats.failures
