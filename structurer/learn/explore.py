"""Walk a shop along category -> list -> detail and learn its rule file.

Input: an entry URL, a lexicon, settings and a :class:`Fetcher`. Output:
:class:`SiteRules` and an :class:`ExploreReport` (pages fetched, what each page
was). This is the only analysis module that does I/O, and only through the
fetcher; everything it learns comes from the pure functions in ``analyze/``.

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
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from itertools import zip_longest
from urllib.parse import urldefrag, urljoin, urlsplit

from lxml.html import HtmlElement

from structurer import __version__
from structurer.clean import parse_html
from structurer.config import Settings
from structurer.errors import AnalysisError, FetchError, NoRepeatedBlock
from structurer.fetch.base import Fetcher, Page
from structurer.fetch.chromium import BrowserFetchError
from structurer.fetch.scope import address, strip_userinfo
from structurer.learn.categories import (
    LinkGroup,
    category_xpath,
    link_groups,
    same_site,
    url_shape,
)
from structurer.learn.detail import Layouts, learn_layouts
from structurer.learn.listing import ListLayouts, ListLearned, learn_list_layouts
from structurer.learn.pagination import PaginationGuess, learn_pagination
from structurer.learn.sampling import RenderSampler
from structurer.lexicon import Lexicon
from structurer.page.dom import link_href, text_of
from structurer.page.lists import Region
from structurer.page.view import PageView
from structurer.replay.extract import compile_rules, extract_detail, extract_list
from structurer.rules.model import (
    SCHEMA_VERSION,
    Baseline,
    CategoryLevel,
    DetailLevel,
    DetailVariant,
    Levels,
    ListLevel,
    ListVariant,
    Pagination,
    RenderDecision,
    SiteRules,
    TemplateRef,
)

log = logging.getLogger(__name__)
Progress = Callable[[str], None]


@dataclass
class ExploreReport:
    pages: dict[str, str] = field(default_factory=dict)      # url -> kind / error
    fetched: int = 0
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
        self.sampler = RenderSampler(fetcher, settings, lexicon.thresholds.render_similarity,
                                     settings.render)

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
        best: tuple[float, int] | None = None
        for index, pages in probes.items():
            score = sum(p.kind == "list" for p in pages) + 0.2 * sum(
                p.kind == "other" for p in pages) + 0.01 * len(groups[index].links)
            if best is None or score > best[0]:
                best = (score, index)
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
            best = None
            for index, pages in probes.items():
                score = sum(p.kind == "list" for p in pages) + 0.2 * sum(
                    p.kind == "other" for p in pages) + 0.01 * len(groups[index].links)
                if best is None or score > best[0]:
                    best = (score, index)
        if best is None or best[0] < 1:
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
        """Detail pages of items spread over the list pages — taking first the items whose
        list entry shows a rarer field (an old price, "sold out"), so optional fields are
        seen — with what each list item said about its product (hints), the list page's
        heading (category names) and the list page each came from."""
        shared = [k for k, s in self.lexicon.fields.items() if s.level == "both"]
        columns: list[list[tuple[str, dict[str, str | None], set[str], str]]] = []
        for page, region, learned in sources:
            if region is None or learned.detail_link_xpath is None:
                continue
            title = {text_of(h) for h in page.body.xpath("//h1")}
            entries = []
            for record in region.records:
                links = record[0].xpath(learned.detail_link_xpath)
                if not links:
                    continue
                href = links[0].get("href") if hasattr(links[0], "get") else str(links[0])
                values = {name: _first_text(record[0], rule.xpath)
                          for name, rule in learned.fields.items() if rule.xpath}
                entries.append((values, urljoin(page.url, str(href or "")), title, page.url))
            if not entries:
                continue
            shown = {k: sum(bool(v[k]) for v, _, _, _ in entries) / len(entries)
                     for k in entries[0][0]}
            rare = [k for k, share in shown.items() if 0 < share < 0.5]
            Entry = tuple[str, dict[str, str | None], set[str], str]
            with_rare: list[Entry] = []
            plain: list[Entry] = []
            for values, url, title, origin in entries:
                entry = (url, {k: values.get(k) for k in shared}, title, origin)
                (with_rare if any(values.get(k) for k in rare) else plain).append(entry)
            # alternate: a product showing a rare field, then one that does not, so the
            # samples show each optional field both present and absent
            mixed = [e for pair in zip_longest(with_rare, plain) for e in pair if e]
            columns.append(mixed[: per_page or len(mixed)])
        picks: dict[str, tuple[dict[str, str | None], set[str], str]] = {}
        for row in range(max((len(c) for c in columns), default=0)):
            for column in columns:
                if row < len(column) and len(picks) < count:
                    url, hints, title, origin = column[row]
                    picks.setdefault(url, (hints, title, origin))
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


ListSource = tuple[PageView, Region | None, ListLearned]


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


def _sources(lists: Sequence[PageView], layouts: ListLayouts) -> list[ListSource]:
    out: list[ListSource] = [(lists[i], r, layouts.main)
                             for i, r in zip(layouts.main_pages, layouts.main.regions,
                                             strict=True)]
    for _, other, ids in layouts.variants:
        out += [(lists[i], r, other) for i, r in zip(ids, other.regions, strict=True)]
    return out


def _first_text(item: HtmlElement, xpath: str) -> str | None:
    nodes = item.xpath(xpath)
    if not nodes:
        return None
    node = nodes[0]
    return (text_of(node) or None) if hasattr(node, "tag") else (str(node).strip() or None)


def template_ref(lexicon: Lexicon, path: str | None) -> TemplateRef:
    return TemplateRef(name=lexicon.name, hash=lexicon.content_hash(), path=path)


def site_of(url: str) -> str:
    """``host``, or ``host:port`` off the default port (``[v6]:port`` for IPv6)."""
    where = address(url)
    if where is None:
        return (urlsplit(url).hostname or "local").lower()
    host = f"[{where.host}]" if ":" in where.host else where.host
    return host if where.default_port else f"{host}:{where.port}"


def _pagination(guess: PaginationGuess | None) -> Pagination | None:
    if guess is None or not guess.next_xpath:
        return None
    return Pagination(next_xpath=guess.next_xpath, url_pattern=guess.url_pattern,
                      confidence=guess.confidence, samples=[u for u in guess.next_urls if u][:3])


def list_level(learned: ListLearned, pagination: PaginationGuess | None,
               render: RenderDecision | None = None) -> ListLevel:
    return ListLevel(item_xpath=learned.item_xpath, detail_link_xpath=learned.detail_link_xpath,
                     fields=learned.fields, pagination=_pagination(pagination),
                     render=render or RenderDecision(), confidence=learned.confidence)


def with_baselines(rules: SiteRules, lists: Sequence[PageView],
                   details: Sequence[PageView]) -> SiteRules:
    """The rules with what replaying them on the sample pages gave: items per list page
    and per-field fill rates (a crawl compares against these to notice a changed site)."""
    compiled = compile_rules(rules)
    levels = rules.levels
    if levels.list is not None and lists:
        counts: list[int] = []
        filled: dict[str, int] = dict.fromkeys(levels.list.fields, 0)
        for page in lists:
            items = extract_list(compiled, parse_html(page.html, base_url=page.url), page.url).items
            counts.append(len(items))
            for item in items:
                for name in filled:
                    filled[name] += item.get(name) not in (None, "", [])
        total = max(sum(counts), 1)
        baseline = Baseline(pages=len(lists), items_per_page=round(sum(counts) / len(counts), 2),
                            fill_rates={k: round(v / total, 3) for k, v in filled.items()})
        levels = levels.model_copy(update={"list": levels.list.model_copy(
            update={"baseline": baseline})})
    if levels.detail is not None and details:
        filled = dict.fromkeys(levels.detail.fields, 0)
        for page in details:
            record = extract_detail(compiled, parse_html(page.html, base_url=page.url), page.url)
            for name in filled:
                filled[name] += record.get(name) not in (None, "", [])
        baseline = Baseline(pages=len(details), fill_rates={
            k: round(v / len(details), 3) for k, v in filled.items()})
        levels = levels.model_copy(update={"detail": levels.detail.model_copy(
            update={"baseline": baseline})})
    return rules.model_copy(update={"levels": levels})


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
        raise BrowserFetchError(f"this shop's pages need a browser (without one: "
                                f"{error.message}) and {ex.sampler.unavailable}",
                                url=strip_userinfo(url), kind="browser") from None
    finally:
        await ex.sampler.close()


async def _analyze(ex: Explorer, url: str, template_path: str | None,
                   started: float) -> tuple[SiteRules, ExploreReport]:
    lexicon, settings = ex.lexicon, ex.settings
    entry = await ex.view(url, "category", record=False)
    url = strip_userinfo(url)
    ex.sampler.confine(list(dict.fromkeys([site_of(url), site_of(entry.url)])))
    group, candidates = await ex.categories(entry)
    lists = await ex.list_pages(entry, candidates)
    layouts = learn_list_layouts(lists, lexicon)
    if len(layouts.misfits) == 1:
        # one list page of another layout: look at more pages like it before deciding
        lists = await ex.more_lists(lists, [lists[i] for i in layouts.misfits])
        layouts = learn_list_layouts(lists, lexicon)
    words = lexicon.signals.get("next_page", {})
    main_lists = [lists[i] for i in layouts.main_pages]
    pagination = learn_pagination(main_lists, words)
    if pagination is not None:
        nxt = next((u for u in pagination.next_urls if u), None)
        if nxt and ex.report.fetched < settings.analyze_max_pages:
            more = await ex.views_of([nxt], "list", record=False)
            if more and more[0].kind == "list":
                lists.append(more[0])
                layouts = learn_list_layouts(lists, lexicon)
            elif more:
                ex.report.notes.append(f"next page {nxt} is not a list page; pagination dropped")
                pagination = None
    learned = layouts.main
    if learned.detail_link_xpath is None:
        raise AnalysisError("list items have no links to detail pages", url=lists[0].url)
    sources = _sources(lists, layouts)
    sample = await ex.detail_pages(sources)
    detail_layouts: Layouts | None = None
    if sample.pages:
        detail_layouts = learn_layouts(sample.pages, lexicon, list_hints=sample.hints,
                                       categories=sample.categories)
        if detail_layouts.misfits:
            # another layout: more products from the lists that led to it, so each
            # layout's rules come from enough pages (optional fields show on some only)
            origins = {sample.origins[i] for i in detail_layouts.misfits}
            extra = await ex.detail_pages([s for s in sources if s[0].url in origins],
                                          count=8, per_page=8)
            if extra.pages:
                sample = sample.plus(extra)
                detail_layouts = learn_layouts(sample.pages, lexicon, list_hints=sample.hints,
                                               categories=sample.categories)
    details = sample.pages
    detail = detail_layouts.main if detail_layouts else None
    category = None
    if group is not None:
        good = {p.url for p in lists}
        category = CategoryLevel(
            link_xpath=category_xpath(entry, group, good), render=ex.sampler.decision("category"),
            confidence=round(sum(u in good for u in group.urls) / max(len(group.urls), 1), 2),
            samples=[t for _, t, _ in group.links if t][:5])
    variants = [DetailVariant(name=f"layout {i + 2}", when=when, fields=other.fields)
                for i, (when, other) in enumerate(
                    detail_layouts.variants if detail_layouts else []) if other.fields]
    list_variants = []
    for i, (when, other, ids) in enumerate(layouts.variants):
        own = learn_pagination([lists[j] for j in ids], words)
        list_variants.append(ListVariant(
            name=f"layout {i + 2}", when=when, item_xpath=other.item_xpath,
            detail_link_xpath=other.detail_link_xpath, fields=other.fields,
            pagination=_pagination(own) if own and (
                pagination is None or own.next_xpath != pagination.next_xpath) else None))
    main_level = list_level(learned, pagination, ex.sampler.decision("list"))
    levels = Levels(
        category=category,
        list=main_level.model_copy(update={"variants": list_variants}),
        detail=DetailLevel(fields=detail.fields, render=ex.sampler.decision("detail"),
                           confidence=detail.confidence, variants=variants)
        if detail and detail.fields else None)
    rules = SiteRules(
        schema_version=SCHEMA_VERSION, site=site_of(entry.url), start_url=url,
        generated_at=datetime.now(UTC).replace(microsecond=0),
        generator=f"structurer {__version__}", template=template_ref(lexicon, template_path),
        levels=levels)
    rules = with_baselines(rules, lists, details)
    if ex.sampler.unavailable:
        ex.report.notes.append(f"render modes not checked ({ex.sampler.unavailable}); "
                               "every level is taken as static")
    ex.report.rendered = ex.sampler.renders
    ex.report.seconds = round(time.monotonic() - started, 2)
    ex.report.notes.extend(learned.notes)
    if detail:
        ex.report.notes.extend(detail.notes)
    ex.report.shortfall = shortfall(rules, ex.report.fetched, settings.analyze_max_pages)
    return rules, ex.report


def shortfall(rules: SiteRules, fetched: int, budget: int) -> str | None:
    """What a crawl of ``rules`` will lack, and why, when analysis ran out of pages (or
    found no product page to learn from); None when the rule file is complete."""
    if rules.levels.detail is not None:
        return None
    if fetched >= budget:
        return (f"no detail level, so a crawl gives only what list pages show: the page "
                f"budget (--max-pages {budget}) ran out before enough product pages were "
                f"read; run again with more pages (default: "
                f"{Settings.model_fields['analyze_max_pages'].default})")
    return ("no detail level: no product page could be learned, so a crawl gives only "
            "what list pages show")
