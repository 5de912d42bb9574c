"""Incremental recrawl: only due pages are fetched, only new or changed records emitted, and
each page's revisit interval follows how often it changes."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from structurer.config import Settings
from structurer.crawler.engine import crawl_site, crawl_site_async
from structurer.crawler.frontier import DAY, Frontier
from structurer.errors import FrontierError
from structurer.rules import rules_from_text
from structurer.rules.model import SiteRules
from tests.conftest import rule_text

RULES = rule_text("{site}", """
  category:
    link_xpath: //nav//a
  list:
    item_xpath: //ul/li
    detail_link_xpath: ./a
    fields:
      name: {{xpath: ./a, kind: text}}
  detail:
    fields:
      name: {{xpath: //h1, kind: text}}
      price: {{xpath: "//b[@class='price']", kind: money}}
""")


def _shop(products: dict[int, float]) -> dict[str, str]:
    nav = '<nav><a href="/c/all/">All</a></nav>'
    items = "".join(f'<li><a href="/p/{n}">Item {n}</a></li>' for n in products)
    pages = {"/": f"<html><body>{nav}</body></html>",
             "/c/all/": f"<html><body>{nav}<ul>{items}</ul></body></html>"}
    for n, price in products.items():
        pages[f"/p/{n}"] = (f"<html><body><h1>Item {n}</h1>"
                            f"<b class='price'>${price:.2f}</b></body></html>")
    return pages


def _crawl(rules: SiteRules, out: Path, day: float, **kw: Any) -> list[dict[str, Any]]:
    """The records this crawl added to ``out``."""
    before = out.stat().st_size if out.exists() else 0
    result = crawl_site(rules, out, Settings(), clock=lambda: day * DAY,
                        state=out.parent / "state", **kw)
    assert result.finished
    return [json.loads(line) for line in out.read_bytes()[before:].splitlines()]


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.fixture
def shop(tiny_site: Callable[[dict[str, str]], str]) -> tuple[dict[str, str], SiteRules]:
    pages = _shop({1: 10.0, 2: 20.0, 3: 30.0})
    base = tiny_site(pages)
    return pages, rules_from_text(RULES.format(site=base.split("//")[1]), "tiny.yaml")


def test_recrawl_emits_only_new_or_changed(shop: tuple[dict[str, str], SiteRules],
                                           tmp_path: Path) -> None:
    pages, rules = shop
    first = _crawl(rules, tmp_path / "day0.jsonl", 0)
    assert sorted(r["name"] for r in first) == ["Item 1", "Item 2", "Item 3"]
    # nothing is due half a day later: nothing fetched, nothing emitted
    assert _crawl(rules, tmp_path / "early.jsonl", 0.5, recrawl=True) == []
    # the shop changes one price and adds a product
    pages.update(_shop({1: 10.0, 2: 25.0, 3: 30.0, 4: 40.0}))
    second = _crawl(rules, tmp_path / "day2.jsonl", 2, recrawl=True)
    assert {r["name"]: r["price"] for r in second} == {"Item 2": 25.0, "Item 4": 40.0}
    assert second[0]["categories"] == [["All"]]
    assert _crawl(rules, tmp_path / "day4.jsonl", 4, recrawl=True) == []


def test_revisit_interval_doubles_after_five_unchanged_visits(
        shop: tuple[dict[str, str], SiteRules], tmp_path: Path) -> None:
    pages, rules = shop
    out = tmp_path / "o.jsonl"
    day = 0.0
    _crawl(rules, out, day)
    # visits 2..6 unchanged, a day and a bit apart: the fifth doubles the interval
    for _ in range(5):
        day += 1.01
        assert _crawl(rules, out, day, recrawl=True) == []
    frontier = Frontier.connect(tmp_path / "state")
    history = frontier.history(f"http://{rules.site}/p/1")
    frontier.close()
    assert history is not None and history.visits == 6 and history.interval == 2 * DAY
    # a day later the pages are not due; after two days they are, and a change shows
    pages["/p/1"] = pages["/p/1"].replace("$10.00", "$11.00")
    assert _crawl(rules, out, day + 1.01, recrawl=True) == []
    assert [r["price"] for r in _crawl(rules, out, day + 2.02, recrawl=True)] == [11.0]
    stats = json.loads((tmp_path / "o.jsonl.stats.json").read_text())
    assert stats["pages"] == {"category": 2, "detail": 3}
    # every recrawl appended to the first crawl's file: its three records are still first
    names = [r["name"] for r in _lines(out)]
    assert sorted(names[:3]) == ["Item 1", "Item 2", "Item 3"] and names[3:] == ["Item 1"]


def test_recrawl_needs_a_finished_crawl(shop: tuple[dict[str, str], SiteRules],
                                        tmp_path: Path) -> None:
    _, rules = shop
    out = tmp_path / "o.jsonl"
    crawl_site(rules, out, Settings(max_pages=2), state=tmp_path / "state")
    # a crawl stopped by --max-pages is finished: what it found is emitted
    assert json.loads((tmp_path / "o.jsonl.stats.json").read_text())["complete"] is False
    frontier = Frontier.connect(tmp_path / "state")
    with frontier.transaction():
        frontier.set(status="running")  # as if killed
    frontier.close()
    with pytest.raises(FrontierError, match="unfinished crawl"):
        crawl_site(rules, out, Settings(), state=tmp_path / "state",
                   recrawl=True)


def test_recrawl_into_the_first_crawls_file_keeps_every_record(
        shop: tuple[dict[str, str], SiteRules], tmp_path: Path) -> None:
    """The issue: ``--recrawl`` into the output of the first crawl left it empty."""
    pages, rules = shop
    out = tmp_path / "products.jsonl"
    first = _crawl(rules, out, 0)
    assert len(first) == 3 and _lines(out) == first
    pages.update(_shop({1: 10.0, 2: 25.0, 3: 30.0}))
    changed = _crawl(rules, out, 2, recrawl=True)
    assert [(r["name"], r["price"]) for r in changed] == [("Item 2", 25.0)]
    assert _lines(out) == first + changed          # appended, nothing truncated


def test_recrawl_without_an_earlier_crawl_is_refused(shop: tuple[dict[str, str], SiteRules],
                                                     tmp_path: Path) -> None:
    """Not a silent full crawl reported as changes: nothing to compare with is an error."""
    _, rules = shop
    rules_file = tmp_path / "rules.yaml"
    rules_file.write_text("not read: the rules are given")
    with pytest.raises(FrontierError, match="no earlier crawl of this rule file"):
        crawl_site(rules, tmp_path / "changes.jsonl", Settings(), recrawl=True,
                   rules_file=rules_file)
    with pytest.raises(FrontierError, match="no finished crawl"):
        crawl_site(rules, tmp_path / "changes.jsonl", Settings(), recrawl=True,
                   state=tmp_path / "new.state")
    assert not (tmp_path / "changes.jsonl").exists()


def test_an_interrupted_recrawl_into_its_own_file_resumes(
        shop: tuple[dict[str, str], SiteRules], tmp_path: Path) -> None:
    """``--recrawl --out changes.jsonl`` killed half way: ``--resume --out changes.jsonl``
    finds the first crawl's state through the note beside the rule file and finishes."""
    pages, rules = shop
    rules_file = tmp_path / "rules.yaml"
    rules_file.write_text("not read: the rules are given")
    products, changes = tmp_path / "products.jsonl", tmp_path / "changes.jsonl"
    crawl_site(rules, products, Settings(), rules_file=rules_file)
    pages.update(_shop({1: 10.0, 2: 25.0, 3: 30.0}))

    async def interrupted() -> None:
        try:
            await asyncio.wait_for(crawl_site_async(
                rules, changes, Settings(delay=0.4), recrawl=True,
                revisit_all=True, rules_file=rules_file), 1.0)
        except TimeoutError:
            return
        raise AssertionError("the recrawl finished before it was interrupted")

    asyncio.run(interrupted())
    assert not (tmp_path / "changes.jsonl.state").exists()
    result = crawl_site(rules, changes, Settings(), resume=True,
                        rules_file=rules_file)
    assert result.state == tmp_path / "products.jsonl.state" and result.finished
    assert [(r["name"], r["price"]) for r in _lines(changes)] == [("Item 2", 25.0)]
    assert len(_lines(products)) == 3
