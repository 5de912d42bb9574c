"""A shop that misbehaves in every way a crawler meets: 5xx bursts, a timeout, 429 with
Retry-After, a truncated body, redirect loops, an endless calendar, a 50 MB page, wrong
charset headers, a robots.txt ban. The crawl finishes, collects every reachable product,
keeps retries bounded and counts every failure."""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import ClassVar

import pytest

from structurer.config import Settings
from structurer.crawler.engine import crawl_site
from structurer.errors import RenderTimeout
from structurer.fetch.base import Page
from structurer.fetch.http import HttpFetcher, RetryPolicy
from structurer.rules import rules_from_text
from tests.conftest import rule_text
from tests.server import LoopbackServer, send

MENU = ('<nav class="menu"><a href="/c/gear/">Gear</a><a href="/c/events/">Events</a>'
        '<a href="/c/loop/">Loop</a><a href="/private/">Private</a></nav>')
NAMES = {1: "Trail Flask", 2: "Camp Stove", 3: "Rain Shell", 4: "Head Torch", 5: "Dry Bag",
         6: "Crème Brûlée Pan", 7: "电饭煲 Rice Cooker", 8: "Broken Tent", 9: "Loop Boots",
         10: "Giant Page Tarp", 11: "Missing Mug", 12: "Calendar Compass"}
PAGES = {"/c/gear/": ([1, 2, 3, 4], "/c/gear/?page=2"),
         "/c/gear/?page=2": ([5, 6, 7, 8], "/c/gear/?page=3"),
         "/c/gear/?page=3": ([9, 10, 11], None)}
ROBOTS = b"User-agent: *\nDisallow: /private/\n"
RULES = rule_text("127.0.0.1:{port}", """
  category:
    link_xpath: //nav[@class='menu']//a
  list:
    item_xpath: //ul[@class='products']/li
    detail_link_xpath: ./a[@class='name']
    pagination: {{next_xpath: "//a[@rel='next']"}}
    fields:
      name: {{xpath: "./a[@class='name']", kind: text}}
      price: {{xpath: ".//span[@class='price']", kind: money}}
  detail:
    fields:
      name: {{xpath: //h1, kind: text}}
      price: {{xpath: "//span[@class='price']", kind: money}}
      sku: {{xpath: "//span[@class='sku']", kind: text}}
      breadcrumb: {{xpath: "//nav[@class='crumbs']/a", kind: breadcrumb, multiple: true}}
""")


def _price(n: int) -> str:
    return f"${n * 10}.50"


def _list(ids: list[int], next_url: str | None) -> str:
    items = "".join(f'<li><a class="name" href="/p/{n}.html">{NAMES[n]}</a>'
                    f'<span class="price">{_price(n)}</span></li>' for n in ids)
    nxt = f'<a rel="next" href="{next_url}">next</a>' if next_url else ""
    return f"<html><body>{MENU}<ul class='products'>{items}</ul>{nxt}</body></html>"


def _detail(n: int, charset: str = "") -> str:
    meta = f'<meta charset="{charset}">' if charset else ""
    return (f"<html><head>{meta}<title>{NAMES[n]}</title></head><body>{MENU}"
            f'<nav class="crumbs"><a href="/">Home</a><a href="/c/gear/">Gear</a></nav>'
            f"<h1>{NAMES[n]}</h1><span class='price'>{_price(n)}</span>"
            f"<span class='sku'>SKU-{n}</span></body></html>")


def _faulty(h: BaseHTTPRequestHandler, server: LoopbackServer) -> None:
    """Every path of the faulty shop; ``server.counts`` tells the how-manieth request."""
    path = h.path
    hit = server.counts[path]
    if path == "/robots.txt":
        return send(h, 200, ROBOTS, content_type="text/plain")
    if path == "/":
        return send(h, 200, f"<html><body>{MENU}<h1>Home</h1></body></html>")
    if path in PAGES:
        if path == "/c/gear/?page=2" and hit <= 2:       # a burst of 503s
            return send(h, 503, b"busy")
        return send(h, 200, _list(*PAGES[path]))
    if path == "/c/events/" or path.startswith("/cal/"):  # an endless calendar
        month = int(path.strip("/").split("/")[-1]) if path.startswith("/cal/") else 0
        return send(h, 200, _list([12], f"/cal/2026/{month + 1}/"))
    if path in ("/c/loop/", "/c/loop2/", "/p/9.html", "/p/9b.html"):
        target = {"/c/loop/": "/c/loop2/", "/c/loop2/": "/c/loop/",
                  "/p/9.html": "/p/9b.html", "/p/9b.html": "/p/9.html"}[path]
        return send(h, 302, b"", {"Location": target})
    if not path.startswith("/p/"):
        return send(h, 404, b"not here")
    return _product(h, int(path[3:].split(".")[0]), hit)


def _product(h: BaseHTTPRequestHandler, n: int, hit: int) -> None:
    if n == 2 and hit <= 2:
        return send(h, 500, b"oops")
    if n == 3 and hit == 1:
        return send(h, 429, b"slow down", {"Retry-After": "1"})
    if n == 4 and hit == 1:
        time.sleep(1.5)  # longer than the crawl's timeout
    if n == 5 and hit == 1:                              # cut short mid-body
        h.send_response(200)
        h.send_header("Content-Type", "text/html; charset=utf-8")
        h.send_header("Content-Length", "5000")
        h.end_headers()
        h.wfile.write(_detail(5).encode()[:100])
        h.close_connection = True
        return None
    if n == 6:                                           # UTF-8 sent as Latin-1
        return send(h, 200, _detail(6), content_type="text/html; charset=iso-8859-1")
    if n == 7:                                           # GBK sent as UTF-8
        return send(h, 200, _detail(7, "gbk").encode("gbk"))
    if n == 8:
        return send(h, 503, b"down for good")
    if n == 10:                                          # 50 MB, no Content-Length
        h.send_response(200)
        h.send_header("Content-Type", "text/html")
        h.send_header("Transfer-Encoding", "chunked")
        h.end_headers()
        chunk = b"<p>" + b"x" * 65_530 + b"</p>"
        for _ in range(50 * 1024 * 1024 // len(chunk)):
            h.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        h.wfile.write(b"0\r\n\r\n")
        return None
    if n == 11:
        return send(h, 404, b"gone")
    return send(h, 200, _detail(n))


@pytest.fixture
def faulty() -> Iterator[tuple[str, Counter[str]]]:
    with LoopbackServer(fallback=_faulty) as server:
        yield f"127.0.0.1:{server.port}", server.counts


def test_crawl_survives_a_faulty_shop(faulty: tuple[str, Counter[str]], tmp_path: Path) -> None:
    site, hits = faulty
    rules = rules_from_text(RULES.format(port=site.split(":")[1]), "faulty.yaml")
    settings = Settings(timeout=1.0, retries=2, concurrency=4, per_host_concurrency=4,
                        max_pages_per_pattern=10)
    fast = RetryPolicy(backoff=0.05, max_retry_after=2.0)
    started = time.monotonic()
    result = crawl_site(rules, tmp_path / "out.jsonl", settings,
                        factory=lambda mode, s: HttpFetcher(s, retry=fast))
    assert time.monotonic() - started < 30
    records = {r["name"]: r for r in
               (json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines())}
    # every product on a reachable list page, exactly once, with the right price
    assert sorted(records) == sorted(NAMES.values())
    assert len((tmp_path / "out.jsonl").read_text().splitlines()) == len(NAMES)
    for n, name in NAMES.items():
        assert records[name]["price"] == n * 10 + 0.5
        assert records[name]["url"] == f"http://{site}/p/{n}.html"
    # transient faults healed: those products have their detail fields; encodings right
    for n in (1, 2, 3, 4, 5, 6, 7, 12):
        assert records[NAMES[n]]["sku"] == f"SKU-{n}", NAMES[n]
    assert records["Crème Brûlée Pan"]["category"] == ["Gear"]
    # permanent faults: list data only, each failure counted by kind
    for n in (8, 9, 10, 11):
        assert records[NAMES[n]]["sku"] is None
    stats = json.loads(result.stats_path.read_text())
    assert stats["failures"] == {"http 503": 1, "redirects": 2, "too_large": 1, "http 404": 1}
    assert stats["skipped"]["robots"] == 1
    assert stats["records"] == len(NAMES) and stats["requeued"] == settings.crawl_retries
    # retries are bounded: the page that always fails was asked (retries + 1) times per
    # visit, and visited 1 + crawl_retries times; the endless calendar stopped at its first
    # month, whose items repeat the page before (the per-pattern cap is test_crawl_guards')
    assert hits["/p/8.html"] == (settings.retries + 1) * (1 + settings.crawl_retries)
    assert hits["/c/gear/?page=2"] == 3 and hits["/p/2.html"] == 3 and hits["/p/3.html"] == 2
    assert stats["retries"] >= 2 + 2 + 1 + 1 + 1 + 2 * 3
    calendar = sum(n for p, n in hits.items() if p.startswith("/cal/"))
    assert calendar == 1
    assert "/private/" not in hits
    assert result.finished




def test_a_page_past_the_rules_time_budget_is_one_named_failure(
        tiny_site: object, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A rule that is quadratic on a huge list stops at the page's time budget: the page
    counts as ``rule_timeout`` (not a parse error), logged once naming the rule."""
    items = "".join(f"<li><b>Item {i}</b></li>" for i in range(40_000))
    base = tiny_site({"/": f"<html><body><ul>{items}</ul></body></html>"})  # type: ignore[operator]
    site = base.split("//")[1]
    rules = rules_from_text(rule_text(site, """
  list:
    item_xpath: //ul/li
    fields:
      name: {xpath: ./b, kind: text}
      rank: {xpath: 'count(following-sibling::li)', kind: integer}
"""))
    started = time.process_time()   # CPU: the budget is CPU time, a loaded machine waits
    with caplog.at_level("WARNING", logger="structurer"):
        result = crawl_site(rules, tmp_path / "o.jsonl", Settings())
    assert time.process_time() - started < 20     # the whole quadratic rule costs minutes
    assert dict(result.stats.failures) == {"rule_timeout": 1}
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert len(warnings) == 1 and "levels.list.fields.rank.xpath" in warnings[0]
    assert warnings[0].count(base) == 1


def test_the_rules_time_budget_is_a_setting(tiny_site: object, tmp_path: Path) -> None:
    """The same page is read within the default budget (2 s) and given up past a budget
    set to 1 ms (``-s rule_budget=0.001``)."""
    items = "".join(f"<li><b>Item {i}</b></li>" for i in range(1000))
    base = tiny_site({"/": f"<html><body><ul>{items}</ul></body></html>"})  # type: ignore[operator]
    rules = rules_from_text(rule_text(base.split("//")[1], """
  list:
    item_xpath: //ul/li
    fields:
      name: {xpath: ./b, kind: text}
      rank: {xpath: 'count(following-sibling::li)', kind: integer}
"""))
    assert Settings().rule_budget == 2.0
    result = crawl_site(rules, tmp_path / "a.jsonl", Settings())
    assert dict(result.stats.failures) == {} and result.stats.items == 1000
    result = crawl_site(rules, tmp_path / "b.jsonl", Settings(rule_budget=0.001))
    assert dict(result.stats.failures) == {"rule_timeout": 1}


def test_a_guessed_page_past_a_full_last_page_is_not_a_failure(
        tiny_site: Callable[[dict[str, str]], str], tmp_path: Path) -> None:
    """A pattern pager guesses the page after a full one: when the last page was exactly
    full, the guess answers 404, which ends the category (skipped), and a real broken
    product page is still a failure."""
    def grid(ids: list[int]) -> str:
        items = "".join(f"<li><a href='/p/{i}.html'>P{i}</a></li>" for i in ids)
        return f"<html><body><ul class='products'>{items}</ul></body></html>"

    pages: dict[str, str] = {}
    base = tiny_site(pages)
    pages.update({"/": "<html><body><nav class='menu'><a href='/c/a/'>A</a></nav></body></html>",
                  "/c/a/": grid([1, 2]), "/c/a/?page=2": grid([3, 4]),
                  **{f"/p/{i}.html": f"<html><body><h1>P{i}</h1></body></html>"
                     for i in (1, 2, 3)}})    # /p/4.html is broken
    rules = rules_from_text(rule_text(base.removeprefix("http://"), """
  category:
    link_xpath: //nav[@class='menu']//a
  list:
    item_xpath: //ul[@class='products']/li
    detail_link_xpath: ./a
    pagination: {method: pattern, url_pattern: "?page={page}", page_size: 2}
    fields:
      name: {xpath: ./a, kind: text}
  detail:
    fields:
      name: {xpath: //h1, kind: text}
"""), "guess.yaml")
    result = crawl_site(rules, tmp_path / "out.jsonl", Settings())
    stats = json.loads(result.stats_path.read_text())
    assert stats["failures"] == {"http 404": 1}, stats["failures"]
    assert stats["skipped"].get("past_last_page") == 1, stats["skipped"]
    assert len((tmp_path / "out.jsonl").read_text().splitlines()) == 4


class _SlowOnce(HttpFetcher):
    """A browser on a busy machine: the first time a page is asked for, its rendering
    runs out of time."""

    asked: ClassVar[Counter[str]] = Counter()

    async def fetch(self, url: str) -> Page:
        self.asked[url] += 1
        if self.asked[url] == 1:
            raise RenderTimeout("page did not finish loading within 30s", url=url)
        return await super().fetch(url)


def test_a_page_whose_rendering_ran_out_of_time_is_asked_again(
        tiny_site: Callable[[dict[str, str]], str], tmp_path: Path) -> None:
    """A render timeout is transient like a network timeout: the list page and the
    product page are asked again, not lost."""
    base = tiny_site({
        "/": "<html><body><ul><li><a href='/p/1.html'>One</a></li></ul>"
             "<a class='next' href='/?page=2'>next</a></body></html>",
        "/?page=2": "<html><body><ul><li><a href='/p/2.html'>Two</a></li></ul></body></html>",
        "/p/1.html": "<html><body><h1>One</h1><b>SKU-1</b></body></html>",
        "/p/2.html": "<html><body><h1>Two</h1><b>SKU-2</b></body></html>"})
    rules = rules_from_text(rule_text(base.split("//")[1], """
  list:
    item_xpath: //ul/li
    detail_link_xpath: ./a
    fields:
      name: {xpath: ./a, kind: text}
    pagination: {next_xpath: "//a[@class='next']"}
  detail:
    fields:
      name: {xpath: //h1, kind: text}
      sku: {xpath: //b, kind: text}
"""))
    _SlowOnce.asked.clear()
    result = crawl_site(rules, tmp_path / "o.jsonl", Settings(),
                        factory=lambda mode, s: _SlowOnce(s))
    records = [json.loads(line) for line in (tmp_path / "o.jsonl").read_text().splitlines()]
    assert sorted((r["name"], r["sku"]) for r in records) == [("One", "SKU-1"), ("Two", "SKU-2")]
    assert dict(result.stats.failures) == {}
    assert set(_SlowOnce.asked.values()) == {2}


@contextmanager
def flaky_shop(tmp_path: Path, fails: int, status: int = 503,
               retry_after: Mapping[int, str] | None = None
               ) -> Iterator[tuple[Path, LoopbackServer]]:
    """Serve a list of two products whose first one answers ``status`` the first ``fails``
    times it is asked (the n-th time with ``Retry-After: retry_after[n]`` if given);
    yields the path of its rule file and the server (its requests: ``hits``, ``counts``)."""
    items = "".join(f"<li><a href='/p/{n}.html'>{NAMES[n]}</a></li>" for n in (1, 2))
    pages = {"/": f"<html><body><ul class='products'>{items}</ul></body></html>",
             **{f"/p/{n}.html": _detail(n) for n in (1, 2)}}

    def answer(h: BaseHTTPRequestHandler, server: LoopbackServer) -> None:
        hit = server.counts[h.path]
        flaky = h.path == "/p/1.html" and hit <= fails
        body = pages.get(h.path)
        code = status if flaky else 200 if body is not None else 404
        after = (retry_after or {}).get(hit) if flaky else None
        send(h, code, (body or "") if code == 200 else b"busy",
             {"Retry-After": after} if after else None)

    with LoopbackServer(fallback=answer) as server:
        rules = tmp_path / "flaky.yaml"
        rules.write_text(rule_text(f"127.0.0.1:{server.port}", """
  list:
    item_xpath: //ul[@class='products']/li
    detail_link_xpath: ./a
    fields:
      name: {xpath: ./a, kind: text}
  detail:
    fields:
      sku: {xpath: "//span[@class='sku']", kind: text}
"""), encoding="utf-8")
        yield rules, server


@pytest.mark.parametrize(("argv", "healed"), [([], True), (["-s", "crawl_retries=0"], False)],
                         ids=["default", "no-requeue"])
def test_requeueing_a_transient_failure_is_a_setting(argv: list[str], healed: bool,
                                                     tmp_path: Path) -> None:
    """A page that failed transiently (its request retries spent: ``retries=0``) goes back
    to the end of the queue ``crawl_retries`` times (2): it heals on its second visit;
    with ``-s crawl_retries=0`` it fails for good."""
    from structurer.cli import main

    out = tmp_path / "out.jsonl"
    with flaky_shop(tmp_path, fails=1) as (rules, server):
        main(["crawl", str(rules), "--out", str(out), "-s", "retries=0", *argv])
    records = {r["name"]: r for r in map(json.loads, out.read_text().splitlines())}
    assert records[NAMES[2]]["sku"] == "SKU-2"
    assert records[NAMES[1]]["sku"] == ("SKU-1" if healed else None)
    assert server.counts["/p/1.html"] == (2 if healed else 1)
