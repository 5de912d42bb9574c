"""RuleSpider: ``structurer crawl``'s traversal of one or more rule files, on Scrapy.

Input: the ``STRUCTURER_*`` settings (see :mod:`structurer.crawler.scrapy.runner`) or a
ready :class:`~structurer.crawler.scrapy.worker.Context`. Output: product records —
the same keys and values as the JSON lines ``structurer crawl`` writes — in the
worker's output file, and its statistics beside it.

Traversal and reading are the lightweight crawler's own
(:class:`~structurer.crawler.traverse.PageReader`: category links, list items, next
pages, detail records, category paths carried in ``request.meta``); records are
merged by the same :func:`~structurer.crawler.products.build_product`. As in
``structurer crawl``, a product's record waits until its site's category and list
pages are all done (so it has every category path) and its detail page is settled;
then exactly one worker claims and writes it.

Order of the effects of one page, so that a worker killed at any instant loses
nothing: store what the page gave (listings, claimed links), queue its follow-up
requests, then in one step mark the page done, claim the records it completed and
clear its in-flight token (:mod:`structurer.crawler.scrapy.queue`); write the records.
A page whose token was not cleared is read again; a record claimed but not written is
written when the worker starts again (:mod:`structurer.crawler.scrapy.sink`).
"""

from __future__ import annotations

import time
from dataclasses import asdict
from typing import Any

import scrapy
from scrapy import signals
from scrapy.exceptions import DontCloseSpider
from twisted.internet.task import LoopingCall

from structurer.clean import decode_html
from structurer.crawler.frontier import CATEGORY, DETAIL, LIST, Link, Outcome, Task, canonical
from structurer.crawler.outcomes import count_page, unreadable
from structurer.crawler.rendering import mode_for
from structurer.crawler.scrapy.middleware import (
    EXPAND,
    RENDER,
    RENDERED,
    REQUEUE,
    REQUEUED,
    SITE,
    UNSETTLED,
    failure_kind,
    requeue,
    retry_after,
)
from structurer.crawler.scrapy.queue import RECOVERED, TOKENS, Workers
from structurer.crawler.scrapy.sink import RecordSink
from structurer.crawler.scrapy.worker import Context, Site, State, open_context
from structurer.crawler.stats import CrawlStats
from structurer.logs import logger

log = logger(__name__)

__all__ = ["RuleSpider"]

TASK = "structurer_task"      # request.meta: [key, url as linked, level, depth, path]


class RuleSpider(scrapy.Spider):
    """Crawls the sites of the rule files in ``STRUCTURER_RULES`` (see the module doc)."""

    name = "structurer"
    sites: dict[str, Site]
    state: State
    workers: Workers | None
    sink: RecordSink

    def __init__(self, *args: Any, context: Context | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.context = context
        self.complete = False
        self.started = time.monotonic()
        self.crawl_stats = CrawlStats()
        self._beat: LoopingCall | None = None
        self._seeded: set[str] = set()        # sites known to have their start page queued

    @classmethod
    def from_crawler(cls, crawler: Any, *args: Any, **kwargs: Any) -> RuleSpider:
        spider: RuleSpider = super().from_crawler(crawler, *args, **kwargs)
        ctx = spider.context or open_context(crawler.settings.copy_to_dict())
        spider.context = ctx
        spider.sites, spider.state, spider.workers = ctx.sites, ctx.state, ctx.workers
        spider.sink = ctx.sink
        crawler.signals.connect(spider.on_opened, signal=signals.spider_opened)
        crawler.signals.connect(spider.on_idle, signal=signals.spider_idle)
        crawler.signals.connect(spider.on_closed, signal=signals.spider_closed)
        crawler.signals.connect(spider.on_dropped, signal=signals.request_dropped)
        return spider

    # ----- requests -----------------------------------------------------------------------
    def request(self, site: Site, link: Link, *, dont_filter: bool) -> scrapy.Request:
        meta: dict[str, Any] = {
            TASK: [link.key, link.url, link.level, link.depth, list(link.path)],
            SITE: site.name, RENDER: mode_for(site.modes, link.level, link.depth),
            # no cookies sent or kept unless the rule file asks for a session
            "dont_merge_cookies": not site.rules.session}
        if site.expand is not None and (link.level == LIST or link.depth > 0):
            meta[EXPAND] = asdict(site.expand)   # the browser loads every item of the list
        # category and list pages first, as structurer crawl leases them
        return scrapy.Request(link.url, callback=self.parse_page, errback=self.on_error,
                              priority=0 if link.level == DETAIL else 1, meta=meta,
                              dont_filter=dont_filter)

    async def start(self) -> Any:
        for request in self.start_requests():
            yield request

    def start_requests(self) -> Any:
        for site in self.sites.values():
            if site.name in self._seeded:
                continue
            url = site.rules.start_url
            if self.state.seed(site.name, canonical(url)):
                level = CATEGORY if site.compiled.has_list else DETAIL
                yield self.request(site, Link(canonical(url), url, level, 0, ()),
                                   dont_filter=True)
                self.state.mark_seeded(site.name)   # after the request is queued
            self._seeded.add(site.name)

    # ----- pages --------------------------------------------------------------------------
    def parse_page(self, response: Any) -> None:
        meta = response.meta
        site, task = self.sites[meta[SITE]], _task(meta)
        try:
            ctype = response.headers.get("Content-Type")
            text, _ = decode_html(response.body, ctype.decode("latin-1") if ctype else None)
            outcome = site.read(task, text, response.url, len(response.body),
                                bool(meta.get(RECOVERED)), response.body)
        except Exception as error:  # one unreadable page must not end the crawl
            outcome = unreadable(task, error)
        if not self.again(site, outcome, response):
            self.apply(site, outcome, meta)

    def again(self, site: Site, o: Outcome, response: Any) -> bool:
        """Put back in the queue (:func:`requeue`) a rendered page its script left blank
        (:meth:`~structurer.crawler.traverse.PageReader.blank`, the check ``structurer
        crawl`` makes), at most ``crawl_retries`` times (counted under ``REQUEUE``, reason
        ``blank_render``); the last time it stands as it is. The category and list pages
        it did link to are kept, as a detail page's are, and the links it refused counted
        (once per URL: the next reading does not count them again)."""
        request, flags = response.request, response.flags
        if RENDERED not in flags or o.task.tries >= site.guards.s.crawl_retries \
                or not site.reader.blank(o, UNSETTLED not in flags):
            return False
        log.info("%s: the rendered page is blank; asking again", o.task.url)
        self.crawl_stats.skipped.update(site.reader.refused)
        self.keep_links(site, o, bool(request.meta.get(RECOVERED)))
        self.crawler.engine.crawl(requeue(request, self, "blank_render"))
        return True

    def keep_links(self, site: Site, o: Outcome, recovered: bool) -> None:
        """Claim and queue the category and list pages a page links to (without storing
        anything else of it): a detail page's breadcrumb, or a page read again."""
        found = [ln for ln in o.links if ln.level != DETAIL]
        if found:
            for link in self.state.store_page(site.name, o.task.key, o.task.path, found,
                                              recovered, None, site.registered):
                self.crawler.engine.crawl(self.request(site, link, dont_filter=True))

    def on_error(self, failure: Any) -> None:
        """A page that could not be fetched (its HTTP retries spent): put back in the
        queue after a transient failure while the reader says so (as ``structurer crawl``
        requeues it: :meth:`~structurer.crawler.traverse.PageReader.failed`), else settled
        as failed."""
        meta = failure.request.meta
        site = self.sites[meta[SITE]]
        o = site.reader.failed(_task(meta), failure_kind(failure.value))
        if o.retry and o.error is not None:
            self.crawler.engine.crawl(requeue(failure.request, self, o.error,
                                              retry_after(failure.value)))
            self.count_retries()
            return
        self.apply(site, o, meta)

    def apply(self, site: Site, o: Outcome, meta: dict[str, Any]) -> None:
        """Store a page's outcome, queue what it leads to, emit what it completed."""
        state, t, name = self.state, o.task, site.name
        tokens = meta.get(TOKENS, ())
        if t.level == DETAIL:
            # categories a product page's breadcrumb leads to are queued like any others
            self.keep_links(site, o, False)
            # the start page of detail-only rules is the one "list" page of its site
            rows = state.finish_detail(name, t.key, t.url, o.detail, t.depth == 0, tokens)
        else:
            recovered = bool(meta.get(RECOVERED))
            claimed = state.store_page(name, t.key, t.path,
                                       [ln for ln in o.links if ln.level != DETAIL], recovered,
                                       o.items, site.registered if o.error is None else ())
            engine = self.crawler.engine
            for link in claimed:
                engine.crawl(self.request(site, link, dont_filter=True))
            for link in o.links:
                if link.level == DETAIL:
                    again = recovered and state.is_waiting(name, link.key)
                    engine.crawl(self.request(site, link, dont_filter=again))
            rows = state.finish_page(name, t.key, tokens)
        self.emit(site, rows)
        self.count(o)

    def emit(self, site: Site, rows: list[Any]) -> None:
        records = site.records(rows)
        if records:
            self.sink.write(records)
            self.crawl_stats.count("record", records)

    def count(self, o: Outcome) -> None:
        stats = self.crawl_stats
        count_page(stats, o)
        self.count_retries()
        stats.elapsed = time.monotonic() - self.started
        stats.sample()          # the report's timeline, as structurer crawl keeps it

    def count_retries(self) -> None:
        """HTTP requests Scrapy's RetryMiddleware retried; pages the crawl asked again (a
        render that failed transiently, a blank render), as structurer crawl counts them."""
        stats, scrapy_stats = self.crawl_stats, self.crawler.stats
        stats.retries = int(scrapy_stats.get_value("retry/count", 0))
        stats.requeued = int(scrapy_stats.get_value(f"{REQUEUE}/count", 0))
        stats.blank_renders = int(scrapy_stats.get_value(
            f"{REQUEUE}/reason_count/blank_render", 0))

    # ----- signals ------------------------------------------------------------------------
    def on_opened(self, spider: Any = None) -> None:
        if self.workers is not None:
            self._beat = LoopingCall(self.workers.beat)
            self._beat.start(max(0.2, self.workers.ttl / 3), now=True)

    def on_dropped(self, request: Any, spider: Any = None) -> None:
        """A redirect or retry of a page already taken from the queue that the duplicate
        filter refused: fetch it anyway, or the page would never be settled."""
        meta = request.meta
        if TASK in meta and (meta.get(TOKENS) or meta.get("redirect_urls")):
            self.crawler.engine.crawl(request.replace(dont_filter=True))

    def on_idle(self, spider: Any = None) -> None:
        """Alone: the crawl is over. With Redis: take back dead workers' requests, emit
        what a dead worker left, and wait for work until the whole crawl is complete."""
        if self.workers is None:
            return
        self.workers.beat()
        self.workers.reclaim_dead()
        for request in self.start_requests():   # a start page whose seeder died unqueued
            self.crawler.engine.crawl(request)
        for name, rows in self.state.sweep(self.sites).items():  # what a dead worker left
            self.emit(self.sites[name], rows)
        if self.workers.complete(self.sites):
            self.complete = True
            return
        slot = getattr(self.crawler.engine, "_slot", None)   # poll sooner than Scrapy's 5 s
        if slot is not None:
            slot.nextcall.schedule(self.context.poll if self.context else 0.5)
        raise DontCloseSpider

    def on_closed(self, spider: Any = None, reason: str = "finished") -> None:
        if self._beat is not None and self._beat.running:
            self._beat.stop()
        if self.workers is None:      # like structurer crawl: emit what the crawl reached
            for site in self.sites.values():
                self.emit(site, self.state.claim_records(site.name, force=True))
            self.complete = reason == "finished"
        elif not self.complete:       # --max-pages, Ctrl-C: the others carry on
            self.workers.leave()
        self.count_retries()
        self.crawl_stats.elapsed = time.monotonic() - self.started
        self.crawl_stats.sample()
        self.sink.close()


def _task(meta: dict[str, Any]) -> Task:
    key, url, level, depth, path = meta[TASK]
    return Task(0, key, url, level, depth, tuple(path), int(meta.get(REQUEUED, 0)))

