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
from structurer.learn.confidence import calibrate, calibrate_breadcrumb, structured_column
from structurer.learn.fields import (
    FieldChoice,
    assign,
    common_prefix_post,
    money_order,
    rank_fields,
)
from structurer.learn.layouts import distinguishing_condition
from structurer.learn.slots import Slot, collect_slots, label_slots
from structurer.lexicon import Lexicon
from structurer.page.dom import attribute_words, text_of
from structurer.page.match import lexicon_match
from structurer.page.view import PageView
from structurer.rules.model import Candidate, FieldRule
from structurer.structured import jsonld_value

_SKIP_TAGS = frozenset({"footer", "aside"})


@dataclass
class DetailLearned:
    fields: dict[str, FieldRule]
    confidence: float
    notes: list[str] = field(default_factory=list)


def _skipper(page: PageView, lexicon: Lexicon) -> set[HtmlElement]:
    """Subtrees that are never the product: lists of other products, footers, menus.

    Elements themselves are kept (not their id()), so lxml keeps their proxies alive.
    """
    skip: set[HtmlElement] = set()
    for region in page.regions:
        f = region.features
        if len(region) >= 3 and f.get("link_frac", 0) >= 0.6 and f.get("node_share", 1) < 0.35:
            skip.update(m for rec in region.records for m in rec)
    noise = lexicon.signals.get("noise", {})
    for el in page.body.iter():
        if not isinstance(el.tag, str):
            continue
        if el.tag in _SKIP_TAGS:
            skip.add(el)
        elif el.get("class") or el.get("id"):
            words = {t for _, t in attribute_words(el, ("id", "class"))}
            if any(noise.get(w, 0) >= 10 for w in words) and el.tag not in ("body", "main"):
                skip.add(el)
    return skip


def _label_xpath(slot: Slot, pages: Sequence[PageView]) -> tuple[str, float] | None:
    """``//b[normalize-space()='ISBN-13:']/following-sibling::text()[1]``, checked on pages."""
    assert slot.label is not None
    tag, text, mode = slot.label
    step = "text()[normalize-space()][1]" if mode == "tail" else "*[1]"
    xpath = f"//{tag}[normalize-space()={xpaths.quote(text)}]/following-sibling::{step}"
    values = slot.values("text")
    right = total = 0
    for page, want in zip(pages, values, strict=True):
        if want is None:
            continue
        total += 1
        got = xpaths.evaluate(xpath, page.tree)
        if got:
            first = got[0]
            value = " ".join(str(first).split()) if isinstance(first, str) else text_of(first)
            right += value.split("\n")[0].strip() == want or value.startswith(want)
    return (xpath, right / total) if total and right / total >= 0.75 else None


def _signature(el: HtmlElement) -> str:
    return f"{el.tag}.{'.'.join(sorted((el.get('class') or '').split()))}"


def _absolute_xpath(slot: Slot, pages: Sequence[PageView], view: str,
                    noise: Sequence[set[HtmlElement]] = ()) -> tuple[str, float] | None:
    """The XPath selecting the slot's element first on every page that has it; on pages
    without it, an XPath that reaches into a noise block (the "related products" grid
    below, say) instead loses — an absent old price must stay absent."""
    if slot.label is not None:
        return _label_xpath(slot, pages)
    present = [(p.tree, [el]) for p, el in zip(pages, slot.elements, strict=True)
               if el is not None]
    if not present:
        return None
    absent = [(p.tree, noise[i] if i < len(noise) else set())
              for i, (p, el) in enumerate(zip(pages, slot.elements, strict=True)) if el is None]
    ref = present[0][1][0]
    kinds = {_signature(el) for el in slot.elements if el is not None}
    best: tuple[str, float] | None = None
    for xpath in xpaths.absolute_candidates(ref):
        found = xpaths.best_xpath([xpath], present, first_only=True)
        if found is None:
            continue
        wrong = 0
        for tree, skip in absent:
            got = [n for n in xpaths.evaluate(xpath, tree) if isinstance(n, HtmlElement)][:1]
            if got and (_signature(got[0]) in kinds or any(
                    a in skip for a in [got[0], *got[0].iterancestors()])):
                wrong += 1   # the same kind of element, on a page without the value: another
                #              product's (a related grid), or inside a noise block
        score = found[1] - wrong / max(len(present) + len(absent), 1)
        if best is None or score > best[1] + 1e-9:
            best = (xpath, score)
    if best is None or best[1] < 0.75:
        return None
    return xpaths.for_view(best[0], view), best[1]


def learn_breadcrumb(pages: Sequence[PageView], lexicon: Lexicon,
                     categories: Sequence[set[str]]) -> FieldRule | None:
    """The link trail naming the product's categories, top first."""
    spec = next((s for s in lexicon.fields.values() if s.kind == "breadcrumb"), None)
    name = next((k for k, s in lexicon.fields.items() if s.kind == "breadcrumb"), None)
    if spec is None or name is None:
        return None
    ref_page = pages[0]
    best: tuple[float, HtmlElement, list[str]] | None = None
    listed = {m for r in ref_page.product_regions for rec in r.records for m in rec}
    for el in ref_page.body.iter("ol", "ul", "nav", "div", "p"):
        links = el.findall(".//a")
        if not 2 <= len(links) <= 12 or el in listed:
            continue
        texts = [text_of(a) for a in links]
        if sum(len(t) for t in texts) > 200 or not all(texts):
            continue
        lex, _ = lexicon_match(el, spec, lexicon, lexicon.partial_ratio(name))
        hint = categories[0] if categories else set()
        overlap = len({t.lower() for t in texts} & {h.lower() for h in hint}) / max(len(hint), 1)
        score = lex + 1.5 * overlap - 0.02 * len(links)
        if best is None or score > best[0]:
            best = (score, el, texts)
    if best is None or best[0] < 0.3:
        return None
    candidates = [f"{x}//a" for x in xpaths.absolute_candidates(best[1])]
    cases = []
    for page in pages:
        cases.append(page)
    chosen = None
    for xpath in candidates:
        ok = 0
        for page in cases:
            texts = [text_of(a) for a in xpaths.evaluate(xpath, page.tree)
                     if isinstance(a, HtmlElement)]
            if 2 <= len(texts) <= 12:
                ok += 1
        if ok >= 0.8 * len(cases):
            chosen = xpath
            break
    if chosen is None:
        return None
    return FieldRule(xpath=chosen, kind="breadcrumb", multiple=True,
                     confidence=round(min(1.0, best[0]), 2),
                     samples=[" > ".join(best[2])])


def learn_detail(pages: Sequence[PageView], lexicon: Lexicon, *,
                 list_hints: Sequence[dict[str, str | None]] | None = None,
                 categories: Sequence[set[str]] | None = None) -> DetailLearned:
    """Field rules of the detail level, learned from ``pages`` of one template."""
    records = [[p.body] for p in pages]
    skips = [_skipper(p, lexicon) for p in pages]
    all_skips: set[HtmlElement] = set().union(*skips)
    slots = collect_slots(records, skip=all_skips.__contains__,
                          max_depth=lexicon.thresholds.detail_slot_depth,
                          tag_keys=False, digits=False)
    slots += label_slots(records, skip=all_skips.__contains__)
    fields = {k: v for k, v in lexicon.fields_for("detail").items() if v.kind != "breadcrumb"}
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
    ranked = rank_fields(slots, lexicon, "detail", fields, hints, [p.titles for p in pages])
    choices = assign(ranked, lexicon, lexicon.thresholds.min_confidence)
    if "price" in choices and "original_price" in choices and not money_order(
            choices["price"][0], choices["original_price"][0]):
        del choices["original_price"]
    rules: dict[str, FieldRule] = {}
    notes: list[str] = []
    for name, (best, runner) in choices.items():
        found = _absolute_xpath(best.slot, pages, best.view, skips)
        if found is None:
            notes.append(f"{name}: no XPath selects it on every page")
            continue
        rules[name] = calibrate(
            _rule(name, best, runner, found, pages, lexicon, skips), best, runner,
            fit=found[1], structured=structured_column(pages, fields[name]),
            hints=[h.get(name) for h in list_hints] if list_hints else None,
            titles=[p.titles for p in pages] if fields[name].title else None,
            pages=pages, thresholds=lexicon.thresholds)
    for name, spec in fields.items():
        path = next((p for p in spec.structured if all(
            page.product is not None and jsonld_value(page.product, p) not in (None, "")
            for page in pages)), None) if name not in rules else None
        if path is not None:
            rules[name] = FieldRule(jsonld=path, kind=spec.kind, confidence=0.9,
                                    evidence=["JSON-LD Product on every page"],
                                    values=spec.values if spec.kind == "availability" else {})
    crumb = calibrate_breadcrumb(learn_breadcrumb(pages, lexicon, categories or []), pages,
                                 categories or [], lexicon.thresholds)
    crumb_name = next((k for k, s in lexicon.fields.items() if s.kind == "breadcrumb"), None)
    if crumb is not None and crumb_name:
        rules[crumb_name] = crumb
    required = [k for k, s in fields.items() if s.required]
    confidence = round(sum(rules[k].confidence for k in required if k in rules)
                       / max(len(required), 1), 2)
    return DetailLearned(rules, confidence, notes)


def _rule(name: str, best: FieldChoice, runner: FieldChoice | None,
          found: tuple[str, float], pages: Sequence[PageView], lexicon: Lexicon,
          noise: Sequence[set[HtmlElement]] = ()) -> FieldRule:
    spec = lexicon.fields[name]
    runner_up = None
    if runner is not None:
        alt = _absolute_xpath(runner.slot, pages, runner.view, noise)
        if alt is not None and alt[0] != found[0]:
            runner_up = Candidate(xpath=alt[0], confidence=round(max(0, min(1, runner.score)), 2),
                                  samples=runner.slot.samples(runner.view, 2))
    confidence = round(max(0.0, min(1.0, best.score)) * found[1], 2)
    post = common_prefix_post(best.slot.values(best.view)) if spec.kind == "text" else []
    return FieldRule(xpath=found[0], kind=spec.kind, multiple=spec.multiple, post=post,
                     confidence=confidence, samples=best.slot.samples(best.view),
                     runner_up=runner_up, evidence=best.evidence[:4],
                     values=spec.values if spec.kind == "availability" else {})


def _value(xpath: str, page: PageView) -> str:
    """What ``xpath`` finds on ``page``: text, else an image or link address."""
    for node in xpaths.evaluate(xpath, page.tree):
        if isinstance(node, HtmlElement):
            text = text_of(node) or node.get("src") or node.get("href") or \
                node.get("content") or ""
        else:
            text = " ".join(str(node).split())
        if text:
            return text
    return ""


def misfits(pages: Sequence[PageView], learned: DetailLearned, lexicon: Lexicon,
            list_hints: Sequence[dict[str, str | None]] | None = None) -> list[int]:
    """Indexes of pages the learned rules do not fit: a required field or two of the
    usual fields missing, or a title that is not the name the list page gave — pages
    of another layout."""
    rules = {k: r.xpath for k, r in learned.fields.items() if r.xpath}
    found = [{k: _value(x, page) for k, x in rules.items()} for page in pages]
    # fields nearly every page shows, and the required ones wherever the rules have them
    usual = [k for k in rules if sum(bool(f[k]) for f in found) >= 0.8 * len(pages)]
    required = [k for k in rules if lexicon.fields[k].required]
    title = next((k for k in rules if lexicon.fields[k].title), None)
    bad: list[int] = []
    for i, values in enumerate(found):
        missing = [k for k in usual if not values[k]]
        hint = (list_hints[i] if list_hints else {}).get("name")
        wrong_title = bool(hint and title and values.get(title) and
                           " ".join(hint.split()).lower() not in values[title].lower())
        if len(missing) >= 2 or any(not values[k] for k in required) or wrong_title:
            bad.append(i)
    return bad


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
    learned = learn_detail(pages, lexicon, list_hints=list_hints, categories=categories)
    bad = misfits(pages, learned, lexicon, list_hints)
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
    main = learn_detail(good_pages, lexicon, list_hints=good_hints, categories=good_cats)
    other = learn_detail(bad_pages, lexicon, list_hints=bad_hints, categories=bad_cats)
    return Layouts(main, [(when, other)], bad)
