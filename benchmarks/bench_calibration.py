"""Calibration benchmark: does a field rule's confidence say how often its values are right?

Usage: python benchmarks/bench_calibration.py [--seeds 0-39] [-j N] [--out DIR]
       python benchmarks/bench_calibration.py --rules DIR/rules [--seeds 0-39]
       python benchmarks/bench_calibration.py --report DIR/calibration.json

For each seed (in its own process, ``structurer.learn.batch.analyze_many``): serve the zoo
shop on 127.0.0.1 and learn its rule file with ``structurer.api.analyze_site`` — or, with
``--rules DIR``, read ``DIR/zoo-SEED.yaml`` (the rule files ``bench_zoo.py`` saves) and
learn nothing. Then replay each level's rules on the shop's own pages (straight from the
shop object, no network): every list page's items matched to the truth by URL, and every
product page. Each learned field rule of the list and detail level is one row: its
confidence, whether it is marked ambiguous, and over the records where it or the truth
has a value, how many of its values equal the truth (``structurer.demo.scoring.same``; on
list pages the truth is the item's as listed, else the product's). Levels the truth
builds in the browser are left out (their pages need rendering) and counted.

Printed per level (list, detail, both): per confidence bucket (0.35-0.5, 0.5-0.7,
0.7-0.9, 0.9-1.0) the rules, the share of rules right on at least 95% of their values,
the values and the share right; the rules at 1.0; the ambiguous rules. The promise the
table checks: values of rules at confidence >= 0.9 are right at least 98% of the time.
Rows go to ``DIR/calibration.json``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from structurer.api import analyze_site
from structurer.clean import decode_html, parse_html
from structurer.config import Settings
from structurer.demo import DemoServer
from structurer.demo.scoring import same
from structurer.demo.zoo import ZooShop, parse_seeds
from structurer.errors import StructurerError
from structurer.learn.batch import ShopResult, ShopTask, analyze_many
from structurer.replay.extract import compile_rules, extract_detail, extract_list
from structurer.rules import load_rules, save_rules
from structurer.rules.model import FieldRule, SiteRules

BUCKETS = ((0.0, 0.35), (0.35, 0.5), (0.5, 0.7), (0.7, 0.9), (0.9, 1.01))
RIGHT_RULE = 0.95          # a rule is right when this share of its values is
PROMISE = (0.9, 0.98)      # confidence >= 0.9 -> right >= 98% of the time
_BASE = "http://127.0.0.1:1"   # replay needs a base URL only to resolve links


# ----- one shop ----------------------------------------------------------------------------------
def _tally(rows: dict[str, dict[str, Any]], rule: FieldRule, name: str, got: Any,
           want: Any) -> None:
    row = rows.setdefault(name, {"field": name, "confidence": rule.confidence,
                                 "runner_up": rule.runner_up.confidence if rule.runner_up
                                 else None, "ambiguous": bool(getattr(rule, "ambiguous", None)),
                                 "source": "xpath" if rule.xpath else "jsonld" if rule.jsonld
                                 else "const", "values": 0, "right": 0, "misses": []})
    if got in (None, "", []) and want in (None, "", []):
        return
    row["values"] += 1
    if same(name, got, want):
        row["right"] += 1
    elif len(row["misses"]) < 3:
        row["misses"].append({"got": got, "want": want})


def page_tree(shop: ZooShop, url: str, base: str) -> Any:
    """The page as a crawl sees it: asked again when a shop answers a page's first hit
    with a server error (the zoo's ``session: first_500`` axis)."""
    response = shop.handle(url[len(base):])
    if response.status >= 500:
        response = shop.handle(url[len(base):])
    text, _ = decode_html(response.body, response.content_type)
    return parse_html(text, base_url=url)


def _layout_fields(level: Any, tree: Any) -> dict[str, FieldRule]:
    """The fields in force on a page: the first variant whose condition holds over the
    level's own (what replay does)."""
    for variant in level.variants:
        if variant.when and tree.xpath(f"boolean({variant.when})"):
            return {**level.fields, **variant.fields}
    return dict(level.fields)


def score_fields(shop: ZooShop, rules: SiteRules, base: str = _BASE) -> dict[str, Any]:
    """Rows of (level, field, confidence, values, right) for one shop's rule file."""
    truth = shop.ground_truth(base)
    products = {p["url"]: p for p in truth["products"]}
    compiled = compile_rules(rules)
    out: dict[str, Any] = {"rows": [], "skipped": []}
    levels = rules.levels
    if levels.list is not None and truth["render"]["list"] == "static":
        rows: dict[str, dict[str, Any]] = {}
        for url, page in truth["list_pages"].items():
            tree = page_tree(shop, url, base)
            fields = _layout_fields(levels.list, tree)
            items = {i["url"]: i for i in page["items"]}
            for record in extract_list(compiled, tree, url, budget=None).items:
                item = items.get(record.get("url") or "")
                if item is None:
                    continue
                want = {**products.get(item["url"], {}), **item}
                for name, rule in fields.items():
                    if name in want:
                        _tally(rows, rule, name, record.get(name), want[name])
        out["rows"] += [{"level": "list", **r} for r in rows.values()]
    elif levels.list is not None:
        out["skipped"].append("list")
    if levels.detail is not None and truth["render"]["detail"] == "static":
        rows = {}
        for url, product in products.items():
            tree = page_tree(shop, url, base)
            fields = _layout_fields(levels.detail, tree)
            record = extract_detail(compiled, tree, url, budget=None)
            for name, rule in fields.items():
                if name in product:
                    _tally(rows, rule, name, record.get(name), product[name])
        out["rows"] += [{"level": "detail", **r} for r in rows.values()]
    elif levels.detail is not None:
        out["skipped"].append("detail")
    return out


def run_seed(task: ShopTask, out: Path, template: Any, settings: Settings,
             progress: Callable[[str], None]) -> ShopResult:
    """Serve and analyze one zoo shop, then score its field rules (in a child process)."""
    started = time.monotonic()
    seed = int(task.url.removeprefix("zoo:"))
    shop = ZooShop(seed)
    result: dict[str, Any] = {"seed": seed, "axes": shop.axes, "error": None, "rows": []}
    try:
        with DemoServer([shop]) as server:
            progress("analyzing")
            rules, _ = analyze_site(server.urls[shop.name] + "/", template, settings)
        save_rules(rules, out / "rules" / f"zoo-{seed}.yaml")
        progress("scoring")
        result.update(score_fields(shop, rules))
    except StructurerError as error:
        result["error"] = " ".join(str(error).split())
    except Exception as error:   # a bug on one shop must not end the benchmark
        result["error"] = f"unexpected {type(error).__name__}: {error}"
    result["seconds"] = round(time.monotonic() - started, 1)
    target = out / "shops" / f"zoo-{seed}.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(result, ensure_ascii=False, default=str), "utf-8")
    return ShopResult(task, ok=result["error"] is None, path=target, error=result["error"],
                      seconds=result["seconds"])


def from_rule_files(seeds: Iterable[int], rules_dir: Path) -> list[dict[str, Any]]:
    """Score saved rule files (no analysis): one result per seed that has one."""
    shops = []
    for seed in seeds:
        path = rules_dir / f"zoo-{seed}.yaml"
        if not path.is_file():
            continue
        shop = ZooShop(seed)
        shops.append({"seed": seed, "axes": shop.axes, "error": None,
                      **score_fields(shop, load_rules(path))})
    return shops


# ----- the table ---------------------------------------------------------------------------------
def _bucket(confidence: float) -> int:
    return next(i for i, (low, high) in enumerate(BUCKETS) if low <= confidence < high)


def table(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Per bucket: rules, rules right, values, values right; and the 1.0 and ambiguous rows."""
    buckets = [{"range": f"{low:.2f}-{min(high, 1.0):.2f}", "rules": 0, "rules_right": 0,
                "values": 0, "right": 0} for low, high in BUCKETS]
    extra = {"at_1.0": {"rules": 0, "rules_right": 0, "values": 0, "right": 0},
             "ambiguous": {"rules": 0, "rules_right": 0, "values": 0, "right": 0}}
    for row in rows:
        good = row["values"] == 0 or row["right"] >= RIGHT_RULE * row["values"]
        targets = [buckets[_bucket(row["confidence"])]]
        if row["confidence"] >= 1.0:
            targets.append(extra["at_1.0"])
        if row.get("ambiguous"):
            targets.append(extra["ambiguous"])
        for target in targets:
            target["rules"] += 1
            target["rules_right"] += good
            target["values"] += row["values"]
            target["right"] += row["right"]
    return {"buckets": buckets, **extra}


def _share(part: int, whole: int) -> str:
    return f"{100 * part / whole:5.1f}%" if whole else "    - "


def print_report(shops: list[dict[str, Any]], out: Any = sys.stdout) -> bool:
    """Print the calibration table; True when the promise holds at every level."""
    def say(text: str = "") -> None:
        print(text, file=out)

    failed = [s for s in shops if s.get("error")]
    skipped = sum(len(s.get("skipped", [])) for s in shops)
    say(f"calibration: {len(shops)} shops, {len(failed)} failed, {skipped} browser levels "
        "left out")
    holds = True
    for level in ("list", "detail", "both"):
        rows = [r for s in shops for r in s.get("rows", [])
                if level == "both" or r["level"] == level]
        t = table(rows)
        say()
        say(f"{level:<8} {'confidence':>11} {'rules':>6} {'right':>7} {'values':>7} "
            f"{'right':>7}")
        for b in t["buckets"]:
            say(f"{'':<8} {b['range']:>11} {b['rules']:>6} {_share(b['rules_right'], b['rules'])}"
                f" {b['values']:>7} {_share(b['right'], b['values'])}")
        for key in ("at_1.0", "ambiguous"):
            b = t[key]
            say(f"{'':<8} {key:>11} {b['rules']:>6} {_share(b['rules_right'], b['rules'])}"
                f" {b['values']:>7} {_share(b['right'], b['values'])}")
        top = t["buckets"][-1]
        if top["values"] and top["right"] < PROMISE[1] * top["values"]:
            holds = False
    wrong = sorted(((r["confidence"], s["seed"], r) for s in shops for r in s.get("rows", [])
                    if r["confidence"] >= PROMISE[0] and r["values"]
                    and r["right"] < RIGHT_RULE * r["values"]), key=lambda x: (-x[0], x[1]))
    say()
    say(f"rules at confidence >= {PROMISE[0]} that are wrong ({len(wrong)}):")
    for confidence, seed, row in wrong[:40]:
        miss = row["misses"][0] if row["misses"] else {}
        say(f"  seed {seed:>5} {row['level']:<6} {row['field']:<14} {confidence:.2f} "
            f"{row['right']}/{row['values']}  got {str(miss.get('got'))[:40]!r} "
            f"want {str(miss.get('want'))[:40]!r}")
    say()
    say(f"promise (values of rules at >= {PROMISE[0]} right >= {PROMISE[1]:.0%}): "
        + ("holds" if holds else "BROKEN"))
    return holds


# ----- main --------------------------------------------------------------------------------------
def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", default="0-39", help="N, A-B or a comma list (0-39)")
    parser.add_argument("-j", "--jobs", type=int, default=2, help="shops at a time")
    parser.add_argument("--out", default="out/calibration", help="directory for the results")
    parser.add_argument("--timeout", type=float, default=900, help="seconds per shop")
    parser.add_argument("--rules", help="score the rule files zoo-SEED.yaml of this directory")
    parser.add_argument("--report", help="print a saved calibration.json instead of running")
    args = parser.parse_args()
    if args.report:
        saved = json.loads(Path(args.report).read_text("utf-8"))
        return 0 if print_report(saved["shops"]) else 1
    try:
        seeds = parse_seeds(args.seeds)
    except ValueError as error:
        print(f"bench_calibration: --seeds: {error}", file=sys.stderr)
        return 2
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    if args.rules:
        shops = from_rule_files(seeds, Path(args.rules))
    else:
        for seed in seeds:
            (out / "shops" / f"zoo-{seed}.json").unlink(missing_ok=True)
        tasks = [ShopTask(f"zoo:{seed}", str(seed)) for seed in seeds]
        results = analyze_many(tasks, out, None, Settings(), jobs=args.jobs,
                               timeout=args.timeout, worker=run_seed,
                               on_done=lambda r: print(
                                   f"[{r.task.source}] {'ok' if r.ok else 'failed'} "
                                   f"{r.seconds:.0f} s" + ("" if r.ok else f": {r.error}"),
                                   file=sys.stderr, flush=True))
        shops = []
        for result in results:
            path = out / "shops" / f"zoo-{result.task.source}.json"
            shops.append(json.loads(path.read_text("utf-8")) if path.is_file() else
                         {"seed": int(result.task.source), "error": result.error or "no result",
                          "rows": []})
    (out / "calibration.json").write_text(json.dumps(
        {"seeds": args.seeds, "seconds": round(time.monotonic() - started, 1), "shops": shops},
        ensure_ascii=False, indent=1, default=str), "utf-8")
    holds = print_report(shops)
    print(f"\n{len(shops)} shops in {time.monotonic() - started:.0f} s; rows in "
          f"{out / 'calibration.json'}")
    return 0 if holds else 1


if __name__ == "__main__":
    raise SystemExit(main())
