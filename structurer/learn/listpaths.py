"""XPaths of a list's fields, relative to one item, checked against what replay reads.

Input: a slot (one place in the records: per record its element or None), the records
and the value view read. Output: one XPath relative to a record's first element that
selects the slot in each record, or None. Replay reads the first selected node with a
value, so the check does too: an XPath that steps over a sold-out card's blank price to
the review count beside it loses to one that reads nothing there. Pure.
"""

from __future__ import annotations

from collections.abc import Callable

from lxml.html import HtmlElement

from structurer.learn import xpaths
from structurer.learn.fields import valid
from structurer.learn.slots import Slot
from structurer.lexicon import Lexicon
from structurer.page.dom import text_of

__all__ = ["misfit", "relative_xpath"]


def _from_first(path: str, member: int) -> str:
    """``path`` (relative to a record's ``member``-th element) relative to its first one:
    records of several siblings (dt + dd, tr + tr) reach the later ones by
    ``following-sibling::*[n]``."""
    if member == 0:
        return path
    sibling = f"following-sibling::*[{member}]"
    if path == ".":
        return sibling
    return sibling + path[1:] if path.startswith(".//") else f"{sibling}/{path[2:]}"


def relative_xpath(slot: Slot, records: list[list[HtmlElement]], view: str,
                   invalid: Callable[[HtmlElement], bool] | None = None) -> str | None:
    """One XPath, relative to the record's first element, selecting the slot in each record
    (in a later sibling of a record of several, through ``following-sibling``). With
    ``invalid``, an XPath from which replay would read, in a record where the slot holds
    no value (missing, or a sold-out item's blank price), an element that cannot be the
    field (a review count "(37)") loses for it: replay reads the first selected node with
    a value, so a blank first match is stepped over, and the check steps over it too.

    A slot that itself holds such an element on some records (class-less cards: the
    first ``span`` is the price, or the review count where a sold-out card shows no
    price) is first judged without them, as records where the field is absent; the
    XPaths then also try a guard on the mark every value shows and no misfit does (the
    currency sign: ``span[contains(., 'R$')]``). Where nothing reads them as absent,
    the slot is judged whole, as before."""
    if invalid is not None:
        fitting = _fitting(slot, view, invalid)
        if fitting is not None:
            found = _relative_xpath(fitting[0], records, view, invalid, fitting[1])
            if found is not None:
                return found
    return _relative_xpath(slot, records, view, invalid, ())


def _fitting(slot: Slot, view: str, invalid: Callable[[HtmlElement], bool]
             ) -> tuple[Slot, tuple[str, ...]] | None:
    """The slot without its misfit elements, and the marks its values all show that no
    misfit shows (tokens between numbers and spaces: ``R$``, ``€``, ``kr``); None when
    the slot holds no misfit or nothing but misfits."""
    values = slot.values(view)
    bad = {i for i, el in enumerate(slot.elements) if el is not None and values[i]
           and invalid(el)}
    good = [values[i] or "" for i, el in enumerate(slot.elements)
            if el is not None and values[i] and i not in bad]
    if not bad or not good:
        return None
    elements = [None if i in bad else el for i, el in enumerate(slot.elements)]
    views = {name: [None if i in bad else v for i, v in enumerate(column)]
             for name, column in slot.views.items()}
    misfits = [text_of(el) for i, el in enumerate(slot.elements) if i in bad and el is not None]
    marks = xpaths.shared_marks(good, misfits)
    return Slot(slot.key, elements, views, slot.label, slot.shift), tuple(marks)


def _relative_xpath(slot: Slot, records: list[list[HtmlElement]], view: str,
                    invalid: Callable[[HtmlElement], bool] | None,
                    marks: tuple[str, ...]) -> str | None:
    cases: list[tuple[HtmlElement, list[HtmlElement]]] = []
    absent: list[HtmlElement] = []
    ref: tuple[HtmlElement, HtmlElement, int] | None = None
    members: list[HtmlElement] = []
    for rec, el, value in zip(records, slot.elements, slot.values(view), strict=True):
        if el is None or not (value or "").strip():
            if rec:
                absent.append(rec[0])
            continue
        index = next((i for i, m in enumerate(rec)
                      if m is el or any(a is m for a in el.iterancestors())), None)
        if index is None or (ref is not None and index != ref[2]):
            continue
        cases.append((rec[0], [el]))
        members.append(rec[index])
        if ref is None:
            ref = (el, rec[index], index)
    if ref is None:
        return None
    shifted = xpaths.shifted_paths([c[1][0] for c in cases], members)
    candidates = [_from_first(c, ref[2])
                  for c in xpaths.relative_candidates(ref[0], ref[1]) + shifted]
    if view == "text":
        candidates += xpaths.guarded(candidates, marks)
    if invalid is None or not absent:
        best = xpaths.best_xpath(candidates, cases, first_only=True)
    else:
        best = None
        for xpath in candidates:
            found = xpaths.best_xpath([xpath], cases, first_only=True)
            if found is None or (best is not None and found[1] <= best[1] + 1e-9):
                continue
            wrong = sum(1 for item in absent if (node := xpaths.replayed(xpath, view, item))
                        is not None and invalid(node))
            score = found[1] - wrong / (len(cases) + len(absent))
            if best is None or score > best[1] + 1e-9:
                best = (xpath, score)
            if score >= 1.0:
                break
    if best is None or best[1] < 0.9:
        return None
    return xpaths.for_view(best[0], view)


def misfit(name: str, lexicon: Lexicon) -> Callable[[HtmlElement], bool] | None:
    """For fields whose values have a shape (money, counts, ratings): whether an element's
    text cannot be one of them. An empty element (a sold-out item's blank price) is no
    misfit: it gives no value, not a wrong one."""
    spec = lexicon.fields[name]
    if spec.kind not in ("money", "integer", "rating"):
        return None
    return lambda el: bool(text_of(el)) and not valid(spec.kind, text_of(el), el, spec)
