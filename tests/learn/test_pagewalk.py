"""Walking a guessed URL pattern: a category whose one page is exactly full has no
second page (its server answers 404), which ends its walk well once another category's
walk has shown the pattern reaching new items."""

from __future__ import annotations

import asyncio

from structurer.learn.pagewalk import PagingPlan, learn_paging
from structurer.lexicon import load_lexicon
from structurer.page.view import PageView

LEX = load_lexicon()
BASE = "http://shop.test"
ITEMS = "//ul[@class='products']/li"
#: category -> its pages' product slugs (six a page; "one" is a single full page)
SHOP = {"two": [[f"two-{i}" for i in range(6)], ["two-6", "two-7"]],
        "one": [[f"one-{i}" for i in range(6)]]}


def _html(slugs: list[str]) -> str:
    cards = "".join(f"<li><a href='/p/{s}.html'>{s}</a><span>1,00 €</span></li>" for s in slugs)
    return (f"<html><body><ul class='products'>{cards}</ul>"
            "<nav class='pagination'><a href='#' data-page='2'>2</a></nav></body></html>")


def _pages() -> dict[str, str]:
    out = {}
    for cat, pages in SHOP.items():
        for n, slugs in enumerate(pages):
            out[f"{BASE}/c/{cat}/" + (f"?offset={6 * n}" if n else "")] = _html(slugs)
    return out


def test_a_single_full_page_ends_its_walk_well() -> None:
    pages = _pages()

    async def fetch(url: str) -> PageView | None:
        return PageView.from_html(url, pages[url], LEX) if url in pages else None

    firsts = [PageView.from_html(f"{BASE}/c/{c}/", pages[f"{BASE}/c/{c}/"], LEX)
              for c in ("one", "two")]
    plan = PagingPlan(ITEMS, "./a", LEX.pagination, 3, 30, 2, fetch)
    notes: list[str] = []
    found = asyncio.run(learn_paging(firsts, plan, notes))
    assert found is not None, notes
    assert (found.url_pattern, found.first_page, found.step) == ("?offset={page}", 6, 6)
    assert sorted((c.pages, c.items) for c in found.verified) == [(1, 6), (2, 8)]
