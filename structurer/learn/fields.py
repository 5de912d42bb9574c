"""Field location: which slot holds each lexicon field, with confidence and evidence.

Input: slots over records (list items, or detail pages of one template), the
lexicon, and optional hints (JSON-LD values per record). Output: per field a
ranked list of :class:`FieldChoice` — the slot and value view that carry it,
a score, and the reasons. Scores combine the lexicon's words and labels matched
against attributes, validity of the values for the field's kind, presence in
most records, variation across records (text the same in every record is
template, not data), and agreement with structured data.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from lxml.html import HtmlElement

from structurer.kinds import Words, compile_words, currency_code, parse_money
from structurer.learn.choose import norm_value, prefer_labelled, prefer_specific
from structurer.learn.slots import Slot
from structurer.lexicon import FieldSpec, Lexicon
from structurer.page.dom import HEADING_TAGS, MONEY_RE
from structurer.page.match import (
    label_match,
    label_text_match,
    label_value,
    lexicon_match,
    phrase_in,
)
from structurer.page.titles import names_title
from structurer.values import struck

_INT_RE = re.compile(r"^\D{0,12}(\d{1,3}(?:[,.\s]\d{3})+|\d+)\D{0,16}$")
_RATING_RE = re.compile(r"(?<![\d.,])([0-5](?:[.,]\d{1,2})?)(?![\d])")
#: a rating written on its scale: "3,5 / 5", "4.1/5" (the scale is the evidence)
_SCALE_RE = re.compile(r"^\D{0,12}(?<![\d.,])[0-5](?:[.,]\d{1,2})?\s*/\s*5(?:[.,]0+)?\D{0,12}$")
_DATE_RE = re.compile(r"\d{4}[-/.年]\d{1,2}[-/.月]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{4}")
_RANGE_RE = re.compile(r"\d\s*(?:\S{0,4}\s*)?[-–—]\s*\S{0,4}\s*\d")
_CONTENT_VIEWS = ("text", "own", "@content", "@title", "@aria-label", "@alt")


@dataclass
class FieldChoice:
    name: str
    slot: Slot
    view: str
    score: float
    evidence: list[str] = field(default_factory=list)


def _in_header(el: HtmlElement) -> bool:
    """A table's header rows: the columns' labels, never a value."""
    return el.tag == "thead" or any(a.tag == "thead" for a in el.iterancestors())


def valid(kind: str, value: str | None, el: HtmlElement | None, spec: FieldSpec) -> bool:
    """Does ``value`` look like a value of ``kind``? The field's own label is none, and
    neither is a table's header row (a header "Verfügbarkeit" holds the stock word
    "verfügbar"; a variants table's "Artikel Preis Verfügbarkeit" too)."""
    if value is None or el is None:
        return False
    bare = value.strip().rstrip(":：").strip().lower()
    if any(bare == label.lower() for label in spec.labels) or _in_header(el):
        return False
    if kind == "money":
        if re.fullmatch(r"\d{1,7}[.,]\d{2}", value):
            return True
        matches = MONEY_RE.findall(value)
        if len(matches) == 2 and _RANGE_RE.search(value):
            return len(value) <= 2 * (len(matches[0]) + len(matches[1])) + 8   # "$5 – $9"
        return len(matches) == 1 and len(value) <= max(24, 2 * len(matches[0]))
    if kind == "image":
        return str(el.tag) in ("img", "source")
    if kind == "url":
        return str(el.tag) == "a"
    if kind == "integer":
        return len(value) <= 30 and _INT_RE.match(value) is not None
    if kind == "rating":
        # "Au lieu de 1 056,99 €" (an old price where a product shows no rating) is none
        return len(value) <= 40 and _RATING_RE.search(value) is not None \
            and MONEY_RE.search(value) is None
    if kind == "availability":
        if len(value) > 80:
            return False
        low = value.lower()
        return any(p.lower() in low for phrases in spec.values.values() for p in phrases)
    if kind == "datetime":
        return _DATE_RE.search(value) is not None
    if kind == "currency":   # a code or a sign, never an amount ("$9.54" is a price)
        return (len(value) <= 24 and not any(c.isdigit() for c in value)
                and currency_code(value, value) is not None)
    if kind == "html":
        return len(value) >= 80
    if kind == "breadcrumb":
        return 1 <= len(value) <= 200
    # text
    if spec.prose and not reads_as_prose(value, el):
        return False
    return 1 <= len(value) <= 400 and not (MONEY_RE.fullmatch(value) is not None)


_PROSE_LETTERS = 12   # fewest letters of a prose value ("Soft wool scarf")
_PRICE_LINE_WORDS = 8  # fewer words and an amount: a price line ("R$ 19,96 sem impostos")


def reads_as_prose(value: str, el: HtmlElement) -> bool:
    """Whether a value reads as prose (a description): no heading (the product's name),
    and letters make most of it, after a label before it ("27895", "Art.-Nr.: 27895" and
    "Brand: Acme" do not); a short line naming an amount of money is a price line."""
    if str(el.tag) in HEADING_TAGS or (
            len(value.split()) < _PRICE_LINE_WORDS and MONEY_RE.search(value)):
        return False
    pair = label_value(el)
    value = pair[2] if pair is not None else value
    letters = sum(c.isalpha() for c in value)
    return letters >= _PROSE_LETTERS and 2 * letters >= sum(not c.isspace() for c in value)


def _variation(values: Sequence[str | None]) -> float:
    present = [v for v in values if v]
    if len(present) <= 1:
        return 0.5
    return (len(set(present)) - 1) / (len(present) - 1)


def _near(el: HtmlElement | None, levels: int, test: Callable[[HtmlElement], bool]) -> bool:
    """Whether ``el`` or one of its ancestors up to ``levels - 1`` above passes ``test``:
    markup wrapped around a value (a link, a heading, a strike-through) holds its
    inline children too."""
    node = el
    for _ in range(levels):
        if node is None:
            return False
        if test(node):
            return True
        node = node.getparent()
    return False


def _in_link(el: HtmlElement | None) -> bool:
    return _near(el, 3, lambda node: node.tag == "a")


def _is_heading(el: HtmlElement | None) -> bool:
    return _near(el, 2, lambda node: node.tag in HEADING_TAGS)


def views_for(kind: str, slot: Slot) -> list[str]:
    if kind == "image":
        return ["@src"] if "@src" in slot.views else []
    if kind == "url":
        return ["@href"] if "@href" in slot.views else []
    views = [v for v in slot.views if v in _CONTENT_VIEWS or v.startswith("@data-")
             or v == "own"]
    return views


def agreement(values: Sequence[str | None], hints: Sequence[str | None], kind: str) -> float:
    """Share of records whose value matches the hint (structured data, list-page value)."""
    pairs = [(v, h) for v, h in zip(values, hints, strict=True) if h]
    if not pairs:
        return 0.0
    hits = 0.0
    for value, hint in pairs:
        if not value:
            continue
        if kind == "money":
            a, b = parse_money(value).amount, parse_money(hint).amount
            hits += (a is not None and a == b) or norm_value(value) == norm_value(hint)
            continue
        nv, nh = norm_value(value), norm_value(hint)
        if nv == nh:
            hits += 1
        elif nh and nh in nv and len(nv) <= 1.6 * len(nh) + 4:
            hits += 0.8
    return hits / len(pairs)


def title_agreement(values: Sequence[str | None], titles: Sequence[Sequence[str]]) -> float:
    """Share of records whose value appears in that page's own title texts."""
    pairs = [(v, t) for v, t in zip(values, titles, strict=True) if t]
    if not pairs:
        return 0.0
    hits = sum(1 for v, t in pairs if v and len(v) >= 3 and any(
        norm_value(v) in norm_value(x) for x in t))
    return hits / len(pairs)


def _alt_names_page(elements: Sequence[HtmlElement | None],
                    titles: Sequence[Sequence[str]]) -> float:
    """Share of pages whose image here has the page's title (its product's name) for alt
    text, placeholders counted: the product's picture, not a brand's logo beside it (its
    alt "Acme" only a word of "Acme Kettle | Shop") nor a banner."""
    pairs = [(el, t) for el, t in zip(elements, titles, strict=True) if el is not None and t]
    if not pairs:
        return 0.0
    return sum(names_title(el.get("alt") or "", t) for el, t in pairs) / len(pairs)


def _shape_prior(spec: FieldSpec, slot: Slot, view: str, values: Sequence[str | None],
                 present: list[int], words: Words) -> tuple[float, float, list[str]]:
    """(prior, share struck through, evidence) from how the slot's values look for the
    field's kind: the same text everywhere, struck prices, title-like or overlong texts,
    attribute copies, tag-only keys."""
    elements = slot.elements
    example = elements[present[0]]
    kind = spec.kind
    texts = [values[i] or "" for i in present]
    avg_len = sum(len(t) for t in texts) / len(texts)
    prior, crossed = 0.0, 0.0
    evidence: list[str] = []
    if kind in ("text", "money", "integer", "rating") and _variation(values) < 0.2 \
            and len(elements) >= 3:
        prior -= 0.5
        evidence.append("same text in every record")
    if kind == "money":
        crossed = sum(struck(elements[i], words, levels=2) for i in present) / len(present)
        prior += 0.3 * crossed if spec.struck else -0.5 * crossed
        if crossed:
            evidence.append(f"struck through in {crossed:.0%} of records")
    if kind == "text" and spec.title:
        if _in_link(example) or _is_heading(example):
            prior += 0.25
        if 8 <= avg_len <= 160:
            prior += 0.15
        elif avg_len < 4:
            prior -= 0.4
    if kind == "text" and avg_len > 400:
        prior -= 0.3
    if view != "text" and kind in ("text", "money"):
        prior -= 0.05       # prefer visible text; attribute copies are the runner-up
    if slot.key.startswith("~"):
        prior -= 0.03       # keyed by tags only: prefer the class-keyed twin on ties
    return prior, crossed, evidence


def _labelled(spec: FieldSpec, elements: Sequence[HtmlElement | None]) -> tuple[float, str]:
    """The label evidence of a place on the pages: the first element's label, counted as
    often as the others carry a label of the field too. A place an optional line shifts
    (``<p>Item #: …</p><p>Brand: …</p>`` one line lower where a shipping note comes
    first) holds the brand on some pages and the item number on the others."""
    lab, why = label_match(elements[0], spec) if elements[0] is not None else (0.0, "")
    if not lab or len(elements) < 2:
        return lab, why
    said = sum(label_match(el, spec)[0] > 0 for el in elements if el is not None)
    if said < len(elements):
        why += f" (on {said} of {len(elements)} records)"
    return lab * said / len(elements), why


def _on_a_scale(value: str, lexicon: Lexicon) -> bool:
    """Whether ``value`` reads as a rating out of 5: ``4 / 5``, or in the vocabulary's
    words (``rating_scales``: "5 out of 5 stars", "Rated 4 of 5", "4,5 von 5 Sternen")."""
    return _SCALE_RE.match(value) is not None or \
        compile_words(lexicon.vocabulary).rating_text.match(value) is not None


def _money_prior(prior: float, spec: FieldSpec, example: HtmlElement, lexicon: Lexicon,
                 values: Sequence[str], worded: bool, evidence: list[str]) -> float:
    """A money slot's ``prior`` less its doubts (saying why in ``evidence``): markup
    naming the price before a discount where the field is the current price (found by
    its own words: ``worded``), and values labelled as no price (shipping, an
    instalment)."""
    if not spec.struck and worded and any(
            lexicon_match(example, other, lexicon, 0.0, depth=0)[0] >= 0.5
            for other in lexicon.fields.values() if other.kind == "money" and other.struck):
        prior -= 0.4   # "old-price", "was-price": the word for the price is qualified
        evidence.append("its markup names the price before a discount")
    said = [phrase_in(value, lexicon.signals.get("not_price", {})) for value in values]
    share = sum(bool(w) for w in said) / len(values)
    if share:
        prior -= 0.8 * share   # shipping, an instalment, a threshold: not the price
        evidence.append(f"money labelled {next(w for w in said if w)!r} in {share:.0%} of records")
    return prior


def score_slot(name: str, spec: FieldSpec, slot: Slot, view: str, lexicon: Lexicon,
               level: str, hints: Sequence[str | None] | None = None,
               titles: Sequence[Sequence[str]] | None = None) -> FieldChoice | None:
    """How well ``slot`` (read as ``view``) carries field ``name``: words and labels,
    valid values, presence, variation, shape and agreement with hints and titles; None
    for a slot that cannot be the field."""
    if slot.depth == 0 and (level == "detail" or spec.kind not in ("url", "image")):
        return None   # the record itself (a list item, a page body) is not a field
    values = slot.values(view)
    elements = slot.elements
    present = [i for i in range(len(elements)) if values[i]]
    if not present:
        return None
    if sum((values[i] or "").endswith((":", "：")) for i in present) > len(present) / 2:
        return None   # a label ("ISBN-13:"), not a value
    validity = sum(valid(spec.kind, values[i], elements[i], spec) for i in present) / len(present)
    if validity < 0.5:
        return None
    example = elements[present[0]]
    assert example is not None
    if slot.label is not None:
        lex, why_lex = 0.0, ""
        lab, why_lab = label_text_match(slot.label[1], spec)
    else:
        lex, why_lex = lexicon_match(example, spec, lexicon, lexicon.partial_ratio(name))
        lab, why_lab = _labelled(spec, [elements[i] for i in present])
    # a rating's values on a scale (a card nobody rated may show its price in the place)
    if spec.kind == "rating" and lab < 0.6 and sum(
            _on_a_scale(values[i] or "", lexicon) for i in present) >= 0.8 * validity * len(
            present):
        lab, why_lab = 0.6, "values read as a rating on a scale of 5 ('N / 5', 'N out of 5')"
    prior, crossed, shape = _shape_prior(spec, slot, view, values, present,
                                         compile_words(lexicon.vocabulary))
    evidence = [w for w in (why_lex, why_lab) if w] + shape
    if spec.kind == "money":
        prior = _money_prior(prior, spec, example, lexicon, [values[i] or "" for i in present],
                             bool(lex), evidence)
    if spec.title and titles:
        in_title = title_agreement(values, titles)
        prior += 0.5 * in_title + (0.2 if example.tag == "h1" else 0.0)
        if in_title:
            evidence.append(f"in the page title on {in_title:.0%} of pages")
    if spec.kind == "image" and titles:
        named = _alt_names_page(elements, titles)
        prior += 0.3 * named
        if named:
            evidence.append(f"its alt text names the page's product on {named:.0%} of pages")
    agree = agreement(values, hints, spec.kind) if hints else 0.0
    if agree:
        prior += 0.5 * agree
        evidence.append(f"agrees with structured data / list page in {agree:.0%} of pages")
    if lex == 0 and lab == 0 and agree < 0.5 and not spec.required and spec.kind in (
            "text", "integer", "rating", "money") and not (spec.struck and crossed >= 0.5):
        return None         # an optional plain value with no word pointing at it is a guess
    score = (0.32 * lex + 0.3 * lab + 0.35 * validity ** 2 + 0.12 * len(present) / len(elements)
             + 0.12 * _variation(values) + prior)
    return FieldChoice(name, slot, view, score, evidence)


def rank_fields(slots: Sequence[Slot], lexicon: Lexicon, level: str,
                fields: dict[str, FieldSpec] | None = None,
                hints: dict[str, list[str | None]] | None = None,
                titles: Sequence[Sequence[str]] | None = None,
                ) -> dict[str, list[FieldChoice]]:
    """Candidates per field, best first. ``hints`` holds expected values per record."""
    fields = fields if fields is not None else lexicon.fields_for(level)
    ranked: dict[str, list[FieldChoice]] = {}
    for name, spec in fields.items():
        if spec.kind == "breadcrumb":
            continue
        choices = []
        for slot in slots:
            for view in views_for(spec.kind, slot):
                choice = score_slot(name, spec, slot, view, lexicon, level,
                                    (hints or {}).get(name), titles)
                if choice is not None:
                    choices.append(choice)
        choices.sort(key=lambda c: (c.score, -c.slot.depth), reverse=True)
        choices = prefer_labelled(choices[:8])
        ranked[name] = prefer_specific(choices) if spec.kind in ("text", "money") else choices
    return ranked


