"""Matching the lexicon against a page's elements: its words against attributes, its
labels against the text around a value.

Input: an lxml element and a lexicon field (:class:`~structurer.lexicon.FieldSpec`).
Output: a score in 0..1 and the reason, in words (``class 'price' ~ word 'price' (10)``,
``label 'SKU:' ~ 'sku'``). Analysis scores slots with it (:mod:`structurer.learn.fields`);
``extract-page`` finds fields on a page without rules with it
(:mod:`structurer.generic.products`, :mod:`structurer.generic.prices`). Pure.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import lru_cache
from urllib.parse import urlsplit

from lxml.html import HtmlElement

from structurer.lexicon import FieldSpec, Lexicon
from structurer.namewords import NameWords, name_tokens, name_words, signal_words
from structurer.page.dom import norm_space, own_text

__all__ = ["buy_words", "class_word", "form_action", "label_match", "label_text_match",
           "label_texts", "label_value", "label_weight", "lexicon_match", "phrase_in", "squash",
           "strip_label_pattern"]


def lexicon_match(el: HtmlElement, spec: FieldSpec, lexicon: Lexicon, ratio: float,
                  depth: int = 2) -> tuple[float, str]:
    """Best weighted word match of ``spec`` on ``el``'s attributes (and, decayed, its
    parents'): a word naming an attribute's tokens whole counts its weight, one going on
    into a longer token (:mod:`structurer.namewords`) ``ratio`` of it."""
    best, why = 0.0, ""
    node: HtmlElement | None = el
    decay = 1.0
    weights = lexicon.attribute_weights
    # heaviest first: of two words alike but for their dashes, the heavier names a token
    words = name_words(tuple(sorted(spec.words, key=lambda w: -spec.words[w])),
                       _known_parts(lexicon))
    for _ in range(depth + 1):
        if node is None:
            break
        for attr, tokens in _attribute_tokens(node, weights):
            aw = weights.get(attr, 3.0) / 10.0
            for found in words.find(tokens, ratio > 0):
                ww = spec.words[found.word]
                gain = ww * aw * decay * (1.0 if found.whole else ratio)
                if gain > best:
                    token = "-".join(tokens[found.start:found.end])
                    best, why = gain, f"{attr} '{token}' ~ word '{found.word}' ({ww:g})"
        node = node.getparent()
        decay *= 0.5
    return min(best / 12.0, 1.0), why


_PARTS: dict[int, tuple[Lexicon, frozenset[str]]] = {}


def _known_parts(lexicon: Lexicon) -> frozenset[str]:
    """Every field word of the lexicon: the parts a token run together is read as
    (``productprice``: "product" of ``product-name``, and "price")."""
    known = _PARTS.get(id(lexicon))
    if known is not None and known[0] is lexicon:
        return known[1]
    if len(_PARTS) >= 8:
        _PARTS.clear()
    parts = frozenset(w for spec in lexicon.fields.values() for w in spec.words)
    _PARTS[id(lexicon)] = (lexicon, parts)
    return parts


#: attributes whose values are addresses or data, never an element's name
_NOT_NAMES = frozenset({"href", "src", "srcset", "style", "content", "value", "action"})


def _attribute_tokens(node: HtmlElement, weights: Mapping[str, float], data: bool = True
                      ) -> list[tuple[str, tuple[str, ...]]]:
    """(attribute, tokens) of ``node``'s attributes the lexicon's words are matched
    against: each weighted attribute's value, with ``data`` each ``data-`` attribute's
    name and (up to 40 characters) value, all as ``data-*``."""
    out: list[tuple[str, tuple[str, ...]]] = []
    for name, value in node.attrib.items():
        if name.startswith("data-"):
            if data:
                out.append(("data-*", name_tokens(name[5:])))
                if len(value) <= 40:
                    out.append(("data-*", name_tokens(value)))
        elif name in weights and name not in _NOT_NAMES:
            out.append((name, name_tokens(value)))
    return [(name, tokens) for name, tokens in out if tokens]


#: the attributes whose words are class words (an element's names, not its text)
_CLASS_ATTRIBUTES = {"class": 1.0, "id": 1.0, "itemprop": 1.0}


def class_word(el: HtmlElement, listed: NameWords, depth: int = 2) -> str | None:
    """The first of ``listed`` (a vocabulary list of class words:
    :func:`~structurer.namewords.class_words`) naming ``el`` or one of its ``depth``
    nearest ancestors by its class, id or itemprop, matched as the lexicon's field words
    are (:mod:`structurer.namewords`: "old" names ``old-price``, not ``fw-bold``; "ship"
    names ``shipping``, not ``relationship``; ``mini-cart`` names ``minicart`` and
    ``mini_cart``); None if none does."""
    node: HtmlElement | None = el
    for _ in range(depth + 1):
        if node is None:
            break
        for _attr, tokens in _attribute_tokens(node, _CLASS_ATTRIBUTES, data=False):
            found = {f.word for f in listed.find(tokens)}
            if found:
                return next(w for w in listed.words if w in found)
        node = node.getparent()
    return None


def _column_header(el: HtmlElement) -> str:
    """Text of the table header above the cell holding ``el`` (the column's label)."""
    cell: HtmlElement | None = el
    while cell is not None and cell.tag not in ("td", "th"):
        cell = cell.getparent()
    if cell is None:
        return ""
    row = cell.getparent()
    if row is None:
        return ""
    index = [c for c in row if isinstance(c.tag, str)].index(cell)
    table = row.getparent()
    while table is not None and table.tag != "table":
        table = table.getparent()
    if table is None:
        return ""
    heads = table.xpath("./thead/tr[1]/*|./tr[1][th]/*")
    return norm_space(heads[index].text_content()) if index < len(heads) else ""


def label_texts(el: HtmlElement) -> list[str]:
    """Texts that may label ``el``: its own leading text, a preceding sibling, its parent's
    own text, or the column header of its table cell."""
    out = [own_text(el)[:40]]
    prev = el.getprevious()
    if prev is not None and isinstance(prev.tag, str):
        text = norm_space(prev.text_content())
        if not re.search(r"[:：]\s*\S", text):
            out.append(text[:40])   # a label, not a pair of its own ("UPC: 123" labels no next)
    parent = el.getparent()
    if parent is not None:
        out.append(own_text(parent)[:40])
        pprev = parent.getprevious()
        if pprev is not None and isinstance(pprev.tag, str) and pprev.tag in ("dt", "th", "label"):
            out.append(norm_space(pprev.text_content())[:40])
    out.append(_column_header(el)[:40])
    return [t for t in out if t]


def label_match(el: HtmlElement, spec: FieldSpec) -> tuple[float, str]:
    return label_text_match(label_texts(el), spec)


# "Item#:" is the label "item #"; invisible marks around a label ("ASIN \u200f :") go too
_SQUASH = re.compile(r"[\s#:：.№\u200b\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]+")


def squash(text: str) -> str:
    """A label without spaces and punctuation: "Item #:" and "品 牌：" as written in labels."""
    return _SQUASH.sub("", text.lower())


def label_text_match(texts: str | list[str], spec: FieldSpec) -> tuple[float, str]:
    """How strongly any of ``texts`` reads as one of the field's labels (0-1), and why."""
    if not spec.labels:
        return 0.0, ""
    best, why = 0.0, ""
    for text in [texts] if isinstance(texts, str) else texts:
        low = text.lower().rstrip(":：# ").strip()
        squashed = squash(low)
        for label, weight in spec.labels.items():
            if low == label or low.startswith(label + ":") or low.startswith(label + "：") or (
                    low.startswith(label) and len(low) - len(label) <= 2) or (
                    squashed and squashed == squash(label)):
                gain = weight / 10.0
            elif low.startswith(label) and (len(label) >= 3 or not low[len(label)].isalnum()):
                gain = weight / 20.0   # a label before its value ("原价 ¥63.00", "De R$ 9")
            elif spec.identifier and _qualified(low, label):
                gain = weight / 12.0   # "eBay item number", "CBD Stock No"
            else:
                continue
            if gain > best:
                best, why = gain, f"label '{text}' ~ '{label}'"
    return min(best, 1.0), why


_QUALIFIERS = 2   # most words before an identifier's label naming whose number it is


def _qualified(low: str, label: str) -> bool:
    """``low`` (a label text, lower case) is ``label`` after a word or two naming whose
    identifier it is: "ebay item number", "manufacturer part number", "cbd stock no"."""
    words, tail = low.split(), label.split()
    return bool(tail) and len(tail) < len(words) <= len(tail) + _QUALIFIERS and \
        squash(" ".join(words[-len(tail):])) == squash(label)


def label_weight(text: str, spec: FieldSpec) -> float:
    """The weight of the field's label that ``text`` (a label's whole text) is: one of its
    labels as written ("Item #:" is "item #"), or for an identifier a label after a word or
    two naming whose number it is ("eBay item number:", at 0.8 of the label's weight);
    0.0 when it is none."""
    squashed = squash(text)
    weights = [w for label, w in spec.labels.items() if squash(label) == squashed]
    if weights or not spec.identifier:
        return max(weights, default=0.0)
    low = " ".join(text.lower().rstrip(":：# ").split())
    return 0.8 * max((w for label, w in spec.labels.items() if _qualified(low, label)),
                     default=0.0)


#: punctuation between a label and its value (``SKU: 123``, ``Item # - 123``)
_JOINER = " \t:：#-–—"
_LEAD_TAGS = frozenset({"p", "li", "div", "span", "td", "dd"})


def label_value(el: HtmlElement, known: Callable[[str], bool] | None = None
                ) -> tuple[str, str, str] | None:
    """``(mode, label, value)`` when ``el`` is a visible label with its value beside it:

    * ``tail``: the label element (a ``<strong>``, ``<th>``, ``<dt>``, ...) is followed by
      the value as text in the same parent (``<li><strong>ISBN-13</strong>: 978…</li>``);
    * ``next``: by the value's element (``<th>UPC</th><td>…</td>``, ``dt``/``dd``);
    * ``lead``: ``el`` itself reads ``Label: value`` (``<p>SKU: <span>…</span></p>``).

    A label is a short text ending in a colon, a ``dt``/``th``, or a text ``known`` says
    is a label. The value is never taken from the next row or item, and never holds the
    label or the punctuation after it."""
    text = norm_space(el.text_content())
    if not text or len(text) > 300:
        return None
    if len(text) <= 40 and len(el) <= 1 and (
            text.endswith((":", "：")) or el.tag in ("dt", "th") or (known and known(text))):
        tail = norm_space((el.tail or "").split("\n")[0]).lstrip(_JOINER)
        if tail:
            return ("tail", text, tail) if len(tail) <= 200 else None
        nxt = el.getnext()
        if nxt is not None and isinstance(nxt.tag, str):
            value = norm_space(nxt.text_content())
            if value and len(value) <= 300:
                return "next", text, value
        return None
    own = el.text or ""
    if el.tag in _LEAD_TAGS and len(el) <= 2 and (":" in own or "：" in own):
        label = norm_space(re.split(r"[:：]", own, maxsplit=1)[0])
        value = norm_space(text[text.find(label) + len(label):]).lstrip(_JOINER)
        if 1 <= len(label) <= 40 and value and len(value) <= 200:
            return "lead", label + ":", value
    return None


def strip_label_pattern(mode: str, label: str) -> str:
    """The regex (group 1: the value) a label pair's raw text goes through: the
    punctuation after a label (``tail``), or the label itself (``lead``)."""
    if mode == "lead":
        return rf"^\s*{re.escape(label.rstrip(':：'))}\s*[:：#]*\s*(.+)$"
    return r"^[\s:：#–—-]*(.+)$"


def _spelled(c: str) -> bool:
    """Whether ``c`` is a letter or digit of a script that spaces its words (not CJK)."""
    return c.isalnum() and not "\u3040" <= c <= "\u9fff"


@lru_cache(maxsize=32)
def _phrases_re(phrases: tuple[str, ...]) -> re.Pattern[str] | None:
    if not phrases:
        return None
    alts = "|".join((r"(?<!\w)" if _spelled(p[0]) else "") + re.escape(p)
                    + (r"(?!\w)" if _spelled(p[-1]) else "")
                    for p in sorted(phrases, key=len, reverse=True))
    return re.compile(alts)


def phrase_in(text: str, vocab: dict[str, float]) -> str | None:
    """The longest phrase of ``vocab`` found in ``text`` as whole words (case-folded):
    ``"+ $5.99 shipping"`` holds ``shipping`` of the lexicon's ``not_price`` signal. Only
    an end that is a letter or digit of a spaced script needs a word's edge: CJK has no
    spaces ("¥12.50每米"), and a sign begins or ends a word (``/m`` in "$12.50/m")."""
    pattern = _phrases_re(tuple(p.lower() for p in vocab))
    found = pattern.search(text.lower()) if pattern is not None else None
    return found.group(0) if found else None


def buy_words(el: HtmlElement, lexicon: Lexicon) -> bool:
    """Whether a button's text (whole words, :func:`phrase_in`) or its name, class or id,
    or its form's action (the address's path and query; class words,
    :func:`~structurer.namewords.signal_words`: ``btn-cart``, ``AddToCart``, ``/cart/add``,
    never ``sidecart``) carries the lexicon's ``add_to_cart`` words: a buy control,
    enabled or not."""
    vocab = lexicon.signals.get("add_to_cart", {})
    if not vocab:
        return False
    text = el.text_content() if el.tag == "button" else el.get("value") or ""
    if text and phrase_in(text, vocab):
        return True
    form = next((a for a in el.iterancestors("form")), None)
    names = signal_words(lexicon, "add_to_cart")
    return any(names.names(v) for v in (el.get("name"), el.get("class"), el.get("id"),
                                        form_action(form)) if v)


def form_action(form: HtmlElement | None) -> str:
    """The path and query of a form's action (``/cart/add?id=3``), its host left out;
    "" for none or a malformed one (a page's typo is no reason to fail on it)."""
    if form is None:
        return ""
    try:
        action = urlsplit(form.get("action") or "")
    except ValueError:
        return ""
    return f"{action.path} {action.query}".strip()
