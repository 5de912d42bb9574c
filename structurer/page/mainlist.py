"""The main list of a page: repeated-block regions cross-checked with link clusters.

Input: a :class:`PageView`. Output: a :class:`MainList` — the records of the page's
main list (products, articles, results), each with its title link, and where the
answer came from. Two independent views vote: the tree-edit-distance regions
(:mod:`structurer.page.lists`: repeated blocks, ranked by prices, pictures,
share) and the OPTICS link clusters (:mod:`structurer.page.linkclusters`: links
alike in their ancestor chains, ranked by text, share and context). A region and a
cluster that describe the same list win over either alone: with a lexicon of priced
things, the best region unless the one the main link cluster confirms scores within
a quarter of it; with any other lexicon (news), the best pair by ranks, clusters first. A list
too short to repeat (one or two products on a category's last page) is found as
loose priced cards when the only regions are side lists.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lxml.html import HtmlElement

from structurer.page.dom import text_of
from structurer.page.linkclusters import LinkCluster, agrees
from structurer.page.lists import Region
from structurer.page.view import PageView, priced
from structurer.values import Base

_HEADINGS = ("h1", "h2", "h3", "h4", "h5")
_BLOCKS = frozenset({"div", "p", "h1", "h2", "h3", "h4", "h5", "h6", "section", "header"})


@dataclass
class MainList:
    records: list[list[HtmlElement]]          # one or more adjacent siblings per item
    links: list[HtmlElement | None]           # each record's title link (None: none)
    region: Region | None
    cluster: LinkCluster | None
    source: str                               # "region+cluster", "region", "cluster", "cards"

    def __len__(self) -> int:
        return len(self.records)


def _noisy(f: dict[str, float]) -> bool:
    return f.get("noise", 0.0) >= 0.8 or f.get("in_section", 0.0) > 0


def agreeing(regions: list[Region], clusters: list[LinkCluster], *, regions_first: bool
             ) -> tuple[Region, LinkCluster] | None:
    """The best-ranked region and cluster that describe the same list (rank sums; ties
    go to the region's rank when ``regions_first``, else to the cluster's)."""
    pairs = [(i + j, i if regions_first else j, i, j)
             for i, region in enumerate(regions) for j, cluster in enumerate(clusters)
             if agrees(cluster, region.records)]
    if not pairs:
        return None
    _, _, i, j = min(pairs)
    return regions[i], clusters[j]


def _owners(cluster: LinkCluster | None) -> dict[HtmlElement, tuple[int, HtmlElement]]:
    """Each element holding a cluster link -> the first such link (its rank, element):
    one pass over the links' ancestors instead of one per record."""
    owners: dict[HtmlElement, tuple[int, HtmlElement]] = {}
    for rank, item in enumerate(cluster.items if cluster is not None else ()):
        for node in (item.element, *item.element.iterancestors()):
            if node in owners:
                break       # the rest of the chain is held by an earlier link already
            owners[node] = (rank, item.element)
    return owners


def _record_link(record: list[HtmlElement],
                 owners: dict[HtmlElement, tuple[int, HtmlElement]]) -> HtmlElement | None:
    """The cluster's link inside the record, else the record's first named link."""
    held = [owners[node] for node in record if node in owners]
    if held:
        return min(held, key=lambda h: h[0])[1]
    for el in record:
        links = [a for a in el.iter("a") if a.get("href")]
        link = next((a for a in links if text_of(a)), links[0] if links else None)
        if link is not None:
            return link
    return None


def _from_region(region: Region, cluster: LinkCluster | None, source: str) -> MainList:
    """The region's records, plus items the cluster found beside them under the same
    parent (an item whose markup strays too far for the tree similarity)."""
    records = [list(r) for r in region.records]
    if cluster is not None and region.k == 1:
        taken = {r[0] for r in records}
        for item in cluster.items:
            node = item.element
            while node is not None and node.getparent() is not region.parent:
                node = node.getparent()
            if node is not None and node not in taken:
                taken.add(node)
                records.append([node])
        order = {el: i for i, el in enumerate(region.parent)}
        records.sort(key=lambda r: order[r[0]])
    owners = _owners(cluster)
    return MainList(records, [_record_link(r, owners) for r in records], region, cluster,
                    source)


def confirmed(regions: list[Region], cluster: LinkCluster | None) -> Region | None:
    """The best-ranked region the page's main link cluster agrees with."""
    return next((r for r in regions if cluster is not None and agrees(cluster, r.records)), None)


def _shop_pair(regions: list[Region], clusters: list[LinkCluster], weight: float
               ) -> tuple[Region, LinkCluster] | None:
    """The region the main link cluster confirms, when its score (times ``weight``, the
    lexicon's ``main_list_confirmed``) reaches the best region's; else the best region
    with a cluster agreeing with it."""
    sure = confirmed(regions, clusters[0] if clusters else None)
    if sure is not None and max(sure.score, 0.1) * weight >= regions[0].score:
        return sure, clusters[0]
    return agreeing(regions[:1], clusters, regions_first=True)


def main_list(view: PageView) -> MainList | None:
    """The page's main list, or None when it has no list at all: the lexicon's
    ``main_list_top`` regions and link lists weighed against each other."""
    shop = priced(view.lexicon)
    th = view.lexicon.thresholds
    top = th.main_list_top
    regions = (view.product_regions if shop and view.product_regions else view.regions)[:top]
    clusters = view.link_clusters[:top]
    pair = (_shop_pair(regions, clusters, th.main_list_confirmed) if regions else None) \
        if shop else \
        agreeing(regions, clusters, regions_first=False)
    found: MainList | None = None
    if pair is not None:
        found = _from_region(pair[0], pair[1], "region+cluster")
    elif regions and (shop or not clusters):
        found = _from_region(regions[0], None, "region")
    elif clusters:
        cluster = clusters[0]
        found = MainList([[r] for r in cluster.records], [link.element for link in cluster.items],
                         None, cluster, "cluster")
    if shop and (found is None or _noisy(found.region.features if found.region else
                                         found.cluster.features if found.cluster else {})):
        cards = view.loose_cards
        if cards:
            found = MainList([[c] for c in cards], [_record_link([c], {}) for c in cards],
                             None, None, "cards")
    return found


def link_title(link: HtmlElement) -> str:
    """A link's title: its text, or the first block inside it when it wraps a whole card
    (picture, title, teaser)."""
    blocks = [c for c in link if isinstance(c.tag, str) and c.tag in _BLOCKS and text_of(c)]
    return text_of(blocks[0]) if len(blocks) >= 2 else text_of(link)


def list_items(view: PageView) -> list[dict[str, Any]]:
    """Title and absolute URL of every item of the page's main list."""
    found = main_list(view)
    if found is None:
        return []
    base = Base(view.url)
    items = []
    for record, link in zip(found.records, found.links, strict=True):
        heading = next((h for el in record for h in el.iter(*_HEADINGS)), None)
        if heading is not None and link is not None and link.tag == "a" and not any(
                a is link for a in heading.iter("a")) and found.cluster is not None:
            heading = None      # the record's heading is not its title link's (a kicker)
        title = text_of(heading) if heading is not None else (
            link_title(link) if link is not None else " ".join(text_of(e) for e in record))
        href = base.join(link.get("href") or "") if link is not None else None
        items.append({"title": title or None, "url": href})
    return items
