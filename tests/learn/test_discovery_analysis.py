"""Analysis finds each category source on its own: a tiny shop where only that source
(sub-category tiles, inline JSON state, product breadcrumbs, a sitemap named in
robots.txt) leads to one category, analyzed with a small page budget. The rule file
records the source and a pattern covering the hidden category, and a crawl of it
reaches every product. Without the source the hidden category's products are lost,
which the shop without any source checks."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from structurer.api import analyze_site
from structurer.config import Settings
from structurer.crawler.engine import crawl_site
from structurer.lexicon import shipped_templates
from structurer.page.catlinks import url_matches

MENU = ("lamps", "chairs", "tables")
HIDDEN = "rugs"
NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
Site = Callable[[dict[str, str]], str]
CRUMBS = ("breadcrumb", "plain_breadcrumb")


def _page(title: str, body: str, head: str = "") -> str:
    nav = "".join(f'<li><a href="/c/{c}/">{c.title()}</a></li>' for c in MENU)
    return (f"<html><head><title>{title}</title>{head}</head><body><header>"
            f'<a href="/">Home</a><nav class="menu"><ul>{nav}</ul></nav></header>'
            f"<main>{body}</main><footer><a href='/about'>About us</a> "
            "<a href='/contact'>Contact</a></footer></body></html>")


def _products(category: str) -> list[str]:
    return [f"{category}-{i}" for i in range(4)]


def _name(slug: str) -> str:
    category, number = slug.split("-")
    return f"{category.title()[:-1]} model {number} classic"


def _price(slug: str) -> str:
    return f"${10 + 7 * MENU.__len__() + len(slug) + int(slug[-1]) * 3}.99"


def _list(category: str, extra: str = "") -> str:
    items = "".join(
        f'<li class="card"><a class="title" href="/p/{p}.html">{_name(p)}</a>'
        f'<img src="/img/{p}.jpg" alt=""/><span class="price">{_price(p)}</span></li>'
        for p in _products(category))
    return _page(category.title(), f"<h1>{category.title()}</h1>{extra}"
                 f'<ul class="products">{items}</ul>')


def _detail(slug: str, trail: list[str], plain: bool = False) -> str:
    """A product page; its trail an ``ol.breadcrumb``, or (``plain``) links and "›" in
    an unnamed div, which the breadcrumb field learner takes the top menu for."""
    if plain:
        links = "".join(f' › <a href="/c/{c}/">{c.title()}</a>' for c in trail)
        crumbs = f'<div class="w-2"><a href="/">Home</a>{links}</div>'
    else:
        items = "".join(f'<li><a href="/c/{c}/">{c.title()}</a></li>' for c in trail)
        crumbs = (f'<ol class="breadcrumb"><li><a href="/">Home</a></li>{items}'
                  f"<li>{_name(slug)}</li></ol>")
    return _page(_name(slug), f"{crumbs}<h1>{_name(slug)}</h1>"
                 f'<img class="main" src="/img/{slug}-big.jpg" alt=""/>'
                 f'<p class="price">{_price(slug)}</p><div class="description"><p>'
                 f"The {_name(slug)} is made to last for years of daily use.</p></div>")


def _shop(base: str, kind: str | None) -> dict[str, str]:
    """The shop; ``kind`` is the one source that leads to the hidden category."""
    state = {"menu": [{"name": c.title(), "url": f"/c/{c}/"}
                      for c in (*MENU, HIDDEN)]}
    head = (f"<script>window.__STATE__ = {json.dumps(state)};</script>"
            if kind == "inline_json" else "")
    featured = "".join(f'<a href="/p/{p}.html">{_name(p)}</a> ' for p in _products("lamps")[:2])
    pages = {"/": _page("Shop", f"<h1>Welcome</h1><p>{featured}</p>", head),
             "/about": _page("About", "<p>About the shop</p>"),
             "/contact": _page("Contact", "<p>Write to us</p>")}
    tiles = (f'<div class="subcategories"><a href="/c/{HIDDEN}/">{HIDDEN.title()}</a></div>'
             if kind == "links" else "")
    for category in MENU:
        pages[f"/c/{category}/"] = _list(category, tiles if category == "lamps" else "")
        for slug in _products(category):
            trail = [category, HIDDEN] if kind in CRUMBS else [category]
            pages[f"/p/{slug}.html"] = _detail(slug, trail, kind == "plain_breadcrumb")
    pages[f"/c/{HIDDEN}/"] = _list(HIDDEN)
    for slug in _products(HIDDEN):
        pages[f"/p/{slug}.html"] = _detail(slug, [HIDDEN], kind == "plain_breadcrumb")
    if kind == "sitemap":
        urls = "".join(f"<url><loc>{base}{path}</loc></url>" for path in sorted(pages)
                       if path.startswith(("/c/", "/p/")))
        pages["/robots.txt"] = f"User-agent: *\nDisallow: /cart\nSitemap: {base}/map.xml\n"
        pages["/map.xml"] = f'<?xml version="1.0"?><urlset {NS}>{urls}</urlset>'
    return pages


def _analyze_and_crawl(tiny_site: Site, tmp_path: Path, kind: str | None
                       ) -> tuple[object, set[str], list[str]]:
    pages: dict[str, str] = {}
    base = tiny_site(pages)
    pages.update(_shop(base, kind))
    settings = Settings.model_validate({"render": "static", "analyze_max_pages": 40})
    rules, report = analyze_site(base + "/", settings=settings)
    out = tmp_path / "out.jsonl"
    crawl_site(rules, out, Settings())
    names = {json.loads(line)["name"] for line in out.read_text().splitlines()}
    return rules, names, report.notes


def _every_product() -> set[str]:
    return {_name(p) for c in (*MENU, HIDDEN) for p in _products(c)}


@pytest.mark.parametrize("kind", ["links", "inline_json", "breadcrumb", "plain_breadcrumb",
                                  "sitemap"])
def test_analysis_finds_the_only_source_of_a_category(kind: str, tiny_site: Site,
                                                      tmp_path: Path) -> None:
    rules, names, notes = _analyze_and_crawl(tiny_site, tmp_path, kind)
    level = rules.levels.category  # type: ignore[attr-defined]
    assert level is not None
    source = "breadcrumb" if kind in CRUMBS else kind
    assert source in [s.kind for s in level.sources], level.sources
    patterns = [re.compile(p) for p in level.url_patterns]
    assert url_matches(patterns, f"http://x/c/{HIDDEN}/")
    assert not url_matches(patterns, "http://x/p/lamps-0.html")
    assert names == _every_product(), sorted(_every_product() - names)
    assert any(n.startswith("categories found:") and f"{source} " in n for n in notes), notes
    if kind == "sitemap":
        assert any(n.startswith("sitemap lists 4 categories") and "reach 3 of them" in n
                   for n in notes), notes


def test_without_a_source_the_hidden_category_is_lost(tiny_site: Site,
                                                      tmp_path: Path) -> None:
    _, names, _ = _analyze_and_crawl(tiny_site, tmp_path, None)
    assert names == _every_product() - {_name(p) for p in _products(HIDDEN)}


def test_analyze_prints_categories_per_source(tiny_site: Site, tmp_path: Path) -> None:
    """`structurer analyze` says how many categories each source gave, and how many of
    the sitemap's the pages' links reach."""
    pages: dict[str, str] = {}
    base = tiny_site(pages)
    pages.update(_shop(base, "sitemap"))
    done = subprocess.run([sys.executable, "-m", "structurer", "analyze", base + "/",
                           "--render", "static", "--max-pages", "40", "--out", str(tmp_path)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    notes = [line for line in done.stderr.splitlines() if line.startswith("note: ")]
    assert "note: categories found: 4 (menu 3, links 3, breadcrumb 3, sitemap 4)" in notes, notes
    assert ("note: sitemap lists 4 categories; the pages' links reach 3 of them, the sitemap "
            "source all") in notes, notes


def test_the_sitemap_files_read_are_the_lexicons(tiny_site: Site, tmp_path: Path) -> None:
    """A lexicon reading no sitemap file (``thresholds: {sitemap_files: 0}``) does without
    the shop's sitemap, the only source naming its hidden category, which the default
    (6 files) reads."""
    pages: dict[str, str] = {}
    base = tiny_site(pages)
    pages.update(_shop(base, "sitemap"))
    settings = Settings.model_validate({"render": "static", "analyze_max_pages": 40})
    text = shipped_templates()["ecommerce"].read_text(encoding="utf-8")
    path = tmp_path / "no-sitemaps.yaml"
    path.write_text(text.replace("thresholds:\n", "thresholds:\n  sitemap_files: 0\n", 1),
                    encoding="utf-8")
    for lexicon, found in (("ecommerce", True), (str(path), False)):
        rules, _ = analyze_site(base + "/", lexicon, settings=settings)
        level = rules.levels.category
        assert level is not None
        assert ("sitemap" in [s.kind for s in level.sources]) is found, level.sources


def test_categories_only_a_sitemap_lists_are_no_link_rule_of_info_pages(
        tiny_site: Site, tmp_path: Path) -> None:
    """No page links a category (no menu; the footer links info pages): the category
    level is the sitemap's, with no link rule standing in for it, and each product's
    category is what its list page says, not its URL's slug."""
    pages: dict[str, str] = {}
    base = tiny_site(pages)
    shop = _shop(base, "sitemap")
    shop["/"] = _list("lamps").replace("<h1>Lamps</h1>", "<h1>Featured</h1>")
    info = ("about", "contact", "delivery", "returns", "privacy")
    footer = "<footer><ul>" + "".join(f"<li><a href='/{p}'>{p.title()}</a></li>"
                                      for p in info) + "</ul></footer>"
    shop.update({f"/{p}": _page(p.title(), f"<p>{p.title()} of the shop</p>") for p in info})
    pages.update({path: re.sub(r"<footer>.*?</footer>", footer,
                               re.sub(r'<nav class="menu">.*?</nav>', "", html))
                  for path, html in shop.items()})
    settings = Settings.model_validate({"render": "static", "analyze_max_pages": 40})
    rules, _ = analyze_site(base + "/", settings=settings)
    level = rules.levels.category
    assert level is not None and level.link_xpath is None, level
    assert not level.samples
    assert "sitemap" in [s.kind for s in level.sources]
    out = tmp_path / "out.jsonl"
    crawl_site(rules, out, Settings())
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert {r["name"] for r in records} == _every_product()
    assert {tuple(r["category"]) for r in records} == {
        (c.title(),) for c in (*MENU, HIDDEN)}
