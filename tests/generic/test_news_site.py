"""Rule-free extraction on the news demo site, scored against its ground truth.

The site (structurer.demo.news) is served on 127.0.0.1; every list and plain page and
every second article (all three layouts, three languages, four ways of stating the
publish time) go through ``extract_page_generic`` with the shipped ``news`` lexicon.
The bars are issue 6's: title >= 98%, content token-F1 >= 0.9 (mean), publish date
>= 95%, page kind >= 95%, main-list precision and recall >= 95%.
"""

from __future__ import annotations

import collections
import hashlib
import json
import urllib.request
from typing import Any

import pytest

from structurer.clean import parse_html, visible_text
from structurer.cli import main
from structurer.demo import SHOP_CLASSES, DemoServer, all_shops
from structurer.demo.news import NewsSite
from structurer.demo.news.corpus import LAYOUTS, TIME_MODES
from structurer.generic.extract import extract_page_generic
from structurer.lexicon import load_lexicon
from tests.page.test_density import token_f1


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as response:
        return str(response.read().decode("utf-8"))


@pytest.fixture(scope="module")
def run() -> dict[str, Any]:
    """Truth and extraction results of the sampled pages, fetched over HTTP."""
    site = NewsSite()
    lexicon = load_lexicon("news")
    with DemoServer([site]) as server:
        truth = site.ground_truth(server.urls["news"])
        articles = list(truth["articles"])
        urls = [u for u, kind in truth["pages"].items() if kind != "detail"] + articles[::2]
        results = {url: extract_page_generic(_get(url), url, lexicon) for url in urls}
    return {"truth": truth, "results": results}


def _articles(run: dict[str, Any]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    truth = run["truth"]["articles"]
    return [(truth[url], out) for url, out in run["results"].items() if url in truth]


def _share(hits: list[bool]) -> float:
    return sum(hits) / len(hits)


def test_sample_covers_every_layout_language_and_time_mode(run: dict[str, Any]) -> None:
    seen = {(t["layout"], t["lang"]) for t, _ in _articles(run)}
    assert {layout for layout, _ in seen} == set(LAYOUTS)
    assert {lang for _, lang in seen} == {"en", "de", "zh"}
    assert {t["time_mode"] for t, _ in _articles(run)} == set(TIME_MODES)
    kinds = collections.Counter(run["truth"]["pages"][u] for u in run["results"])
    assert kinds["list"] == len(run["truth"]["list_pages"]) and kinds["other"] >= 3
    assert kinds["detail"] >= 80


def test_title_accuracy(run: dict[str, Any]) -> None:
    pairs = _articles(run)
    misses = [(t["title"], out["fields"].get("title")) for t, out in pairs
              if out["fields"].get("title") != t["title"]]
    assert 1 - len(misses) / len(pairs) >= 0.98, misses[:5]


def test_content_f1(run: dict[str, Any]) -> None:
    scores = {t["url"]: token_f1(out["fields"].get("content") or "", t["content"])
              for t, out in _articles(run)}
    mean = sum(scores.values()) / len(scores)
    worst = sorted(scores.items(), key=lambda kv: kv[1])[:3]
    assert mean >= 0.9, (mean, worst)
    # no layout may fall apart behind a good mean
    by_layout = collections.defaultdict(list)
    for t, _ in _articles(run):
        by_layout[t["layout"]].append(scores[t["url"]])
    assert all(sum(v) / len(v) >= 0.85 for v in by_layout.values()), by_layout


def test_content_leaves_comments_and_side_lists_out(run: dict[str, Any]) -> None:
    for t, out in _articles(run):
        content = out["fields"].get("content") or ""
        assert len(content) <= 1.2 * len(t["content"]), t["url"]


def test_published_accuracy(run: dict[str, Any]) -> None:
    pairs = _articles(run)
    misses = [(t["url"], t["time_mode"], t["published"], out["fields"].get("published"))
              for t, out in pairs
              if not str(out["fields"].get("published") or "").startswith(t["published"])]
    assert 1 - len(misses) / len(pairs) >= 0.95, misses[:5]


def test_published_keeps_the_time_of_day(run: dict[str, Any]) -> None:
    pairs = [(t, out) for t, out in _articles(run) if t["published_datetime"]]
    hits = [str(out["fields"].get("published") or "")[:16] == t["published_datetime"][:16]
            for t, out in pairs]
    assert _share(hits) >= 0.9


def test_author_accuracy(run: dict[str, Any]) -> None:
    hits = [out["fields"].get("author") == t["author"] for t, out in _articles(run)]
    assert _share(hits) >= 0.9


def test_page_classification(run: dict[str, Any]) -> None:
    pages = run["truth"]["pages"]
    wrong = [(u, pages[u], out["kind"]) for u, out in run["results"].items()
             if out["kind"] != pages[u]]
    assert 1 - len(wrong) / len(run["results"]) >= 0.95, wrong[:5]


def test_main_list_precision_and_recall(run: dict[str, Any]) -> None:
    precision, recall = [], []
    for url, page in run["truth"]["list_pages"].items():
        got = {item["url"] for item in run["results"][url]["items"]}
        want = set(page["items"])
        precision.append(len(got & want) / len(got) if got else 0.0)
        recall.append(len(got & want) / len(want))
    p, r = sum(precision) / len(precision), sum(recall) / len(recall)
    assert p >= 0.95 and r >= 0.95, (p, r)


# ----- the site itself ------------------------------------------------------------------------
def test_news_site_is_served_but_not_a_shop() -> None:
    assert NewsSite.name not in SHOP_CLASSES
    assert all(shop.name != NewsSite.name for shop in all_shops())


def test_pages_state_what_the_truth_says() -> None:
    site = NewsSite()
    truth = site.ground_truth("")
    for url, record in list(truth["articles"].items())[::9]:
        text = visible_text(parse_html(site.handle(url).body.decode()))
        assert record["title"] in text and record["author"] in text
        assert all(line in text for line in record["content"].splitlines())
    for url, page in truth["list_pages"].items():
        html = site.handle(url).body.decode()
        assert all(f'href="{item}"' in html for item in page["items"])
        assert page["next"] is None or f'href="{page["next"]}"' in html
    assert all(site.handle(url).status == 200 for url in truth["pages"])


def test_site_is_deterministic() -> None:
    def digest(site: NewsSite) -> str:
        paths = sorted(site.routes)[::11]
        return hashlib.sha256(b"".join(site.handle(p).body for p in paths)).hexdigest()

    assert digest(NewsSite()) == digest(NewsSite())
    assert digest(NewsSite(seed=8)) != digest(NewsSite())


def test_cli_prints_the_news_truth(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "truth", "news", "--base-url", "http://127.0.0.1:9"]) == 0
    truth = json.loads(capsys.readouterr().out)
    assert truth["site"] == "news" and len(truth["articles"]) == len(NewsSite().articles)
    assert set(truth["pages"].values()) == {"list", "detail", "other"}
