"""``structurer demo run``: the README's one-command demo, analyze + crawl.

Input: shop names (default: every demo shop that needs no lexicon edit). Output: for
each shop served on 127.0.0.1 — learn its rule file from the home page alone (render
modes detected per level), crawl the shop with those rules (category -> list, every
page -> detail), write the records as JSON lines and the rules under ``out`` — a
:class:`DemoResult`: per shop what was found next to the shop's ground truth, and one
record. Progress goes to ``say(kind, text)``; showing it, and the result, is the
command line's (:mod:`structurer.cli.display`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from structurer.api import analyze_site
from structurer.config import Settings
from structurer.crawler.engine import crawl_site
from structurer.demo.scoring import same
from structurer.demo.server import DemoServer
from structurer.demo.shops import SHOP_CLASSES, get_shop
from structurer.errors import StructurerError
from structurer.rules import save_rules

FIELDS = ("name", "price", "image", "sku", "availability", "description", "category")
#: ``say(kind, text)``: kind "shop" (a shop begins), "step" or "failed" (the shop failed).
Say = Callable[[str, str], None]


@dataclass
class ShopRun:
    """One shop of the demo: render modes (c/l/d), seconds, counts, share of fields right."""

    shop: str
    modes: str
    analyze_seconds: float
    crawl_seconds: float
    pages: int
    records: int
    truth: int
    right: float
    output: Path


@dataclass
class DemoResult:
    shops: list[ShopRun] = field(default_factory=list)
    failed: int = 0
    sample: dict[str, Any] | None = None     # one record, to show


def run_demo(names: Sequence[str], *, out: str | Path, say: Say | None = None) -> DemoResult:
    default = [n for n, c in SHOP_CLASSES.items() if not c.extra_words]
    try:
        shops = [get_shop(n) for n in (names or default)]
    except KeyError as error:
        raise StructurerError(str(error.args[0])) from None
    tell = say or (lambda kind, text: None)
    out_dir = Path(out)
    result = DemoResult()
    with DemoServer(shops) as server:
        for shop in shops:
            base = server.urls[shop.name]
            tell("shop", f"{shop.title} at {base}/ — analyzing …")
            try:
                rules, report = analyze_site(base + "/")
                rules_path = save_rules(rules, out_dir / "site_rules" / f"{shop.name}.yaml")
                tell("step", f"  rules in {rules_path}; crawling …")
                records_path = out_dir / f"{shop.name}.jsonl"
                for stale in out_dir.glob(f"{shop.name}.jsonl*"):
                    stale.unlink()
                crawled = crawl_site(rules, records_path, Settings(concurrency=8))
            except StructurerError as error:
                tell("failed", f"  {error}")
                result.failed += 1
                continue
            records = [json.loads(line) for line in
                       records_path.read_text(encoding="utf-8").splitlines()]
            truth = {p["url"]: p for p in shop.ground_truth(base)["products"]}
            checks = [same(f, r.get(f), truth[r["url"]][f]) for r in records
                      if r["url"] in truth for f in FIELDS]
            levels = rules.levels
            modes = "/".join((lvl.render.mode[0] if lvl else "-") for lvl in
                             (levels.category, levels.list, levels.detail))
            result.shops.append(ShopRun(
                shop.name, modes, report.seconds, crawled.stats.elapsed,
                sum(crawled.stats.pages.values()), len(records), len(truth),
                sum(checks) / max(len(checks), 1), records_path))
            result.sample = result.sample or (records[0] if records else None)
    return result
