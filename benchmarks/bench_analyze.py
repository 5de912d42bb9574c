"""Analyzer accuracy and speed on the demo shops: zero-shot analyze, then extract everything.

Usage: python benchmarks/bench_analyze.py [SHOP...] [--show-errors N] [--keep DIR]

For each static demo shop: serve it on 127.0.0.1, run ``analyze`` from the home
page, apply the learned rules to EVERY list page and EVERY detail page, and score
against the shop's ground truth (``structurer.demo.scoring``). One table out.
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
from structurer.demo import DemoServer, get_shop
from structurer.demo.scoring import DETAIL_FIELDS, LIST_FIELDS, score_rules
from structurer.demo.shops import SHOP_CLASSES
from structurer.errors import StructurerError
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("shops", nargs="*")
    parser.add_argument("--show-errors", type=int, default=0)
    parser.add_argument("--keep", help="write the learned rule files into this directory")
    args = parser.parse_args()
    names = args.shops or [n for n, c in SHOP_CLASSES.items()
                           if set(c.render.values()) == {"static"}]
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
            s = score_rules(get_shop(name), base, rules, max_errors=args.show_errors)
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
