"""Real pages nobody here wrote (``tests/fixtures/real``): where they come from, and never a crash.

Each folder holds the pages of one licensed source with a ``NOTICE`` naming the origin
repository, the license and the original path of every file (pages without a license,
such as SWDE's or the IEPS course's, are never copied here). The sweep runs the
page-level analysis on every one of them. The sweeps over the large shared corpora
(every page, the SWDE >= 95% bar over 2,000 pages) are ``benchmarks/bench_corpora.py``.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from structurer.clean import decode_html
from structurer.errors import AnalysisError
from structurer.fetch.replay import read_saved
from structurer.learn.detail import learn_detail
from structurer.learn.listing import learn_list
from structurer.lexicon import load_lexicon
from structurer.page.view import PageView

REAL = Path(__file__).resolve().parent / "fixtures" / "real"
#: source folder -> the license its NOTICE must name
LICENSES = {"autopager": "MIT", "extruct": "BSD 3-clause", "portia": "BSD 3-clause",
            "scrapely": "BSD"}
PAGES = sorted(p for p in REAL.glob("*/*") if ".htm" in p.name)
FALLBACK_URL = "http://corpus.invalid/page"


def real_text(name: str) -> str:
    """The decoded HTML of ``tests/fixtures/real/<name>`` (gunzipped when ``.gz``)."""
    return decode_html(read_saved(REAL / name), None)[0]


def real_url(name: str) -> str:
    """The URL a real page was saved from, where its source records it (autopager's
    data.csv), else a placeholder."""
    folder, file = name.split("/")
    table = REAL / folder / "data.csv"
    if table.is_file():
        with table.open(encoding="utf-8", newline="") as handle:
            for row in csv.DictReader(handle):
                if f"{row['File Name']}.html" == file.removesuffix(".gz"):
                    return row["Page URL"]
    return FALLBACK_URL


def test_every_real_page_is_licensed_and_named_in_its_notice() -> None:
    assert sorted(p.name for p in REAL.iterdir() if p.is_dir()) == sorted(LICENSES)
    for folder, license_name in LICENSES.items():
        notice = (REAL / folder / "NOTICE").read_text(encoding="utf-8")
        assert f"License: {license_name}" in notice and "https://github.com/" in notice
        files = sorted(p.name for p in (REAL / folder).iterdir() if p.name != "NOTICE")
        assert files and all(f"\n  {name} " in notice for name in files), folder
    assert sum(p.stat().st_size for p in REAL.rglob("*")) < 3_000_000


def test_the_sweep_covers_every_source() -> None:
    assert {p.parent.name for p in PAGES} == set(LICENSES) and len(PAGES) >= 20
    assert real_url("autopager/197.html.gz").startswith("http://www.baldur-garten.ch/search/")
    assert real_url("scrapely/samples_htmlpage_0.html") == FALLBACK_URL


@pytest.mark.parametrize("path", PAGES, ids=[str(p.relative_to(REAL)) for p in PAGES])
def test_analysis_never_crashes(path: Path) -> None:
    lexicon = load_lexicon()
    name = str(path.relative_to(REAL))
    view = PageView.from_html(real_url(name), real_text(name), lexicon)
    assert view.kind in ("list", "detail", "other")
    try:
        if view.product_regions:
            learn_list([view], lexicon)
        learn_detail([view], lexicon)
    except AnalysisError:
        pass  # "no list here" is an answer, not a crash
