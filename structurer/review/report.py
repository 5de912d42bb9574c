"""The review report: what a rule file learned, drawn over screenshots of its sample pages.

Input: a :class:`~structurer.rules.model.SiteRules` and :class:`~structurer.config.Settings`
(``chromium_path``, ``browser_timeout``, ``user_agent``, ``max_page_bytes``). Output: one
self-contained
HTML file (inline CSS, screenshots as ``data:`` URIs, no scripts, nothing fetched when
viewed; only http(s) URLs are links), rendered from ``templates/review.html.j2``.

Like a crawl, the review stays on the rule file's hosts (``site``, the start URL's
host and ``hosts``, unless the settings name ``allowed_hosts``): a sample link or
redirect elsewhere is reported, never requested. Pages larger than ``max_page_bytes``
are refused, as the crawler refuses them, and each page is parsed once.

Each level gets several sample pages: category, the start URL; list, up to three
pages that yield items (category links first, else the start page, then the pages
their pagination leads to); detail, the first item of each sample list page, then
further items of the first. The first sample page of a level is photographed in full
by :mod:`structurer.review.camera`: every match of the rule XPaths becomes an overlay
box (the list container, each item, each field in its own colour) carrying ``data-*``
attributes (level, role, field, XPath, item index, match index, CSS-pixel
coordinates) so tests can check it against the page. The other sample pages are read
as the crawler reads them (HTTP for static levels, the browser for rendered ones).
:mod:`structurer.replay.extract` turns every sample page into records for the
level's table of sample records; the report also lists per field its XPath,
confidence, runner-up and evidence, and per level the render-mode decision.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from lxml import etree
from lxml.html import HtmlElement
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import async_playwright

from structurer import __version__
from structurer.clean import parse_html
from structurer.config import Settings
from structurer.errors import FetchError
from structurer.fetch import open_fetcher, run_sync
from structurer.fetch.chromium import launch
from structurer.logs import logger
from structurer.replay.extract import (
    CompiledRules,
    compile_rules,
    extract_categories,
    extract_detail,
    extract_list,
)
from structurer.review.camera import MAX_HEIGHT, VIEWPORT, Box, Camera, FieldsOf, Shot
from structurer.review.templating import environment
from structurer.rules.model import FieldRule, RenderDecision, SiteRules
from structurer.schema import RenderMode

log = logger(__name__)

__all__ = ["VIEWPORT", "build_review", "render_review", "write_review"]

#: Overlay colours, dark enough for a 3:1 contrast on white and distinct from each other.
PALETTE = ("#c62828", "#1565c0", "#2e7d32", "#6a1b9a", "#ef6c00", "#00838f", "#ad1457",
           "#4e342e", "#283593", "#558b2f", "#00695c", "#d84315", "#37474f", "#9e9d24")
SAMPLES = 3          # sample pages with records per list and detail level
PHOTO_TRIES = 3      # candidates tried for the photographed page before the fallback
READ_TRIES = 6       # further candidates read at most per level
ROWS = {"category": 12, "list": 4, "detail": 1}   # records shown per sample page


@dataclass
class FieldView:
    name: str
    xpath: str
    colour: str
    rule: FieldRule | None = None


@dataclass
class SamplePage:
    url: str
    records: int = 0
    photographed: bool = False
    problem: str | None = None


@dataclass
class LevelView:
    """One level: its photographed page with overlays, its fields and sample records."""

    level: str
    url: str
    decision: RenderDecision
    fields: list[FieldView]
    item_xpath: str | None = None
    image: str = ""
    width: int = 0
    height: int = 0
    boxes: list[Box] = field(default_factory=list)
    problem: str | None = None
    unseen: dict[str, int] = field(default_factory=dict)  # matches without a box, by field
    samples: list[SamplePage] = field(default_factory=list)
    rows: list[tuple[int, dict[str, Any]]] = field(default_factory=list)  # (sample no., record)
    columns: list[str] = field(default_factory=list)

    def photograph(self, url: str, shot: Shot | None, problem: str | None = None) -> None:
        """Show ``shot`` of ``url`` (or the problem that kept it from being taken)."""
        self.url, self.problem = url, problem
        self.image, self.width, self.height = (shot.image, shot.width, shot.height) if shot \
            else ("", 0, 0)
        self.boxes, self.unseen = (shot.boxes, shot.unseen) if shot else ([], {})

    def add(self, sample: SamplePage, records: list[dict[str, Any]]) -> None:
        self.samples.append(sample)
        number = len(self.samples)
        self.rows += [(number, r) for r in records[:ROWS[self.level]]]
        self.columns = list(dict.fromkeys([*self.columns, *(k for r in records for k in r)]))


@dataclass
class Extracted:
    records: list[dict[str, Any]]
    links: list[str]              # where the page leads: category or detail URLs
    next_url: str | None = None


def _fields(rules: dict[str, FieldRule]) -> list[FieldView]:
    """Fields with an XPath, each with its colour (JSON-LD and constants have no box)."""
    views = [FieldView(name, r.xpath, "", r) for name, r in rules.items() if r.xpath]
    for i, view in enumerate(views):
        view.colour = PALETTE[i % len(PALETTE)]
    return views


def _detail_fields(rules: SiteRules, root: HtmlElement) -> dict[str, FieldRule]:
    """The detail fields in force on this page: a variant's whose ``when`` holds, else the
    level's own (a variant's fields override the level's)."""
    detail = rules.levels.detail
    assert detail is not None
    for variant in detail.variants:
        try:
            holds = bool(root.xpath(variant.when))
        except etree.XPathError:  # an XPath lxml cannot run just means 'not this variant'
            holds = False
        if holds:
            return {**detail.fields, **variant.fields}
    return dict(detail.fields)


def _extract(compiled: CompiledRules, level: str, tree: HtmlElement, url: str) -> Extracted:
    if level == "category":
        links = extract_categories(compiled, tree, url)
        return Extracted([{"name": name, "url": link} for name, link in links],
                         [link for _, link in links])
    if level == "list":
        result = extract_list(compiled, tree, url)
        return Extracted(result.items, [str(r["url"]) for r in result.items if r.get("url")],
                         result.next_url)
    return Extracted([extract_detail(compiled, tree, url)], [])


def _spread(urls: list[str], k: int) -> list[str]:
    """``k`` URLs from the middles of ``k`` equal stretches of ``urls`` first, then the
    rest: neighbouring links (a department, then its sub-categories) list the same
    products, distant ones do not."""
    picks = [urls[(2 * i + 1) * len(urls) // (2 * k)] for i in range(k)] if len(urls) > k else []
    return list(dict.fromkeys([*picks, *urls]))


def _problem(url: str, error: Exception) -> str:
    text = f"could not open {url}: {str(error).splitlines()[0]}"
    log.warning("review: %s", text)
    return text


class _Sampler:
    """Finds a level's sample pages, photographs the first and reads the others."""

    def __init__(self, rules: SiteRules, camera: Camera) -> None:
        self.rules, self.compiled, self.camera = rules, compile_rules(rules), camera
        self._parsed: tuple[str, HtmlElement] | None = None  # the last page, parsed once

    def _tree(self, html: str) -> HtmlElement:
        if self._parsed is None or self._parsed[0] is not html:
            self._parsed = (html, parse_html(html))
        return self._parsed[1]

    def _fields_of(self, view: LevelView) -> FieldsOf:
        def fields_of(html: str) -> list[tuple[str, str, str]]:
            if view.level == "detail" and self.rules.levels.detail is not None:
                view.fields = _fields(_detail_fields(self.rules, self._tree(html)))
            return [(f.name, f.xpath, f.colour) for f in view.fields]
        return fields_of

    async def _photograph(self, view: LevelView, url: str) -> Extracted:
        try:
            shot = await self.camera.shoot(url, view.item_xpath, self._fields_of(view))
        except (PlaywrightError, FetchError) as error:
            view.photograph(url, None, _problem(url, error))
            for earlier in view.samples:
                earlier.photographed = False
            view.add(SamplePage(url, photographed=True, problem=view.problem), [])
            return Extracted([], [])
        view.photograph(url, shot)
        for earlier in view.samples:   # tried before, without records: not the one shown
            earlier.photographed = False
        tree, self._parsed = self._tree(shot.html), None
        found = _extract(self.compiled, view.level, tree, shot.url or url)
        view.add(SamplePage(url, len(found.records), photographed=True), found.records)
        return found

    async def _read(self, view: LevelView, url: str) -> Extracted:
        """A further sample page, fetched the way the crawler fetches its level."""
        try:
            if view.decision.mode == RenderMode.BROWSER:
                html, final = await self.camera.dom(url)
            else:
                page = await self.camera.http.fetch(url)
                html, final = page.text, page.final_url
        except (PlaywrightError, FetchError) as error:
            view.add(SamplePage(url, problem=_problem(url, error)), [])
            return Extracted([], [])
        found = _extract(self.compiled, view.level, parse_html(html, final), final)
        view.add(SamplePage(final, len(found.records)), found.records)
        return found

    async def sample(self, view: LevelView, candidates: list[str], fallback: str | None,
                     wanted: int) -> list[Extracted]:
        """Photograph the first of ``candidates`` (up to PHOTO_TRIES, then ``fallback``)
        that yields records, then read the next candidates and the pages pagination leads
        to until ``wanted`` sample pages yielded records."""
        queue = list(dict.fromkeys(candidates))
        seen: set[str] = set()
        found: list[Extracted] = []
        photo = [*queue[:PHOTO_TRIES], *([fallback] if fallback else [])]
        for url in dict.fromkeys(photo):
            seen.add(url)
            got = await self._photograph(view, url)
            if got.records:
                found.append(got)
                queue = _spread([u for u in queue[queue.index(url) + 1:] if u not in seen],
                                wanted - 1) if url in queue else []
                queue += [got.next_url] if got.next_url else []
                break
        for _ in range(READ_TRIES):
            if len(found) >= wanted or not found or not queue:
                break
            url = queue.pop(0)
            if url in seen:
                continue
            seen.add(url)
            got = await self._read(view, url)
            if got.records:
                found.append(got)
                queue += [got.next_url] if got.next_url else []
        return found


async def _collect(rules: SiteRules, settings: Settings) -> list[LevelView]:
    if not settings.allowed_hosts:   # the crawl's hosts: the review goes nowhere else
        settings = settings.model_copy(update={"allowed_hosts": sorted(rules.allowed_hosts)})
    if rules.session:                # cookies kept, as the crawl keeps them
        settings = settings.model_copy(update={"session": True})
    levels = rules.levels
    views: list[LevelView] = []
    async with async_playwright() as playwright:
        browser = await launch(playwright, settings)
        http = open_fetcher(RenderMode.STATIC, settings)
        sampler = _Sampler(rules, Camera(browser, settings, http))
        try:
            categories: list[str] = []
            if levels.category is not None:
                view = LevelView("category", rules.start_url, levels.category.render,
                                 [FieldView("category link", levels.category.link_xpath,
                                            PALETTE[0])] if levels.category.link_xpath else [])
                views.append(view)
                found = await sampler.sample(view, [rules.start_url], None, 1)
                categories = found[0].links if found else []
            lists: list[Extracted] = []
            if levels.list is not None:
                view = LevelView("list", rules.start_url, levels.list.render,
                                 _fields(levels.list.fields), item_xpath=levels.list.item_xpath)
                views.append(view)
                lists = await sampler.sample(view, categories, rules.start_url, SAMPLES)
            if levels.detail is not None:
                view = LevelView("detail", rules.start_url, levels.detail.render,
                                 _fields(levels.detail.fields))
                views.append(view)
                # one product of each sample list page first (different categories)
                details = [*(f.links[0] for f in lists if f.links),
                           *(link for f in lists for link in f.links[1:])]
                await sampler.sample(view, details, None if details else rules.start_url,
                                     SAMPLES)
        finally:
            await sampler.camera.http.close()
            await browser.close()
    return views


def render_review(rules: SiteRules, views: list[LevelView], source: str = "") -> str:
    """The report's HTML for views already collected."""
    return environment().get_template("review.html.j2").render(
        rules=rules, views=views, source=source, version=__version__, max_height=MAX_HEIGHT,
        made=datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"))


def build_review(rules: SiteRules, settings: Settings | None = None, source: str = "") -> str:
    """Open the sample pages of every level in Chromium and return the report's HTML."""
    views = run_sync(_collect(rules, settings or Settings()))
    return render_review(rules, views, source)


def write_review(rules: SiteRules, out: str | Path, settings: Settings | None = None,
                 source: str = "") -> Path:
    """Build the report and write it to ``out``; returns the path written."""
    path = Path(out)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(build_review(rules, settings, source), encoding="utf-8")
    return path
