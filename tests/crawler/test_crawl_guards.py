"""What may enter the crawl queue: a trap of generated letter slugs is cut by the URL
pattern guard while the shop's real categories are all crawled; a malformed link is
skipped and counted, and the page it is on still gives its items."""

from __future__ import annotations

import json
import string
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from structurer.config import Settings
from structurer.crawler.engine import crawl_site
from structurer.crawler.frontier import url_pattern
from structurer.fetch import open_fetcher
from structurer.fetch.base import Fetcher, Page
from structurer.rules import rules_from_text
from structurer.schema import RenderMode
from tests.conftest import rule_text

RULES = rule_text("{site}", """
  category:
    link_xpath: //nav//a
    max_depth: 10
  list:
    item_xpath: //ul/li
    fields:
      name: {{xpath: ./a, kind: text}}
      url: {{xpath: ./a/@href, kind: url}}
""")
REAL = ["hats", "shoes", "boots", "gloves", "jackets", "sleeping-bags"]
FANOUT = 20          # links from one trap page to the next generated slugs


def _slug(i: int) -> str:
    """The i-th four-letter slug: aaaa, aaab, ..."""
    letters = []
    for _ in range(4):
        i, digit = divmod(i, 26)
        letters.append(string.ascii_lowercase[digit])
    return "".join(reversed(letters))


class Pages(dict[str, str]):
    """A shop of six real categories, two products each, whose menu also leads into an
    endless tree of generated category slugs; counts what is asked for."""

    def __init__(self) -> None:
        super().__init__()
        self.hits: Counter[str] = Counter()
        self.trap = {f"/c/{_slug(i)}/": i for i in range(26 ** 4)}
        self.trap.pop("/c/hats/")      # a real category, four letters like the trap's

    def get(self, path: str, default: Any = None) -> Any:  # type: ignore[override]
        self.hits[path] += 1
        menu = "".join(f'<a href="/c/{c}/">{c.title()}</a>' for c in REAL)
        if path == "/":
            return f'<html><body><nav>{menu}<a href="/c/aaaa/">Deals</a></nav></body></html>'
        name = path.strip("/").split("/")[-1]
        if path.startswith("/c/") and name in REAL:
            items = "".join(f'<li><a href="/p/{name}-{n}.html">{name} {n}</a></li>'
                            for n in (1, 2))
            return f"<html><body><nav>{menu}</nav><ul>{items}</ul></body></html>"
        if path in self.trap:       # links to the next generated slugs, and no products
            i = self.trap[path]
            more = "".join(f'<a href="/c/{_slug(FANOUT * i + k)}/">More {k}</a>'
                           for k in range(1, FANOUT + 1))
            return f"<html><body><nav>{menu}{more}</nav><ul></ul></body></html>"
        return default


def _records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_url_patterns() -> None:
    same = [("http://h/c/aaaa/", "http://h/c/zzqx/"), ("http://h/cal/2026/5/", "http://h/cal/1999/12/"),
            ("http://h/c/shoes/?page=2", "http://h/c/shoes/?page=31"),
            ("http://h/c/?slug=ab", "http://h/c/?slug=zz")]
    apart = [("http://h/c/hats/", "http://h/c/shoes/"),          # words of other lengths
             ("http://h/c/shoes/?page=2", "http://h/c/boots/?page=2"),   # per category
             ("http://h/c/shoes/page/2/", "http://h/c/boots/page/2/"),
             ("http://h/c/shoes/trail/", "http://h/c/boots/trail/"),
             ("http://h/c/sleeping-bags/", "http://h/c/sleepingbags/")]
    assert all(url_pattern(a) == url_pattern(b) for a, b in same)
    assert all(url_pattern(a) != url_pattern(b) for a, b in apart)


def test_a_trap_of_generated_slugs_is_cut_and_real_categories_stay(
        tiny_site: Callable[[dict[str, str]], str], tmp_path: Path) -> None:
    pages = Pages()
    site = tiny_site(pages).split("//")[1]
    rules = rules_from_text(RULES.format(site=site), "trap.yaml")
    cap = 30
    result = crawl_site(rules, tmp_path / "out.jsonl",
                        Settings(max_pages_per_pattern=cap, max_pages=600))
    trap = sum(n for path, n in pages.hits.items() if path in pages.trap)
    assert pages.hits["/c/hats/"] == 1
    # the generated slugs share one pattern: at most `cap` of them (the real /c/hats/,
    # four letters too, among them), not the 20^10 that max_depth would allow
    assert trap <= cap, trap
    assert result.stats.skipped["pattern"] >= FANOUT
    assert result.finished and result.stats.pages_total < 100
    names = sorted(r["name"] for r in _records(tmp_path / "out.jsonl"))
    assert names == sorted(f"{c} {n}" for c in REAL for n in (1, 2))


def test_a_malformed_link_is_skipped_and_its_page_kept(
        tiny_site: Callable[[dict[str, str]], str], tmp_path: Path) -> None:
    items = ['<a href="/p/1.html">One</a>', '<a href="http://[::1/">Bracket</a>',
             '<a href="http://{site}:99999/p/x.html">Port</a>', '<a href="/p/2.html">Two</a>']
    pages = {"/": '<nav><a href="/c/a/">A</a><a href="http://[::1/">Broken</a></nav>'}
    site = tiny_site(pages).split("//")[1]
    host = site.split(":")[0]
    pages["/c/a/"] = "<ul>" + "".join(f"<li>{i.format(site=host)}</li>" for i in items) + "</ul>"
    rules = rules_from_text(RULES.format(site=site), "bad-links.yaml")
    result = crawl_site(rules, tmp_path / "out.jsonl", Settings())
    records = _records(tmp_path / "out.jsonl")
    assert sorted(r["name"] for r in records) == ["Bracket", "One", "Port", "Two"]
    assert result.stats.failures == {}
    assert result.stats.skipped["malformed"] == 3     # two items' links and a menu link
    assert result.finished


def test_queued_links_follow_the_fetchers_host_rule() -> None:
    """A bare entry admits real subdomains of a domain name only; an IP or ``'1'``
    admits itself, not every host ending in it."""
    from structurer.config import Settings
    from structurer.crawler.frontier import DETAIL, Guards

    guards = Guards(Settings(), {"shop.example", "1", "127.0.0.1:8001"},
                    "http://shop.example/", 3)
    for url, ok in (("http://shop.example/p/1", True), ("http://cdn.shop.example/p/1", True),
                    ("http://evilshop.example/p/1", False), ("http://10.0.0.1/p", False),
                    ("http://127.0.0.1:8001/p", True), ("http://127.0.0.1:8002/p", False)):
        assert (guards.check(url, DETAIL, 0) is None) is ok, url



class Killed(Exception):
    """The crawl's process dies while a page is being fetched."""


def _dying_at(path: str) -> Callable[[RenderMode, Settings], Fetcher]:
    """A fetcher factory whose fetchers die (:class:`Killed`) asked for a URL ending
    in ``path``."""
    def dying(mode: RenderMode, settings: Settings) -> Fetcher:
        fetcher = open_fetcher(mode, settings)
        fetch = fetcher.fetch

        async def fetch_or_die(url: str, **kwargs: Any) -> Page:
            if url.endswith(path):
                raise Killed
            return await fetch(url, **kwargs)

        fetcher.fetch = fetch_or_die  # type: ignore[method-assign]
        return fetcher
    return dying


def test_a_resumed_crawl_counts_url_patterns_as_the_first_session_did(
        tiny_site: Callable[[dict[str, str]], str], tmp_path: Path) -> None:
    """The start page is no page of its URL pattern's budget (it is queued, not linked):
    a resumed crawl, which counts the pages its state holds, does not count it either,
    or a category the uninterrupted crawl reaches (``/caps/``, the third four-letter
    name under ``max_pages_per_pattern: 3``) is refused after a resume."""
    menu = '<nav><a href="/bags/">Bags</a><a href="/hats/">Hats</a></nav>'
    pages = {"/shop/": menu, "/hats/": '<ul><li><a href="/p/h">Hat</a></li></ul>',
             "/bags/": '<nav><a href="/caps/">Caps</a></nav>'
                       '<ul><li><a href="/p/b">Bag</a></li></ul>',
             "/caps/": '<ul><li><a href="/p/c">Cap</a></li></ul>'}
    site = tiny_site(pages).split("//")[1]
    text = RULES.format(site=site).replace(f"start_url: http://{site}/",
                                           f"start_url: http://{site}/shop/")
    rules = rules_from_text(text, "resume.yaml")
    settings = Settings(max_pages_per_pattern=3)
    whole = crawl_site(rules, tmp_path / "whole.jsonl", settings)
    assert whole.finished and not whole.stats.skipped

    out = tmp_path / "resumed.jsonl"
    with pytest.raises(Killed):         # the start page is read, its links queued
        crawl_site(rules, out, settings, factory=_dying_at("/bags/"))
    resumed = crawl_site(rules, out, settings, resume=True)
    assert resumed.finished and not resumed.stats.skipped
    assert sorted(r["name"] for r in _records(out)) == ["Bag", "Cap", "Hat"]


def test_a_resumed_crawl_counts_a_refused_link_once(
        tiny_site: Callable[[dict[str, str]], str], tmp_path: Path) -> None:
    """A link refused (off the shop's hosts) on the start page and again on a category
    page is counted once, as in the statistics of a crawl never interrupted, when the
    crawl dies before the category page is read and is resumed: the state keeps the
    links refused with the pages that refused them."""
    sale = '<a href="http://elsewhere.invalid/sale/">Sale</a>'
    pages = {"/": f'<nav><a href="/bags/">Bags</a><a href="/hats/">Hats</a>{sale}</nav>',
             "/hats/": '<ul><li><a href="/p/h">Hat</a></li></ul>',
             "/bags/": f'<nav>{sale}</nav><ul><li><a href="/p/b">Bag</a></li></ul>'}
    site = tiny_site(pages).split("//")[1]
    rules = rules_from_text(RULES.format(site=site), "refused.yaml")
    whole = crawl_site(rules, tmp_path / "whole.jsonl", Settings())
    assert whole.finished and dict(whole.stats.skipped) == {"offsite": 1}
    out = tmp_path / "resumed.jsonl"
    with pytest.raises(Killed):         # the start page is read: its refusal counted
        crawl_site(rules, out, Settings(), factory=_dying_at("/bags/"))
    resumed = crawl_site(rules, out, Settings(), resume=True)
    assert resumed.finished and dict(resumed.stats.skipped) == {"offsite": 1}
    assert sorted(r["name"] for r in _records(out)) == ["Bag", "Hat"]
    # a recrawl is a run of its own: its statistics count the refusal afresh
    again = crawl_site(rules, out, Settings(), recrawl=True, revisit_all=True)
    assert dict(again.stats.skipped) == {"offsite": 1}
