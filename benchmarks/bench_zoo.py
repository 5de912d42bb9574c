"""Zoo benchmark: learn and crawl generated shops, score the records against their truth.

Usage: python benchmarks/bench_zoo.py [--seeds 0-199] [-j N] [--out DIR] [--timeout S]
       python benchmarks/bench_zoo.py --report DIR/results.json   (print a saved run again)

For each seed, in its own process (``structurer.learn.batch.analyze_many`` with this
file's worker): serve the zoo shop on 127.0.0.1, run ``structurer.api.analyze_site``
from its home page, crawl it with ``structurer.crawler.engine.crawl_site`` (default
settings), and compare the records with the ground truth, matching records to truth
products by URL (path and sorted query). Printed:

* overall: analysis failures, the levels whose render mode (static or browser) the
  rules got right (the category level's for the category pages beyond the start page:
  static when it needs a browser for the start page's script-built menu alone,
  ``render.entry_only``), records recall and precision (records whose URL is no
  product, or a product a second time, count against precision), listing pages reached
  by the crawl (the share of shops reaching every listing page, and of all pages; a
  page counts as reached when the crawl asked for its URL or for the JSON endpoint
  that serves its items), and per-field accuracy over the matched records
  (``structurer.demo.scoring.same``: numbers exactly, text modulo whitespace; a field
  the truth holds null must be null);
* the same per axis value, each axis a table, with the weakest fields;
* failures (analysis errors, crashes, timeouts) by message, URLs and numbers masked.

Every per-shop result goes to ``DIR/results.json`` (rule files in ``DIR/rules/``,
records in ``DIR/records/``) for comparing runs later.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from structurer.api import analyze_site
from structurer.config import Settings
from structurer.crawler.engine import crawl_site
from structurer.demo import DemoServer
from structurer.demo.scoring import same
from structurer.demo.zoo import AXES, ZooShop, axes_of_seed, parse_seeds
from structurer.demo.zoo.urls import route_key
from structurer.errors import StructurerError
from structurer.learn.batch import ShopResult, ShopTask, analyze_many
from structurer.rules import SiteRules, load_rules, save_rules

FIELDS = ("name", "price", "currency", "original_price", "availability", "sku", "image",
          "description", "category", "brand", "rating", "review_count")


# ----- one shop (runs in a child process) -------------------------------------------------------
def _key(url: str) -> tuple[str, tuple[tuple[str, str], ...]]:
    parts = urlsplit(url)
    return route_key(parts.path + (f"?{parts.query}" if parts.query else ""))


def score(truth: dict[str, Any], records: list[dict[str, Any]],
          requests: Iterable[str]) -> dict[str, Any]:
    """Recall, precision, listing pages reached and per-field counts of one shop."""
    want = {_key(p["url"]): p for p in truth["products"]}
    got: dict[Any, dict[str, Any]] = {}
    for record in records:
        got.setdefault(_key(str(record.get("url", ""))), record)
    matched = [k for k in want if k in got]
    asked = {route_key(path) for path in requests}
    reached = [url for url in truth["list_pages"]
               if _key(url) in asked or (url in truth["endpoints"]
                                         and _key(truth["endpoints"][url]) in asked)]
    right = {f: sum(same(f, got[k].get(f), want[k][f]) for k in matched) for f in FIELDS}
    return {"truth": len(want), "records": len(records), "matched": len(matched),
            "list_pages": len(truth["list_pages"]), "list_reached": len(reached),
            "fields": right,
            "misses": {f: [{"url": want[k]["url"], "got": got[k].get(f), "want": want[k][f]}
                           for k in matched if not same(f, got[k].get(f), want[k][f])][:3]
                       for f in FIELDS}}


def _category_pages(rules: SiteRules) -> str | None:
    """The category level's render mode for category pages beyond the start page (None
    without a category level)."""
    level = rules.levels.category
    if level is None:
        return None
    return "static" if level.render.entry_only else str(level.render.mode.value)


def run_seed(task: ShopTask, out: Path, template: Any, settings: Settings,
             progress: Callable[[str], None]) -> ShopResult:
    """Serve, analyze, crawl and score one zoo shop; the result JSON is written to ``out``."""
    started = time.monotonic()
    seed = int(task.url.removeprefix("zoo:"))
    shop = ZooShop(seed)
    result: dict[str, Any] = {"seed": seed, "axes": shop.axes, "error": None}
    records: list[dict[str, Any]] = []
    with DemoServer([shop]) as server:
        base = server.urls[shop.name]
        try:
            progress("analyzing")
            began = time.monotonic()
            rules, report = analyze_site(base + "/", template, settings)
            result["analyze_s"] = round(time.monotonic() - began, 1)
            result["analyze_pages"] = report.fetched
            levels = rules.levels
            result["render"] = {name: level.render.mode for name, level in
                                (("category", levels.category), ("list", levels.list),
                                 ("detail", levels.detail)) if level is not None}
            result["category_pages"] = _category_pages(rules)
            save_rules(rules, out / "rules" / f"zoo-{seed}.yaml")
            shop.requests.clear()
            progress("crawling")
            path = out / "records" / f"zoo-{seed}.jsonl"
            for stale in path.parent.glob(f"{path.name}*"):
                stale.unlink()
            began = time.monotonic()
            crawl_site(rules, path, settings)
            result["crawl_s"] = round(time.monotonic() - began, 1)
            records = [json.loads(line) for line in path.read_text("utf-8").splitlines()]
        except StructurerError as error:
            result["error"] = " ".join(str(error).split())
        except Exception as error:   # a bug on one shop must not end the benchmark
            result["error"] = f"unexpected {type(error).__name__}: {error}"
        truth = shop.ground_truth(base)
        result["truth_render"] = truth["render"]
        result.update(score(truth, records, list(shop.requests) if "crawl_s" in result else []))
    result["seconds"] = round(time.monotonic() - started, 1)
    target = out / "shops" / f"zoo-{seed}.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(result, ensure_ascii=False, default=str), "utf-8")
    return ShopResult(task, ok=result["error"] is None, path=target, error=result["error"],
                      seconds=result["seconds"])


# ----- summary -----------------------------------------------------------------------------------
def _failed_row(seed: int, error: str) -> dict[str, Any]:
    return {"seed": seed, "axes": axes_of_seed(seed), "error": error, "truth": 0,
            "records": 0, "matched": 0, "list_pages": 0, "list_reached": 0,
            "fields": dict.fromkeys(FIELDS, 0)}


def _learned_render(shop: dict[str, Any], level: str) -> str | None:
    """The render mode the rules give ``level``'s pages (for the category level, its
    pages beyond the start page; None when the run did not learn the level)."""
    if level == "category":
        return shop.get("category_pages")
    return shop.get("render", {}).get(level)


def _render_right(shops: list[dict[str, Any]], level: str) -> float:
    """Share of analyzed shops whose rules render ``level`` as the truth says."""
    learned = [s for s in shops if _learned_render(s, level) is not None]
    if not learned:
        return 0.0
    right = sum(bool(_learned_render(s, level) == _truth_render(s)[level]) for s in learned)
    return right / len(learned)


def _truth_render(shop: dict[str, Any]) -> dict[str, str]:
    if "truth_render" not in shop:
        shop["truth_render"] = ZooShop(shop["seed"]).ground_truth("")["render"]
    return dict(shop["truth_render"])


def summarize(shops: list[dict[str, Any]]) -> dict[str, Any]:
    truth = sum(s["truth"] for s in shops)
    matched = sum(s["matched"] for s in shops)
    records = sum(s["records"] for s in shops)
    scored = [s for s in shops if s["truth"]]
    return {
        "shops": len(shops), "failed": sum(s["error"] is not None for s in shops),
        "recall": matched / truth if truth else 0.0,
        "precision": matched / records if records else 0.0,
        "all_lists": (sum(s["list_reached"] == s["list_pages"] for s in scored) / len(scored)
                      if scored else 0.0),
        "lists": (sum(s["list_reached"] for s in shops) / max(sum(s["list_pages"]
                                                                  for s in shops), 1)),
        "fields": {f: (sum(s["fields"][f] for s in shops) / matched if matched else 0.0)
                   for f in FIELDS},
        "render": {level: _render_right(shops, level)
                   for level in ("category", "list", "detail")},
    }


def _mask(message: str) -> str:
    message = re.sub(r"https?://\S+", "URL", message)
    return re.sub(r"\d+(\.\d+)?", "N", message)[:160]


def _pct(value: float) -> str:
    return f"{100 * value:5.1f}%"


def print_report(shops: list[dict[str, Any]], out: Any = sys.stdout) -> None:
    def say(text: str = "") -> None:
        print(text, file=out)

    total = summarize(shops)
    say(f"zoo benchmark: {total['shops']} shops, {total['failed']} failed analysis or crawl")
    say(f"  records recall {_pct(total['recall'])}   precision {_pct(total['precision'])}   "
        f"shops reaching every listing page {_pct(total['all_lists'])}   "
        f"listing pages reached {_pct(total['lists'])}")
    say("  render mode as the truth says: " + "  ".join(
        f"{level} {_pct(share).strip()}" for level, share in total["render"].items())
        + " (of the shops analyzed; category: the pages beyond the start page)")
    say("  field accuracy on matched records: " + "  ".join(
        f"{f} {_pct(v).strip()}" for f, v in total["fields"].items()))
    for axis in AXES:
        groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for shop in shops:
            groups[shop["axes"][axis]].append(shop)
        say()
        say(f"{axis:<18} {'shops':>5} {'fail':>4} {'recall':>7} {'prec':>7} {'lists':>7} "
            f"{'fields':>7}  weakest fields")
        for value, _ in AXES[axis]:
            if value not in groups:
                continue
            s = summarize(groups[value])
            fields = s["fields"]
            mean = sum(fields.values()) / len(fields)
            weak = "  ".join(f"{f} {_pct(v).strip()}"
                             for f, v in sorted(fields.items(), key=lambda kv: kv[1])[:3])
            say(f"  {value:<16} {s['shops']:>5} {s['failed']:>4} {_pct(s['recall'])} "
                f"{_pct(s['precision'])} {_pct(s['all_lists'])} {_pct(mean)}  {weak}")
    errors = Counter(_mask(s["error"]) for s in shops if s["error"])
    say()
    say(f"failures by message ({sum(errors.values())}):")
    for message, count in errors.most_common():
        say(f"  {count:>4}  {message}")


def _with_category_pages(shops: list[dict[str, Any]], rules: Path) -> list[dict[str, Any]]:
    """Saved results of a run made before category pages' modes were kept: read them
    from the run's rule files, where there are some."""
    for shop in shops:
        path = rules / f"zoo-{shop['seed']}.yaml"
        if "category_pages" not in shop and "render" in shop and path.is_file():
            shop["category_pages"] = _category_pages(load_rules(path))
    return shops


# ----- main --------------------------------------------------------------------------------------
def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", default="0-199", help="N, A-B or a comma list (0-199)")
    parser.add_argument("-j", "--jobs", type=int, default=2, help="shops at a time")
    parser.add_argument("--out", default="out/zoo-bench", help="directory for the results")
    parser.add_argument("--timeout", type=float, default=900, help="seconds per shop")
    parser.add_argument("--report", help="print a saved results.json instead of running")
    args = parser.parse_args()
    if args.report:
        saved = json.loads(Path(args.report).read_text("utf-8"))
        print_report(_with_category_pages(saved["shops"], Path(args.report).parent / "rules"))
        return 0
    try:
        seeds = parse_seeds(args.seeds)
    except ValueError as error:
        print(f"bench_zoo: --seeds: {error}", file=sys.stderr)
        return 2
    out = Path(args.out)
    started = time.monotonic()

    def done(result: ShopResult) -> None:
        state = "ok    " if result.ok else "failed"
        print(f"[{result.task.source}] {state} {result.task.url} {result.seconds:.0f} s"
              + ("" if result.ok else f": {result.error}"), file=sys.stderr, flush=True)

    for seed in seeds:     # a shop whose process dies must not show an older run's result
        (out / "shops" / f"zoo-{seed}.json").unlink(missing_ok=True)
    tasks = [ShopTask(f"zoo:{seed}", str(seed)) for seed in seeds]
    results = analyze_many(tasks, out, None, Settings(), jobs=args.jobs, timeout=args.timeout,
                           on_done=done, worker=run_seed)
    shops = []
    for result in results:
        seed = int(result.task.url.removeprefix("zoo:"))
        path = out / "shops" / f"zoo-{seed}.json"
        shops.append(json.loads(path.read_text("utf-8")) if path.is_file()
                     else _failed_row(seed, result.error or "no result"))
    summary = summarize(shops)
    (out / "results.json").write_text(json.dumps(
        {"seeds": args.seeds, "seconds": round(time.monotonic() - started, 1),
         "summary": summary, "shops": shops}, ensure_ascii=False, indent=1, default=str),
        "utf-8")
    print_report(shops)
    print(f"\n{len(shops)} shops in {time.monotonic() - started:.0f} s; results in "
          f"{out / 'results.json'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
