"""Repeated-block regions: where a page lists records (products, articles, links).

Input: a cleaned lxml tree and the lexicon. Output: :class:`Region` objects — a
parent, the records under it (each one or several adjacent siblings, the
"generalized node" of MDR), and the features that rank regions: item count, list
structure priority, share of the page, links, money, images, and noise context
(menus, footers, "recommended" sidebars). The best product region comes first.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from lxml.html import HtmlElement

from structurer.lexicon import Lexicon, Thresholds
from structurer.page import treesim
from structurer.page.dom import (
    SECTION_NOISE_TAGS,
    ancestors,
    attribute_words,
    element_children,
    has_money,
    heading_before,
    iter_elements,
    link_href,
    text_length,
    text_of,
    tokens,
)
from structurer.page.match import buy_words


@dataclass
class Region:
    """Records repeated under one parent; ``records[i]`` holds k adjacent siblings."""

    parent: HtmlElement
    records: list[list[HtmlElement]]
    k: int = 1
    features: dict[str, float] = field(default_factory=dict)
    score: float = 0.0

    @property
    def items(self) -> list[HtmlElement]:
        """The first element of every record (the node an item XPath selects)."""
        return [r[0] for r in self.records]

    def __len__(self) -> int:
        return len(self.records)


def left_out(region: Region) -> list[HtmlElement]:
    """The cards beside a region's records that the repetition left out (a sold-out card
    without a price or a rating, one with an extra old price, is less like its neighbours
    than they are alike): the parent's other children of the records' tag that link
    somewhere, carrying every class word all the records carry (a sponsored tile in the
    grid shares a layout utility class or two, not the card's own). Only for records of
    one element each (a card)."""
    if region.k != 1:
        return []
    own = set(region.items)
    classes = [set((el.get("class") or "").split()) for el in own]
    shared = set.intersection(*classes) if classes else set()
    tags = {el.tag for el in own}
    return [child for child in region.parent
            if child not in own and child.tag in tags
            and shared <= set((child.get("class") or "").split())
            and child.find(".//a[@href]") is not None]


def all_records(region: Region) -> list[list[HtmlElement]]:
    """The region's records and the cards beside them the repetition left out
    (:func:`left_out`), in the page's order: every product the list shows, those without
    a rating or a price too, so what is learned from them sees fields absent as often as
    they are."""
    extra = left_out(region)
    if not extra:
        return region.records
    order = {el: i for i, el in enumerate(region.parent)}
    return sorted([*region.records, *([card] for card in extra)],
                  key=lambda rec: order.get(rec[0], 0))


def _runs(trees: list[treesim.WTree], k: int, start: int, th: Thresholds) -> list[list[int]]:
    """Runs of chunk indices whose neighbours are similar, stepping over up to
    ``th.max_gap`` intruders (an ad tile in a grid).

    Each chunk is compared with the run's last member (adjacent comparison, as in MDR),
    and when unlike it with the member before (the last may be the odd one), so the
    cost stays linear in the number of siblings.
    """
    chunks = [treesim.group(trees[i:i + k]) for i in range(start, len(trees) - k + 1, k)]

    def alike(a: treesim.WTree, b: treesim.WTree, confirm: bool = True) -> bool:
        return treesim.similar(a, b, th.alpha, th.beta, confirm=confirm,
                               ted_nodes=th.ted_nodes, root_share=th.root_share)

    runs: list[list[int]] = []
    run = [0] if chunks else []
    j = 1
    while j < len(chunks):
        last = chunks[run[-1]]
        # confirm the first pairs of a run, then every fourth (pruning for long lists)
        confirm = len(run) < 4 or len(run) % 4 == 0
        if alike(last, chunks[j], confirm):
            run.append(j)
            j += 1
            continue
        # an odd last member (a sold-out card) must not end the run: the one before it
        # is asked too
        anchors = [last] if len(run) < 2 else [last, chunks[run[-2]]]
        if len(anchors) > 1 and alike(anchors[1], chunks[j]):
            run.append(j)
            j += 1
            continue
        bridged = False
        for gap in range(1, th.max_gap + 1):
            nxt = j + gap
            if nxt < len(chunks) and any(alike(a, chunks[nxt]) for a in anchors):
                run.append(nxt)
                j = nxt + 1
                bridged = True
                break
        if not bridged:
            if len(run) >= th.min_items:
                runs.append(run)
            run = [j]
            j += 1
    if len(run) >= th.min_items:
        runs.append(run)
    return _readmit(runs, chunks, alike, th.max_gap)


def _readmit(runs: list[list[int]], chunks: list[treesim.WTree],
             alike: Callable[[treesim.WTree, treesim.WTree], bool], max_gap: int
             ) -> list[list[int]]:
    """Chunks a run stepped over, or just missed at its ends, that are like some other
    member after all: a sold-out card without a rating beside a card on sale is unlike
    its neighbour, not unlike the list (ads and banners are like no member and stay out).
    Each is compared with up to eight members spread over the run."""
    taken = {c for run in runs for c in run}
    out = []
    for run in runs:
        step = max(1, len(run) // 8)
        members = [chunks[m] for m in run[::step]]
        span = range(max(0, run[0] - max_gap), min(len(chunks), run[-1] + max_gap + 1))
        extra = [c for c in span if c not in taken
                 and any(alike(m, chunks[c]) for m in members)]
        taken.update(extra)
        out.append(sorted([*run, *extra]))
    return out


def regions_under(parent: HtmlElement, lexicon: Lexicon) -> list[Region]:
    """Repeated records among ``parent``'s children (each up to the lexicon's
    ``max_group`` adjacent siblings), best grouping (smallest k) first."""
    th = lexicon.thresholds
    children = element_children(parent)
    if len(children) < th.min_items:
        return []
    trees = [treesim.build(c, lexicon.attribute_weights, max_nodes=th.tree_nodes,
                           max_depth=th.tree_depth) for c in children]
    best: list[Region] = []
    covered = 0
    for k in range(1, th.max_group + 1):
        if len(children) < k * th.min_items:
            break
        for start in range(k):
            found = []
            cover = 0
            for run in _runs(trees, k, start, th):
                records = [children[start + c * k:start + c * k + k] for c in run]
                if k > 1 and _is_split_single(records):
                    continue
                found.append(Region(parent, records, k))
                cover += len(records) * k
            # a larger k must cover clearly more to beat a smaller one (MDR's rule)
            if cover > covered * (1.0 if not best else 1.25):
                best, covered = found, cover
        if covered >= 0.8 * len(children):
            break  # single-node records already explain the parent
    return best


def _is_split_single(records: list[list[HtmlElement]]) -> bool:
    """A k>1 grouping is only real when every record has the same sequence of unlike
    members (dt+dd, tr+tr.detail); otherwise it is k=1 records cut into pieces."""
    def signature(rec: list[HtmlElement]) -> tuple[tuple[str, str], ...]:
        return tuple((str(m.tag), m.get("class") or "") for m in rec)

    first = signature(records[0])
    if len(set(first)) == 1:
        return True
    return any(signature(rec) != first for rec in records[1:])


def find_regions(root: HtmlElement, lexicon: Lexicon) -> list[Region]:
    """Every repeated region of the page, scored for being its main product list."""
    body = root.find(".//body")
    scope = body if body is not None else root
    totals = _page_totals(scope)
    regions: list[Region] = []
    for el in iter_elements(scope):
        if len(el) >= lexicon.thresholds.min_items:
            regions.extend(regions_under(el, lexicon))
    unsold = unsold_phrases(lexicon)
    for region in regions:
        region.features = region_features(region, lexicon, totals, unsold)
        region.score = product_list_score(region.features)
    regions.sort(key=lambda r: r.score, reverse=True)
    return regions


def _page_totals(scope: HtmlElement) -> dict[str, float]:
    return {"text": float(max(len(text_of(scope)), 1)),
            "nodes": float(max(sum(1 for _ in scope.iter()), 1))}


def _words_score(words: Iterable[str], vocab: dict[str, float]) -> float:
    score = 0.0
    for word in words:
        if word in vocab:
            score = max(score, vocab[word])
    return score


def context_words(el: HtmlElement, depth: int = 6) -> list[str]:
    """Attribute tokens of ``el`` and its nearest ancestors (section names like 'sidebar')."""
    out: list[str] = []
    nodes = [el, *list(ancestors(el))[:depth]]
    for node in nodes:
        out.extend(t for _, t in attribute_words(node, ("id", "class", "role", "aria-label",
                                                        "data-*", "itemprop")))
    return out


def _phrase_hits(text: str, vocab: dict[str, float]) -> float:
    low = text.lower()
    return max((w for p, w in vocab.items() if p in low), default=0.0)


def unsold_phrases(lexicon: Lexicon) -> tuple[str, ...]:
    """The lexicon's phrases of a product that cannot be bought now (its availability
    field's values other than in stock: sold out, pre-order), lower case; a phrase is
    at least as long as four Latin letters, a CJK character counting two (缺货, 售罄)."""
    spec = lexicon.spec_of("availability")
    values = spec.values if spec is not None else {}
    return tuple(sorted({p.lower() for state, phrases in values.items() if state != "in_stock"
                         for p in [state, *phrases] if text_length(p) >= 4}))


def _unsold(record: list[HtmlElement], text: str, phrases: tuple[str, ...]) -> bool:
    """A record saying its product cannot be bought now, by its text or a class token
    ("Sold out", ``class="card is-soldout"``): such a card shows no price."""
    low = text.lower()
    classes = " ".join(el.get("class") or "" for m in record for el in m.iter()
                       if isinstance(el.tag, str)).lower()
    compact = "".join(ch for ch in classes if ch.isalnum() or ch == " ")
    return any(p in low or (" " not in p and len(p) >= 5 and p in compact) for p in phrases)


def _buy_disabled(record: list[HtmlElement], lexicon: Lexicon) -> bool:
    """A record whose buy control (a button carrying the ``add_to_cart`` words) is
    disabled: it cannot be bought now, and says so by its button rather than a price."""
    return any(
        el.get("disabled") is not None and buy_words(el, lexicon)
        for m in record for el in m.iter("button", "input"))


def region_features(region: Region, lexicon: Lexicon, totals: dict[str, float],
                    unsold: tuple[str, ...] = ()) -> dict[str, float]:
    n = len(region.records)
    texts = [" ".join(text_of(m) for m in rec) for rec in region.records]
    links = 0
    imgs = 0
    money = 0
    offers = 0      # records with a price, or saying why they have none (sold out)
    hrefs: set[str] = set()
    nodes = 0
    for rec, text in zip(region.records, texts, strict=True):
        rec_links = [h for m in rec for a in m.iter("a") if (h := link_href(a))]
        if rec_links:
            links += 1
            hrefs.update(rec_links)
        if any(m.tag == "img" or m.find(".//img") is not None for m in rec):
            imgs += 1
        if has_money(text):
            money += 1
            offers += 1
        elif (unsold and _unsold(rec, text, unsold)) or _buy_disabled(rec, lexicon):
            offers += 1
        nodes += sum(1 for m in rec for _ in m.iter())
    noise_vocab = lexicon.signals.get("noise", {})
    main_vocab = lexicon.signals.get("main_content", {})
    ctx = context_words(region.parent)
    heading = heading_before(region.parent)
    chain = [region.parent, *ancestors(region.parent)]
    in_section = any(a.tag in SECTION_NOISE_TAGS for a in chain)
    in_main = any(a.tag == "main" or a.get("role") == "main" for a in chain)
    child_tag = region.records[0][0].tag
    structure = lexicon.list_structures.get(f"{region.parent.tag}/{child_tag}", 0.3)
    avg_text = sum(len(t) for t in texts) / n
    return {
        "items": float(n),
        "k": float(region.k),
        "structure": structure,
        "link_frac": links / n,
        "img_frac": imgs / n,
        "money_frac": money / n,
        "offer_frac": offers / n,
        "distinct_links": min(len(hrefs) / n, 1.0),
        "text_share": sum(len(t) for t in texts) / totals["text"],
        "node_share": nodes / totals["nodes"],
        "avg_text": avg_text,
        "noise": max(_words_score(ctx, noise_vocab), _phrase_hits(heading, noise_vocab)) / 10.0,
        "main": max(_words_score(ctx, main_vocab) / 10.0, 1.0 if in_main else 0.0),
        "in_section": 1.0 if in_section else 0.0,
    }


def product_list_score(f: dict[str, float]) -> float:
    """How much a region looks like the page's main product list (higher is better)."""
    score = (3.0 * f["money_frac"] + 1.5 * f["img_frac"] + 1.0 * f["link_frac"]
             + 1.0 * f["distinct_links"] + 0.8 * f["structure"]
             + 1.2 * math.log(f["items"]) + 4.0 * f["node_share"] + 2.0 * f["text_share"]
             + 1.0 * f["main"] - 2.5 * f["noise"] - 1.5 * f["in_section"])
    if f["avg_text"] < 3:
        score -= 2.0
    if f["link_frac"] < 0.5:
        score -= 3.0       # records without links: a catalogue without detail pages at best
    return score


def is_product_region(f: dict[str, float]) -> bool:
    """Records that sell something: most show a price (or, sold out, say so instead;
    some priced), and a link or a picture."""
    offers = max(f["money_frac"], f.get("offer_frac", 0.0) if f["money_frac"] > 0 else 0.0)
    return offers >= 0.6 and (f["link_frac"] >= 0.7 or f["img_frac"] >= 0.5)


def link_region_score(f: dict[str, float]) -> float:
    """How much a region looks like a navigation link group (category menus, tiles)."""
    if f["link_frac"] < 0.8:
        return -1.0
    return (1.0 * math.log(f["items"]) + 1.0 * f["distinct_links"] - 2.0 * f["money_frac"]
            + 0.5 * f["in_section"])


def region_tokens(region: Region) -> set[str]:
    """Class/attribute tokens shared by every record root (for naming and XPaths)."""
    common: set[str] | None = None
    for root in region.items:
        toks = {t for _, t in attribute_words(root)} | set(tokens(root.get("class", "")))
        common = toks if common is None else common & toks
    return common or set()
