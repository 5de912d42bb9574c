"""Slots: the same place in every record, and the values found there.

Input: record roots (list items on list pages, or page bodies of detail pages).
Output: :class:`Slot` objects keyed by the tag/class path from the record root,
each holding per record the element and its value views (text, href, image
source, attributes). Field location scores slots; XPath generation turns the
winning slot's elements into one XPath.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial

from lxml.html import HtmlElement

from structurer.lexicon import DEFAULT_THRESHOLDS
from structurer.page.dom import NOISE_TAGS, STATE_TOKENS, norm_space, shape_class, text_of
from structurer.page.match import label_value
from structurer.values import image_source  # the runtime's rule: analysis sees what replay sees

LAZY_SRC = ("data-src", "data-original", "data-lazy-src", "data-lazy", "data-srcset", "srcset")
VALUE_ATTRS = ("content", "datetime", "title", "aria-label", "alt", "value")


def _class_step(el: HtmlElement, digits: bool = True) -> str:
    """tag.classes, without state tokens and BEM modifiers (stock--out ~ stock--in); with
    ``digits`` numbers are blanked (item-3 ~ item-7, for records of one list)."""
    cls = el.get("class")
    if not cls:
        return str(el.tag)
    shape = shape_class if digits else str
    toks = sorted({shape(t.split("--")[0]) for t in cls.split()
                   if t.lower() not in STATE_TOKENS and not t.startswith("--")})
    return str(el.tag) + ("." + ".".join(toks) if toks else "")


def _tag_step(el: HtmlElement) -> str:
    return str(el.tag)


@dataclass
class Slot:
    """One place in the records: per record its element (or None) and values by view.

    A label slot (``label`` set) is found by its visible label instead of its path:
    the value after ``<b>ISBN-13:</b>`` or in the ``<dd>`` after ``<dt>SKU</dt>``;
    ``elements`` then holds the label elements.
    """

    key: str
    elements: list[HtmlElement | None]
    views: dict[str, list[str | None]] = field(default_factory=dict)
    label: tuple[str, str, str] | None = None  # (label tag, label text, "tail"|"next"|"lead")
    shift: int = 0   # merged by merge_shifted: the step of the block that shifts

    @property
    def presence(self) -> float:
        return sum(e is not None for e in self.elements) / max(len(self.elements), 1)

    def values(self, view: str) -> list[str | None]:
        return self.views.get(view, [None] * len(self.elements))

    def samples(self, view: str, n: int = 3, width: int = 200) -> list[str]:
        """The first ``n`` distinct values of a view, cut to ``width`` characters."""
        out: list[str] = []
        for value in self.values(view):
            if value and value[:width] not in out:
                out.append(value[:width])
            if len(out) >= n:
                break
        return out

    @property
    def depth(self) -> int:
        """Steps below the record root (label slots count as one)."""
        return 1 if self.label is not None else self.key.count("/")


def _views(el: HtmlElement) -> dict[str, str]:
    views: dict[str, str] = {}
    text = text_of(el)
    if text:
        views["text"] = text
        if len(el):
            own = norm_space(el.text)
            if own and own != text:
                views["own"] = own
    tag = el.tag
    if tag in ("img", "source"):
        src = image_source(el)
        if src:
            views["@src"] = src
    elif tag == "a":
        href = el.get("href")
        if href and not href.startswith(("#", "javascript:")):
            views["@href"] = href.strip()
    for name in VALUE_ATTRS:
        value = el.get(name)
        if value and value.strip():
            views["@" + name] = value.strip()
    for name, value in el.attrib.items():
        if name.startswith("data-") and name not in LAZY_SRC and value and len(value) < 120:
            views["@" + name] = value.strip()
    return views


def collect_slots(records: Sequence[Sequence[HtmlElement]],
                  skip: Callable[[HtmlElement], bool] | None = None,
                  max_depth: int = DEFAULT_THRESHOLDS.slot_depth, tag_keys: bool = True,
                  digits: bool = True, root_classes: bool = True) -> list[Slot]:
    """Slots over records (each record one or more sibling elements).

    Slots are keyed twice: by tag and class path, and by tag path alone (where
    classes vary between records, e.g. a sale price styled differently). Keys that
    repeat within a record get an occurrence suffix (``#2``), so the second price
    of a card is a slot of its own. ``skip`` prunes subtrees (noise regions). Without
    ``root_classes`` the record's own members are keyed by position and tag alone (list
    items: their classes tell records apart, in stock / sold out, never places in them).
    """
    step = partial(_class_step, digits=digits)
    root = step if root_classes else _tag_step
    slots = _collect(records, skip, step, max_depth, root)
    if not tag_keys:
        return slots
    known = {tuple(id(e) for e in s.elements) for s in slots}
    for slot in _collect(records, skip, _tag_step, max_depth, _tag_step):
        if tuple(id(e) for e in slot.elements) not in known:
            slot.key = "~" + slot.key
            slots.append(slot)
    return slots


def _collect(records: Sequence[Sequence[HtmlElement]],
             skip: Callable[[HtmlElement], bool] | None,
             key_step: Callable[[HtmlElement], str], max_depth: int,
             root_step: Callable[[HtmlElement], str]) -> list[Slot]:
    table: dict[str, Slot] = {}
    n = len(records)
    for index, record in enumerate(records):
        seen: dict[str, int] = {}
        stack: list[tuple[HtmlElement, str, int]] = [
            (m, f"{i}:{root_step(m)}", 0) for i, m in reversed(list(enumerate(record)))]
        while stack:
            el, key, depth = stack.pop()
            count = seen.get(key, 0) + 1
            seen[key] = count
            full = key if count == 1 else f"{key}#{count}"
            slot = table.get(full)
            if slot is None:
                slot = table[full] = Slot(full, [None] * n)
            if slot.elements[index] is None:
                slot.elements[index] = el
                for view, value in _views(el).items():
                    slot.views.setdefault(view, [None] * n)[index] = value
            if depth >= max_depth:
                continue
            children = [c for c in el if isinstance(c.tag, str) and c.tag not in NOISE_TAGS]
            for child in reversed(children):
                if skip is not None and skip(child):
                    continue
                stack.append((child, f"{full}/{key_step(child)}", depth + 1))
    return list(table.values())


_LABEL_TAGS = ("b", "strong", "span", "label", "dt", "th", "td", "em", "div", "p", "li")


def label_slots(records: Sequence[Sequence[HtmlElement]],
                skip: Callable[[HtmlElement], bool] | None = None,
                known: Callable[[str], bool] | None = None) -> list[Slot]:
    """Slots keyed by visible labels ("ISBN-13:", "SKU", "商品编号：") across records, each
    holding the value beside its label (:func:`structurer.page.match.label_value`);
    ``known`` tells label texts written without a colon ("UPC" in a ``<strong>``)."""
    table: dict[tuple[str, str, str], Slot] = {}
    n = len(records)
    for index, record in enumerate(records):
        for member in record:
            for el in member.iter(*_LABEL_TAGS):
                if skip is not None and skip(el):
                    continue
                found = label_value(el, known)
                if found is None:
                    continue
                mode, text, value = found
                key = (str(el.tag), text, mode)
                slot = table.get(key)
                if slot is None:
                    slot = table[key] = Slot(f"label:{el.tag}:{text}:{mode}", [None] * n,
                                             label=key)
                if slot.elements[index] is None:
                    slot.elements[index] = el
                    slot.views.setdefault("text", [None] * n)[index] = value
    return list(table.values())


_STEP = re.compile(r"^(.*?)(?:#(\d+))?$")


def _shift_keys(key: str) -> list[tuple[int, tuple[str, ...], int]]:
    """Per step above the slot's own (a block holding it): (step, the key with that
    step's occurrence count left out, the count)."""
    parts = key.split("/")
    steps = [_STEP.match(part).groups() for part in parts]  # type: ignore[union-attr]
    return [(i, tuple(p if j != i else steps[i][0] for j, p in enumerate(parts)),
             int(steps[i][1] or 1)) for i in range(1, len(parts) - 1)]


def _block(key: tuple[str, ...], step: int, count: int) -> str:
    """The key of the block a shifted slot lies in: its key down to ``step``, ``count``-th."""
    return "/".join([*key[:step], key[step] + (f"#{count}" if count > 1 else "")])


def merge_shifted(slots: Sequence[Slot]) -> list[Slot]:
    """``slots`` with the slots of one place that an optional block shifts merged into one.

    On markup without classes a block that only some records show (a rating above the
    price) makes the block after it the second ``div`` there and the first elsewhere:
    the price is ``div#2/p`` on one page and ``div/p`` on the next. Slots whose keys
    differ only in the occurrence count of one step are one place where each record
    holds it inside the last of those blocks (``[last()]``); the merged slot replaces the
    parts it takes every element of (a part present on some records only would pass for
    a place of its own competing with the whole), and the others stay (``div/p`` is the
    rating's own place where the rating is shown)."""
    table = {s.key: s for s in slots}
    groups: dict[tuple[int, tuple[str, ...]], list[tuple[int, Slot]]] = {}
    for slot in slots:
        if slot.label is None:
            for i, key, count in _shift_keys(slot.key):
                groups.setdefault((i, key), []).append((count, slot))
    merged: dict[int, Slot] = {}
    dropped: set[int] = set()
    extra: list[Slot] = []
    for (step, key), parts in groups.items():
        parts = [(c, s) for c, s in parts if id(s) not in dropped and id(s) not in merged]
        if len(parts) < 2:
            continue
        n = len(parts[0][1].elements)
        taken: list[tuple[int, Slot] | None] = [None] * n
        for count, part in parts:
            for i, el in enumerate(part.elements):
                later = (table.get(_block(key, step, c)) for c in range(count + 1, count + 9))
                if el is not None and not any(b is not None and b.elements[i] is not None
                                              for b in later):
                    taken[i] = (count, part)   # its block is the record's last one
        if len({id(t[1]) for t in taken if t is not None}) < 2:
            continue   # one part holds every element: nothing moved
        joined = "/".join(key)   # marked merged, tag-keyed ones still first marked "~"
        tilde = "~" if joined.startswith("~") else ""
        whole = Slot(f"{tilde}≈{step}:{joined.removeprefix('~')}", [None] * n, shift=step)
        for i, got in enumerate(taken):
            if got is not None:
                whole.elements[i] = got[1].elements[i]
                for name, values in got[1].views.items():
                    whole.views.setdefault(name, [None] * n)[i] = values[i]
        within = sorted((c, id(part)) for c, part in parts if all(
            taken[i] is not None and taken[i][1] is part  # type: ignore[index]
            for i, el in enumerate(part.elements) if el is not None))
        if within:
            merged[within[-1][1]] = whole
            dropped.update(i for _, i in within[:-1])
        else:
            extra.append(whole)
    return [merged.get(id(s), s) for s in slots if id(s) not in dropped] + extra


def shifted_blocks(slots: Sequence[Slot]) -> set[HtmlElement]:
    """The blocks merged slots showed to shift (the price box, second ``div`` on one page
    and first on the next): a path by position to anything inside them misses on some
    pages, whatever the samples of that field showed."""
    blocks: set[HtmlElement] = set()
    for slot in slots:
        if not slot.shift:
            continue
        for el in slot.elements:
            block = el
            for _ in range(slot.depth - slot.shift):
                block = block.getparent() if block is not None else None
            if block is not None:
                blocks.add(block)
    return blocks
