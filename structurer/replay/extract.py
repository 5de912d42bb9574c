"""Replay a site rule file on one parsed page: the one extraction implementation.

Input: :class:`~structurer.rules.model.SiteRules`, compiled once by
:func:`compile_rules` (every XPath compiled and probed once), then per page an lxml
tree (from :func:`structurer.clean.parse_html`) and the page's URL. Output: for a
list page a :class:`ListResult` (one record per product item, the next page's URL,
the variant layout used); for a detail page one record ``dict``; for any page the
category links as ``(name, absolute URL)``; :func:`extract_page` picks the level.
Used by ``structurer extract``, the analyzer (to verify rules), the crawler and
the Scrapy runtime. Pure: no I/O.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any, Literal
from urllib.parse import urljoin

from lxml import etree

from structurer.errors import RuleError
from structurer.replay.records import (
    FieldPlan,
    JsonLd,
    XPathFn,
    build_record,
    compile_fields,
    compile_xpath,
)
from structurer.rules.model import (
    DetailLayout,
    DetailVariant,
    ListLayout,
    ListVariant,
    Pagination,
    SiteRules,
)
from structurer.values import Base, element_text, link_target

__all__ = ["CompiledRules", "ListResult", "PageResult", "compile_rules", "extract_categories",
           "extract_detail", "extract_list", "extract_page"]

Level = Literal["list", "detail"]

_BASE_HREF: XPathFn = etree.XPath("/html/head/base/@href")
_LINKED: XPathFn = etree.XPath("//a[contains(@href, $needle)]/@href | "
                      "//link[contains(@href, $needle)]/@href")
_PARAM_PATTERN = re.compile(r"\?([\w.\-\[\]]+)=\{page\}")


@dataclass(frozen=True, slots=True)
class CompiledPagination:
    next_xpath: XPathFn | None
    pattern: str | None
    first_page: int
    param: re.Pattern[str] | None    # '?page={page}': the query parameter
    suffix: re.Pattern[str] | None   # 'page/{page}/', '-{page}.html': the URL's tail


@dataclass(frozen=True, slots=True)
class CompiledList:
    name: str | None
    when: XPathFn | None
    item_xpath: XPathFn
    link: int | None  # the detail link's index in plan.xpaths
    plan: FieldPlan
    pagination: CompiledPagination | None


@dataclass(frozen=True, slots=True)
class CompiledDetail:
    name: str | None
    when: XPathFn | None
    plan: FieldPlan


@dataclass(frozen=True)
class CompiledRules:
    """A rule file ready to replay: every XPath compiled, post steps and phrases too."""

    rules: SiteRules
    lists: tuple[CompiledList, ...]      # variants first, the level's own layout last
    details: tuple[CompiledDetail, ...]  # likewise
    category_xpath: XPathFn | None
    items_per_page: float | None

    @property
    def has_list(self) -> bool:
        return bool(self.lists)

    @property
    def has_detail(self) -> bool:
        return bool(self.details)


@dataclass
class ListResult:
    url: str
    items: list[dict[str, Any]] = field(default_factory=list)
    next_url: str | None = None
    layout: str | None = None  # the variant's name (or 'variant N') when its `when` held


@dataclass
class PageResult:
    url: str
    level: Level
    records: list[dict[str, Any]] = field(default_factory=list)
    next_url: str | None = None
    layout: str | None = None


# ----- compiling ------------------------------------------------------------------------------
def _pagination(p: Pagination | None, where: str) -> CompiledPagination | None:
    if p is None:
        return None
    param = suffix = None
    if p.url_pattern:
        found = _PARAM_PATTERN.fullmatch(p.url_pattern)
        if found:
            param = re.compile(rf"([?&]{re.escape(found[1])}=)(\d*)")
        else:
            suffix = re.compile(re.escape(p.url_pattern).replace(r"\{page\}", r"(\d+)") + "$")
    return CompiledPagination(
        compile_xpath(p.next_xpath, f"{where}.next_xpath") if p.next_xpath else None,
        p.url_pattern, p.first_page, param, suffix)


def _merged(own: dict[str, Any], main: dict[str, Any]) -> dict[str, Any]:
    """A variant's fields over the level's: the variant overrides, the level fills in (so
    do its detail link and pagination)."""
    return {**main, **own}


def compile_rules(rules: SiteRules) -> CompiledRules:
    """Compile every XPath, post step and phrase table of ``rules`` once."""
    levels = rules.levels
    lists: list[CompiledList] = []
    if levels.list is not None:
        main = levels.list
        layouts: list[tuple[str | None, str | None, ListLayout | ListVariant, str]] = [
            (v.name or f"variant {i + 1}", v.when, v, f"levels.list.variants[{i}]")
            for i, v in enumerate(main.variants)]
        layouts.append((None, None, main, "levels.list"))
        for name, when, layout, where in layouts:
            link = layout.detail_link_xpath or main.detail_link_xpath
            plan = compile_fields(_merged(layout.fields, main.fields), f"{where}.fields",
                                  ((link, f"{where}.detail_link_xpath"),) if link else ())
            lists.append(CompiledList(
                name, compile_xpath(when, f"{where}.when") if when else None,
                compile_xpath(layout.item_xpath, f"{where}.item_xpath"),
                plan.extra[0] if link else None, plan,
                _pagination(layout.pagination or main.pagination, f"{where}.pagination")))
    details: list[CompiledDetail] = []
    if levels.detail is not None:
        main_d = levels.detail
        dlayouts: list[tuple[str | None, str | None, DetailLayout | DetailVariant, str]] = [
            (v.name or f"variant {i + 1}", v.when, v, f"levels.detail.variants[{i}]")
            for i, v in enumerate(main_d.variants)]
        dlayouts.append((None, None, main_d, "levels.detail"))
        for name, when, dlayout, where in dlayouts:
            details.append(CompiledDetail(
                name, compile_xpath(when, f"{where}.when") if when else None,
                compile_fields(_merged(dlayout.fields, main_d.fields), f"{where}.fields")))
    category = levels.category
    baseline = levels.list.baseline if levels.list is not None else None
    return CompiledRules(
        rules, tuple(lists), tuple(details),
        compile_xpath(category.link_xpath, "levels.category.link_xpath") if category else None,
        baseline.items_per_page if baseline is not None else None)


# ----- helpers --------------------------------------------------------------------------------
def _root(tree: Any) -> Any:
    return tree.getroot() if isinstance(tree, etree._ElementTree) else tree


def _base(root: Any, url: str) -> Base:
    href = _BASE_HREF(root)
    return Base(urljoin(url, href[0].strip()) if href and href[0].strip() else url)


def _holds(when: XPathFn | None, root: Any) -> bool:
    return when is None or bool(when(root))


def _layout(layouts: tuple[Any, ...], root: Any) -> Any:
    return next(layout for layout in layouts if _holds(layout.when, root))


def _link(selected: Any, base: Base) -> str | None:
    """The first usable link of an XPath result (element -> its href) made absolute."""
    for node in selected if isinstance(selected, list) else [selected]:
        href = node if isinstance(node, str) else link_target(node)
        url = base.join(href) if href else None
        if url is not None:
            return url
    return None


# ----- pagination -----------------------------------------------------------------------------
def _pattern_next(p: CompiledPagination, url: str) -> tuple[str, str]:
    """(URL of the page after ``url`` by the URL pattern, the text a link to it contains)."""
    assert p.pattern is not None
    url = url.split("#", 1)[0]
    if p.param is not None:
        found = p.param.search(url)
        page = int(found[2]) if found and found[2] else p.first_page - 1
        key = p.pattern[1:].replace("{page}", str(page + 1))
        if found:
            return url[:found.start(2)] + str(page + 1) + url[found.end(2):], key
        return url + ("&" if "?" in url else "?") + key, key
    assert p.suffix is not None
    found = p.suffix.search(url)
    if found:
        page = int(found[1]) + 1
        tail = p.pattern.replace("{page}", str(page))
        return url[:found.start()] + tail, tail.lstrip("./")
    tail = p.pattern.replace("{page}", str(p.first_page))
    return urljoin(url, tail), tail.lstrip("./")


def _next_url(p: CompiledPagination | None, root: Any, url: str, base: Base, items: int,
              items_per_page: float | None) -> str | None:
    """The next list page: the next link, else the URL pattern's next page if the page
    links to it (or, without a next link rule, if the page is full by the baseline)."""
    if p is None:
        return None
    if p.next_xpath is not None:
        found = _link(p.next_xpath(root), base)
        if found == url:  # a page pointing at itself is the last one
            found = None
        if found is not None or p.pattern is None:
            return found
    candidate, needle = _pattern_next(p, url)
    if any(base.join(href) == candidate for href in _LINKED(root, needle=needle)):
        return candidate
    # no link to it: guess it only from a full page, and only when no next link is known
    if p.next_xpath is None and items_per_page and items and \
            items >= math.floor(items_per_page):
        return candidate
    return None


# ----- extraction -----------------------------------------------------------------------------
def _items(layout: CompiledList, root: Any, base: Base, ld: JsonLd | None,
           nodes: list[Any]) -> list[dict[str, Any]]:
    records = []
    link = layout.link
    plan = layout.plan
    xpaths = plan.xpaths
    for node in nodes:
        selected = [xpath(node) for xpath in xpaths]
        record: dict[str, Any] = {"url": _link(selected[link], base) if link is not None
                                  else None}
        records.append(build_record(plan, node, base, ld, record, selected))
    return records


def _list(compiled: CompiledRules, root: Any, url: str, layout: CompiledList,
          nodes: list[Any]) -> ListResult:
    base = _base(root, url)
    ld = JsonLd(root) if layout.plan.uses_jsonld else None
    items = _items(layout, root, base, ld, nodes)
    return ListResult(url, items,
                      _next_url(layout.pagination, root, url, base, len(items),
                                compiled.items_per_page),
                      layout.name)


def extract_list(compiled: CompiledRules, tree: Any, url: str) -> ListResult:
    """Every product item of a list page as a record, and the next page's URL."""
    if not compiled.lists:
        raise RuleError("the rule file has no list level", site=compiled.rules.site)
    root = _root(tree)
    layout = _layout(compiled.lists, root)
    return _list(compiled, root, url, layout, layout.item_xpath(root))


def _detail(root: Any, url: str, layout: CompiledDetail) -> dict[str, Any]:
    plan = layout.plan
    ld = JsonLd(root) if plan.uses_jsonld else None
    return build_record(plan, root, _base(root, url), ld, {"url": url})


def extract_detail(compiled: CompiledRules, tree: Any, url: str) -> dict[str, Any]:
    """The detail page's record: ``url`` (the page URL) and every detail field."""
    if not compiled.details:
        raise RuleError("the rule file has no detail level", site=compiled.rules.site)
    root = _root(tree)
    return _detail(root, url, _layout(compiled.details, root))


def extract_categories(compiled: CompiledRules, tree: Any, url: str) -> list[tuple[str, str]]:
    """(name, absolute URL) of every category link, first occurrence of each URL."""
    if compiled.category_xpath is None:
        return []
    root = _root(tree)
    base = _base(root, url)
    out: dict[str, str] = {}
    for node in compiled.category_xpath(root):
        if isinstance(node, str):
            owner = node.getparent() if hasattr(node, "getparent") else None
            href: str | None = str(node)
        else:
            owner, href = node, link_target(node)
        link = base.join(href) if href else None
        if link is None or link in out:
            continue
        name = element_text(owner) if owner is not None else ""
        if not name and owner is not None:
            name = next((str(owner.get(a)).strip() for a in ("title", "aria-label")
                         if owner.get(a)), "")
            if not name:
                name = " ".join(str(img.get("alt") or "") for img in owner.iter("img")).strip()
        out[link] = name
    return [(name, link) for link, name in out.items()]


def _looks_like_detail(layout: CompiledDetail, root: Any, items: int) -> bool:
    """The detail level's name and price are there, and either fewer than 2 items or
    most (3/4) of the other detail fields too."""
    plan = layout.plan
    ld = JsonLd(root) if plan.uses_jsonld else None
    found = total = 0
    required = {"name", "price"} & {f.name for f in plan.fields}
    for f in plan.fields:
        if f.xpath is None and f.jsonld is None:
            continue
        total += 1
        hit = f.xpath is not None and bool(plan.xpaths[f.xpath](root))
        if not hit and f.jsonld is not None and ld is not None:
            hit = bool(ld.lookup(f.jsonld)[0])
        found += hit
        if not hit and f.name in required:
            return False
    return found > 0 and (items < 2 or found / total >= 0.75)


def extract_page(compiled: CompiledRules, tree: Any, url: str,
                 level: Literal["list", "detail", "auto"] = "auto") -> PageResult:
    """Extract a page as ``level``; ``auto`` takes it for a list page when the list's
    item XPath selects something, unless the page is better explained as a detail
    page (the detail name and price are there and either fewer than 2 items are, or
    at least 3/4 of the detail fields are: related-product grids on detail pages)."""
    root = _root(tree)
    if level == "detail" or (level == "auto" and not compiled.lists):
        layout_d = _layout(compiled.details, root) if compiled.details else None
        if layout_d is None:
            raise RuleError("the rule file has no detail level", site=compiled.rules.site)
        return PageResult(url, "detail", [_detail(root, url, layout_d)], None, layout_d.name)
    if not compiled.lists:
        raise RuleError("the rule file has no list level", site=compiled.rules.site)
    layout = _layout(compiled.lists, root)
    nodes = layout.item_xpath(root)
    if level == "auto" and compiled.details:
        layout_d = _layout(compiled.details, root)
        if not nodes or _looks_like_detail(layout_d, root, len(nodes)):
            return PageResult(url, "detail", [_detail(root, url, layout_d)], None,
                              layout_d.name)
    result = _list(compiled, root, url, layout, nodes)
    return PageResult(url, "list", result.items, result.next_url, result.layout)
