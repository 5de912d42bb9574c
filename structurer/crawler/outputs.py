"""What an output of a crawl is: the :class:`Sink` protocol every output follows (files:
:mod:`structurer.crawler.sinks`; standard output and a callback:
:mod:`structurer.crawler.streams`), its formats, the bytes records are written as, the
one-line error when it cannot be written, and the lock one process holds on an output
file (:func:`open_locked`, the crawl's and each Scrapy worker's).

Input: rows ``(seq, record JSON)`` from the state database's outbox. Output: the bytes of
a text output (:func:`header`, :func:`encode`).
"""

from __future__ import annotations

import csv
import fcntl
import io
import json
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any, BinaryIO, Literal, Protocol, cast

from structurer.errors import StructurerError

__all__ = ["FORMATS", "Format", "Rows", "Sink", "cannot", "encode", "header"]

Format = Literal["jsonl", "csv", "sqlite"]
FORMATS: tuple[Format, ...] = ("jsonl", "csv", "sqlite")
Rows = Sequence[tuple[int, str]]


class Sink(Protocol):
    columns: list[str]

    @property
    def path(self) -> Path | None:
        """The output file; None: not a file (standard output, a callback)."""
        ...

    @property
    def format(self) -> Format:
        ...

    def lock(self) -> None:
        """Take the output for this crawl (refused if another crawl has it)."""
        ...

    def empty(self) -> bool:
        """Whether the output holds nothing yet."""
        ...

    def start(self) -> int:
        """Empty the output and write its header; the mark."""
        ...

    def append(self) -> int:
        """Keep what the output holds and write after it; the mark."""
        ...

    def recover(self, mark: int) -> None:
        """Cut the output back to ``mark``."""
        ...

    def write(self, rows: Rows) -> int:
        """Append rows durably; the new mark."""
        ...

    def close(self, *, keep: bool = True) -> None:
        """Release the output; ``keep=False`` removes a file this sink created and never
        wrote to (a crawl refused before it began)."""
        ...


def cannot(path: Path | None, error: OSError | sqlite3.Error) -> StructurerError:
    why = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
    return StructurerError(f"cannot write output: {why}", url=str(path or "-"))


def open_locked(path: Path, busy: str) -> BinaryIO:
    """``path`` opened to append (its folder made) and locked for this process alone, held
    for the whole crawl; a :class:`StructurerError` saying ``busy`` where another process
    holds it, so two crawls or workers never write one file."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = cast(BinaryIO, open(path, "a+b"))  # noqa: SIM115  # whole crawl
    except OSError as error:
        raise cannot(path, error) from None
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        raise StructurerError(busy, url=str(path)) from None
    return handle


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def _csv_rows(rows: list[list[str]]) -> bytes:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(rows)
    return buffer.getvalue().encode()


def header(fmt: Format, columns: Sequence[str]) -> bytes:
    """What a text output starts with: the CSV header, nothing for JSON lines."""
    return _csv_rows([list(columns)]) if fmt == "csv" else b""


def encode(fmt: Format, rows: Rows, columns: Sequence[str]) -> bytes:
    """The bytes of ``rows`` as JSON lines, or as CSV rows under ``columns`` (lists as
    JSON text)."""
    if fmt == "csv":
        records = [json.loads(text) for _, text in rows]
        return _csv_rows([[_cell(r.get(c)) for c in columns] for r in records])
    return b"".join(text.encode() + b"\n" for _, text in rows)
