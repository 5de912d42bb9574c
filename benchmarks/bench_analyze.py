"""Analyzer accuracy and speed on the demo shops: zero-shot analyze, then extract everything.

Usage: python benchmarks/bench_analyze.py [SHOP...] [--show-errors N] [--keep DIR]

For each demo shop: serve it on 127.0.0.1, run ``analyze`` from the home page
(render modes detected per level), apply the learned rules to EVERY list page and
EVERY detail page — rendered in Chromium where the rules mark a level "browser" —
and score against the shop's ground truth (``structurer.demo.scoring``). One table.
A shop that needs a lexicon edit ("ledger") gets two rows: zero-shot, and with
its missing words added to a copy of the shipped lexicon ("+lexicon").
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import yaml

from structurer.api import analyze_site
from structurer.config import Settings
from structurer.demo import DemoServer, get_shop
from structurer.demo.scoring import DETAIL_FIELDS, LIST_FIELDS, score_rules
from structurer.demo.shops import SHOP_CLASSES
from structurer.errors import StructurerError
from structurer.fetch import run_sync
from structurer.fetch.browser import BrowserFetcher
from structurer.lexicon import shipped_templates
from structurer.rules import save_rules


def edited_lexicon(words: dict[str, dict[str, float]], folder: Path) -> str:
    """A copy of the shipped lexicon with ``words`` added to their fields."""
    data = yaml.safe_load(shipped_templates()["ecommerce"].read_text(encoding="utf-8"))
    for field, extra in words.items():
        data["fields"][field]["words"].update(extra)
    path = folder / "ecommerce-edited.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return str(path)


def render_browser_levels(shop: object, base: str, rules: object) -> dict[str, str]:
    """Browser DOMs of every list/detail page of the levels the rules mark 'browser'."""
    truth = shop.ground_truth(base)  # type: ignore[attr-defined]
    levels = rules.levels  # type: ignore[attr-defined]
    urls: list[str] = []
    if levels.list is not None and levels.list.render.mode == "browser":
        urls += list(truth["list_pages"])
    if levels.detail is not None and levels.detail.render.mode == "browser":
        urls += [p["url"] for p in truth["products"]]
    if not urls:
        return {}

    async def run() -> dict[str, str]:
        async with BrowserFetcher(Settings(browser_pages=8)) as browser:
            pages = await browser.fetch_all(urls)
        return {u: p.text for u, p in zip(urls, pages, strict=True) if not isinstance(p, Exception)}

    return run_sync(run())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("shops", nargs="*")
    parser.add_argument("--show-errors", type=int, default=0)
    parser.add_argument("--keep", help="write the learned rule files into this directory")
    args = parser.parse_args()
    names = args.shops or list(SHOP_CLASSES)
    print(f"{'shop':<11} {'analyze':>8} {'pages':>5} {'recall':>7} {'prec':>6} "
          + " ".join(f"L.{f[:5]:>5}" for f in LIST_FIELDS) + " "
          + " ".join(f"D.{f[:5]:>5}" for f in DETAIL_FIELDS) + "   next  scored pages")
    failed = 0
    runs: list[tuple[str, str, str | None]] = []
    tmp = Path(tempfile.mkdtemp(prefix="structurer-bench-"))
    for name in names:
        runs.append((name, name, None))
        if SHOP_CLASSES[name].extra_words:
            runs.append((name, name + "+lexicon",
                         edited_lexicon(SHOP_CLASSES[name].extra_words, tmp)))
    with DemoServer([get_shop(n) for n in names]) as server:
        for name, label, template in runs:
            base = server.urls[name]
            started = time.perf_counter()
            try:
                rules, report = analyze_site(base + "/", template)
            except StructurerError as error:
                print(f"{label:<11} FAILED: {error}")
                failed += 1
                continue
            seconds = time.perf_counter() - started
            if args.keep:
                save_rules(rules, Path(args.keep) / f"{label}.yaml")
            shop = get_shop(name)
            rendered = render_browser_levels(shop, base, rules)
            s = score_rules(shop, base, rules, max_errors=args.show_errors, rendered=rendered)
            print(f"{label:<11} {seconds:>7.1f}s {report.fetched:>5} {s.recall:>7.1%} "
                  f"{s.precision:>6.1%} "
                  + " ".join(f"{s.list_fields[f]:>7.1%}" for f in LIST_FIELDS) + " "
                  + " ".join(f"{s.detail_fields[f]:>7.1%}" for f in DETAIL_FIELDS)
                  + f" {s.pagination:>6.0%}  {s.list_pages + s.detail_pages:>6}")
            for line in s.errors:
                print("   ", line[:200])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
