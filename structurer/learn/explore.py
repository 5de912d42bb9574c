"""Walk a shop along category -> list -> detail and learn its rule file.

Input: an entry URL, a lexicon, settings and a :class:`Fetcher`. Output:
:class:`SiteRules` (built by :mod:`structurer.learn.assemble`) and an
:class:`ExploreReport` (pages fetched, what each page was). This is the only analysis
module that does I/O, and only through the fetcher; everything it learns comes from
the pure functions of ``learn/`` and ``page/``.

Analysis stays on the entry URL's site and the site it redirects to (a fetcher
follows a redirect only on the same site: ``www.`` added or dropped, http to https),
or on ``Settings.allowed_hosts`` when given; links elsewhere are never fetched.
Credentials in the entry URL (``user:secret@``) are used for its host only and kept
out of the rule file and every URL it records. When no browser is usable and the
shop cannot be learned from its raw HTML, the error says that the pages need a
browser and how to install one (exit 2), not that there are no product lists.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from urllib.parse import urldefrag, urljoin

from structurer.config import Settings
from structurer.errors import AnalysisError, FetchError, NoRepeatedBlock
from structurer.fetch.base import Expand, Fetcher, Page
from structurer.fetch.retry import RetryPolicy
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
from structurer.learn.categories import LinkGroup, link_groups, same_site, url_shape
from structurer.learn.detail import Layouts, learn_layouts
from structurer.learn.discovery import deeper_lists, discover
from structurer.learn.layouts import distinguishing_condition
from structurer.learn.listing import ListLayouts, learn_list_layouts
from structurer.learn.pagewalk import PagingPlan, learn_paging
from structurer.learn.pagination import PaginationGuess
from structurer.learn.plan import ListSource, best_group, detail_picks, list_sources
from structurer.learn.render import rule_counter
from structurer.learn.sampling import RenderSampler
from structurer.lexicon import Lexicon
from structurer.page.catlinks import url_matches
from structurer.page.dom import link_href
from structurer.page.view import PageView
from structurer.replay.extract import compile_rules
from structurer.replay.pagination import compile_pagination, further_page
from structurer.rules.model import CategoryLevel, Levels, SiteRules
from structurer.schema import RenderMode

log = logging.getLogger(__name__)
Progress = Callable[[str], None]


@dataclass
class ExploreReport:
    pages: dict[str, str] = field(default_factory=dict)      # url -> kind / error
    fetched: int = 0
    walked: int = 0                 # pages fetched to verify pagination (not budgeted)
    rendered: int = 0
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)
    # what a crawl of the rule file will lack, and why (None: the file is complete)
    shortfall: str | None = None


class Explorer:
    """One analysis run: holds the fetcher, the page budget and what was seen."""

    def __init__(self, fetcher: Fetcher, lexicon: Lexicon, settings: Settings,
                 progress: Progress | None = None) -> None:
        self.fetcher = fetcher
        self.lexicon = lexicon
        self.settings = settings
        self.progress = progress or (lambda msg: None)
        self.report = ExploreReport()
        self.views: dict[str, PageView] = {}
        self.walked: dict[str, PageView | None] = {}     # pages of pagination walks
        # (sitemaps, the URLs they list), read once by category discovery
        self.sitemaps: tuple[list[str], list[str]] | None = None
        self.sampler = RenderSampler(fetcher, settings, lexicon.thresholds.render_similarity,
                                     settings.render, lexicon.thresholds.render_content_ratio,
                                     lexicon.thresholds.render_new_links)

    # ----- fetching --------------------------------------------------------------------
    def _keep(self, url: str, page: Page) -> PageView:
        view = PageView.from_html(page.final_url or url, page.text, self.lexicon)
        self.views[url] = view
        how = "rendered" if page.rendered else "static"
        self.report.pages[url] = view.kind
        self.progress(f"{self.report.fetched:>3} pages  {view.kind:<6} {how:<8} {url}")
        return view

    async def view(self, url: str, level: str, *, record: bool = True) -> PageView:
        key = strip_userinfo(url)   # the fetcher gets the credentials, nothing else does
        if key in self.views:
            return self.views[key]
        if self.report.fetched >= self.settings.analyze_max_pages:
            raise AnalysisError(f"page budget of {self.settings.analyze_max_pages} used up",
                                url=key)
        self.report.fetched += 1
        return self._keep(key, await self.sampler.page(url, level, record=record))

    async def views_of(self, urls: Sequence[str], level: str, *,
                       record: bool = True) -> list[PageView]:
        """Pages fetched a few at a time (the fetchers keep per-host limits), in order."""
        room = self.settings.analyze_max_pages - self.report.fetched
        todo = [u for u in dict.fromkeys(urls) if u not in self.views][:max(room, 0)]
        self.report.fetched += len(todo)
        results = await asyncio.gather(
            *(self.sampler.page(u, level, record=record) for u in todo),
            return_exceptions=True)
        for url, result in zip(todo, results, strict=True):
            if isinstance(result, FetchError):
                self.report.pages[url] = f"error: {result.message}"
            elif isinstance(result, BaseException):
                raise result
            else:
                self._keep(url, result)
        return [self.views[u] for u in urls if u in self.views]

    async def again(self, urls: Sequence[str], level: str) -> list[PageView]:
        """Pages seen already, taken again as ``level`` needs them now (rendered where
        the sampler says so; fetched pages are cached, nothing counts twice)."""
        out: list[PageView] = []
        for url in urls:
            try:
                out.append(self._keep(url, await self.sampler.page(url, level, record=False)))
            except FetchError:
                continue
        return out

    async def walk_view(self, url: str) -> PageView | None:
        """A page of a pagination walk, fetched like a list page (None: it failed)."""
        if url in self.walked:
            return self.walked[url]
        if len(self.walked) >= self.settings.paging_walk * self.settings.paging_categories * 3:
            return None
        for attempt in range(2):    # a 5xx or a timeout once is no end of the pagination
            try:
                page = await self.sampler.page(url, "list", record=False)
                break
            except FetchError as error:
                if attempt or not (error.status in RetryPolicy().statuses
                                   or error.kind in ("timeout", "render_timeout",
                                                     "connection")):
                    self.walked[url] = None
                    return None
        view = PageView.from_html(page.final_url or url, page.text, self.lexicon)
        self.walked[url] = view
        self.report.walked += 1
        return view

    async def expanded(self, url: str, expand: Expand) -> tuple[PageView, int] | None:
        """A list page rendered with its further items loaded (load more, scroll)."""
        try:
            page = await self.sampler.expanded(url, expand)
        except FetchError:
            return None
        if page is None:
            return None
        self.report.walked += 1
        return PageView.from_html(page.final_url or url, page.text, self.lexicon), page.rounds

    async def render_probes(self, probes: Sequence[PageView]) -> list[PageView]:
        """Probed pages that become product lists once a browser renders them (lists
        built by JavaScript on an otherwise static site)."""
        found: list[PageView] = []
        for page in probes:
            if page.kind == "list" or page.url not in self.views:
                continue
            try:
                rendered = await self.sampler.rendered(page.url)
            except FetchError:
                continue
            if rendered is None:
                break
            view = PageView.from_html(rendered.final_url or page.url, rendered.text,
                                      self.lexicon)
            if view.kind == "list":
                self.views[page.url] = view
                self.report.pages[page.url] = "list"
                found.append(view)
        return found

    # ----- stages ------------------------------------------------------------------------
    async def categories(self, entry: PageView) -> tuple[LinkGroup | None, list[PageView]]:
        """Probe the entry page's link groups; the one leading to product lists wins."""
        groups = link_groups(entry)
        probes: dict[int, list[PageView]] = {}
        for index, group in enumerate(groups[:6]):
            urls = group.urls
            picks = list(dict.fromkeys([urls[0], urls[len(urls) // 2], urls[-1]]))
            probes[index] = await self.views_of(picks, "category", record=False)
        listing = [p for pages in probes.values() for p in pages if p.kind == "list"]
        probed = [p for ps in probes.values() for p in ps]
        # the category level is judged on the entry and on department pages when there are
        # some (pages of category links that are not lists), else on the first probes
        others = [p.url for p in probed if p.kind == "other"] or [p.url for p in probed]
        await self.sampler.confirm("category", [entry.url, *others])
        if len(listing) < 2:
            rendered = await self.render_probes(probed)
            await self.sampler.confirm("list", [p.url for p in rendered])
            listing += rendered
            for index, pages in probes.items():
                probes[index] = [self.views.get(p.url, p) for p in pages]
        deeper: list[PageView] = []
        if len(listing) < 2:     # department pages only: their sub-categories list
            deeper = await deeper_lists(self, entry, [p for p in probed if p.kind == "other"])
            listing += deeper
        best = best_group(groups, probes)
        if best is None or (best[0] < 1 and not deeper):
            return None, listing
        group = groups[best[1]]
        # list pages spread over the whole group (other departments may look different),
        # preferring links shaped like the list pages already seen
        shapes = {url_shape(p.url) for p in listing}
        urls = [u for u in group.urls if u not in self.views]
        alike = [u for u in urls if url_shape(u) in shapes]
        urls = alike or urls
        wanted = max(0, 6 - len(listing))
        if wanted and urls:
            step = max(1, len(urls) // wanted)
            spread = urls[::step][:wanted]
            listing += [p for p in await self.views_of(spread, "list", record=False)
                        if p.kind == "list"]
        return group, listing

    async def list_pages(self, entry: PageView, candidates: list[PageView]) -> list[PageView]:
        if entry.kind == "list" and entry.product_regions and not candidates:
            candidates = [entry]
        unique: dict[str, PageView] = {}
        for page in candidates:
            unique.setdefault(page.url, page)
        ranked = sorted(unique.values(), key=lambda p: -len(p.product_regions[0])
                        if p.product_regions else 0)
        chosen = ranked[:5]
        if not chosen:
            raise NoRepeatedBlock("found no product list pages (no repeated product blocks "
                                  f"on the {self.report.fetched} pages probed)", url=entry.url)
        await self.sampler.confirm("list", [p.url for p in chosen])
        return chosen

    async def detail_pages(self, sources: Sequence[ListSource], count: int = 12,
                           per_page: int | None = None) -> DetailSample:
        """Detail pages of items spread over the list pages (chosen by
        :func:`~structurer.learn.plan.detail_picks`) with what each list item said about
        its product (hints), the list page's heading (category names) and the list page
        each came from."""
        shared = [k for k, s in self.lexicon.fields.items() if s.level == "both"]
        picks = detail_picks(sources, shared, count, per_page)
        urls = list(picks)
        await self.sampler.confirm("detail", urls[:3])
        pages = await self.views_of(urls, "detail")
        by_url = {p.url: p for p in pages}
        kept = [(by_url[u], *picks[u]) for u in urls if u in by_url]
        return DetailSample([k[0] for k in kept], [k[1] for k in kept], [k[2] for k in kept],
                            [k[3] for k in kept])

    async def more_lists(self, lists: list[PageView], odd: Sequence[PageView],
                         limit: int = 4) -> list[PageView]:
        """More list pages like the odd one out: the list-shaped links on that page itself
        (its sub-categories and next pages usually share its layout)."""
        shapes = {url_shape(p.url) for p in lists}
        seen = set(self.views)
        fresh: list[str] = []
        for page in odd:
            for a in page.body.iter("a"):
                href = link_href(a)
                url = urldefrag(urljoin(page.url, href))[0] if href else ""
                if url and url not in seen and url_shape(url) in shapes and same_site(
                        url, page.url):
                    seen.add(url)
                    fresh.append(url)
        found = [p for p in await self.views_of(fresh[:limit], "list", record=False)
                 if p.kind == "list"]
        return lists + found


@dataclass
class DetailSample:
    pages: list[PageView]
    hints: list[dict[str, str | None]]
    categories: list[set[str]]
    origins: list[str]              # the list page each detail page was reached from

    def plus(self, other: DetailSample) -> DetailSample:
        seen = {p.url for p in self.pages}
        keep = [i for i, p in enumerate(other.pages) if p.url not in seen]
        return DetailSample(self.pages + [other.pages[i] for i in keep],
                            self.hints + [other.hints[i] for i in keep],
                            self.categories + [other.categories[i] for i in keep],
                            self.origins + [other.origins[i] for i in keep])


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
        category=category_level(entry, group, lists, decision("category"))
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
    report.rendered = ex.sampler.renders
    report.seconds = round(time.monotonic() - started, 2)
    report.notes.extend(layouts.main.notes)
    if detail_layouts:
        report.notes.extend(detail_layouts.main.notes)
    report.shortfall = shortfall(rules, report.fetched, ex.settings.analyze_max_pages)
    return rules, report


async def _discovered(ex: Explorer, entry: PageView, group: LinkGroup | None, levels: Levels,
                      details: Sequence[PageView], pagination: PaginationGuess | None
                      ) -> Levels:
    """The levels with the category sources found (:mod:`structurer.learn.discovery`):
    URL patterns, sources and, for a menu built by script, a browser for categories."""
    crumb = next((r.xpath for r in levels.detail.fields.values() if r.kind == "breadcrumb"),
                 None) if levels.detail else None
    pages = sorted(u for u in (pagination.next_urls if pagination else []) if u)
    menu = levels.category.link_xpath if levels.category else None
    paging = compile_pagination(levels.list.pagination if levels.list else None, "pagination")
    found = await discover(ex, entry, group, details, crumb, pages, menu,
                           lambda url: further_page(paging, url))
    ex.report.notes.extend(found.notes)
    if not found.sources:
        return levels
    category = levels.category
    render = category.render if category else ex.sampler.decision("category")
    if found.scripted_menu and ex.sampler.unavailable is None:
        render = render.model_copy(update={"mode": RenderMode.BROWSER})
    update = {"render": render, "url_patterns": found.patterns, "sources": found.sources}
    data = {**(category.model_dump() if category else {}), **update}
    return levels.model_copy(update={"category": CategoryLevel.model_validate(data)})


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
    pages as fetched and as rendered (both measurements go into the rule file)."""
    compiled, levels = compile_rules(rules), rules.levels
    update = {}
    for name in ("category", "list", "detail"):
        level = getattr(levels, name)
        if level is not None:
            decision = ex.sampler.by_content(name, rule_counter(compiled, name))
            update[name] = level.model_copy(update={"render": decision})
    return rules.model_copy(update={"levels": levels.model_copy(update=update)})


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
    if second is not None and second.kind == "list":
        lists.append(second)                    # a next page joins the list pages
        layouts = learn_list_layouts(lists, lexicon)
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
