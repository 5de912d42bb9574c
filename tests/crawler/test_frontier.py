"""The crawl state database: queues, dedup, outcomes, revisit schedule, refusals, memory."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from structurer.config import Settings
from structurer.crawler.frontier import CATEGORY, DETAIL, LIST, Frontier, Item, Link, Outcome
from structurer.crawler.products import emit_records, unemitted
from structurer.crawler.schedule import (
    DAY,
    DEFAULT_REVISIT,
    MAX_INTERVAL,
    MIN_INTERVAL,
    History,
    Revisit,
    reschedule,
)
from structurer.crawler.state import open_state
from structurer.errors import FrontierError

SITE = "127.0.0.1:9"


def _open(path: Path, **kw: object) -> Frontier:
    args = {"site": SITE, "rules_hash": "r1", "out": "/tmp/out.jsonl", "fmt": "jsonl",
            "resume": False, "recrawl": False}
    args.update(kw)
    frontier, _ = open_state(path, **args)  # type: ignore[arg-type]
    return frontier


def _link(url: str, level: int = DETAIL, path: tuple[str, ...] = ()) -> Link:
    return Link(url, url, level, 1, path)


def test_wal_mode_and_one_crawl_at_a_time(tmp_path: Path) -> None:
    frontier = _open(tmp_path / "s")
    assert frontier.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    with pytest.raises(FrontierError, match="in use by another crawl"):
        Frontier.connect(tmp_path / "s")
    frontier.close()
    Frontier.connect(tmp_path / "s").close()


def test_dedup_priority_and_outcomes(tmp_path: Path) -> None:
    f = _open(tmp_path / "s")
    with f.transaction():
        assert f.seed([_link("http://h/p/1"), _link("http://h/p/1"), _link("http://h/p/2"),
                       _link("http://h/c/a", CATEGORY, ("A",))]) == 3
    assert f.size == 3
    tasks = f.lease(10)
    # category and list pages first, then detail pages in discovery order
    assert [t.url for t in tasks] == ["http://h/c/a", "http://h/p/1", "http://h/p/2"]
    assert tasks[0].path == ("A",) and f.lease(10) == []  # each task is leased once
    cat, p1, p2 = tasks
    with f.transaction():
        settled = f.apply([
            Outcome(cat, links=[_link("http://h/c/a?page=2", LIST, ("A",)), _link("http://h/p/1")],
                    items=[Item("http://h/p/1", "http://h/p/1", {"name": "One"}, True),
                           Item("http://h/p/3", "http://h/p/3", {"name": "Three"}, False)],
                    fingerprint=(1 << 64) - 1, content="c"),
            Outcome(p1, detail={"name": "One!", "sku": "S1"}, fingerprint=5, content="d"),
            Outcome(p2, error="timeout", retry=True),
        ], run=1, now=100.0)
    # p1's detail is settled; p3 has no detail page to wait for
    assert sorted(settled) == ["http://h/p/1", "http://h/p/3"]
    assert f.lists_pending()  # the second list page is queued
    again = f.lease(10)
    assert [(t.url, t.tries) for t in again] == [("http://h/c/a?page=2", 0), ("http://h/p/2", 1)]
    # a done page is never queued again, a queued one only once
    with f.transaction():
        assert f.seed([_link("http://h/p/1"), _link("http://h/c/a", CATEGORY)]) == 0
        records = emit_records(f, unemitted(f, 1, "", 100), 1, ["url", "name", "sku"])
    got = {r["url"]: r for r in records}
    assert got["http://h/p/1"]["name"] == "One!" and got["http://h/p/1"]["sku"] == "S1"
    assert got["http://h/p/1"]["categories"] == [["A"]]
    assert got["http://h/p/3"]["name"] == "Three"
    assert "http://h/p/2" not in got  # never listed: not a product yet
    # the 64-bit fingerprint survives the signed SQLite integer
    assert f.db.execute("SELECT fingerprint FROM done WHERE key='http://h/c/a'").fetchone()[0] == -1
    f.close()


def test_outbox_rows_leave_once_sunk(tmp_path: Path) -> None:
    f = _open(tmp_path / "s")
    with f.transaction():
        f.seed([_link("http://h/p/1")])
    (task,) = f.lease(1)
    with f.transaction():
        f.apply([Outcome(task, detail={"name": "x"})], 1, 0.0)
        assert len(emit_records(f, ["http://h/p/1"], 1, ["url", "name"])) == 1
        assert emit_records(f, ["http://h/p/1"], 1, ["url", "name"]) == []  # once per run
    rows = f.outbox(0)
    assert [seq for seq, _ in rows] == [1] and json.loads(rows[0][1])["name"] == "x"
    f.sunk(1, 42)
    assert f.outbox(0) == [] and f.get("sink_mark") == 42 and f.get("sink_seq") == 1
    f.close()


def test_reschedule_doubles_after_five_unchanged_and_halves_after_five_changed() -> None:
    h = reschedule(None, False, 0.0)
    assert h.interval == DAY and h.next_visit == DAY
    for i in range(4):
        h = reschedule(h, False, 0.0)
        assert h.interval == DAY and h.same == i + 1
    h = reschedule(h, False, 0.0)
    assert h.interval == 2 * DAY and h.same == 0
    h = reschedule(h, True, 10.0)      # a change breaks the streak
    assert h.same == 0 and h.changed == 1 and h.next_visit == 10.0 + 2 * DAY
    for _ in range(4):
        h = reschedule(h, True, 0.0)
    assert h.interval == DAY and h.changed == 0
    assert reschedule(History(9, 4, 0, MAX_INTERVAL, 0), False, 0).interval == MAX_INTERVAL
    assert reschedule(History(9, 0, 4, MIN_INTERVAL, 0), True, 0).interval == MIN_INTERVAL


def test_refusals_are_one_line(tmp_path: Path) -> None:
    f = _open(tmp_path / "s")
    f.close()
    with pytest.raises(FrontierError, match=r"crawl of 127\.0\.0\.1:9, not other:1"):
        _open(tmp_path / "s", site="other:1")
    with pytest.raises(FrontierError, match=r"unfinished crawl.*--resume"):
        _open(tmp_path / "s")
    with pytest.raises(FrontierError, match=r"cannot resume.*output /tmp/out\.jsonl"):
        _open(tmp_path / "s", resume=True, out="/tmp/else.jsonl")
    with pytest.raises(FrontierError, match="another rule file"):
        _open(tmp_path / "s", resume=True, rules_hash="r2")
    _open(tmp_path / "s", resume=True).close()
    (tmp_path / "junk").write_text("not a database at all, really" * 40)
    with pytest.raises(FrontierError, match="not a crawl state database"):
        _open(tmp_path / "junk")


def test_memory_with_100k_pending_urls(tmp_path: Path) -> None:
    """Peak RSS of a process that queues 100,000 URLs and leases from them: < 300 MB."""
    script = textwrap.dedent(f"""
        from structurer.crawler.engine import crawl_site  # everything a crawl imports
        from structurer.crawler.frontier import DETAIL, Link
        from structurer.crawler.state import open_state
        f, _ = open_state({str(tmp_path / 'big')!r}, site="h:1", rules_hash="r", out="o",
                          fmt="jsonl", resume=False, recrawl=False)
        for start in range(0, 100_000, 5_000):
            with f.transaction():
                f.seed([Link(f"http://h:1/p/{{i}}.html", f"http://h:1/p/{{i}}.html", DETAIL, 1,
                             ("Category", "Sub")) for i in range(start, start + 5_000)])
        leased = sum(len(f.lease(16)) for _ in range(1000))
        # VmHWM, not ru_maxrss: Linux carries the parent's peak over into a forked child
        hwm = next(line for line in open("/proc/self/status") if line.startswith("VmHWM"))
        print(f.size, leased, hwm.split()[1])
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True, timeout=120)
    size, leased, rss_kb = map(int, done.stdout.split())
    assert size == 100_000 and leased == 16_000
    assert rss_kb < 300 * 1024, f"peak RSS {rss_kb / 1024:.0f} MB"


def test_the_revisit_schedule_is_the_crawls_settings() -> None:
    policy = Revisit.of(Settings(revisit_interval=3600, revisit_streak=2, revisit_max=7200,
                                 near_duplicate_bits=8))
    assert policy.near_bits == 8 and DEFAULT_REVISIT.near_bits == 3
    h = reschedule(None, False, 0.0, policy)
    assert h.interval == 3600 and h.next_visit == 3600
    h = reschedule(reschedule(h, False, 0.0, policy), False, 0.0, policy)
    assert h.interval == 7200 and h.same == 0      # two unchanged visits double it
    h = reschedule(reschedule(h, False, 0.0, policy), False, 0.0, policy)
    assert h.interval == 7200                      # ... up to revisit_max


@pytest.mark.parametrize(("bits", "changed"), [(3, 1), (8, 0)])
def test_near_duplicates_are_the_crawls_setting(tmp_path: Path, bits: int, changed: int) -> None:
    """A page whose simhash moved by 4 bits changed by the default (3 bits), not with
    ``near_duplicate_bits`` 8."""
    f = _open(tmp_path / "s")
    f.revisit = Revisit.of(Settings(near_duplicate_bits=bits))
    with f.transaction():
        f.seed([_link("http://h/p/1")])
    [task] = f.lease(1)
    for fingerprint in (0, 0b1111):
        with f.transaction():
            f.apply([Outcome(task, detail={"name": "x"}, fingerprint=fingerprint,
                             content="same")], run=1, now=0.0)
    history = f.history("http://h/p/1")
    assert history is not None and (history.visits, history.changed) == (2, changed)
    f.close()
