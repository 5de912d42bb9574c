"""The Scrapy engine on a shop whose list pages are built by JavaScript (demo maple), end
to end in Chromium: the rule file says "browser" for the list level, the runtime's
middleware renders those pages with the project's own browser fetcher, and every
product arrives once with the ground truth's fields."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from structurer.demo import DemoServer
from structurer.demo.scoring import same
from structurer.rules import save_rules
from tests.conftest import Analyzed
from tests.crawler.scrapy.conftest import finish, records, worker


def test_browser_level_through_scrapy(demo_server: DemoServer, analyzed: Analyzed,
                                      demo_truth: dict[str, dict[str, Any]],
                                      tmp_path: Path) -> None:
    rules, _ = analyzed(demo_server.urls["maple"] + "/")
    assert rules.levels.list is not None and rules.levels.list.render.mode == "browser"
    path = save_rules(rules, tmp_path / "maple.yaml")
    out = tmp_path / "maple.jsonl"
    finish(worker([path], out, None), out, timeout=300)
    found = records(out)
    truth = {p["url"]: p for p in demo_truth["maple"]["products"]}
    urls = [r["url"] for r in found]
    assert len(urls) == len(set(urls)), "a product was emitted twice"
    assert set(urls) == set(truth)
    for name in ("name", "price", "image", "sku"):
        right = sum(same(name, r.get(name), truth[r["url"]][name]) for r in found)
        assert right / len(truth) >= 0.98, (name, right, len(truth))
    stats = json.loads(out.with_name(f"{out.name}.stats.json").read_text())
    assert stats["pages"]["list"] > 0 and stats["records"] == len(truth)
