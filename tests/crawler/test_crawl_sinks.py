"""Sinks: JSON lines, CSV and SQLite outputs stay consistent with the state whatever
instant a crawl died at (before writing, after writing, mid-line); appending keeps what
a file held; a file sink is locked; standard output takes JSON lines or CSV."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from pathlib import Path

import pytest

from structurer.crawler.frontier import DETAIL, Frontier, Link, Outcome
from structurer.crawler.products import emit_records
from structurer.crawler.sinks import Sink, SinkMode, attach, open_sink, sync
from structurer.crawler.state import open_state
from structurer.crawler.streams import StreamSink
from structurer.errors import StructurerError

COLUMNS = ["url", "name", "price", "category", "categories"]


def _state(tmp_path: Path, out: Path, fmt: str, name: str = "state") -> Frontier:
    frontier, _ = open_state(tmp_path / name, site="h:1", rules_hash="r", out=str(out),
                             fmt=fmt, resume=False, recrawl=False)
    return frontier


def _sink(out: Path, frontier: Frontier, mode: SinkMode) -> Sink:
    sink = open_sink(out)
    sink.columns = COLUMNS
    sink.lock()
    attach(frontier, sink, mode)
    return sink


def _emit(frontier: Frontier, n: int) -> None:
    """Queue, fetch and emit product ``n`` in one transaction, as a crawl does."""
    url = f"http://h:1/p/{n}"
    with frontier.transaction():
        frontier.seed([Link(url, url, DETAIL, 1, ())])
    (task,) = frontier.lease(1)
    with frontier.transaction():
        frontier.apply([Outcome(task, detail={"name": f"P{n}", "price": n + 0.5,
                                              "category": ["A", "B"]})], 1, 0.0)
        assert len(emit_records(frontier, [url], 1, COLUMNS)) == 1


def _rows(out: Path, fmt: str) -> list[dict[str, str]]:
    if fmt == "jsonl":
        return [json.loads(line) for line in out.read_text().splitlines()]
    with out.open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert all(list(row) == COLUMNS for row in rows)
    return rows


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_file_sink_recovers_every_crash_window(tmp_path: Path, fmt: str) -> None:
    out = tmp_path / f"out.{fmt}"
    frontier = _state(tmp_path, out, fmt)
    sink = _sink(out, frontier, "new")
    _emit(frontier, 1)
    sync(frontier, sink)
    _emit(frontier, 2)                 # died before writing record 2
    sink.close()
    sink = _sink(out, frontier, "resume")
    mark = frontier.get("sink_mark")
    _emit(frontier, 3)
    sink.write(frontier.outbox(frontier.get("sink_seq")))  # died after writing record 3 ...
    sink.close()
    with out.open("ab") as handle:                          # ... and in the middle of a line
        handle.write(b'{"url": "http://h:1/p/4", "na')
    assert frontier.get("sink_mark") == mark
    _sink(out, frontier, "resume").close()
    rows = _rows(out, fmt)
    if fmt == "csv":
        assert json.loads(rows[0]["categories"]) == [["A", "B"]]
    assert [r["name"] for r in rows] == ["P1", "P2", "P3"]
    assert frontier.outbox(0) == []  # everything written left the outbox
    frontier.close()


def test_sqlite_sink(tmp_path: Path) -> None:
    out = tmp_path / "out.sqlite"
    frontier = _state(tmp_path, out, "sqlite")
    sink = _sink(out, frontier, "new")
    _emit(frontier, 1)
    _emit(frontier, 2)
    sink.write(frontier.outbox(0))     # written, but the state does not know yet
    sink.close()
    _sink(out, frontier, "resume").close()
    db = sqlite3.connect(out)
    rows = db.execute("SELECT seq, url, name, price, record FROM products ORDER BY seq").fetchall()
    assert [(r[1], r[2], r[3]) for r in rows] == [("http://h:1/p/1", "P1", 1.5),
                                                  ("http://h:1/p/2", "P2", 2.5)]
    assert json.loads(rows[0][4])["category"] == ["A", "B"]
    db.close()
    frontier.close()


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "sqlite"])
def test_append_keeps_what_the_output_held(tmp_path: Path, fmt: str) -> None:
    """What a recrawl does to its output: the first crawl's rows stay, in every format
    (a CSV keeps one header; SQLite row ids go on after the existing ones)."""
    out = tmp_path / f"out.{fmt}"
    first = _state(tmp_path, out, fmt, "first")
    sink = _sink(out, first, "new")
    _emit(first, 1)
    _emit(first, 2)
    sync(first, sink)
    sink.close()
    first.close()
    second = _state(tmp_path, out, fmt, "second")   # a state whose outbox starts at 1 again
    sink = _sink(out, second, "append")
    _emit(second, 3)
    sync(second, sink)
    sink.close()
    second.close()
    if fmt == "sqlite":
        db = sqlite3.connect(out)
        names = [n for (n,) in db.execute("SELECT name FROM products ORDER BY seq")]
        db.close()
    else:
        names = [r["name"] for r in _rows(out, fmt)]
    assert names == ["P1", "P2", "P3"]


def test_an_output_is_locked_while_a_crawl_writes_it(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    first = open_sink(out)
    first.lock()
    second = open_sink(out)
    with pytest.raises(StructurerError, match="in use by another crawl"):
        second.lock()
    first.close(keep=False)         # it created the file and never wrote: removed
    assert not out.exists()
    second.lock()
    second.close()
    assert out.exists()


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_standard_output(tmp_path: Path, fmt: str) -> None:
    stream = io.BytesIO()
    frontier = _state(tmp_path, tmp_path / "o", fmt)
    sink = StreamSink(stream, fmt)  # type: ignore[arg-type]
    sink.columns = COLUMNS
    attach(frontier, sink, "new")
    _emit(frontier, 1)
    _emit(frontier, 2)
    assert sync(frontier, sink) == 2
    text = stream.getvalue().decode()
    if fmt == "jsonl":
        assert [json.loads(line)["name"] for line in text.splitlines()] == ["P1", "P2"]
    else:
        assert [r["name"] for r in csv.DictReader(io.StringIO(text))] == ["P1", "P2"]
    frontier.close()
    with pytest.raises(StructurerError, match="not SQLite"):
        open_sink("-", "sqlite")
