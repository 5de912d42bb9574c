"""The render decision by content, end to end: a shop whose product grids a script fills
from a JSON endpoint after load, in pages whose large static parts (menu, shipping
table, notices) keep the structure alike raw and rendered (simhash similarity above the
threshold). Analysis must mark the list level ``browser`` by what its rules find (no
items raw, all rendered), record both measurements, and the crawl must then get every
product. Needs Chromium; fails without it, never skips."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from structurer.api import analyze_site
from structurer.cli.display import print_rules_summary
from structurer.crawler.engine import crawl_site

pytestmark = pytest.mark.browser

CATS = {"tents": "Tents", "stoves": "Stoves", "packs": "Packs"}
PRODUCTS = {c: [(f"{c}-{i}", f"{name[:-1]} Model {chr(65 + i)}{i * 7 + 3}", 20 + i * 13 + len(c))
                for i in range(5)] for c, name in CATS.items()}
NAV = "<header><nav class='menu'><ul>" + "".join(
    f"<li class='menu-item'><a href='/c/{c}/'>{n}</a></li>" for c, n in CATS.items()) + \
    "</ul></nav></header>"
INFO = "<footer><table class='shipping'>" + "".join(
    f"<tr><td>Zone {i}</td><td>{i + 2} days</td><td>from {i}.50</td></tr>" for i in range(40)) + \
    "</table>" + "".join(f"<p>Store notice number {i}: open daily.</p>" for i in range(30)) + \
    "</footer>"
SCRIPT = """<script>
fetch('/api/' + document.body.dataset.cat + '.json').then(r => r.json()).then(items => {
  document.getElementById('grid').innerHTML = items.map(p =>
    '<div class="card"><a class="title" href="' + p.url + '">' + p.name + '</a>' +
    '<span class="price">$' + p.price + '.00</span></div>').join('');
});
</script>"""


def _page(title: str, body: str, cat: str = "") -> str:
    data = f" data-cat='{cat}'" if cat else ""
    return (f"<html><head><title>{title}</title></head><body{data}>{NAV}<main>{body}</main>"
            f"{INFO}{SCRIPT if cat else ''}</body></html>")


def json_grid_shop() -> dict[str, str]:
    """Path -> answer of the shop: home, three category shells, their JSON, products."""
    out = {"/": _page("Outdoor shop", "<h1>Welcome</h1><p>Gear for the hills.</p>")}
    for c, name in CATS.items():
        out[f"/c/{c}/"] = _page(name, f"<h1>{name}</h1><div id='grid' class='grid'></div>", c)
        out[f"/api/{c}.json"] = json.dumps([{"url": f"/p/{s}.html", "name": n, "price": p}
                                             for s, n, p in PRODUCTS[c]])
        for s, n, p in PRODUCTS[c]:
            out[f"/p/{s}.html"] = _page(n, (
                f"<h1 class='product-title'>{n}</h1><p class='price'>${p}.00</p>"
                f"<p class='sku'>SKU: {s.upper()}</p><div class='description'><p>The {n} is "
                f"built to last in any weather.</p></div>"))
    return out


def test_a_json_grid_in_a_large_static_page_is_learned_browser_and_crawled(
        tiny_site: Callable[[dict[str, str]], str], tmp_path: Path) -> None:
    base = tiny_site(json_grid_shop())
    rules, _ = analyze_site(base + "/")
    assert rules.levels.list is not None and rules.levels.detail is not None
    render = rules.levels.list.render
    assert render.mode == "browser" and render.by_content, render
    assert render.samples and all(s.similarity >= 0.8 for s in render.samples), render
    # five cards, each with its name, price (amount, text, currency)
    assert all(s.found_raw == 0 and s.found_rendered == 25 for s in render.samples), render
    assert rules.levels.detail.render.mode == "static"
    detail = rules.levels.detail.render.samples
    assert detail and all(s.found_raw == s.found_rendered for s in detail)
    shown = io.StringIO()
    print_rules_summary(rules, shown)
    assert re.search(r"list browser \(by content: similarity (0\.[89]\d|1\.00), found 0 raw / "
                     r"50 rendered\)", shown.getvalue()), shown.getvalue()
    result = crawl_site(rules, tmp_path / "out.jsonl")
    urls = sorted(json.loads(line)["url"] for line in
                  (tmp_path / "out.jsonl").read_text().splitlines())
    assert urls == sorted(f"{base}/p/{s}.html" for items in PRODUCTS.values()
                          for s, _, _ in items)
    assert result.finished and not result.drift


DEPARTMENTS = {"camping": ("tents", "stoves"), "walking": ("packs",)}


def sitemap_shop(base: str) -> dict[str, str]:
    """A home page with a static featured block, a menu of department pages showing only
    their heading, and sub-categories named only in the sitemap (beside every product,
    in the same path shape), whose grids a script builds."""
    out = json_grid_shop()
    nav = "<header><nav class='menu'><ul>" + "".join(
        f"<li class='menu-item'><a href='/c/{d}/'>{d.title()}</a></li>" for d in DEPARTMENTS) \
        + "</ul></nav></header>"
    featured = "".join(f'<div class="tile"><a href="/p/{items[0][0]}.html">{items[0][1]}</a>'
                       f"<em>${items[0][2]}.00</em></div>" for items in PRODUCTS.values())
    out = {path: page.replace(NAV, nav) for path, page in out.items()}
    out["/"] = out["/"].replace("<p>Gear for the hills.</p>",
                                f"<section class='featured'>{featured}</section>")
    for d in DEPARTMENTS:
        out[f"/c/{d}/"] = _page(d.title(), f"<h1>{d.title()}</h1>").replace(NAV, nav)
    urls = [f"/c/{d}/" for d in DEPARTMENTS] + [f"/c/{c}/" for c in CATS] + [
        f"/p/{s}.html" for items in PRODUCTS.values() for s, _, _ in items]
    out["/sitemap.xml"] = ('<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/'
                           'schemas/sitemap/0.9">' + "".join(
                               f"<url><loc>{base}{u}</loc></url>" for u in urls) + "</urlset>")
    return out


def test_script_built_sub_categories_named_only_in_the_sitemap_are_found(
        tiny_site: Callable[[dict[str, str]], str], tmp_path: Path) -> None:
    """The menu leads to department pages without products or links, so the list pages
    are sought one level down among the sitemap's URLs under the departments' path (not
    its products, shaped alike) and rendered, since fetched they list nothing."""
    pages: dict[str, str] = {}
    base = tiny_site(pages)
    pages.update(sitemap_shop(base))
    rules, _ = analyze_site(base + "/")
    level = rules.levels.list
    assert level is not None and level.render.mode == "browser", level
    assert rules.levels.category is not None
    assert "sitemap" in [s.kind for s in rules.levels.category.sources]
    crawl_site(rules, tmp_path / "out.jsonl")
    urls = sorted(json.loads(line)["url"] for line in
                  (tmp_path / "out.jsonl").read_text().splitlines())
    assert urls == sorted(f"{base}/p/{s}.html" for items in PRODUCTS.values()
                          for s, _, _ in items)
