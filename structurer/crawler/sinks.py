"""Output sinks: JSON lines, CSV or SQLite files (standard output and a callback are
:mod:`structurer.crawler.streams`'s, the protocol all follow
:mod:`structurer.crawler.outputs`'s); each record written once.

Input: rows ``(seq, record JSON)`` from the state database's outbox (see
:mod:`structurer.crawler.frontier`). Output: the records in the sink and a *mark* after
each write — the file's length (JSON lines, CSV), the last row id stored (SQLite) —
that the state records.

How a sink begins (:func:`attach`), chosen by :func:`structurer.crawler.state.open_state`:
``new`` empties it (a new crawl, or ``--overwrite``), ``append`` adds after what it holds
(``--recrawl``: a CSV keeps its one header, a SQLite table its rows), ``resume`` cuts it
back to the mark the state stored. A file sink is locked (``flock``) from
:meth:`Sink.lock` to :meth:`Sink.close`: a second crawl writing the same file is refused.

The protocol that makes a crash harmless (:func:`attach`, :func:`sync`):

1. records enter the outbox in the same transaction that marks their pages done;
2. ``sync`` appends outbox rows after ``sink_seq`` to the file, flushes and fsyncs it,
   then in one transaction stores the new ``sink_seq`` and mark and deletes those rows
   (a chunk at a time: memory stays flat whatever the crawl's size);
3. on ``--resume``, ``attach`` cuts the file back to the stored mark (dropping a torn
   line or rows written after the last stored mark) and ``sync`` writes the outbox
   rows again. A record is in the file once whatever instant the process died at.
"""

from __future__ import annotations

import errno
import json
import os
import sqlite3
import sys
import tempfile
from pathlib import Path
from typing import BinaryIO, Literal

from structurer.crawler.frontier import Frontier
from structurer.crawler.outputs import (
    FORMATS,
    Format,
    Rows,
    Sink,
    cannot,
    encode,
    header,
    open_locked,
)
from structurer.crawler.streams import StreamSink
from structurer.errors import FrontierError, StructurerError

__all__ = ["CsvSink", "JsonlSink", "Sink", "SinkMode", "SqliteSink", "attach", "check_writable",
           "open_sink", "sync"]

SinkMode = Literal["new", "append", "resume"]
SYNC_ROWS = 1000          # outbox rows copied to the output per step


class _Locked:
    """An output file held open and flocked for the whole crawl."""

    path: Path

    def _take(self) -> BinaryIO:
        try:
            self._created = not self.path.exists()
        except OSError as error:
            raise cannot(self.path, error) from None
        return open_locked(self.path, "in use by another crawl (the output is locked)")

    def _release(self, handle: BinaryIO | None, keep: bool) -> None:
        if handle is None:
            return
        if not keep and self._created and os.fstat(handle.fileno()).st_size == 0:
            self.path.unlink(missing_ok=True)
        handle.close()


class _FileSink(_Locked):
    """Append-only text output whose mark is its length in bytes."""

    format: Format

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.columns: list[str] = []
        self._handle: BinaryIO | None = None
        self._created = False

    def lock(self) -> None:
        self._handle = self._take()

    def _size(self) -> int:
        assert self._handle is not None, "lock() the sink first"
        return os.fstat(self._handle.fileno()).st_size

    def empty(self) -> bool:
        """No records: nothing, or (CSV) a header line alone."""
        size = self._size()
        if size == 0 or self.format != "csv" or size > 1 << 16:
            return size == 0
        assert self._handle is not None
        self._handle.seek(0)
        return self._handle.read().count(b"\n") <= 1

    def start(self) -> int:
        assert self._handle is not None
        try:
            self._handle.truncate(0)
        except OSError as error:
            raise cannot(self.path, error) from None
        return self._append(header(self.format, self.columns))

    def append(self) -> int:
        size = self._size()
        if size == 0:
            return self._append(header(self.format, self.columns))
        assert self._handle is not None
        self._handle.seek(0)
        first = self._handle.readline()
        if self.format == "csv" and first != header(self.format, self.columns):
            raise StructurerError("holds CSV with other columns than this crawl writes; "
                                  "use another --out", url=str(self.path))
        self._handle.seek(size - 1)
        if self.format == "jsonl" and self._handle.read(1) != b"\n":
            raise StructurerError("does not end with a whole line; use another --out",
                                  url=str(self.path))
        return size

    def recover(self, mark: int) -> None:
        size = self._size()
        if size < mark:
            raise FrontierError(f"cannot resume: the output is shorter ({size} bytes) than "
                                f"what was written to it ({mark} bytes)", url=str(self.path))
        assert self._handle is not None
        self._handle.truncate(mark)

    def write(self, rows: Rows) -> int:
        return self._append(encode(self.format, rows, self.columns))

    def _append(self, data: bytes) -> int:
        assert self._handle is not None
        try:
            if data:
                self._handle.write(data)
                self._handle.flush()
                os.fsync(self._handle.fileno())
            return os.fstat(self._handle.fileno()).st_size
        except OSError as error:
            raise cannot(self.path, error) from None

    def close(self, *, keep: bool = True) -> None:
        self._release(self._handle, keep)
        self._handle = None


class JsonlSink(_FileSink):
    """One JSON object per line, as the outbox holds it."""

    format: Format = "jsonl"


class CsvSink(_FileSink):
    """One row per record under a header of ``columns`` (lists as JSON text)."""

    format: Format = "csv"


class SqliteSink(_Locked):
    """A ``products`` table: the record as JSON plus its main fields as columns; the
    mark is the last row id (``seq``) written."""

    format: Format = "sqlite"
    _COLUMNS = ("url", "name", "price", "currency", "sku", "availability")

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.columns: list[str] = []
        self._db: sqlite3.Connection | None = None
        self._lock: BinaryIO | None = None
        self._created = False

    def lock(self) -> None:
        self._lock = self._take()

    def empty(self) -> bool:
        """No records: no file content, or a database whose only table, ``products``,
        has no rows (anything else, a file that is no database included, is not empty)."""
        assert self._lock is not None, "lock() the sink first"
        if os.fstat(self._lock.fileno()).st_size == 0:
            return True
        try:
            db = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True)
            try:
                tables = {name for (name,) in db.execute(
                    "SELECT name FROM sqlite_master WHERE type = 'table'")}
                return tables <= {"products"} and (not tables or not db.execute(
                    "SELECT EXISTS (SELECT 1 FROM products)").fetchone()[0])
            finally:
                db.close()
        except sqlite3.Error:
            return False

    def _connect(self) -> sqlite3.Connection:
        try:
            db = sqlite3.connect(self.path, isolation_level=None)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute(f"CREATE TABLE IF NOT EXISTS products(seq INTEGER PRIMARY KEY, "
                       f"{', '.join(self._COLUMNS)}, record TEXT NOT NULL)")
        except (OSError, sqlite3.Error) as error:
            raise cannot(self.path, error) from None
        self._db = db
        return db

    def start(self) -> int:
        assert self._lock is not None
        try:  # emptied in place: the file stays the one this sink has locked
            for suffix in ("-wal", "-shm"):
                Path(f"{self.path}{suffix}").unlink(missing_ok=True)
            self._lock.truncate(0)
        except OSError as error:
            raise cannot(self.path, error) from None
        self._connect()
        return 0

    def _last(self) -> int:
        assert self._db is not None
        return int(self._db.execute("SELECT coalesce(max(seq), 0) FROM products").fetchone()[0])

    def append(self) -> int:
        self._connect()
        try:
            return self._last()
        except sqlite3.Error as error:
            raise cannot(self.path, error) from None

    def recover(self, mark: int) -> None:
        self._connect().execute("DELETE FROM products WHERE seq > ?", (mark,))

    def write(self, rows: Rows) -> int:
        assert self._db is not None
        values = []
        for _, text in rows:
            record = json.loads(text)
            values.append((*(record.get(c) for c in self._COLUMNS), text))
        marks = ", ".join("?" * (len(self._COLUMNS) + 1))
        try:
            self._db.execute("BEGIN")
            self._db.executemany(f"INSERT INTO products({', '.join(self._COLUMNS)}, record) "
                                 f"VALUES ({marks})", values)
            last = self._last()
            self._db.execute("COMMIT")
        except sqlite3.Error as error:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise cannot(self.path, error) from None
        return last

    def close(self, *, keep: bool = True) -> None:
        if self._db is not None:   # before the lock's file handle: closing that one
            self._db.close()        # would drop SQLite's own locks on the file
            self._db = None
        self._release(self._lock, keep)
        self._lock = None


def check_writable(path: Path, what: str = "output", *, folder: bool = False) -> None:
    """Raise a one-line error now, before any work, unless ``path`` can be written: a
    directory, a read-only file, a folder that cannot be made or take the new file are
    refused. ``folder``: the folder must take new files even when ``path`` exists (the
    statistics are replaced atomically, the state database keeps a journal beside it)."""
    try:
        if path.is_dir():
            raise IsADirectoryError(errno.EISDIR, "is a directory")
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists() and not os.access(path, os.W_OK):
            raise PermissionError(errno.EACCES, "permission denied")
        if folder or not path.exists():
            fd, probe = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
            os.close(fd)
            os.unlink(probe)
    except OSError as error:
        why = error.strerror or str(error)
        raise StructurerError(f"cannot write {what}: {why}" + (
            f" (in {path.parent})" if not isinstance(error, IsADirectoryError) else ""),
            url=str(path)) from None


def open_sink(path: str | Path, fmt: str | None = None) -> Sink:
    """A sink for ``path`` (``-``: standard output); the format from ``fmt`` or the
    file's suffix (JSON lines unless it ends in .csv, .sqlite or .db)."""
    suffix = Path(path).suffix.lower()
    fmt = fmt or ("csv" if suffix == ".csv" else "sqlite" if suffix in (".sqlite", ".db")
                  else "jsonl")
    if fmt not in FORMATS:
        raise StructurerError(f"unknown output format {fmt!r} (known: {', '.join(FORMATS)})")
    if str(path) == "-":
        return StreamSink(sys.stdout.buffer, fmt)
    if fmt == "jsonl":
        return JsonlSink(path)
    if fmt == "csv":
        return CsvSink(path)
    return SqliteSink(path)


def attach(frontier: Frontier, sink: Sink, mode: SinkMode) -> None:
    """Begin the output as ``mode`` says (see the module docstring), then copy into it
    what the outbox holds."""
    if mode == "resume":
        sink.recover(int(frontier.get("sink_mark", 0)))
    else:
        mark = sink.start() if mode == "new" else sink.append()
        with frontier.transaction():
            frontier.set(sink_mark=mark)
    sync(frontier, sink)


def sync(frontier: Frontier, sink: Sink) -> int:
    """Copy outbox rows the output lacks into it, a chunk at a time; how many."""
    copied = 0
    while rows := frontier.outbox(int(frontier.get("sink_seq", 0)), SYNC_ROWS):
        mark = sink.write(rows)
        frontier.sunk(rows[-1][0], mark)
        copied += len(rows)
    return copied
