"""The edit-the-lexicon workflow on real pages: SWDE book/christianbook.

Learn detail rules from 5 saved pages with ``templates/book.yaml`` (``analyze
--level detail --pages``), apply them to the other 1,995 and score every field
against the SWDE ground truth. Also times extraction per page.

Usage: python benchmarks/bench_swde.py [--corpus ../shared/corpora/swde-book-christianbook]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.swde import pages, read_truth, score  # noqa: E402
from structurer.api import analyze_pages  # noqa: E402
from structurer.clean import decode_html, parse_html  # noqa: E402
from structurer.fetch.replay import base_href, read_saved  # noqa: E402
from structurer.replay.extract import compile_rules, extract_detail  # noqa: E402

FIELDS = {"title": "title", "author": "author", "isbn_13": "isbn", "publisher": "publisher",
          "publication_date": "publication_date"}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpora" /
                                                 "swde-book-christianbook"))
    parser.add_argument("--train", type=int, default=5)
    args = parser.parse_args()
    folder = Path(args.corpus)
    files = pages(folder)
    started = time.perf_counter()
    rules = analyze_pages([str(p) for p in files[: args.train]], "detail",
                          str(ROOT / "templates" / "book.yaml"))
    learn = time.perf_counter() - started
    compiled = compile_rules(rules)
    records = {}
    extract_time = 0.0
    for path in files[args.train:]:
        body = read_saved(path)
        text, _ = decode_html(body, None)
        tree = parse_html(text, base_url=base_href(body) or path.as_uri())
        t0 = time.perf_counter()
        records[path.name.split(".")[0]] = extract_detail(compiled, tree, path.as_uri())
        extract_time += time.perf_counter() - t0
    truth = {field: read_truth(folder, attr) for attr, field in FIELDS.items()}
    scores = score(records, truth)
    print(f"learned from {args.train} pages in {learn:.2f} s; applied to {len(records)} pages "
          f"({1000 * extract_time / max(len(records), 1):.2f} ms extract per page)")
    for name, rule in (rules.levels.detail.fields.items() if rules.levels.detail else []):
        print(f"  {name:<17} {rule.xpath or rule.jsonld}")
    print("field accuracy: " + "  ".join(f"{f} {v:.1%}" for f, v in scores.items()))
    return 0 if all(v >= 0.95 for v in scores.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
