"""Speed of rule replay: lxml's parse time vs parse + extract, per page.

Input: the demo shops (pages rendered in-process, no server) with the hand-written
rule files of ``tests/fixtures/rules/``, and, when the shared corpora are there
(``--corpora DIR``, default ``../shared/corpora``; skipped with a note when the default
is missing), large real list pages of their ``ieps-list-pages`` (read in place) with
small rule files written below. Output: a table with the median parse time, the median
extract time (``extract_list`` / ``extract_detail`` on the parsed tree, rules
compiled once), their ratio and the ratio of parse + extract to parse alone.

    python benchmarks/bench_extract.py [--runs N] [--check] [--corpora DIR]

``--check`` exits 1 when the median extract/parse ratio over the pages exceeds 1.5.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.corpora import add_corpora_option, optional_corpora, require  # noqa: E402
from structurer.clean import decode_html, parse_html  # noqa: E402
from structurer.demo import get_shop  # noqa: E402
from structurer.replay import (  # noqa: E402
    CompiledRules,
    compile_rules,
    extract_detail,
    extract_list,
)
from structurer.rules import load_rules, rules_from_text  # noqa: E402

FIXTURES = ROOT / "tests" / "fixtures" / "rules"
BASE = "http://127.0.0.1:8000"
LIMIT = 1.5

_HEAD = """schema_version: 1
site: {site}
start_url: https://{site}/
generated_at: '2026-11-30T10:00:00Z'
template: {{name: ecommerce, hash: sha256:0123456789abcdef}}
levels:
  list:
"""
REAL = {
    "ebay.com/football_eBay.html": ("www.ebay.com", "https://www.ebay.com/sch/i.html", """\
    item_xpath: //ul[contains(@class, 'srp-results')]/li[contains(@class, 's-item')]
    detail_link_xpath: .//a[contains(@class, 's-item__link')]
    pagination: {next_xpath: "//a[contains(@class, 'pagination__next')]"}
    fields:
      name: {xpath: ".//h3[contains(@class, 's-item__title')]", kind: text}
      price: {xpath: ".//span[@class='s-item__price']", kind: money}
      shipping: {xpath: ".//span[contains(@class, 's-item__shipping')]", kind: money}
      image: {xpath: ".//img[contains(@class, 's-item__image-img')]", kind: image}
"""),
    "bolha.com/Macke.html": ("www.bolha.com", "https://www.bolha.com/macke/", """\
    item_xpath: //ul[contains(@class, 'EntityList-items')]/li[article]
    detail_link_xpath: .//h3[@class='entity-title']/a
    fields:
      name: {xpath: ".//h3[@class='entity-title']/a", kind: text}
      price: {xpath: ".//strong[contains(@class, 'price')]", kind: money}
      image: {xpath: ".//img[contains(@class, 'entity-thumbnail-img')]", kind: image}
      published: {xpath: ".//time/@datetime", kind: datetime}
"""),
}

Extract = Callable[[CompiledRules, Any, str], Any]


def median_seconds(fn: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def demo_pages() -> list[tuple[str, CompiledRules, str, str, Extract]]:
    """(label, rules, url, html text, extractor) for list and detail pages of 4 shops."""
    out = []
    for name in ("outfitters", "kumo", "huaxia", "nordlicht"):
        shop = get_shop(name)
        truth = shop.ground_truth(BASE)
        compiled = compile_rules(load_rules(FIXTURES / f"{name}.yaml"))
        lists = list(truth["list_pages"])
        details = list(truth["detail_pages"])
        for kind, url, fn in (("list", lists[0], extract_list), ("list", lists[1], extract_list),
                              ("detail", details[7], extract_detail)):
            response = shop.handle(url[len(BASE):])
            text, _ = decode_html(response.body, response.content_type)
            out.append((f"{name} {kind} {url[len(BASE):][:28]}", compiled, url, text, fn))
    return out


def real_pages(corpora: Path | None) -> list[tuple[str, CompiledRules, str, str, Extract]]:
    out: list[tuple[str, CompiledRules, str, str, Extract]] = []
    if corpora is None:
        return out
    for rel, (site, url, body) in REAL.items():
        path = require(corpora / "ieps-list-pages" / rel, "a real list page")
        compiled = compile_rules(rules_from_text(_HEAD.format(site=site) + body, rel))
        text, _ = decode_html(path.read_bytes())
        out.append((rel, compiled, url, text, extract_list))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=300, help="runs per small page (median)")
    parser.add_argument("--check", action="store_true",
                        help=f"exit 1 if the median extract/parse ratio exceeds {LIMIT}")
    add_corpora_option(parser)
    args = parser.parse_args(argv)
    corpora = optional_corpora(args, "the real list pages")

    header = (f"{'page':<44} {'KB':>6} {'recs':>5} {'parse ms':>9} {'extract ms':>10} "
              f"{'extract/parse':>13} {'(parse+extract)/parse':>21}")
    print(header)
    print("-" * len(header))
    ratios, totals = [], []
    for label, compiled, url, text, fn in demo_pages() + real_pages(corpora):
        runs = max(10, args.runs if len(text) < 200_000 else args.runs // 20)
        parse = median_seconds(lambda t=text, u=url: parse_html(t, u), runs)
        tree = parse_html(text, url)
        extract = median_seconds(lambda c=compiled, t=tree, u=url, f=fn: f(c, t, u), runs)
        result = fn(compiled, tree, url)
        records = 1 if isinstance(result, dict) else len(result.items)
        ratios.append(extract / parse)
        totals.append((parse + extract) / parse)
        print(f"{label:<44} {len(text.encode()) / 1024:>6.0f} {records:>5} "
              f"{parse * 1e3:>9.3f} {extract * 1e3:>10.3f} {extract / parse:>13.2f} "
              f"{(parse + extract) / parse:>21.2f}")
    print("-" * len(header))
    median_ratio = statistics.median(ratios)
    print(f"{'median':<44} {'':>6} {'':>5} {'':>9} {'':>10} {median_ratio:>13.2f} "
          f"{statistics.median(totals):>21.2f}")
    print(f"max extract/parse: {max(ratios):.2f}")
    return 1 if args.check and median_ratio > LIMIT else 0


if __name__ == "__main__":
    raise SystemExit(main())
