"""What the command line shows people: rule summaries, progress and end-of-run tables.

Input: :class:`SiteRules`, analysis progress messages, a crawl's
:class:`~structurer.crawler.stats.CrawlProgress` and :class:`CrawlStats`,
``analyze-many``'s shop results, ``demo run``'s steps and result. Output: text on a
terminal (rich tables, a live status line or area when attached to one; plain lines
otherwise, a crawl's every ``PROGRESS_EVERY`` seconds). The only place rich is used:
the engines report through callbacks and print nothing.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from types import TracebackType
from typing import TYPE_CHECKING, Self, TextIO

from rich.console import Console, Group
from rich.live import Live
from rich.markup import escape
from rich.progress_bar import ProgressBar
from rich.table import Table
from rich.text import Text

from structurer.rules.model import FieldRule, RenderDecision, SiteRules

if TYPE_CHECKING:
    from structurer.crawler.stats import CrawlProgress, CrawlStats
    from structurer.demo.run import DemoResult
    from structurer.learn.batch import ShopResult, ShopTask

PROGRESS_EVERY = 10.0  # seconds between a crawl's progress lines when stderr is not a terminal
LIVE_EVERY = 0.2       # seconds between refreshes of analyze-many's live area at least


def _short(text: str, width: int = 60) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _field_rows(table: Table, level: str, fields: dict[str, FieldRule]) -> None:
    for name, rule in fields.items():
        samples = " | ".join(_short(s, 28) for s in rule.samples[:2])
        if rule.xpath:
            where = rule.xpath
        elif rule.jsonld:
            where = f"jsonld:{rule.jsonld}"
        else:
            where = f"const:{rule.const}"
        table.add_row(level, name, escape(_short(where, 90)),
                      f"{rule.confidence:.2f}" + (" ambiguous" if rule.ambiguous else ""),
                      escape(samples))


def _ambiguities(fields: dict[str, FieldRule], level: str) -> list[str]:
    """One line per ambiguous field: both candidates, their confidences and samples."""
    lines = []
    for name, rule in fields.items():
        if rule.ambiguous and rule.runner_up is not None:
            other = rule.runner_up
            mine = " | ".join(_short(s, 40) for s in rule.samples[:2])
            theirs = " | ".join(_short(s, 40) for s in other.samples[:2])
            lines.append(f"{level}.{name} is ambiguous: {rule.xpath or rule.jsonld} "
                         f"({rule.confidence:.2f}) gives {mine}; runner-up {other.xpath} "
                         f"({other.confidence:.2f}) gives {theirs}")
    return lines


def _render_text(name: str, decision: RenderDecision) -> str:
    """``list browser (by content: similarity 0.87, found 0 raw / 24 rendered)``."""
    samples = decision.samples
    if not samples:
        return f"{name} {decision.mode} ({decision.decided_by})"
    mean = sum(s.similarity for s in samples) / len(samples)
    found = [s for s in samples if s.found_raw is not None and s.found_rendered is not None]
    counts = (f", found {sum(s.found_raw or 0 for s in found)} raw / "
              f"{sum(s.found_rendered or 0 for s in found)} rendered") if found else ""
    why = "by content: " if decision.by_content else ""
    entry = " for the start page only" if decision.entry_only else ""
    return f"{name} {decision.mode}{entry} ({why}similarity {mean:.2f}{counts})"


def print_rules_summary(rules: SiteRules, stream: TextIO | None = None) -> None:
    """Levels, item XPath, pagination and every field with XPath, confidence, samples."""
    console = Console(file=stream or sys.stdout, width=160 if not (stream or sys.stdout).isatty()
                      else None)
    lv = rules.levels
    console.print(f"[bold]{rules.site}[/] — template {rules.template.name} "
                  f"({rules.template.hash})")
    if lv.category:
        cat = lv.category
        measured = ("links leading to lists" if cat.link_xpath else
                    f"{', '.join(s.kind for s in cat.sources)} links reached")
        console.print(escape(f"category links: {cat.link_xpath or 'none'}  (confidence "
                             f"{cat.confidence}: {measured}"
                             + (f"; e.g. {', '.join(cat.samples[:4])})" if cat.samples else ")")))
    levels = [(n, getattr(lv, n)) for n in ("category", "list", "detail")]
    console.print(escape("render:         " + "; ".join(
        _render_text(n, level.render) for n, level in levels if level is not None)))
    if lv.list:
        console.print(escape(f"list items:     {lv.list.item_xpath}  "
                             f"(confidence {lv.list.confidence})"))
        if lv.list.pagination:
            pag = lv.list.pagination
            way = {"link": pag.next_xpath or pag.url_pattern, "pattern": pag.url_pattern,
                   "load_more": pag.more_xpath, "scroll": "scroll to the bottom"}[pag.method]
            walked = (f"  (verified: {len(pag.verified)} categories, "
                      f"{sum(c.pages for c in pag.verified)} pages, "
                      f"{sum(c.items for c in pag.verified)} items)" if pag.verified
                      else "  (not verified)")
            console.print(escape(f"next page:      {pag.method}: {way}{walked}"))
    table = Table(show_lines=False)
    for column in ("level", "field", "xpath", "conf", "samples"):
        table.add_column(column, overflow="fold")
    if lv.list:
        _field_rows(table, "list", lv.list.fields)
    if lv.detail:
        _field_rows(table, "detail", lv.detail.fields)
    console.print(table)
    unsure = (_ambiguities(lv.list.fields, "list") if lv.list else []) + (
        _ambiguities(lv.detail.fields, "detail") if lv.detail else [])
    for line in unsure:
        console.print(escape(line), style="yellow", soft_wrap=True)
    if unsure:
        console.print("check these fields' samples; to take the runner-up, put its xpath in "
                      "the rule file", style="yellow")


@contextmanager
def progress_printer(stream: TextIO) -> Iterator[Callable[[str], None]]:
    """A callable taking progress messages: a live status line on a terminal, else nothing."""
    if not stream.isatty():
        yield lambda message: None
        return
    console = Console(file=stream)
    with console.status("analyzing…") as status:
        yield lambda message: status.update(_short(message, 100))


# ----- live areas ----------------------------------------------------------------------------
class LiveArea:
    """A rich live area on a terminal, nothing when the stream is not one; a context
    manager (the crawl's status line, ``analyze-many``'s progress)."""

    def __init__(self, stream: TextIO | None = None, *, enabled: bool | None = None) -> None:
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self._live = Live(console=Console(file=self.stream), auto_refresh=False,
                          transient=True) if self.enabled else None
        self._last = 0.0

    def __enter__(self) -> Self:
        if self._live is not None:
            self._live.start()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self._live is not None:
            self._live.stop()


# ----- structurer crawl ----------------------------------------------------------------------
class CrawlDisplay(LiveArea):
    """The crawl's progress, fed by its progress callback (:meth:`update`): a one-line
    live status on a terminal; where the stream is not a terminal (a log file, a pipe,
    cron) a plain line every ``every`` seconds instead, so a long crawl is never silent;
    nothing when ``enabled`` is False."""

    def __init__(self, stream: TextIO | None = None, *, enabled: bool | None = None,
                 every: float | None = None) -> None:
        super().__init__(stream, enabled=enabled)
        self.lines = enabled is None and not self.enabled
        self.every = PROGRESS_EVERY if every is None else every
        self._last = time.monotonic()

    def update(self, progress: CrawlProgress) -> None:
        """Show the figures; the rate is this session's (see :class:`CrawlProgress`)."""
        now = time.monotonic()
        if now - self._last < (self.every if self.lines else 0.25) or not (
                self.lines or self._live):
            return
        self._last = now
        stats = progress.stats
        text = (f"{stats.pages_total} pages ({progress.rate:.0f}/s)  items {stats.items}  "
                f"records {stats.records}  errors {sum(stats.failures.values())}  "
                f"queue {progress.queued}  in flight {progress.in_flight}")
        if self._live is not None:
            self._live.update(f"[bold]crawling[/] {text}", refresh=True)
        else:
            print(f"structurer: crawling: {text}", file=self.stream, flush=True)


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def _counts(counter: Mapping[str, int]) -> str:
    return ", ".join(f"{k} {v}" for k, v in sorted(counter.items()))


def crawl_table(stats: CrawlStats, title: str = "crawl") -> Table:
    """The end-of-crawl table: pages, items, records, quality, failures."""
    table = Table(title=title, show_header=False, title_justify="left")
    table.add_column("what", style="bold")
    table.add_column("value")
    table.add_row("pages", _counts(stats.pages) or "0")
    # category pages that show products are read as lists too: say so where they count
    where = ("list pages" if stats.list_pages == stats.pages.get("list", 0)
             else "category and list pages")
    table.add_row("list items", f"{stats.items} on {stats.list_pages} {where}"
                  + (f" ({stats.empty_lists} empty)" if stats.empty_lists else ""))
    if stats.pages_per_category is not None:
        table.add_row("pagination", f"{stats.pages_per_category:.2f} list pages per category "
                                    f"({stats.categories_listed} categories)")
    table.add_row("records", str(stats.records))
    table.add_row("price error rate", _pct(stats.price_error_rate)
                  + (f" ({_counts(stats.price_errors)})" if stats.price_errors else ""))
    rates = stats.fill_rates("record")
    if rates:
        table.add_row("fill rates", ", ".join(f"{k} {_pct(v)}" for k, v in rates.items()))
    table.add_row("failures", _counts(stats.failures) or "none")
    if stats.skipped:
        table.add_row("skipped links", _counts(stats.skipped))
    blank = f" ({stats.blank_renders} rendered blank)" if stats.blank_renders else ""
    table.add_row("retries", f"{stats.retries} HTTP requests, {stats.requeued} pages asked "
                             f"again{blank}")
    table.add_row("elapsed", f"{stats.elapsed:.1f} s, {stats.pages_per_second:.1f} pages/s")
    return table


def print_crawl_summary(stats: CrawlStats, title: str, stream: TextIO | None = None) -> None:
    """The end-of-crawl table on ``stream`` (standard output by default)."""
    Console(file=stream or sys.stdout).print(crawl_table(stats, title))


# ----- structurer analyze-many ---------------------------------------------------------------
def _fields(confidences: dict[str, float]) -> str:
    if not confidences:
        return "-"
    weakest = min(confidences, key=lambda k: confidences[k])
    mean = sum(confidences.values()) / len(confidences)
    return f"{len(confidences)}: min {confidences[weakest]:.2f} {weakest}, mean {mean:.2f}"


def batch_table(results: Sequence[ShopResult]) -> Table:
    """One row per shop: rule file or reason, items per list page, field confidences."""
    ok = sum(r.ok for r in results)
    table = Table(title=f"analyze-many: {ok} of {len(results)} shops ok", title_justify="left")
    for column in ("shop", "result", "items/page", "list fields", "detail fields",
                   "browser", "pages", "time"):
        table.add_column(column, overflow="fold")
    for r in results:
        if not r.ok:
            where = f" ({r.task.source})" if r.task.source else ""
            table.add_row(escape(r.task.url), Text(f"failed{where}: {r.reason}", style="red"),
                          "-", "-", "-", "-", "-", f"{r.seconds:.1f} s")
            continue
        browser = ", ".join(k for k, v in r.render.items() if v == "browser") or "-"
        items = "-" if r.items_per_page is None else f"{r.items_per_page:.1f}"
        result = Text(f"ok {r.path}") if r.shortfall is None else \
            Text(f"incomplete {r.path}: {r.shortfall}", style="yellow")
        table.add_row(escape(r.task.url), result, items,
                      escape(_fields(r.list_fields)), escape(_fields(r.detail_fields)),
                      browser, str(r.pages), f"{r.seconds:.1f} s")
    return table


class BatchDisplay(LiveArea):
    """A line per finished shop; on a terminal also a live bar and the running shops
    with their latest step (plain lines only when the stream is not a terminal). Its
    :meth:`start`, :meth:`step` and :meth:`done` are ``analyze_many``'s callbacks."""

    def __init__(self, total: int, stream: TextIO | None = None, *,
                 enabled: bool | None = None) -> None:
        super().__init__(stream, enabled=enabled)
        self.total, self.ok, self.failed = total, 0, 0
        self.running: dict[ShopTask, tuple[float, str]] = {}

    def _render(self) -> Group:
        done = self.ok + self.failed
        head = Table.grid(padding=(0, 1))
        head.add_row(Text("analyzing", style="bold"), ProgressBar(self.total, done, width=30),
                     f"{done}/{self.total}  ok {self.ok}  failed {self.failed}")
        rows = Table.grid(padding=(0, 1))
        now = time.monotonic()
        for task, (started, step) in self.running.items():
            rows.add_row(f"  {now - started:4.0f} s", escape(task.url),
                         Text(step[:90], style="dim"))
        return Group(head, rows)

    def _refresh(self, force: bool = False) -> None:
        now = time.monotonic()
        if self._live is not None and (force or now - self._last >= LIVE_EVERY):
            self._last = now
            self._live.update(self._render(), refresh=True)

    def start(self, task: ShopTask) -> None:
        self.running[task] = (time.monotonic(), "starting")
        self._refresh(force=True)

    def step(self, task: ShopTask, text: str) -> None:
        if task in self.running:
            self.running[task] = (self.running[task][0], text)
        self._refresh()

    def done(self, result: ShopResult) -> None:
        self.running.pop(result.task, None)
        self.ok += result.ok
        self.failed += not result.ok
        state = "ok    " if result.ok else "failed"
        line = f"[{self.ok + self.failed}/{self.total}] {state} {result.line()}"
        if result.seconds:
            line += f" ({result.seconds:.1f} s)"
        if self._live is not None:
            self._live.console.print(escape(line), style=None if result.ok else "red",
                                     soft_wrap=True)
            self._refresh(force=True)
        else:
            print(line, file=self.stream, flush=True)


def print_batch_summary(results: Sequence[ShopResult]) -> None:
    """``analyze-many``'s closing table on standard output."""
    Console(width=None if sys.stdout.isatty() else 200).print(batch_table(results))


# ----- structurer demo run -------------------------------------------------------------------
class DemoDisplay:
    """``demo run`` on standard output: a line per step (its :meth:`say` is the demo's
    callback), then the table of shops against their ground truth and one record."""

    def __init__(self) -> None:
        self.console = Console(width=150)
        self.styles = {"shop": "bold", "failed": "red"}

    def say(self, kind: str, text: str) -> None:
        self.console.print(escape(text), style=self.styles.get(kind))

    def result(self, result: DemoResult) -> None:
        from structurer.demo.run import FIELDS

        table = Table(title="structurer demo: analyze each shop from its home page, "
                            "then crawl it")
        for column in ("shop", "render c/l/d", "analyze", "crawl", "pages", "records",
                       "truth", "fields right", "output"):
            table.add_column(column)
        for run in result.shops:
            table.add_row(run.shop, run.modes, f"{run.analyze_seconds:.1f} s",
                          f"{run.crawl_seconds:.1f} s", str(run.pages), str(run.records),
                          str(run.truth), f"{run.right:.1%}", str(run.output))
        self.console.print(table)
        self.console.print(f"fields right: {', '.join(FIELDS)} of every record against the "
                           "ground truth; render c/l/d: static or browser per level (category, "
                           "list, detail)")
        if result.sample:
            self.console.print("one record:")
            self.console.print_json(json.dumps(result.sample, ensure_ascii=False))
