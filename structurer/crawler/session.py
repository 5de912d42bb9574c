"""One session of a crawl: the fetch loop over an opened frontier and sink.

Input: the compiled rules, the opened :class:`~structurer.crawler.frontier.Frontier` and
:class:`~structurer.crawler.sinks.Sink`, :class:`~structurer.config.Settings`, the
statistics so far and a fetcher factory. Output: pages fetched concurrently (category and
list pages first), each batch of outcomes committed in one transaction, the records it
completes emitted and written to the sink; at the end every product of the run
emitted; every ``PROGRESS_EVERY`` seconds at most, a
:class:`~structurer.crawler.stats.CrawlProgress` handed to the progress callback.
Opening the output and the state, and the statistics file, are
:mod:`structurer.crawler.engine`'s.

Traversal: the start page's category links (``levels.category.link_xpath``, followed
up to the level's ``max_depth``) lead to category pages, which are read as list
pages too; list pages are followed through their pagination; every item's detail
link is fetched. Category and list pages go first, so when the last of them is
done every product's category paths are known: from then on a product's record is
emitted as soon as its detail page is settled (fetched, failed or skipped).
Extraction is :mod:`structurer.replay.extract`, the one shared implementation;
reading a fetched page into links, paths and items is :mod:`structurer.crawler.traverse`,
shared with the Scrapy runtime (:mod:`structurer.crawler.scrapy`).

Each level is fetched by the fetcher its ``render.mode`` asks for (the factory, by
default :func:`structurer.fetch.open_fetcher`): static levels over HTTP, browser
levels through ``structurer.fetch.browser``. Pages behind category links are read as
lists too, so they get a browser when either the category or the list level needs one.
Links are checked before they are queued (:class:`~structurer.crawler.frontier.Guards`):
hosts of the rule file, URL length, path depth, crawl depth, pages per URL pattern
(category and list pages: detail pages lead nowhere), must-include / must-exclude
keywords.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from structurer.config import Settings
from structurer.crawler.frontier import CATEGORY, DETAIL, LIST, Frontier, Guards, Outcome, Task
from structurer.crawler.outcomes import count_page, requeue_wait, unreadable
from structurer.crawler.products import emit_records, trusted_trail, unemitted
from structurer.crawler.rendering import expand_for, mode_for, render_modes
from structurer.crawler.sinks import Sink, sync
from structurer.crawler.stats import CrawlProgress, CrawlStats
from structurer.crawler.traverse import PageReader
from structurer.errors import FetchError
from structurer.fetch.base import Expanding, Fetcher, Page
from structurer.fetch.retry import RetryPolicy
from structurer.logs import logger
from structurer.replay.extract import CompiledRules
from structurer.schema import RenderMode

log = logger(__name__)

__all__ = ["COMMIT_EVERY", "EMIT_CHUNK", "PROGRESS_EVERY",
           "CrawlStopped", "Crawler", "FetcherFactory", "ProgressCallback"]

FetcherFactory = Callable[[RenderMode, Settings], Fetcher]
ProgressCallback = Callable[[CrawlProgress], None]
COMMIT_EVERY = 0.25     # seconds between state commits while work keeps coming
EMIT_CHUNK = 500        # records built per transaction when many are due at once
PROGRESS_EVERY = 0.25   # seconds between progress reports at least (a live status refresh)


class CrawlStopped(Exception):
    """The crawl was asked to stop (its records' reader went away); its state stays
    resumable, as after an interruption."""


class Crawler:
    """One session of a crawl over an opened frontier and sink."""

    def __init__(self, compiled: CompiledRules, frontier: Frontier, sink: Sink,
                 settings: Settings, stats: CrawlStats, *, factory: FetcherFactory,
                 clock: Callable[[], float], progress: ProgressCallback | None = None,
                 stop: Callable[[], bool] | None = None) -> None:
        rules = compiled.rules
        self.stop = stop
        self.c, self.frontier, self.sink, self.settings = compiled, frontier, sink, settings
        self.trusted = trusted_trail(compiled)   # its breadcrumb may say the category
        self.stats, self.factory, self.clock, self.progress = stats, factory, clock, progress
        levels = rules.levels
        self.modes = render_modes(rules)
        self.expand = expand_for(rules, settings)
        self.guards = Guards(settings, set(settings.allowed_hosts), rules.start_url,
                             levels.category.max_depth if levels.category else 0)
        self.fetchers: dict[str, Fetcher] = {}
        self.retry_policy = RetryPolicy.from_settings(settings)
        self.run_no = frontier.run
        self.lists_done = bool(frontier.get("lists_done"))
        self.known: set[str] = set()          # category and list pages ever queued
        self.refused = set(frontier.refused_keys())  # links the run refused: counted once
        self.reader = PageReader(compiled, self.guards, self._first_seen,
                                 first_refused=self._first_refused)
        for key, url, level, path in frontier.listish_urls():
            self.known.add(key)
            if key != self.reader.start_key:   # queued, not linked: no page of the budget
                self.guards.count_pattern(url)
            if level == CATEGORY:
                self.reader.register(url, path)
        self.base_elapsed = stats.elapsed
        self.base_retries = stats.retries
        self.base_pages = stats.pages_total
        self.started = self.reported = time.monotonic()
        self.inflight = 0
        stats.sample()                        # where this session starts on the timeline

    def _first_seen(self, key: str) -> bool:
        if key in self.known:
            return False
        self.known.add(key)
        return True

    def _first_refused(self, key: str) -> bool:
        if key in self.refused:
            return False
        self.refused.add(key)
        return True

    # ----- one page ------------------------------------------------------------------------
    def fetcher(self, task: Task) -> Fetcher:
        mode = mode_for(self.modes, task.level, task.depth)
        if mode not in self.fetchers:
            self.fetchers[mode] = self.factory(mode, self.settings)
        return self.fetchers[mode]

    async def process(self, task: Task) -> Outcome:
        # a page put back: backoff first
        await asyncio.sleep(requeue_wait(task.tries, policy=self.retry_policy))
        try:
            # rendered pages wait for network idle: an item XPath may match a page's
            # loading skeleton before the data arrives
            fetcher = self.fetcher(task)
            if self.expand is not None and (task.level == LIST or task.depth > 0) and \
                    isinstance(fetcher, Expanding):   # "load more" / scroll: every item
                page = await fetcher.fetch_expanded(task.url, self.expand)
            else:
                page = await fetcher.fetch(task.url)
        except FetchError as error:     # a transient one is asked again (the reader says)
            return self.reader.failed(task, error.failure)
        try:
            return self.extract(task, page)
        except Exception as error:  # one unreadable page must not end the crawl
            return unreadable(task, error)

    def extract(self, task: Task, page: Page) -> Outcome:
        o = self.reader.read(task, page.text, page.final_url, len(page.body), page.body)
        o.refused = list(self.reader.refused_keys)   # the state keeps them with the page
        # a rendered page its script left empty (the page's own request failed, or came
        # late on a busy machine and the browser handed the page over before its network
        # went quiet) is asked for again like a render that ran out of time, at most
        # ``crawl_retries`` times; the last time it stands as it is. The category and list
        # pages it did link to are queued, and the links it refused counted: the reader
        # has taken them as seen, the next reading will not meet them again
        if page.rendered and task.tries < self.settings.crawl_retries \
                and self.reader.blank(o, page.settled):
            log.info("%s: the rendered page is blank; asking again", task.url)
            return Outcome(task, error="blank_render", retry=True,
                           links=[ln for ln in o.links if ln.level != DETAIL],
                           skipped=list(self.reader.refused), refused=o.refused)
        return o

    # ----- the loop ------------------------------------------------------------------------
    async def run(self, budget: int | None) -> bool:
        """Crawl until the run queue is empty (True) or ``budget`` pages were fetched."""
        if self.lists_done:     # a resumed session: what the last one left unemitted
            self.drain(force=False)
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
                self.show()
                if self.stop is not None and self.stop():
                    raise CrawlStopped
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
        lists_were_done = self.lists_done
        with f.transaction():
            settled = f.apply(batch, self.run_no, self.clock())
            self._count(batch)
            # a product's breadcrumb may lead to a category not read yet (a source of the
            # rules): records wait until it is, and every path listing them is known
            lists_done = not f.lists_pending()
            if lists_done and self.lists_done and settled:
                stats.count("record", emit_records(f, settled, self.run_no,
                                                   self.sink.columns, words=self.c.words,
                                                   trusted=self.trusted))
            if lists_done != self.lists_done:
                self.lists_done = lists_done
                f.set(lists_done=lists_done)
            stats.sample()
            f.set(stats=stats.as_dict())
        batch.clear()
        sync(f, self.sink)
        if self.lists_done and not lists_were_done:   # every category path is known now
            self.drain(force=False)
        self.show()

    def drain(self, *, force: bool) -> None:
        """Emit every product of the run that can be (all of them with ``force``), a
        chunk per transaction, each chunk written out before the next: a crawl of any
        size holds one chunk of records in memory."""
        f, after = self.frontier, ""
        while True:
            with f.transaction():
                keys = unemitted(f, self.run_no, after, EMIT_CHUNK, force=force)
                if keys:
                    self.stats.count("record", emit_records(
                        f, keys, self.run_no, self.sink.columns, force=force,
                        words=self.c.words, trusted=self.trusted))
                    f.set(stats=self.stats.as_dict())
            if not keys:
                return
            sync(f, self.sink)
            after = keys[-1]

    def show(self) -> None:
        """Hand the progress callback where the crawl stands, ``PROGRESS_EVERY`` at most."""
        now = time.monotonic()
        if self.progress is None or now - self.reported < PROGRESS_EVERY:
            return
        self.reported = now
        self.progress(CrawlProgress(self.stats, self.frontier.size, self.inflight,
                                    pages=self.stats.pages_total - self.base_pages,
                                    elapsed=now - self.started))

    def _count(self, batch: list[Outcome]) -> None:
        stats = self.stats
        for o in batch:
            if o.retry:
                stats.skipped.update(o.skipped)
                stats.requeued += 1
                stats.blank_renders += o.error == "blank_render"
                continue
            count_page(stats, o)
        stats.retries = self.base_retries + sum(
            int(getattr(getattr(f, "stats", None), "retries", 0)) for f in self.fetchers.values())
        stats.elapsed = self.base_elapsed + time.monotonic() - self.started

    def finish(self, finished: bool) -> None:
        """Emit every product of the run not emitted yet; mark the crawl finished."""
        self.drain(force=True)
        f = self.frontier
        with f.transaction():
            self.stats.elapsed = self.base_elapsed + time.monotonic() - self.started
            self.stats.sample()
            f.set(status="finished", lists_done=True, stats=self.stats.as_dict(),
                  complete=finished)

    async def close(self) -> None:
        for fetcher in self.fetchers.values():
            await fetcher.close()
