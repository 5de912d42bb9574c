"""The crawl replays each category source of a rule file: links on category pages
(sub-category tiles of a parent page that lists no products), inline JSON state,
product breadcrumbs and sitemaps (robots.txt's, through an index). Each source is the
only way to one category of this shop, so leaving it out loses exactly that category."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from structurer.config import Settings
from structurer.crawler.engine import crawl_site
from structurer.rules import rules_from_text
from tests.conftest import rule_text

NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
CRUMBS = ('<ol class="crumbs"><li><a href="/">Home</a></li>{links}<li>{name}</li></ol>')


def _list(name: str, products: list[str], extra: str = "") -> str:
    items = "".join(f'<li><a href="/p/{p}.html">{p}</a></li>' for p in products)
    return (f"<html><body><nav id='menu'><a href='/c/top/'>Top</a></nav><h1>{name}</h1>"
            f"{extra}<ul class='grid'>{items}</ul></body></html>")


def _detail(name: str, trail: list[tuple[str, str]]) -> str:
    links = "".join(f'<li><a href="{u}">{n}</a></li>' for n, u in trail)
    return (f"<html><body>{CRUMBS.format(links=links, name=name)}<h1>{name}</h1>"
            "</body></html>")


def _shop(base: str) -> dict[str, str]:
    state = {"nav": [{"name": "Json", "url": "/c/json/"}]}
    home = ("<html><head><script>window.__STATE__ = " + json.dumps(state) + ";</script>"
            "</head><body><nav id='menu'><a href='/c/top/'>Top</a></nav></body></html>")
    tiles = "<ul class='tiles'><li><a href='/c/top/tiled/'>Tiled</a></li></ul>"
    index = (f'<?xml version="1.0"?><sitemapindex {NS}><sitemap><loc>{base}/sitemap-c.xml'
             "</loc></sitemap></sitemapindex>")
    urls = "".join(f"<url><loc>{base}{p}</loc></url>"
                   for p in ("/c/top/", "/c/mapped/", "/p/mapped-1.html"))
    return {
        "/": home,
        "/robots.txt": f"User-agent: *\nDisallow: /cart\nSitemap: {base}/sitemap_index.xml\n",
        "/sitemap_index.xml": index,
        "/sitemap-c.xml": f'<?xml version="1.0"?><urlset {NS}>{urls}</urlset>',
        "/c/top/": _list("Top", [], tiles),                   # links only, no products
        "/c/top/tiled/": _list("Tiled", ["tiled-1"]),
        "/c/json/": _list("Json", ["json-1"]),
        "/c/mapped/": _list("Mapped", ["mapped-1"]),
        "/c/crumbed/": _list("Crumbed", ["crumbed-1"]),
        "/p/tiled-1.html": _detail("tiled-1", [("Top", "/c/top/"), ("Tiled", "/c/top/tiled/"),
                                               ("Crumbed", "/c/crumbed/")]),
        "/p/json-1.html": _detail("json-1", [("Json", "/c/json/"), ("Crumbed", "/c/crumbed/")]),
        "/p/mapped-1.html": _detail("mapped-1", [("Mapped", "/c/mapped/"),
                                                 ("Crumbed", "/c/crumbed/")]),
        "/p/crumbed-1.html": _detail("crumbed-1", [("Crumbed", "/c/crumbed/")]),
    }


SOURCES = {
    "links": "- {kind: links}",
    "inline_json": "- {kind: inline_json}",
    "breadcrumb": "- {kind: breadcrumb, xpath: \"//ol[@class='crumbs']//a\"}",
    "sitemap": "- {kind: sitemap, sitemaps: ['http://SITE/sitemap_index.xml']}",
}
#: the product only each source leads to
ONLY = {"links": "tiled-1", "inline_json": "json-1", "breadcrumb": "crumbed-1",
        "sitemap": "mapped-1"}


def _rules(site: str, kinds: list[str]) -> Any:
    sources = "\n".join("      " + SOURCES[k].replace("SITE", site) for k in kinds)
    levels = f"""
  category:
    link_xpath: //nav[@id='menu']//a
    url_patterns: ['/c/(?:[^/?]+/)*[^/?]+/']
    sources:
{sources}
  list:
    item_xpath: //ul[@class='grid']/li
    detail_link_xpath: ./a
    fields:
      name: {{xpath: ./a, kind: text}}
  detail:
    fields:
      name: {{xpath: //h1, kind: text}}
"""
    return rules_from_text(rule_text(site, levels), "discovery.yaml")


def _crawl(tiny_site: Callable[[dict[str, str]], str], tmp_path: Path,
           kinds: list[str]) -> list[dict[str, Any]]:
    pages: dict[str, str] = {}
    base = tiny_site(pages)
    pages.update(_shop(base))
    out = tmp_path / "out.jsonl"
    result = crawl_site(_rules(base.split("//")[1], kinds), out, Settings())
    assert result.finished
    return [json.loads(line) for line in out.read_text().splitlines()]


def test_every_source_together_reaches_every_category(
        tiny_site: Callable[[dict[str, str]], str], tmp_path: Path) -> None:
    records = _crawl(tiny_site, tmp_path, list(SOURCES))
    assert sorted(r["name"] for r in records) == sorted(ONLY.values())
    by_name = {r["name"]: r for r in records}
    assert ["Top", "Tiled"] in by_name["tiled-1"]["categories"]    # the tile's own path


@pytest.mark.parametrize("kind", list(SOURCES))
def test_each_source_is_the_way_to_its_category(
        kind: str, tiny_site: Callable[[dict[str, str]], str], tmp_path: Path) -> None:
    records = _crawl(tiny_site, tmp_path, [k for k in SOURCES if k != kind])
    names = {r["name"] for r in records}
    assert ONLY[kind] not in names
    assert names == set(ONLY.values()) - {ONLY[kind]}


def test_a_category_its_breadcrumb_finds_is_read_before_a_product_is_written(
        tiny_site: Callable[[dict[str, str]], str], tmp_path: Path) -> None:
    """Only the products' breadcrumbs lead to the parent category that lists them: each
    record waits until that page is read, and carries the parent's path too (while the
    records still come out as the crawl goes, not all at its end)."""
    pages: dict[str, str] = {}
    base = tiny_site(pages)
    trail = [("Parent", "/c/parent/"), ("Top", "/c/top/")]
    pages.update({
        "/": "<html><body><nav id='menu'><a href='/c/top/'>Top</a></nav></body></html>",
        "/c/top/": _list("Top", ["first", "second"]),
        "/c/parent/": _list("Parent", ["first", "second"]),
        "/p/first.html": _detail("first", trail),
        "/p/second.html": _detail("second", trail),
    })
    out = tmp_path / "out.jsonl"
    result = crawl_site(_rules(base.split("//")[1], ["breadcrumb"]), out,
                        Settings(concurrency=1))
    assert result.finished
    records = {r["name"]: r for r in map(json.loads, out.read_text().splitlines())}
    assert sorted(records) == ["first", "second"]
    for record in records.values():
        assert sorted(record["categories"]) == [["Parent"], ["Top"]], record


def test_a_parent_listing_its_child_s_first_page_keeps_its_pages(
        tiny_site: Callable[[dict[str, str]], str], tmp_path: Path) -> None:
    """A parent category's first page lists what its child's first page does; each
    category's second page is still read (a repeat ends only its own category's pages)."""
    def grid(products: list[str], nxt: str = "") -> str:
        more = f"<a rel='next' href='{nxt}'>next</a>" if nxt else ""
        return _list("", products, "").replace("</ul>", f"</ul>{more}")

    pages: dict[str, str] = {}
    base = tiny_site(pages)
    pages.update({
        "/": "<html><body><nav id='menu'><a href='/c/top/'>Top</a>"
             "<a href='/c/top/sub/'>Sub</a></nav></body></html>",
        "/c/top/": grid(["a", "b"], "/c/top/?page=2"),
        "/c/top/?page=2": grid(["c"]),
        "/c/top/sub/": grid(["a", "b"], "/c/top/sub/?page=2"),
        "/c/top/sub/?page=2": grid(["d"]),
        **{f"/p/{p}.html": _detail(p, []) for p in "abcd"},
    })
    text = rule_text(base.split("//")[1], """
  category:
    link_xpath: //nav[@id='menu']//a
  list:
    item_xpath: //ul[@class='grid']/li
    detail_link_xpath: ./a
    fields:
      name: {xpath: ./a, kind: text}
    pagination: {next_xpath: "//a[@rel='next']"}
  detail:
    fields:
      name: {xpath: //h1, kind: text}
""")
    rules = rules_from_text(text, "parent.yaml")
    out = tmp_path / "out.jsonl"
    assert crawl_site(rules, out, Settings(concurrency=1)).finished
    assert sorted(json.loads(line)["name"] for line in out.read_text().splitlines()) == \
        list("abcd")


def test_products_beside_the_list_lead_through_their_breadcrumbs(
        tiny_site: Callable[[dict[str, str]], str], tmp_path: Path) -> None:
    """A category no page links ("Hidden") shows in the breadcrumb of its products alone,
    and those appear only in another list page's side block ("Bestsellers"): the crawl
    reads them to find it, then every product of it; links of another shape (the footer,
    the menu) are not taken for products."""
    pages: dict[str, str] = {}
    base = tiny_site(pages)
    side = ("<aside><h2>Bestsellers</h2><div><a href='/p/hidden-1.html'>hidden-1</a></div>"
            "</aside><footer><a href='/pages/about'>About</a><a href='/terms.html'>Terms</a>"
            "</footer>")
    pages.update({
        "/": "<html><body><nav id='menu'><a href='/c/top/'>Top</a></nav></body></html>",
        "/c/top/": _list("Top", ["top-1"], side),
        "/c/hidden/": _list("Hidden", ["hidden-1", "hidden-2"]),
        "/p/top-1.html": _detail("top-1", [("Top", "/c/top/")]),
        "/p/hidden-1.html": _detail("hidden-1", [("Hidden", "/c/hidden/")]),
        "/p/hidden-2.html": _detail("hidden-2", [("Hidden", "/c/hidden/")]),
        "/pages/about": _detail("about", []),
        "/terms.html": _detail("terms", []),
    })
    out = tmp_path / "out.jsonl"
    result = crawl_site(_rules(base.split("//")[1], ["breadcrumb"]), out, Settings())
    assert result.finished
    records = {r["name"]: r for r in map(json.loads, out.read_text().splitlines())}
    assert sorted(records) == ["hidden-1", "hidden-2", "top-1"]
    assert records["hidden-1"]["categories"] == [["Hidden"]]


def test_a_menu_xpath_reaching_into_the_grid_leaves_its_products_to_the_detail_level(
        tiny_site: Callable[[dict[str, str]], str], tmp_path: Path) -> None:
    """The menu XPath (``main/ul//a``) was learned on a home page whose only list in
    ``main`` is the category tiles; on a category page it selects the product grid's
    links too. Those are the items' products, read as product pages (every record has
    its detail fields), not queued as categories; a sub-category tile still is one."""
    def page(main: str) -> str:
        return f"<html><body><main>{main}</main></body></html>"

    def grid(products: list[str]) -> str:
        return "<ul id='products'>" + "".join(
            f"<li><a href='/p/{p}.html'>{p}</a></li>" for p in products) + "</ul>"

    pages: dict[str, str] = {}
    base = tiny_site(pages)
    pages.update({
        "/": page("<ul><li><a href='/c/top/'>Top</a></li></ul>"),
        "/c/top/": page("<ul><li><a href='/c/top/sub/'>Sub</a></li></ul>" + grid(["a", "b"])),
        "/c/top/sub/": page(grid(["a", "c"])),
        **{f"/p/{p}.html": f"<html><body><h1>{p}</h1><p class='sku'>SKU-{p}</p></body></html>"
           for p in "abc"},
    })
    text = rule_text(base.split("//")[1], """
  category:
    link_xpath: /html/body/main/ul//a
    url_patterns: ['/c/(?:[^/?]+/)*[^/?]+/']
  list:
    item_xpath: //ul[@id='products']/li
    detail_link_xpath: ./a
    fields:
      name: {xpath: ./a, kind: text}
  detail:
    fields:
      name: {xpath: //h1, kind: text}
      sku: {xpath: "//p[@class='sku']", kind: text}
""")
    out = tmp_path / "out.jsonl"
    result = crawl_site(rules_from_text(text, "grid.yaml"), out, Settings(concurrency=1))
    assert result.finished
    records = {r["name"]: r for r in map(json.loads, out.read_text().splitlines())}
    assert {n: r["sku"] for n, r in records.items()} == {p: f"SKU-{p}" for p in "abc"}
    assert ["Top", "Sub"] in records["c"]["categories"]


READER_RULES = rule_text("shop.test", """
  category:
    link_xpath: /html/body/main/ul//a
  list:
    item_xpath: //ul[@id='products']/li
    detail_link_xpath: ./a
    fields:
      name: {xpath: ./a, kind: text}
  detail:
    fields:
      name: {xpath: //h1, kind: text}
""")
FEATURED = ("<html><body><main><ul><li><a href='/c/top/'>Top</a></li></ul>"
            "<ul id='products'><li><a href='/p/a.html'>a</a></li></ul></main></body></html>")


@pytest.mark.parametrize("item_url", ["detail link", "url field"])
def test_the_start_pages_grid_is_read_only_for_its_links(
        item_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The start page's product grid ("featured") gives no items (they are the
    categories'); its items' links are read, to tell them from category links, but not
    their fields (before: a whole list read per crawl, thrown away) — unless an item's
    URL may come from a ``url`` field. A category page below is read whole."""
    from structurer.crawler import traverse
    from structurer.crawler.frontier import CATEGORY, Guards, Task
    from structurer.replay.extract import compile_rules

    text = READER_RULES if item_url == "detail link" else READER_RULES.replace(
        "    detail_link_xpath: ./a\n", "").replace(
        "      name: {xpath: ./a, kind: text}\n",
        "      name: {xpath: ./a, kind: text}\n      url: {xpath: ./a/@href, kind: url}\n")
    reader = traverse.PageReader(compile_rules(rules_from_text(text, "r.yaml")),
                                 Guards(Settings(), {"shop.test"}, "http://shop.test/", 5),
                                 lambda key: True)
    read: list[str] = []
    whole = traverse.extract_list
    monkeypatch.setattr(traverse, "extract_list",
                        lambda c, tree, url, **kw: read.append(url) or whole(c, tree, url, **kw))
    for depth, url in enumerate(["http://shop.test/", "http://shop.test/c/top/"]):
        o = reader.read(Task(0, url, url, CATEGORY, depth, ()), FEATURED, url, len(FEATURED))
        # the grid's product is no category, at either depth
        assert [ln.url for ln in o.links if ln.level == CATEGORY] == ["http://shop.test/c/top/"]
        assert [i.fields["name"] for i in o.items or []] == ([] if depth == 0 else ["a"])
    assert read == (["http://shop.test/c/top/"] if item_url == "detail link" else
                    ["http://shop.test/", "http://shop.test/c/top/"])


def test_a_category_only_a_sitemap_lists_is_named_by_its_own_page(
        tiny_site: Callable[[dict[str, str]], str], tmp_path: Path) -> None:
    """A sitemap's URL has no name: the category is what its list page's title says
    ("Trail Running", its product count cut), never the URL's slug; a page saying
    nothing leaves its products' category null."""
    pages: dict[str, str] = {}
    base = tiny_site(pages)
    urls = "".join(f"<url><loc>{base}{p}</loc></url>" for p in ("/c/trail-run/", "/c/x-9/"))
    grid = "<ul class='grid'><li><a href='/p/{0}.html'>{0}</a></li></ul>"
    pages.update({
        "/": "<html><body><nav id='menu'></nav></body></html>",
        "/sitemap_index.xml": f'<?xml version="1.0"?><urlset {NS}>{urls}</urlset>',
        "/c/trail-run/": "<html><head><title>Trail Running (12) | Shop</title></head><body>"
                         "<h1>Trail Running (12)</h1>" + grid.format("shoe") + "</body></html>",
        "/c/x-9/": "<html><body>" + grid.format("tent") + "</body></html>",
        "/p/shoe.html": "<html><body><h1>shoe</h1></body></html>",
        "/p/tent.html": "<html><body><h1>tent</h1></body></html>",
    })
    out = tmp_path / "out.jsonl"
    assert crawl_site(_rules(base.split("//")[1], ["sitemap"]), out, Settings()).finished
    records = {r["name"]: r for r in map(json.loads, out.read_text().splitlines())}
    assert records["shoe"]["category"] == ["Trail Running"]
    assert (records["tent"]["category"], records["tent"]["categories"]) == (None, [])
