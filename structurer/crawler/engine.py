"""The crawler: replay a site rule file over the whole shop, politely and resumably.

Input: :class:`~structurer.rules.model.SiteRules`, a sink (or an output path, ``-`` for
standard output) and :class:`~structurer.config.Settings`. Output: one record per
product in the sink (:mod:`structurer.crawler.products`), streamed as the crawl goes
(:mod:`structurer.crawler.session`), the crawl state (:mod:`structurer.crawler.state`), and
a :class:`CrawlResult` with the statistics (also written as ``<output>.stats.json``),
drift warnings and, when the crawl fell short (every page failed, no records), why.
:func:`crawl_records` yields the records instead, with no output file.

No crawl loses or silently overwrites data: an output that holds records is refused
unless the crawl resumes it, appends to it (``recrawl``) or replaces it (``overwrite``);
the output and the state are locked for the crawl; every file the crawl writes is
checked before the first request; a full disk ends it with one line, and ``resume``
continues it.
"""

from __future__ import annotations

import queue
import shutil
import sqlite3
import tempfile
import threading
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from structurer.config import Settings
from structurer.crawler.drift import Drift, check_drift
from structurer.crawler.frontier import CATEGORY, DETAIL, Frontier, Link, canonical
from structurer.crawler.products import record_columns, record_hash
from structurer.crawler.rendering import render_modes
from structurer.crawler.schedule import Revisit
from structurer.crawler.session import (
    Crawler,
    CrawlStopped,
    FetcherFactory,
    ProgressCallback,
)
from structurer.crawler.sinks import Sink, SinkMode, attach, check_writable, open_sink
from structurer.crawler.state import check_distinct, note_last_crawl, open_state, resolve_state
from structurer.crawler.stats import CrawlStats
from structurer.crawler.streams import CallbackSink
from structurer.errors import FrontierError, StructurerError
from structurer.fetch import open_fetcher, run_sync
from structurer.replay.extract import compile_rules
from structurer.rules.model import SiteRules
from structurer.schema import RenderMode

__all__ = ["NO_RECORDS", "CrawlResult", "crawl_records", "crawl_site", "crawl_site_async",
           "shortfall"]


@dataclass
class CrawlResult:
    """What a crawl did. ``finished``: it ran to its end and did not fall short;
    ``shortfall``: why it fell short (every page failed, no records), else None."""

    stats: CrawlStats
    drift: list[Drift]
    out: Path | None            # None: standard output or the records iterator
    state: Path | None          # None: a temporary state, removed
    stats_path: Path | None
    finished: bool
    shortfall: str | None = None


NO_RECORDS = "no records: the rule file found no product on the pages it read"


def shortfall(stats: CrawlStats, *, recrawl: bool) -> str | None:
    """Why a crawl fell short, or None: no page could be read, or no record came out of
    a crawl (a recrawl with nothing changed is fine)."""
    failed = stats.failures + stats.skipped
    if stats.pages_total == 0 and failed:
        kinds = ", ".join(f"{k} {v}" for k, v in sorted(failed.items()))
        return f"every page failed ({kinds}): no records"
    if stats.records == 0 and not recrawl:
        return NO_RECORDS
    return None


# ----- the entry points ---------------------------------------------------------------------
async def crawl_site_async(rules: SiteRules, sink: Sink | str | Path,
                           settings: Settings | None = None, *, fmt: str | None = None,
                           state: str | Path | None = None, resume: bool = False,
                           recrawl: bool = False, revisit_all: bool = False,
                           overwrite: bool = False, rules_file: str | Path | None = None,
                           progress: ProgressCallback | None = None,
                           clock: Callable[[], float] = time.time,
                           factory: FetcherFactory = open_fetcher,
                           stop: threading.Event | None = None) -> CrawlResult:
    """Crawl the site of ``rules`` into ``sink``; see :func:`crawl_site`."""
    if resume and overwrite:
        raise StructurerError("--resume continues a crawl and --overwrite starts over: "
                              "choose one")
    settings = settings or Settings()
    if not settings.allowed_hosts:
        settings = settings.model_copy(update={"allowed_hosts": sorted(rules.allowed_hosts)})
    if rules.session:    # the rule file asks for cookies to be kept (default: none sent)
        settings = settings.model_copy(update={"session": True})
    if factory is open_fetcher and RenderMode.BROWSER in render_modes(rules).values():
        from structurer.fetch.chromium import find_chromium

        find_chromium(settings)     # a missing browser is bad input, said before any work
    out = sink if not isinstance(sink, (str, Path)) else open_sink(sink, fmt)
    source = Path(rules_file) if rules_file is not None else None
    state_path = resolve_state(out.path, Path(state) if state is not None else None,
                               rules_file=source, recrawl=recrawl, resume=resume)
    stats_path = CrawlStats.path_beside(out.path) if out.path is not None else None
    check_distinct({"--out": out.path, "--state": state_path, "the rule file": source,
                    "the statistics file": stats_path})
    for path, what, folder in ((out.path, "output", False), (stats_path, "statistics", True),
                               (state_path, "crawl state", True)):
        if path is not None:
            check_writable(path, what, folder=folder)
    temporary = Path(tempfile.mkdtemp(prefix="structurer-crawl-")) if state_path is None \
        else None
    run = _Run(rules, out, settings, state_path or cast(Path, temporary) / "crawl.state",
               stats_path, resume=resume, recrawl=recrawl, overwrite=overwrite,
               revisit_all=revisit_all)
    try:
        result = await run.run(clock=clock, factory=factory, progress=progress,
                               note=source if temporary is None else None,
                               stop=stop.is_set if stop is not None else None)
    finally:
        if temporary is not None:
            shutil.rmtree(temporary, ignore_errors=True)
    if temporary is not None:
        result.state = None
    return result


def crawl_site(rules: SiteRules, sink: Sink | str | Path, settings: Settings | None = None,
               **options: Any) -> CrawlResult:
    """Crawl the site of ``rules`` into ``sink`` (a :class:`~structurer.crawler.sinks.Sink`,
    an output path, whose suffix picks JSON lines, CSV or SQLite unless ``fmt`` says, or
    ``-`` for JSON lines or CSV on standard output).

    An output that already holds records is refused unless one of: ``overwrite``
    (replace it and start over), ``resume`` (continue the interrupted crawl that writes
    it), ``recrawl`` (revisit the due pages of the rule file's previous crawl, every
    page with ``revisit_all``, and append only new or changed records; it never
    truncates). Other options: ``state`` (the state database; default
    ``<output>.state``, for ``recrawl`` and ``resume`` the previous crawl's: see
    :mod:`structurer.crawler.state`), ``rules_file`` (the rule file's path: where its
    latest crawl is noted), ``progress`` (called with a
    :class:`~structurer.crawler.stats.CrawlProgress` every quarter second at most while
    the crawl runs; the crawl itself prints nothing), ``clock`` (seconds since the
    epoch, for the revisit schedule), ``stop`` (a :class:`threading.Event`: once set,
    the crawl ends with :class:`~structurer.crawler.session.CrawlStopped`, resumable).
    Statistics go to ``<output>.stats.json``. Bad input (a state of another site, an
    unwritable output, an output in use) raises a one-line
    :class:`~structurer.errors.StructurerError` before any page is fetched; a crawl that
    falls short says why in :attr:`CrawlResult.shortfall`.
    """
    return run_sync(crawl_site_async(rules, sink, settings, **options))


def crawl_records(rules: SiteRules, settings: Settings | None = None,
                  **options: Any) -> Generator[dict[str, Any], None, CrawlResult]:
    """Crawl the site of ``rules`` and yield its records as they are emitted, with no
    output file: ``for record in crawl_records(rules): ...``. The crawl runs in a thread;
    stopping early (``break``) ends it. Options as :func:`crawl_site` (no ``fmt``): the
    state is temporary unless ``state`` names one (then ``resume`` and ``recrawl``
    work as there). The generator returns the :class:`CrawlResult`."""
    chunks: queue.Queue[tuple[str, Any]] = queue.Queue(maxsize=16)
    stop = threading.Event()

    def put(kind: str, value: Any) -> None:
        while not stop.is_set():
            try:
                chunks.put((kind, value), timeout=0.1)
                return
            except queue.Full:
                continue
        raise CrawlStopped

    def crawl() -> None:
        try:
            put("done", crawl_site(rules, CallbackSink(lambda rows: put("records", rows)),
                                   settings, stop=stop, **options))
        except CrawlStopped:
            return
        except BaseException as error:  # handed to the reader, raised there
            try:
                put("error", error)
            except CrawlStopped:
                return

    thread = threading.Thread(target=crawl, name="structurer-crawl", daemon=True)
    thread.start()
    try:
        while True:
            kind, value = chunks.get()
            if kind == "records":
                yield from value
            elif kind == "error":
                raise value
            else:
                return cast(CrawlResult, value)
    finally:
        stop.set()
        thread.join()


class _Run:
    """Opening the output and state of one crawl, running it, writing its statistics."""

    def __init__(self, rules: SiteRules, out: Sink, settings: Settings, state: Path,
                 stats_path: Path | None, *, resume: bool, recrawl: bool, overwrite: bool,
                 revisit_all: bool) -> None:
        self.rules, self.out, self.settings, self.state = rules, out, settings, state
        self.stats_path = stats_path
        self.resume, self.recrawl, self.overwrite = resume, recrawl, overwrite
        self.revisit_all = revisit_all

    async def run(self, *, clock: Callable[[], float], factory: FetcherFactory,
                  progress: ProgressCallback | None, note: Path | None,
                  stop: Callable[[], bool] | None) -> CrawlResult:
        out, rules = self.out, self.rules
        out.lock()
        began = False
        try:
            empty = out.empty()
            if not empty and not (self.resume or self.recrawl or self.overwrite):
                raise StructurerError("holds records already: --overwrite replaces them, "
                                      "--resume continues the crawl that wrote them, "
                                      "--recrawl adds what changed since", url=str(out.path))
            frontier, mode = open_state(
                self.state, site=rules.site, rules_hash=record_hash(rules.model_dump(mode="json")),
                out=str(out.path.resolve()) if out.path is not None else "-", fmt=out.format,
                resume=self.resume, recrawl=self.recrawl, overwrite=self.overwrite,
                revisit_all=self.revisit_all, output_empty=empty, clock=clock)
            began = True
            try:
                if mode != "resume" and note is not None:
                    note_last_crawl(note, self.state, out.path)
                stats, finished, run = await self.crawl(frontier, mode, clock, factory,
                                                        progress, stop)
            finally:
                frontier.close()
        except sqlite3.Error as error:   # the state's disk is full, or failing
            raise FrontierError(f"cannot write the crawl state ({error}); free the space or "
                                f"fix the cause, then --resume", url=str(self.state)) from None
        finally:
            out.close(keep=began)
        return self.result(stats, finished, recrawl=run > 1)

    async def crawl(self, frontier: Frontier, mode: SinkMode, clock: Callable[[], float],
                    factory: FetcherFactory, progress: ProgressCallback | None,
                    stop: Callable[[], bool] | None) -> tuple[CrawlStats, bool, int]:
        compiled, out, rules = compile_rules(self.rules), self.out, self.rules
        stats = CrawlStats.from_dict(frontier.get("stats") if mode == "resume" else None)
        out.columns = record_columns(compiled)
        stats.fields = {"list": sorted({f.name for lay in compiled.lists
                                        for f in lay.plan.fields}),
                        "detail": sorted({f.name for lay in compiled.details
                                          for f in lay.plan.fields}),
                        "record": list(out.columns)}
        attach(frontier, out, mode)
        frontier.revisit = Revisit.of(self.settings)
        crawler = Crawler(compiled, frontier, out, self.settings, stats, factory=factory,
                          clock=clock, progress=progress, stop=stop)
        try:
            if frontier.get("status") == "running":
                level = CATEGORY if compiled.has_list else DETAIL
                with frontier.transaction():
                    frontier.seed([Link(canonical(rules.start_url), rules.start_url,
                                        level, 0, ())])
                crawler.known.add(canonical(rules.start_url))
                done = await crawler.run(self.settings.max_pages)
                crawler.finish(done)
        finally:
            await crawler.close()
        return stats, bool(frontier.get("complete", True)), frontier.run

    def result(self, stats: CrawlStats, finished: bool, *, recrawl: bool) -> CrawlResult:
        drift = check_drift(self.rules, stats, self.settings, complete=not recrawl)
        short = shortfall(stats, recrawl=recrawl)
        finished = finished and short is None
        if self.stats_path is not None:
            stats.write_json(self.stats_path, {
                "site": self.rules.site, "output": str(self.out.path), "state": str(self.state),
                "complete": finished, "shortfall": short, "drift": [str(d) for d in drift]})
        return CrawlResult(stats, drift, self.out.path, self.state, self.stats_path, finished,
                           short)
