"""A product page's fields read by their labels, without rules, for
:mod:`structurer.generic.products` (and any other template's fields): a label paired
with its value (``<b>SKU:</b> TB-150``, ``<th>UPC</th><td>…</td>``), else the best label
or attribute-word match around the title, a field shown only as a link to its own page
(a brand), and an identifier shown nowhere but in the URL (:func:`url_code`).
"""

from __future__ import annotations

import re
from typing import Any

from lxml.html import HtmlElement

from structurer.generic.stock import DEFINITE, SKIP_SECTIONS
from structurer.kinds import parse_identifier, url_identifier
from structurer.lexicon import FieldSpec, Lexicon
from structurer.page.dom import text_of
from structurer.page.match import label_match, label_value, label_weight, lexicon_match, squash
from structurer.page.scope import field_link
from structurer.page.view import PageView
from structurer.values import parse_availability

_LONG_NUMBER = 8   # digits of a bare number a URL names an item by (eBay's, Walmart's)


def url_code(view: PageView) -> tuple[str, str] | None:
    """(code, source) of the identifier the URL carries for a page showing none by a
    label (:func:`~structurer.kinds.url_identifier`): ``url+page`` where the page's text
    shows it too, as a whole word; ``url`` for a code alone in the URL only when shaped
    like one (letters and digits, ``B07XJ8C8F5``, or a long item number): a short bare
    number after ``/p/`` is a database row more often than the shop's SKU."""
    code = url_identifier(view.url, view.words)
    if code is None:
        return None
    if re.search(rf"(?<!\w){re.escape(code)}(?!\w)", " ".join(view.body.itertext())):
        return code, "url+page"     # a whole word of the text ("Ref. 9921", not "€19921")
    if not code.isdigit() or len(code) >= _LONG_NUMBER:
        return code, "url"
    return None


def labelled(view: PageView, spec: FieldSpec, lexicon: Lexicon,
              scope: HtmlElement) -> tuple[str, str] | None:
    """(value, source) of the best label or attribute-word match inside ``scope``."""
    best: tuple[float, str, str] | None = None
    labels = sorted(spec.labels, key=len, reverse=True)
    strip = re.compile(r"^\s*(?:" + "|".join(re.escape(x).replace(r"\ ", r"\s*") for x in labels)
                       + r")\s*[:：#.]*\s*",
                       re.I) if labels else None
    ratio = lexicon.partial_ratio(next(n for n, s in lexicon.fields.items() if s is spec))
    squashed = {squash(label) for label in labels}
    for el in scope.iter():
        if not isinstance(el.tag, str) or el.tag in SKIP_SECTIONS or el.tag == "a":
            continue
        text = text_of(el)
        if not text or len(text) > 80 or len(el) > 3:
            continue
        if any(a.tag in SKIP_SECTIONS for a in el.iterancestors()):
            continue
        by_label = max(label_match(el, spec)[0], _word_label(el, spec))
        by_word = 0.9 * lexicon_match(el, spec, lexicon, ratio, depth=1)[0]
        score = max(by_label, by_word)
        if score < 0.45:
            continue
        value = strip.sub("", text) if strip is not None else text
        if not value or squash(value) in squashed:
            continue  # nothing but the label ("SKU:", "品 牌：")
        if spec.kind == "availability" and parse_availability(value) in DEFINITE:
            score += 0.2    # "In stock" says it, whatever label words it shares
        elif any(word in value.lower() for word in spec.labels if len(word) >= 4):
            continue  # a label or heading ("Shop by brand"), not a value
        if best is None or score > best[0]:
            best = (score, value, "label" if by_label >= by_word else "lexicon")
    return (best[1], best[2]) if best else None


def _word_label(el: HtmlElement, spec: FieldSpec) -> float:
    """An attribute word of the field used as a visible label (a dt "Designer")."""
    prev = el.getprevious()
    if prev is None or not isinstance(prev.tag, str) or prev.tag not in ("dt", "th", "label"):
        return 0.0
    word = text_of(prev).lower().rstrip(":：# ").strip()
    return min(spec.words.get(word, 0.0) / 12.0, 1.0)


def linked_field(view: PageView, spec: FieldSpec, scope: HtmlElement,
            values: dict[str, Any]) -> tuple[str, str] | None:
    """(value, "link") of a text field shown only as a link to its own page in the
    product's own block (the brand as ``<a href="/brands/x">`` with its logo,
    :func:`~structurer.page.scope.field_link`), not the product's name; never in the
    whole page (a menu of brands)."""
    if spec.kind != "text" or spec.identifier or scope is view.body:
        return None
    found = field_link(scope, spec.words, view.lexicon.thresholds.path_word)
    return (found[1], "link") if found and found[1] != values.get("name") else None


def label_field(view: PageView, spec: FieldSpec, scope: HtmlElement) -> tuple[str, str] | None:
    """(value, source) of a field read by its label (paired with it, else the best label
    or attribute-word match); an identifier field takes only a text shaped like a code
    (:func:`~structurer.kinds.parse_identifier`: "В избранное" is no SKU)."""
    for found in ((after_label(scope, spec) if spec.kind == "text" else None),
                  labelled(view, spec, view.lexicon, scope)):
        if found is None:
            continue
        if not spec.identifier:
            return found
        code = parse_identifier(found[0], list(spec.labels))
        if code is not None:
            return code, found[1]
    return None


def after_label(scope: HtmlElement, spec: FieldSpec) -> tuple[str, str] | None:
    """(value, "label") of the field's label paired with its value
    (:func:`structurer.page.match.label_value`: ``<b>ISBN-13:</b> 978…``, ``<th>UPC</th>
    <td>…</td>``, ``<p>SKU: …</p>``); the field's weightiest label wins."""
    best: tuple[float, str] | None = None
    for el in scope.iter("b", "strong", "span", "label", "dt", "th", "em", "p", "li", "td",
                         "div"):
        pair = label_value(el, lambda text: label_weight(text, spec) > 0)
        weight = label_weight(pair[1], spec) if pair else None
        if pair and weight and (best is None or weight > best[0]) and not any(
                a.tag in SKIP_SECTIONS for a in el.iterancestors()):
            best = (weight, pair[2])
    return (best[1], "label") if best else None
