"""What the command line shows while work runs and when it ends: a crawl's progress lines
where stderr is not a terminal, this session's rate after a resume, a crawl summary whose
rows agree and read as text; ``analyze-many``'s line per shop and closing table; ``demo
run``'s steps and table."""

from __future__ import annotations

import io
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console

from structurer.cli import display, main
from structurer.cli.display import (
    BatchDisplay,
    CrawlDisplay,
    DemoDisplay,
    batch_table,
    crawl_table,
)
from structurer.crawler.stats import CrawlProgress, CrawlStats
from structurer.demo.run import DemoResult, ShopRun
from structurer.learn.batch import ShopResult, ShopTask
from tests.conftest import LIST_DETAIL_RULES

RULES = LIST_DETAIL_RULES


def test_progress_lines_when_stderr_is_not_a_terminal(
        tiny_site: Callable[[dict[str, str]], str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A long crawl (a browser level: minutes) written to a log is never silent: a line
    every PROGRESS_EVERY seconds (10 s; 0.3 s here, for a crawl of about 3 s)."""
    pages = {"/": "<ul>" + "".join(f'<li><a href="/p/{n}">P{n}</a></li>' for n in range(20))
             + "</ul>"} | {f"/p/{n}": f"<h1>Product {n}</h1>" for n in range(20)}
    site = tiny_site(pages).split("//")[1]
    rules = tmp_path / "slow.yaml"
    rules.write_text(RULES.format(site=site), encoding="utf-8")
    monkeypatch.setattr(display, "PROGRESS_EVERY", 0.3)
    assert main(["crawl", str(rules), "--out", str(tmp_path / "o.jsonl"), "--delay", "0.15"]) == 0
    out, err = capsys.readouterr()
    progress = [line for line in err.splitlines() if line.startswith("structurer: crawling: ")]
    assert len(progress) >= 3, err
    assert re.fullmatch(r"structurer: crawling: \d+ pages \(\d+/s\)  items \d+  records \d+  "
                        r"errors 0  queue \d+  in flight \d+", progress[0])
    assert f"wrote 20 records to {tmp_path / 'o.jsonl'}" in out
    assert "crawling" not in out      # progress goes to stderr, the summary to stdout


def test_the_rate_shown_is_this_sessions() -> None:
    """After --resume the earlier sessions' pages are in the counts, not in this session's
    time: 100 pages so far, 10 of them fetched in this session's 2 s: 5 pages/s."""
    stream = io.StringIO()
    stats = CrawlStats(pages=Counter({"detail": 100}))
    CrawlDisplay(stream, every=0).update(CrawlProgress(stats, 7, 2, pages=10, elapsed=2.0))
    assert stream.getvalue() == ("structurer: crawling: 100 pages (5/s)  items 0  records 0  "
                                 "errors 0  queue 7  in flight 2\n")


def test_a_display_turned_off_shows_nothing() -> None:
    stream = io.StringIO()
    with CrawlDisplay(stream, enabled=False, every=0) as shown:
        shown.update(CrawlProgress(CrawlStats(), 1, 1, pages=1, elapsed=1.0))
    assert stream.getvalue() == ""


def _text(table: object) -> str:
    console = Console(file=io.StringIO(), width=200)
    console.print(table)
    return console.file.getvalue()  # type: ignore[attr-defined]


def test_summary_rows_agree_and_read_as_text() -> None:
    stats = CrawlStats(pages=Counter({"category": 10, "list": 21, "detail": 300}),
                       list_pages=31, items=300)
    for n in range(300):
        stats.count("record", [{"url": f"u{n}", "price": 1.0 if n >= 102 else None,
                                "price_text": "" if n < 100 else "call" if n < 102 else "$1"}])
    text = _text(crawl_table(stats))
    # category pages that show products count among the pages read for items
    assert "300 on 31 category and list pages" in text and "list 21" in text
    assert "34% (empty 100, non-numeric 2)" in text and "{" not in text
    only_lists = CrawlStats(pages=Counter({"list": 4}), list_pages=4, items=40)
    assert "40 on 4 list pages" in _text(crawl_table(only_lists))


def _results() -> list[ShopResult]:
    ok = ShopResult(ShopTask("http://a.example/", "urls.txt:1"), ok=True,
                    path=Path("rules/a.example.yaml"), seconds=1.5, pages=30,
                    items_per_page=12.0, list_fields={"name": 0.9, "price": 0.5},
                    detail_fields={"name": 1.0}, render={"list": "static", "detail": "browser"})
    failed = ShopResult(ShopTask("http://b.example/", "urls.txt:2"), ok=False,
                        error="http://b.example/: connection refused", seconds=0.25)
    return [ok, failed]


def test_a_line_per_shop_where_stderr_is_not_a_terminal() -> None:
    stream = io.StringIO()
    ok, failed = _results()
    with BatchDisplay(2, stream) as shown:
        shown.start(ok.task)
        shown.step(ok.task, "12 pages  list")
        shown.done(ok)
        shown.done(failed)
    assert stream.getvalue().splitlines() == [
        "[1/2] ok     urls.txt:1: http://a.example/ -> rules/a.example.yaml (1.5 s)",
        "[2/2] failed urls.txt:2: http://b.example/: connection refused (0.2 s)"]
    assert (shown.ok, shown.failed, shown.running) == (1, 1, {})


def test_the_closing_table_of_analyze_many() -> None:
    text = _text(batch_table(_results()))
    assert "analyze-many: 1 of 2 shops ok" in text
    assert "ok rules/a.example.yaml" in text and "12.0" in text
    assert "2: min 0.50 price, mean 0.70" in text and "1: min 1.00 name, mean 1.00" in text
    assert "failed (urls.txt:2): connection refused" in text


def test_demo_run_shows_each_shop_against_its_truth(capsys: pytest.CaptureFixture[str]) -> None:
    shown = DemoDisplay()
    shown.say("shop", "Kumo Gadgets at http://127.0.0.1:8001/ — analyzing …")
    shown.say("failed", "  [not markup] unreachable")
    shown.result(DemoResult([ShopRun("kumo", "s/s/s", 23.6, 2.14, 120, 109, 109, 1.0,
                                     Path("out/kumo.jsonl"))], sample={"name": "Power Bank"}))
    out = capsys.readouterr().out
    assert out.startswith("Kumo Gadgets at http://127.0.0.1:8001/ — analyzing …\n"
                          "  [not markup] unreachable\n")
    [row] = [line for line in out.splitlines() if "kumo" in line and "s/s/s" in line]
    assert [cell.strip() for cell in row.strip("│ ").split("│")] == [
        "kumo", "s/s/s", "23.6 s", "2.1 s", "120", "109", "109", "100.0%", "out/kumo.jsonl"]
    assert "fields right: name, price, image, sku" in out
    assert out.endswith('one record:\n{\n  "name": "Power Bank"\n}\n')


def test_the_analyze_summary_names_ambiguous_fields_with_both_samples() -> None:
    from structurer.rules import rules_from_text
    from tests.conftest import rule_text

    rules = rules_from_text(rule_text("shop.test", """
      detail:
        fields:
          name: {xpath: //h1, kind: text, confidence: 0.99, samples: [Trail Shoe]}
          price:
            xpath: //p[@class='price']
            kind: money
            confidence: 0.41
            ambiguous: true
            samples: [$59.00, $120.50]
            runner_up: {xpath: "//p[@class='was']", confidence: 0.39, samples: [$80.00, $99.00]}
    """))
    out = io.StringIO()
    display.print_rules_summary(rules, out)
    text = out.getvalue()
    assert re.search(r"price .*0\.41 ambiguous", text)
    line = next(ln for ln in text.splitlines() if "detail.price is ambiguous" in ln)
    assert "$59.00 | $120.50" in line and "$80.00 | $99.00" in line
    assert "//p[@class='was'] (0.39)" in line
    assert "name is ambiguous" not in text
