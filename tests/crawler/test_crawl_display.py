"""What a crawl shows while it runs and when it ends: progress lines where stderr is not a
terminal, this session's rate after a resume, a summary whose rows agree and read as
text."""

from __future__ import annotations

import io
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console

from structurer.config import Settings
from structurer.crawler import stats as stats_module
from structurer.crawler.engine import crawl_site
from structurer.crawler.stats import CrawlStats, LiveDisplay, summary_table
from structurer.rules import rules_from_text

RULES = """
schema_version: 1
site: {site}
start_url: http://{site}/
generated_at: '2026-01-01T00:00:00Z'
template: {{name: ecommerce, hash: 'sha256:0123456789abcdef'}}
levels:
  list:
    item_xpath: //ul/li
    detail_link_xpath: ./a
    fields:
      name: {{xpath: ./a, kind: text}}
  detail:
    fields:
      name: {{xpath: //h1, kind: text}}
"""


def test_progress_lines_when_stderr_is_not_a_terminal(
        tiny_site: Callable[[dict[str, str]], str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A long crawl (a browser level: minutes) written to a log is never silent: a line
    every PROGRESS_EVERY seconds (10 s; 0.3 s here, for a crawl of about 2 s)."""
    pages = {"/": "<ul>" + "".join(f'<li><a href="/p/{n}">P{n}</a></li>' for n in range(20))
             + "</ul>"} | {f"/p/{n}": f"<h1>Product {n}</h1>" for n in range(20)}
    site = tiny_site(pages).split("//")[1]
    monkeypatch.setattr(stats_module, "PROGRESS_EVERY", 0.3)
    result = crawl_site(rules_from_text(RULES.format(site=site), "slow.yaml"),
                        tmp_path / "o.jsonl", Settings(delay=0.1))
    lines = capsys.readouterr().err.splitlines()
    progress = [line for line in lines if line.startswith("structurer: crawling: ")]
    assert len(progress) >= 3, lines
    assert re.fullmatch(r"structurer: crawling: \d+ pages \(\d+/s\)  items \d+  records \d+  "
                        r"errors 0  queue \d+  in flight \d+", progress[0])
    assert result.stats.records == 20
    # display=False: nothing at all
    crawl_site(rules_from_text(RULES.format(site=site), "slow.yaml"), tmp_path / "p.jsonl",
               Settings(delay=0.05), display=False)
    assert capsys.readouterr().err == ""


def test_the_rate_shown_is_this_sessions() -> None:
    """After --resume the earlier sessions' pages are in the counts, not in this session's
    time: 100 pages so far, 10 of them fetched in this session's 2 s: 5 pages/s."""
    stream = io.StringIO()
    stats = CrawlStats(pages=Counter({"detail": 100}))
    display = LiveDisplay(stream, every=0)
    display.update(stats, 7, 2, pages=10, elapsed=2.0)
    assert stream.getvalue() == ("structurer: crawling: 100 pages (5/s)  items 0  records 0  "
                                 "errors 0  queue 7  in flight 2\n")


def _summary(stats: CrawlStats) -> str:
    console = Console(file=io.StringIO(), width=200)
    console.print(summary_table(stats))
    return console.file.getvalue()  # type: ignore[attr-defined]


def test_summary_rows_agree_and_read_as_text() -> None:
    stats = CrawlStats(pages=Counter({"category": 10, "list": 21, "detail": 300}),
                       list_pages=31, items=300)
    for n in range(300):
        stats.count("record", [{"url": f"u{n}", "price": 1.0 if n >= 102 else None,
                                "price_text": "" if n < 100 else "call" if n < 102 else "$1"}])
    text = _summary(stats)
    # category pages that show products count among the pages read for items
    assert "300 on 31 category and list pages" in text and "list 21" in text
    assert "34% (empty 100, non-numeric 2)" in text and "{" not in text
    only_lists = CrawlStats(pages=Counter({"list": 4}), list_pages=4, items=40)
    assert "40 on 4 list pages" in _summary(only_lists)
