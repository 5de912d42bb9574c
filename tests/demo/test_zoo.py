"""The shop zoo as a generator: deterministic, varied along independent axes, and apart.

Checked here: a seed always gives byte-identical pages and truth; seeds 0-199 hold
every axis value several times and combine axes independently (every pair of values
that independence expects at least 8 times occurs; none is far off); unseen seeds
(10000+) come from the same generator; the size bounds of every shop; the session
behaviours over HTTP (cookies need the demo server to pass request headers); the
command line; and that nothing outside ``structurer.demo`` imports the zoo.
"""

from __future__ import annotations

import html
import http.cookiejar
import importlib.util
import json
import re
import urllib.request
from collections import Counter
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

from structurer.cli import main
from structurer.demo import DemoServer
from structurer.demo.zoo import AXES, MEANING, ZooShop, axes_of_seed, parse_seeds
from structurer.demo.zoo.axes import EXCLUDED, excluded
from structurer.demo.zoo.words import WORDS
from tests.demo.helpers import fetch

DEV = [axes_of_seed(seed) for seed in range(200)]
PACKAGE = Path(__file__).resolve().parents[2] / "structurer"


def _seed_with(**want: str) -> int:
    """The first development seed whose shop has these axis values."""
    return next(s for s, axes in enumerate(DEV) if all(axes[k] == v for k, v in want.items()))


def _pairs_excluded(a: str, va: str, b: str, vb: str) -> bool:
    return ((a, va), (b, vb)) in EXCLUDED or ((b, vb), (a, va)) in EXCLUDED


# ----- the generator ------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [_seed_with(list_render="client", detail_render="client"),
                                  _seed_with(list_render="json_grid", encoding="legacy"),
                                  _seed_with(session="recently_viewed"), 10007])
def test_same_seed_gives_identical_pages_and_truth(seed: int) -> None:
    one, two = ZooShop(seed), ZooShop(seed)
    assert one.axes == two.axes
    assert one.ground_truth("http://h:1") == two.ground_truth("http://h:1")
    truth = one.ground_truth("")
    paths = [*one.routes, "/robots.txt", *truth["endpoints"].values(),
             one.zoo.urls.api_view(next(iter(truth["detail_pages"])))]
    for path in paths:
        a, b = one.handle(path), two.handle(path)
        assert (a.status, a.content_type, a.body) == (b.status, b.content_type, b.body), path
    other = ZooShop(seed + 1)
    assert other.handle("/").body != one.handle("/").body


def test_every_axis_value_occurs_several_times() -> None:
    for name, axis in AXES.items():
        counts = Counter(axes[name] for axes in DEV)
        assert set(counts) == {v for v, _ in axis}, name
        assert min(counts.values()) >= 3, (name, counts)
        assert name in MEANING


def test_axes_combine_independently() -> None:
    """Every value pair that independence expects >= 8 times in 200 draws occurs, and none
    occurs at under a third or over three times what independence expects (>= 20)."""
    n = len(DEV)
    checked = 0
    for a, b in combinations(AXES, 2):
        ca, cb = Counter(d[a] for d in DEV), Counter(d[b] for d in DEV)
        both = Counter((d[a], d[b]) for d in DEV)
        for va in ca:
            for vb in cb:
                expected = ca[va] * cb[vb] / n
                if _pairs_excluded(a, va, b, vb):
                    assert both[va, vb] == 0, (a, va, b, vb)
                    continue
                if expected >= 8:
                    checked += 1
                    assert both[va, vb] > 0, (a, va, b, vb, expected)
                if expected >= 20:
                    assert expected / 3 <= both[va, vb] <= 3 * expected, (a, va, b, vb)
    assert checked > 3000


def test_unseen_seeds_come_from_the_same_generator() -> None:
    unseen = [axes_of_seed(seed) for seed in range(10000, 10200)]
    for name, axis in AXES.items():
        assert {d[name] for d in unseen} == {v for v, _ in axis}, name
    assert not any(excluded(d) for d in unseen)
    assert unseen != DEV


@pytest.mark.parametrize("seed", [*range(0, 200, 9), 10000, 10199])
def test_shop_size_and_shape(seed: int) -> None:
    truth = ZooShop(seed).ground_truth("http://h")
    tops = [c for c in truth["categories"] if c["parent"] is None]
    assert 2 <= len(tops) <= 3
    for top in tops:
        children = [c for c in truth["categories"] if c["parent"] == top["slug"]]
        assert 2 <= len(children) <= 4
    assert 40 <= len(truth["products"]) <= 200
    assert any(len(c["pages"]) >= 2 for c in truth["categories"] if c["lists_products"])
    listed = {i["url"] for page in truth["list_pages"].values() for i in page["items"]}
    assert listed == set(truth["detail_pages"]), "every product is on a list page"
    assert len({p["sku"] for p in truth["products"]}) == len(truth["products"])
    for page in truth["list_pages"].values():
        assert 1 <= len(page["items"]) <= 24


@pytest.mark.parametrize("seed", [s for s in [*range(40), *range(10000, 10020)]
                                  if axes_of_seed(s)["discovery"] == "breadcrumbs_only"])
def test_breadcrumb_only_categories_are_reachable(seed: int) -> None:
    """Where only product breadcrumbs link sub-categories, every leaf category has a
    product the home page shows (else no crawler could find the category)."""
    shop = ZooShop(seed)
    truth = shop.ground_truth("http://h")
    by_id = {p["id"]: tuple(p["category"]) for p in truth["products"]}
    shown = {by_id[item.id] for item in shop.zoo.featured()}
    assert {tuple(c["path"]) for c in truth["categories"] if c["leaf"]} <= shown
    if shop.axes["list_render"] == "static":       # and its HTML links them
        shop.handle("/")                              # a "first request fails" shop
        home = html.unescape(shop.handle("/").body.decode("latin-1"))
        assert all(f'href="{p["url"].removeprefix("http://h")}"' in home
                   for p in truth["products"] if p["id"] in {i.id for i in shop.zoo.featured()})


def test_parse_seeds() -> None:
    assert parse_seeds("0-3,10,2") == [0, 1, 2, 3, 10]
    for bad in ("x", "5-2", "1-", ""):
        with pytest.raises(ValueError):
            parse_seeds(bad)


def test_every_language_has_every_phrase() -> None:
    keys = set(WORDS["en"])
    for lang, words in WORDS.items():
        assert set(words) == keys, lang


# ----- sessions over HTTP -------------------------------------------------------------------------
def test_recently_viewed_follows_the_cookie_over_http() -> None:
    shop = ZooShop(_seed_with(session="recently_viewed", detail_render="static"))
    with DemoServer([shop]) as server:
        truth = shop.ground_truth(server.urls[shop.name])
        first, second = truth["products"][0], truth["products"][1]
        opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        with opener.open(first["url"], timeout=10) as response:
            assert "recently_viewed=" in response.headers["Set-Cookie"]
        with opener.open(second["url"], timeout=10) as response:
            page = response.read().decode("utf-8", "replace")
        fresh = fetch(second["url"])[2].decode("utf-8", "replace")
    recent = shop.zoo.t("recent")
    assert recent in page and first["name"] in page.split(recent, 1)[1]
    assert recent not in fresh, "without the cookie there is nothing recently viewed"


def test_first_request_of_a_page_fails_once() -> None:
    shop = ZooShop(_seed_with(session="first_500"))
    with DemoServer([shop]) as server:
        truth = shop.ground_truth(server.urls[shop.name])
        url = truth["products"][0]["url"]
        assert fetch(url)[0] == 500
        assert fetch(url)[0] == 200
        assert fetch(truth["base_url"] + "/robots.txt")[0] == 200, "robots.txt never fails"
    assert shop.requests.count(url[len(truth["base_url"]):]) == 2


# ----- the command line ----------------------------------------------------------------------------
def test_cli_lists_seeds_with_their_axes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "zoo", "list", "--seeds", "3-5"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [int(line.split()[0]) for line in lines] == [3, 4, 5]
    for seed, line in zip((3, 4, 5), lines, strict=True):
        assert all(f"{k}={v}" in line for k, v in axes_of_seed(seed).items())


def test_cli_truth_and_bad_seeds(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "zoo", "truth", "12", "--base-url", "http://127.0.0.1:9"]) == 0
    truth = json.loads(capsys.readouterr().out)
    assert truth["seed"] == 12 and truth["axes"] == axes_of_seed(12)
    assert truth["products"][0]["url"].startswith("http://127.0.0.1:9/")
    assert main(["demo", "zoo", "truth", "1-x"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "bad seed range '1-x'" in err
    assert main(["demo", "truth", "zoo-12", "--base-url", "http://127.0.0.1:9"]) == 0
    assert json.loads(capsys.readouterr().out) == truth


# ----- the benchmark's measure -----------------------------------------------------------------------
def _bench() -> Any:
    path = PACKAGE.parent / "benchmarks" / "bench_zoo.py"
    spec = importlib.util.spec_from_file_location("bench_zoo", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_benchmark_scores_records_against_the_truth() -> None:
    shop = ZooShop(_seed_with(urls="query", list_render="json_grid"))
    truth = shop.ground_truth("http://h:1")
    first, second = truth["products"][0], truth["products"][1]
    # a crawler may sort query parameters; one record is wrong in price, one is no product
    right = {**first, "url": re.sub(r"\?(.*)", lambda m: "?" + "&".join(
        sorted(m.group(1).split("&"))), first["url"])}
    wrong = {**second, "price": (second["price"] or 0) + 1}
    pages = list(truth["list_pages"])
    asked = [pages[0].removeprefix("http://h:1"),
             truth["endpoints"][pages[1]].removeprefix("http://h:1")]
    result = _bench().score(truth, [right, wrong, {"url": "http://h:1/pages/about"}], asked)
    assert (result["truth"], result["records"], result["matched"]) == (
        len(truth["products"]), 3, 2)
    assert result["list_reached"] == 2 and result["list_pages"] == len(pages)
    assert result["fields"]["name"] == 2 and result["fields"]["sku"] == 2
    assert result["fields"]["price"] == 1
    assert result["misses"]["price"] == [{"url": second["url"], "got": wrong["price"],
                                          "want": second["price"]}]


def test_benchmark_scores_the_category_pages_render_mode() -> None:
    """The category level is scored too, on its pages beyond the start page: a level
    that needs a browser for the start page's script-built menu alone reads static
    category pages; a shop whose category pages are app shells wants a browser."""
    from structurer.rules import rules_from_text
    from tests.conftest import rule_text

    bench = _bench()
    levels = """
      category:
        link_xpath: //nav//a
        render: {{mode: browser, entry_only: {}}}
      list:
        item_xpath: //ul/li
        fields:
          name: {{xpath: ./a, kind: text}}
    """
    pages = [bench._category_pages(rules_from_text(rule_text("h", levels.format(only))))
             for only in ("true", "false")]
    assert pages == ["static", "browser"]
    static = ZooShop(_seed_with(list_render="static")).ground_truth("")["render"]
    client = ZooShop(_seed_with(list_render="client")).ground_truth("")["render"]
    shops = [{"category_pages": "static", "render": {"list": "static"}, "truth_render": static},
             {"category_pages": "static", "render": {"list": "browser"}, "truth_render": client}]
    assert [bench._render_right(shops, level) for level in ("category", "list")] == [0.5, 1.0]


def test_nothing_outside_demo_imports_the_zoo() -> None:
    importers = []
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(PACKAGE).as_posix()
        if rel.startswith("demo/") or rel == "cli/demo.py":
            continue
        if re.search(r"structurer\.demo\.zoo|demo\s+import\s+zoo", path.read_text("utf-8")):
            importers.append(rel)
    assert importers == []
