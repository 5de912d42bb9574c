"""A shop of one brand, end to end: every product name starts with the brand ("Kestrel
Alder Jacket 1"), on every category page. The brand is part of the names (the cards'
pictures say so in their alt), not a label before them: analysis keeps it, and the
crawl's records and the list level's own records hold the whole names. Where the
pictures' alt is empty, the products' own pages (their headings) say so instead."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from lxml import html as lxml_html

from structurer.api import analyze_site
from structurer.config import Settings
from structurer.crawler.engine import crawl_site
from structurer.learn import assemble, listnames
from structurer.replay.extract import compile_rules, extract_list
from tests.learn.pager_shop import serve

STATIC = Settings(render="static")
BRAND = "Kestrel"
CATEGORIES = {"jackets": "Jacket", "boots": "Boot", "tents": "Tent"}
WOODS = ["Alder", "Birch", "Cedar", "Dogwood", "Elm", "Fir"]


def products(cat: str) -> list[tuple[str, str, int]]:
    """(slug, whole name, price) of a category's products."""
    return [(f"{cat}-{i}", f"{BRAND} {wood} {CATEGORIES[cat]} {i + 1}", 30 + 11 * i)
            for i, wood in enumerate(WOODS)]


def _doc(title: str, body: str) -> str:
    menu = "".join(f'<li><a href="/c/{c}/">{c.title()}</a></li>' for c in CATEGORIES)
    return (f"<!DOCTYPE html><html><head><title>{title}</title></head><body>"
            f'<header><nav class="menu"><ul>{menu}</ul></nav></header>'
            f"<main>{body}</main><footer><p>{BRAND} Outdoor</p></footer></body></html>")


def brand_site(alt: bool) -> dict[str, str]:
    pages = {"/": _doc(f"{BRAND} Outdoor", "<h1>Welcome</h1><p>Our own gear.</p>")}
    for cat in CATEGORIES:
        cards = "".join(
            f'<li class="product"><a href="/p/{slug}.html"><img src="/img/{slug}.jpg" '
            f'alt="{name if alt else ""}"></a><a class="title" href="/p/{slug}.html">{name}</a>'
            f'<span class="price">€{price}.00</span></li>' for slug, name, price in products(cat))
        pages[f"/c/{cat}/"] = _doc(f"{cat.title()} | {BRAND}", f"<h1>{cat.title()}</h1>"
                                   f'<ul class="products">{cards}</ul>')
        for slug, name, price in products(cat):
            pages[f"/p/{slug}.html"] = _doc(f"{name} | {BRAND}", (
                f'<h1>{name}</h1><p class="price">€{price}.00</p><div class="description">'
                f"<p>The {name} is made for long days outside, light and strong.</p></div>"))
    return pages


@pytest.mark.parametrize("alt", [True, False])
def test_a_brand_every_name_starts_with_stays_in_the_names(alt: bool, tmp_path: Path) -> None:
    pages = brand_site(alt)
    with serve("brand", pages=pages) as (base, _):
        rules, report = analyze_site(base + "/", settings=STATIC)
        out = tmp_path / "out.jsonl"
        crawl_site(rules, out, STATIC)
    assert rules.levels.list is not None, report.notes
    name = rules.levels.list.fields["name"]
    assert not any(step.startswith("regex:") for step in name.post), name
    listed = extract_list(compile_rules(rules), lxml_html.fromstring(pages["/c/boots/"]),
                          base + "/c/boots/")
    assert [r["name"] for r in listed.items] == [n for _, n, _ in products("boots")]
    records = [json.loads(line) for line in out.read_text("utf-8").splitlines()]
    assert sorted(r["name"] for r in records) == sorted(
        n for c in CATEGORIES for _, n, _ in products(c))


def test_the_products_pages_are_read_from_the_trees_analysis_holds(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The list's cut names are checked against the products' pages on the pages as
    analysis holds them (their trees and JSON-LD), not parsed again from their HTML: the
    same decision with the HTML taken away."""
    seen: list[tuple[Any, ...]] = []

    def keep(*args: Any) -> Any:
        seen.append(args)
        return listnames.uncut_by_details(*args)

    monkeypatch.setattr(assemble, "uncut_by_details", keep)
    with serve("brand", pages=brand_site(False)) as (base, _):
        rules, report = analyze_site(base + "/", settings=STATIC)
    assert rules.levels.list is not None, report.notes
    name = rules.levels.list.fields["name"]
    assert not any(step.startswith("regex:") for step in name.post), name
    given, lists, details, lexicon = next(a for a in seen if a[1] and a[2])
    bare = listnames.uncut_by_details(given, [replace(p, html="") for p in lists],
                                      [replace(p, html="") for p in details], lexicon)
    assert bare.levels.list is not None and bare.levels.list.fields["name"].post == []
    assert bare.model_dump() == listnames.uncut_by_details(
        given, lists, details, lexicon).model_dump()
