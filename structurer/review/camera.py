"""The review's camera: a Chromium that opens sample pages, photographs them and measures
where rule XPaths point.

Input: URLs, an item XPath and field XPaths, :class:`~structurer.config.Settings`
(``chromium_path``, ``browser_timeout``, ``user_agent``, ``obey_robots``). Output: a
:class:`Shot` — the rendered DOM, a full-page JPEG as a ``data:`` URI and one
:class:`Box` per node the XPaths select (``document.evaluate`` in the page, each
match's ``getBoundingClientRect`` in CSS pixels of the full page) — or just the DOM
of further sample pages (:meth:`Camera.dom`). Every URL, and every redirect hop, passes
the crawler's URL checks (the rule file's hosts) and robots.txt verdict before it is
requested, and every request of a tab goes through the browser fetcher's
:class:`~structurer.fetch.guard.RouteGuard`: documents and XHR go nowhere off the
hosts, and a page larger than ``max_page_bytes`` (as served or as rendered) is refused.
"""

from __future__ import annotations

import base64
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from playwright.async_api import Browser, ViewportSize
from playwright.async_api import Page as Tab

from structurer.config import Settings
from structurer.errors import FetchError
from structurer.fetch.browser import BLOCKED_RESOURCES
from structurer.fetch.guard import RouteGuard, ms_left, settle
from structurer.fetch.http import HttpFetcher

__all__ = ["MAX_HEIGHT", "MAX_WIDTH", "VIEWPORT", "Box", "Camera", "FieldsOf", "Shot"]

#: The window every sample page is photographed in (tests open pages the same way).
VIEWPORT: ViewportSize = {"width": 1280, "height": 800}
#: Screenshots stop here (Chromium cannot capture much taller pages in one image, and the
#: report embeds it): a page's top and left part.
MAX_HEIGHT = 8000
MAX_WIDTH = 4000
CONTAINER_COLOUR, ITEM_COLOUR = "#111111", "#757575"

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
class Shot:
    """A photographed page: its DOM, its picture and where the XPaths point in it."""

    html: str
    url: str = ""      # where the page ended up (after redirects)
    image: str = ""
    width: int = 0
    height: int = 0
    boxes: list[Box] = field(default_factory=list)
    unseen: dict[str, int] = field(default_factory=dict)  # matches without a box, by field


#: (name, XPath, colour) of the fields to draw, given the page's DOM (a detail variant's
#: fields depend on the page).
FieldsOf = Callable[[str], list[tuple[str, str, str]]]


class Camera:
    """Chromium tabs that open pages, photograph them and measure XPath matches."""

    def __init__(self, browser: Browser, settings: Settings, http: HttpFetcher) -> None:
        self.browser = browser
        self.settings = settings
        self.http = http  # the crawler's URL checks and robots.txt verdict

    async def _check(self, url: str, target: str, *, redirected: bool) -> None:
        self.http.check_url(url, target, redirected=redirected)
        if self.settings.obey_robots and not await self.http.allowed_by_robots(target):
            where = f" (redirected to {target})" if redirected else ""
            raise FetchError(f"disallowed by robots.txt{where}", url=url, kind="robots")

    @asynccontextmanager
    async def _tab(self, url: str, *, media: bool) -> AsyncIterator[Tab]:
        """A tab with ``url`` loaded and the network idle (or as it stands after half of
        ``browser_timeout``), closed afterwards."""
        await self._check(url, url, redirected=False)
        s = self.settings
        context = await self.browser.new_context(
            viewport=VIEWPORT, user_agent=s.user_agent, service_workers="block")
        try:
            guard = RouteGuard(self.http.scope, block=() if media else BLOCKED_RESOURCES,
                               max_redirects=s.max_redirects, max_bytes=s.max_page_bytes,
                               timeout=s.browser_timeout)
            await guard.install(context)
            tab = await context.new_page()
            deadline = time.monotonic() + s.browser_timeout
            await guard.open(tab, url, wait_until="commit", timeout=lambda: ms_left(deadline),
                             check=lambda target: self._check(url, target, redirected=True))
            await settle(tab, min(deadline, time.monotonic() + s.browser_timeout / 2))
            yield tab
        finally:
            await context.close()

    async def _content(self, tab: Tab, url: str) -> str:
        """The rendered DOM, refused past ``max_page_bytes`` characters."""
        html = str(await tab.content())
        if len(html) > self.settings.max_page_bytes:
            raise FetchError(f"rendered page larger than {self.settings.max_page_bytes}"
                             " characters", url=url, kind="too_large")
        return html

    async def dom(self, url: str) -> tuple[str, str]:
        """The rendered DOM of ``url`` and where it ended up (images, media, fonts not
        loaded)."""
        async with self._tab(url, media=False) as tab:
            return await self._content(tab, url), tab.url

    async def shoot(self, url: str, item_xpath: str | None, fields_of: FieldsOf) -> Shot:
        """Photograph ``url`` in full and box every node the XPaths select."""
        async with self._tab(url, media=True) as tab:
            shot = Shot(await self._content(tab, url), tab.url)
            fields = fields_of(shot.html)
            spec = {"items": item_xpath, "fields": [[name, xp] for name, xp, _ in fields]}
            colours = {name: colour for name, _, colour in fields}
            size = await tab.evaluate("() => [document.documentElement.scrollWidth, "
                                      "document.documentElement.scrollHeight]")
            shot.width, shot.height = min(int(size[0]), MAX_WIDTH), min(int(size[1]), MAX_HEIGHT)
            for raw in await tab.evaluate(_BOXES_JS, spec):
                if raw["box"] is None or raw["box"][1] + raw["box"][3] > shot.height \
                        or raw["box"][0] + raw["box"][2] > shot.width:
                    shot.unseen[raw["field"]] = shot.unseen.get(raw["field"], 0) + 1
                    continue
                x, y, w, h = (round(float(v), 1) for v in raw["box"])
                colour = colours.get(raw["field"]) or (
                    CONTAINER_COLOUR if raw["role"] == "container" else ITEM_COLOUR)
                shot.boxes.append(Box(raw["role"], raw["field"], raw["xpath"], raw["item"],
                                      raw["index"], x, y, w, h, colour))
            jpeg = await tab.screenshot(full_page=True, type="jpeg", quality=72, clip={
                "x": 0, "y": 0, "width": shot.width, "height": shot.height})
            shot.image = "data:image/jpeg;base64," + base64.b64encode(jpeg).decode("ascii")
            return shot
