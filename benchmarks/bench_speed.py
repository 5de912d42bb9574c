"""Speed of list-block detection (weighted trees + pruned tree edit distance) by page size.

Usage: python benchmarks/bench_speed.py [--corpora DIR]

Reports, in one run, the median time of ``find_regions`` on: a generated demo list
page of about 300 KB (all products of the largest category on one page), the real
list pages of the shared corpora's ieps-list-pages (``--corpora DIR``, default
../shared/corpora; skipped with a note when the default is missing), and lxml's own
parse time of each page for scale. The analyzer issue's bar: under 1 s for a 300 KB page.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.corpora import add_corpora_option, optional_corpora, require  # noqa: E402
from structurer.clean import decode_html, parse_html  # noqa: E402
from structurer.demo import get_shop  # noqa: E402
from structurer.lexicon import load_lexicon  # noqa: E402
from structurer.page import treesim  # noqa: E402
from structurer.page.lists import find_regions  # noqa: E402
from structurer.page.view import PageView  # noqa: E402


def big_demo_page(target: int = 300_000) -> str:
    """A demo list page holding every product of every shop's catalogue (about 300 KB)."""
    shop = get_shop("kumo")
    everything = list(shop.catalog.products)
    shop.listing = lambda cat: everything   # type: ignore[method-assign]
    type(shop).page_size = 10_000
    html = shop.render_list(shop.catalog.leaves()[0], 1)
    while len(html.encode()) < target:      # repeat the grid's cards until big enough
        start = html.index("<article")
        end = html.rindex("</article>") + len("</article>")
        html = html[:end] + html[start:end] + html[end:]
    return html


def timed(fn: object, runs: int) -> float:
    times = []
    for _ in range(runs):
        treesim._TED_CACHE.clear()   # every run starts cold, as a new page would
        start = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_corpora_option(parser)
    corpora = optional_corpora(parser.parse_args(), "the real list pages")
    lists = require(corpora / "ieps-list-pages", "real list pages") if corpora else None
    lexicon = load_lexicon()
    pages: list[tuple[str, str]] = [("demo kumo, every product on one page", big_demo_page())]
    for path in sorted(lists.glob("*/*.html")) if lists else ():
        text, _ = decode_html(path.read_bytes(), None)
        pages.append((f"{path.parent.name}/{path.name}", text))
    print(f"{'page':<40} {'KB':>6} {'parse ms':>9} {'regions ms':>11} {'items':>6}")
    worst_300k = 0.0
    for name, text in pages:
        size = len(text.encode()) / 1024
        runs = 3 if size > 1000 else 7
        parse = timed(lambda t=text: parse_html(t), runs)
        view = PageView.from_html("http://bench.invalid/", text, lexicon)
        detect = timed(lambda v=view: find_regions(v.tree, lexicon), runs)
        items = len(view.product_regions[0]) if view.product_regions else 0
        if size <= 400:
            worst_300k = max(worst_300k, detect)
        print(f"{name:<40} {size:>6.0f} {parse * 1000:>9.1f} {detect * 1000:>11.1f} {items:>6}")
    print(f"slowest detection on a page up to 400 KB: {worst_300k:.2f} s (bar: < 1 s)")
    return 0 if worst_300k < 1.0 else 1


if __name__ == "__main__":
    sys.exit(main())
