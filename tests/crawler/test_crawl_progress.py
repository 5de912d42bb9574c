"""A crawl reports its progress through a callback and prints nothing itself: what to show
(a live line, a log line every 10 s) is the command line's."""

from __future__ import annotations

import time
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path

import pytest

from structurer.config import Settings
from structurer.crawler.engine import crawl_site
from structurer.crawler.session import PROGRESS_EVERY
from structurer.crawler.stats import CrawlProgress, CrawlStats
from structurer.rules import rules_from_text
from tests.conftest import LIST_DETAIL_RULES

RULES = LIST_DETAIL_RULES


@pytest.fixture
def site(tiny_site: Callable[[dict[str, str]], str]) -> str:
    pages = {"/": "<ul>" + "".join(f'<li><a href="/p/{n}">P{n}</a></li>' for n in range(20))
             + "</ul>"} | {f"/p/{n}": f"<h1>Product {n}</h1>" for n in range(20)}
    return tiny_site(pages).split("//")[1]


def test_progress_comes_through_the_callback(site: str, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """About 2 s of crawling (21 pages, 0.1 s apart): a report every quarter second at
    most, each with the figures of that moment."""
    seen: list[tuple[float, int, int, int, int, float]] = []

    def progress(p: CrawlProgress) -> None:
        seen.append((time.monotonic(), p.pages, p.stats.pages_total, p.queued, p.in_flight,
                     p.rate))

    rules = rules_from_text(RULES.format(site=site), "slow.yaml")
    result = crawl_site(rules, tmp_path / "o.jsonl", Settings(delay=0.1), progress=progress)
    assert result.stats.records == 20 and result.stats.pages_total == 21
    assert len(seen) >= 4, seen
    times = [s[0] for s in seen]
    assert all(b - a >= PROGRESS_EVERY for a, b in pairwise(times))
    pages = [s[1] for s in seen]
    assert pages == sorted(pages) and pages[-1] > pages[0] and pages[-1] <= 21
    # a first session: its pages are all the crawl's pages
    assert all(own == total for _, own, total, _, _, _ in seen)
    for _, own, _, queued, flying, rate in seen:
        assert queued >= 0 and 0 <= flying <= Settings().concurrency
        assert (rate > 0) == (own > 0)
    assert capsys.readouterr() == ("", "")       # the crawl itself prints nothing


def test_without_a_callback_nothing_is_shown(site: str, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    rules = rules_from_text(RULES.format(site=site), "quick.yaml")
    assert crawl_site(rules, tmp_path / "p.jsonl", Settings()).stats.records == 20
    assert capsys.readouterr() == ("", "")


def test_the_rate_is_this_sessions() -> None:
    stats = CrawlStats()
    stats.pages["detail"] = 100
    assert CrawlProgress(stats, 0, 0, pages=10, elapsed=2.0).rate == 5.0
    assert CrawlProgress(stats, 0, 0, pages=0, elapsed=0.0).rate == 0.0
