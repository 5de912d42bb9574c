"""The review report: what a rule file learned, drawn over screenshots of its sample pages.

Input: a :class:`~structurer.rules.model.SiteRules` and :class:`~structurer.config.Settings`
(``chromium_path``, ``browser_timeout``, ``user_agent``). Output: one self-contained
HTML file (inline CSS, screenshots as ``data:`` URIs, no scripts, nothing fetched when
viewed), rendered from ``templates/review.html.j2``.

For each level of the rule file one sample page is opened in Debian's Chromium
(category: the start URL; list: the first category link that yields items, else the
start page; detail: the first item's detail link) and photographed in full. The
rule XPaths are evaluated in that page (``document.evaluate``) and every match's
``getBoundingClientRect`` becomes an overlay box: the list container, each item and
each field in its own colour. Every box carries ``data-*`` attributes (level, role,
field, XPath, item index, match index, CSS-pixel coordinates) so tests can check it
against the page. The page's DOM also feeds :mod:`structurer.runtime.extract` for a
table of sample records, and the report lists per field its XPath, confidence,
runner-up and evidence, and per level the render-mode decision.
"""

from __future__ import annotations

import base64
import logging
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import jinja2
from lxml import etree
from playwright.async_api import Browser, ViewportSize, async_playwright
from playwright.async_api import Error as PlaywrightError

from structurer import __version__
from structurer.clean import parse_html
from structurer.config import CHROMIUM_FLAGS, Settings
from structurer.errors import FetchError
from structurer.fetch import run_sync
from structurer.fetch.browser import INSTALL_HINT, BrowserFetchError, chromium_problem
from structurer.fetch.http import HttpFetcher
from structurer.rules.model import FieldRule, RenderDecision, SiteRules
from structurer.runtime.extract import (
    CompiledRules,
    compile_rules,
    extract_categories,
    extract_detail,
    extract_list,
)

log = logging.getLogger(__name__)

#: The window every sample page is photographed in (tests open pages the same way).
VIEWPORT: ViewportSize = {"width": 1280, "height": 800}
#: Overlay colours, dark enough for a 3:1 contrast on white and distinct from each other.
PALETTE = ("#c62828", "#1565c0", "#2e7d32", "#6a1b9a", "#ef6c00", "#00838f", "#ad1457",
           "#4e342e", "#283593", "#558b2f", "#00695c", "#d84315", "#37474f", "#9e9d24")
CONTAINER_COLOUR, ITEM_COLOUR = "#111111", "#757575"
#: Screenshots stop here (Chromium cannot capture much taller pages in one image).
MAX_HEIGHT = 8000
MAX_RECORDS = 6
CATEGORY_TRIES = 3

#: Evaluates XPaths in the page; returns every matched node's box in CSS pixels.
_BOXES_JS = """
spec => {
  const nodes = (xp, ctx) => {
    let snap;
    try { snap = document.evaluate(xp, ctx, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null); }
    catch (e) { return []; }
    const out = [];
    for (let i = 0; i < snap.snapshotLength; i++) out.push(snap.snapshotItem(i));
    return out;
  };
  const box = n => {
    const el = n.nodeType === 1 ? n : (n.nodeType === 2 ? n.ownerElement : n.parentElement);
    if (!el) return null;
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) return null;
    return [r.left + window.scrollX, r.top + window.scrollY, r.width, r.height];
  };
  const out = [];
  const add = (role, name, xpath, item, index, node) =>
    out.push({role, field: name, xpath, item, index, box: box(node)});
  const fields = (ctx, item) => {
    for (const [name, xp] of spec.fields)
      nodes(xp, ctx).forEach((n, i) => add("field", name, xp, item, i, n));
  };
  if (spec.items === null) { fields(document, -1); return out; }
  const items = nodes(spec.items, document);
  if (items.length && items[0].parentElement)
    add("container", "list container", spec.items + "/..", -1, 0, items[0].parentElement);
  items.forEach((it, i) => { add("item", "item", spec.items, i, i, it); fields(it, i); });
  return out;
}
"""


@dataclass
class Box:
    """One overlay: a node a rule XPath selects, in CSS pixels of the full page."""

    role: str          # container, item or field
    field: str
    xpath: str
    item: int          # the item it lies in (-1: the page)
    index: int         # its position among the XPath's matches
    x: float
    y: float
    w: float
    h: float
    colour: str = ""


@dataclass
class FieldView:
    name: str
    xpath: str
    colour: str
    rule: FieldRule | None = None


@dataclass
class LevelView:
    """One level's sample page, screenshot, overlays, fields and sample records."""

    level: str
    url: str
    decision: RenderDecision
    fields: list[FieldView]
    item_xpath: str | None = None
    image: str = ""
    width: int = 0
    height: int = 0
    boxes: list[Box] = field(default_factory=list)
    records: list[dict[str, Any]] = field(default_factory=list)
    columns: list[str] = field(default_factory=list)
    problem: str | None = None
    unseen: dict[str, int] = field(default_factory=dict)  # matches without a box, by field


def _fields(rules: dict[str, FieldRule]) -> list[FieldView]:
    """Fields with an XPath, each with its colour (JSON-LD and constants have no box)."""
    views = [FieldView(name, r.xpath, "", r) for name, r in rules.items() if r.xpath]
    for i, view in enumerate(views):
        view.colour = PALETTE[i % len(PALETTE)]
    return views


def _detail_fields(rules: SiteRules, html: str) -> dict[str, FieldRule]:
    """The detail fields in force on this page: a variant's whose ``when`` holds, else the
    level's own (a variant's fields override the level's)."""
    detail = rules.levels.detail
    assert detail is not None
    root = parse_html(html)
    for variant in detail.variants:
        try:
            holds = bool(root.xpath(variant.when))
        except etree.XPathError:  # an XPath lxml cannot run just means 'not this variant'
            holds = False
        if holds:
            return {**detail.fields, **variant.fields}
    return dict(detail.fields)


class _Camera:
    """One Chromium tab that opens pages, photographs them and measures XPath matches."""

    def __init__(self, browser: Browser, rules: SiteRules, settings: Settings,
                 http: HttpFetcher) -> None:
        self.browser = browser
        self.rules = rules
        self.settings = settings
        self.http = http  # the crawler's URL checks and robots.txt verdict

    async def _check(self, url: str) -> None:
        self.http.check_url(url, url, redirected=False)
        if self.settings.obey_robots and not await self.http.allowed_by_robots(url):
            raise BrowserFetchError("disallowed by robots.txt", url=url, kind="robots")

    async def shoot(self, view: LevelView) -> str:
        """Fill ``view`` from its page; return the page's DOM as HTML."""
        await self._check(view.url)
        context = await self.browser.new_context(
            viewport=VIEWPORT, user_agent=self.settings.user_agent, service_workers="block")
        try:
            tab = await context.new_page()
            timeout = self.settings.browser_timeout * 1000
            await tab.goto(view.url, wait_until="load", timeout=timeout)
            await tab.wait_for_load_state("networkidle", timeout=timeout)
            html = await tab.content()
            if view.level == "detail" and self.rules.levels.detail is not None:
                view.fields = _fields(_detail_fields(self.rules, html))
            spec = {"items": view.item_xpath, "fields": [[f.name, f.xpath] for f in view.fields]}
            colours = {f.name: f.colour for f in view.fields}
            size = await tab.evaluate("() => [document.documentElement.scrollWidth, "
                                      "document.documentElement.scrollHeight]")
            view.width, view.height = int(size[0]), min(int(size[1]), MAX_HEIGHT)
            for raw in await tab.evaluate(_BOXES_JS, spec):
                if raw["box"] is None or raw["box"][1] + raw["box"][3] > view.height:
                    view.unseen[raw["field"]] = view.unseen.get(raw["field"], 0) + 1
                    continue
                x, y, w, h = (round(float(v), 1) for v in raw["box"])
                colour = colours.get(raw["field"]) or (
                    CONTAINER_COLOUR if raw["role"] == "container" else ITEM_COLOUR)
                view.boxes.append(Box(raw["role"], raw["field"], raw["xpath"], raw["item"],
                                      raw["index"], x, y, w, h, colour))
            png = await tab.screenshot(full_page=True, type="jpeg", quality=72, clip={
                "x": 0, "y": 0, "width": view.width, "height": view.height})
            view.image = "data:image/jpeg;base64," + base64.b64encode(png).decode("ascii")
            return str(html)
        finally:
            await context.close()


def _records(compiled: CompiledRules, view: LevelView, html: str) -> list[str]:
    """Fill the view's sample records; return the links they lead to (detail URLs)."""
    tree = parse_html(html, view.url)
    if view.level == "category":
        links = extract_categories(compiled, tree, view.url)
        view.records = [{"name": name, "url": url} for name, url in links[:MAX_RECORDS * 2]]
        view.columns = ["name", "url"]
        return [url for _, url in links]
    if view.level == "list":
        items = extract_list(compiled, tree, view.url).items
        view.records = items[:MAX_RECORDS]
        view.columns = list(dict.fromkeys(k for r in view.records for k in r))
        return [str(r["url"]) for r in items if r.get("url")]
    view.records = [extract_detail(compiled, tree, view.url)]
    view.columns = list(view.records[0])
    return []


async def _collect(rules: SiteRules, settings: Settings) -> list[LevelView]:
    problem = chromium_problem(settings.chromium_path)
    if problem:
        raise BrowserFetchError(problem, url=None, kind="browser")
    compiled = compile_rules(rules)
    levels = rules.levels
    views: list[LevelView] = []
    async with async_playwright() as playwright:
        try:
            browser = await playwright.chromium.launch(
                executable_path=settings.chromium_path, args=list(CHROMIUM_FLAGS),
                headless=True, timeout=settings.browser_timeout * 1000)
        except PlaywrightError as error:
            raise BrowserFetchError(f"cannot start Chromium at {settings.chromium_path!r}: "
                                    f"{str(error).splitlines()[0]}; {INSTALL_HINT}",
                                    url=None, kind="browser") from None
        camera = _Camera(browser, rules, settings, HttpFetcher(settings))
        try:
            categories: list[str] = []
            if levels.category is not None:
                view = LevelView("category", rules.start_url, levels.category.render,
                                 [FieldView("category link", levels.category.link_xpath,
                                            PALETTE[0])])
                views.append(view)
                categories = _records(compiled, view, await _safely(camera, view))
            details: list[str] = []
            if levels.list is not None:
                lst = levels.list
                for url in [*categories[:CATEGORY_TRIES], rules.start_url]:
                    view = LevelView("list", url, lst.render, _fields(lst.fields),
                                     item_xpath=lst.item_xpath)
                    details = _records(compiled, view, await _safely(camera, view))
                    if view.records or url == rules.start_url:
                        break
                views.append(view)
            if levels.detail is not None:
                url = details[0] if details else rules.start_url
                view = LevelView("detail", url, levels.detail.render,
                                 _fields(levels.detail.fields))
                views.append(view)
                _records(compiled, view, await _safely(camera, view))
        finally:
            await camera.http.close()
            await browser.close()
    return views


async def _safely(camera: _Camera, view: LevelView) -> str:
    """The page's HTML; a page that cannot be opened is reported in the view, not raised."""
    try:
        return await camera.shoot(view)
    except (PlaywrightError, FetchError) as error:
        view.problem = f"could not open {view.url}: {str(error).splitlines()[0]}"
        log.warning("review: %s", view.problem)
        return "<html><body></body></html>"


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("structurer.review", "templates"),
        autoescape=jinja2.select_autoescape(["html", "html.j2"]),
        trim_blocks=True, lstrip_blocks=True, undefined=jinja2.StrictUndefined)
    env.filters["pct"] = lambda value, total: f"{100 * value / total:.4f}%" if total else "0%"
    env.filters["cell"] = _cell
    return env


def _cell(value: Any) -> str:
    """A record value for a table cell, shortened."""
    if value is None:
        return "—"
    text = " > ".join(map(str, value)) if isinstance(value, list) else str(value)
    return text if len(text) <= 120 else text[:117] + "…"


def render_review(rules: SiteRules, views: list[LevelView], source: str = "") -> str:
    """The report's HTML for views already collected."""
    return _environment().get_template("review.html.j2").render(
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
