"""The crawler: replay a site rule file over the whole shop, politely and resumably.

Input: :class:`~structurer.rules.model.SiteRules`, a sink (or an output path) and
:class:`~structurer.config.Settings`. Output: one record per product in the sink
(:mod:`structurer.crawl.products`), the crawl state beside it
(:mod:`structurer.crawl.frontier`), and a :class:`CrawlResult` with the
statistics (also written as JSON beside the output) and drift warnings.

Traversal: the start page's category links (``levels.category.link_xpath``, followed
up to the level's ``max_depth``) lead to category pages, which are read as list
pages too; list pages are followed through their pagination; every item's detail
link is fetched. Category and list pages go first, so when the last of them is
done every product's category paths are known: from then on a product's record is
emitted as soon as its detail page is settled (fetched, failed or skipped).
Extraction is :mod:`structurer.replay.extract`, the one shared implementation;
reading a fetched page into links, paths and items is :mod:`structurer.crawl.traverse`,
shared with the Scrapy runtime (:mod:`structurer.crawl.scrapy`).

Each level is fetched by the fetcher its ``render.mode`` asks for
(:func:`make_fetcher`): static levels over HTTP, browser levels through
``structurer.fetch.browser`` (imported, and a browser launched, only when a page of
such a level is fetched). Pages behind category links are read as lists too, so they
get a browser when either the category or the list level needs one. Links are checked
before they are queued (:class:`~structurer.crawl.frontier.Guards`): hosts of the
rule file, URL length, path depth, crawl depth, pages per URL pattern (category and
list pages: detail pages lead nowhere), must-include / must-exclude keywords.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from structurer.config import Settings
from structurer.crawl.drift import Drift, check_drift
from structurer.crawl.frontier import (
    CATEGORY,
    DETAIL,
    Frontier,
    Guards,
    Link,
    Outcome,
    Task,
    canonical,
)
from structurer.crawl.products import emit_records, record_columns, record_hash
from structurer.crawl.sinks import Sink, attach, check_writable, open_sink, open_state, sync
from structurer.crawl.stats import CrawlStats, LiveDisplay
from structurer.crawl.traverse import PageReader, count_page, mode_for, render_modes
from structurer.errors import FetchError, StructurerError
from structurer.fetch.base import Fetcher, Page
from structurer.fetch.http import HttpFetcher, run_sync
from structurer.replay.extract import CompiledRules, compile_rules
from structurer.rules.model import SiteRules

log = logging.getLogger(__name__)

__all__ = ["CrawlResult", "crawl_site", "crawl_site_async", "make_fetcher"]

FetcherFactory = Callable[[str, Settings], Fetcher]
TRANSIENT = frozenset({"timeout", "connection", "http 429", "http 500", "http 502", "http 503",
                       "http 504"})
CRAWL_RETRIES = 2       # times a transiently failed page goes back to the end of the queue
COMMIT_EVERY = 0.25     # seconds between state commits while work keeps coming


def make_fetcher(mode: str, settings: Settings) -> Fetcher:
    """The fetcher for a level's render mode: HTTP for ``static``, a browser otherwise."""
    if mode == "browser":
        try:
            module = importlib.import_module("structurer.fetch.browser")
        except ImportError as error:
            raise StructurerError(f"this rule file needs a browser, which is not available "
                                  f"({error})") from None
        return cast(Fetcher, module.BrowserFetcher(settings))
    return HttpFetcher(settings)


@dataclass
class CrawlResult:
    stats: CrawlStats
    drift: list[Drift]
    out: Path
    state: Path
    stats_path: Path
    finished: bool


class Crawler:
    """One session of a crawl over an opened frontier and sink."""

    def __init__(self, compiled: CompiledRules, frontier: Frontier, sink: Sink,
                 settings: Settings, stats: CrawlStats, *, factory: FetcherFactory,
                 clock: Callable[[], float], display: LiveDisplay) -> None:
        rules = compiled.rules
        self.c, self.frontier, self.sink, self.settings = compiled, frontier, sink, settings
        self.stats, self.factory, self.clock, self.display = stats, factory, clock, display
        levels = rules.levels
        self.modes = render_modes(rules)
        self.guards = Guards(settings, set(settings.allowed_hosts), rules.start_url,
                             levels.category.max_depth if levels.category else 0)
        self.fetchers: dict[str, Fetcher] = {}
        self.run_no = frontier.run
        self.lists_done = bool(frontier.get("lists_done"))
        self.known: set[str] = set()          # category and list pages ever queued
        self.reader = PageReader(compiled, self.guards, self._first_seen)
        for key, url, level, path in frontier.listish_urls():
            self.known.add(key)
            self.guards.count_pattern(url)
            if level == CATEGORY:
                self.reader.register(url, path)
        self.base_elapsed = stats.elapsed
        self.base_retries = stats.retries
        self.started = time.monotonic()
        self.inflight = 0
        stats.sample()                        # where this session starts on the timeline

    def _first_seen(self, key: str) -> bool:
        if key in self.known:
            return False
        self.known.add(key)
        return True

    # ----- one page ------------------------------------------------------------------------
    def fetcher(self, task: Task) -> Fetcher:
        mode = mode_for(self.modes, task.level, task.depth)
        if mode not in self.fetchers:
            self.fetchers[mode] = self.factory(mode, self.settings)
        return self.fetchers[mode]

    async def process(self, task: Task) -> Outcome:
        try:
            # rendered pages wait for network idle: an item XPath may match a page's
            # loading skeleton before the data arrives
            page = await self.fetcher(task).fetch(task.url)
        except FetchError as error:
            kind = str(getattr(error, "kind", "fetch"))
            status = getattr(error, "status", None)
            if kind == "http" and status:
                kind = f"http {status}"
            return Outcome(task, error=kind,
                           retry=kind in TRANSIENT and task.tries < CRAWL_RETRIES)
        try:
            return self.extract(task, page)
        except Exception as error:  # one page lxml refuses must not end the crawl
            log.warning("%s: cannot read the page: %s: %s", task.url, type(error).__name__,
                        error)
            return Outcome(task, error="parse")

    def extract(self, task: Task, page: Page) -> Outcome:
        return self.reader.read(task, page.text, page.final_url, len(page.body))

    # ----- the loop ------------------------------------------------------------------------
    async def run(self, budget: int | None) -> bool:
        """Crawl until the run queue is empty (True) or ``budget`` pages were fetched."""
        inflight: dict[asyncio.Task[Outcome], Task] = {}
        batch: list[Outcome] = []
        last = time.monotonic()
        stopped = False
        try:
            while True:
                starving = False
                free = self.settings.concurrency - len(inflight)
                if free > 0 and not stopped:
                    if budget is not None:
                        free = min(free, budget - self.stats.pages_total - len(inflight)
                                   - len(batch))
                        stopped = free <= 0
                    tasks = self.frontier.lease(max(free, 0))
                    starving = len(tasks) < free
                    for task in tasks:
                        inflight[asyncio.ensure_future(self.process(task))] = task
                if not inflight:
                    if batch:
                        self.commit(batch)
                        continue
                    break
                done, _ = await asyncio.wait(inflight, timeout=COMMIT_EVERY,
                                             return_when=asyncio.FIRST_COMPLETED)
                for future in done:
                    del inflight[future]
                    batch.append(future.result())
                self.inflight = len(inflight)
                if batch and (starving or len(batch) >= 256
                              or time.monotonic() - last >= COMMIT_EVERY):
                    self.commit(batch)
                    last = time.monotonic()
        finally:
            for future in inflight:
                future.cancel()
            if inflight:
                await asyncio.gather(*inflight, return_exceptions=True)
        return not stopped

    def commit(self, batch: list[Outcome]) -> None:
        """Apply a batch in one transaction, emit what it completed, then feed the sink."""
        f, stats = self.frontier, self.stats
        columns = self.sink.columns
        with f.transaction():
            settled = f.apply(batch, self.run_no, self.clock())
            self._count(batch)
            if not self.lists_done and not f.lists_pending():
                self.lists_done = True
                f.set(lists_done=True)
                stats.count("record", emit_records(f, None, self.run_no, columns))
            elif self.lists_done and settled:
                stats.count("record", emit_records(f, settled, self.run_no, columns))
            stats.sample()
            f.set(stats=stats.as_dict())
        batch.clear()
        sync(f, self.sink)
        self.display.update(stats, f.size, self.inflight, stats.elapsed - self.base_elapsed)

    def _count(self, batch: list[Outcome]) -> None:
        stats = self.stats
        for o in batch:
            if o.retry:
                stats.skipped.update(o.skipped)
                stats.requeued += 1
                continue
            count_page(stats, o)
        stats.retries = self.base_retries + sum(
            int(getattr(getattr(f, "stats", None), "retries", 0)) for f in self.fetchers.values())
        stats.elapsed = self.base_elapsed + time.monotonic() - self.started

    def finish(self, finished: bool) -> None:
        """Emit every product of the run not emitted yet; mark the crawl finished."""
        f = self.frontier
        with f.transaction():
            self.stats.count("record", emit_records(f, None, self.run_no, self.sink.columns,
                                                    force=True))
            self.stats.elapsed = self.base_elapsed + time.monotonic() - self.started
            self.stats.sample()
            f.set(status="finished", lists_done=True, stats=self.stats.as_dict(),
                  complete=finished)
        sync(f, self.sink)

    async def close(self) -> None:
        for fetcher in self.fetchers.values():
            await fetcher.close()


# ----- the entry points ---------------------------------------------------------------------
async def crawl_site_async(rules: SiteRules, sink: Sink | str | Path,
                           settings: Settings | None = None, *, fmt: str | None = None,
                           state: str | Path | None = None, resume: bool = False,
                           recrawl: bool = False, display: bool | None = None,
                           clock: Callable[[], float] = time.time,
                           factory: FetcherFactory = make_fetcher) -> CrawlResult:
    """Crawl the site of ``rules`` into ``sink``; see :func:`crawl_site`."""
    compiled = compile_rules(rules)
    settings = settings or Settings()
    if not settings.allowed_hosts:
        settings = settings.model_copy(update={"allowed_hosts": sorted(rules.allowed_hosts)})
    out = sink if not isinstance(sink, (str, Path)) else open_sink(sink, fmt)
    check_writable(out.path)
    state_path = Path(state) if state else out.path.with_name(out.path.name + ".state")
    frontier, fresh = open_state(state_path, site=rules.site, out=str(out.path.resolve()),
                                 fmt=out.format,
                                 rules_hash=record_hash(rules.model_dump(mode="json")),
                                 resume=resume, recrawl=recrawl, clock=clock)
    stats = CrawlStats.from_dict(frontier.get("stats") if resume else None)
    out.columns = record_columns(compiled)
    stats.fields = {"list": sorted({f.name for lay in compiled.lists for f in lay.plan.fields}),
                    "detail": sorted({f.name for lay in compiled.details
                                      for f in lay.plan.fields}),
                    "record": list(out.columns)}
    try:
        attach(frontier, out, fresh)
        with LiveDisplay(enabled=display) as live:
            crawler = Crawler(compiled, frontier, out, settings, stats, factory=factory,
                              clock=clock, display=live)
            try:
                if frontier.get("status") == "running":
                    level = CATEGORY if compiled.has_list else DETAIL
                    with frontier.transaction():
                        frontier.seed([Link(canonical(rules.start_url), rules.start_url,
                                            level, 0, ())])
                    crawler.known.add(canonical(rules.start_url))
                    done = await crawler.run(settings.max_pages)
                    crawler.finish(done)
            finally:
                await crawler.close()
        finished = bool(frontier.get("complete", True))
    finally:
        out.close()
        frontier.close()
    drift = check_drift(rules, stats)
    stats_path = stats.path_beside(out.path)
    stats.write_json(stats_path, {"site": rules.site, "output": str(out.path),
                                  "state": str(state_path),
                                  "complete": finished, "drift": [str(d) for d in drift]})
    return CrawlResult(stats, drift, out.path, state_path, stats_path, finished)


def crawl_site(rules: SiteRules, sink: Sink | str | Path, settings: Settings | None = None,
               **options: Any) -> CrawlResult:
    """Crawl the site of ``rules`` into ``sink`` (a :class:`~structurer.crawl.sinks.Sink`
    or an output path, whose suffix picks JSON lines, CSV or SQLite unless ``fmt`` says).

    Options: ``state`` (the state database; default ``<output>.state``), ``resume``
    (continue a crawl that was interrupted), ``recrawl`` (revisit the pages that are due
    and emit only new or changed records), ``display`` (live progress; default: when
    stderr is a terminal), ``clock`` (seconds since the epoch, for the revisit schedule).
    Bad input (a state of another site, an unwritable output) raises a one-line
    :class:`~structurer.errors.StructurerError`.
    """
    return run_sync(crawl_site_async(rules, sink, settings, **options))
