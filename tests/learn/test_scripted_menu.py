"""Sub-categories a script adds to the menu, end to end: a shop whose server menu names
two departments (camping, walking; their pages list their products), to which a script
adds the sub-categories (tents, stoves, packs) from ``/menu.json``. The structure
changes little (a large static footer), so the entry page analysis reads is the one as
fetched. The camping page may show tiles of its two sub-categories; packs is named only
by the script's menu. The footer names the departments too. Analysis must find the sub-categories by comparing the entry page
as fetched with the rendered one, fetch a few, widen the category URL patterns to them,
and record that the category level needs a browser for its menu (both measurements in
the rule file), for the entry page only (rendered, the other pages show the same menu);
the crawl then renders the entry alone and fetches every listing page once
and every product once; the same rule file comes out twice. Needs Chromium; fails
without it, never skips."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from structurer.api import analyze_site
from structurer.crawler.engine import crawl_site
from structurer.page.catlinks import url_matches
from tests.learn.pager_shop import serve

pytestmark = pytest.mark.browser

DEPARTMENTS = {"camping": ("tents", "stoves"), "walking": ("packs",), "climbing": ("ropes",)}
SUBS = [(d, s) for d, subs in DEPARTMENTS.items() for s in subs]
PRODUCTS = {s: [(f"{s}-{i}", f"{s.title()[:-1]} Model {chr(65 + i)}{i * 7 + 3}",
                 20 + i * 13 + len(s)) for i in range(6)] for _, s in SUBS}
PER_PAGE = 5
SCRIPT = """<script>
fetch('/menu.json').then(r => r.json()).then(menu => {
  document.getElementById('nav').innerHTML = menu.map(d =>
    '<li><a href="' + d.url + '">' + d.name + '</a><ul>' + d.children.map(c =>
      '<li><a href="' + c.url + '">' + c.name + '</a></li>').join('') + '</ul></li>').join('');
});
</script>"""
NAV = "<header><a href='/'>Outdoor shop</a> <a href='/account'>Account</a> <a href='/cart'>" \
    "Cart</a><nav><ul id='nav'>" + "".join(
    f"<li><a href='/c/{d}/'>{d.title()}</a></li>" for d in DEPARTMENTS) + "</ul></nav></header>"
FOOTER = "<footer><table class='shipping'>" + "".join(
    f"<tr><td>Zone {i}</td><td>{i + 2} days</td><td>from {i}.50</td></tr>" for i in range(30)) \
    + "</table><div class='links'><h4>Categories</h4><ul>" + "".join(
        f"<li><a href='/c/{d}/'>{d.title()}</a></li>" for d in DEPARTMENTS) + "</ul></div>" \
    "<p><a href='/about'>About us</a> <a href='/contact'>Contact</a></p></footer>"


def _page(title: str, body: str) -> str:
    return (f"<html><head><title>{title}</title></head><body>{NAV}<main>{body}</main>"
            f"{FOOTER}{SCRIPT}</body></html>")


def _listing(url: str, title: str, subs: tuple[str, ...], extra: str = "") -> dict[str, str]:
    """The pages of a listing at ``url`` (``PER_PAGE`` products each, further pages at
    ``url/page/N/``), the first with ``extra`` above its grid."""
    items = [p for s in subs for p in PRODUCTS[s]]
    count = -(-len(items) // PER_PAGE)
    out = {}
    for n in range(1, count + 1):
        cards = "".join(f"<div class='card'><a class='title' href='/p/{slug}.html'>{name}</a>"
                        f"<span class='price'>${price}.00</span></div>"
                        for slug, name, price in items[(n - 1) * PER_PAGE:n * PER_PAGE])
        pager = "".join(f"<span class='current'>{k}</span>" if k == n else
                        f"<a href='{url}{'' if k == 1 else f'page/{k}/'}'>{k}</a>"
                        for k in range(1, count + 1))
        if n < count:
            pager += f"<a rel='next' href='{url}page/{n + 1}/'>Next</a>"
        out[url if n == 1 else f"{url}page/{n}/"] = _page(
            title, f"<h1>{title}</h1>{extra if n == 1 else ''}<div class='grid'>{cards}</div>"
            f"<div class='pager'>{pager}</div>")
    return out


def scripted_menu_shop(tiles: bool) -> dict[str, str]:
    """Path -> answer: home, departments (``tiles``: the camping page links its two
    sub-categories), sub-categories, products (their trail links the department only),
    the menu's JSON, info pages."""
    out = {"/": _page("Outdoor shop", "<h1>Welcome</h1><p>Gear for the hills.</p>"),
           "/about": _page("About us", "<h1>About us</h1><p>A family business.</p>"),
           "/contact": _page("Contact", "<h1>Contact</h1><p>Write to us.</p>"),
           "/account": _page("Account", "<h1>Sign in</h1><p>Your orders.</p>"),
           "/cart": _page("Cart", "<h1>Cart</h1><p>Your cart is empty.</p>")}
    out["/menu.json"] = json.dumps([{"name": d.title(), "url": f"/c/{d}/", "children": [
        {"name": s.title(), "url": f"/c/{d}/{s}/"} for s in subs]}
        for d, subs in DEPARTMENTS.items()])
    for d, subs in DEPARTMENTS.items():
        shown = "".join(f"<a class='tile' href='/c/{d}/{s}/'>{s.title()}</a>" for s in subs) \
            if tiles and d == "camping" else ""
        out.update(_listing(f"/c/{d}/", d.title(), subs, shown))
        for s in subs:
            out.update(_listing(f"/c/{d}/{s}/", s.title(), (s,)))
            for slug, name, price in PRODUCTS[s]:
                out[f"/p/{slug}.html"] = _page(name, (
                    f"<div class='trail'><a href='/'>Home</a> &gt; <a href='/c/{d}/'>"
                    f"{d.title()}</a> &gt; <span>{s.title()}</span></div>"
                    f"<h1 class='product-title'>{name}</h1><p class='price'>${price}.00</p>"
                    f"<p class='sku'>SKU: {slug.upper()}</p><div class='description'><p>The "
                    f"{name} is built to last in any weather.</p></div>"))
    return out


@pytest.mark.parametrize("tiles", [True, False], ids=["tiles", "menu_only"])
def test_sub_categories_of_a_script_built_menu_are_crawled(tiles: bool, tmp_path: Path) -> None:
    with serve("", pages=scripted_menu_shop(tiles)) as (base, requests):
        rules, report = analyze_site(base + "/")
        again, _ = analyze_site(base + "/")
        category = rules.levels.category
        assert category is not None, report.notes
        patterns = [re.compile(p) for p in category.url_patterns]
        assert all(url_matches(patterns, f"{base}/c/{d}/{s}/") for d, s in SUBS), category
        render = category.render
        assert render.mode == "browser" and render.by_content, render
        # the menu script runs on every page, but only the entry's rendering adds links
        assert render.entry_only, render
        entry = next(s for s in render.samples if s.url == base + "/")
        assert entry.similarity >= 0.8, render
        assert (entry.found_raw, entry.found_rendered) == (len(DEPARTMENTS), len(DEPARTMENTS) + len(SUBS)), render
        assert "links" in [s.kind for s in category.sources], category.sources
        assert again.model_dump(exclude={"generated_at"}) == \
            rules.model_dump(exclude={"generated_at"})
        requests.clear()
        out = tmp_path / "out.jsonl"
        result = crawl_site(rules, out)
        asked = Counter(requests)
    wanted = [u for u in scripted_menu_shop(tiles) if u.startswith("/c/")]
    assert {u: asked[u] for u in wanted} == dict.fromkeys(wanted, 1), asked
    assert not [u for u in asked if u.startswith("/c/") and u not in wanted], asked
    assert asked["/menu.json"] == 1, asked       # one page rendered: the entry
    urls = Counter(json.loads(line)["url"].removeprefix(base)
                   for line in out.read_text("utf-8").splitlines())
    assert urls == Counter(f"/p/{slug}.html" for items in PRODUCTS.values()
                           for slug, _, _ in items)
    assert result.finished


def _menu_data() -> list[dict[str, object]]:
    return [{"name": d.title(), "url": f"/c/{d}/", "children": [
        {"name": s.title(), "url": f"/c/{d}/{s}/"} for s in subs]}
        for d, subs in DEPARTMENTS.items()]


#: the same menu, built from an inline JSON state every page carries as fetched
INLINE = ("<script>window.__STATE__ = " + json.dumps({"menu": _menu_data()}) + ";\n"
          "document.getElementById('nav').innerHTML = window.__STATE__.menu.map(d =>\n"
          "  '<li><a href=\"' + d.url + '\">' + d.name + '</a><ul>' + d.children.map(c =>\n"
          "    '<li><a href=\"' + c.url + '\">' + c.name + '</a></li>').join('') + '</ul></li>')"
          ".join('');\n</script>")


def test_a_menu_built_from_the_page_s_inline_state_needs_no_browser(tmp_path: Path) -> None:
    """The script builds the menu from a JSON state the page as fetched holds: the crawl
    reads that state (the ``inline_json`` source) without a browser, so the category
    level stays static; every listing page is still fetched once, every product once."""
    pages = {u: html.replace(SCRIPT, INLINE) for u, html in scripted_menu_shop(False).items()}
    with serve("", pages=pages) as (base, requests):
        rules, report = analyze_site(base + "/")
        category = rules.levels.category
        assert category is not None, report.notes
        assert "inline_json" in [s.kind for s in category.sources], category.sources
        assert category.render.mode == "static", category.render
        requests.clear()
        out = tmp_path / "out.jsonl"
        assert crawl_site(rules, out).finished
        asked = Counter(requests)
    wanted = [u for u in pages if u.startswith("/c/")]
    assert {u: asked[u] for u in wanted} == dict.fromkeys(wanted, 1), asked
    urls = Counter(json.loads(line)["url"].removeprefix(base)
                   for line in out.read_text("utf-8").splitlines())
    assert urls == Counter(f"/p/{slug}.html" for items in PRODUCTS.values()
                           for slug, _, _ in items)
