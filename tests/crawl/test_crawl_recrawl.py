"""Incremental recrawl: only due pages are fetched, only new or changed records emitted, and
each page's revisit interval follows how often it changes."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from structurer.config import Settings
from structurer.crawl.crawler import crawl_site
from structurer.crawl.frontier import DAY, Frontier
from structurer.errors import FrontierError
from structurer.rules import rules_from_text
from structurer.rules.model import SiteRules

RULES = """
schema_version: 1
site: {site}
start_url: http://{site}/
generated_at: '2026-01-01T00:00:00Z'
template: {{name: ecommerce, hash: 'sha256:0123456789abcdef'}}
levels:
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
"""


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
    result = crawl_site(rules, out, Settings(), display=False, clock=lambda: day * DAY,
                        state=out.parent / "state", **kw)
    assert result.finished
    return [json.loads(line) for line in out.read_text().splitlines()]


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
    stats = json.loads((tmp_path / "o.stats.json").read_text())
    assert stats["pages"] == {"category": 2, "detail": 3}


def test_recrawl_needs_a_finished_crawl(shop: tuple[dict[str, str], SiteRules],
                                        tmp_path: Path) -> None:
    _, rules = shop
    out = tmp_path / "o.jsonl"
    crawl_site(rules, out, Settings(max_pages=2), display=False, state=tmp_path / "state")
    # a crawl stopped by --max-pages is finished: what it found is emitted
    assert json.loads((tmp_path / "o.stats.json").read_text())["complete"] is False
    frontier = Frontier.connect(tmp_path / "state")
    with frontier.transaction():
        frontier.set(status="running")  # as if killed
    frontier.close()
    with pytest.raises(FrontierError, match="unfinished crawl"):
        crawl_site(rules, out, Settings(), display=False, state=tmp_path / "state",
                   recrawl=True)
