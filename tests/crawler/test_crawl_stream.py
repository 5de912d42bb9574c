"""Records stream out of a crawl: memory does not grow with the number of products (a
crawl emits and writes them a chunk at a time), and ``crawl_records`` yields the same
records a file crawl writes, with no output file."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from structurer.api import analyze_site
from structurer.config import Settings
from structurer.crawler.engine import crawl_records, crawl_site
from structurer.demo import DemoServer
from structurer.rules.model import SiteRules

# A shop of N products on list pages of 100, made up as the crawler asks for them (no
# server, no detail pages: every record is emitted at once when the lists are done, the
# moment that held them all in memory); prints the records and the peak RSS (VmHWM, kB).
BIG_SHOP = textwrap.dedent('''
    import sys
    from structurer.config import Settings
    from structurer.crawler.engine import crawl_site
    from structurer.fetch.base import Page
    from structurer.rules import rules_from_text

    N, OUT, PER = int(sys.argv[1]), sys.argv[2], 100
    RULES = """
    schema_version: 1
    site: shop.test
    start_url: http://shop.test/
    generated_at: '2026-01-01T00:00:00Z'
    template: {name: ecommerce, hash: 'sha256:0123456789abcdef'}
    levels:
      category:
        link_xpath: //nav/a
      list:
        item_xpath: //ul/li
        pagination: {next_xpath: "//a[@rel='next']"}
        fields:
          name: {xpath: ./h2, kind: text}
          url: {xpath: ./h2/a/@href, kind: url}
          price: {xpath: ./b, kind: money}
          image: {xpath: ./img/@src, kind: image}
          description: {xpath: ./p, kind: text}
    """
    LAST = -(-N // PER)


    class BigShop:
        async def fetch(self, url):
            path = url.split("/", 3)[3]
            page = int(path.rsplit("=", 1)[1]) if "=" in path else 1
            items = "".join(
                f'<li><h2><a href="/p/{i}.html">Product number {i}</a></h2><b>${i % 997}.99</b>'
                f'<img src="/img/{i}.jpg"><p>A fine product, number {i}, of good make.</p></li>'
                for i in range((page - 1) * PER, min(page * PER, N))) if path else ""
            more = f'<a rel="next" href="/c/all/?page={page + 1}">next</a>' \\
                if path and page < LAST else ""
            text = (f"<html><body><nav><a href='/c/all/'>All products</a></nav>"
                    f"<ul>{items}</ul>{more}</body></html>")
            return Page(url, url, 200, text.encode(), text, "utf-8")

        async def close(self):
            return None


    result = crawl_site(rules_from_text(RULES, "big.yaml"), OUT,
                        Settings(max_pages_per_pattern=1_000_000), display=False,
                        factory=lambda mode, settings: BigShop())
    hwm = next(line for line in open("/proc/self/status") if line.startswith("VmHWM"))
    print(result.stats.records, hwm.split()[1])
''')


def big_crawl(n: int, out: Path) -> tuple[int, float]:
    """(records, peak RSS in MB) of a crawl of ``n`` made-up products into ``out``."""
    done = subprocess.run([sys.executable, "-c", BIG_SHOP, str(n), str(out)],
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
def ledger(demo_server: DemoServer) -> SiteRules:
    rules, _ = analyze_site(demo_server.urls["ledger"] + "/", settings=Settings(render="static"))
    return rules


def _by_url(records: Any) -> dict[str, dict[str, Any]]:
    return {r["url"]: r for r in records}


def test_crawl_records_yields_what_a_file_crawl_writes(ledger: SiteRules, tmp_path: Path) -> None:
    crawl_site(ledger, tmp_path / "file.jsonl", Settings(), display=False)
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
