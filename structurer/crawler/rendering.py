"""How a crawl fetches each page: over HTTP, or in a browser, and how a browser loads a list.

Input: a :class:`~structurer.rules.model.SiteRules` (its levels' render modes and list
pagination) and the settings. Output: the render mode of each (level, depth) of a crawl
(:func:`render_modes`, :func:`mode_for`) and, for a list paged by "load more" or
infinite scroll, how the browser loads every item (:func:`expand_for`); both runtimes
use them.
"""

from __future__ import annotations

from structurer.config import Settings
from structurer.crawler.frontier import CATEGORY, DETAIL, LIST
from structurer.fetch.base import Expand
from structurer.rules.model import SiteRules
from structurer.schema import RenderMode

__all__ = ["Modes", "expand_for", "mode_for", "render_modes"]

Modes = dict[tuple[int, int], RenderMode]


def expand_for(rules: SiteRules, settings: Settings) -> Expand | None:
    """How a browser loads every item of a list page, when the list level's pagination
    is a "load more" control or infinite scroll (None otherwise)."""
    lv = rules.levels.list
    p = lv.pagination if lv is not None else None
    if lv is None or p is None or p.method not in ("load_more", "scroll"):
        return None
    return Expand(p.method, lv.item_xpath, p.more_xpath, settings.paging_walk)


def render_modes(rules: SiteRules) -> Modes:
    """The render mode of each (level, depth > 0) of a crawl: the start page's level's own;
    pages behind category links are read as lists too, so they get a browser if either
    the category or the list level asks for one (a list paged by "load more" or scrolling
    asks for one; a category level whose ``render.entry_only`` says only the start page
    needs one, for a menu a script builds, does not)."""
    static, browser = RenderMode.STATIC, RenderMode.BROWSER
    levels = rules.levels
    start = levels.category or levels.list or levels.detail
    paging = levels.list.pagination if levels.list else None
    lists = browser if paging is not None and paging.method in ("load_more", "scroll") else \
        levels.list.render.mode if levels.list else static
    category = levels.category.render.mode if levels.category \
        and not levels.category.render.entry_only else static
    return {(CATEGORY, 0): start.render.mode if start else static,
            (CATEGORY, 1): browser if browser in (category, lists) else static,
            (LIST, 1): lists,
            (DETAIL, 1): levels.detail.render.mode if levels.detail else static}


def mode_for(modes: Modes, level: int, depth: int) -> RenderMode:
    return modes[level, min(depth, 1) if level == CATEGORY else 1]
