"""The list stage alone on zoo shops: learn list rules from sampled list pages, replay them
on every list page, and score items, detail links and names against the truth.

Usage: python benchmarks/bench_zoo_lists.py [--seeds 0-39] [--show]

No server, no browser, no crawl: each shop's list pages are built as full static HTML
(script-built levels as the static page they render to), the way analysis samples them
(the home page and the first page of every category, plus one second page, ranked by
the size of their largest product region, five kept) is fed to
:func:`structurer.learn.listing.learn_list_layouts`, and the learned item XPath, detail
link and ``name`` field are evaluated on every list page of the shop. So a loss here is
the list stage's own (wrong list, item XPath too narrow or too wide, link or name
wrong), not pagination's, discovery's or rendering's, which ``bench_zoo.py`` mixes in.

Printed per axis value that shapes lists (list_markup, classes, list_noise,
list_names): items found (by detail URL), items selected that are no product of the
page, and names right (the whole name, also where the card cuts it).
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from typing import Any
from urllib.parse import urljoin

from structurer.demo.zoo import ZooShop, parse_seeds
from structurer.demo.zoo.pages import home_doc, list_doc, page_html
from structurer.errors import StructurerError
from structurer.learn import xpaths
from structurer.learn.listing import ListLearned, learn_list_layouts
from structurer.lexicon import Lexicon, load_lexicon
from structurer.page.dom import text_of
from structurer.page.view import PageView

AXES = ("list_markup", "classes", "list_noise", "list_names")
BASE = "http://zoo.test"


def _sample(views: dict[str, PageView], home: PageView, first: list[str], second: str | None
            ) -> list[PageView]:
    candidates = [home, *(views[u] for u in first)] + ([views[second]] if second else [])
    ranked = sorted(candidates, key=lambda p: -len(p.product_regions[0])
                    if p.product_regions else 0)
    return ranked[:5]


def _holds(when: str, tree: Any) -> bool:
    """A variant's condition, as the replay reads it (a boolean, or a node-set's truth)."""
    got = xpaths.evaluate(when, tree)
    return bool(got[0]) if len(got) == 1 and isinstance(got[0], bool) else bool(got)


def _read(learned: ListLearned, item: Any, page_url: str) -> tuple[str | None, str | None]:
    links = xpaths.evaluate(learned.detail_link_xpath, item) if learned.detail_link_xpath \
        else []
    first: Any = links[0] if links else None
    href = first if isinstance(first, str) else first.get("href") if first is not None \
        else None
    rule = learned.fields.get("name")
    name = None
    if rule is not None and rule.xpath:
        got = xpaths.evaluate(rule.xpath, item)
        if got:
            name = got[0] if isinstance(got[0], str) else text_of(got[0])
    return (urljoin(page_url, href) if href else None), (" ".join(name.split()) if name else None)


def score_seed(seed: int, lexicon: Lexicon) -> dict[str, Any]:
    """Items found, extra items and names right over every list page of one shop."""
    shop = ZooShop(seed)
    z = shop.zoo
    z.axes["list_render"] = "static"       # the page a script-built level renders to
    pages: dict[str, tuple[Any, int]] = {}
    for cat in z.catalog.categories:
        for n in range(1, len(z.pages_of(cat)) + 1):
            pages[BASE + z.urls.category(cat, n)] = (cat, n)
    views = {u: PageView.from_html(u, page_html(z, list_doc(z, c, n)), lexicon)
             for u, (c, n) in pages.items()}
    home = PageView.from_html(BASE + "/", page_html(z, home_doc(z)), lexicon)
    multi = [c for c in z.catalog.categories if z.lists_products(c) and len(z.pages_of(c)) > 1]
    sample = _sample(views, home, [BASE + z.urls.category(c, 1) for c in z.catalog.categories],
                     BASE + z.urls.category(multi[0], 2) if multi else None)
    row: dict[str, Any] = {"seed": seed, "axes": dict(shop.axes), "truth": 0, "found": 0,
                           "extra": 0, "names": 0, "error": None}
    try:
        layouts = learn_list_layouts(sample, lexicon)
    except StructurerError as error:
        row["error"] = str(error)
    for url, (cat, n) in pages.items():
        if not z.lists_products(cat):
            continue
        want = {BASE + z.urls.product(it.product): it.product.name
                for it in z.pages_of(cat)[n - 1]}
        row["truth"] += len(want)
        if row["error"]:
            continue
        tree = views[url].tree
        learned = next((other for when, other, _ in layouts.variants if _holds(when, tree)),
                       layouts.main)
        read = [_read(learned, item, url) for item in xpaths.evaluate(learned.item_xpath, tree)]
        hit = {u: name for u, name in read if u in want}
        row["found"] += len(hit)
        row["extra"] += sum(u not in want for u, _ in read)
        row["names"] += sum(name == want[u] for u, name in hit.items())
    return row


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:5.1f}%" if whole else "   - "


def report(rows: list[dict[str, Any]]) -> None:
    def line(label: str, group: list[dict[str, Any]]) -> str:
        truth = sum(r["truth"] for r in group)
        found = sum(r["found"] for r in group)
        names = sum(r["names"] for r in group)
        return (f"  {label:<16} {len(group):>5} {_pct(found, truth)} "
                f"{sum(r['extra'] for r in group):>6} {_pct(names, truth)}")

    print(f"  {'':<16} {'shops':>5} {'items':>6} {'extra':>6} {'names':>6}")
    print(line("all", rows))
    for axis in AXES:
        groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for row in rows:
            groups[row["axes"][axis]].append(row)
        print(axis)
        for value in sorted(groups):
            print(line(value, groups[value]))
    failed = [r for r in rows if r["error"]]
    for row in failed:
        print(f"seed {row['seed']}: {row['error']}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", default="0-39", help="N, A-B or a comma list (0-39)")
    parser.add_argument("--show", action="store_true", help="one line per shop as it is done")
    args = parser.parse_args()
    try:
        seeds = parse_seeds(args.seeds)
    except ValueError as error:
        print(f"bench_zoo_lists: --seeds: {error}", file=sys.stderr)
        return 2
    lexicon = load_lexicon()
    rows = []
    for seed in seeds:
        row = score_seed(seed, lexicon)
        rows.append(row)
        if args.show:
            print(f"seed {seed}: items {row['found']}/{row['truth']} extra {row['extra']} "
                  f"names {row['names']}", file=sys.stderr, flush=True)
    report(rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
