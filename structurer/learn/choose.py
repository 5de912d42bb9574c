"""Choosing among ranked slots: one slot per field, the price before the old price.

Input: per field the ranked :class:`~structurer.learn.fields.FieldChoice` list of
:func:`structurer.learn.fields.rank_fields`. Output: per field the chosen slot and its
runner-up (each slot used once, required fields first, a specific value before the
container holding it, a price and an old price swapped back where the markup named them
the wrong way round, the product's buy box no text field of it and a specification grid
no description), and the post steps a chosen slot's values need (a constant label
cut, an old price's ``money`` check). Split from :mod:`structurer.learn.fields`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from lxml.html import HtmlElement

from structurer.kinds import parse_money
from structurer.lexicon import FieldSpec, Lexicon
from structurer.page.dom import MONEY_RE, NUMBER_RE, norm_space, text_of
from structurer.page.scope import buy_control, main_region

if TYPE_CHECKING:
    from structurer.learn.fields import FieldChoice
    from structurer.page.view import PageView


def norm_value(value: str) -> str:
    return norm_space(value).lower().strip(" :：")


def _inside(part: str | None, whole: str | None) -> bool:
    return bool(part and whole) and norm_value(part or "") in norm_value(whole or "")


_AMOUNT_GOES_ON = re.compile(r"^(?:[.,'\u00a0\u202f]?\d|\s?[.,]\s?\d)")


def _cuts_amount(part: str | None, whole: str | None) -> bool:
    """Whether ``part`` stops inside an amount of ``whole``: "€ 50" of "€ 50,95" (cents
    in a ``<sup>``) is a piece of the price, not a more specific value."""
    if not part or not whole:
        return False
    p, w = norm_value(part), norm_value(whole)
    at = w.find(p)
    return at >= 0 and _AMOUNT_GOES_ON.match(w[at + len(p):]) is not None


_BARE_AMOUNT = re.compile(r"^\s*\d[\d.,'\u00a0\u202f ]*$")


def _drops_currency(part: str | None, whole: str | None) -> bool:
    """Whether ``part`` is ``whole``'s amount without the currency sign ``whole`` shows:
    "103.99" of "£ 103.99" (the sign in a span of its own) is less of the price, not a
    more specific value."""
    if not part or not whole or not _BARE_AMOUNT.match(part):
        return False
    p, w = parse_money(part), parse_money(whole)
    return p.amount is not None and p.amount == w.amount and p.currency is None \
        and w.currency is not None


Promotion = Callable[["FieldChoice", list[str | None], "FieldChoice"], str | None]


def _promote(choices: list[FieldChoice], margin: float, why: Promotion) -> list[FieldChoice]:
    """Put first the first runner-up within ``margin`` of the leader's score for which
    ``why(leader, the leader's values, runner-up)`` gives a reason (the evidence it
    earns); the order unchanged where none does."""
    if len(choices) < 2:
        return choices
    lead = choices[0]
    lead_values = lead.slot.values(lead.view)
    for other in choices[1:]:
        if other.score < lead.score - margin:
            break
        reason = why(lead, lead_values, other)
        if reason is not None:
            other.evidence.append(reason)
            return [other, *[c for c in choices if c is not other]]
    return choices


def prefer_specific(choices: list[FieldChoice], margin: float = 0.25) -> list[FieldChoice]:
    """Put first a close runner-up whose values sit inside the leader's in most records:
    the leader is a container ("Acme / 2008 / Paperback"), the runner-up the value."""
    return _promote(choices, margin, _more_specific)


def _more_specific(lead: FieldChoice, lead_values: list[str | None],
                   other: FieldChoice) -> str | None:
    if (other.view in ("text", "own")) != (lead.view in ("text", "own")):
        return None   # a visible text and an attribute copy are not container and part
    values = other.slot.values(other.view)
    if len(set(filter(None, values))) <= 1 < sum(1 for v in values if v):
        return None   # the same text everywhere ("by", "Price:") is a label, not the value
    pairs = [(v, w) for v, w in zip(values, lead_values, strict=True) if v and w]
    if any(_cuts_amount(v, w) or _drops_currency(v, w) for v, w in pairs):
        return None   # a piece of an amount ("€ 50" of "€ 50,95", "50" of "€ 50")
    strict = sum(_inside(v, w) and norm_value(v) != norm_value(w) for v, w in pairs)
    if pairs and strict and sum(_inside(v, w) for v, w in pairs) >= 0.8 * len(pairs) and len(
            pairs) >= 0.8 * sum(1 for w in lead_values if w):
        return "more specific than a container holding it"
    return None


def prefer_labelled(choices: list[FieldChoice], margin: float = 0.25) -> list[FieldChoice]:
    """Put first a close runner-up read beside its label (a label pair's slot) that reads
    what the leader, a place, reads on every page the place holds a value, and reads it on
    more pages: the place is where the value sits on some pages only (an optional line
    before it shifts it down), the label goes wherever the value does."""
    if choices and choices[0].slot.label is not None:
        return choices
    return _promote(choices, margin, _labelled_wider)


def _labelled_wider(lead: FieldChoice, lead_values: list[str | None],
                    other: FieldChoice) -> str | None:
    if other.slot.label is None:
        return None
    values = other.slot.values(other.view)
    pairs = [(w, v) for w, v in zip(lead_values, values, strict=True) if w]
    shown = sum(1 for v in values if v)
    if pairs and all(v and norm_value(v) == norm_value(w) for w, v in pairs) and shown > len(
            pairs):
        return f"beside its label on {shown} pages, the place ahead of it on {len(pairs)}"
    return None


def assign(ranked: dict[str, list[FieldChoice]], lexicon: Lexicon,
           min_score: float) -> dict[str, tuple[FieldChoice, FieldChoice | None]]:
    """One slot view per field, each slot view used once; required fields choose first."""
    order = sorted(ranked, key=lambda f: (not lexicon.fields[f].required,
                                          -(ranked[f][0].score if ranked[f] else 0)))
    taken: set[tuple[str, str]] = set()
    taken_values: list[list[str | None]] = []
    out: dict[str, tuple[FieldChoice, FieldChoice | None]] = {}
    for name in order:
        options = [c for c in ranked[name] if (c.slot.key, c.view) not in taken]
        options = [c for c in options if c.score >= min_score
                   and not any(_same_values(c.slot.values(c.view), v) for v in taken_values)]
        if not options:
            continue
        best = options[0]
        runner = next((c for c in options[1:] if c.slot.key != best.slot.key), None)
        taken.add((best.slot.key, best.view))
        taken_values.append(best.slot.values(best.view))
        out[name] = (best, runner)
    return out


def drop_buy_boxes(ranked: dict[str, list[FieldChoice]], pages: Sequence[PageView],
                    anchors: Sequence[HtmlElement | None], cards: Sequence[list[HtmlElement]],
                    lexicon: Lexicon) -> bool:
    """Leave out the text candidates that are the product's buy box: a block holding the
    product's heading or the page's own add-to-cart control (name, price, stock, buttons)
    on half the pages or more is no description, brand or other text field of it, however
    its class words score; nor is a grid of specifications (a table, a definition list)
    a prose field (the description). True where a field lost a candidate."""
    vocab = lexicon.signals.get("add_to_cart", {})
    marks: list[set[HtmlElement]] = []
    for page, anchor, page_cards in zip(pages, anchors, cards, strict=True):
        control = buy_control(main_region(page, anchor, page_cards), lexicon) \
            if anchor is not None and vocab else None
        marks.append({m for m in (anchor, control) if m is not None})
    holders = [{up for m in mark for up in m.iterancestors()} | mark for mark in marks]
    dropped = False
    for name, choices in ranked.items():
        spec = lexicon.fields[name]
        if spec.title or spec.kind not in ("text", "html"):
            continue
        kept = [c for c in choices if not _mostly(c, lambda el, i: el in holders[i])
                and not (spec.prose and _mostly(c, lambda el, _: _tabular(el)))]
        dropped |= len(kept) < len(choices)
        ranked[name] = kept
    return dropped


def _mostly(choice: FieldChoice, test: Callable[[HtmlElement, int], bool]) -> bool:
    """Whether ``test`` holds for the candidate's element (and page index) on half or
    more of the pages it has a value on."""
    values = choice.slot.values(choice.view)
    present = [(i, el) for i, (el, v) in enumerate(zip(choice.slot.elements, values,
                                                       strict=True)) if el is not None and v]
    return bool(present) and 2 * sum(test(el, i) for i, el in present) >= len(present)


_GRIDS = ("table", "dl")


def _tabular(el: HtmlElement) -> bool:
    """Whether most of an element's text sits in tables or definition lists: a grid of
    specifications (``Weight 1,2 kg``), not prose describing the product."""
    total = len(text_of(el))
    if el.tag in _GRIDS:
        return True
    grids = [g for g in el.iter(*_GRIDS) if not any(a.tag in _GRIDS for a in g.iterancestors()
                                                    if a is not el)]
    return total > 0 and sum(len(text_of(g)) for g in grids) >= 0.6 * total


def money_post(spec: FieldSpec, values: Sequence[str | None]) -> list[str]:
    """The ``money`` post step for an optional price (the old one) whose every sample
    shows its currency: a value without one (a count its XPath reaches on a product not
    on sale) is dropped, not read as an amount."""
    present = [v for v in values if v]
    if spec.kind != "money" or spec.required or not present or not all(
            MONEY_RE.search(v) for v in present):
        return []
    return ["money"]


def common_prefix_post(values: Sequence[str | None],
                       known: Sequence[Sequence[str | None]] = ()) -> list[str]:
    """A post step dropping a constant label before every value ('by Acme', 'SKU: 123').
    ``known``: per value, what other sources say the record holds (a product's page
    title, a card picture's alt); where they hold the whole value on most records, the
    constant start is part of the value (every sampled product of one brand: 'Acme Drill',
    'Acme Saw'), no label; where they hold what follows a shorter start ('New: Acme
    Drill' of 'Acme Drill'), only that start is the label."""
    present = [v for v in values if v]
    if _confirmed(values, known) or len(present) < 3:
        return []
    prefix = present[0]
    for value in present[1:]:
        while prefix and not value.startswith(prefix):
            prefix = prefix[:-1]
    cuts = [i for i, ch in enumerate(prefix) if ch in " :：" and i >= 1
            and prefix[:i + 1].strip(" :：")]
    if not cuts:
        return []
    label = prefix[:cuts[-1] + 1]
    for cut in cuts[:-1]:      # the shortest label after which the other sources agree
        rest = [v[cut + 1:] if v else v for v in values]
        if _confirmed(rest, known):
            label = prefix[:cut + 1]
            break
    if any(len(v) <= len(label) + 1 for v in present):
        return []
    return [f"regex:^{re.escape(label.strip())}[\\s:：]*(.+)$"]


#: a rating written after its scale (``5点中4.5点``, ``5つ星のうち4.5``): the second number
SCALE_FIRST = r"regex:^\D*5\D+?(\d+(?:[.,]\d+)?)\D*$"


def scale_first_post(values: Sequence[str | None]) -> list[str]:
    """The post step reading a rating written after its scale, where every value holds
    two numbers, the first the scale 5, and the second differs between them."""
    numbers = [NUMBER_RE.findall(v) for v in values if v]
    return [SCALE_FIRST] if numbers and all(len(n) == 2 and n[0] == "5" for n in numbers) \
        and len({n[1] for n in numbers}) > 1 else []


def value_post(spec: FieldSpec, values: Sequence[str | None],
               known: Sequence[Sequence[str | None]] = ()) -> list[str]:
    """The post steps a chosen slot's values need, by the field's kind."""
    if spec.kind == "text":
        return common_prefix_post(values, known)
    if spec.kind == "rating":
        return scale_first_post(values)
    return money_post(spec, values)


def _confirmed(values: Sequence[str | None], known: Sequence[Sequence[str | None]]) -> bool:
    """Whether the other sources hold the whole value on half or more of the values they
    say anything about."""
    told = [(v, ks) for v, ks in zip(values, known, strict=False) if v and any(ks)]
    return bool(told) and 2 * sum(any(_inside(v, k) for k in ks) for v, ks in told) >= len(told)


def _same_values(a: Sequence[str | None], b: Sequence[str | None]) -> bool:
    """Two fields may not carry the same text in most records (a name is not a SKU)."""
    pairs = [(x, y) for x, y in zip(a, b, strict=True) if x or y]
    return bool(pairs) and sum(x == y for x, y in pairs) >= 0.8 * len(pairs)


def money_order(price: FieldChoice, original: FieldChoice) -> bool:
    """False only when the 'original' slot clearly holds the smaller amount wherever both
    are present (the two were swapped); equal amounts prove nothing."""
    smaller = 0
    both = 0
    for a, b in zip(price.slot.values(price.view), original.slot.values(original.view),
                    strict=True):
        if a and b:
            na, nb = parse_money(a).amount, parse_money(b).amount
            if na is not None and nb is not None and na != nb:
                both += 1
                smaller += nb < na
    return both == 0 or smaller / both < 0.8


def order_money(choices: dict[str, tuple[FieldChoice, FieldChoice | None]],
                fields: dict[str, FieldSpec]) -> None:
    """Where the 'original' price (the money field shown ``struck``) holds the smaller
    amount (:func:`money_order`) than the price (the other, ``required`` one), the two
    were swapped (a class "old-price" read as the price): swap them back when the
    'original' slot is shown at least as often (the price is on every record), else drop
    the original price."""
    money = [k for k, f in fields.items() if f.kind == "money" and k in choices]
    now = next((k for k in money if fields[k].required and not fields[k].struck), None)
    old = next((k for k in money if fields[k].struck), None)
    if now is None or old is None:
        return
    (price, p_runner), (original, o_runner) = choices[now], choices[old]
    if money_order(price, original):
        return
    def shown(c: FieldChoice) -> int:
        return sum(1 for v in c.slot.values(c.view) if v)
    if shown(original) >= shown(price):
        choices[now], choices[old] = (original, p_runner), (price, o_runner)
    else:
        del choices[old]
