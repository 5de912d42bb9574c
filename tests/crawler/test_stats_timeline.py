"""The statistics' timeline (what the crawl report charts): spaced samples whose newest
equals the figures, bounded on long crawls, and continued across a resumed crawl."""

from __future__ import annotations

import asyncio
import json
from itertools import pairwise
from pathlib import Path

from structurer.config import Settings
from structurer.crawler.engine import crawl_site, crawl_site_async
from structurer.crawler.frontier import Frontier
from structurer.crawler.stats import MAX_SAMPLES, SAMPLE_EVERY, CrawlStats, Sample
from structurer.demo import DemoServer
from tests.conftest import Analyzed


def _commit_every(stats: CrawlStats, seconds: float, until: float) -> None:
    """Commits as the crawler makes them: counters grow, then a sample."""
    steps = round(until / seconds)
    for step in range(1, steps + 1):
        stats.elapsed = step * seconds
        stats.pages["detail"] += 3
        stats.items += 7
        stats.records += 2
        stats.sample()


def test_samples_are_spaced_and_the_newest_is_the_figures() -> None:
    stats = CrawlStats()
    stats.sample()
    _commit_every(stats, 0.25, 10.0)
    line = stats.timeline
    assert line[0] == Sample(0.0, 0, 0, 0)
    assert line[-1] == Sample(10.0, 120, 280, 80)
    # the start, then the last commit of every half second: 0.25, 0.75, ..., 9.75, 10.0
    assert [s.elapsed for s in line] == [0.0, *(0.25 + SAMPLE_EVERY * i for i in range(20)),
                                         10.0]
    assert [s.pages for s in line] == [round(s.elapsed / 0.25) * 3 for s in line]


def test_a_long_crawl_stays_small_and_evenly_sampled() -> None:
    stats = CrawlStats()
    stats.sample()
    _commit_every(stats, 0.25, 2 * 3600.0)
    line = stats.timeline
    assert MAX_SAMPLES // 2 <= len(line) <= MAX_SAMPLES + 2
    assert line[0].elapsed == 0.0 and line[-1] == Sample(7200.0, 86400, 201600, 57600)
    gaps = {b.elapsed - a.elapsed for a, b in pairwise(line[1:-1])}
    assert len(gaps) == 1 and 7200 / MAX_SAMPLES <= gaps.pop() <= 2 * 7200 / MAX_SAMPLES
    assert all(b.pages >= a.pages for a, b in pairwise(line))
    # and it goes into the crawl state and back unchanged
    again = CrawlStats.from_dict(json.loads(json.dumps(stats.as_dict())))
    assert again.timeline == line
    assert json.loads(json.dumps(stats.public()))["timeline"][-1] == {
        "elapsed": 7200.0, "pages": 86400, "items": 201600, "records": 57600}


def test_a_resumed_crawl_continues_the_timeline(demo_server: DemoServer, analyzed: Analyzed,
                                                tmp_path: Path) -> None:
    rules, _ = analyzed(demo_server.urls["ledger"] + "/", "static")
    out, settings = tmp_path / "out.jsonl", Settings(delay=0.02)

    async def interrupted() -> None:
        try:
            await asyncio.wait_for(crawl_site_async(rules, out, settings), 1.3)
        except TimeoutError:
            return
        raise AssertionError("the crawl finished before it was interrupted")

    asyncio.run(interrupted())
    state = Frontier.connect(Path(str(out) + ".state"))
    try:
        assert state.get("status") == "running"
        before = CrawlStats.from_dict(state.get("stats"))
    finally:
        state.close()
    assert len(before.timeline) >= 2 and before.timeline[-1].elapsed == round(before.elapsed, 3)

    result = crawl_site(rules, out, settings, resume=True)
    line = result.stats.timeline
    stats = json.loads(result.stats_path.read_text())
    assert stats["records"] == 81
    assert stats["timeline"][-1] == {"elapsed": stats["elapsed"], "pages": stats["pages_total"],
                                     "items": stats["items"], "records": stats["records"]}
    # the first session's samples are kept (its newest one moves on), time goes on from them
    assert line[:len(before.timeline) - 1] == before.timeline[:-1]
    assert all(b.elapsed > a.elapsed and b.pages >= a.pages
               for a, b in pairwise(line))
    assert line[-1].elapsed > before.elapsed + 0.3


def test_workers_shares_merge_into_the_whole_crawls_figures() -> None:
    """Two workers' statistics, summed: fill rates and items per page of the whole."""
    a, b = CrawlStats(fields={"detail": ["sku"]}), CrawlStats(fields={"detail": ["sku"]})
    a.count("detail", [{"sku": "A1"}, {"sku": None}])
    b.count("detail", [{"sku": "B1"}, {"sku": "B2"}])
    a.list_pages, a.items, b.list_pages, b.items = 1, 10, 3, 2
    a.failures["timeout"], b.failures["timeout"] = 1, 2
    whole = CrawlStats.merged([CrawlStats.from_dict(s.as_dict()) for s in (a, b)],
                              {"detail": ["sku"]})
    assert whole.fill_rates("detail") == {"sku": 0.75}
    assert whole.items_per_list_page == 3.0 and whole.failures == {"timeout": 3}
