"""``structurer demo run``: the README's one-command demo.

Input: shop names (default: every static demo shop). Output: for each shop served
on 127.0.0.1 — analyze it from its home page, write the rule file, replay the rules
over every list and detail page, print what was found next to the ground truth,
and write the records as JSON lines under ``out``. Returns 0 when every shop was
learned.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from structurer.api import analyze_site
from structurer.demo.scoring import page_tree, score_rules
from structurer.demo.server import DemoServer
from structurer.demo.shops import SHOP_CLASSES, get_shop
from structurer.errors import StructurerError
from structurer.rules import save_rules
from structurer.runtime.extract import compile_rules, extract_detail, extract_list


def _records(shop_name: str, base: str, rules: object) -> list[dict[str, object]]:
    """Every product: list fields merged with detail fields (detail wins)."""
    shop = get_shop(shop_name)
    truth = shop.ground_truth(base)
    compiled = compile_rules(rules)  # type: ignore[arg-type]
    merged: dict[str, dict[str, object]] = {}
    for url in truth["list_pages"]:
        for item in extract_list(compiled, page_tree(shop, url, base), url).items:
            merged.setdefault(str(item["url"]), {}).update(
                {k: v for k, v in item.items() if v is not None})
    if compiled.has_detail:
        for url in list(merged):
            detail = extract_detail(compiled, page_tree(shop, url, base), url)
            merged[url].update({k: v for k, v in detail.items() if v is not None})
    return list(merged.values())


def run_demo(names: Sequence[str], *, out: str | Path) -> int:
    static = [n for n, c in SHOP_CLASSES.items()
              if set(c.render.values()) == {"static"} and not c.extra_words]
    try:
        shops = [get_shop(n) for n in (names or static)]
    except KeyError as error:
        raise StructurerError(str(error.args[0])) from None
    console = Console(width=140)
    out_dir = Path(out)
    table = Table(title="structurer demo: analyze from the home page, then extract every page")
    for column in ("shop", "analyze", "pages", "products", "truth", "items P/R",
                   "list fields", "detail fields", "next page", "rule file"):
        table.add_column(column)
    failed = 0
    samples: list[dict[str, object]] = []
    with DemoServer(shops) as server:
        for shop in shops:
            base = server.urls[shop.name]
            console.print(f"analyzing {shop.title} at {base}/ …")
            try:
                rules, report = analyze_site(base + "/")
            except StructurerError as error:
                console.print(f"[red]{escape(str(error))}[/]")
                failed += 1
                continue
            path = save_rules(rules, out_dir / "site_rules" / f"{shop.name}.yaml")
            records = _records(shop.name, base, rules)
            with (out_dir / f"{shop.name}.jsonl").open("w", encoding="utf-8") as handle:
                for record in records:
                    handle.write(json.dumps(record, ensure_ascii=False) + "\n")
            s = score_rules(shop, base, rules)
            truth = len(shop.catalog.products)
            table.add_row(
                shop.name, f"{report.seconds:.1f} s", str(report.fetched), str(len(records)),
                str(truth), f"{s.precision:.0%}/{s.recall:.0%}",
                f"{min(s.list_fields.values()):.0%}", f"{min(s.detail_fields.values()):.0%}",
                f"{s.pagination:.0%}", str(path))
            samples.extend(records[:1])
    console.print(table)
    console.print("list/detail fields: the worst field's accuracy against the ground truth "
                  "(name, price, url, image; name, price, sku, availability, description, "
                  "breadcrumb)")
    for record in samples[:3]:
        console.print_json(json.dumps(record, ensure_ascii=False))
    console.print(f"records written to {out_dir}/<shop>.jsonl, rule files to "
                  f"{out_dir}/site_rules/")
    console.print("[yellow]note:[/] pages are read here from the shop's own page list; "
                  "`structurer crawl` (issue #4) will find them by itself.")
    return 1 if failed else 0
