"""Small facts about DOM nodes that every analysis stage asks for.

Input: lxml elements. Output: normalized text, attribute tokens, money and link
signals, noise context. All functions are pure and cheap; the hot ones avoid
regex compilation and tree serialization.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator
from typing import Any

from lxml import etree
from lxml.html import HtmlElement

from structurer.kinds import default_words

# Tags whose content never holds product data worth comparing.
NOISE_TAGS = frozenset({"script", "style", "noscript", "svg", "template", "iframe", "head",
                        "link", "meta", "object", "embed", "canvas"})
SECTION_NOISE_TAGS = frozenset({"nav", "footer", "header", "aside"})
# Presentation-state class tokens that alternate between otherwise identical siblings.
STATE_TOKENS = frozenset({"odd", "even", "alt", "first", "last", "active", "selected",
                          "current", "hover", "open", "clearfix", "is-active", "last-child",
                          "first-child", "row-odd", "row-even"})
INLINE_TAGS = frozenset({"a", "span", "b", "strong", "em", "i", "small", "sup", "sub", "del",
                         "s", "ins", "u", "label", "font", "mark", "abbr", "bdi", "time"})
# Headings, top level first (``int(tag[1])`` is the level).
HEADING_TAGS = ("h1", "h2", "h3", "h4", "h5", "h6")

# whitespace, and the invisible marks some pages put around a label ("ASIN \u200f : \u200e"):
# zero-width space, left-to-right and right-to-left marks, bidi embeddings and isolates, BOM
# (not the zero-width joiners, which hold words of some scripts together)
_WS = re.compile(r"[\s\u200b\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]+")
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")
_DIGITS = re.compile(r"\d+")
_WIDE = r"[\u1100-\u11ff\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]"

class _ShippedMoney:
    """A money amount on a page ("$12", "12,50 €") by the shipped vocabulary's
    ``money_marks``, compiled when first used (a module constant would read the lexicon on
    import); a page with its lexicon at hand uses ``compile_words(...).money``."""

    def search(self, text: str) -> re.Match[str] | None:
        return default_words().money.search(text)

    def findall(self, text: str) -> list[Any]:
        return default_words().money.findall(text)

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        return default_words().money.finditer(text)

    def fullmatch(self, text: str) -> re.Match[str] | None:
        return default_words().money.fullmatch(text)


MONEY_RE = _ShippedMoney()
NUMBER_RE = re.compile(r"\d+(?:[.,]\d+)?")
_RANGE = re.compile(r"\s*[-–—~〜]\s*")


def norm_space(text: str | None) -> str:
    return _WS.sub(" ", text).strip() if text else ""


_HIDDEN = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.I)


def hidden(el: HtmlElement) -> bool:
    """``el`` is hidden by its own markup: the ``hidden`` attribute or an inline style
    (``display: none``, ``visibility: hidden``)."""
    return el.get("hidden") is not None or hiding_style(el.get("style") or "")


def hiding_style(style: str) -> bool:
    """An inline style that hides its element (:func:`hidden`)."""
    return _HIDDEN.search(style) is not None


def text_of(el: HtmlElement) -> str:
    """Visible-ish text of an element, whitespace collapsed."""
    try:
        return norm_space(el.text_content())
    except ValueError:
        return ""


def own_text(el: HtmlElement) -> str:
    """Text directly inside ``el`` (not in children), plus its children's tails."""
    parts = [el.text or ""]
    parts.extend(child.tail or "" for child in el)
    return norm_space(" ".join(parts))


def tokens(value: str) -> list[str]:
    """Split an attribute value into lower-case word tokens (camelCase and kebab-case)."""
    value = _CAMEL.sub(" ", value)
    return [t.lower() for t in _token_split().split(value) if t]


@functools.cache
def _token_split() -> re.Pattern[str]:
    """Compiled when first used (its ranges cost more than reading an article, which
    never splits attribute words)."""
    return re.compile(r"[^0-9a-zA-Z\u00c0-\u024f\u3040-\u30ff\u3400-\u9fff]+")


def class_tokens(el: HtmlElement) -> list[str]:
    cls = el.get("class")
    return cls.split() if cls else []


def shape_class(token: str) -> str:
    """A class token with digits normalized, for comparing siblings (item-3 ~ item-7)."""
    return _DIGITS.sub("0", token)


def is_element(node: object) -> bool:
    return isinstance(node, etree._Element) and isinstance(node.tag, str)


def element_children(el: HtmlElement) -> list[HtmlElement]:
    return [c for c in el if isinstance(c.tag, str) and c.tag not in NOISE_TAGS]


def iter_elements(root: HtmlElement) -> Iterator[HtmlElement]:
    for el in root.iter():
        if isinstance(el.tag, str) and el.tag not in NOISE_TAGS:
            yield el


def ancestors(el: HtmlElement, stop: HtmlElement | None = None) -> Iterator[HtmlElement]:
    parent = el.getparent()
    while parent is not None and parent is not stop:
        yield parent
        parent = parent.getparent()


def has_money(text: str) -> bool:
    return bool(text) and MONEY_RE.search(text) is not None


def split_money(el: HtmlElement, longest: int = 40) -> str | None:
    """The money an element shows only across its inline children (``<span>¥</span>
    <span>1,781.95</span>``, ``€ 352<sup>,50</sup>``): its whole text when that is
    short and one money text (a range's lower end), and no text node of it is one alone
    or only the whole's units (a struck old price beside the new one is two prices, not
    one), else None."""
    if not len(el) or any(not isinstance(c.tag, str) or c.tag not in INLINE_TAGS
                          or c.tag in ("del", "s") for c in el.iterdescendants()):
        return None
    whole = norm_space(el.text_content())
    found = list(MONEY_RE.finditer(whole))
    from structurer.values import parse_money  # values reads money; dom is below it

    upper = None
    if len(found) == 2 and _RANGE.fullmatch(whole[found[0].end():found[1].start()]):
        upper = parse_money(whole[found[1].start():]).amount
        whole = whole[:found[0].end()].strip()    # a range "¥276.99 – ¥626.00": from
        found = found[:1]
    if len(whole) > longest or len(found) != 1:
        return None
    amount = parse_money(whole).amount
    for text in [el.text, *(t for c in el.iterdescendants() for t in (c.text, c.tail))]:
        if text and MONEY_RE.search(text):
            part = parse_money(text).amount
            if upper is not None and part is not None and int(part) == int(upper):
                continue    # the range's upper end, split like its lower end
            if amount is None or part is None or part == amount or int(part) != int(amount):
                return None     # a whole price in one node: read where it is
    return whole


def link_href(el: HtmlElement) -> str | None:
    href: str | None = el.get("href")
    if not href:
        return None
    href = href.strip()
    low = href.lower()
    if not href or low.startswith(("#", "javascript:", "mailto:", "tel:", "data:")):
        return None
    return href


def attribute_words(el: HtmlElement, names: Iterable[str] | None = None) -> list[tuple[str, str]]:
    """(attribute, token) pairs of an element's descriptive attributes."""
    out: list[tuple[str, str]] = []
    for name, value in el.attrib.items():
        if names is not None and name not in names and not (
                name.startswith("data-") and "data-*" in names) and not (
                name.startswith("aria-") and "aria-*" in names):
            continue
        if name in ("href", "src", "srcset", "style", "content", "value", "action"):
            continue
        if name.startswith("data-"):
            out.extend(("data-*", t) for t in tokens(name[5:]))
            if len(value) <= 40:
                out.extend(("data-*", t) for t in tokens(value) if not t.isdigit())
            continue
        out.extend((name, t) for t in tokens(value) if not t.isdigit())
    return out


#: tags whose text is a heading of what follows them
_HEADS = frozenset({*HEADING_TAGS, "header", "legend"})


def heading_before(el: HtmlElement, max_steps: int = 4) -> str:
    """Text of the nearest heading just before ``el`` (a section title like 'Bestsellers');
    a sibling before it of its own tag and class is a peer (the card before a card), not
    a heading's block: its product's name is no title of the section."""
    node: HtmlElement | None = el
    for _ in range(max_steps):
        if node is None:
            return ""
        prev = node.getprevious()
        while prev is not None:
            if _peer(prev, node):
                prev = prev.getprevious()   # the card before, stepped over
                continue
            if isinstance(prev.tag, str):
                if prev.tag in _HEADS:
                    return text_of(prev)[:80]
                heads = prev.xpath(".//h1|.//h2|.//h3|.//h4|.//h5|.//h6")
                if heads and len(text_of(prev)) < 120:
                    return text_of(heads[-1])[:80]
                break
            prev = prev.getprevious()
        node = node.getparent()
    return ""


def _peer(prev: HtmlElement, node: HtmlElement) -> bool:
    """Whether ``prev`` is one of ``node``'s kind (its tag and class) whose heading, if it
    has one, is of a tag ``node`` holds too: the card before, its product's name no title
    of the section (a block of the same class holding an ``h2`` before cards titled by
    ``h3`` is the section's heading)."""
    if not (isinstance(prev.tag, str) and prev.tag == node.tag and prev.tag not in _HEADS
            and prev.get("class") == node.get("class")):
        return False
    heads = prev.xpath(".//h1|.//h2|.//h3|.//h4|.//h5|.//h6")
    return not heads or node.find(f".//{heads[-1].tag}") is not None


def text_length(text: str) -> int:
    """Characters of ``text``, a CJK (or Hangul, full-width) character counting 2 (a
    text without any character that far up the table is counted without the pattern,
    whose compiling costs more than reading most pages)."""
    if not text or max(text) < "\u1100":
        return len(text)
    return len(text) + len(re.findall(_WIDE, text))
