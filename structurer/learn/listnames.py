"""Full product names on list pages whose cards cut long names ("Trail Runner Pro Wat…").

Input: the list records, their slots and the learned ``name`` rule. Output: a better
name rule, or None. Shops that cut a name keep the whole of it beside the cut text,
mostly in the link's ``title``, the picture's ``alt`` or an ``aria-label``. The
attribute wins when, in every record whose text is cut (it ends in one of the
lexicon's ``truncation`` marks), it starts with the cut text and goes on, and in every
other record where it exists it equals the text. Where the attribute is on some cards
only (a title only where the text is cut) the rule reads it there and the text
elsewhere, as one XPath union; the union is verified on every record.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from lxml.html import HtmlElement

from structurer.learn import xpaths
from structurer.learn.slots import Slot
from structurer.page.dom import norm_space, text_of
from structurer.replay.extract import CompiledRules, compile_rules, extract_detail, extract_list
from structurer.rules.expressions import check_xpath
from structurer.rules.model import Candidate, FieldRule, SiteRules

if TYPE_CHECKING:
    from structurer.lexicon import Lexicon
    from structurer.page.view import PageView

#: attribute views that hold a whole name, the likeliest first
NAME_VIEWS = ("@title", "@aria-label", "@alt", "@content")


def _cut(value: str | None, marks: Sequence[str]) -> str | None:
    """The text before a truncation mark ending ``value`` (None: not cut)."""
    text = (value or "").rstrip()
    for mark in marks:
        if text.endswith(mark) and len(text) > len(mark):
            return text[: -len(mark)].rstrip()
    return None


def _fits(shown: list[str | None], full: list[str | None], marks: Sequence[str]) -> int | None:
    """How many cut names ``full`` completes, when it agrees with every shown name (longer
    where the text is cut, equal where it is not); None when it contradicts one."""
    completes = 0
    for text, whole in zip(shown, full, strict=True):
        if whole is None or text is None:
            continue
        whole = norm_space(whole)
        prefix = _cut(text, marks)
        if prefix is not None:
            if not (whole.startswith(prefix) and len(whole) > len(prefix)):
                return None
            completes += 1
        elif whole != norm_space(text):
            return None
    return completes


def _between(src: HtmlElement, dst: HtmlElement) -> str | None:
    """A relative path from ``src`` to ``dst`` by tags ('.', '..', 'a', '../dd/a/img')."""
    if dst is src:
        return "."
    up_chain = [src, *src.iterancestors()]
    down: list[str] = []
    node: HtmlElement | None = dst
    while node is not None and all(node is not u for u in up_chain):
        down.append(str(node.tag))
        node = node.getparent()
    if node is None:
        return None
    ups = next(i for i, u in enumerate(up_chain) if u is node)
    return "/".join([".."] * ups + list(reversed(down))) or "."


def _union(name: str, full: str, slot: Slot, text_slot: Slot) -> str | None:
    """``full`` where the attribute exists, else the text: 'F | C[not(REL)]'."""
    src = next((e for e in text_slot.elements if e is not None), None)
    index = text_slot.elements.index(src) if src is not None else -1
    dst = slot.elements[index] if index >= 0 else None
    if src is None or dst is None or not full.rsplit("/", 1)[-1].startswith("@"):
        return None
    path = _between(src, dst)
    if path is None:
        return None
    attribute = full.rsplit("/", 1)[-1]
    rel = attribute if path == "." else f"{path}/{attribute}"
    return f"{full} | {name}[not({rel})]"


def _reads(xpath: str, records: Sequence[Sequence[HtmlElement]]) -> list[str | None]:
    out: list[str | None] = []
    for rec in records:
        got = xpaths.evaluate(xpath, rec[0])
        first = got[0] if got else None
        if first is None:
            out.append(None)
        else:
            value = first if isinstance(first, str) else text_of(first)
            out.append(norm_space(value) or None)
    return out


def full_name_rule(rule: FieldRule, name_slot: Slot, view: str, slots: Sequence[Slot],
                   records: Sequence[Sequence[HtmlElement]], marks: Sequence[str],
                   relative: object) -> FieldRule | None:
    """A name rule reading whole names where ``rule`` reads cut ones (None: no better one).

    ``relative`` is :func:`structurer.learn.listpaths.relative_xpath` (slot, records, view)."""
    shown = name_slot.values(view)
    cut = sum(_cut(v, marks) is not None for v in shown)
    if not marks or cut == 0 or rule.xpath is None:
        return None
    found: list[tuple[tuple[int, int, str], Slot, str]] = []
    for slot in slots:
        for rank, attr in enumerate(NAME_VIEWS):
            fit = _fits(shown, slot.values(attr), marks)
            if fit is None or fit < cut:
                continue
            found.append(((_distance(slot, name_slot), rank, slot.key), slot, attr))
    for _, slot, attr in sorted(found, key=lambda f: f[0]):
        full = relative(slot, records, attr)  # type: ignore[operator]
        if not isinstance(full, str):
            continue
        for xpath in (_union(rule.xpath, full, slot, name_slot), full):
            if xpath is None or not _verified(xpath, shown, slot.values(attr), records, marks):
                continue
            try:
                check_xpath(xpath, per_item=True)
            except ValueError:
                continue
            samples = [v for v in _reads(xpath, records) if v][:3]
            return rule.model_copy(update={
                "xpath": xpath, "samples": samples, "post": [],
                "runner_up": Candidate(xpath=rule.xpath, confidence=rule.confidence,
                                       samples=rule.samples[:2]),
                "evidence": [f"the whole name from {attr} where the text is cut "
                             f"({cut} of {len(shown)} records)", *rule.evidence[:3]]})
    return None


def attribute_names(slots: Sequence[Slot], name_slot: Slot, view: str
                    ) -> list[list[str | None]]:
    """Per record, what the other places a card keeps a name in say (a link's ``title``,
    a picture's ``alt``: :data:`NAME_VIEWS`), the name's own slot view left out: a second
    source telling a brand every sampled name starts with (a brand-only category) from a
    label before each name (``by Acme``)."""
    sources = [slot.values(attr) for slot in slots for attr in NAME_VIEWS
               if not (slot is name_slot and attr == view)]
    return [list(told) for told in zip(*sources, strict=True)] if sources else []


def _distance(slot: Slot, name_slot: Slot) -> int:
    """0: the name's own element, 1: around it (its link, its heading), 2: elsewhere."""
    a = next((e for e in name_slot.elements if e is not None), None)
    if a is None:
        return 2
    b = slot.elements[name_slot.elements.index(a)]
    if b is None:
        return 2
    if b is a:
        return 0
    return 1 if any(x is b for x in a.iterancestors()) or any(x is a for x in
                                                                  b.iterancestors()) else 2


def _verified(xpath: str, shown: list[str | None], full: list[str | None],
              records: Sequence[Sequence[HtmlElement]], marks: Sequence[str]) -> bool:
    """Every record reads the whole name: the attribute where the text is cut, the text
    (or an equal attribute) elsewhere."""
    for got, text, whole in zip(_reads(xpath, records), shown, full, strict=True):
        if text is None:
            continue    # the name's slot is not in this record: nothing to compare
        want = norm_space(whole) if _cut(text, marks) is not None and whole else \
            norm_space(text or "") or None
        if got != want:
            return False
    return True


def _listed_names(compiled: CompiledRules, lists: Sequence[PageView], names: Sequence[str]
                  ) -> dict[str, dict[str, Any]]:
    """Per field of ``names``, per item URL, what the list level's rules read on ``lists``
    (their trees as analysis holds them: nothing parsed again)."""
    out: dict[str, dict[str, Any]] = {name: {} for name in names}
    for page in lists:
        for item in extract_list(compiled, page.tree, page.url, jsonld=page.jsonld).items:
            if isinstance(item.get("url"), str):
                for name in names:
                    out[name].setdefault(item["url"], item.get(name))
    return out


def uncut_by_details(rules: SiteRules, lists: Sequence[PageView],
                     details: Sequence[PageView], lexicon: Lexicon) -> SiteRules:
    """A list title field whose constant start was cut as a label (``Kestrel`` of every
    name on a brand's own category page, where the cards hold no other name) keeps it
    where the products' own pages name them with it: the list's values read without the
    cut equal the detail pages' names on half or more of the checked items, the cut
    ones on fewer. The detail page's name is the second source the list page lacked.
    The rules are compiled twice (as learned, and every such field without its cut) and
    read on the sample pages' trees."""
    level, detail = rules.levels.list, rules.levels.detail
    names = [k for k, rule in (level.fields.items() if level is not None else ())
             if lexicon.fields.get(k) is not None and lexicon.fields[k].title
             and rule.post and all(step.startswith("regex:") for step in rule.post)]
    if level is None or detail is None or not names or not details:
        return rules
    compiled = compile_rules(rules)
    whole = rules.model_copy(update={"levels": rules.levels.model_copy(update={
        "list": level.model_copy(update={"fields": {
            **level.fields, **{name: level.fields[name].model_copy(update={"post": []})
                               for name in names}}})})})
    own = {p.url: extract_detail(compiled, p.tree, p.url, jsonld=p.jsonld) for p in details}
    cuts, uncuts = _listed_names(compiled, lists, names), \
        _listed_names(compile_rules(whole), lists, names)
    fields = dict(level.fields)
    for name in names:
        cut, uncut = cuts[name], uncuts[name]
        told = [(norm_space(str(own[u].get(name))), u) for u in uncut
                if u in own and own[u].get(name)]
        agree = sum(norm_space(str(uncut[u] or "")) == t for t, u in told)
        if told and 2 * agree >= len(told) and agree > sum(
                norm_space(str(cut.get(u) or "")) == t for t, u in told):
            fields[name] = level.fields[name].model_copy(update={
                "post": [], "evidence": [*level.fields[name].evidence, "the constant start "
                                         "is part of the name: the products' pages name "
                                         f"them with it ({agree} of {len(told)})"]})
    return rules.model_copy(update={"levels": rules.levels.model_copy(
        update={"list": level.model_copy(update={"fields": fields})})})
