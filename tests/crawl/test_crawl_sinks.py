"""Sinks: JSON lines, CSV and SQLite outputs stay consistent with the state whatever
instant a crawl died at (before writing, after writing, mid-line)."""

from __future__ import annotations

import csv
import json
import sqlite3
from pathlib import Path

import pytest

from structurer.crawl.frontier import DETAIL, Frontier, Link, Outcome
from structurer.crawl.products import emit_records
from structurer.crawl.sinks import attach, open_sink, open_state, sync

COLUMNS = ["url", "name", "price", "category", "categories"]


def _state(tmp_path: Path, out: Path, fmt: str) -> Frontier:
    frontier, _ = open_state(tmp_path / "state", site="h:1", rules_hash="r", out=str(out),
                             fmt=fmt, resume=False, recrawl=False)
    return frontier


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


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_file_sink_recovers_every_crash_window(tmp_path: Path, fmt: str) -> None:
    out = tmp_path / f"out.{fmt}"
    frontier = _state(tmp_path, out, fmt)
    sink = open_sink(out)
    sink.columns = COLUMNS
    attach(frontier, sink, fresh=True)
    _emit(frontier, 1)
    sync(frontier, sink)
    _emit(frontier, 2)                 # died before writing record 2
    sink.close()
    sink = open_sink(out)
    sink.columns = COLUMNS
    attach(frontier, sink, fresh=False)
    mark = frontier.get("sink_mark")
    _emit(frontier, 3)
    sink.write(frontier.outbox(frontier.get("sink_seq")))  # died after writing record 3 ...
    with out.open("ab") as handle:                          # ... and in the middle of a line
        handle.write(b'{"url": "http://h:1/p/4", "na')
    assert frontier.get("sink_mark") == mark
    sink.close()
    sink = open_sink(out)
    sink.columns = COLUMNS
    attach(frontier, sink, fresh=False)
    sink.close()
    if fmt == "jsonl":
        rows = [json.loads(line) for line in out.read_text().splitlines()]
    else:
        with out.open(newline="") as handle:
            rows = list(csv.DictReader(handle))
        assert list(rows[0]) == COLUMNS
        assert json.loads(rows[0]["categories"]) == [["A", "B"]]
    assert [r["name"] for r in rows] == ["P1", "P2", "P3"]
    assert frontier.outbox(0) == []  # everything written left the outbox
    frontier.close()


def test_sqlite_sink(tmp_path: Path) -> None:
    out = tmp_path / "out.sqlite"
    frontier = _state(tmp_path, out, "sqlite")
    sink = open_sink(out)
    attach(frontier, sink, fresh=True)
    _emit(frontier, 1)
    _emit(frontier, 2)
    sink.write(frontier.outbox(0))     # written, but the state does not know yet
    sink.close()
    sink = open_sink(out)
    attach(frontier, sink, fresh=False)
    sink.close()
    db = sqlite3.connect(out)
    rows = db.execute("SELECT seq, url, name, price, record FROM products ORDER BY seq").fetchall()
    assert [(r[1], r[2], r[3]) for r in rows] == [("http://h:1/p/1", "P1", 1.5),
                                                  ("http://h:1/p/2", "P2", 2.5)]
    assert json.loads(rows[0][4])["category"] == ["A", "B"]
    db.close()
    frontier.close()
