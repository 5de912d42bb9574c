"""Replay a site rule file on one parsed page: the one extraction implementation.

Input: :class:`~structurer.rules.model.SiteRules`, compiled once by
:func:`compile_rules` (every XPath compiled and probed once), then per page an lxml
tree (from :func:`structurer.clean.parse_html`) and the page's URL. Output: for a
list page a :class:`ListResult` (one record per product item, the next page's URL,
the variant layout used); for a detail page one record ``dict``; for any page the
category links as ``(name, absolute URL)``; :func:`extract_page` picks the level, or
``other`` for a page that shows neither the list's items nor the detail level. Each call
evaluates the rules within a time budget (``budget`` seconds, :data:`PAGE_BUDGET` by
default): past it the page is given up with a :class:`RuleTimeout` naming the rule that
took the time. Used by ``structurer extract``, the analyzer (to verify rules), the
crawler and the Scrapy runtime. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from time import thread_time
from typing import Any, Literal, TypeVar
from urllib.parse import urljoin

from lxml import etree

from structurer.errors import RuleError
from structurer.kinds import Words, compile_words
from structurer.replay.pagination import (
    CompiledPagination,
    compile_pagination,
    first_link,
    label,
    next_url,
)
from structurer.replay.records import FieldPlan, build_record, compile_fields, select
from structurer.replay.xpaths import PAGE_BUDGET, Clock, RuleTimeout, XPathFn, compile_xpath
from structurer.rules.model import (
    DetailLayout,
    DetailVariant,
    ListLayout,
    ListVariant,
    SiteRules,
)
from structurer.structured import JsonLd
from structurer.values import Base, element_text, link_target

__all__ = ["PAGE_BUDGET", "CompiledRules", "ListResult", "PageResult", "RuleTimeout",
           "compile_rules", "extract_categories", "extract_detail", "extract_item_links",
           "extract_list", "extract_page"]

Level = Literal["list", "detail", "other"]
Budget = float | None

_BASE_HREF: XPathFn = etree.XPath("/html/head/base/@href")


@dataclass(frozen=True, slots=True)
class CompiledList:
    name: str | None
    when: XPathFn | None
    item_xpath: XPathFn
    link: int | None  # the detail link's index in plan.xpaths
    plan: FieldPlan
    pagination: CompiledPagination | None
    item_label: str = ""
    when_label: str = ""


@dataclass(frozen=True, slots=True)
class CompiledDetail:
    name: str | None
    when: XPathFn | None
    plan: FieldPlan
    when_label: str = ""


@dataclass(frozen=True)
class CompiledRules:
    """A rule file ready to replay: every XPath compiled, post steps and phrases too."""

    rules: SiteRules
    lists: tuple[CompiledList, ...]      # variants first, the level's own layout last
    details: tuple[CompiledDetail, ...]  # likewise
    category_xpath: XPathFn | None
    items_per_page: float | None
    category_label: str = ""
    words: Words | None = None           # the rule file's vocabulary (None: the shipped one)

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
def _merged(own: dict[str, Any], main: dict[str, Any]) -> dict[str, Any]:
    """A variant's fields over the level's: the variant overrides, the level fills in (so
    do its detail link and pagination)."""
    return {**main, **own}


_Main = TypeVar("_Main", ListLayout, DetailLayout)
_Variant = TypeVar("_Variant", ListVariant, DetailVariant)


def _layouts(main: _Main, variants: Sequence[_Variant], where: str
             ) -> list[tuple[str | None, str | None, _Main | _Variant, str]]:
    """A level's layouts in the order they are tried: each variant (named ``variant N``
    when unnamed) with its condition, then the level itself; each with its place in the
    rule file (``where``: ``levels.list``)."""
    out: list[tuple[str | None, str | None, _Main | _Variant, str]] = [
        (v.name or f"variant {i + 1}", v.when, v, f"{where}.variants[{i}]")
        for i, v in enumerate(variants)]
    out.append((None, None, main, where))
    return out


def compile_rules(rules: SiteRules) -> CompiledRules:
    """Compile every XPath, post step and phrase table of ``rules`` once."""
    levels = rules.levels
    words = compile_words(rules.record.vocabulary if rules.record is not None else None)
    lists: list[CompiledList] = []
    if levels.list is not None:
        main = levels.list
        for name, when, layout, where in _layouts(main, main.variants, "levels.list"):
            link = layout.detail_link_xpath or main.detail_link_xpath
            plan = compile_fields(_merged(layout.fields, main.fields), f"{where}.fields",
                                  ((link, f"{where}.detail_link_xpath"),) if link else (),
                                  words)
            lists.append(CompiledList(
                name, compile_xpath(when, f"{where}.when") if when else None,
                compile_xpath(layout.item_xpath, f"{where}.item_xpath"),
                plan.extra[0] if link else None, plan,
                compile_pagination(layout.pagination or main.pagination, f"{where}.pagination"),
                label(f"{where}.item_xpath", layout.item_xpath), label(f"{where}.when", when)))
    details: list[CompiledDetail] = []
    if levels.detail is not None:
        main_d = levels.detail
        for name, when, dlayout, where in _layouts(main_d, main_d.variants, "levels.detail"):
            details.append(CompiledDetail(
                name, compile_xpath(when, f"{where}.when") if when else None,
                compile_fields(_merged(dlayout.fields, main_d.fields), f"{where}.fields",
                               words=words),
                label(f"{where}.when", when)))
    category = levels.category
    baseline = levels.list.baseline if levels.list is not None else None
    return CompiledRules(
        rules, tuple(lists), tuple(details),
        compile_xpath(category.link_xpath, "levels.category.link_xpath")
        if category and category.link_xpath else None,
        baseline.items_per_page if baseline is not None else None,
        label("levels.category.link_xpath", category.link_xpath if category else None), words)


# ----- helpers --------------------------------------------------------------------------------
def _root(tree: Any) -> Any:
    return tree.getroot() if isinstance(tree, etree._ElementTree) else tree


def _base(root: Any, url: str) -> Base:
    href = _BASE_HREF(root)
    return Base(urljoin(url, href[0].strip()) if href and href[0].strip() else url)


def _layout(layouts: tuple[Any, ...], root: Any, clock: Clock) -> Any:
    """The first layout whose ``when`` holds (the level's own, last, always does)."""
    return next(layout for layout in layouts
                if layout.when is None or bool(clock.run(layout.when_label, layout.when, root)))


def _item_nodes(layout: CompiledList, root: Any, clock: Clock) -> list[Any]:
    """The elements the item XPath selects (a rule file's checks refuse others)."""
    found = clock.run(layout.item_label, layout.item_xpath, root)
    return [n for n in found if isinstance(n, etree._Element)] if isinstance(found, list) \
        else []


# ----- extraction -----------------------------------------------------------------------------
def _items(layout: CompiledList, base: Base, ld: JsonLd | None, nodes: list[Any],
           clock: Clock) -> list[dict[str, Any]]:
    records = []
    link = layout.link
    plan = layout.plan
    xpaths = plan.xpaths
    costs = clock.costs(plan.labels)
    for node in nodes:
        if thread_time() < clock.watch:  # a quick page so far: no timing per expression
            selected = [xpath(node) for xpath in xpaths]
            timed = None
        else:
            selected, timed = select(plan, node, clock, costs), clock
        record: dict[str, Any] = {"url": first_link(selected[link], base) if link is not None
                                  else None}
        records.append(build_record(plan, node, base, ld, record, selected, timed))
    clock.check()  # select() checks after each item's expressions, this after the last one's
    return records


def _list(compiled: CompiledRules, root: Any, url: str, layout: CompiledList,
          nodes: list[Any], clock: Clock, jsonld: list[dict[str, Any]] | None = None
          ) -> ListResult:
    base = _base(root, url)
    ld = JsonLd(root, jsonld) if layout.plan.uses_jsonld else None
    items = _items(layout, base, ld, nodes, clock)
    return ListResult(url, items,
                      next_url(layout.pagination, root, url, base, len(items),
                                compiled.items_per_page, clock),
                      layout.name)


def _list_layout(compiled: CompiledRules, tree: Any, url: str, budget: Budget
                 ) -> tuple[Any, Clock, Any]:
    """(root, clock, the list layout that applies) of a list page: where reading its
    items begins, for its records or its links alike."""
    if not compiled.lists:
        raise RuleError("the rule file has no list level", site=compiled.rules.site)
    root = _root(tree)
    clock = Clock(url, budget)
    return root, clock, _layout(compiled.lists, root, clock)


def extract_list(compiled: CompiledRules, tree: Any, url: str, *,
                 budget: Budget = PAGE_BUDGET, jsonld: list[dict[str, Any]] | None = None
                 ) -> ListResult:
    """Every product item of a list page as a record, and the next page's URL. Rule
    evaluation past ``budget`` seconds raises :class:`RuleTimeout` (None: no limit).
    ``jsonld``: the page's JSON-LD objects, read before its scripts were emptied (a
    :class:`~structurer.page.view.PageView`'s tree); else read from the tree."""
    root, clock, layout = _list_layout(compiled, tree, url, budget)
    return _list(compiled, root, url, layout, _item_nodes(layout, root, clock), clock, jsonld)


def extract_item_links(compiled: CompiledRules, tree: Any, url: str, *,
                       budget: Budget = PAGE_BUDGET) -> list[str | None] | None:
    """Each item's ``url`` as :func:`extract_list` gives it (its detail link), without
    reading the items' other fields; None when an item without a detail link may take
    its URL from a ``url`` field (only :func:`extract_list` tells then)."""
    root, clock, layout = _list_layout(compiled, tree, url, budget)
    plan, at = layout.plan, layout.link
    by_field = any(f.name == "url" for f in plan.fields)
    if at is None and by_field:
        return None
    base, links = _base(root, url), []
    for node in _item_nodes(layout, root, clock):
        link = first_link(clock.run(plan.labels[at], plan.xpaths[at], node), base) \
            if at is not None else None
        if link is None and by_field:
            return None
        links.append(link)
    clock.check()
    return links


def _detail(root: Any, url: str, layout: CompiledDetail, clock: Clock,
            selected: list[Any] | None = None, jsonld: list[dict[str, Any]] | None = None
            ) -> dict[str, Any]:
    plan = layout.plan
    ld = JsonLd(root, jsonld) if plan.uses_jsonld else None
    record = build_record(plan, root, _base(root, url), ld, {"url": url}, selected, clock)
    clock.check()
    return record


def extract_detail(compiled: CompiledRules, tree: Any, url: str, *,
                   budget: Budget = PAGE_BUDGET, jsonld: list[dict[str, Any]] | None = None
                   ) -> dict[str, Any]:
    """The detail page's record: ``url`` (the page URL) and every detail field
    (``jsonld`` as :func:`extract_list` takes it)."""
    if not compiled.details:
        raise RuleError("the rule file has no detail level", site=compiled.rules.site)
    root = _root(tree)
    clock = Clock(url, budget)
    return _detail(root, url, _layout(compiled.details, root, clock), clock, jsonld=jsonld)


def extract_categories(compiled: CompiledRules, tree: Any, url: str, *,
                       budget: Budget = PAGE_BUDGET) -> list[tuple[str, str]]:
    """(name, absolute URL) of every category link, first occurrence of each URL."""
    if compiled.category_xpath is None:
        return []
    root = _root(tree)
    base = _base(root, url)
    out: dict[str, str] = {}
    found = Clock(url, budget).run(compiled.category_label, compiled.category_xpath, root)
    for node in found if isinstance(found, list) else []:
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


def _looks_like_detail(layout: CompiledDetail, root: Any, items: int,
                       selected: list[Any]) -> bool:
    """Whether the page shows the detail level: its name and price (those of them the
    rules have) are there, and either fewer than 2 list items are and some other field
    too (half of the fields when the rules have neither name nor price), or at least
    3/4 of the fields are (a detail page with a grid of related products)."""
    plan = layout.plan
    ld = JsonLd(root) if plan.uses_jsonld else None
    found = total = 0
    required = {"name", "price"} & {f.name for f in plan.fields}
    for f in plan.fields:
        if f.xpath is None and f.jsonld is None:
            continue
        total += 1
        hit = f.xpath is not None and bool(selected[f.xpath])
        if not hit and f.jsonld is not None and ld is not None:
            hit = bool(ld.lookup(f.jsonld)[0])
        found += hit
        if not hit and f.name in required:
            return False
    if not found:
        return False
    if items >= 2:
        return found / total >= 0.75
    return bool(required) or found / total >= 0.5


def extract_page(compiled: CompiledRules, tree: Any, url: str,
                 level: Literal["list", "detail", "auto"] = "auto", *,
                 budget: Budget = PAGE_BUDGET) -> PageResult:
    """Extract a page as ``level``. ``auto`` takes it for a list page when the list's
    item XPath selects something, unless the page is better explained as a detail page
    (see :func:`_looks_like_detail`: related-product grids on detail pages); a page with
    no item that does not show the detail level either is level ``other``, with no
    record: nothing is made up from a page the rules do not describe."""
    root = _root(tree)
    clock = Clock(url, budget)
    if level == "detail":
        if not compiled.details:
            raise RuleError("the rule file has no detail level", site=compiled.rules.site)
        layout_d = _layout(compiled.details, root, clock)
        return PageResult(url, "detail", [_detail(root, url, layout_d, clock)], None,
                          layout_d.name)
    if level == "list" and not compiled.lists:
        raise RuleError("the rule file has no list level", site=compiled.rules.site)
    layout = _layout(compiled.lists, root, clock) if compiled.lists else None
    nodes = _item_nodes(layout, root, clock) if layout is not None else []
    if level == "auto" and compiled.details:
        layout_d = _layout(compiled.details, root, clock)
        selected = select(layout_d.plan, root, clock)
        if _looks_like_detail(layout_d, root, len(nodes), selected):
            return PageResult(url, "detail", [_detail(root, url, layout_d, clock, selected)],
                              None, layout_d.name)
    if layout is None or (level == "auto" and not nodes):
        return PageResult(url, "other")
    result = _list(compiled, root, url, layout, nodes, clock)
    return PageResult(url, "list", result.items, result.next_url, result.layout)
