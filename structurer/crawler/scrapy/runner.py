"""Run one Scrapy worker: ``structurer crawl RULES... --engine scrapy [--redis URL]``.

Input: rule files, the worker's output file, :class:`~structurer.config.Settings`,
and optionally a Redis URL (then the worker joins the distributed crawl named by the
rule files, or by ``crawl``) and extra Scrapy settings. Output: a
:class:`WorkerResult` — this worker's statistics (also written as JSON beside its
output), records written, and whether the crawl is complete (never, when it wrote no
record: a lone worker none, or a distributed crawl none in any worker's output).

The project's settings map onto Scrapy's (concurrency, per-host concurrency, delay,
timeout, retries and their statuses, redirects, page size, robots.txt, user agent; ``max_pages`` is
``CLOSESPIDER_PAGECOUNT``, per worker). The runtime's own settings use the
``STRUCTURER_`` prefix:

``STRUCTURER_RULES``     rule file paths
``STRUCTURER_OUT``       this worker's JSON lines output
``STRUCTURER_SETTINGS``  the project's :class:`Settings`, as a dict
``STRUCTURER_REDIS``     Redis URL (none: a single-process crawl)
``STRUCTURER_CRAWL``     Redis key prefix of the crawl (default: from the rule files)
``STRUCTURER_WORKER``    worker id (default: host name + a digest of the output path)
``STRUCTURER_HEARTBEAT`` seconds without a heartbeat before a worker's in-flight
                         requests are given to others (default 30)
``STRUCTURER_POLL``      seconds between looks at the shared queue when idle (default 0.5)

With Redis, scrapy-redis is the scheduler (a priority queue, category and list pages
first) and the duplicate filter, both shared by every worker; the queue is persisted
(``SCHEDULER_PERSIST``) so a worker that stops does not clear it for the others.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from structurer.config import Settings
from structurer.crawler.drift import Drift, check_drift
from structurer.crawler.stats import CrawlStats
from structurer.errors import StructurerError
from structurer.rules import load_rules

__all__ = ["WorkerResult", "run_worker", "scrapy_settings"]

MIDDLEWARES = "structurer.crawler.scrapy.middleware"


@dataclass
class WorkerResult:
    stats: CrawlStats
    out: Path
    stats_path: Path
    crawl: str
    worker: str
    complete: bool
    recovered: int          # records of this worker's last run written at start
    reclaimed: int          # requests its last run had in flight, queued again
    drift: list[Drift] = field(default_factory=list)
    shortfall: str | None = None    # why the crawl fell short (no records): a lone worker's,
                                    # or a distributed one over, without a record anywhere
    drift_checked: bool = True      # False: one of several rule files, or not the last worker


def scrapy_settings(rules: Sequence[str | Path], out: str | Path, settings: Settings, *,
                    redis_url: str | None = None, crawl: str | None = None,
                    extra: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The Scrapy settings of a worker (see the module docstring)."""
    s: dict[str, Any] = {
        "BOT_NAME": "structurer",
        "USER_AGENT": settings.user_agent,
        "ROBOTSTXT_OBEY": settings.obey_robots,
        "CONCURRENT_REQUESTS": settings.concurrency,
        "CONCURRENT_REQUESTS_PER_DOMAIN": settings.per_host_concurrency,
        "DOWNLOAD_DELAY": settings.delay,
        "DOWNLOAD_DELAY_JITTER": 0,
        "DOWNLOAD_TIMEOUT": settings.timeout,
        "DOWNLOAD_MAXSIZE": settings.max_page_bytes,
        "REDIRECT_MAX_TIMES": settings.max_redirects,
        "RETRY_TIMES": settings.retries,
        "RETRY_HTTP_CODES": list(settings.retry_statuses),
        "URLLENGTH_LIMIT": settings.max_url_length,
        # callbacks return nothing (records go to the worker's sink): Scrapy need not
        # start 100 tasks per response to process their output
        "CONCURRENT_ITEMS": 1,
        "TELNETCONSOLE_ENABLED": False,
        "EXTENSIONS": {"scrapy.extensions.remote_control.RemoteControl": None},
        "LOG_LEVEL": "WARNING",
        "TWISTED_REACTOR": "twisted.internet.asyncioreactor.AsyncioSelectorReactor",
        # Scrapy's retries wait as structurer crawl's do (RetryPolicy), in its place
        "DOWNLOADER_MIDDLEWARES": {f"{MIDDLEWARES}.BackoffMiddleware": 40,
                                   f"{MIDDLEWARES}.GuardMiddleware": 50,
                                   "scrapy.downloadermiddlewares.retry.RetryMiddleware": None,
                                   f"{MIDDLEWARES}.RetryBackoffMiddleware": 550,
                                   f"{MIDDLEWARES}.BrowserMiddleware": 950},
        "STRUCTURER_RULES": [str(p) for p in rules],
        "STRUCTURER_OUT": str(out),
        "STRUCTURER_SETTINGS": settings.model_dump(mode="json"),
        "STRUCTURER_REDIS": redis_url,
        "STRUCTURER_CRAWL": crawl,
    }
    if settings.max_pages:
        s["CLOSESPIDER_PAGECOUNT"] = settings.max_pages
    if redis_url:
        from structurer.crawler.scrapy.worker import crawl_name

        name = crawl or crawl_name([load_rules(p) for p in rules], None)
        if "%" in name:                  # scrapy-redis %-formats its key settings
            raise StructurerError(f"crawl name {name!r}: no '%' please")
        s.update({"STRUCTURER_CRAWL": name, "REDIS_URL": redis_url,
                  "SCHEDULER": "scrapy_redis.scheduler.Scheduler",
                  "SCHEDULER_PERSIST": True,
                  "SCHEDULER_QUEUE_CLASS": "structurer.crawler.scrapy.queue.TrackedQueue",
                  "SCHEDULER_QUEUE_KEY": f"{name}:requests",
                  "SCHEDULER_DUPEFILTER_KEY": f"{name}:dupefilter",
                  "DUPEFILTER_CLASS": "scrapy_redis.dupefilter.RFPDupeFilter"})
    s.update(extra or {})
    return s


def run_worker(rules: Sequence[str | Path], out: str | Path, settings: Settings | None = None,
               *, redis_url: str | None = None, crawl: str | None = None,
               extra: Mapping[str, Any] | None = None) -> WorkerResult:
    """Crawl with one Scrapy worker until the crawl is over (alone: until this worker is
    idle; with Redis: until every worker's work is done). Blocks; one per process."""
    from scrapy.crawler import CrawlerProcess
    from scrapy.exceptions import ScrapyDeprecationWarning

    from structurer.crawler.rendering import render_modes
    from structurer.crawler.scrapy.spider import RuleSpider
    from structurer.crawler.scrapy.worker import open_context
    from structurer.fetch.chromium import find_chromium

    if redis_url:
        try:
            import scrapy_redis  # noqa: F401
        except ImportError:
            raise StructurerError("--redis needs scrapy-redis: pip install "
                                  "'structurer[scale]'") from None
    settings = settings or Settings()
    if any("browser" in render_modes(load_rules(p)).values() for p in rules):
        find_chromium(settings)   # no usable Chromium: one line and exit 2 before crawling
    options = scrapy_settings(rules, out, settings, redis_url=redis_url,
                              crawl=f"structurer:{crawl}" if crawl else None, extra=extra)
    # scrapy-redis still passes the spider to Scrapy's stats: not the user's concern
    warnings.filterwarnings("ignore", category=ScrapyDeprecationWarning)
    context = open_context(options)
    process = CrawlerProcess(options)
    crawler = process.create_crawler(RuleSpider)
    process.crawl(crawler, context=context)
    process.start()
    spider = crawler.spider
    if not isinstance(spider, RuleSpider):
        context.sink.close()
        raise StructurerError("the Scrapy crawl did not start; see the log above")
    stats: CrawlStats = spider.crawl_stats
    out = Path(out)
    stats_path = stats.path_beside(out)
    short, drift, checked = _judge(rules, settings, context, stats, spider.complete)
    complete = spider.complete and short is None
    stats.write_json(stats_path, {"output": str(out), "engine": "scrapy",
                                  "crawl": context.crawl, "worker": context.worker,
                                  "complete": complete, "shortfall": short,
                                  "drift": [str(d) for d in drift], "drift_checked": checked,
                                  "recovered": context.recovered,
                                  "reclaimed": context.reclaimed})
    return WorkerResult(stats, out, stats_path, context.crawl, context.worker, complete,
                        context.recovered, context.reclaimed, drift, short, checked)


def _judge(rules: Sequence[str | Path], settings: Settings, context: Any, stats: CrawlStats,
           complete: bool) -> tuple[str | None, list[Drift], bool]:
    """(why the crawl fell short, its drift by level, whether drift was checked). A lone
    worker sees the whole crawl; a worker of a Redis crawl its share only: the last to
    finish checks drift over every worker's figures, and any of them, once the crawl is
    over, whether it claimed a record anywhere."""
    from structurer.crawler.engine import NO_RECORDS, shortfall
    from structurer.crawler.scrapy.state import RedisState

    state = context.state
    if not isinstance(state, RedisState):
        short = shortfall(stats, recrawl=False)
        whole: CrawlStats | None = stats
    else:
        shares = context.workers.publish(stats.as_dict())
        whole = None if shares is None else CrawlStats.merged(
            map(CrawlStats.from_dict, shares), stats.fields)
        short = None
        if complete and not state.emitted():    # why: from every worker's figures, if known
            short = (shortfall(whole, recrawl=False) if whole is not None else None) \
                or NO_RECORDS
    checked = len(rules) == 1 and whole is not None
    drift = check_drift(load_rules(rules[0]), whole, settings, complete=complete) \
        if checked and whole is not None else []
    return short, drift, checked
