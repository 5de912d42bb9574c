"""Crawling every static demo shop from rules learned zero-shot: each product exactly once,
its fields and category paths as the ground truth says."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from structurer.config import Settings
from structurer.crawler.engine import crawl_site
from structurer.demo import DemoServer
from structurer.demo.scoring import same
from tests.conftest import Analyzed

STATIC = ["outfitters", "nordlicht", "brightline", "kumo", "huaxia"]
RENDERED = ["maple", "pixel"]     # list pages (maple) or every level (pixel) built by JS
# the analyzer's bars (list name/price/url/image >= 98%, detail fields >= 95%), applied to
# the crawl's merged records, and the category path the crawl itself works out
BARS = {"name": 0.98, "price": 0.98, "url": 0.98, "image": 0.98, "sku": 0.95,
        "availability": 0.95, "description": 0.95, "breadcrumb": 0.95, "category": 0.98,
        "price_text": 0.95, "currency": 0.95, "original_price": 0.95, "brand": 0.95}


def _paths(value: Any) -> list[tuple[str, ...]]:
    return sorted(tuple(p) for p in value or [])


@pytest.mark.parametrize("shop", STATIC + RENDERED)
def test_crawl_matches_ground_truth(shop: str, demo_server: DemoServer, analyzed: Analyzed,
                                    demo_truth: dict[str, dict[str, Any]],
                                    tmp_path: Path) -> None:
    base = demo_server.urls[shop]
    truth = {p["url"]: p for p in demo_truth[shop]["products"]}
    rules, _ = analyzed(base + "/", None if shop in RENDERED else "static")
    if shop in RENDERED:   # render modes were detected, and the crawl renders those levels
        levels = rules.levels
        assert [levels.category.render.mode, levels.list.render.mode,  # type: ignore[union-attr]
                levels.detail.render.mode] == [  # type: ignore[union-attr]
            demo_server.shops[shop].render[k] for k in ("category", "list", "detail")]
    result = crawl_site(rules, tmp_path / "out.jsonl", Settings(concurrency=8))
    records = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    urls = [r["url"] for r in records]
    assert len(urls) == len(set(urls)), "a product was emitted twice"
    assert set(urls) == set(truth), (sorted(set(truth) - set(urls))[:3],
                                     sorted(set(urls) - set(truth))[:3])
    scores = {name: sum(same(name, r.get(name), truth[r["url"]][name]) for r in records)
              / len(truth) for name in BARS}
    low = {name: round(score, 3) for name, score in scores.items() if score < BARS[name]}
    assert not low, low
    paths_ok = sum(_paths(r["categories"]) == _paths(truth[r["url"]]["categories"])
                   for r in records) / len(truth)
    assert paths_ok >= 0.98, paths_ok
    # the statistics agree with the output and the shop
    stats = json.loads(result.stats_path.read_text())
    assert stats["records"] == len(truth) and stats["price_error_rate"] == 0.0
    assert stats["pages"]["detail"] == len(truth)
    # kumo's sub-category pages are reached through their parents' lists only
    assert 0 < stats["list_pages"] <= len(demo_truth[shop]["list_pages"])
    assert stats["fill_rates"]["record"]["name"] == 1.0
    assert result.drift == [] and result.finished
