"""Sweeps over the shared corpora of real pages: never a crash, and the SWDE bar.

Input: the corpora folder (``--corpora DIR``, default ``../shared/corpora`` beside the
checkout; it is not part of the repository). (a) Every saved page of every folder
(``*.htm*``, gzipped or not) but SWDE's: the page-level analysis (page kind, lists, link
clusters, then list rules where product regions are and detail rules), and
``extract-page`` with the ecommerce and the news template (its JSON must serialize).
(b) SWDE book/christianbook: book rules learned from 5 pages, applied to the other 1,995
and scored per field (``benchmarks/bench_swde.py`` alone; the bar: 95% each).

Output: per corpus folder the pages, crashes, page kinds and the median and slowest CPU
time per page of each step; every crash (page, step, exception); the SWDE figures.
Exit 0 with no crash and every SWDE field at the bar, 1 otherwise, 2 when the corpora
(or their SWDE pages) are missing.

    python benchmarks/bench_corpora.py [--corpora DIR] [--every N] [--no-swde]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_swde import BAR, SITE, learn_and_score, swde_folder  # noqa: E402
from benchmarks.corpora import add_corpora_option, corpora_folder, fail  # noqa: E402
from structurer.clean import decode_html  # noqa: E402
from structurer.errors import AnalysisError  # noqa: E402
from structurer.fetch.replay import base_href, read_saved  # noqa: E402
from structurer.generic.extract import extract_page_generic  # noqa: E402
from structurer.learn.detail import learn_detail  # noqa: E402
from structurer.learn.listing import learn_list  # noqa: E402
from structurer.lexicon import Lexicon, load_lexicon  # noqa: E402
from structurer.page.view import PageView  # noqa: E402

FALLBACK_URL = "http://corpus.invalid/page"


@dataclass
class Folder:
    """What the sweep saw in one corpus folder."""

    pages: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    analysis: list[float] = field(default_factory=list)
    extract: list[float] = field(default_factory=list)
    slowest: tuple[float, str] = (0.0, "")
    crashes: list[tuple[str, str, str]] = field(default_factory=list)


def sweep_pages(corpora: Path, every: int) -> list[Path]:
    """Every saved page under ``corpora`` but the SWDE ones, every ``every``-th."""
    pages = sorted(p for p in corpora.rglob("*.htm*")
                   if p.is_file() and not p.relative_to(corpora).parts[0].startswith("swde"))
    return pages[::every]


def analyze(text: str, url: str, lexicon: Lexicon) -> str:
    """The page-level analysis of ``analyze``; its page kind. "No list here" is an answer."""
    view = PageView.from_html(url, text, lexicon)
    try:
        if view.product_regions:
            learn_list([view], lexicon)
        learn_detail([view], lexicon)
    except AnalysisError:
        pass
    return view.kind


def extract(text: str, url: str, lexicons: list[Lexicon]) -> None:
    """``extract-page`` with each template; its output must be JSON."""
    for lexicon in lexicons:
        json.dumps(extract_page_generic(text, url, lexicon))


def timed(name: str, step: str, run: Callable[[], object], into: Folder) -> float:
    """CPU seconds of ``run``; an exception is a crash of ``step`` on page ``name``."""
    started = time.process_time()
    try:
        run()
    except Exception as error:  # a crash is what this benchmark counts
        message = (str(error).splitlines() or [""])[0][:120]
        into.crashes.append((name, step, f"{type(error).__name__}: {message}"))
    return time.process_time() - started


def sweep_one(path: Path, name: str, into: Folder, lexicons: list[Lexicon]) -> None:
    into.pages += 1
    page: list[tuple[str, str]] = []

    def read() -> None:
        body = read_saved(path)
        page.append((decode_html(body, None)[0], base_href(body) or FALLBACK_URL))

    spent = timed(name, "read", read, into)
    if not page:
        return
    text, url = page[0]
    analysis = timed(name, "analysis",
                     lambda: into.kinds.update([analyze(text, url, lexicons[0])]), into)
    extracted = timed(name, "extract-page", lambda: extract(text, url, lexicons), into)
    into.analysis.append(analysis)
    into.extract.append(extracted)
    into.slowest = max(into.slowest, (spent + analysis + extracted, name))


def sweep(corpora: Path, every: int) -> dict[str, Folder]:
    pages = sweep_pages(corpora, every)
    if not pages:
        fail(corpora, "no saved pages (*.htm*) in it")
    lexicons = [load_lexicon("ecommerce"), load_lexicon("news")]
    folders: dict[str, Folder] = {}
    for n, path in enumerate(pages, 1):
        name = str(path.relative_to(corpora))
        sweep_one(path, name, folders.setdefault(name.split("/")[0], Folder()), lexicons)
        if n % 100 == 0:
            print(f"  {n}/{len(pages)} pages", file=sys.stderr, flush=True)
    return folders


def ms(values: list[float]) -> str:
    return f"{1000 * statistics.median(values):.0f}" if values else "–"


def print_sweep(folders: dict[str, Folder], wall: float) -> None:
    print("\n### Every saved page: analysis and extract-page (ecommerce + news)\n")
    print("| folder | pages | crashes | list | detail | other | analysis ms | "
          "extract-page ms | slowest page (s) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|")
    for name, f in sorted(folders.items()):
        print(f"| {name} | {f.pages} | {len(f.crashes)} | {f.kinds['list']} | "
              f"{f.kinds['detail']} | {f.kinds['other']} | {ms(f.analysis)} | "
              f"{ms(f.extract)} | {f.slowest[1]} ({f.slowest[0]:.1f}) |")
    total = sum(f.pages for f in folders.values())
    crashes = [c for f in folders.values() for c in f.crashes]
    cpu = sum(sum(f.analysis) + sum(f.extract) for f in folders.values())
    print(f"\n{total} pages, {len(crashes)} crashes; {cpu:.0f} s CPU, {wall:.0f} s wall "
          "(times: median CPU per page)")
    for page, step, error in crashes:
        print(f"  crash: {page} ({step}): {error}")


def print_swde(corpora: Path) -> bool:
    run = learn_and_score(swde_folder(corpora / SITE))
    print(f"\n### SWDE book/christianbook: book rules from 5 pages, applied to {run.applied}\n")
    print("| field | accuracy |\n|---|---:|")
    for name, share in run.scores.items():
        print(f"| {name} | {share:.1%} |")
    print(f"\nlearned in {run.learn_s:.2f} s; {run.extract_ms:.2f} ms extract per page; "
          f"bar: {BAR:.0%} each")
    return all(share >= BAR for share in run.scores.values())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_corpora_option(parser)
    parser.add_argument("--every", type=int, default=1, metavar="N",
                        help="sweep every N-th page only (a quick run)")
    parser.add_argument("--no-swde", action="store_true", help="leave out the SWDE bar")
    args = parser.parse_args()
    corpora = corpora_folder(args)
    if not args.no_swde:
        swde_folder(corpora / SITE)     # missing SWDE pages: say so before the long sweep
    started = time.perf_counter()
    folders = sweep(corpora, max(1, args.every))
    print_sweep(folders, time.perf_counter() - started)
    swde_ok = args.no_swde or print_swde(corpora)
    crashed = any(f.crashes for f in folders.values())
    return 0 if swde_ok and not crashed else 1


if __name__ == "__main__":
    sys.exit(main())
