"""The list level of a shop whose home page shows a featured block and whose category
pages are reached only through product breadcrumbs (the menu leads to department pages
without products or links): analysis first learns the list from the home page's block,
then learns it again from the category pages discovery found, keeping the home block as
a variant. A crawl then gets every product, not only the featured ones. The same holds
when a script builds the category pages' grids: the breadcrumb candidates that list
nothing as fetched are rendered, and the list level is learned from them as a browser
level."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from lxml import html as lhtml

from structurer.api import analyze_site
from structurer.config import Settings
from structurer.crawler.engine import crawl_site
from structurer.learn import xpaths

Site = Callable[[dict[str, str]], str]
TREE = {"lighting": ("lamps", "bulbs"), "seating": ("chairs", "stools")}


def _page(title: str, body: str) -> str:
    nav = "".join(f'<li><a href="/d/{d}/">{d.title()}</a></li>' for d in TREE)
    return (f"<html><head><title>{title}</title></head><body><header><a href='/'>Home</a>"
            f"<nav class='menu'><ul>{nav}</ul></nav></header><main>{body}</main>"
            "<footer><a href='/about'>About us</a></footer></body></html>")


def _name(slug: str) -> str:
    leaf, number = slug.rsplit("-", 1)
    return f"{leaf.title()[:-1]} model {number} deluxe"


def _price(slug: str) -> str:
    return f"${20 + 3 * len(slug) + int(slug[-1]) * 7}.50"


def shop(scripted: bool = False) -> dict[str, str]:
    leaves = [(d, leaf) for d, subs in TREE.items() for leaf in subs]
    featured = "".join(
        f'<div class="tile"><a href="/p/{leaf}-0.html"><img src="/i/{leaf}.jpg" alt=""/>'
        f"<b>{_name(f'{leaf}-0')}</b></a><em>{_price(f'{leaf}-0')}</em></div>"
        for _, leaf in leaves)
    pages = {"/": _page("Shop", f"<h1>Welcome</h1><div class='featured'>{featured}</div>"),
             "/about": _page("About", "<p>About the shop</p>")}
    for d in TREE:
        pages[f"/d/{d}/"] = _page(d.title(), f"<h1>{d.title()}</h1>")
    for d, leaf in leaves:
        slugs = [f"{leaf}-{i}" for i in range(5)]
        cards = "".join(f'<li class="card"><a class="title" href="/p/{s}.html">{_name(s)}</a>'
                        f'<img src="/img/{s}.jpg" alt=""/><span class="price">{_price(s)}'
                        "</span></li>" for s in slugs)
        grid = (f'<ul class="products" id="grid"></ul><script>document.getElementById('
                f'"grid").innerHTML = {json.dumps(cards)};</script>' if scripted
                else f'<ul class="products">{cards}</ul>')
        pages[f"/d/{d}/{leaf}/"] = _page(leaf.title(), f"<h1>{leaf.title()}</h1>{grid}")
        for s in slugs:
            crumbs = (f'<ol class="breadcrumb"><li><a href="/">Home</a></li><li><a href="/d/'
                      f'{d}/">{d.title()}</a></li><li><a href="/d/{d}/{leaf}/">{leaf.title()}'
                      f"</a></li><li>{_name(s)}</li></ol>")
            pages[f"/p/{s}.html"] = _page(_name(s), (
                f"{crumbs}<h1>{_name(s)}</h1><img class='main' src='/img/{s}-big.jpg' alt=''/>"
                f"<p class='price'>{_price(s)}</p><div class='description'><p>The {_name(s)} "
                "is made to last for years of daily use.</p></div>"))
    return pages


def test_a_list_learned_from_the_home_page_alone_is_learned_again_from_categories(
        tiny_site: Site, tmp_path: Path) -> None:
    pages = shop()
    base = tiny_site(pages)
    settings = Settings.model_validate({"render": "static", "analyze_max_pages": 40})
    rules, _ = analyze_site(base + "/", settings=settings)
    level = rules.levels.list
    assert level is not None
    leaf = lhtml.fromstring(pages["/d/lighting/lamps/"])
    assert len(xpaths.evaluate(level.item_xpath, leaf)) == 5, level.item_xpath
    home = lhtml.fromstring(pages["/"])
    assert [v for v in level.variants if len(xpaths.evaluate(v.item_xpath, home)) == 4], \
        level.variants
    out = tmp_path / "out.jsonl"
    crawl_site(rules, out, Settings())
    names = {json.loads(line)["name"] for line in out.read_text().splitlines()}
    want = {_name(f"{leaf}-{i}") for subs in TREE.values() for leaf in subs for i in range(5)}
    assert names == want, sorted(want - names)


@pytest.mark.browser
def test_category_pages_a_script_builds_are_found_through_breadcrumbs_and_rendered(
        tiny_site: Site, tmp_path: Path) -> None:
    pages = shop(scripted=True)
    base = tiny_site(pages)
    rules, _ = analyze_site(base + "/", settings=Settings(analyze_max_pages=40))
    level = rules.levels.list
    assert level is not None
    assert level.render.mode == "browser"
    built = pages["/d/lighting/lamps/"]
    cards = json.loads(re.search(r"innerHTML = (.*);</script>", built).group(1))
    leaf = lhtml.fromstring(built.replace('id="grid"></ul>', f'id="grid">{cards}</ul>'))
    assert len(xpaths.evaluate(level.item_xpath, leaf)) == 5, level.item_xpath
    out = tmp_path / "out.jsonl"
    crawl_site(rules, out, Settings())
    names = {json.loads(line)["name"] for line in out.read_text().splitlines()}
    want = {_name(f"{leaf}-{i}") for subs in TREE.values() for leaf in subs for i in range(5)}
    assert names == want, sorted(want - names)
