"""Sinks that are no file: standard output (``--out -``) and a callback (the records
iterator). The protocol of :mod:`structurer.crawler.outputs`; neither can be cut back, so
neither is resumed from a mark (a callback's reader has what was delivered; the state's
outbox keeps the rest)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO

from structurer.crawler.outputs import Format, Rows, cannot, encode, header
from structurer.errors import FrontierError, StructurerError

__all__ = ["CallbackSink", "StreamSink"]


class StreamSink:
    """JSON lines or CSV on a stream (``--out -``: stdout), flushed per batch; it cannot
    be cut back, so a crawl to a stream cannot be resumed."""

    path: Path | None = None

    def __init__(self, stream: BinaryIO, fmt: Format) -> None:
        if fmt == "sqlite":
            raise StructurerError("--out -: standard output takes JSON lines or CSV, "
                                  "not SQLite")
        self.stream = stream
        self.format: Format = fmt
        self.columns: list[str] = []
        self.written = 0

    def lock(self) -> None:
        return None

    def empty(self) -> bool:
        return True

    def start(self) -> int:
        return self.write_bytes(header(self.format, self.columns))

    def append(self) -> int:
        return self.start()

    def recover(self, mark: int) -> None:
        raise FrontierError("cannot resume a crawl written to standard output")

    def write(self, rows: Rows) -> int:
        return self.write_bytes(encode(self.format, rows, self.columns))

    def write_bytes(self, data: bytes) -> int:
        try:
            self.stream.write(data)
            self.stream.flush()
        except BrokenPipeError:
            raise            # the reader is gone (``| head``): the command line ends quietly
        except OSError as error:
            raise cannot(None, error) from None
        self.written += len(data)
        return self.written

    def close(self, *, keep: bool = True) -> None:
        return None


class CallbackSink:
    """Hands every batch of records to ``deliver`` (the records iterator): no file."""

    path: Path | None = None
    format: Format = "jsonl"

    def __init__(self, deliver: Callable[[list[dict[str, Any]]], None]) -> None:
        self.deliver = deliver
        self.columns: list[str] = []

    def lock(self) -> None:
        return None

    def empty(self) -> bool:
        return True

    def start(self) -> int:
        return 0

    def append(self) -> int:
        return 0

    def recover(self, mark: int) -> None:
        return None   # what the last session delivered was consumed; the outbox holds the rest

    def write(self, rows: Rows) -> int:
        self.deliver([json.loads(text) for _, text in rows])
        return rows[-1][0]

    def close(self, *, keep: bool = True) -> None:
        return None
