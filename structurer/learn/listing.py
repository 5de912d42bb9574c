"""Learn a site's list level from several list pages: items, detail links, fields.

Input: :class:`PageView` objects of list pages (the more categories the better)
and the lexicon. Output: a :class:`ListLearned` — the item XPath, the detail-link
XPath, field rules with confidence, samples and runner-ups, and diagnostics.
The main list is the region that recurs on most pages under the same XPath and
whose items change from page to page (a "bestsellers" sidebar does not).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from lxml.html import HtmlElement

from structurer.errors import NoRepeatedBlock
from structurer.learn import xpaths
from structurer.learn.choose import assign, order_money, value_post
from structurer.learn.confidence import calibrate
from structurer.learn.currency import with_local_currency
from structurer.learn.fields import FieldChoice, rank_fields
from structurer.learn.layouts import distinguishing_condition
from structurer.learn.listnames import attribute_names, full_name_rule
from structurer.learn.listpaths import misfit, relative_xpath
from structurer.learn.slots import Slot, collect_slots, merge_shifted
from structurer.learn.stars import count_field, learn_list_rating, learn_list_review_count
from structurer.lexicon import Lexicon
from structurer.page.dom import attribute_words, class_tokens, link_href, text_of, tokens
from structurer.page.lists import Region, all_records
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


def _page_class_counts(pages: Sequence[PageView]) -> Counter[str]:
    """How many elements of the sample pages carry each class token."""
    counts: Counter[str] = Counter()
    for page in pages:
        for el in page.body.iter():
            if isinstance(el.tag, str):
                counts.update(set(class_tokens(el)))
    return counts


def _state_word(token: str, words: dict[str, float]) -> bool:
    """Does a class token name a state an item may lose (in stock, on sale, new)? The
    lexicon's ``item_state`` words: long ones inside the token ('is-sold-out'), short
    ones as one of its words ('sale')."""
    compact = re.sub(r"[-_\s]", "", token.lower())
    parts = tokens(token)
    return any((len(w) >= 5 and w in compact) or w in parts
               for w in (re.sub(r"[-_\s]", "", word.lower()) for word in words))


def _item_steps(pages: Sequence[PageView], regions: Sequence[Region]) -> list[str]:
    """Item step candidates over every sampled page, most general first.

    With no intruder beside the items (same tag, not an item) on any page the bare tag
    comes first: a predicate would only narrow what the container already isolates.
    Else predicates every item on every page shares: stable attributes, then class
    tokens by how few other elements of the pages carry them (a product-card class
    before a layout utility like 'p-4' or 'col-lg-3'), hashed tokens after plain
    ones; class tokens naming a state (the lexicon's ``item_state`` words: in stock,
    sold out, sale) only after the structural steps, since items lose them.
    """
    items = [i for r in regions for i in r.items]
    tag = items[0].tag
    taken = {id(i) for i in items}
    common: dict[str, None] | None = None
    for item in items:
        preds = xpaths.predicates(item)
        common = dict.fromkeys(preds) if common is None else {
            p: None for p in common if p in preds}
    intruders = any(c.tag == tag and id(c) not in taken for r in regions for c in r.parent)
    counts = _page_class_counts(pages)
    words = pages[0].lexicon.signals.get("item_state", {}) if pages else {}
    attrs = [p for p in common or () if p.startswith("@")]
    classes = {p: t for p in common or () if (t := _class_of(p)) is not None}
    state = sorted(p for p, t in classes.items() if _state_word(t, words))
    plain = sorted((p for p in classes if p not in state),
                   key=lambda p: (xpaths.hashed_class(classes[p]),
                                  counts[classes[p]] - len(items), classes[p]))
    steps = [str(tag)] if not intruders else []
    steps += [f"{tag}[{p}]" for p in [*attrs, *plain]]
    if intruders:
        steps += [f"{tag}{s}" for s in ("[.//a][.//img]", "[.//a]", "[.//img]", "[td//a]")]
    steps += [f"{tag}[{p}]" for p in state]
    if intruders:
        steps.append(str(tag))
    return steps


def _class_of(pred: str) -> str | None:
    """The class token a :func:`xpaths.has_class` predicate names (None: another kind)."""
    found = re.fullmatch(r"contains\(concat\(' ', normalize-space\(@class\), ' '\), ' (\S+) '\)",
                         pred)
    return found.group(1) if found else None


def learn_item_xpath(pages: Sequence[PageView],
                     regions: Sequence[Region | None]) -> tuple[str, float]:
    cases = [(p.tree, [rec[0] for rec in all_records(r)])
             for p, r in zip(pages, regions, strict=True) if r is not None]
    found = [r for r in regions if r is not None]
    reference = found[0]
    containers = xpaths.absolute_candidates(reference.parent)
    steps = _item_steps([p for p, r in zip(pages, regions, strict=True) if r is not None], found)
    candidates = [f"{c}/{s}" for c in containers for s in steps]

    def precise(tp: int, fp: int, fn: int) -> float:
        return tp / (tp + 2 * fp + fn)

    best = xpaths.best_xpath(candidates, cases, score=precise)
    if best is None:
        raise NoRepeatedBlock("no XPath selects the product list on every sample page",
                              url=pages[0].url)
    return best


def _records(regions: Sequence[Region | None]) -> tuple[list[list[HtmlElement]], list[int]]:
    """All records of all pages (the cards the repetition left out too), and the page
    index of each."""
    records: list[list[HtmlElement]] = []
    owners: list[int] = []
    for index, region in enumerate(regions):
        if region is not None:
            found = all_records(region)
            records.extend(found)
            owners.extend([index] * len(found))
    return records, owners


def _detail_link(records: list[list[HtmlElement]], owners: list[int],
                 slots: list[Slot], actions: dict[str, float],
                 strong: float) -> tuple[Slot, float] | None:
    """The link every item has, distinct per item on a page: the way to its detail page,
    with the share of items that have it times the share of distinct links (its
    confidence: measured, not assumed); a link whose markup names an action on the item
    (a word of the lexicon's ``item_actions`` signal of weight ``strong``: cart,
    wishlist) loses."""
    best: tuple[float, Slot, float] | None = None
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
        if any(actions.get(w, 0) >= strong for w in words):
            score -= 1.0   # to the cart, a wishlist, a comparison: not to the product's page
        if best is None or score > best[0]:
            best = (score, slot, len(present) / len(records) * distinct)
    return (best[1], best[2]) if best else None


def field_rules(choices: dict[str, tuple[FieldChoice, FieldChoice | None]],
                records: list[list[HtmlElement]], lexicon: Lexicon,
                slots: Sequence[Slot] = ()) -> dict[str, FieldRule]:
    """Per chosen field its rule; a title field's constant start is cut as a label unless
    the cards' other names (``slots``' ``@title``/``@alt``) hold it."""
    rules: dict[str, FieldRule] = {}
    for name, (best, runner) in choices.items():
        path = relative_xpath(best.slot, records, best.view, misfit(name, lexicon))
        if path is None:
            continue
        runner_up = None
        if runner is not None:
            rpath = relative_xpath(runner.slot, records, runner.view)
            if rpath and rpath != path:
                runner_up = Candidate(xpath=rpath, confidence=_conf(runner.score),
                                      samples=runner.slot.samples(runner.view, 2))
        spec = lexicon.fields[name]
        known = attribute_names(slots, best.slot, best.view) if spec.title else []
        post = value_post(spec, best.slot.values(best.view), known)
        rules[name] = calibrate(FieldRule(
            xpath=path, kind=spec.kind, multiple=spec.multiple, confidence=_conf(best.score),
            post=post,
            samples=best.slot.samples(best.view), runner_up=runner_up,
            values=spec.values if spec.kind == "availability" else {},
            evidence=best.evidence[:4]), best, runner, thresholds=lexicon.thresholds)
    return rules


def _whole_names(rules: dict[str, FieldRule],
                 choices: dict[str, tuple[FieldChoice, FieldChoice | None]],
                 slots: list[Slot], records: list[list[HtmlElement]], lexicon: Lexicon) -> None:
    """Title fields cut with "…" read their whole text from @title / @alt where it is."""
    marks = sorted(lexicon.signals.get("truncation", {}), key=lambda m: (-len(m), m))
    for name, rule in list(rules.items()):
        if not lexicon.fields[name].title or name not in choices:
            continue
        best = choices[name][0]
        whole = full_name_rule(rule, best.slot, best.view, slots, records, marks,
                               relative_xpath)
        if whole is not None:
            rules[name] = whole


def _conf(score: float) -> float:
    return round(max(0.0, min(1.0, score)), 2)


def learn_list(pages: Sequence[PageView], lexicon: Lexicon) -> ListLearned:
    """Item, detail-link and field rules of the list level, learned from ``pages``."""
    regions = choose_main_regions(pages)
    item_xpath, item_f1 = learn_item_xpath(pages, regions)
    records, owners = _records(regions)
    slots = merge_shifted(collect_slots(records, max_depth=lexicon.thresholds.slot_depth,
                                        root_classes=False))
    notes: list[str] = []
    found_link = _detail_link(records, owners, slots, lexicon.signals.get("item_actions", {}),
                              lexicon.thresholds.strong_signal)
    link, link_share = found_link if found_link else (None, 0.0)
    link_path = relative_xpath(link, records, "@href") if link is not None else None
    if link_path is None:
        notes.append("no link to detail pages found in the list items")
    fields = lexicon.fields_for("list")
    ranked = rank_fields(slots, lexicon, "list",
                         {k: v for k, v in fields.items() if v.kind != "url"})
    choices = assign(ranked, lexicon, lexicon.thresholds.min_confidence)
    order_money(choices, fields)
    rules = field_rules(choices, records, lexicon, slots)
    _whole_names(rules, choices, slots, records, lexicon)
    rating = next((k for k, f in fields.items() if f.kind == "rating"), None)
    if rating and rating not in rules:
        stars = learn_list_rating(records, lexicon, rating)
        if stars is not None:
            rules[rating] = stars
    count = count_field(fields, rating) if rating in rules else None
    if rating and count and count not in rules:
        beside = learn_list_review_count(records, rules[rating])
        if beside is not None:
            rules[count] = beside
    url_field = next((k for k, v in fields.items() if v.kind == "url"), None)
    if link is not None and link_path is not None and url_field:
        rules[url_field] = FieldRule(xpath=link_path, kind="url", confidence=_conf(link_share),
                                     samples=link.samples("@href"),
                                     evidence=["the link every item has, distinct per item"])
    rules = with_local_currency(rules, pages, lexicon)
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


def join_next_page(pages: list[PageView], layouts: ListLayouts, page: PageView,
                   lexicon: Lexicon) -> tuple[list[PageView], ListLayouts]:
    """The list pages and layouts with a next page of one of them, unless it moves the
    main list: its own list too short to be seen as one (a last page of two items), it
    shows only another block of cards (recommendations) and must not vote that block in."""
    joined = learn_list_layouts([*pages, page], lexicon)

    def paths(xpath: str, view: PageView) -> list[str]:
        tree = view.tree.getroottree()
        return [tree.getpath(e) for e in xpaths.evaluate(xpath, view.tree)
                if isinstance(e, HtmlElement)]
    if all(paths(joined.main.item_xpath, p) == paths(layouts.main.item_xpath, p)
           for p in pages):
        return [*pages, page], joined
    return pages, layouts
