"""Records stream out of a crawl: memory does not grow with the number of products (a
crawl emits and writes them a chunk at a time), and ``crawl_records`` yields the same
records a file crawl writes, with no output file."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from structurer.config import Settings
from structurer.crawler.engine import crawl_records, crawl_site
from structurer.demo import DemoServer
from structurer.rules.model import SiteRules
from tests.conftest import Analyzed

BIG_SHOP = Path(__file__).with_name("big_shop.py")


def big_crawl(n: int, out: Path) -> tuple[int, float]:
    """(records, peak RSS in MB) of a crawl of ``n`` made-up products into ``out``."""
    done = subprocess.run([sys.executable, str(BIG_SHOP), str(n), str(out)],
                          capture_output=True, text=True, timeout=280)
    assert done.returncode == 0, done.stderr[-3000:]
    records, kb = map(int, done.stdout.split())
    return records, kb / 1024


def test_memory_does_not_grow_with_the_records(tmp_path: Path) -> None:
    """2,000 and 20,000 products: the larger crawl's peak is within 20 MB of the smaller's
    (35 MB more when all records were built and written at once; the canonical URL
    cache, capped at 65,536 URLs, is most of what remains). The 200,000-product figure
    is ``benchmarks/bench_crawl.py``'s."""
    small, small_mb = big_crawl(2_000, tmp_path / "small.jsonl")
    large, large_mb = big_crawl(20_000, tmp_path / "large.jsonl")
    assert (small, large) == (2_000, 20_000)
    assert len((tmp_path / "large.jsonl").read_bytes().splitlines()) == 20_000
    assert large_mb - small_mb < 20, (small_mb, large_mb)


@pytest.fixture(scope="module")
def ledger(demo_server: DemoServer, analyzed: Analyzed) -> SiteRules:
    rules, _ = analyzed(demo_server.urls["ledger"] + "/", "static")
    return rules


def _by_url(records: Any) -> dict[str, dict[str, Any]]:
    return {r["url"]: r for r in records}


def test_crawl_records_yields_what_a_file_crawl_writes(ledger: SiteRules, tmp_path: Path) -> None:
    crawl_site(ledger, tmp_path / "file.jsonl", Settings())
    written = _by_url(json.loads(line) for line in (tmp_path / "file.jsonl").read_text()
                      .splitlines())
    streamed = list(crawl_records(ledger, Settings()))
    assert len(streamed) == len(written) == 81
    assert _by_url(streamed) == written
    # no file: nothing was written beside the file crawl's own
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "file.jsonl", "file.jsonl.state", "file.jsonl.stats.json"]


def test_stopping_early_ends_the_crawl(ledger: SiteRules) -> None:
    """At 0.2 s between requests the whole crawl (about 100 pages) takes 20 s; the first
    record comes once the list pages are read, and closing the iterator then ends it."""
    started = time.monotonic()
    records = crawl_records(ledger, Settings(delay=0.2))
    first = next(records)
    records.close()                   # what `break` in a for loop does
    assert first["url"].startswith("http://127.0.0.1:")
    assert time.monotonic() - started < 12
