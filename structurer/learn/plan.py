"""Choosing what analysis reads next, from what it has seen (pure; no fetching).

Input: the entry page's probed link groups, the list pages with their learned layouts,
the lexicon's shared fields. Output: the link group that leads to product lists, the
list pages with the region and rules each is read by (:data:`ListSource`), and the
detail pages to sample, each with what its list entry said about the product (hints),
the list page's heading (category names) and the list page it came from.
:mod:`structurer.learn.explore` fetches what these choose.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import zip_longest
from urllib.parse import urljoin

from lxml.html import HtmlElement

from structurer.kinds import parse_availability
from structurer.learn.categories import LinkGroup
from structurer.learn.listing import ListLayouts, ListLearned
from structurer.page.dom import text_of
from structurer.page.lists import Region, all_records
from structurer.page.view import PageView

__all__ = ["DetailPick", "ListSource", "best_group", "detail_picks", "list_sources"]

#: A list page, its main region (None: not found) and the rules of its layout.
ListSource = tuple[PageView, Region | None, ListLearned]
#: A detail page to sample: its URL, the list entry's hints, category names, the list page.
DetailPick = tuple[str, dict[str, str | None], set[str], str]
_Values = dict[str, str | None]


def best_group(groups: Sequence[LinkGroup], probes: dict[int, list[PageView]],
               departments: set[str] | None = None) -> tuple[float, int] | None:
    """(score, index) of the link group whose probed pages are product lists most often
    (department pages count a little, and a bigger group breaks a tie). Given
    ``departments`` (the pages known to lead to lists), other pages count only when they
    are among them: a footer's five "about" pages are no menu of three departments."""
    best: tuple[float, int] | None = None
    for index, pages in probes.items():
        score = sum(p.kind == "list" for p in pages) + 0.2 * sum(
            p.kind == "other" and (departments is None or p.url in departments)
            for p in pages) + 0.01 * len(groups[index].links)
        if best is None or score > best[0]:
            best = (score, index)
    return best


def list_sources(lists: Sequence[PageView], layouts: ListLayouts) -> list[ListSource]:
    """Every list page that some layout reads, with its region and that layout's rules."""
    out: list[ListSource] = [(lists[i], r, layouts.main)
                             for i, r in zip(layouts.main_pages, layouts.main.regions,
                                             strict=True)]
    for _, other, ids in layouts.variants:
        out += [(lists[i], r, other) for i, r in zip(ids, other.regions, strict=True)]
    return out


def _first_text(item: HtmlElement, xpath: str) -> str | None:
    nodes = item.xpath(xpath)
    if not nodes:
        return None
    node = nodes[0]
    return (text_of(node) or None) if hasattr(node, "tag") else (str(node).strip() or None)


def _entries(page: PageView, region: Region, learned: ListLearned, link_xpath: str
             ) -> list[tuple[_Values, str, set[str], str]]:
    """Per list item with a detail link (the cards the repetition left out too: a product
    nobody rated is a sample as much as one rated): its field values, the link, the
    page's headings and the page."""
    title = {text_of(h) for h in page.body.xpath("//h1")}
    entries = []
    for record in all_records(region):
        links = record[0].xpath(link_xpath)
        if not links:
            continue
        href = links[0].get("href") if hasattr(links[0], "get") else str(links[0])
        values = {name: _first_text(record[0], rule.xpath)
                  for name, rule in learned.fields.items() if rule.xpath}
        entries.append((values, urljoin(page.url, str(href or "")), title, page.url))
    return entries


def _column(entries: list[tuple[_Values, str, set[str], str]], shared: Sequence[str],
            per_page: int | None, stock: frozenset[str] = frozenset()) -> list[DetailPick]:
    """One list page's picks: items showing something few items show first (a rarely
    shown field, or a stock state of the ``stock`` fields few items are in: the sold-out
    product whose page may be laid out otherwise), alternating with the rest."""
    def features(values: _Values) -> set[str]:
        return {k for k, v in values.items() if v} | {
            f"{k}={parse_availability(values[k] or '')}" for k in stock if k in values}
    seen = [features(v) for v, _, _, _ in entries]
    counts = Counter(f for found in seen for f in found)
    rare = {f for f, n in counts.items() if n < 0.5 * len(entries)}
    with_rare: list[DetailPick] = []
    plain: list[DetailPick] = []
    for (values, url, title, origin), found in zip(entries, seen, strict=True):
        entry = (url, {k: values.get(k) for k in shared}, title, origin)
        (with_rare if found & rare else plain).append(entry)
    # alternate: a product showing a rare field, then one that does not, so the
    # samples show each optional field both present and absent
    mixed = [e for pair in zip_longest(with_rare, plain) for e in pair if e]
    return mixed[: per_page or len(mixed)]


def detail_picks(sources: Sequence[ListSource], shared: Sequence[str], count: int,
                 per_page: int | None) -> dict[str, tuple[_Values, set[str], str]]:
    """Up to ``count`` detail pages of items spread over the list pages (``per_page`` at
    most from each), taking first the items whose list entry shows a rarer field (an
    old price, "sold out") so optional fields are seen: URL -> (hints of the ``shared``
    fields, category names, list page)."""
    columns: list[list[DetailPick]] = []
    for page, region, learned in sources:
        if region is None or learned.detail_link_xpath is None:
            continue
        entries = _entries(page, region, learned, learned.detail_link_xpath)
        stock = frozenset(k for k, r in learned.fields.items() if r.kind == "availability")
        if entries:
            columns.append(_column(entries, shared, per_page, stock))
    picks: dict[str, tuple[_Values, set[str], str]] = {}
    for row in range(max((len(c) for c in columns), default=0)):
        for column in columns:
            if row < len(column) and len(picks) < count:
                url, hints, title, origin = column[row]
                picks.setdefault(url, (hints, title, origin))
    return picks
