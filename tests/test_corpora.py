"""Real pages nobody here wrote (``../shared/corpora``): never a crash, and the SWDE bar.

The corpora sit beside the checkout (CI copies ``shared/`` there). The sweep runs
the page-level analysis on every saved HTML page; the SWDE test is the lexicon
workflow of the analyzer issue on a slice of the 2,000 book pages (the benchmark
``benchmarks/bench_swde.py`` runs all of them).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from benchmarks.swde import pages, read_truth, score
from structurer.api import analyze_pages
from structurer.clean import decode_html, parse_html
from structurer.errors import AnalysisError
from structurer.fetch.replay import base_href, read_saved
from structurer.learn.detail import learn_detail
from structurer.learn.listing import learn_list
from structurer.lexicon import load_lexicon
from structurer.page.view import PageView
from structurer.replay.extract import compile_rules, extract_detail

ROOT = Path(__file__).resolve().parent.parent
CORPORA = Path(os.environ.get("STRUCTURER_CORPORA", ROOT.parent / "shared" / "corpora"))
MISSING = (f"{CORPORA} is missing: the shared corpora sit beside the checkout "
           "(or point STRUCTURER_CORPORA at them)")
SWEEP: list[Path | None] = sorted(
    p for p in CORPORA.glob("**/*.htm*") if "swde" not in str(p)) or [None]


def test_corpora_are_present() -> None:
    assert CORPORA.is_dir(), MISSING
    assert len(SWEEP) > 200


@pytest.mark.parametrize("path", SWEEP,
                         ids=[str(p.relative_to(CORPORA)) if p else "missing" for p in SWEEP])
def test_analysis_never_crashes(path: Path | None) -> None:
    assert path is not None, MISSING
    lexicon = load_lexicon()
    body = read_saved(path)
    text, _ = decode_html(body, None)
    view = PageView.from_html(base_href(body) or "http://corpus.invalid/page", text, lexicon)
    assert view.kind in ("list", "detail", "other")
    try:
        if view.product_regions:
            learn_list([view], lexicon)
        learn_detail([view], lexicon)
    except AnalysisError:
        pass  # "no list here" is an answer, not a crash


def test_swde_book_lexicon_workflow() -> None:
    folder = CORPORA / "swde-book-christianbook"
    files = pages(folder)
    assert len(files) == 2000, MISSING
    rules = analyze_pages([str(p) for p in files[:5]], "detail",
                          str(ROOT / "templates" / "book.yaml"))
    compiled = compile_rules(rules)
    records = {}
    for path in files[5::7]:      # every 7th of the other pages: 285 pages
        body = read_saved(path)
        text, _ = decode_html(body, None)
        tree = parse_html(text, base_url=base_href(body))
        records[path.name.split(".")[0]] = extract_detail(compiled, tree, path.as_uri())
    attributes = {"title": "title", "author": "author", "isbn_13": "isbn",
                  "publisher": "publisher", "publication_date": "publication_date"}
    truth = {field: read_truth(folder, attr) for attr, field in attributes.items()}
    for field, share in score(records, truth).items():
        assert share >= 0.95, (field, share)
