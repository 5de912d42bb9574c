"""Completeness at crawl time: a crawl that reached no list page, listed no item, read no
detail page or followed far less pagination than analysis saw warns, by level, whatever
its size (``structurer crawl --strict`` exits 1), and a crawl without records never calls
itself complete — on both engines. The shop is the issue's: product grids a script fills
from a JSON endpoint, crawled with rules that say every level is static."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from structurer.cli import main
from structurer.crawler.drift import check_drift
from structurer.crawler.stats import CrawlStats
from structurer.rules import rules_from_text
from tests.conftest import rule_text
from tests.learn.test_render_content import CATS, PRODUCTS, json_grid_shop

ROOT = Path(__file__).resolve().parents[2]

LEVELS = """
  category:
    link_xpath: //nav[@class='menu']//a
  list:
    item_xpath: //div[@class='card']
    detail_link_xpath: ./a
    fields:
      name: {{xpath: ./a, kind: text}}
      url: {{xpath: ./a, kind: url}}
    pagination: {{next_xpath: "//a[@rel='next']"}}
    baseline: {{pages: 4, items_per_page: 5, pages_per_category: 2.0}}
  detail:
    fields:
      name: {{xpath: //h1, kind: text}}
"""


def _rules(site: str) -> str:
    return rule_text(site, LEVELS.format())


def _stats(**values: int) -> CrawlStats:
    stats = CrawlStats()
    detail = values.pop("detail", 0)
    for key, value in values.items():
        setattr(stats, key, value)
    stats.counted = Counter({"detail": detail})
    stats.filled = {"detail": Counter({"name": detail})}
    stats.pages = Counter({"category": 4, "detail": detail})
    return stats


@pytest.mark.parametrize(("stats", "said"), [
    (_stats(), ["list: no list page reached"]),
    (_stats(list_pages=1, categories_listed=1), ["list: no items on any of the 1 list pages"]),
    (_stats(list_pages=4, categories_listed=4, items=20), ["detail: no detail page read",
                                                          "list: 1.00 list pages per category"]),
    (_stats(list_pages=9, categories_listed=8, items=45, detail=45),
     ["list: 1.12 list pages per category over 8 categories, baseline at least 2.00"]),
    (_stats(list_pages=7, categories_listed=4, items=35, detail=35), []),
], ids=["no-list-page", "no-items", "no-detail-no-pagination", "little-pagination", "fine"])
def test_levels_not_reached_are_said_whatever_the_crawl_size(stats: CrawlStats,
                                                             said: list[str]) -> None:
    rules = rules_from_text(_rules("shop.test"))
    drift = [str(d) for d in check_drift(rules, stats)]
    assert len(drift) == len(said) and all(
        any(d.startswith(s) for d in drift) for s in said), drift
    # a recrawl reads only the pages due: what it did not reach says nothing
    assert not [d for d in check_drift(rules, stats, complete=False)
                if "no " in str(d) or "per category" in str(d)]


def static_grid_shop() -> dict[str, str]:
    """The same shop with its grids in the server's HTML, two pages a category, the pager a
    plain "next" link (no rel) the rules do not know."""
    pages = json_grid_shop()
    for c in CATS:
        cards = [f"<div class='card'><a href='/p/{s}.html'>{n}</a></div>"
                 for s, n, _ in PRODUCTS[c]]
        page = pages[f"/c/{c}/"]
        pages[f"/c/{c}/"] = page.replace("<div id='grid' class='grid'></div>", (
            f"<div id='grid' class='grid'>{''.join(cards[:3])}</div>"
            f"<a class='next' href='/c/{c}/2/'>next</a>"))
        pages[f"/c/{c}/2/"] = page.replace("<div id='grid' class='grid'></div>", (
            f"<div id='grid' class='grid'>{''.join(cards[3:])}</div>"))
    return pages


def test_a_crawl_of_script_built_lists_read_static_falls_short(
        tiny_site: Callable[[dict[str, str]], str], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    base = tiny_site(json_grid_shop())
    rules = tmp_path / "shop.yaml"
    rules.write_text(_rules(base.removeprefix("http://")))
    out = tmp_path / "out.jsonl"
    assert main(["crawl", str(rules), "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert "drift: list: no list page reached" in err and "fell short: no records" in err
    stats = json.loads((tmp_path / "out.jsonl.stats.json").read_text())
    assert stats["records"] == 0 and stats["complete"] is False
    assert stats["drift"][0].startswith("list: no list page reached")


def test_pagination_not_followed_warns_and_strict_exits_1(
        tiny_site: Callable[[dict[str, str]], str], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    base = tiny_site(static_grid_shop())
    rules = tmp_path / "shop.yaml"
    rules.write_text(_rules(base.removeprefix("http://")))
    out = tmp_path / "out.jsonl"
    assert main(["crawl", str(rules), "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert ("drift: list: 1.00 list pages per category over 3 categories, baseline at "
            "least 2.00") in err
    assert main(["crawl", str(rules), "--out", str(out), "--overwrite", "--strict"]) == 1
    stats = json.loads((tmp_path / "out.jsonl.stats.json").read_text())
    assert stats["records"] == 9 and stats["pages_per_category"] == 1.0


def test_a_lone_scrapy_worker_without_records_is_not_complete(
        tiny_site: Callable[[dict[str, str]], str], tmp_path: Path) -> None:
    base = tiny_site(json_grid_shop())
    rules = tmp_path / "shop.yaml"
    rules.write_text(_rules(base.removeprefix("http://")))
    out = tmp_path / "w.jsonl"
    done = subprocess.run([sys.executable, "-m", "structurer", "crawl", str(rules),
                           "--engine", "scrapy", "--out", str(out)],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 1, done.stderr
    assert "drift: list: no list page reached" in done.stderr
    assert "fell short: no records" in done.stderr
    stats = json.loads((tmp_path / "w.jsonl.stats.json").read_text())
    assert stats["complete"] is False and stats["records"] == 0


def test_a_scrapy_worker_warns_of_pagination_not_followed_and_strict_exits_1(
        tiny_site: Callable[[dict[str, str]], str], tmp_path: Path) -> None:
    """The lone Scrapy worker checks its crawl against the analyzed baseline as
    ``structurer crawl`` does: the same warning by level, exit 0, and 1 with --strict."""
    base = tiny_site(static_grid_shop())
    rules = tmp_path / "shop.yaml"
    rules.write_text(_rules(base.removeprefix("http://")))
    out = tmp_path / "w.jsonl"
    said = "drift: list: 1.00 list pages per category over 3 categories, baseline at least 2.00"
    for strict, code in ((False, 0), (True, 1)):
        done = subprocess.run([sys.executable, "-m", "structurer", "crawl", str(rules),
                               "--engine", "scrapy", "--out", str(out), "--overwrite",
                               *(["--strict"] if strict else [])],
                              capture_output=True, text=True, cwd=ROOT, timeout=120)
        assert done.returncode == code, done.stderr
        assert said in done.stderr
        stats = json.loads((tmp_path / "w.jsonl.stats.json").read_text())
        assert stats["records"] == 9 and stats["complete"] is True
        assert len(stats["drift"]) == 1 and stats["drift"][0].startswith(
            said.removeprefix("drift: "))
