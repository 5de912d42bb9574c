"""Rule-free page extraction: structurer extract-page vs GNE vs trafilatura, one run.

Input: (a) the news demo site (every article, served on 127.0.0.1), (b) the
hand-written news pages of ``tests/fixtures/news``, (c) real pages with ground truth
from ``../shared/corpora``: SWDE book/christianbook (title, author), the scrapely
Icône pair (product name), the extruct fye.com page (product name: its <h1> and
JSON-LD name) and schema.org Product snippet. Output: one markdown table per data
set — title accuracy, content token-F1 (mean), publish-date accuracy, author
accuracy and milliseconds per page for each extractor — and, for structurer only,
page kind and main-list figures on the news site.

GNE (``gne``) and trafilatura are benchmark-only (not dependencies of structurer);
a missing one is skipped with a one-line hint. trafilatura runs ``bare_extraction``
with metadata and without comments; GNE runs ``GeneralNewsExtractor().extract``.
Product pages run structurer with the ``ecommerce`` template (its ``name`` is the
title) and, for comparison, with ``news``.

    python benchmarks/bench_generic.py [--swde-pages N] [--corpora DIR]

``--corpora`` defaults to ``../shared/corpora``; when that is missing the real-page
tables are skipped with a note, and a missing ``--corpora DIR`` is an error (exit 2).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import urllib.request
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.corpora import add_corpora_option, optional_corpora  # noqa: E402
from benchmarks.swde import matches, normalize, pages, read_truth  # noqa: E402
from structurer.clean import decode_html  # noqa: E402
from structurer.demo import DemoServer  # noqa: E402
from structurer.demo.news import NewsSite  # noqa: E402
from structurer.fetch.replay import base_href, read_saved  # noqa: E402
from structurer.generic.extract import extract_page_generic  # noqa: E402
from structurer.lexicon import load_lexicon  # noqa: E402
from structurer.page.dates import parse_date  # noqa: E402
from tests.page.test_density import token_f1  # noqa: E402

Record = dict[str, Any]
Extractor = Callable[[str, str], Record]
#: (html, url, truth) — truth holds the fields that are scored on this page. An extractor
#: returns every field it has (None when it found nothing) and leaves out the others.
Case = tuple[str, str, Record]
METRICS = ("title", "content", "published", "author")


# ----- extractors ---------------------------------------------------------------------------
def structurer_extractor(template: str) -> Extractor:
    lexicon = load_lexicon(template)

    def run(html: str, url: str) -> Record:
        fields = extract_page_generic(html, url, lexicon)["fields"]
        if "name" in lexicon.fields:      # a product template: its name is the title
            return {"title": fields.get("name")}
        return {m: fields.get(m) for m in METRICS}
    return run


def gne_extractor() -> Extractor | None:
    try:
        from gne import GeneralNewsExtractor
    except ImportError:
        print("hint: pip install gne  (GNE is compared only when installed)")
        return None
    extractor = GeneralNewsExtractor()

    def run(html: str, url: str) -> Record:
        try:
            out = extractor.extract(html)
        except Exception:  # GNE raises on pages it cannot read; that scores as nothing
            return dict.fromkeys(METRICS)
        return {"title": out.get("title"), "content": out.get("content"),
                "published": out.get("publish_time"), "author": out.get("author")}
    return run


def trafilatura_extractor() -> Extractor | None:
    try:
        import trafilatura
    except ImportError:
        print("hint: pip install trafilatura  (trafilatura is compared only when installed)")
        return None

    def run(html: str, url: str) -> Record:
        doc = trafilatura.bare_extraction(html, url=url, with_metadata=True,
                                          include_comments=False)
        if doc is None:
            return dict.fromkeys(METRICS)
        out = doc if isinstance(doc, dict) else doc.as_dict()
        return {"title": out.get("title"), "content": out.get("text"),
                "published": out.get("date"), "author": out.get("author")}
    return run


# ----- scoring ------------------------------------------------------------------------------
def _right(metric: str, got: Any, want: Any) -> float:
    if metric == "content":
        return token_f1(str(got or ""), str(want))
    if metric == "published":
        day = parse_date(str(got or ""))
        return float(bool(day) and str(day)[:10] == str(want)[:10])
    accepted = want if isinstance(want, list) else [want]
    return float(matches(got, accepted) and bool(normalize(got)))


def score(extract: Extractor, cases: list[Case]) -> dict[str, float]:
    sums = dict.fromkeys(METRICS, 0.0)
    counts = dict.fromkeys(METRICS, 0)
    spent = 0.0
    with warnings.catch_warnings():  # warm up: lazy imports (scikit-learn...) are not timed
        warnings.simplefilter("ignore")
        extract(cases[0][0], cases[0][1])
    for html, url, truth in cases:
        started = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = extract(html, url)
        spent += time.perf_counter() - started
        for metric in METRICS:  # a field the extractor does not have is not scored
            if metric in truth and metric in got:
                sums[metric] += _right(metric, got.get(metric), truth[metric])
                counts[metric] += 1
    out = {m: sums[m] / counts[m] for m in METRICS if counts[m]}
    out["ms"] = 1000 * spent / max(len(cases), 1)
    return out


def table(title: str, cases: list[Case], extractors: dict[str, Extractor]) -> None:
    print(f"\n### {title} ({len(cases)} pages)\n")
    print("| extractor | title | content F1 | published | author | ms/page |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, extract in extractors.items():
        s = score(extract, cases)
        cells = [f"{s[m]:.1%}" if m in s and m != "content" else
                 (f"{s[m]:.3f}" if m in s else "–") for m in METRICS]
        print(f"| {name} | " + " | ".join(cells) + f" | {s['ms']:.1f} |")


# ----- data sets ----------------------------------------------------------------------------
def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as response:
        return str(response.read().decode("utf-8"))


def news_site(extractors: dict[str, Extractor]) -> None:
    """(a): every article of the news demo site, plus structurer's list-page figures."""
    site = NewsSite()
    with DemoServer([site]) as server:
        truth = site.ground_truth(server.urls["news"])
        htmls = {url: _get(url) for url in truth["pages"]}
    cases = [(htmls[url], url, {m: record[m] for m in METRICS})
             for url, record in truth["articles"].items()]
    table("news demo site: articles", cases, extractors)
    lexicon = load_lexicon("news")
    kinds, precision, recall = [], [], []
    for url, kind in truth["pages"].items():
        out = extract_page_generic(htmls[url], url, lexicon)
        kinds.append(out["kind"] == kind)
        if kind == "list":
            got = {item["url"] for item in out["items"]}
            want = set(truth["list_pages"][url]["items"])
            precision.append(len(got & want) / len(got) if got else 0.0)
            recall.append(len(got & want) / len(want))
    print(f"\nstructurer only: page kind {sum(kinds) / len(kinds):.1%} of {len(kinds)} pages; "
          f"main list precision {sum(precision) / len(precision):.1%}, recall "
          f"{sum(recall) / len(recall):.1%} on {len(recall)} list pages")


def fixtures(extractors: dict[str, Extractor]) -> None:
    """(b): tests/fixtures/news with expected.json."""
    folder = ROOT / "tests" / "fixtures" / "news"
    expected = json.loads((folder / "expected.json").read_text(encoding="utf-8"))
    cases = [((folder / name).read_text(encoding="utf-8"), f"http://news.example/{name}",
              {m: want[m] for m in METRICS}) for name, want in sorted(expected.items())]
    table("tests/fixtures/news", cases, extractors)


def _saved(path: Path) -> tuple[str, str]:
    body = read_saved(path)
    text, _ = decode_html(body, None)
    return text, base_href(body) or path.as_uri()


def corpora(folder: Path, swde_pages: int, extractors: dict[str, Extractor]) -> None:
    """(c): real pages of ../shared/corpora that carry a title (and author) truth."""
    swde = folder / "swde-book-christianbook"
    if swde.is_dir():
        titles, authors = read_truth(swde, "title"), read_truth(swde, "author")
        files = pages(swde)[:swde_pages or None]
        cases = []
        for path in files:
            page_id = path.name.split(".")[0]
            html, url = _saved(path)
            cases.append((html, url, {"title": titles[page_id], "author": authors[page_id]}))
        table("SWDE book/christianbook (real product pages; title, author)", cases, extractors)
    products = []
    scrapely = folder / "scrapely-samples"
    for n in (0, 1):
        html = scrapely / f"samples_scraper_loadstore_{n}.html"
        want = scrapely / f"samples_scraper_loadstore_{n}.json"
        if html.is_file() and want.is_file():
            name = json.loads(want.read_text(encoding="utf-8"))["name"]
            products.append((html.read_text(encoding="utf-8", errors="replace"),
                             f"http://icone.example/{n}", {"title": name}))
    extruct = folder / "extruct-product-samples"
    for file, name in (("misc__opengraph_ns_product_test.html",
                        "Better Off Dead [Exclusive Blu-ray Steelbook]"),
                       ("schema.org__product.html", "Executive Anvil")):
        if (extruct / file).is_file():
            products.append(((extruct / file).read_text(encoding="utf-8", errors="replace"),
                             f"http://extruct.example/{file}", {"title": name}))
    if products:
        table("other real product pages (scrapely Icône pair, extruct fye.com and schema.org "
              "snippet; name)", products, extractors)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--swde-pages", type=int, default=300,
                        help="SWDE pages to score (0: all 2,000)")
    add_corpora_option(parser)
    args = parser.parse_args()
    folder = optional_corpora(args, "the real-page tables")
    others = {"GNE": gne_extractor(), "trafilatura": trafilatura_extractor()}
    news = {"structurer (news)": structurer_extractor("news"),
            **{k: v for k, v in others.items() if v is not None}}
    news_site(news)
    fixtures(news)
    product = {"structurer (ecommerce)": structurer_extractor("ecommerce"), **news}
    if folder is not None:
        corpora(folder, args.swde_pages, product)
    return 0


if __name__ == "__main__":
    sys.exit(main())
