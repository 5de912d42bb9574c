"""Start-up and one-page costs of the command line, as ratios to reference commands, one run.

Each command runs as its own process, ``--repeat`` times, interleaved with its
reference; a figure is the median process time (user + system CPU, which other load on
the machine disturbs less than the wall clock, also shown). Every process runs as
installed software does, from compiled bytecode: ``PYTHONDONTWRITEBYTECODE`` is
dropped and bytecode goes to a temporary ``PYTHONPYCACHEPREFIX`` (a warm-up run of each
command fills it), so an editable checkout is not charged for compiling its sources on
every start. Targets:

- ``structurer --version`` and ``structurer validate`` (a lexicon and a rule file)
  <= 1.5x ``python -c "import pydantic, lxml.html, yaml"``;
- ``structurer extract-page FILE --template news`` on saved real articles <= 1.0x
  trafilatura's command line on the same files (``trafilatura < FILE``), summed over
  the articles. trafilatura is benchmark-only: ``pip install trafilatura``.

It also lists the heavy packages each command loads (none may load for ``--version``,
``validate`` and ``templates``; ``extract-page`` may load numpy, for link clusters).
The articles are the first ``--articles`` pages (by file name) of
``trafilatura-eval/pages/*.html.gz`` under ``--corpora``, unzipped to a temporary folder.

    python benchmarks/bench_startup.py [--corpora DIR] [--articles N] [--repeat R]

Exit 0 when every target is met, 1 when one is missed.
"""

from __future__ import annotations

import argparse
import gzip
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
HEAVY = ("rich", "aiohttp", "playwright", "sklearn", "scipy", "numpy", "simhash", "zss",
         "jinja2", "scrapy", "price_parser")


def tool(name: str) -> list[str]:
    """A console script of this environment (``python -m`` when it is not installed)."""
    script = BIN / name
    return [str(script)] if script.exists() else [sys.executable, "-m", name]


ENV = dict(os.environ)


def run_once(argv: Sequence[str], stdin: Path | None = None) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one run of ``argv``; a failing run stops the bench."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with open(stdin or os.devnull, "rb") as source:
        done = subprocess.run(list(argv), stdin=source, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, check=False, env=ENV)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        sys.exit(f"{' '.join(argv)}: exit {done.returncode}: {done.stderr.decode()[-400:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def heavy_imports(args: Sequence[str]) -> list[str]:
    """The heavy top-level packages ``structurer ARGS`` imports."""
    code = ("import sys\nfrom structurer.cli import main\n"
            f"try:\n    main({list(args)!r})\nexcept SystemExit:\n    pass\n"
            "print(' '.join(sorted({m.split('.')[0] for m in sys.modules})))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, env=ENV)
    loaded = set(done.stdout.strip().splitlines()[-1].split())
    return [name for name in HEAVY if name in loaded]


def unzip_articles(corpora: Path, count: int, into: Path) -> list[Path]:
    pages = sorted((corpora / "trafilatura-eval" / "pages").glob("*.html.gz"))[:count]
    if not pages:
        sys.exit(f"{corpora}: no trafilatura-eval/pages/*.html.gz (give --corpora DIR)")
    out = []
    for i, page in enumerate(pages):
        path = into / f"article-{i:02d}.html"
        path.write_bytes(gzip.decompress(page.read_bytes()))
        out.append(path)
    return out


def median_pair(runs: list[tuple[float, float]]) -> tuple[float, float]:
    return statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)


def compare(name: str, ours: list[list[str]], theirs: list[list[str]], repeat: int,
            stdin: list[Path | None] | None = None) -> tuple[float, float, float, float]:
    """Summed medians (ours CPU, ours wall, reference CPU, reference wall) over the
    commands, each pair run ``repeat`` times interleaved (after one warm-up run each)."""
    totals = [0.0, 0.0, 0.0, 0.0]
    for i, (mine, ref) in enumerate(zip(ours, theirs, strict=True)):
        feed = stdin[i] if stdin else None
        run_once(mine), run_once(ref, feed)  # warm caches (bytecode, disk)
        a: list[tuple[float, float]] = []
        b: list[tuple[float, float]] = []
        for _ in range(repeat):
            a.append(run_once(mine))
            b.append(run_once(ref, feed))
        (ac, aw), (bc, bw) = median_pair(a), median_pair(b)
        totals = [totals[0] + ac, totals[1] + aw, totals[2] + bc, totals[3] + bw]
    print(f"  {name}: done", file=sys.stderr, flush=True)
    return totals[0], totals[1], totals[2], totals[3]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--corpora", type=Path, default=ROOT.parent / "shared" / "corpora")
    parser.add_argument("--articles", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    structurer = tool("structurer")
    baseline = [sys.executable, "-c", "import pydantic, lxml.html, yaml"]
    lexicon = str(ROOT / "templates" / "ecommerce.yaml")
    rules = str(ROOT / "tests" / "fixtures" / "rules" / "shop.yaml")
    trafilatura = BIN / "trafilatura"
    if not trafilatura.exists():
        print("hint: pip install trafilatura  (extract-page is compared with its CLI)")
    rows: list[tuple[str, float | None, tuple[float, float, float, float]]] = []
    with tempfile.TemporaryDirectory() as tmp:
        ENV.pop("PYTHONDONTWRITEBYTECODE", None)
        ENV["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "bytecode")
        articles = unzip_articles(args.corpora, args.articles, Path(tmp))
        rows.append(("--version", 1.5, compare(
            "--version", [[*structurer, "--version"]], [baseline], args.repeat)))
        rows.append(("validate", 1.5, compare(
            "validate", [[*structurer, "validate", lexicon, rules]], [baseline], args.repeat)))
        rows.append(("templates", None, compare(
            "templates", [[*structurer, "templates"]], [baseline], args.repeat)))
        if trafilatura.exists():
            rows.append((f"extract-page x{len(articles)}", 1.0, compare(
                "extract-page",
                [[*structurer, "extract-page", str(p), "--template", "news"] for p in articles],
                [[str(trafilatura)] for _ in articles], args.repeat, list(articles))))
        loads = {
            "--version": heavy_imports(["--version"]),
            "validate": heavy_imports(["validate", lexicon, rules]),
            "templates": heavy_imports(["templates"]),
            "extract-page": heavy_imports(["extract-page", str(articles[0]), "--template",
                                           "news"]),
        }
    print(f"\nmedian of {args.repeat} runs per command; reference: "
          "`python -c \"import pydantic, lxml.html, yaml\"`, extract-page: trafilatura CLI\n")
    print("| command | CPU s | wall s | reference CPU s | reference wall s | ratio (CPU) "
          "| ratio (wall) | target |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    missed = 0
    for name, target, (ac, aw, bc, bw) in rows:
        ratio = ac / bc
        verdict = "-" if target is None else (f"<= {target}: " + ("met" if ratio <= target
                                                                   else "MISSED"))
        missed += target is not None and ratio > target
        print(f"| {name} | {ac:.3f} | {aw:.3f} | {bc:.3f} | {bw:.3f} | {ratio:.2f} "
              f"| {aw / bw:.2f} | {verdict} |")
    print("\nheavy packages loaded:")
    for name, found in loads.items():
        print(f"  {name:13} {', '.join(found) or 'none'}")
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
