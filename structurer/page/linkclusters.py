"""Link lists: links clustered on their ancestor chains with OPTICS.

Input: a parsed page (lxml tree), its URL and optionally the lexicon (its
``signals.noise``/``main_content`` words). Output: :class:`LinkCluster` objects,
the likeliest main list (articles, products, search results) first, each with its
item links (absolute URL, anchor text), their records, the common container and
the score components.

Links count when their anchor text has at least ``link_min_text`` characters (5 by
default; a CJK character counts 2: it carries about a word); the first ``max_links``
of a page are clustered. The distance of two links compares their
ancestor chains, root first, the link itself last: ``M`` adds 1 per shared
ancestor and 0.9 per ancestor at the same depth with the same tag and class (state
classes such as ``odd``/``active`` dropped, digits blanked); ``P_max`` is the
length of the longer chain, so ``d = (P_max - M) / P_max`` lies in [0, 1] and two
links in sibling list items of the same list are a few hundredths apart.
OPTICS groups them (min points ``link_min_samples``, DBSCAN-style cut at ``link_eps``:
:mod:`optics`, which needs no distance matrix; all four are the lexicon's thresholds).
Mean anchor length alone lets a "hot"/"recommended" side list beat the main list, so
clusters are also ranked by the share of the page's text and links they hold, item
count, position, noise context (nav, aside, footer, lexicon noise words in class/id or
the heading above) and how alike their URLs are.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from lxml.html import HtmlElement

from structurer.lexicon import DEFAULT_THRESHOLDS, Lexicon, Thresholds
from structurer.page import optics
from structurer.page.dom import (
    HEADING_TAGS,
    NOISE_TAGS,
    SECTION_NOISE_TAGS,
    STATE_TOKENS,
    heading_before,
    link_href,
    shape_class,
    text_length,
    text_of,
)
from structurer.page.lists import context_words
from structurer.values import Base

if TYPE_CHECKING:
    import numpy as np



@dataclass(frozen=True)
class Link:
    element: HtmlElement
    url: str                 # absolute
    text: str


@dataclass
class LinkCluster:
    """One list of links: its item links (one per URL), their records and container."""

    links: list[Link]                     # every link of the cluster, document order
    items: list[Link]                     # one link per item (the list's title links)
    records: list[HtmlElement]            # per item, the element holding the whole item
    container: HtmlElement                # the items' lowest common ancestor
    features: dict[str, float] = field(default_factory=dict)
    score: float = 0.0

    def __len__(self) -> int:
        return len(self.items)

    @property
    def urls(self) -> list[str]:
        return [link.url for link in self.items]


def signature(el: HtmlElement) -> str:
    """Tag and class of an element, state classes dropped and digits blanked."""
    classes = sorted({shape_class(c) for c in (el.get("class") or "").split()
                      if c.lower() not in STATE_TOKENS})
    return f"{el.tag}.{'.'.join(classes)}" if classes else str(el.tag)


def candidate_links(root: HtmlElement, url: str,
                    th: Thresholds = DEFAULT_THRESHOLDS) -> list[Link]:
    """The first ``th.max_links`` links with a real target and at least
    ``th.link_min_text`` characters of text."""
    base = Base(url)
    body = root.find(".//body")
    out: list[Link] = []
    for a in (body if body is not None else root).iter("a"):
        href = link_href(a)
        if href is None:
            continue
        text = text_of(a)
        if text_length(text) < th.link_min_text:
            continue
        if any(p.tag in NOISE_TAGS for p in a.iterancestors()):
            continue
        absolute = base.join(href)
        if absolute:
            out.append(Link(a, absolute, text))
            if len(out) >= th.max_links:
                break
    return out


def chains(links: list[Link]) -> list[list[HtmlElement]]:
    """Ancestor chain of every link, root first, the link itself last."""
    return [list(reversed([link.element, *link.element.iterancestors()])) for link in links]


def signatures(paths: list[list[HtmlElement]]) -> list[list[str]]:
    """The :func:`signature` chain of every chain (each element's once: they share
    their ancestors)."""
    known: dict[HtmlElement, str] = {}
    return [[known[el] if el in known else known.setdefault(el, signature(el)) for el in p]
            for p in paths]


def distance_matrix(paths: list[list[HtmlElement]]) -> np.ndarray:
    """``(P_max - M) / P_max`` for every pair of chains (see the module docstring)."""
    return optics.distance_matrix(paths, signatures(paths))


def cluster_labels(paths: list[list[HtmlElement]],
                   th: Thresholds = DEFAULT_THRESHOLDS) -> list[int]:
    """OPTICS cluster labels (-1: noise) of the links by their chains: :mod:`optics`."""
    return optics.cluster_labels(paths, signatures(paths), th.link_eps, th.link_min_samples)


def lca_depth(a: list[HtmlElement], b: list[HtmlElement]) -> int:
    """Index of the deepest shared node of two chains (-1: none)."""
    d = -1
    for x, y in zip(a, b, strict=False):
        if x is not y:
            break
        d += 1
    return d


def _own_heading(branch: HtmlElement, inside: set[HtmlElement]) -> bool:
    """A heading of the branch's own (not one of the list's linked titles)."""
    prev = branch.getprevious()
    while prev is not None and not isinstance(prev.tag, str):
        prev = prev.getprevious()
    if prev is not None and prev.tag in HEADING_TAGS:
        return True
    for h in branch.iter(*HEADING_TAGS):
        if h not in inside and not any(a in inside for a in h.iter("a")):
            return True
    return False


def split_sections(members: list[int], paths: list[list[HtmlElement]],
                   min_samples: int = DEFAULT_THRESHOLDS.link_min_samples) -> list[list[int]]:
    """A cluster cut into its sections: lists of the same style placed apart (under
    differently styled parents, or each under its own heading; each ``min_samples``
    links at least) are different lists."""
    common = paths[members[0]]
    top = min(lca_depth(common, paths[i]) for i in members)
    branches: dict[HtmlElement, list[int]] = defaultdict(list)
    for i in members:
        if len(paths[i]) > top + 1:
            branches[paths[i][top + 1]].append(i)
    big = [b for b, idx in branches.items() if len(idx) >= min_samples]
    if len(big) < 2:
        return [members]
    inside = {el for i in members for el in paths[i][top + 1:]}
    styles = {signature(b) for b in big}
    headed = sum(_own_heading(b, inside) for b in big)
    if len(styles) < 2 and headed < 2:
        return [members]
    out: list[list[int]] = []
    for branch in big:
        out.extend(split_sections(branches[branch], paths, min_samples))
    return out


def _item_links(members: list[int], links: list[Link]) -> list[int]:
    """The cluster's title links: of the groups of links alike in place (parent and own
    tag/class), the one with the most distinct URLs and texts; one link per URL."""
    parents = Counter(links[i].element.getparent() for i in members)
    groups: dict[tuple[str, str, bool], list[int]] = defaultdict(list)
    for i in members:
        el = links[i].element
        parent = el.getparent()
        # links sharing one parent (a row of sort links) are not alike a list's titles
        groups[(signature(parent) if parent is not None else "", signature(el),
                parents[parent] > 1)].append(i)

    def rank(idx: list[int]) -> tuple[float, float]:
        urls = len({links[i].url for i in idx})
        texts = len({links[i].text for i in idx}) / len(idx)
        mean = sum(text_length(links[i].text) for i in idx) / len(idx)
        return (urls * (0.5 + 0.5 * texts), mean)

    best = max(groups.values(), key=rank)
    by_url: dict[str, int] = {}
    for i in best:
        j = by_url.get(links[i].url)
        if j is None or text_length(links[i].text) > text_length(links[j].text):
            by_url[links[i].url] = i
    return sorted(by_url.values())


def url_shape(url: str) -> str:
    """Host, first folder (numbers blanked), depth, file extension and query keys."""
    parts = urlsplit(url)
    segments = parts.path.split("/")[1:]
    last = segments[-1] if segments else ""
    ext = last.rsplit(".", 1)[1] if "." in last else ""
    first = re.sub(r"\d+", "0", segments[0]) if len(segments) > 1 else ""
    keys = ",".join(sorted(k.split("=")[0] for k in parts.query.split("&") if k))
    return f"{parts.netloc}|{first}|{len(segments)}|{ext}|{keys}"


def _phrase_score(text: str, vocab: dict[str, float]) -> float:
    low = text.lower()
    return max((w for p, w in vocab.items() if p in low), default=0.0)


def _context_score(el: HtmlElement, vocab: dict[str, float], depth: int = 6) -> float:
    """The strongest vocabulary word in the class/id/role of ``el`` and its ancestors."""
    return max((vocab.get(w, 0.0) for w in context_words(el, depth)), default=0.0)


@dataclass
class _Page:
    """Per-page totals the cluster features are shares of."""

    order: dict[HtmlElement, int]
    elements: int
    text: int
    links: int
    noise: dict[str, float]
    main: dict[str, float]


def _features(cluster: LinkCluster, page: _Page) -> dict[str, float]:
    items = cluster.items
    n = len(items)
    mean = sum(text_length(link.text) for link in items) / n
    records = {r: text_length(text_of(r)) for r in cluster.records}
    record_text = sum(records.values())
    anchors: dict[HtmlElement, int] = defaultdict(int)
    for link, record in zip(items, cluster.records, strict=True):
        anchors[record] += text_length(link.text)
    # items that say more than their title (a teaser, a price) are what a page lists
    rich = sum(max(0.0, 1.0 - anchors[r] / t) for r, t in records.items() if t) / len(records)
    shapes = Counter(url_shape(link.url) for link in items)
    chain = [cluster.container, *cluster.container.iterancestors()]
    in_section = any(a.tag in SECTION_NOISE_TAGS or a.get("role") in ("navigation",
                                                                      "complementary")
                     for a in chain)
    in_main = any(a.tag in ("main", "article") or a.get("role") == "main" for a in chain)
    heading = heading_before(cluster.container)
    noise = max(_context_score(cluster.container, page.noise),
                _phrase_score(heading, page.noise)) / 10.0
    main = max(_context_score(cluster.container, page.main) / 10.0, 1.0 if in_main else 0.0)
    return {
        "items": float(n),
        "mean_text": mean,
        "text_share": min(record_text / page.text, 1.0),
        "rich": rich,
        "link_share": n / page.links,
        "position": page.order.get(items[0].element, 0) / page.elements,
        "url_alike": shapes.most_common(1)[0][1] / n,
        "distinct_text": len({link.text for link in items}) / n,
        "noise": min(noise, 1.0),
        "main": min(main, 1.0),
        "in_section": 1.0 if in_section else 0.0,
    }


def score(f: dict[str, float]) -> float:
    """How much a cluster looks like the page's main list (higher is better)."""
    return (1.0 * math.log(f["mean_text"]) + 1.2 * math.log(f["items"])
            + 6.0 * f["text_share"] + 1.0 * f["rich"] + 2.0 * f["link_share"]
            + 1.0 * f["url_alike"]
            + 1.0 * f["distinct_text"] + 0.8 * f["main"] - 0.5 * f["position"]
            - 2.5 * f["noise"] - 1.5 * f["in_section"])


def _records(items: list[int], paths: list[list[HtmlElement]]) -> list[HtmlElement]:
    """Per item link the element holding its item: the child, on the link's path, of the
    deepest common ancestor it has with a neighbouring item."""
    out = []
    for pos, i in enumerate(items):
        near = [lca_depth(paths[i], paths[j]) for j in (
            items[pos - 1] if pos else None, items[pos + 1] if pos + 1 < len(items) else None)
            if j is not None]
        d = max(near, default=len(paths[i]) - 2)
        out.append(paths[i][min(d + 1, len(paths[i]) - 1)])
    return out


def link_clusters(root: HtmlElement, url: str, lexicon: Lexicon | None = None
                  ) -> list[LinkCluster]:
    """Every list of links on the page with at least ``link_min_samples`` items (the
    lexicon's thresholds, the defaults without one), likeliest main list first."""
    th = lexicon.thresholds if lexicon is not None else DEFAULT_THRESHOLDS
    links = candidate_links(root, url, th)
    if len(links) < th.link_min_samples:
        return []
    paths = chains(links)
    labels = cluster_labels(paths, th)
    body = root.find(".//body")
    scope = body if body is not None else root
    order = {el: i for i, el in enumerate(scope.iter())}
    signals = lexicon.signals if lexicon is not None else {}
    page = _Page(order, max(len(order), 1), max(text_length(text_of(scope)), 1), len(links),
                 signals.get("noise", {}), signals.get("main_content", {}))
    members: dict[int, list[int]] = defaultdict(list)
    for i, label in enumerate(labels):
        if label >= 0:
            members[label].append(i)
    out: list[LinkCluster] = []
    for group in members.values():
        for section in split_sections(group, paths, th.link_min_samples):
            items = _item_links(section, links)
            if len(items) < th.link_min_samples:
                continue
            top = min(lca_depth(paths[items[0]], paths[i]) for i in items)
            cluster = LinkCluster([links[i] for i in section], [links[i] for i in items],
                                  _records(items, paths), paths[items[0]][max(top, 0)])
            cluster.features = _features(cluster, page)
            cluster.score = score(cluster.features)
            out.append(cluster)
    out.sort(key=lambda c: c.score, reverse=True)
    return out


def main_cluster(root: HtmlElement, url: str, lexicon: Lexicon | None = None
                 ) -> LinkCluster | None:
    """The page's main list of links, if it has one."""
    clusters = link_clusters(root, url, lexicon)
    return clusters[0] if clusters else None


def agreement(cluster: LinkCluster, records: Sequence[Sequence[HtmlElement]]
              ) -> tuple[float, float]:
    """How well a cluster and repeated-block records describe the same list: the share
    of the cluster's items inside the records, and the share of records holding one."""
    if not records or not cluster.items:
        return 0.0, 0.0
    owner = {m: i for i, rec in enumerate(records) for m in rec}
    hit: set[int] = set()
    inside = 0
    for link in cluster.items:
        for node in (link.element, *link.element.iterancestors()):
            if node in owner:
                hit.add(owner[node])
                inside += 1
                break
    return inside / len(cluster.items), len(hit) / len(records)


def agrees(cluster: LinkCluster, records: Sequence[Sequence[HtmlElement]]) -> bool:
    """Most of the cluster's items sit in the records and cover most of them: one list
    (the regions may cut a long list into runs where an item's markup strays)."""
    inside, covered = agreement(cluster, records)
    return inside >= 0.6 and covered >= 0.6
