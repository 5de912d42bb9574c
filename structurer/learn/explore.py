"""Walk a shop along category -> list -> detail and learn its rule file.

Input: an entry URL, a lexicon, settings and a :class:`Fetcher`. Output:
:class:`SiteRules` (built by :mod:`structurer.learn.assemble`) and an
:class:`ExploreReport` (pages fetched, what each page was). This module and
:mod:`structurer.learn.explorer` (the fetching and the exploring stages) are the only
analysis modules that do I/O, and only through the fetcher; everything they learn
comes from the pure functions of ``learn/`` and ``page/``.

Analysis stays on the entry URL's site and the site it redirects to (a fetcher
follows a redirect only on the same site: ``www.`` added or dropped, http to https),
or on ``Settings.allowed_hosts`` when given; links elsewhere are never fetched.
Credentials in the entry URL (``user:secret@``) are used for its host only and kept
out of the rule file and every URL it records. When no browser is usable and the
shop cannot be learned from its raw HTML, the error says that the pages need a
browser and how to install one (exit 2), not that there are no product lists.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import replace
from urllib.parse import urldefrag, urljoin

from structurer.config import Settings
from structurer.errors import AnalysisError, FetchError
from structurer.fetch.base import Fetcher
from structurer.fetch.scope import strip_userinfo
from structurer.learn import xpaths
from structurer.learn.assemble import (
    assemble_rules,
    category_level,
    detail_level,
    list_level,
    list_levels,
    shortfall,
    site_of,
)
from structurer.learn.categories import LinkGroup, url_family
from structurer.learn.detail import Layouts, learn_layouts
from structurer.learn.discovery import discover
from structurer.learn.explorer import DetailSample, Explorer, ExploreReport, Progress
from structurer.learn.layouts import distinguishing_condition
from structurer.learn.listing import ListLayouts, join_next_page, learn_list_layouts
from structurer.learn.pagewalk import PagingPlan, learn_paging
from structurer.learn.pagination import PaginationGuess
from structurer.learn.plan import ListSource, list_sources
from structurer.learn.render import category_links, category_samples, entry_only, rule_counter
from structurer.lexicon import Lexicon
from structurer.logs import logger
from structurer.page.catlinks import url_matches
from structurer.page.dom import link_href
from structurer.page.view import PageView
from structurer.replay.extract import compile_rules
from structurer.replay.pagination import compile_pagination, further_page
from structurer.rules.model import CategoryLevel, Levels, RenderDecision, SiteRules
from structurer.schema import RenderMode

__all__ = ["DetailSample", "ExploreReport", "Explorer", "Progress", "analyze_url"]

log = logger(__name__)


async def analyze_url(url: str, lexicon: Lexicon, settings: Settings, fetcher: Fetcher, *,
                      template_path: str | None = None,
                      progress: Progress | None = None) -> tuple[SiteRules, ExploreReport]:
    """Explore a shop from ``url`` and learn its rules (the heart of ``structurer analyze``)."""
    started = time.monotonic()
    ex = Explorer(fetcher, lexicon, settings, progress)
    try:
        return await _analyze(ex, url, template_path, started)
    except AnalysisError as error:
        if ex.sampler.unavailable is None:
            raise
        raise FetchError(f"this shop's pages need a browser (without one: "
                         f"{error.message}) and {ex.sampler.unavailable}",
                         url=strip_userinfo(url), kind="browser") from None
    finally:
        await ex.sampler.close()


async def _analyze(ex: Explorer, url: str, template_path: str | None,
                   started: float) -> tuple[SiteRules, ExploreReport]:
    entry = await ex.view(url, "category", record=False)
    url = strip_userinfo(url)
    ex.sampler.confine(list(dict.fromkeys([site_of(url), site_of(entry.url)])))
    group, candidates = await ex.categories(entry)
    lists, layouts, pagination = await _lists(ex, entry, candidates)
    if layouts.main.detail_link_xpath is None:
        raise AnalysisError("list items have no links to detail pages", url=lists[0].url)
    sample, detail_layouts = await _details(ex, list_sources(lists, layouts))
    decision = ex.sampler.decision
    levels = Levels(
        category=_category_level(ex, entry, group, lists, decision("category"),
                                 layouts.main.item_xpath)
        if group is not None else None,
        list=list_levels(layouts, lists, pagination, ex.lexicon.pagination,
                         decision("list")),
        detail=detail_level(detail_layouts, decision("detail")))
    levels = await _discovered(ex, entry, group, levels, sample.pages, pagination)
    again = await _category_lists(ex, entry, lists, layouts, levels)
    if again is not None:
        lists, layouts, pagination = again
        levels = levels.model_copy(update={"list": list_levels(
            layouts, lists, pagination, ex.lexicon.pagination, decision("list"))})
        levels = await _discovered(ex, entry, group, levels, sample.pages, pagination)
    rules = assemble_rules(levels, site=site_of(entry.url), start_url=url, lexicon=ex.lexicon,
                           template_path=template_path, lists=lists, details=sample.pages,
                           session=ex.settings.session)
    rules = _by_content(ex, rules)
    report = ex.report
    if ex.sampler.unavailable:
        report.notes.append(f"render modes not checked ({ex.sampler.unavailable}); "
                            "every level is taken as static")
    report.rendered, report.rerendered = ex.sampler.renders, ex.sampler.rerenders
    report.seconds = round(time.monotonic() - started, 2)
    report.notes.extend(layouts.main.notes)
    if detail_layouts:
        report.notes.extend(detail_layouts.main.notes)
    report.shortfall = shortfall(rules, report.fetched, ex.settings.analyze_max_pages)
    return rules, report


def _category_level(ex: Explorer, entry: PageView, group: LinkGroup, lists: list[PageView],
                    render: RenderDecision, item_xpath: str | None) -> CategoryLevel:
    """:func:`category_level` measured on the group's pages analysis fetched: a list page,
    or a department page linking list pages (:meth:`Explorer.leading`) or, beside the
    links the entry page has too, pages of their URL family (sub-categories analysis did not
    fetch), is a right link."""
    fetched = [ex.views[u] for u in group.urls if u in ex.views]
    found = [v for v in ex.views.values() if v.kind == "list"]
    families = {url_family(p.url) for p in found}
    menu = set(_hrefs(entry))
    leading = ex.leading(fetched, found) | {
        p.url for p in fetched if p.kind == "other"
        and any(url_family(u) in families for u in _hrefs(p) if u not in menu)}
    return category_level(entry, group, lists, render, item_xpath, leading=leading,
                          checked=set(ex.views))


def _hrefs(page: PageView) -> list[str]:
    """The addresses ``page`` links (fragments dropped)."""
    return [urldefrag(urljoin(page.url, h))[0] for a in page.body.iter("a")
            if (h := link_href(a))]


async def _discovered(ex: Explorer, entry: PageView, group: LinkGroup | None, levels: Levels,
                      details: Sequence[PageView], pagination: PaginationGuess | None
                      ) -> Levels:
    """The levels with the category sources found (:mod:`structurer.learn.discovery`):
    URL patterns and sources; a menu built by a script is noted on the explorer (the
    category level then needs a browser, see :func:`_by_content`)."""
    crumb = next((r.xpath for r in levels.detail.fields.values() if r.kind == "breadcrumb"),
                 None) if levels.detail else None
    pages = sorted(u for u in (pagination.next_urls if pagination else []) if u)
    menu = levels.category.link_xpath if levels.category else None
    paging = compile_pagination(levels.list.pagination if levels.list else None, "pagination")
    found = await discover(ex, entry, group, details, crumb, pages, menu,
                           lambda url: further_page(paging, url))
    ex.report.notes.extend(found.notes)
    ex.scripted_menu = found.scripted_menu and bool(found.sources)
    if not found.sources:
        return levels
    category = levels.category
    render = category.render if category else ex.sampler.decision("category")
    update = {"render": render, "url_patterns": found.patterns, "sources": found.sources}
    if category is None or category.link_xpath is None or _no_menu(category, group,
                                                                    found.patterns):
        # the sources are how this shop's categories are found: no link rule stands in
        # for them, and the level is as sure as the share of their links analysis reached
        update |= {"link_xpath": None, "samples": [], "confidence": round(
            sum(s.verified for s in found.sources)
            / max(sum(s.found for s in found.sources), 1), 2)}
    data = {**(category.model_dump() if category else {}), **update}
    return levels.model_copy(update={"category": CategoryLevel.model_validate(data)})


def _no_menu(category: CategoryLevel, group: LinkGroup | None,
             patterns: Sequence[str]) -> bool:
    """Whether the level's link group is no category menu: none of its links led to a
    list page (confidence 0) nor is a category URL (``patterns``), like a footer of info
    pages chosen where the shop links its categories nowhere (a sitemap lists them)."""
    compiled = [re.compile(p) for p in patterns]
    return category.confidence == 0 and group is not None and bool(compiled) and not any(
        url_matches(compiled, u) for u in group.urls)


async def _category_lists(ex: Explorer, entry: PageView, lists: list[PageView],
                          layouts: ListLayouts, levels: Levels
                          ) -> tuple[list[PageView], ListLayouts, PaginationGuess | None] | None:
    """The list level learned again from the category pages discovery found, when it was
    learned from the entry page alone (a home page's featured block: the categories were
    reached only through product breadcrumbs, inline JSON or a sitemap); their render
    mode is judged on them, and the entry's block stays as a variant where the category
    pages' rules find nothing on it (its products lead to those breadcrumbs). None: the
    list level stands."""
    if levels.category is None or any(p.url != entry.url for p in lists):
        return None
    compiled = [re.compile(p) for p in levels.category.url_patterns]
    found = [v for u, v in sorted(ex.views.items())
             if v.kind == "list" and u != entry.url and url_matches(compiled, u)]
    if not found:
        return None
    ex.sampler.restart("list")
    found = [p for p in await ex.again([p.url for p in found], "list") if p.kind == "list"]
    if not found:
        return None
    pages, learned, pagination = await _lists(ex, entry, found)
    if not xpaths.evaluate(learned.main.item_xpath, entry.tree):
        when = distinguishing_condition([entry], pages)
        if when is not None:
            learned = replace(learned, variants=[*learned.variants, (when, layouts.main, [])])
    return pages, learned, pagination


def _by_content(ex: Explorer, rules: SiteRules) -> SiteRules:
    """Each level's render mode decided again from what its rules find in the sample
    pages as fetched and as rendered (both measurements go into the rule file); the
    category level needs a browser too when only the rendered entry page shows some
    category URLs (its menu is built by a script), however many the rest are."""
    compiled, levels = compile_rules(rules), rules.levels
    _category_pages(ex, rules)
    update = {}
    for name in ("category", "list", "detail"):
        level = getattr(levels, name)
        if level is not None:
            decision = ex.sampler.by_content(name, rule_counter(compiled, name))
            if name == "category" and ex.scripted_menu and decision.mode == RenderMode.STATIC \
                    and decision.decided_by != "override":
                decision = decision.model_copy(update={"mode": RenderMode.BROWSER,
                                                       "by_content": True})
            if name == "category" and decision.mode == RenderMode.BROWSER \
                    and decision.decided_by == "auto":
                decision = decision.model_copy(update={"entry_only": _entry_only(ex, rules)})
            update[name] = level.model_copy(update={"render": decision})
    return rules.model_copy(update={"levels": levels.model_copy(update=update)})


def _entry_urls(ex: Explorer, rules: SiteRules) -> list[str]:
    """The URLs the start page is known by (asked for, answered, redirected to)."""
    raw, _ = ex.sampler.both_ways(rules.start_url)
    entry = [rules.start_url, *([raw.url, raw.final_url] if raw else [])]
    return [u for u in dict.fromkeys(entry) if u]


def _entry_only(ex: Explorer, rules: SiteRules) -> bool:
    """Whether only the start page of a browser category level needs rendering
    (:func:`~structurer.learn.render.entry_only`, on the level's sample pages)."""
    return entry_only(ex.sampler.samples["category"], _entry_urls(ex, rules),
                      category_links(compile_rules(rules)), ex.sampler.content_ratio)


def _category_pages(ex: Explorer, rules: SiteRules) -> None:
    """The category level judged on category pages (:func:`category_samples`): the
    pages analysis fetched both ways that its rules lead to from the rendered start
    page, or whose URL its patterns match; of the former, with patterns, only those that
    match them or that analysis found listing items."""
    level = rules.levels.category
    if level is None:
        return
    _, start = ex.sampler.both_ways(rules.start_url)
    urls = category_links(compile_rules(rules))(start.text, start.final_url or start.url) \
        if start is not None else set()
    patterns = [re.compile(p) for p in level.url_patterns]
    urls |= {u for u in ex.sampler.rendered_pages if url_matches(patterns, u)}
    pages = []
    for url in sorted(urls):
        raw, rendered = ex.sampler.both_ways(url)
        if raw is not None and rendered is not None:
            pages.append((url, raw.text, rendered.text))
    lists = {u for u, _, _ in pages if u in ex.views and ex.views[u].kind == "list"}
    ex.sampler.judge_on("category", category_samples(
        ex.sampler.samples["category"], _entry_urls(ex, rules), pages, patterns=patterns,
        lists=lists))


async def _lists(ex: Explorer, entry: PageView, candidates: list[PageView]
                 ) -> tuple[list[PageView], ListLayouts, PaginationGuess | None]:
    """The list pages, their layouts and the main layout's pagination (checked on the
    next page it leads to, which joins the list pages when it is one)."""
    lexicon = ex.lexicon
    lists = await ex.list_pages(entry, candidates)
    layouts = learn_list_layouts(lists, lexicon)
    if len(layouts.misfits) == 1:
        # one list page of another layout: look at more pages like it before deciding
        lists = await ex.more_lists(lists, [lists[i] for i in layouts.misfits])
        layouts = learn_list_layouts(lists, lexicon)
    # pages that hold far fewer items unrendered make the level browser before more
    # list pages (the next page) are fetched
    partial = assemble_rules(Levels(list=list_level(layouts.main, None)),
                             site=site_of(entry.url), start_url=entry.url, lexicon=lexicon,
                             template_path=None)
    ex.sampler.by_content("list", rule_counter(compile_rules(partial), "list"))
    pagination = await _paginate(ex, [lists[i] for i in layouts.main_pages], layouts)
    nxt = next((u for u in pagination.next_urls if u), None) if pagination else None
    second = ex.walked.get(nxt) if nxt else None
    if second is not None and second.kind == "list":   # a next page joins the list pages
        lists, layouts = join_next_page(lists, layouts, second, lexicon)
    return lists, layouts, pagination


async def _paginate(ex: Explorer, lists: list[PageView], layouts: ListLayouts
                    ) -> PaginationGuess | None:
    """The main layout's pagination, kept only if walking it verifies it
    (:mod:`structurer.learn.pagewalk`); walked pages do not count against the budget."""
    settings = ex.settings
    plan = PagingPlan(layouts.main.item_xpath, layouts.main.detail_link_xpath,
                      ex.lexicon.pagination, ex.lexicon.thresholds.paging_guesses,
                      settings.paging_walk, settings.paging_categories, ex.walk_view,
                      ex.expanded if ex.sampler.unavailable is None
                      and settings.render != RenderMode.STATIC else None)
    found = await learn_paging(lists, plan, ex.report.notes)
    if found is not None:
        pages = sum(c.pages for c in found.verified)
        way = found.next_xpath or found.url_pattern or found.more_xpath or "scrolling"
        ex.progress(f"pagination by {found.method} ({way}) verified: {pages} pages walked")
    return found


async def _details(ex: Explorer, sources: list[ListSource]
                   ) -> tuple[DetailSample, Layouts | None]:
    """The detail pages sampled from the list pages and their layouts."""
    lexicon = ex.lexicon
    sample = await ex.detail_pages(sources)
    if not sample.pages:
        return sample, None
    layouts = learn_layouts(sample.pages, lexicon, list_hints=sample.hints,
                            categories=sample.categories)
    if layouts.misfits:
        # another layout: more products from the lists that led to it, so each
        # layout's rules come from enough pages (optional fields show on some only)
        origins = {sample.origins[i] for i in layouts.misfits}
        extra = await ex.detail_pages([s for s in sources if s[0].url in origins],
                                      count=8, per_page=8)
        if extra.pages:
            sample = sample.plus(extra)
            layouts = learn_layouts(sample.pages, lexicon, list_hints=sample.hints,
                                    categories=sample.categories)
    return sample, layouts
