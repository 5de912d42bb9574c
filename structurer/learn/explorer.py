"""One analysis run's fetching and its exploring stages: what ``structurer analyze`` has
seen and how it gets more.

Input: a :class:`Fetcher`, a lexicon and settings. Output: :class:`Explorer`, which
fetches pages (raw or rendered, through :class:`~structurer.learn.sampling.RenderSampler`,
within the page budget), keeps them as :class:`PageView` objects and runs the stages that
choose what to fetch (category probes, list pages, detail samples), and its
:class:`ExploreReport`. The walk that uses them is :mod:`structurer.learn.explore`.
"""

from __future__ import annotations

import asyncio
import operator
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import reduce
from urllib.parse import urldefrag, urljoin

from structurer.config import Settings
from structurer.errors import AnalysisError, FetchError, NoRepeatedBlock
from structurer.fetch.base import Expand, Fetcher, Page
from structurer.fetch.retry import RetryPolicy
from structurer.fetch.scope import strip_userinfo
from structurer.learn.categories import LinkGroup, link_groups, same_site, url_shape
from structurer.learn.discovery import deeper_lists
from structurer.learn.plan import ListSource, best_group, detail_picks
from structurer.learn.sampling import RenderSampler
from structurer.lexicon import Lexicon
from structurer.page.dom import link_href
from structurer.page.view import PageView

Progress = Callable[[str], None]


@dataclass
class ExploreReport:
    pages: dict[str, str] = field(default_factory=dict)      # url -> kind / error
    fetched: int = 0
    walked: int = 0                 # pages fetched to verify pagination (not budgeted)
    rendered: int = 0               # renderings (a list loaded whole by "load more": one more) ...
    rerendered: int = 0             # ... and renderings asked for again (ran out of time,
                                    # a 5xx, handed over before the page went quiet)
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
        # category URLs only the rendered entry page shows (a menu a script builds)
        self.scripted_menu = False
        self.sampler = RenderSampler(fetcher, settings, lexicon.thresholds.render_similarity,
                                     settings.render, lexicon.thresholds.render_content_ratio,
                                     lexicon.thresholds.render_new_links,
                                     lexicon.thresholds.render_min_pages)

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
                if attempt or not (error.status in RetryPolicy.from_settings(self.settings).statuses
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
        best = best_group(groups, probes, self.leading(probed, deeper) or None)
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

    def leading(self, probed: Sequence[PageView], lists: Sequence[PageView]) -> set[str]:
        """The department pages among ``probed`` that link one of ``lists`` (the list
        pages found below the departments), as fetched or as rendered: a menu's
        departments lead to lists, a footer's "about" and "contact" pages do not. Links
        every probed page carries (a menu a script builds on each page, as rendered) are
        the site's chrome, no lead: a page leads by linking a list more often than that."""
        targets = {urldefrag(p.url)[0] for p in lists}
        counts: dict[str, Counter[str]] = {}
        for page in probed:
            if page.kind != "other":
                continue
            rendered = self.sampler.rendered_pages.get(page.url)
            views = [page] if rendered is None else [
                page, PageView.from_html(rendered.final_url or page.url, rendered.text,
                                         self.lexicon)]
            per_view = [Counter(url for a in v.body.iter("a") if (href := link_href(a))
                                and (url := urldefrag(urljoin(v.url, href))[0]) in targets)
                        for v in views]
            counts[page.url] = reduce(operator.or_, per_view)
        chrome = reduce(operator.and_, counts.values()) if len(counts) > 1 else Counter()
        return {url for url, count in counts.items() if count - chrome}

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
