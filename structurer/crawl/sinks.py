"""Output sinks: JSON lines, CSV or SQLite, each record written exactly once.

Input: rows ``(seq, record JSON)`` from the state database's outbox (see
:mod:`structurer.crawl.frontier`). Output: the file at ``path`` and a *mark* — the
file's length (JSON lines, CSV) or the last ``seq`` stored (SQLite) — after each write.

The protocol that makes a crash harmless (:func:`attach`, :func:`sync`):

1. records enter the outbox in the same transaction that marks their pages done;
2. ``sync`` appends outbox rows after ``sink_seq`` to the file, flushes and fsyncs it,
   then in one transaction stores the new ``sink_seq`` and mark and deletes those rows;
3. on ``--resume``, ``attach`` cuts the file back to the stored mark (dropping a torn
   line or rows written after the last stored mark) and ``sync`` writes the outbox
   rows again. A record is in the file once whatever instant the process died at.

Before any of that, :func:`open_state` opens the state database and checks that it
belongs to this crawl: the same site; for ``--resume`` the same rule file, output and
format; an unfinished crawl is never silently started over.
"""

from __future__ import annotations

import csv
import io
import json
import os
import sqlite3
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, BinaryIO, Literal, Protocol, cast

from structurer.crawl.frontier import SCHEMA_VERSION, Frontier
from structurer.errors import FrontierError, StructurerError

__all__ = ["FORMATS", "CsvSink", "JsonlSink", "Sink", "SqliteSink", "attach", "check_writable",
           "open_sink", "open_state", "sync"]

Format = Literal["jsonl", "csv", "sqlite"]
FORMATS: tuple[Format, ...] = ("jsonl", "csv", "sqlite")
Rows = Sequence[tuple[int, str]]


class Sink(Protocol):
    path: Path
    format: Format
    columns: list[str]

    def start(self) -> int:
        """Create or empty the output; the mark of an empty output."""
        ...

    def recover(self, mark: int) -> None:
        """Cut the output back to ``mark``."""
        ...

    def write(self, rows: Rows) -> int:
        """Append rows durably; the new mark."""
        ...

    def close(self) -> None:
        ...


def _cannot(path: Path, error: OSError | sqlite3.Error) -> StructurerError:
    why = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
    return StructurerError(f"cannot write output: {why}", url=str(path))


class _FileSink(ABC):
    """Append-only text output whose mark is its length in bytes."""

    format: Format

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.columns: list[str] = []
        self._handle: BinaryIO | None = None

    def _open(self, mode: str) -> BinaryIO:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            handle = cast(BinaryIO, open(self.path, mode))  # noqa: SIM115  # for the whole crawl
        except OSError as error:
            raise _cannot(self.path, error) from None
        self._handle = handle
        return handle

    def header(self) -> bytes:
        return b""

    def start(self) -> int:
        handle = self._open("wb")
        return self._append([self.header()]) if self.header() else handle.tell()

    def recover(self, mark: int) -> None:
        try:
            size = self.path.stat().st_size
        except OSError as error:
            raise FrontierError(f"cannot resume: the output is gone ({error.strerror})",
                                url=str(self.path)) from None
        if size < mark:
            raise FrontierError(f"cannot resume: the output is shorter ({size} bytes) than "
                                f"what was written to it ({mark} bytes)", url=str(self.path))
        handle = self._open("r+b")
        handle.truncate(mark)
        handle.seek(mark)

    @abstractmethod
    def encode(self, rows: Rows) -> list[bytes]:
        """The bytes of ``rows`` in this format."""

    def write(self, rows: Rows) -> int:
        return self._append(self.encode(rows))

    def _append(self, chunks: list[bytes]) -> int:
        assert self._handle is not None
        try:
            self._handle.write(b"".join(chunks))
            self._handle.flush()
            os.fsync(self._handle.fileno())
        except OSError as error:
            raise _cannot(self.path, error) from None
        return self._handle.tell()

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None


class JsonlSink(_FileSink):
    """One JSON object per line, as the outbox holds it."""

    format: Format = "jsonl"

    def encode(self, rows: Rows) -> list[bytes]:
        return [text.encode() + b"\n" for _, text in rows]


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


class CsvSink(_FileSink):
    """One row per record under a header of ``columns`` (lists as JSON text)."""

    format: Format = "csv"

    def _rows(self, rows: list[list[str]]) -> bytes:
        buffer = io.StringIO()
        csv.writer(buffer, lineterminator="\n").writerows(rows)
        return buffer.getvalue().encode()

    def header(self) -> bytes:
        return self._rows([self.columns])

    def encode(self, rows: Rows) -> list[bytes]:
        records = [json.loads(text) for _, text in rows]
        return [self._rows([[_cell(r.get(c)) for c in self.columns] for r in records])]


class SqliteSink:
    """A ``products`` table: the record as JSON plus its main fields as columns."""

    format: Format = "sqlite"
    _COLUMNS = ("url", "name", "price", "currency", "sku", "availability")

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.columns: list[str] = []
        self._db: sqlite3.Connection | None = None

    def _connect(self) -> sqlite3.Connection:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(self.path, isolation_level=None)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute(f"CREATE TABLE IF NOT EXISTS products(seq INTEGER PRIMARY KEY, "
                       f"{', '.join(self._COLUMNS)}, record TEXT NOT NULL)")
        except (OSError, sqlite3.Error) as error:
            raise _cannot(self.path, error) from None
        self._db = db
        return db

    def start(self) -> int:
        for suffix in ("", "-wal", "-shm"):
            try:
                Path(str(self.path) + suffix).unlink(missing_ok=True)
            except OSError as error:
                raise _cannot(self.path, error) from None
        self._connect()
        return 0

    def recover(self, mark: int) -> None:
        if not self.path.exists():
            raise FrontierError("cannot resume: the output is gone", url=str(self.path))
        self._connect().execute("DELETE FROM products WHERE seq > ?", (mark,))

    def write(self, rows: Rows) -> int:
        assert self._db is not None
        values = []
        for seq, text in rows:
            record = json.loads(text)
            values.append((seq, *(record.get(c) for c in self._COLUMNS), text))
        marks = ", ".join("?" * (len(self._COLUMNS) + 2))
        try:
            self._db.execute("BEGIN")
            self._db.executemany(f"INSERT OR REPLACE INTO products VALUES ({marks})", values)
            self._db.execute("COMMIT")
        except sqlite3.Error as error:
            raise _cannot(self.path, error) from None
        return rows[-1][0]

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None


def check_writable(path: Path) -> None:
    """Raise a one-line error now, before any state is created, if ``path`` cannot be
    written (a directory, a read-only file, a folder that cannot be made)."""
    try:
        if path.is_dir():
            raise IsADirectoryError(21, "is a directory")
        path.parent.mkdir(parents=True, exist_ok=True)
        if not os.access(path if path.exists() else path.parent, os.W_OK):
            raise PermissionError(13, "permission denied")
    except OSError as error:
        raise _cannot(path, error) from None


def open_sink(path: str | Path, fmt: str | None = None) -> Sink:
    """A sink for ``path``; the format from ``fmt`` or the file's suffix (JSON lines
    unless it ends in .csv, .sqlite or .db)."""
    suffix = Path(path).suffix.lower()
    fmt = fmt or ("csv" if suffix == ".csv" else "sqlite" if suffix in (".sqlite", ".db")
                  else "jsonl")
    if fmt == "jsonl":
        return JsonlSink(path)
    if fmt == "csv":
        return CsvSink(path)
    if fmt == "sqlite":
        return SqliteSink(path)
    raise StructurerError(f"unknown output format {fmt!r} (known: {', '.join(FORMATS)})")


def attach(frontier: Frontier, sink: Sink, fresh: bool) -> None:
    """Start the output (``fresh``) or bring it back to what the state says it holds."""
    if fresh:
        mark = sink.start()
        with frontier.transaction():
            frontier.set(sink_mark=mark)
    else:
        sink.recover(int(frontier.get("sink_mark", 0)))
    sync(frontier, sink)


def sync(frontier: Frontier, sink: Sink) -> int:
    """Copy outbox rows the output lacks into it; how many."""
    rows = frontier.outbox(int(frontier.get("sink_seq", 0)))
    if not rows:
        return 0
    mark = sink.write(rows)
    frontier.sunk(rows[-1][0], mark)
    return len(rows)


def open_state(path: str | Path, *, site: str, rules_hash: str, out: str, fmt: str,
               resume: bool, recrawl: bool, clock: Callable[[], float] = time.time
               ) -> tuple[Frontier, bool]:
    """Open (or create) the state of a crawl of ``site`` writing to ``out``; returns the
    frontier and whether the output starts fresh. Refuses, with one line, a state of
    another site, an unfinished crawl without ``resume``, a resume with another rule
    file or output."""
    path = Path(path)
    where = str(path)
    frontier = Frontier.connect(path)
    state_site = frontier.get("site")
    if state_site is not None and state_site != site:
        frontier.close()
        raise FrontierError(f"this state belongs to a crawl of {state_site}, not {site}; "
                            f"use another --state", url=where)
    status = frontier.get("status")
    if resume and status in ("running", "finished"):
        wrong = [what for what, bad in (
            (f"output {frontier.get('out')} (not {out})", frontier.get("out") != out),
            (f"format {frontier.get('format')}", frontier.get("format") != fmt),
            ("another rule file", frontier.get("rules") != rules_hash)) if bad]
        if wrong:
            frontier.close()
            raise FrontierError(f"cannot resume: the crawl was started with {', '.join(wrong)}",
                                url=where)
        return frontier, frontier.get("sink_mark") is None
    if status == "running" and not resume:
        frontier.close()
        raise FrontierError(f"holds an unfinished crawl of {site}: pass --resume to continue "
                            f"it, or remove the file to start over", url=where)
    if recrawl and status == "finished":
        frontier.begin_recrawl(clock())
        with frontier.transaction():
            frontier.set(out=out, format=fmt, rules=rules_hash)
        return frontier, True
    frontier.close()  # nothing to continue: start over
    for suffix in ("", "-wal", "-shm"):
        Path(where + suffix).unlink(missing_ok=True)
    frontier = Frontier.connect(path)
    with frontier.transaction():
        frontier.set(schema=SCHEMA_VERSION, site=site, run=1, status="running", out=out,
                     format=fmt, rules=rules_hash, lists_done=False, sink_seq=0,
                     sink_mark=None, created=clock())
    return frontier, True
