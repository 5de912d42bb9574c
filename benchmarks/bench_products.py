"""Rule-free product pages: ``extract-page`` (ecommerce) against known truth, one run.

Input: (a) the shop zoo's pages, answered in process (no server): per seed a sample of
static detail pages (a client-rendered detail level is skipped: extract-page reads the
page as given) and of list pages; development seeds and unseen seeds are scored apart
(the held-out half); (b) the real product pages of ``--corpora`` with truth: scrapely's
and Portia's annotated pages (name, price, item number), Portia's cs-cart template (the
item its spider extracted), extruct's fye.com page (its OpenGraph product data, as a
shopper sees it on the page) and schema.org Product snippets (plain, microdata, itemref), SWDE
christianbook pages (kind and title only), and the list pages of ``ieps-list-pages``
(kind only). Output: per set, page-kind accuracy and per field precision / recall / F1
(a value counts when it equals the truth; a wrong value is a false positive and a miss),
then, for the zoo's development seeds, the F1 per value of the axes that shape a detail
page, and with ``--misses`` the first wrong values.

    python benchmarks/bench_products.py [--seeds 0-39] [--unseen 10000-10019]
        [--details 6] [--lists 2] [--corpora DIR] [--misses N]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from html import unescape
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.corpora import add_corpora_option, optional_corpora  # noqa: E402
from benchmarks.swde import pages, read_truth  # noqa: E402
from structurer.clean import decode_html  # noqa: E402
from structurer.demo.zoo import ZooShop, parse_seeds  # noqa: E402
from structurer.fetch.replay import base_href, read_saved  # noqa: E402
from structurer.generic.extract import extract_page_generic  # noqa: E402
from structurer.lexicon import Lexicon, load_lexicon  # noqa: E402

FIELDS = ("name", "price", "sku", "availability")
DETAIL_AXES = ("related", "structured", "title", "price_markup", "oos_price", "old_price",
               "price_extras", "stock", "id_markup", "id_label", "locale")
#: (label, html, url, truth); truth has "kind" and the fields scored on this page
Case = tuple[str, str, str, dict[str, Any]]


# ----- the zoo ------------------------------------------------------------------------------
def _spread(items: list[Any], n: int) -> list[Any]:
    """``n`` items evenly spread over ``items`` (all when fewer)."""
    if len(items) <= n:
        return items
    return [items[i * len(items) // n] for i in range(n)]


def zoo_cases(seed: int, details: int, lists: int) -> Iterator[Case]:
    shop = ZooShop(seed)
    base = "http://127.0.0.1:8200"
    truth = shop.ground_truth(base)
    by_url = {p["url"]: p for p in truth["products"]}
    wanted: list[tuple[str, dict[str, Any]]] = []
    if shop.axes["detail_render"] == "static":
        for url in _spread(sorted(truth["detail_pages"]), details):
            product = by_url[url]
            wanted.append((url, {"kind": "detail", **{f: product[f] for f in FIELDS}}))
    if shop.axes["list_render"] == "static":
        for url in _spread(sorted(truth["list_pages"]), lists):
            wanted.append((url, {"kind": "list"}))
    for url, want in wanted:
        path = url[len(base):]
        response = shop.handle_request(path, {"host": "127.0.0.1:8200"})
        if response.status != 200:      # a page that fails on its first hit
            response = shop.handle_request(path, {"host": "127.0.0.1:8200"})
        html = decode_html(response.body, response.content_type)[0]
        yield f"zoo-{seed} {path}", html, url, want


# ----- the corpora --------------------------------------------------------------------------
_ANNOTATION = re.compile(rb'\sdata-scrapy-annotate="[^"]*"')
_RENAMED = {"aaaa-aaaa": "price", "product_id": "sku"}   # Portia's project field names


def _annotated(body: bytes) -> dict[str, str]:
    from lxml import html as lxml_html

    out: dict[str, str] = {}
    for el in lxml_html.fromstring(body).xpath("//*[@data-scrapy-annotate]"):
        for attr, name in (json.loads(el.get("data-scrapy-annotate")).get("annotations")
                           or {}).items():
            value = el.text_content() if attr == "content" else el.get(attr)
            out.setdefault(_RENAMED.get(name, name), " ".join((value or "").split()))
    return out


def _money(text: str) -> float | None:
    from structurer.values import parse_money

    amount = parse_money(text).amount
    return float(amount) if amount is not None else None


def corpus_cases(folder: Path, swde: int) -> Iterator[Case]:
    scrapely = folder / "scrapely-samples"
    for name in ("samples_pageparsing_0", "samples_htmlpage_0", "samples_htmlpage_1"):
        body = (scrapely / f"{name}.html").read_bytes()
        truth = _annotated(body)
        yield _case(name, _ANNOTATION.sub(b"", body), "http://shop.example/item", truth)
    for n in (0, 1):
        page = scrapely / f"samples_scraper_loadstore_{n}.html"
        truth = json.loads(page.with_suffix(".json").read_text(encoding="utf-8"))
        yield _case(page.stem, page.read_bytes(), "http://shop.example/item", truth)
    portia = folder / "portia-slybot-fixtures" / "extracted_html"
    for page in sorted(portia.glob("*seedsofchange*annotated_body.html")):
        truth = _annotated(page.read_bytes())
        original = portia / page.name.replace("annotated_body", "original_body")
        if "name" in truth:
            yield _case(page.name.split(".")[0], original.read_bytes(),
                        "http://www.seedsofchange.com/item", truth)
        else:
            yield (page.name.split(".")[0], decode_html(original.read_bytes(), None)[0],
                   "http://www.seedsofchange.com/list", {"kind": "list"})
    yield _portia_item(portia.parent / "raw" / "templates" / "cs-cart.json")
    extruct = folder / "extruct-product-samples"
    fye = extruct / "misc__opengraph_ns_product_test.html"
    yield (fye.stem, fye.read_text(encoding="utf-8", errors="replace"),
           "https://www.fye.com/better-off-dead.html",
           {"kind": "detail", "name": "Better Off Dead [Exclusive Blu-ray Steelbook]",
            "price": 17.99, "availability": "in_stock"})
    # the schema.org Product snippet, in microdata, and with itemref (its properties and
    # the products it refers to placed apart)
    for name in ("schema.org__product", "misc__product_microdata", "schema.org__product-ref"):
        snippet = extruct / f"{name}.html"
        yield (snippet.stem, snippet.read_text(encoding="utf-8", errors="replace"),
               "http://extruct.example/anvil", {"kind": "detail", "name": "Executive Anvil",
                                                "price": 119.99, "availability": "in_stock"})
    books = folder / "swde-book-christianbook"
    titles = read_truth(books, "title")     # HTML-escaped in SWDE's files ("&nbsp;Do ...")
    for path in pages(books)[:swde]:
        body = read_saved(path)
        want = {"kind": "detail", "name": unescape(titles[path.name.split(".")[0]][0])}
        yield (f"swde {path.name}", decode_html(body, None)[0], base_href(body) or path.as_uri(),
               want)
    for path in sorted((folder / "ieps-list-pages").glob("*/*.html")):
        yield (f"ieps {path.parent.name}/{path.name}",
               decode_html(path.read_bytes(), None)[0], f"http://{path.parent.name}/list",
               {"kind": "list"})


def _portia_item(path: Path) -> Case:
    """A Portia template's page with the item its spider extracted (name, price, SKU; its
    stock text, "In stock", under an unnamed field)."""
    template = json.loads(path.read_text(encoding="utf-8"))
    item = template["results"][0]
    label, html, url, want = _case(f"portia {path.stem}", template["original_body"].encode(),
                                   template["url"], {f: item[f][0] for f in ("name", "price",
                                                                            "sku")})
    if any(v == ["In stock"] for v in item.values()):
        want["availability"] = "in_stock"
    return label, html, url, want


def _case(label: str, body: bytes, url: str, truth: dict[str, str]) -> Case:
    want: dict[str, Any] = {"kind": "detail", "name": truth.get("name")}
    if truth.get("price"):
        want["price"] = _money(truth["price"])
    if truth.get("sku"):
        want["sku"] = truth["sku"]
    return label, decode_html(body, None)[0], url, want


# ----- scoring ------------------------------------------------------------------------------
def _norm(value: Any) -> str:
    return " ".join(str(value).split()).casefold()


def right(field: str, got: Any, want: Any) -> bool:
    if field == "price":
        return got is not None and want is not None and abs(float(got) - float(want)) < 0.005
    return _norm(got) == _norm(want)


class Score:
    """Kind accuracy and per-field true/false positives and misses."""

    def __init__(self) -> None:
        self.kinds = [0, 0]
        self.counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])   # tp, fp, fn
        self.misses: list[str] = []
        self.seconds = 0.0

    def add(self, label: str, out: dict[str, Any], want: dict[str, Any]) -> None:
        self.kinds[0] += out["kind"] == want["kind"]
        self.kinds[1] += 1
        if out["kind"] != want["kind"]:
            self.misses.append(f"{label}: kind {out['kind']} (truth {want['kind']})")
        for field in FIELDS:
            if field not in want:
                continue
            got, truth = out["fields"].get(field), want[field]
            c = self.counts[field]
            ok = got is not None and truth is not None and right(field, got, truth)
            c[0] += ok
            c[1] += got is not None and not ok
            c[2] += truth is not None and not ok
            if not ok and (got is not None or truth is not None):
                self.misses.append(f"{label}: {field} {got!r} (truth {truth!r}, "
                                   f"{out['sources'].get(field)})")

    def f1(self, field: str) -> tuple[float, float, float] | None:
        tp, fp, fn = self.counts.get(field, (0, 0, 0))
        if tp + fp + fn == 0:
            return None
        p = tp / (tp + fp) if tp + fp else 1.0
        r = tp / (tp + fn) if tp + fn else 1.0
        return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def run(cases: Iterator[Case], lexicon: Lexicon, score: Score,
        by_axis: dict[tuple[str, str], Score] | None = None) -> None:
    for label, html, url, want in cases:
        started = time.process_time()
        out = extract_page_generic(html, url, lexicon)
        score.seconds += time.process_time() - started
        score.add(label, out, want)
        if by_axis is not None and label.startswith("zoo-") and want["kind"] == "detail":
            axes = ZooShop(int(label.split()[0][4:])).axes
            for axis in DETAIL_AXES:
                by_axis[(axis, axes[axis])].add(label, out, want)


def row(name: str, s: Score) -> str:
    cells = []
    for field in FIELDS:
        f = s.f1(field)
        cells.append("–" if f is None else f"{f[2]:.3f} ({f[0]:.2f}/{f[1]:.2f})")
    kind = s.kinds[0] / s.kinds[1] if s.kinds[1] else 0.0
    ms = 1000 * s.seconds / max(s.kinds[1], 1)
    return f"| {name} | {s.kinds[1]} | {kind:.1%} | " + " | ".join(cells) + f" | {ms:.0f} |"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", default="0-39", help="development seeds of the zoo")
    parser.add_argument("--unseen", default="10000-10019", help="held-out seeds ('' for none)")
    parser.add_argument("--details", type=int, default=6, help="detail pages per shop")
    parser.add_argument("--lists", type=int, default=2, help="list pages per shop")
    parser.add_argument("--swde", type=int, default=40, help="SWDE pages (kind only)")
    parser.add_argument("--misses", type=int, default=0, help="print the first N wrong values")
    add_corpora_option(parser)
    args = parser.parse_args()
    lexicon = load_lexicon("ecommerce")
    sets: dict[str, Score] = {}
    by_axis: dict[tuple[str, str], Score] = defaultdict(Score)
    for name, seeds in (("zoo development seeds", args.seeds), ("zoo unseen seeds", args.unseen)):
        if seeds:
            sets[f"{name} {seeds}"] = score = Score()
            for seed in parse_seeds(seeds):
                run(zoo_cases(seed, args.details, args.lists), lexicon, score,
                    by_axis if name.endswith("development seeds") else None)
    folder = optional_corpora(args, "the real product pages")
    if folder is not None:
        sets["real pages (corpora)"] = score = Score()
        run(corpus_cases(folder, args.swde), lexicon, score)
    print("| set | pages | kind | name F1 (P/R) | price F1 (P/R) | sku F1 (P/R) "
          "| availability F1 (P/R) | ms/page |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, score in sets.items():
        print(row(name, score))
    print("\nzoo development seeds, detail pages, per axis value:\n")
    print("| axis=value | pages | kind | name | price | sku | availability | ms/page |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for (axis, value), score in sorted(by_axis.items()):
        print(row(f"{axis}={value}", score))
    if args.misses:
        print("\nwrong values:")
        for name, score in sets.items():
            for line in score.misses[:args.misses]:
                print(f"  [{name}] {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
