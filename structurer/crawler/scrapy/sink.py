"""A worker's output: JSON lines, one record per product this worker claimed.

A worker writes a record right after claiming it (see
:mod:`structurer.crawler.scrapy.state`), so its file holds its claims in their order:
line *n* is claim *n*. A killed worker may have claimed records it never wrote (or
written half a line); when it starts again with the same output (the same worker id),
:meth:`RecordSink.open` cuts a torn last line and writes the records of the claims
past the file's last line (also what a machine crash lost: writes are flushed at once
but synced to disk only at the end). The file is locked while the worker runs, so two
workers never share one output.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, BinaryIO

from structurer.crawler.outputs import cannot, open_locked
from structurer.errors import StructurerError

__all__ = ["RecordSink"]


class RecordSink:
    """Append-only JSON lines output of one worker."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.written = 0
        self._handle: BinaryIO | None = None

    def open(self, claims: Sequence[Any] | None = None,
             rebuild: Callable[[Sequence[Any]], list[dict[str, Any]]] | None = None) -> int:
        """Lock the file and bring it in line with ``claims`` (None: start it empty);
        ``rebuild`` gives the records of the claims it lacks. Returns how many it wrote."""
        handle = open_locked(self.path, "output in use by another worker; give each worker "
                                        "its own --out")
        self._handle = handle
        if not claims:
            handle.truncate(0)
            return 0
        handle.seek(0)
        data = handle.read()
        keep = data[:data.rfind(b"\n") + 1]
        lines = keep.count(b"\n")
        if lines > len(claims):
            self.close()
            raise StructurerError(f"holds {lines} records but this worker claimed "
                                  f"{len(claims)} in this crawl; use another --out",
                                  url=str(self.path))
        handle.truncate(len(keep))
        missing = claims[lines:]
        if missing and rebuild is not None:
            self.write(rebuild(missing))
        return len(missing)

    def write(self, records: Iterable[dict[str, Any]]) -> int:
        lines = [json.dumps(r, ensure_ascii=False).encode() + b"\n" for r in records]
        if not lines:
            return 0
        assert self._handle is not None, "sink not opened"
        try:
            self._handle.seek(0, os.SEEK_END)
            self._handle.write(b"".join(lines))
            self._handle.flush()
        except OSError as error:
            raise cannot(self.path, error) from None
        self.written += len(lines)
        return len(lines)

    def close(self) -> None:
        if self._handle is not None:
            try:
                self._handle.flush()
                os.fsync(self._handle.fileno())
            finally:
                self._handle.close()
                self._handle = None
