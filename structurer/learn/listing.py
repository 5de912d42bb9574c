"""Learn a site's list level from several list pages: items, detail links, fields.

Input: :class:`PageView` objects of list pages (the more categories the better)
and the lexicon. Output: a :class:`ListLearned` — the item XPath, the detail-link
XPath, field rules with confidence, samples and runner-ups, and diagnostics.
The main list is the region that recurs on most pages under the same XPath and
whose items change from page to page (a "bestsellers" sidebar does not).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from lxml.html import HtmlElement

from structurer.errors import NoRepeatedBlock
from structurer.learn import xpaths
from structurer.learn.fields import (
    FieldChoice,
    assign,
    common_prefix_post,
    money_order,
    rank_fields,
)
from structurer.learn.layouts import distinguishing_condition
from structurer.learn.slots import Slot, collect_slots
from structurer.lexicon import Lexicon
from structurer.page.dom import attribute_words, link_href, text_of
from structurer.page.lists import Region
from structurer.page.mainlist import confirmed
from structurer.page.view import PageView
from structurer.rules.model import Candidate, FieldRule


@dataclass
class ListLearned:
    item_xpath: str
    detail_link_xpath: str | None
    fields: dict[str, FieldRule]
    regions: list[Region | None]            # the main region per page (None: not found)
    confidence: float
    notes: list[str] = field(default_factory=list)


def _signature(region: Region) -> str:
    """Where a region sits: the tag/class path of its parent, and its item tag."""
    parts = []
    node: HtmlElement | None = region.parent
    while node is not None and node.tag not in ("body", "html"):
        cls = " ".join(sorted((node.get("class") or "").split()))
        parts.append(f"{node.tag}.{cls}" if cls else str(node.tag))
        node = node.getparent()
    return "/".join(reversed(parts)) + f"//{region.items[0].tag}"


def _item_links(region: Region) -> frozenset[str]:
    return frozenset(h for rec in region.records for m in rec for a in m.iter("a")
                     if (h := link_href(a)))


def choose_main_regions(pages: Sequence[PageView]) -> list[Region | None]:
    """Per page the main product region, agreed across pages.

    Votes go to region signatures, weighted by score; a region whose links are the
    same on most pages is a fixture (a sidebar of bestsellers) and loses. (Two pages
    may share a grid honestly: a parent category's first page and its first child's.)
    On each page the region the page's main link cluster agrees with (the second,
    independent view of its main list) counts more (the lexicon's
    ``main_list_confirmed``), so it wins when the tree-similarity scores are close.
    """
    per_page = [p.product_regions[:6] for p in pages]
    confirm = pages[0].lexicon.thresholds.main_list_confirmed if pages else 1.0
    link_sets: Counter[frozenset[str]] = Counter()
    for regions in per_page:
        for region in regions:
            link_sets[_item_links(region)] += 1
    votes: dict[str, float] = defaultdict(float)
    for page, regions in zip(pages, per_page, strict=True):
        sure = confirmed(regions, page.main_links) if regions else None
        weighted = sorted(((max(r.score, 0.1) * (confirm if r is sure else 1.0), r)
                           for r in regions), key=lambda sr: -sr[0])
        for rank, (score, region) in enumerate(weighted):
            links = _item_links(region)
            if links and link_sets[links] >= max(3, 0.6 * len(pages)):
                continue
            votes[_signature(region)] += score / (1 + rank)
    if not votes:
        raise NoRepeatedBlock("no repeated product blocks found on the list pages",
                              url=pages[0].url if pages else None)
    winner = max(votes, key=votes.__getitem__)
    chosen: list[Region | None] = []
    for regions in per_page:
        match = [r for r in regions if _signature(r) == winner]
        chosen.append(max(match, key=len) if match else None)
    return chosen


def _item_steps(items: Sequence[HtmlElement], parent: HtmlElement) -> list[str]:
    """Item step candidates: tag with a predicate all items share and intruders lack."""
    tag = items[0].tag
    steps: list[str] = []
    # in the first item's order (its class attribute's), never a set's: equally long
    # tokens (col-sm-4, col-lg-3) must rank the same way in every run
    shared = [set(xpaths.predicates(item)) for item in items[1:]]
    common = [p for p in xpaths.predicates(items[0]) if all(p in s for s in shared)]
    siblings = [c for c in parent if c.tag == tag]
    intruders = [c for c in siblings if all(c is not i for i in items)]
    for pred in sorted(common, key=lambda p: (not p.startswith("@"), len(p))):
        steps.append(f"{tag}[{pred}]")
    if intruders:
        for structural in ("[.//a][.//img]", "[.//a]", "[.//img]", "[td//a]"):
            steps.append(f"{tag}{structural}")
    steps.append(str(tag))
    return steps


def learn_item_xpath(pages: Sequence[PageView],
                     regions: Sequence[Region | None]) -> tuple[str, float]:
    cases = [(p.tree, r.items) for p, r in zip(pages, regions, strict=True) if r is not None]
    reference = next(r for r in regions if r is not None)
    containers = xpaths.absolute_candidates(reference.parent)
    candidates = [f"{c}/{s}" for c in containers for s in _item_steps(reference.items,
                                                                       reference.parent)]

    def precise(tp: int, fp: int, fn: int) -> float:
        return tp / (tp + 2 * fp + fn)

    best = xpaths.best_xpath(candidates, cases, score=precise)
    if best is None:
        raise NoRepeatedBlock("no XPath selects the product list on every sample page",
                              url=pages[0].url)
    return best


def _records(regions: Sequence[Region | None]) -> tuple[list[list[HtmlElement]], list[int]]:
    """All records of all pages, and the page index of each."""
    records: list[list[HtmlElement]] = []
    owners: list[int] = []
    for index, region in enumerate(regions):
        if region is not None:
            records.extend(region.records)
            owners.extend([index] * len(region.records))
    return records, owners


def _detail_link(records: list[list[HtmlElement]], owners: list[int],
                 slots: list[Slot]) -> Slot | None:
    """The link every item has, distinct per item on a page: the way to its detail page."""
    best: tuple[float, Slot] | None = None
    for slot in slots:
        hrefs = slot.values("@href")
        present = [(o, h) for o, h in zip(owners, hrefs, strict=True) if h]
        if len(present) < 0.8 * len(records):
            continue
        distinct = len(set(present)) / len(present)
        if distinct < 0.8:
            continue
        el = next(e for e in slot.elements if e is not None)
        richness = (0.3 if el.find(".//img") is not None else 0.0) + min(
            len(text_of(el)) / 40.0, 0.5)
        words = {t for _, t in attribute_words(el)}
        score = len(present) / len(records) + distinct + richness - 0.05 * slot.depth
        if words & {"cart", "wishlist", "compare", "quickview", "quick"}:
            score -= 1.0
        if best is None or score > best[0]:
            best = (score, slot)
    return best[1] if best else None


def relative_xpath(slot: Slot, records: list[list[HtmlElement]], view: str) -> str | None:
    """One XPath, relative to the record's first element, selecting the slot in each record."""
    cases: list[tuple[HtmlElement, list[HtmlElement]]] = []
    ref: tuple[HtmlElement, HtmlElement] | None = None
    for rec, el in zip(records, slot.elements, strict=True):
        if el is None:
            continue
        member = next((m for m in rec if m is el or any(a is m for a in el.iterancestors())),
                      None)
        if member is None or member is not rec[0]:
            continue   # fields in later members of multi-node records: not supported yet
        cases.append((rec[0], [el]))
        if ref is None:
            ref = (el, rec[0])
    if ref is None:
        return None
    candidates = xpaths.relative_candidates(*ref)
    best = xpaths.best_xpath(candidates, cases, first_only=True)
    if best is None or best[1] < 0.9:
        return None
    return xpaths.for_view(best[0], view)


def field_rules(choices: dict[str, tuple[FieldChoice, FieldChoice | None]],
                records: list[list[HtmlElement]], lexicon: Lexicon) -> dict[str, FieldRule]:
    rules: dict[str, FieldRule] = {}
    for name, (best, runner) in choices.items():
        path = relative_xpath(best.slot, records, best.view)
        if path is None:
            continue
        runner_up = None
        if runner is not None:
            rpath = relative_xpath(runner.slot, records, runner.view)
            if rpath and rpath != path:
                runner_up = Candidate(xpath=rpath, confidence=_conf(runner.score),
                                      samples=runner.slot.samples(runner.view, 2))
        spec = lexicon.fields[name]
        post = common_prefix_post(best.slot.values(best.view)) if spec.kind == "text" else []
        rules[name] = FieldRule(
            xpath=path, kind=spec.kind, multiple=spec.multiple, confidence=_conf(best.score),
            post=post,
            samples=best.slot.samples(best.view), runner_up=runner_up,
            values=spec.values if spec.kind == "availability" else {},
            evidence=best.evidence[:4])
    return rules


def _conf(score: float) -> float:
    return round(max(0.0, min(1.0, score)), 2)


def learn_list(pages: Sequence[PageView], lexicon: Lexicon) -> ListLearned:
    """Item, detail-link and field rules of the list level, learned from ``pages``."""
    regions = choose_main_regions(pages)
    item_xpath, item_f1 = learn_item_xpath(pages, regions)
    records, owners = _records(regions)
    slots = collect_slots(records, max_depth=lexicon.thresholds.slot_depth)
    notes: list[str] = []
    link = _detail_link(records, owners, slots)
    link_path = relative_xpath(link, records, "@href") if link is not None else None
    if link_path is None:
        notes.append("no link to detail pages found in the list items")
    fields = lexicon.fields_for("list")
    ranked = rank_fields(slots, lexicon, "list",
                         {k: v for k, v in fields.items() if v.kind != "url"})
    choices = assign(ranked, lexicon, lexicon.thresholds.min_confidence)
    if "price" in choices and "original_price" in choices and not money_order(
            choices["price"][0], choices["original_price"][0]):
        choices["price"], choices["original_price"] = (
            (choices["original_price"][0], choices["price"][1]),
            (choices["price"][0], choices["original_price"][1]))
    rules = field_rules(choices, records, lexicon)
    url_field = next((k for k, v in fields.items() if v.kind == "url"), None)
    if link is not None and link_path is not None and url_field:
        rules[url_field] = FieldRule(xpath=link_path, kind="url", confidence=1.0,
                                     samples=link.samples("@href"),
                                     evidence=["the link every item has, distinct per item"])
    found = sum(r is not None for r in regions)
    confidence = round(item_f1 * found / len(pages), 2)
    return ListLearned(item_xpath, link_path, rules, list(regions), confidence, notes)


@dataclass
class ListLayouts:
    """The main list layout and the others, each with the condition selecting it."""

    main: ListLearned
    main_pages: list[int]
    variants: list[tuple[str, ListLearned, list[int]]] = field(default_factory=list)
    misfits: list[int] = field(default_factory=list)


def learn_list_layouts(pages: Sequence[PageView], lexicon: Lexicon) -> ListLayouts:
    """One rule set per list layout: pages whose main list is not where the others have
    it (but that do list products) are learned on their own when there are two or more."""
    learned = learn_list(pages, lexicon)
    everyone = list(range(len(pages)))
    bad = [i for i, r in enumerate(learned.regions) if r is None and pages[i].product_regions]
    good = [i for i in everyone if i not in bad]
    if len(bad) < 2 or len(good) < 2:
        return ListLayouts(learned, everyone, [], bad)
    inside = [pages[i] for i in bad]
    region = inside[0].product_regions[0]
    when = distinguishing_condition(inside, [pages[i] for i in good],
                                    prefer=[region.parent, *region.parent.iterancestors()])
    if when is None:
        return ListLayouts(learned, everyone, [], bad)
    main = learn_list([pages[i] for i in good], lexicon)
    other = learn_list(inside, lexicon)
    return ListLayouts(main, good, [(when, other, bad)], [])
