"""Learn a site's detail level from several product pages of one template.

Input: :class:`PageView` objects of detail pages, the lexicon, and hints: what
the list page said about each product (name, price) and the category names the
product was reached through. Output: :class:`DetailLearned` with one absolute
XPath per field (verified on every sample page), or a JSON-LD path where the
page's structured data carries a field the markup does not expose cleanly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from lxml.html import HtmlElement

from structurer.learn import xpaths
from structurer.learn.breadcrumbs import learn_breadcrumb
from structurer.learn.choose import assign, drop_buy_boxes, order_money, value_post
from structurer.learn.confidence import calibrate, calibrate_breadcrumb, structured_column
from structurer.learn.currency import with_local_currency
from structurer.learn.detailpaths import absolute_xpath, label_rule
from structurer.learn.fields import FieldChoice, rank_fields, valid
from structurer.learn.layouts import (
    distinguishing_condition,
    misfits,
    rule_value,
    site_constants,
)
from structurer.learn.markup import learn_buy_control, markup_rules
from structurer.learn.slots import (
    Slot,
    collect_slots,
    label_slots,
    merge_shifted,
    shifted_blocks,
)
from structurer.learn.trails import navigation
from structurer.lexicon import FieldSpec, Lexicon
from structurer.page.dom import attribute_words
from structurer.page.match import squash
from structurer.page.scope import card_holders, main_region, other_products
from structurer.page.view import PageView
from structurer.rules.model import Candidate, FieldRule
from structurer.structured import jsonld_value
from structurer.values import compile_phrases, parse_availability

_SKIP_TAGS = frozenset({"footer", "aside"})


@dataclass
class DetailLearned:
    fields: dict[str, FieldRule]
    confidence: float
    notes: list[str] = field(default_factory=list)


def _skipper(page: PageView, lexicon: Lexicon) -> set[HtmlElement]:
    """Subtrees that are never the product: lists of other products, footers, menus,
    and the breadcrumb trail (a schema.org ``BreadcrumbList``, or a block its words
    name): its last crumb may repeat the product's name, but the trail is learned on its
    own and is no other field's place.

    Elements themselves are kept (not their id()), so lxml keeps their proxies alive.
    """
    skip: set[HtmlElement] = set()
    for region in page.regions:
        f = region.features
        if len(region) >= 3 and f.get("link_frac", 0) >= 0.6 and f.get("node_share", 1) < 0.35:
            skip.update(m for rec in region.records for m in rec)
    noise, strong = lexicon.signals.get("noise", {}), lexicon.thresholds.strong_signal
    crumb = next((dict(s.words) for s in lexicon.fields.values() if s.kind == "breadcrumb"), {})
    trail = lexicon.thresholds.crumb_block
    for el in page.body.iter():
        if not isinstance(el.tag, str):
            continue
        if el.tag in _SKIP_TAGS or "breadcrumblist" in (el.get("itemtype") or "").lower():
            skip.add(el)
        elif el.get("class") or el.get("id"):
            words = {t for _, t in attribute_words(el, ("id", "class"))}
            named = any(noise.get(w, 0) >= strong or crumb.get(w, 0) >= trail for w in words)
            if el.tag not in ("body", "main") and named:
                skip.add(el)
    return skip


def _anchors(pages: Sequence[PageView], choices: dict[str, tuple[FieldChoice, Any]],
             lexicon: Lexicon) -> list[HtmlElement | None]:
    """The element naming the product on each page: the title field's, else the one h1."""
    title = next((k for k in choices if lexicon.fields[k].title), None)
    out: list[HtmlElement | None] = []
    for i, page in enumerate(pages):
        el = choices[title][0].slot.elements[i] if title else None
        if el is None:
            h1s = page.body.findall(".//h1")
            el = h1s[0] if len(h1s) == 1 else None
        out.append(el)
    return out


def _scope_xpath(pages: Sequence[PageView], anchors: Sequence[HtmlElement | None],
                 cards: Sequence[list[HtmlElement]]) -> str | None:
    """An XPath to the main product's region (:func:`main_region`) that, on every page,
    selects one element holding the product's heading and no other product's card;
    None where the pages show no such block or no XPath names it on all of them."""
    if not any(cards) or any(a is None for a in anchors):
        return None
    holders = [card_holders(c) for c in cards]
    ref_i = next(i for i, c in enumerate(cards) if c)
    ref = main_region(pages[ref_i], anchors[ref_i], cards[ref_i])
    if ref.tag in ("body", "html"):
        return None
    for xpath in xpaths.absolute_candidates(ref):
        ok = True
        for page, anchor, hold in zip(pages, anchors, holders, strict=True):
            got = [n for n in xpaths.evaluate(xpath, page.tree) if isinstance(n, HtmlElement)]
            if len(got) != 1 or got[0] in hold or not (
                    got[0] is anchor or got[0] in set(anchor.iterancestors())):  # type: ignore[union-attr]
                ok = False
                break
        if ok:
            return xpath
    return None


def _breadcrumb(pages: Sequence[PageView], lexicon: Lexicon, categories: Sequence[set[str]],
                chrome: set[tuple[str, ...]] | None, anchor: HtmlElement | None
                ) -> dict[str, FieldRule]:
    """The breadcrumb field's rule, calibrated against the categories; never a link list
    in ``chrome`` (None: the one every page of ``pages`` shows, when they are products of
    more than one category)."""
    name = next((k for k, s in lexicon.fields.items() if s.kind == "breadcrumb"), None)
    if chrome is None:
        chrome = navigation(pages) if _varied(categories) else set()
    crumb = calibrate_breadcrumb(learn_breadcrumb(pages, lexicon, categories,
                                                  navigation=chrome, anchor=anchor),
                                 pages, categories, lexicon.thresholds)
    return {name: crumb} if crumb is not None and name else {}


def _varied(categories: Sequence[set[str]] | None) -> bool:
    """Were the sampled products reached through more than one category?"""
    return len({frozenset(c) for c in categories or () if c}) > 1


def _drop_doubtful(rules: dict[str, FieldRule], fields: dict[str, FieldSpec], floor: float,
                   notes: list[str]) -> dict[str, FieldRule]:
    """Without the optional texts (not the title, not a code) whose XPath rule ended under
    ``floor``: a value that is likely wrong is not written (the structured data's value,
    a markup learner or null take its place)."""
    kept: dict[str, FieldRule] = {}
    for name, rule in rules.items():
        spec = fields[name]
        if rule.confidence < floor and spec.kind == "text" and not (
                spec.required or spec.title or spec.identifier):
            notes.append(f"{name}: {rule.xpath} left out at confidence {rule.confidence} "
                         f"({rule.evidence[-1] if rule.evidence else 'no evidence'})")
            continue
        kept[name] = rule
    return kept


def _partial(rule: FieldRule, choice: tuple[FieldChoice, Any] | None) -> bool:
    """A text rule seen on under 4 of 5 pages (a sentence only unavailable products
    show), not from structured data: the buy control tells every page's state."""
    if rule.jsonld or choice is None:
        return False
    values = choice[0].slot.values(choice[0].view)
    return sum(bool(v) for v in values) < 0.8 * len(values)


def _stock_read(rule: FieldRule, pages: Sequence[PageView]) -> list[str | None]:
    """The stock state an availability rule reads on each page (None: it reads none
    there, as a positional path does on a page where a note shifts the stock line);
    JSON-LD rules read every page."""
    if not rule.xpath:
        return []
    phrases = compile_phrases(rule.values)
    out: list[str | None] = []
    for page in pages:
        value = parse_availability(rule_value(rule.xpath, page), phrases)
        out.append(value if value not in (None, "unknown") else None)
    return out


def _hints(pages: Sequence[PageView], fields: dict[str, FieldSpec],
           list_hints: Sequence[dict[str, str | None]] | None) -> dict[str, list[str | None]]:
    """Per field, what each page's product is known to hold: the list page's value, else
    its structured data's (the evidence the ranking weighs slots against)."""
    hints: dict[str, list[str | None]] = {}
    for name, spec in fields.items():
        column: list[str | None] = []
        for i, page in enumerate(pages):
            value = None
            if list_hints and list_hints[i].get(name):
                value = list_hints[i][name]
            elif page.product is not None:
                raw = next((v for v in (jsonld_value(page.product, p) for p in spec.structured)
                            if v not in (None, "")), None)
                value = str(raw) if raw is not None else None
            column.append(value)
        if any(column):
            hints[name] = column
    return hints


def _structured_rules(pages: Sequence[PageView], fields: dict[str, FieldSpec]
                      ) -> dict[str, FieldRule]:
    """JSON-LD rules for the fields no XPath was learned for, where every page's
    structured data holds the field."""
    rules = {}
    for name, spec in fields.items():
        path = next((p for p in spec.structured if all(
            page.product is not None and jsonld_value(page.product, p) not in (None, "")
            for page in pages)), None)
        if path is not None:
            rules[name] = FieldRule(jsonld=path, kind=spec.kind, confidence=0.9,
                                    evidence=["JSON-LD Product on every page"],
                                    values=spec.values if spec.kind == "availability" else {})
    return rules


def _slots(records: list[list[HtmlElement]], skip: set[HtmlElement], lexicon: Lexicon
           ) -> tuple[list[Slot], frozenset[HtmlElement]]:
    """The places of the pages (those an optional block shifts merged into one) and the
    label pairs, with the blocks that shift."""
    slots = merge_shifted(collect_slots(records, skip=skip.__contains__,
                                        max_depth=lexicon.thresholds.detail_slot_depth,
                                        tag_keys=False, digits=False))
    labels = {squash(label) for spec in lexicon.fields.values() for label in spec.labels}
    return slots + label_slots(records, skip=skip.__contains__,
                               known=lambda text: squash(text) in labels), \
        frozenset(shifted_blocks(slots))


def learn_detail(pages: Sequence[PageView], lexicon: Lexicon, *,
                 list_hints: Sequence[dict[str, str | None]] | None = None,
                 categories: Sequence[set[str]] | None = None,
                 chrome: set[tuple[str, ...]] | None = None) -> DetailLearned:
    """Field rules of the detail level, learned from ``pages`` of one template. ``chrome``:
    the link lists every sampled product page shows alike, never the breadcrumb (None:
    those of ``pages``, when they are products of more than one category)."""
    records = [[p.body] for p in pages]
    cards = [other_products(p) for p in pages]
    skips = [_skipper(p, lexicon) | set(c) for p, c in zip(pages, cards, strict=True)]
    slots, blocks = _slots(records, set().union(*skips), lexicon)
    fields = {k: v for k, v in lexicon.fields_for("detail").items() if v.kind != "breadcrumb"}
    hints = _hints(pages, fields, list_hints)
    ranked = rank_fields(slots, lexicon, "detail", fields, hints, [p.titles for p in pages])
    choices = assign(ranked, lexicon, lexicon.thresholds.min_confidence)
    anchors = _anchors(pages, choices, lexicon)
    if drop_buy_boxes(ranked, pages, anchors, cards, lexicon):
        choices = assign(ranked, lexicon, lexicon.thresholds.min_confidence)
    order_money(choices, fields)
    rules: dict[str, FieldRule] = {}
    notes: list[str] = []
    scope = _scope_xpath(pages, anchors, cards)
    if scope:
        notes.append(f"fields read inside the main product's region {scope}")
    for name, (best, runner) in choices.items():
        found = absolute_xpath(best.slot, pages, best.view, skips, scope,
                                hints.get(name, ()), fields[name].kind, blocks,
                                often_missing=_rated_everywhere(fields[name], best))
        if found is None:
            notes.append(f"{name}: no XPath selects it on every page")
            continue
        rules[name] = calibrate(
            _rule(name, best, runner, found, pages, lexicon, skips, scope, blocks), best, runner,
            fit=found[1], structured=structured_column(pages, fields[name]),
            hints=[h.get(name) for h in list_hints] if list_hints else None,
            titles=[p.titles for p in pages] if fields[name].title else None,
            pages=pages, thresholds=lexicon.thresholds)
    rules = _drop_doubtful(rules, fields, lexicon.thresholds.text_floor, notes)
    rules |= _structured_rules(pages, {k: f for k, f in fields.items() if k not in rules})
    stock = next((k for k, f in fields.items() if f.kind == "availability"), None)
    said = _stock_read(rules[stock], pages) if stock in rules else []
    if stock and (stock not in rules or _partial(rules[stock], choices.get(stock))
                  or None in said):
        told = [h or s for h, s in zip(hints.get(stock) or [None] * len(pages),
                                       said or [None] * len(pages), strict=True)]
        control = learn_buy_control(pages, lexicon, anchors, cards, scope, told)
        if control is not None:
            rules[stock] = control
    rules |= markup_rules(pages, lexicon, fields, rules, anchors, cards, scope)
    rules |= _breadcrumb(pages, lexicon, categories or [], chrome, anchors[0])
    rules = with_local_currency(rules, pages, lexicon)
    required = [k for k, s in fields.items() if s.required]
    confidence = round(sum(rules[k].confidence for k in required if k in rules)
                       / max(len(required), 1), 2)
    return DetailLearned(rules, confidence, notes)


def _rated_everywhere(spec: FieldSpec, best: FieldChoice) -> bool:
    """Whether a rating shows on every sample page (none shows what its path reads on a
    product nobody rated: :func:`~structurer.learn.scoped.reads_where_missing` asks)."""
    return spec.kind == "rating" and all(valid(spec.kind, v, el, spec) for el, v in zip(
        best.slot.elements, best.slot.values(best.view), strict=True))


def _rule(name: str, best: FieldChoice, runner: FieldChoice | None,
          found: tuple[str, float], pages: Sequence[PageView], lexicon: Lexicon,
          noise: Sequence[set[HtmlElement]] = (), scope: str | None = None,
          blocks: frozenset[HtmlElement] = frozenset()) -> FieldRule:
    spec = lexicon.fields[name]
    runner_up = None
    if runner is not None:
        alt = absolute_xpath(runner.slot, pages, runner.view, noise, scope, blocks=blocks)
        if alt is not None and alt[0] != found[0]:
            runner_up = Candidate(xpath=alt[0], confidence=round(max(0, min(1, runner.score)), 2),
                                  samples=runner.slot.samples(runner.view, 2))
    confidence = round(max(0.0, min(1.0, best.score)) * found[1], 2)
    titles = [p.titles for p in pages] if spec.title else []
    post = value_post(spec, best.slot.values(best.view), titles)
    if best.slot.label is not None:
        post = label_rule(best.slot.label)[1]
    return FieldRule(xpath=found[0], kind=spec.kind, multiple=spec.multiple, post=post,
                     confidence=confidence, samples=best.slot.samples(best.view),
                     runner_up=runner_up, evidence=best.evidence[:4],
                     values=spec.values if spec.kind == "availability" else {})


@dataclass
class Layouts:
    """The main detail layout and the others, each with the condition selecting it."""

    main: DetailLearned
    variants: list[tuple[str, DetailLearned]] = field(default_factory=list)
    misfits: list[int] = field(default_factory=list)   # pages the main rules do not fit


def learn_layouts(pages: Sequence[PageView], lexicon: Lexicon, *,
                  list_hints: Sequence[dict[str, str | None]] | None = None,
                  categories: Sequence[set[str]] | None = None) -> Layouts:
    """One rule set per detail layout: where the pages split into a main group and a
    group the main rules do not fit (two or more pages each), learn each on its own."""
    # navigation is what every sampled page shows alike, whatever its layout: a layout
    # seen on few pages of one category cannot tell its trail from the menu by itself
    chrome = navigation(pages) if _varied(categories) else set()
    learned = learn_detail(pages, lexicon, list_hints=list_hints, categories=categories,
                           chrome=chrome)
    bad = misfits(pages, learned.fields, lexicon, list_hints)
    good = [i for i in range(len(pages)) if i not in bad]
    if len(bad) < 2 or len(good) < 2:
        return Layouts(learned, [], bad)

    def pick(ids: list[int]) -> tuple[list[PageView], Any, Any]:
        return ([pages[i] for i in ids],
                [list_hints[i] for i in ids] if list_hints else None,
                [categories[i] for i in ids] if categories else None)

    good_pages, good_hints, good_cats = pick(good)
    bad_pages, bad_hints, bad_cats = pick(bad)
    when = distinguishing_condition(bad_pages, good_pages)
    if when is None:
        return Layouts(learned, [], bad)
    main = learn_detail(good_pages, lexicon, list_hints=good_hints, categories=good_cats,
                        chrome=chrome)
    other = learn_detail(bad_pages, lexicon, list_hints=bad_hints, categories=bad_cats,
                         chrome=chrome)
    for name in site_constants(other.fields, pages):   # the level fills them in
        del other.fields[name]
    return Layouts(main, [(when, other)], bad)
