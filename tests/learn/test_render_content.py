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
    assert all(s.found_raw == 0 and s.found_rendered == 5 for s in render.samples), render
    assert rules.levels.detail.render.mode == "static"
    detail = rules.levels.detail.render.samples
    assert detail and all(s.found_raw == s.found_rendered for s in detail)
    shown = io.StringIO()
    print_rules_summary(rules, shown)
    assert re.search(r"list browser \(by content: similarity (0\.[89]\d|1\.00), found 0 raw / "
                     r"10 rendered\)", shown.getvalue()), shown.getvalue()
    result = crawl_site(rules, tmp_path / "out.jsonl")
    urls = sorted(json.loads(line)["url"] for line in
                  (tmp_path / "out.jsonl").read_text().splitlines())
    assert urls == sorted(f"{base}/p/{s}.html" for items in PRODUCTS.values()
                          for s, _, _ in items)
    assert result.finished and not result.drift
