"""The edit-the-lexicon workflow on real pages: SWDE book/christianbook.

Learn detail rules from 5 saved pages with ``templates/book.yaml`` (``analyze
--level detail --pages``), apply them to the other 1,995 and score every field
against the SWDE ground truth. Also times extraction per page.

Usage: python benchmarks/bench_swde.py [--corpora DIR] [--corpus SWDE_SITE_FOLDER] [--train N]

``--corpora`` is the shared corpora folder (default ``../shared/corpora``; the pages are
its ``swde-book-christianbook``); ``--corpus`` names a SWDE site folder directly. Exit 0
when every field reaches 95%, 1 when one falls short, 2 when the pages are missing.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.corpora import add_corpora_option, corpora_folder, fail, require  # noqa: E402
from benchmarks.swde import pages, read_truth, score  # noqa: E402
from structurer.api import analyze_pages  # noqa: E402
from structurer.clean import decode_html, parse_html  # noqa: E402
from structurer.fetch.replay import base_href, read_saved  # noqa: E402
from structurer.replay.extract import compile_rules, extract_detail  # noqa: E402
from structurer.rules import SiteRules  # noqa: E402

SITE = "swde-book-christianbook"
FIELDS = {"title": "title", "author": "author", "isbn_13": "isbn", "publisher": "publisher",
          "publication_date": "publication_date"}
BAR = 0.95


@dataclass
class SwdeRun:
    """One learn-then-apply run: the rules, the pages applied to, timings and field scores."""

    rules: SiteRules
    applied: int
    learn_s: float
    extract_ms: float
    scores: dict[str, float]


def learn_and_score(folder: Path, train: int = 5) -> SwdeRun:
    """Learn book rules from the first ``train`` pages of a SWDE site folder, apply them to
    every other page and score each field against the ground truth."""
    files = pages(folder)
    started = time.perf_counter()
    rules = analyze_pages([str(p) for p in files[:train]], "detail",
                          str(ROOT / "templates" / "book.yaml"))
    learn = time.perf_counter() - started
    compiled = compile_rules(rules)
    records: dict[str, dict[str, Any]] = {}
    extract_time = 0.0
    for path in files[train:]:
        body = read_saved(path)
        text, _ = decode_html(body, None)
        tree = parse_html(text, base_url=base_href(body) or path.as_uri())
        t0 = time.perf_counter()
        records[path.name.split(".")[0]] = extract_detail(compiled, tree, path.as_uri())
        extract_time += time.perf_counter() - t0
    truth = {field: read_truth(folder, attr) for attr, field in FIELDS.items()}
    return SwdeRun(rules, len(records), learn, 1000 * extract_time / max(len(records), 1),
                   score(records, truth))


def swde_folder(folder: Path) -> Path:
    """``folder`` when it holds SWDE pages, else one line on stderr and exit 2."""
    if not pages(require(folder, "a SWDE site folder")):
        fail(folder, "no SWDE pages in it (pages/*/*.htm*)")
    return folder


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_corpora_option(parser)
    parser.add_argument("--corpus", type=Path, metavar="SWDE_SITE_FOLDER",
                        help=f"a SWDE site folder (default: DIR/{SITE})")
    parser.add_argument("--train", type=int, default=5)
    args = parser.parse_args()
    folder = swde_folder(args.corpus or corpora_folder(args) / SITE)
    run = learn_and_score(folder, args.train)
    print(f"learned from {args.train} pages in {run.learn_s:.2f} s; applied to {run.applied} "
          f"pages ({run.extract_ms:.2f} ms extract per page)")
    detail = run.rules.levels.detail
    for name, rule in (detail.fields.items() if detail else []):
        print(f"  {name:<17} {rule.xpath or rule.jsonld}")
    print("field accuracy: " + "  ".join(f"{f} {v:.1%}" for f, v in run.scores.items()))
    return 0 if all(v >= BAR for v in run.scores.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
