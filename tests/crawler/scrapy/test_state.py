"""The pieces that make a distributed crawl exact, one at a time: shared state in a real
Redis (each record claimed once, only when its site's lists are done and its detail is
settled) and a worker's output brought back in line with its claims after a kill."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import redis

from structurer.config import Settings
from structurer.crawler.frontier import CATEGORY, Guards, Item, Link, Task
from structurer.crawler.products import build_product
from structurer.crawler.scrapy.sink import RecordSink
from structurer.crawler.scrapy.state import MemoryState, RedisState
from structurer.crawler.scrapy.worker import Site
from structurer.crawler.traverse import PageReader
from structurer.errors import StructurerError
from structurer.replay.extract import compile_rules
from structurer.rules import rules_from_text
from tests.conftest import rule_text

SITE = "shop.test:80"
HOME, SHOES, TRAIL = "http://shop.test/", "http://shop.test/c/shoes/", "http://shop.test/c/shoes/trail/"
BOOT = "http://shop.test/p/boot"
TAG = "http://shop.test/c/shoes/#0"           # a list item without a detail link


def _pair(redis_url: str | None) -> tuple[Any, Any]:
    """Two workers' views of one crawl (Redis), or one process's state twice (memory)."""
    if redis_url is None:
        state = MemoryState()
        return state, state
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    return RedisState(client, "structurer:t", "a"), RedisState(client, "structurer:t", "b")


@pytest.mark.parametrize("backend", ["memory", "redis"])
def test_records_wait_for_the_lists_and_are_claimed_once(backend: str,
                                                         request: pytest.FixtureRequest) -> None:
    a, b = _pair(request.getfixturevalue("redis_url") if backend == "redis" else None)
    assert a.seed(SITE, HOME) and not a.lists_done(SITE)
    if backend == "redis":      # the seeding worker holds a lock; its own restart does not wait
        assert not b.seed(SITE, HOME) and a.seed(SITE, HOME)
    a.mark_seeded(SITE)
    assert not a.seed(SITE, HOME) and not b.seed(SITE, HOME)    # one start page per crawl
    links = [Link(SHOES, SHOES, CATEGORY, 1, ("Shoes",)),
             Link(TRAIL, TRAIL, CATEGORY, 1, ("Shoes", "Trail"))]
    prefixes = [("shop.test/c/shoes/", ("Shoes",))]
    assert a.store_page(SITE, HOME, (), links, False, None, prefixes) == links
    assert b.store_page(SITE, HOME, (), links, False, None, ()) == []   # queued once
    assert b.store_page(SITE, HOME, (), links[:1], True, None, ()) == links[:1]  # unless
    assert b.prefixes(SITE) == prefixes                # a page is read again after a kill
    assert a.finish_page(SITE, HOME) == []
    boot = {"name": "Boot", "price": 10.0}
    b.store_page(SITE, SHOES, ("Shoes",), [], False,
                 [Item(BOOT, BOOT, boot, True), Item(TAG, SHOES, {"name": "Tag"}, False)], ())
    assert b.finish_page(SITE, SHOES) == [] and b.is_waiting(SITE, BOOT)
    # the detail page comes before the last list page: its record waits for that page
    assert a.finish_detail(SITE, BOOT, BOOT, {"sku": "B-1"}, False) == []
    assert not a.is_waiting(SITE, BOOT)
    a.store_page(SITE, TRAIL, ("Shoes", "Trail"), [], False, [Item(BOOT, BOOT, boot, True)], ())
    rows = a.finish_page(SITE, TRAIL)
    assert a.lists_done(SITE) and b.lists_done(SITE)
    assert b.claim_records(SITE) == [] and a.claim_records(SITE) == []
    by_key = {row[0]: row for row in rows}
    assert sorted(by_key) == sorted([BOOT, TAG])
    assert a.emitted() == b.emitted() == 2      # one count, whichever state and worker
    boot_row, tag_row = by_key[BOOT], by_key[TAG]
    record = build_product(boot_row[1], boot_row[2], boot_row[3])
    assert record["categories"] == [["Shoes"], ["Shoes", "Trail"]]
    assert record["category"] == ["Shoes", "Trail"] and record["sku"] == "B-1"
    assert tag_row[:2] == (TAG, SHOES) and tag_row[3] is None
    if backend == "redis":
        assert a.claimed() == [(SITE, TAG), (SITE, BOOT)] and b.claimed() == []
        assert a.rows(SITE, [BOOT]) == [boot_row]      # what a restarted worker rebuilds


@pytest.mark.parametrize("backend", ["memory", "redis"])
def test_an_idle_sweep_emits_what_no_page_could(backend: str,
                                                request: pytest.FixtureRequest) -> None:
    """The start page was read before its worker marked the site seeded: no page claimed
    its products; an idle worker's sweep does, once."""
    a, b = _pair(request.getfixturevalue("redis_url") if backend == "redis" else None)
    assert a.seed(SITE, HOME)
    a.store_page(SITE, HOME, (), [], False, [Item(TAG, HOME, {"name": "Tag"}, False)], ())
    assert a.finish_page(SITE, HOME) == [] and a.sweep([SITE]) == {SITE: []}
    a.mark_seeded(SITE)
    assert [row[0] for row in b.sweep([SITE])[SITE]] == [TAG]
    assert a.sweep([SITE]) == {SITE: []}


@pytest.mark.parametrize("backend", ["memory", "redis"])
def test_a_page_read_again_does_not_count_its_links_twice(backend: str,
                                                           request: pytest.FixtureRequest) -> None:
    """``max_pages_per_pattern`` counts category and list pages, once each: a page read
    again (taken back from a killed worker, and asked again as its render came back
    blank: the retry carries the ``recovered`` mark) links to pages already counted.
    Before, each reading counted them again, and the third refused a claimed page."""
    state, _ = _pair(request.getfixturevalue("redis_url") if backend == "redis" else None)
    rules = rules_from_text(rule_text("shop.test", """
      category:
        link_xpath: //nav//a
      list:
        item_xpath: //ul/li
        detail_link_xpath: ./a
    """), "r.yaml")
    site = Site(rules, Settings(max_pages_per_pattern=3), state)
    home = "http://shop.test/"
    state.seed(site.name, home)
    state.mark_seeded(site.name)
    html = '<nav><a href="/c/shoes/">Shoes</a><a href="/c/boots/">Boots</a></nav>'
    for recovered in (False, True, True):
        outcome = site.read(Task(0, home, home, CATEGORY, 0, ()), html, home, len(html),
                            recovered)
        assert outcome.skipped == []
        state.store_page(site.name, home, (), outcome.links, recovered, None, site.registered)
    assert [link.url for link in outcome.links] == ["http://shop.test/c/shoes/",
                                                   "http://shop.test/c/boots/"]
    # one more page of the pattern fits, the next does not
    assert site.guards.count_pattern("http://shop.test/c/socks/")
    assert not site.guards.count_pattern("http://shop.test/c/coats/")


def test_a_finished_page_clears_its_in_flight_tokens(redis_url: str) -> None:
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    state = RedisState(client, "structurer:t", "a")
    client.hset("structurer:t:inflight:a", mapping={"t1": "request 1", "t2": "request 2"})
    client.hset("structurer:t:inflight:b", mapping={"t3": "request 3"})
    state.seed(SITE, HOME)
    state.mark_seeded(SITE)
    state.finish_page(SITE, HOME, [("structurer:t:inflight:a", "t1"),
                                   ("structurer:t:inflight:b", "t3")])
    assert client.hgetall("structurer:t:inflight:a") == {"t2": "request 2"}
    assert not client.exists("structurer:t:inflight:b")


def test_a_detail_page_never_fetched_is_emitted_only_when_forced() -> None:
    state = MemoryState()
    state.seed(SITE, HOME)
    state.mark_seeded(SITE)
    state.store_page(SITE, HOME, (), [], False, [Item(BOOT, BOOT, {"name": "Boot"}, True)], ())
    assert state.finish_page(SITE, HOME) == []
    assert [row[0] for row in state.claim_records(SITE, force=True)] == [BOOT]


def _line(url: str) -> str:
    return json.dumps({"url": url}) + "\n"


def test_output_is_brought_back_to_the_claims(tmp_path: Path) -> None:
    """A killed worker: its last line torn, one more record claimed but not written."""
    out = tmp_path / "w.jsonl"
    out.write_text(_line("u1") + _line("u2") + '{"url": "u3", "na')
    claims = [("s", "u1"), ("s", "u2"), ("s", "u3"), ("s", "u4")]
    asked: list[Any] = []

    def rebuild(missing: Any) -> list[dict[str, Any]]:
        asked.extend(missing)
        return [{"url": key} for _, key in missing]

    sink = RecordSink(out)
    assert sink.open(claims, rebuild) == 2
    assert asked == claims[2:]
    with pytest.raises(StructurerError, match="in use by another worker"):
        RecordSink(out).open(claims, rebuild)          # one worker per output
    sink.write([{"url": "u5"}])
    sink.close()
    assert out.read_text() == "".join(_line(u) for u in ("u1", "u2", "u3", "u4", "u5"))
    # a new crawl (no claims yet) starts the file empty; a file with more records than
    # claims belongs to something else
    with pytest.raises(StructurerError, match="claimed 2 in this crawl"):
        RecordSink(out).open(claims[:2], rebuild)
    fresh = RecordSink(out)
    assert fresh.open([], rebuild) == 0
    fresh.close()
    assert out.read_text() == ""


_NAV_RULES = """
      category:
        link_xpath: //nav//a
      list:
        item_xpath: //ul/li
        detail_link_xpath: ./a
      detail:
        fields:
          name: {xpath: //h1, kind: text}
"""


@pytest.mark.parametrize("backend", ["memory", "redis"])
def test_a_page_two_workers_find_at_once_counts_once_against_its_pattern(
        backend: str, request: pytest.FixtureRequest) -> None:
    """Two workers read two pages that link the same new category page, both before
    either stores its links (a page is counted against ``max_pages_per_pattern`` when
    read, claimed when stored): it counts once, and the budget still has room for the
    page after it. Before, the count and the claim were two steps: both workers counted
    it, and a page the budget had room for was refused."""
    a, b = _pair(request.getfixturevalue("redis_url") if backend == "redis" else None)
    rules = rules_from_text(rule_text("shop.test", _NAV_RULES), "r.yaml")
    workers = [Site(rules, Settings(max_pages_per_pattern=2), state) for state in (a, b)]
    a.seed(workers[0].name, HOME)
    a.mark_seeded(workers[0].name)
    html = '<nav><a href="/c/shoes/">Shoes</a></nav>'
    read = [site.read(Task(0, url, url, CATEGORY, depth, ()), html, url, len(html), False)
            for site, url, depth in zip(workers, (HOME, "http://shop.test/c/bags/"), (0, 1),
                                        strict=True)]
    assert [[link.url for link in o.links] for o in read] == [[SHOES], [SHOES]]
    claimed = [link.url for site, o in zip(workers, read, strict=True)
               for link in site.state.store_page(site.name, o.task.key, (), o.links, False,
                                                 None, site.registered)]
    assert claimed == [SHOES]                   # one worker claims it
    assert workers[1].guards.count_pattern("http://shop.test/c/socks/")   # room for one more
    assert not workers[0].guards.count_pattern("http://shop.test/c/coats/")


@pytest.mark.parametrize("runtime", ["lightweight", "scrapy-memory", "scrapy-redis"])
def test_a_refused_link_counts_once_however_many_pages_link_it(
        runtime: str, request: pytest.FixtureRequest) -> None:
    """Two category pages (read by two workers, with Redis) link the same off-host
    category and the same off-host product: two links refused, each counted once, in
    both runtimes. Before, the Scrapy runtime counted both per page (4), structurer crawl
    the product per page (3)."""
    rules = rules_from_text(rule_text("shop.test", _NAV_RULES), "r.yaml")
    html = ('<nav><a href="http://elsewhere.test/c/b/">B</a><a href="/c/a/">A</a></nav>'
            '<ul><li><a href="http://elsewhere.test/p/1">One</a></li>'
            '<li><a href="/p/2">Two</a></li></ul>')
    readers: list[Any]
    if runtime == "lightweight":
        seen: set[str] = set()

        def first_seen(key: str) -> bool:
            new = key not in seen
            seen.add(key)
            return new

        reader = PageReader(compile_rules(rules), Guards(Settings(), {"shop.test"}, HOME, 5),
                            first_seen)
        readers = [reader, reader]
    else:
        a, b = _pair(request.getfixturevalue("redis_url") if runtime == "scrapy-redis" else None)
        readers = [Site(rules, Settings(), state) for state in (a, b)]
        a.seed(readers[0].name, HOME)
    skipped = []
    for reader, url in zip(readers, (SHOES, "http://shop.test/c/boots/"), strict=True):
        task = Task(0, url, url, CATEGORY, 1, ())
        o = reader.read(task, html, url, len(html), *([False] if runtime != "lightweight"
                                                       else []))
        assert [i.url for i in o.items or []] == ["http://elsewhere.test/p/1",
                                                  "http://shop.test/p/2"]
        skipped += o.skipped
    assert skipped == ["offsite", "offsite"]
