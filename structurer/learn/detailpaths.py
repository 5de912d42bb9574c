"""XPaths of detail fields: one absolute XPath selecting a field's slot on every page.

Input: a winning :class:`~structurer.learn.slots.Slot` of detail pages, the pages, the
noise blocks of each (other products' cards, related grids, footers), the XPath of the
main product's region and the values known from list pages. Output: the XPath with its
fit (the share of pages it reads right), never one reaching another product's value
where the page's own is missing; a label pair's XPath and post steps
(:func:`label_rule`). Split from :mod:`structurer.learn.detail`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lxml.html import HtmlElement

from structurer.learn import xpaths
from structurer.learn.fields import agreement
from structurer.learn.scoped import reads_where_missing, scoped_candidates
from structurer.learn.slots import Slot
from structurer.page.dom import text_of
from structurer.page.match import strip_label_pattern
from structurer.page.scope import inside
from structurer.page.view import PageView


def label_rule(label: tuple[str, str, str]) -> tuple[str, list[str]]:
    """The XPath and post steps of a label pair (tag, label text, mode), page-wide: the
    text after ``<strong>ISBN-13</strong>``, the cell after ``<th>UPC</th>``, or the
    element reading ``SKU: …`` — its label and punctuation stripped."""
    tag, text, mode = label
    post = [f"regex:{strip_label_pattern(mode, text)}"]
    if mode == "lead":
        return f"//{tag}[starts-with(normalize-space(), {xpaths.quote(text)})]", post
    step = "text()[normalize-space()][1]" if mode == "tail" else "*[1]"
    xpath = f"//{tag}[normalize-space()={xpaths.quote(text)}]/following-sibling::{step}"
    return xpath, post if mode == "tail" else []


def label_xpath(slot: Slot, pages: Sequence[PageView],
                 scope: str | None = None) -> tuple[str, float, list[str]] | None:
    """The label pair's XPath (:func:`label_rule`), checked on pages; inside the main
    product's region where there is one."""
    assert slot.label is not None
    tail, post = label_rule(slot.label)
    strip = re.compile(post[0][6:]) if post else None
    values = slot.values("text")
    for xpath in ([scope + tail] if scope else []) + [tail]:
        right = total = 0
        for page, want in zip(pages, values, strict=True):
            if want is None:
                continue
            total += 1
            got = xpaths.evaluate(xpath, page.tree)
            if got:
                first = got[0]
                value = " ".join(str(first).split()) if isinstance(first, str) \
                    else text_of(first)
                found = strip.search(value) if strip else None
                value = found.group(1).strip() if found else value
                right += value == want or value.startswith(want)
        if total and right / total >= 0.75:
            return xpath, right / total, post
    return None


def _readable(el: HtmlElement) -> bool:
    """Whether an element reads as a value (an empty ``<p>&nbsp;</p>`` reads as null)."""
    return bool(text_of(el)) or any(el.get(a) for a in ("src", "content", "href"))


def _signature(el: HtmlElement) -> str:
    return f"{el.tag}.{'.'.join(sorted((el.get('class') or '').split()))}"


def _reaches_noise(got: Sequence[object], skip: set[HtmlElement]) -> bool:
    return any(isinstance(n, HtmlElement) and inside(n, skip) for n in got[:50])


def _steps_past(xpath: str, view: str,
                blank: Sequence[tuple[HtmlElement, HtmlElement, str | None]], kind: str) -> int:
    """Pages where the slot's own element is blank (an empty ``<p>&nbsp;</p>`` price) and
    replay, stepping over it, would read another element's value instead: a number in
    the description, another product's price. The page's known value found is no fault."""
    wrong = 0
    for tree, own, hint in blank:
        read = xpaths.replayed(xpath, view, tree)
        if read is not None and read is not own and not (
                hint and agreement([text_of(read)], [hint], kind) >= 0.8):
            wrong += 1
    return wrong


def _signs(kind: str, view: str, owns: Sequence[tuple[HtmlElement, HtmlElement]]) -> list[str]:
    """The marks every page's price shows (its sign), to guard a price path with."""
    if kind != "money" or view != "text":
        return []
    return xpaths.shared_marks([text_of(el) for _, el in owns], [])


def _stand_in(xpath: str, view: str, owns: Sequence[tuple[HtmlElement, HtmlElement]]) -> float:
    """A rank's penalty (not a score's) for a price path reading something else where each
    page's price is taken out, as on a product showing none: it loses to one that reads
    nothing there (guarded by its sign, or pinned to the price's box)."""
    return 0.1 * reads_where_missing(xpath, owns, lambda x, tree: xpaths.replayed(
        x, view, tree) is not None)


def _absent_faults(xpath: str, view: str,
                   absent: Sequence[tuple[HtmlElement, set[HtmlElement], str | None]],
                   kind: str, prop: str | None, kinds: set[str]) -> float:
    """What ``xpath`` reads on the pages without the slot, as faults: another element of
    the slot's kind with a value, or one in a noise block, counts 1; the page's own value
    found elsewhere (its known value, its microdata property) counts -0.5."""
    wrong = 0.0
    for tree, skip, hint in absent:
        read = xpaths.replayed(xpath, view, tree)   # what replay would read there
        if read is not None and hint and agreement([text_of(read)], [hint], kind) >= 0.8:
            wrong -= 0.5  # the page's own value, where the slot's path did not reach
        elif read is not None and prop and read.get("itemprop") == prop and not inside(
                read, skip):
            wrong -= 0.5  # the page's own, named so by its microdata property (the
            #               slot's place shifts: a line before it comes and goes)
        elif read is not None and _readable(read) and (
                _signature(read) in kinds or inside(read, skip)):
            wrong += 1   # the same kind of element with a value, on a page without the
            #              value: another product's (a related grid), or in a noise block
    return wrong


def _candidates(ref: HtmlElement, scope: str | None, blocks: frozenset[HtmlElement],
                owns: Sequence[tuple[HtmlElement, HtmlElement]], marks: list[str],
                often_missing: bool, view: str) -> list[str]:
    """The paths to try for a slot whose first element is ``ref``: scoped ones (by
    position last, unpinned and shifted ones before it), those guarded by the price's
    ``marks``, and with ``often_missing`` those kept to elements without a class where
    the field's own have none (a rating's bare ``<span>4,1 / 5</span>``, not the classed
    review count that stands in its place when it is taken out: a product nobody rated)
    and those guarded by the marks every one of the field's texts shows (its scale's
    ``/``, which the bare count ``12 отзывов`` beside it lacks)."""
    plain = scoped_candidates(ref, scope)
    candidates = plain[:-1] + xpaths.unpinned_paths(ref, blocks) + xpaths.shifted_paths(
        [el for _, el in owns]) + plain[-1:]
    unguarded = list(candidates)
    candidates += xpaths.guarded(candidates, marks)  # a class-less price beside paragraphs
    if often_missing and all(el.get("class") is None for _, el in owns):
        candidates += [f"{x}[not(@class)]" for x in candidates if "|" not in x]
    if often_missing and view == "text" and not marks:
        own = xpaths.shared_marks([text_of(el) for _, el in owns], [])
        candidates += xpaths.guarded([x for x in unguarded if "|" not in x], own)
    return candidates


def absolute_xpath(slot: Slot, pages: Sequence[PageView], view: str,
                    noise: Sequence[set[HtmlElement]] = (),
                    scope: str | None = None, hints: Sequence[str | None] = (),
                    kind: str = "text", blocks: frozenset[HtmlElement] = frozenset(),
                    often_missing: bool = False) -> tuple[str, float] | None:
    """The XPath selecting the slot's element first on every page that has it; on pages
    without it, an XPath that reaches into a noise block (the "related products" grid
    below, say) instead loses — an absent old price must stay absent — and so does one
    selecting anything inside another product's card on any page (it would read that
    product's value where the main one is empty or missing). Where the page's value is
    known (``hints``: the list page's), finding it on a page the slot missed is right.
    Inside ``blocks`` that shift between pages (:func:`~structurer.learn.slots.shifted_blocks`)
    a path leaves their positions out before it counts on them. With ``often_missing``
    (a field many products lack, a rating, shown on every sample page) a path that reads
    another element where the slot's own is taken out (:func:`reads_where_missing`)
    loses on each such page."""
    if slot.label is not None:
        paired = label_xpath(slot, pages, scope)
        return (paired[0], paired[1]) if paired else None
    present = [(p.tree, [el]) for p, el in zip(pages, slot.elements, strict=True)
               if el is not None]
    if not present:
        return None
    absent = [(p.tree, noise[i] if i < len(noise) else set(), hints[i] if i < len(hints) else None)
              for i, (p, el) in enumerate(zip(pages, slot.elements, strict=True)) if el is None]
    blank = [(p.tree, el, hints[i] if i < len(hints) else None)
             for i, (p, el) in enumerate(zip(pages, slot.elements, strict=True))
             if el is not None and not _readable(el)]
    ref = present[0][1][0]
    owns = [(tree, el) for tree, (el,) in present]
    kinds = {_signature(el) for el in slot.elements if el is not None}
    props = {el.get("itemprop") for el in slot.elements if el is not None}
    prop = next(iter(props)) if len(props) == 1 else None
    best: tuple[str, float, float] | None = None   # (xpath, rank, score)
    skips = [noise[i] if i < len(noise) else set() for i in range(len(pages))]
    marks = _signs(kind, view, owns)
    candidates = _candidates(ref, scope, blocks, owns, marks, often_missing, view)
    total = max(len(present) + len(absent), 1)
    for xpath in candidates:
        found = xpaths.best_xpath([xpath], present, first_only=True)
        if found is None or (best is not None and found[1] + 0.5 * len(absent) / max(
                len(present) + len(absent), 1) <= best[1] + 1e-9):
            continue   # cannot beat the best so far (penalties only lower a score)
        wrong = sum(0.5 for page, skip in zip(pages, skips, strict=True)
                    if skip and _reaches_noise(xpaths.evaluate(xpath, page.tree), skip))
        wrong += _absent_faults(xpath, view, absent, kind, prop, kinds)
        wrong += _steps_past(xpath, view, blank, kind)
        if often_missing:
            wrong += reads_where_missing(xpath, owns, lambda x, tree: xpaths.replayed(
                x, view, tree) is not None)
        score = found[1] - wrong / total
        rank = score - (_stand_in(xpath, view, owns) / total if marks else 0.0)
        if best is None or rank > best[1] + 1e-9:
            best = (xpath, rank, score)
    if best is None or best[2] < 0.75:
        return None
    return xpaths.for_view(best[0], view), min(1.0, best[2])
