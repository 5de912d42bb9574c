"""Many shops analyzed at once, each in its own process (``structurer analyze-many``).

Input: a URLs file (one entry URL a line, blank lines and ``#`` comments ignored) or
:class:`ShopTask` objects, an output directory, a lexicon and settings. Output: one
rule file per shop that could be learned (``<host>_<port>.yaml``, as ``analyze``
writes it) and one :class:`ShopResult` per task, in input order. A process per shop
keeps a crash, a hang or a leak in one shop (or its browser) from touching the
others: errors become one-line reasons, a dead process or a timeout a failure.
The analysis each child runs is given (``analyze``: :func:`structurer.api.analyze_site`
for ``structurer analyze-many``); progress goes to callbacks, showing it is the
command line's (:mod:`structurer.cli.display`).
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from multiprocessing.connection import Connection, wait
from multiprocessing.context import ForkServerContext, SpawnContext
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import TYPE_CHECKING, Protocol
from urllib.parse import urlsplit

from structurer.config import Settings
from structurer.errors import StructurerError
from structurer.lexicon import Lexicon, load_lexicon
from structurer.logs import logger
from structurer.rules import SiteRules, rules_filename, save_rules

if TYPE_CHECKING:
    from structurer.learn.explore import ExploreReport

__all__ = ["Analyze", "ShopResult", "ShopTask", "analyze_many", "analyze_one", "read_url_file",
           "shop_worker"]

log = logger(__name__)

Template = Lexicon | str | Path | None
#: ``worker(task, out, template, settings, progress) -> ShopResult``; a top-level
#: function (or a ``functools.partial`` of one), as the child process imports it by name.
Worker = Callable[["ShopTask", Path, Template, Settings, Callable[[str], None]], "ShopResult"]


class Analyze(Protocol):
    """Learning one shop's rule file, as :func:`structurer.api.analyze_site` does."""

    def __call__(self, url: str, lexicon: Template, settings: Settings | None, *,
                 progress: Callable[[str], None] | None) -> tuple[SiteRules, ExploreReport]: ...


@dataclass(frozen=True)
class ShopTask:
    """One shop to analyze: its entry URL and where it was given (``urls.txt:3``)."""

    url: str
    source: str = ""


@dataclass
class ShopResult:
    """What became of one shop: its rule file and figures, or a one-line reason."""

    task: ShopTask
    ok: bool
    path: Path | None = None
    error: str | None = None
    seconds: float = 0.0
    pages: int = 0
    items_per_page: float | None = None
    list_fields: dict[str, float] = field(default_factory=dict)     # name -> confidence
    detail_fields: dict[str, float] = field(default_factory=dict)
    render: dict[str, str] = field(default_factory=dict)            # level -> mode
    shortfall: str | None = None      # the rule file was written, but lacks this

    @property
    def reason(self) -> str:
        """Why it failed, without the shop's URL in front."""
        reason = self.error or ("" if self.ok else "failed")
        return reason.removeprefix(f"{self.task.url}: ")

    def line(self) -> str:
        """``urls.txt:3: URL: reason`` (failures) or ``urls.txt:3: URL -> path``."""
        where = f"{self.task.source}: " if self.task.source else ""
        url = self.task.url
        plain = url.startswith(("http://", "https://")) and len(url.split()) == 1
        shown = url if plain else repr(url)
        if not self.ok:
            return f"{where}{shown}: {self.reason}"
        lacks = f" (incomplete: {self.shortfall})" if self.shortfall else ""
        return f"{where}{shown} -> {self.path}{lacks}"


def _one_line(text: str, width: int = 300) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def _is_http_url(text: str) -> bool:
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 - raises on a bad port
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and bool(parts.hostname) and text.split() == [text]


def read_url_file(path: str | Path) -> tuple[list[ShopTask], list[ShopResult]]:
    """The shops of a URLs file, and a failure per line that is not an http(s) URL or
    repeats a site already listed (its rule file would overwrite the first one's).

    Raises :class:`StructurerError` when the file cannot be read or lists no URL.
    """
    name = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        why = error.strerror if isinstance(error, OSError) and error.strerror else error
        raise StructurerError(f"cannot read URLs file: {_one_line(str(why))}",
                              url=name) from None
    tasks: list[ShopTask] = []
    bad: list[ShopResult] = []
    seen: dict[str, str] = {}
    for number, raw in enumerate(text.splitlines(), 1):
        words = raw.split()
        if not words or words[0].startswith("#"):
            continue
        url = words[0]
        task = ShopTask(url if len(words) == 1 or words[1].startswith("#") else raw.strip(),
                        f"{name}:{number}")
        if not _is_http_url(task.url):
            bad.append(ShopResult(task, ok=False, error="not an http(s) URL"))
            continue
        target = rules_filename(url)
        if target in seen:
            bad.append(ShopResult(task, ok=False,
                                  error=f"same site as {seen[target]} (one rule file per site)"))
            continue
        seen[target] = task.source
        tasks.append(task)
    if not tasks:
        raise StructurerError("no http(s) URL in the file"
                              + (f" ({len(bad)} bad lines, first {bad[0].task.source})"
                                 if bad else ""), url=name)
    return tasks, bad


# ----- one shop (runs in a child process) --------------------------------------------------
def _summary(task: ShopTask, rules: SiteRules, path: Path, report: ExploreReport,
             seconds: float) -> ShopResult:
    levels = rules.levels
    baseline = levels.list.baseline if levels.list else None
    named = (("category", levels.category), ("list", levels.list), ("detail", levels.detail))
    render: dict[str, str] = {name: level.render.mode for name, level in named
                              if level is not None}
    return ShopResult(
        task, ok=True, path=path, seconds=seconds, pages=report.fetched,
        items_per_page=baseline.items_per_page if baseline else None,
        list_fields={k: f.confidence for k, f in (levels.list.fields if levels.list
                                                  else {}).items()},
        detail_fields={k: f.confidence for k, f in (levels.detail.fields if levels.detail
                                                    else {}).items()},
        render=render, shortfall=report.shortfall)


def analyze_one(task: ShopTask, out: Path, template: Template, settings: Settings,
                progress: Callable[[str], None], *, analyze: Analyze) -> ShopResult:
    """Analyze one shop with ``analyze`` and write its rule file; any error becomes the
    result's reason."""
    started = time.monotonic()
    try:
        rules, report = analyze(task.url, template, settings, progress=progress)
        path = save_rules(rules, out / rules_filename(task.url))
    except StructurerError as error:
        reason = str(error)
    except Exception as error:  # a bug on one shop must not end the batch
        log.debug("analysis of %s failed", task.url, exc_info=True)
        reason = f"unexpected {type(error).__name__}: {error}"
    else:
        return _summary(task, rules, path, report, time.monotonic() - started)
    return ShopResult(task, ok=False, error=_one_line(reason),
                      seconds=time.monotonic() - started)


def shop_worker(analyze: Analyze) -> Worker:
    """The worker that runs :func:`analyze_one` with ``analyze`` (a module-level
    function, so the child process can import it)."""
    return partial(analyze_one, analyze=analyze)


def _child(worker: Worker, task: ShopTask, out: Path, template: Template,
           settings: Settings, conn: Connection) -> None:
    """Child process body: its own process group (so a timeout also ends its browser),
    progress messages and then the result sent back over ``conn``."""
    if hasattr(os, "setpgrp"):
        os.setpgrp()
    result = worker(task, out, template, settings, lambda text: conn.send(("progress", text)))
    conn.send(("done", result))
    conn.close()


# ----- many shops (the parent) ---------------------------------------------------------------
@dataclass
class _Running:
    task: ShopTask
    process: BaseProcess
    conn: Connection
    started: float
    result: ShopResult | None = None


def _context() -> SpawnContext | ForkServerContext:
    """A forkserver that has imported the analyzer once (cheap starts), else spawn: never
    plain fork, which would copy the parent's threads (the live display, event loops)."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["structurer.learn.explore"])
        return ctx
    return multiprocessing.get_context("spawn")


def _kill(process: BaseProcess) -> None:
    """End a live child and everything it started (its process group). A child that
    has ended is left alone: its id may already belong to another process."""
    if process.pid is None or process.exitcode is not None:
        return
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError, AttributeError):
        process.kill()      # not yet in its own group


def _failure(run: _Running, reason: str) -> ShopResult:
    return ShopResult(run.task, ok=False, error=reason,
                      seconds=time.monotonic() - run.started)


def _receive(run: _Running, on_progress: Callable[[ShopTask, str], None]) -> None:
    """Read what a child has sent; a message cut off by its death is left unread."""
    try:
        while run.result is None and run.conn.poll():
            kind, payload = run.conn.recv()
            if kind == "done":
                run.result = payload
            else:
                on_progress(run.task, str(payload))
    except (EOFError, OSError):
        pass


def _finish(run: _Running, timeout: float | None) -> ShopResult:
    """The result of a child whose process ended (or overran ``timeout``)."""
    if run.result is not None:
        run.process.join(5)
        _kill(run.process)      # only if it hangs on after sending its result
        run.process.join()
        run.conn.close()
        return run.result
    overran = run.process.exitcode is None
    _kill(run.process)
    run.process.join()
    run.conn.close()
    if overran and timeout is not None:
        return _failure(run, f"gave up after {timeout:g} s")
    code = run.process.exitcode
    how = f"signal {signal.Signals(-code).name}" if code and code < 0 else f"exit code {code}"
    return _failure(run, f"analysis process died ({how})")


def analyze_many(tasks: Sequence[ShopTask | str], out: str | Path, template: Template = None,
                 settings: Settings | None = None, *, worker: Worker, jobs: int = 2,
                 timeout: float | None = None,
                 on_start: Callable[[ShopTask], None] | None = None,
                 on_progress: Callable[[ShopTask, str], None] | None = None,
                 on_done: Callable[[ShopResult], None] | None = None) -> list[ShopResult]:
    """Analyze shops ``jobs`` at a time, one process each, each by ``worker`` (e.g.
    :func:`shop_worker`); results in input order.

    A shop that fails, crashes its process or runs past ``timeout`` seconds is a
    failed result; the others go on. ``worker`` must be a module-level function (or a
    partial of one), and a script calling this needs the ``if __name__ == "__main__":``
    guard (children are started fresh, not forked from the caller).
    """
    if jobs < 1:
        raise StructurerError(f"jobs must be at least 1 (got {jobs})")
    shops = [t if isinstance(t, ShopTask) else ShopTask(t) for t in tasks]
    if not isinstance(template, Lexicon):
        load_lexicon(template or "ecommerce")   # a bad lexicon is one error, not N
    settings = settings or Settings()
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    progress = on_progress or (lambda task, text: None)
    ctx = _context()
    pending = list(enumerate(shops))[::-1]
    running: dict[int, _Running] = {}
    results: list[ShopResult | None] = [None] * len(shops)
    try:
        while pending or running:
            while pending and len(running) < jobs:
                index, task = pending.pop()
                receiver, sender = ctx.Pipe(duplex=False)
                process = ctx.Process(target=_child, name=f"structurer-analyze-{index}",
                                      args=(worker, task, out, template, settings, sender),
                                      daemon=True)
                process.start()
                sender.close()
                running[index] = _Running(task, process, receiver, time.monotonic())
                if on_start:
                    on_start(task)
            ready = set(wait([r.conn for r in running.values()]
                             + [r.process.sentinel for r in running.values()], timeout=0.25))
            now = time.monotonic()
            for index, run in list(running.items()):
                ended = run.process.sentinel in ready
                if ended or run.conn in ready:
                    _receive(run, progress)
                late = timeout is not None and now - run.started > timeout
                if run.result is None and not ended and not late:
                    continue
                result = results[index] = _finish(run, timeout)
                del running[index]
                if on_done:
                    on_done(result)
    finally:
        for run in running.values():
            _kill(run.process)
            run.process.join()
            run.conn.close()
    return [r for r in results if r is not None]
