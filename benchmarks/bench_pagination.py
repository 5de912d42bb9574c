"""Next-link detection on real pages: the autopager corpus (203 pages from 92 sites).

Usage: python benchmarks/bench_pagination.py [--corpora DIR] [--show N]

For every page of ``autopager-pagination/`` (its ``data.csv`` names the PREV and NEXT
links of each page by CSS selectors), learn pagination from that page alone
(:func:`structurer.learn.pagination.learn_pagination` with the ecommerce lexicon) and
check the first link its next XPath selects:

* right — a link the annotation calls NEXT (same target);
* previous — a link the annotation calls PREV (the one mistake a crawler must never make);
* other — another link (a page number, a "last" link...);
* missed — the page has a NEXT link and no rule was learned;
* invented — the page has no NEXT link and a rule selects one.
"""

from __future__ import annotations

import argparse
import csv
import sys
from collections import Counter
from pathlib import Path
from urllib.parse import urljoin

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from lxml.cssselect import CSSSelector  # noqa: E402

from benchmarks.corpora import add_corpora_option, corpora_folder, require  # noqa: E402
from structurer.clean import decode_html  # noqa: E402
from structurer.learn import xpaths  # noqa: E402
from structurer.learn.pagination import learn_pagination  # noqa: E402
from structurer.lexicon import load_lexicon  # noqa: E402
from structurer.page.view import PageView  # noqa: E402


def _targets(view: PageView, selector: str) -> set[str]:
    out: set[str] = set()
    for part in filter(None, (s.strip() for s in selector.split(" , "))):
        try:
            nodes = CSSSelector(part)(view.tree)
        except Exception:   # a selector lxml cannot read is no target
            continue
        for node in nodes:
            for a in [node, *node.iter("a")]:
                if a.get("href"):
                    out.add(urljoin(view.url, a.get("href").strip()))
    return out


def judge(view: PageView, prev: set[str], nxt: set[str]) -> str:
    lexicon = load_lexicon("ecommerce")
    guess = learn_pagination([view], lexicon.pagination)
    if guess is None or not guess.next_xpath:
        return "missed" if nxt else "none"
    found = next((n for n in xpaths.evaluate(guess.next_xpath, view.tree)), None)
    href = found if isinstance(found, str) else getattr(found, "get", lambda _: None)("href")
    target = urljoin(view.url, str(href).strip()) if href else None
    if not nxt:
        return "invented"
    if target in nxt:
        return "right"
    return "previous" if target in prev else "other"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_corpora_option(parser)
    parser.add_argument("--show", type=int, default=0, help="print N mistakes")
    args = parser.parse_args()
    folder = require(corpora_folder(args) / "autopager-pagination", "the autopager corpus")
    tally: Counter[str] = Counter()
    mistakes: list[str] = []
    with (folder / "data.csv").open(encoding="utf-8") as rows:
        for row in csv.DictReader(rows):
            path = folder / "html" / f"{row['File Name']}.html"
            if not path.exists() or row.get("failed"):
                continue
            html, _ = decode_html(path.read_bytes(), f"text/html; charset={row['Encoding']}")
            view = PageView.from_html(row["Page URL"], html, load_lexicon("ecommerce"))
            verdict = judge(view, _targets(view, row["PREV"]), _targets(view, row["NEXT"]))
            tally[verdict] += 1
            if verdict in ("previous", "other", "invented", "missed"):
                mistakes.append(f"{verdict:<9} {row['File Name']:>4} {row['Page URL']}")
    total = sum(tally.values())
    with_next = total - tally["none"] - tally["invented"]
    print(f"autopager: {total} pages, {with_next} with a next link")
    for key in ("right", "previous", "other", "missed", "invented", "none"):
        print(f"  {key:<9} {tally[key]:>4}")
    if with_next:
        print(f"  next link right on {tally['right'] / with_next:.1%} of pages that have one; "
              f"a previous link chosen on {tally['previous']}")
    for line in mistakes[:args.show]:
        print(line)


if __name__ == "__main__":
    main()
