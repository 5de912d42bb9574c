"""``structurer demo run``: the README's one-command demo, analyze + crawl.

Input: shop names (default: every demo shop that needs no lexicon edit). Output: for
each shop served on 127.0.0.1 — learn its rule file from the home page alone (render
modes detected per level), crawl the shop with those rules (category -> list, every
page -> detail), write the records as JSON lines and the rules under ``out``, and
print what was found next to the shop's ground truth. Returns 0 when every shop was
learned and crawled.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from structurer.api import analyze_site
from structurer.config import Settings
from structurer.crawler.engine import crawl_site
from structurer.demo.scoring import same
from structurer.demo.server import DemoServer
from structurer.demo.shops import SHOP_CLASSES, get_shop
from structurer.errors import StructurerError
from structurer.rules import save_rules

FIELDS = ("name", "price", "image", "sku", "availability", "description", "category")


def run_demo(names: Sequence[str], *, out: str | Path) -> int:
    default = [n for n, c in SHOP_CLASSES.items() if not c.extra_words]
    try:
        shops = [get_shop(n) for n in (names or default)]
    except KeyError as error:
        raise StructurerError(str(error.args[0])) from None
    console = Console(width=150)
    out_dir = Path(out)
    table = Table(title="structurer demo: analyze each shop from its home page, then crawl it")
    for column in ("shop", "render c/l/d", "analyze", "crawl", "pages", "records", "truth",
                   "fields right", "output"):
        table.add_column(column)
    failed = 0
    sample: dict[str, object] | None = None
    with DemoServer(shops) as server:
        for shop in shops:
            base = server.urls[shop.name]
            console.print(f"[bold]{escape(shop.title)}[/] at {base}/ — analyzing …")
            try:
                rules, report = analyze_site(base + "/")
                rules_path = save_rules(rules, out_dir / "site_rules" / f"{shop.name}.yaml")
                console.print(f"  rules in {rules_path}; crawling …")
                records_path = out_dir / f"{shop.name}.jsonl"
                for stale in out_dir.glob(f"{shop.name}.jsonl*"):
                    stale.unlink()
                result = crawl_site(rules, records_path, Settings(concurrency=8), display=False)
            except StructurerError as error:
                console.print(f"  [red]{escape(str(error))}[/]")
                failed += 1
                continue
            records = [json.loads(line) for line in
                       records_path.read_text(encoding="utf-8").splitlines()]
            truth = {p["url"]: p for p in shop.ground_truth(base)["products"]}
            checks = [same(f, r.get(f), truth[r["url"]][f]) for r in records
                      if r["url"] in truth for f in FIELDS]
            levels = rules.levels
            modes = "/".join((lvl.render.mode[0] if lvl else "-") for lvl in
                             (levels.category, levels.list, levels.detail))
            table.add_row(shop.name, modes, f"{report.seconds:.1f} s",
                          f"{result.stats.elapsed:.1f} s", str(sum(result.stats.pages.values())),
                          str(len(records)), str(len(truth)),
                          f"{sum(checks) / max(len(checks), 1):.1%}", str(records_path))
            sample = sample or (records[0] if records else None)
    console.print(table)
    console.print(f"fields right: {', '.join(FIELDS)} of every record against the ground "
                  "truth; render c/l/d: static or browser per level (category, list, detail)")
    if sample:
        console.print("one record:")
        console.print_json(json.dumps(sample, ensure_ascii=False))
    return 1 if failed else 0
