"""Article main text on trafilatura-eval: structurer ``extract_page`` vs trafilatura, one run.

Input: ``trafilatura-eval/`` of the shared corpora (990 annotated real pages: news,
magazines, blogs, government and company pages in many languages): per page a ``with``
list of snippets the main text must contain and a ``without`` list of snippets it must
not (menus, boilerplate, comments). Output: one markdown table with its authors' own
scoring — a ``with`` snippet found in the extracted text (whitespace-normalized
substring match) is a true positive, missed a false negative; a ``without`` snippet
found is a false positive, absent a true negative; precision, recall, accuracy and F1
over all snippets — plus pages classed not-article (structurer kind != detail, or no
text from trafilatura) and seconds per page, for the whole run and for its even and odd
halves (the even-numbered pages are the development half, the odd ones held back),
and the ratio of structurer's time to trafilatura's (the speed target: at most 1.0). A
page's time is wall-clock seconds and CPU seconds of this process (which other load on
a shared machine disturbs less). Per-page results (counts, missed and leaked snippets,
kind, time) go to ``--out``.

structurer runs ``structurer.extract_page(bytes, url, "news")`` and scores the
``content`` field; trafilatura (benchmark-only, not a dependency: ``pip install
trafilatura``) runs ``extract(bytes, fast=False, include_comments=False,
include_tables=True, include_formatting=False)``, the settings of its own evaluation.
Both get the page's bytes and decode them themselves; both are warmed up first and run
page by page in turn, so that a busy machine slows them alike.

    python benchmarks/bench_articles.py [--corpora DIR] [--limit N] [--half even|odd]
        [--pages 102,442] [--only structurer|trafilatura] [--out results.json]
        [--compare old.json] [--worst N]

``--pages`` scores only the pages of those indices (quick iteration on a few pages);
``--worst N`` lists the N pages where structurer loses most to trafilatura, by missed
snippets (recall) and by leaked ones (precision), with the snippets.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.corpora import add_corpora_option, corpora_folder, require  # noqa: E402

Run = Callable[[bytes, str], tuple[str, str]]   # (text, kind)
EXTRACTORS = ("structurer", "trafilatura")


def norm(text: str) -> str:
    """Whitespace-normalized, as the corpus authors compare snippets."""
    return re.sub(r"\s+", " ", text).strip()


def count(item: dict[str, Any], text: str) -> dict[str, Any]:
    """tp/fp/fn/tn of one page and the snippets missed and leaked."""
    got = norm(text)
    missed = [w for w in item["with"] if norm(w) not in got]
    leaked = [w for w in item["without"] if norm(w) in got]
    return {"tp": len(item["with"]) - len(missed), "fn": len(missed), "fp": len(leaked),
            "tn": len(item["without"]) - len(leaked), "missed": missed, "leaked": leaked}


def scores(rows: list[dict[str, Any]]) -> dict[str, float]:
    tp, fp, fn, tn = (sum(r[k] for r in rows) for k in ("tp", "fp", "fn", "tn"))
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    total = tp + fp + fn + tn
    return {"precision": precision, "recall": recall,
            "accuracy": (tp + tn) / total if total else 0.0,
            "f1": 2 * tp / (2 * tp + fp + fn) if tp + fp + fn else 0.0,
            "not_article": sum(r["kind"] != "detail" for r in rows),
            "s_per_page": sum(r["seconds"] for r in rows) / max(len(rows), 1),
            "cpu_per_page": sum(r.get("cpu", 0.0) for r in rows) / max(len(rows), 1)}


# ----- extractors -------------------------------------------------------------------------------
def structurer_run() -> Run:
    import structurer

    def run(body: bytes, url: str) -> tuple[str, str]:
        out = structurer.extract_page(body, url, "news")
        return str(out["fields"].get("content") or ""), str(out["kind"])
    return run


def trafilatura_run() -> Run | None:
    try:
        import trafilatura
    except ImportError:
        print("hint: pip install trafilatura  (benchmark-only; compared only when installed)",
              file=sys.stderr)
        return None

    def run(body: bytes, url: str) -> tuple[str, str]:
        text = trafilatura.extract(body, url=url, fast=False, include_comments=False,
                                   include_tables=True, include_formatting=False) or ""
        return text, "detail" if text else "other"
    return run


# ----- the run ----------------------------------------------------------------------------------
def load(folder: Path, half: str | None, limit: int | None, only: set[int] | None = None
         ) -> list[tuple[int, str, dict[str, Any], Path]]:
    """(index, url, annotation, page file) of the annotated pages, in the file's order
    (``only``: those indices)."""
    evaldata = json.loads(require(folder / "evaldata.json", "trafilatura-eval annotations")
                          .read_text(encoding="utf-8"))
    pages = [(i, url, item, folder / "pages" / f"{item['file']}.gz")
             for i, (url, item) in enumerate(evaldata.items())]
    if half is not None:
        pages = [p for p in pages if p[0] % 2 == (0 if half == "even" else 1)]
    if only is not None:
        pages = [p for p in pages if p[0] in only]
    return pages[:limit] if limit else pages


def measure(runs: dict[str, Run], pages: list[tuple[int, str, dict[str, Any], Path]]
            ) -> dict[str, list[dict[str, Any]]]:
    """Every extractor on every page, page by page (so that a busy machine slows them
    alike), timed per page."""
    with warnings.catch_warnings():   # warm up: lazy imports are not timed
        warnings.simplefilter("ignore")
        for run in runs.values():
            run(gzip.decompress(pages[0][3].read_bytes()), pages[0][1])
    results: dict[str, list[dict[str, Any]]] = {name: [] for name in runs}
    for n, (index, url, item, path) in enumerate(pages, 1):
        body = gzip.decompress(path.read_bytes())
        for name, run in runs.items():
            started, cpu = time.perf_counter(), time.process_time()
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    text, kind = run(body, url)
                error = None
            except Exception as exc:  # a crash scores as a page with no text, and is named
                text, kind, error = "", "error", f"{type(exc).__name__}: {exc}"
            seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
            results[name].append({"index": index, "file": item["file"], "url": url,
                                  "kind": kind, "seconds": round(seconds, 4),
                                  "cpu": round(cpu, 4),
                                  "chars": len(text), "error": error, **count(item, text)})
        if n % 100 == 0:
            print(f"{n}/{len(pages)} pages", file=sys.stderr)
    return results


def table(results: dict[str, list[dict[str, Any]]]) -> None:
    print("| extractor | pages | precision | recall | accuracy | F1 | not article | s/page "
          "| CPU s/page |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, rows in results.items():
        for label, part in (("all", rows), ("even (dev)", [r for r in rows if r["index"] % 2 == 0]),
                            ("odd (held back)", [r for r in rows if r["index"] % 2 == 1])):
            if not part or (label != "all" and len(part) == len(rows)):
                continue
            s = scores(part)
            print(f"| {name} {label} | {len(part)} | {s['precision']:.3f} | {s['recall']:.3f} | "
                  f"{s['accuracy']:.3f} | {s['f1']:.3f} | {s['not_article']} | "
                  f"{s['s_per_page']:.3f} | {s['cpu_per_page']:.3f} |")
    speed(results)


def speed(results: dict[str, list[dict[str, Any]]]) -> None:
    """structurer's time over trafilatura's on the same pages (target: at most 1.0)."""
    if not {"structurer", "trafilatura"} <= set(results):
        return
    ours, theirs = scores(results["structurer"]), scores(results["trafilatura"])
    ratio = {key: ours[key] / theirs[key] if theirs[key] else 0.0
             for key in ("s_per_page", "cpu_per_page")}
    verdict = "met" if ratio["cpu_per_page"] <= 1.0 else "MISSED"
    print(f"\nin-process time, structurer / trafilatura: {ratio['s_per_page']:.3f} wall, "
          f"{ratio['cpu_per_page']:.3f} CPU (target <= 1.0: {verdict})")


def compare(old: dict[str, list[dict[str, Any]]], new: dict[str, list[dict[str, Any]]]) -> None:
    """Pages whose tp-fp changed between two runs of the same extractor."""
    for name, rows in new.items():
        before = {r["index"]: r for r in old.get(name, [])}
        changed = [(r["tp"] - r["fp"] - before[r["index"]]["tp"] + before[r["index"]]["fp"], r)
                   for r in rows if r["index"] in before]
        changed = [c for c in changed if c[0]]
        print(f"\n{name}: {sum(d > 0 for d, _ in changed)} pages better, "
              f"{sum(d < 0 for d, _ in changed)} worse")
        for delta, r in sorted(changed, key=lambda c: (c[0], c[1]["index"]))[:15]:
            if delta < 0:
                print(f"  {delta:+d} #{r['index']} {r['file']}: missed {r['missed'][:2]} "
                      f"leaked {r['leaked'][:2]}")


def worst(results: dict[str, list[dict[str, Any]]], n: int) -> None:
    """The pages where structurer misses (then leaks) most more snippets than trafilatura."""
    if not {"structurer", "trafilatura"} <= set(results):
        return
    pairs = list(zip(results["structurer"], results["trafilatura"], strict=True))
    for key, shown in (("fn", "missed"), ("fp", "leaked")):
        print(f"\nstructurer {shown} more than trafilatura:")
        losses = sorted(((s[key] - t[key], s) for s, t in pairs if s[key] > t[key]),
                        key=lambda d: (-d[0], d[1]["index"]))
        for delta, s in losses[:n]:
            print(f"  +{delta} #{s['index']} {s['file']} ({s['kind']}, {s['chars']} chars): "
                  f"{[x[:60] for x in s[shown][:3]]}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_corpora_option(parser)
    parser.add_argument("--limit", type=int, metavar="N", help="score only the first N pages")
    parser.add_argument("--half", choices=("even", "odd"),
                        help="only the even-numbered (development) or odd (held-back) pages")
    parser.add_argument("--pages", metavar="LIST",
                        help="only the pages of these indices (comma-separated)")
    parser.add_argument("--only", choices=EXTRACTORS, help="run one extractor")
    parser.add_argument("--worst", type=int, metavar="N", default=0,
                        help="list the N pages structurer loses most on, vs trafilatura")
    parser.add_argument("--out", type=Path, metavar="FILE",
                        help="write per-page results (JSON) for comparing runs")
    parser.add_argument("--compare", type=Path, metavar="FILE",
                        help="list the pages that changed since a saved --out")
    args = parser.parse_args()
    folder = require(corpora_folder(args) / "trafilatura-eval", "the trafilatura-eval corpus")
    only = {int(i) for i in args.pages.split(",") if i.strip()} if args.pages else None
    pages = load(folder, args.half, args.limit, only)
    makers: dict[str, Callable[[], Run | None]] = {"structurer": structurer_run,
                                                    "trafilatura": trafilatura_run}
    runs = {name: run for name in EXTRACTORS if args.only in (None, name)
            for run in [makers[name]()] if run is not None}
    results = measure(runs, pages) if runs and pages else {}
    table(results)
    worst(results, args.worst)
    if args.compare is not None:
        compare(json.loads(require(args.compare, "a saved --out").read_text("utf-8")), results)
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(results, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
