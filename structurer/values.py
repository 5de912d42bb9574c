"""Field values from what an XPath selected: text, money, URLs, images, stock, crumbs.

Input: the result of one XPath evaluation (element nodes, attribute or text
results, or a scalar), a :class:`ValueSpec` (value kind, ``multiple``, post steps,
availability phrases) and a :class:`Base` (the page URL that relative links are
resolved against). Output: the field's value — ``str``, ``float``, ``int``, a
:class:`Money`, a list of names for breadcrumbs, a list for ``multiple`` fields —
or ``None`` when nothing usable was selected. Nothing is ever invented.

The pipeline is: node -> raw string by kind (an element's normalized text,
``<meta>`` content, an image's real source behind lazy loading, a link's href)
-> the rule's post steps (compiled once) -> the kind's parser (:mod:`structurer.kinds`:
money with ``price-parser``, numbers, stock phrases, breadcrumb separators; its names
are re-exported here).
These functions run once per field per record, so they avoid regex compilation,
re-serialization and ``urljoin`` where a cheaper exact path exists.
"""

from __future__ import annotations

import contextlib
import html as htmllib
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urljoin, urlsplit

from lxml import etree

from structurer.kinds import (
    Money,
    Phrases,
    Words,
    compile_phrases,
    compile_words,
    crumb_separated,
    currency_code,
    default_words,
    parse_availability,
    parse_breadcrumb,
    parse_integer,
    parse_money,
    parse_rating,
    rule_phrases,
)
from structurer.markupvalues import STRUCK_TAGS, image_source, is_placeholder, rating_source, struck

__all__ = [
    "STRUCK_TAGS", "Base", "Money", "Phrases", "Post", "ValueSpec", "Words", "compile_phrases",
    "compile_words", "currency_code", "default_words", "element_text", "field_value",
    "image_source", "link_target",
    "parse_availability", "parse_breadcrumb", "parse_integer", "parse_money", "parse_rating",
    "plain_text", "rating_source", "rule_phrases", "scalar_text", "struck",
]

Post = Callable[[list[str], "Base"], list[str]]


# ----- URLs -----------------------------------------------------------------------------------
class Base:
    """The URL relative links of one page resolve against (its ``<base href>`` if any)."""

    __slots__ = ("folder", "origin", "url")

    def __init__(self, url: str) -> None:
        self.url = url
        parts = urlsplit(url)
        self.origin = f"{parts.scheme}://{parts.netloc}" if parts.scheme else ""
        self.folder = (self.origin + parts.path[:parts.path.rfind("/") + 1]
                       if parts.path else self.origin + "/") if self.origin else ""

    def join(self, href: str) -> str | None:
        """Absolute URL of ``href``; None for empty, ``javascript:`` and fragment-only links."""
        href = href.strip()
        if not href or href[0] == "#" or href[:11].lower() == "javascript:":
            return None
        if href.startswith(("https://", "http://")):
            return href
        # paths without dot segments need no parsing: '/a/b' and 'a/b' or './a/b'
        if self.origin and "/." not in href:
            if href[0] == "/":
                if href[1:2] != "/":
                    return self.origin + href
            elif href[0] != "?" and href != "." and ":" not in href.split("/", 1)[0] \
                    and ".." not in href:
                return self.folder + (href[2:] if href.startswith("./") else href)
        return urljoin(self.url, href)


# ----- element text -----------------------------------------------------------------------------
_SKIP = frozenset({"script", "style", "noscript", "template", "head", "title"})
_BLOCK = frozenset({
    "address", "article", "aside", "blockquote", "br", "dd", "div", "dl", "dt", "figcaption",
    "figure", "footer", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "main",
    "nav", "ol", "p", "pre", "section", "table", "tbody", "td", "tfoot", "th", "thead", "tr",
    "ul", "option", "summary", "details", "button",
})
_DIGIT = re.compile(r"\d")


def _collect(el: Any, parts: list[str], skip_struck: bool) -> None:
    if el.text:
        parts.append(el.text)
    for child in el:
        tag = child.tag
        if isinstance(tag, str) and tag not in _SKIP and not (skip_struck and tag in STRUCK_TAGS):
            if tag in _BLOCK:
                parts.append(" ")
                _collect(child, parts, skip_struck)
                parts.append(" ")
            elif len(child) or child.text:
                _collect(child, parts, skip_struck)
        if child.tail:
            parts.append(child.tail)


def element_text(el: Any, *, skip_struck: bool = False) -> str:
    """Visible text of an element, whitespace collapsed; block elements and ``<br>``
    separate words, scripts and styles are left out. With ``skip_struck`` the text of
    ``<del>``/``<s>``/``<strike>`` descendants is left out when the rest has a digit."""
    if not len(el):
        text = el.text
        return " ".join(text.split()) if text else ""
    parts: list[str] = []
    _collect(el, parts, skip_struck)
    text = " ".join("".join(parts).split())
    if skip_struck and not _DIGIT.search(text):
        return element_text(el)
    return text


_MARKUP = re.compile(r"<(?:[a-zA-Z][a-zA-Z0-9]*|/[a-zA-Z][a-zA-Z0-9]*)[\s/>]")
_ENTITY = re.compile(r"&(?:[a-zA-Z]{2,8}|#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6});")


def plain_text(raw: str) -> str:
    """A text field's value as a person reads it: markup and character references that
    structured data often carries (``"<p>Soft &amp; warm</p>"``, a ``content`` attribute
    holding ``&lt;p&gt;``) become plain words, whitespace collapsed."""
    if "&" in raw and _ENTITY.search(raw):
        raw = htmllib.unescape(raw)
    if "<" in raw and _MARKUP.search(raw):
        from lxml import html as lxml_html

        with contextlib.suppress(etree.ParserError):
            raw = element_text(lxml_html.fragment_fromstring(raw, create_parent="div"))
    return " ".join(raw.split())


def _inner_html(el: Any) -> str:
    head = htmllib.escape(el.text, quote=False) if el.text else ""
    return (head + "".join(etree.tostring(child, encoding="unicode", method="html")
                           for child in el)).strip()


def link_target(el: Any) -> str | None:
    """``@href`` of a link element, else of the first ``<a href>`` inside it."""
    href = el.get("href")
    if href is not None:
        return str(href)
    for a in el.iter("a"):
        href = a.get("href")
        if href is not None:
            return str(href)
    return None


_TEXT_ATTRS = ("content", "value", "title", "aria-label", "alt")
_OWN_VALUE = frozenset({"meta", "link", "time", "img", "input"})
_TEXTUAL = frozenset({"text", "money", "integer", "availability", "breadcrumb",
                      "datetime", "currency"})


def _raw(node: Any, kind: str, words: Words | None = None) -> str | None:
    """The string a selected node stands for, by value kind (None: nothing there)."""
    if isinstance(node, str):  # attribute / text() / string() results are used as is
        if kind == "image" and getattr(node, "is_attribute", False) and is_placeholder(
                node, words):
            owner = node.getparent()  # type: ignore[attr-defined]
            return image_source(owner, words) if owner is not None else None
        return node
    tag = node.tag
    if kind in _TEXTUAL and tag not in _OWN_VALUE and not len(node):
        text = node.text  # the common case: an element holding only text
        if text and not text.isspace():
            return " ".join(text.split())
    if not isinstance(tag, str):  # comments, processing instructions
        return None
    if kind == "image":
        return image_source(node, words)
    if kind == "rating":
        return _rating_raw(node, words)
    if kind == "url":
        return link_target(node)
    if kind == "html":
        return _inner_html(node)
    if tag in _OWN_VALUE:
        own = {"meta": "content", "link": "href", "img": "alt", "time": "datetime"}.get(tag)
        if own is not None and (tag != "time" or kind == "datetime"):
            value: str | None = node.get(own)
            return value if value or tag != "time" else element_text(node)
    text = element_text(node, skip_struck=kind == "money")
    if text:
        return text
    for attr in _TEXT_ATTRS:
        value = node.get(attr)
        if value and value.strip():
            return value
    return str(node.get("class") or "") if kind == "availability" else text


def _rating_raw(node: Any, words: Words | None = None) -> str | None:
    """A rating element's value: what its markup says (:func:`rating_source`), else its
    text when that reads as a rating (a first number of at most 5, not a review count)."""
    marked = rating_source(node, words)
    if marked is not None:
        return marked
    text = element_text(node)
    first = parse_rating(text) if text else None
    return text if first is not None and first <= 5 else None


def _crumb_parts(el: Any) -> list[str]:
    """One element holding a whole breadcrumb: its ``<li>`` items, or its text when it
    has visible separators, else the texts of its child elements."""
    items = [element_text(li) for li in el.iter("li")]
    if items:
        return items
    text = element_text(el)
    if crumb_separated(text):
        return [text]
    children = [element_text(c) for c in el if isinstance(c.tag, str)]
    return children if len(children) > 1 else [text]


# ----- the pipeline -----------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class ValueSpec:
    """How to turn a selection into one field's value (compiled once per rule file)."""

    kind: str = "text"
    multiple: bool = False
    post: tuple[Post, ...] = ()
    phrases: Phrases | None = None    # None: the vocabulary's stock phrases alone
    needs_all: bool = False  # look past the first usable node (multiple, joins, breadcrumbs)
    memo: dict[str, str | None] = field(default_factory=dict)  # stock text -> value
    words: Words | None = None        # the vocabulary (None: the shipped one)


def scalar_text(value: object) -> str:
    """A structured-data scalar as a page would show it: ``true``, ``12`` (not ``12.0``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _availability(raw: str, spec: ValueSpec, base: Base, currency: str | None) -> str | None:
    """Stock texts repeat on every page of a shop: each is looked up once."""
    memo = spec.memo
    if raw in memo:
        return memo[raw]
    value = parse_availability(raw, spec.phrases if spec.phrases is not None
                               else (spec.words or default_words()).stock)
    if len(memo) < 512:
        memo[raw] = value
    return value


def _text(raw: str, spec: ValueSpec, base: Base, currency: str | None) -> str | None:
    return raw.strip() or None


def _rating(raw: str, spec: ValueSpec, base: Base, currency: str | None) -> float | None:
    """A rating's number; text showing a money amount (an old price standing where a
    product without ratings has none) holds no rating."""
    if (spec.words or default_words()).money.search(raw):
        return None
    return parse_rating(raw)


_FINISH: dict[str, Callable[[str, ValueSpec, Base, str | None], Any]] = {
    "text": _text, "datetime": _text, "html": _text, "breadcrumb": _text,
    "money": lambda raw, spec, base, currency: parse_money(raw, currency, spec.words),
    "url": lambda raw, spec, base, currency: base.join(raw),
    "image": lambda raw, spec, base, currency: base.join(raw),
    "integer": lambda raw, spec, base, currency: parse_integer(raw),
    "rating": _rating,
    "availability": _availability,
    # an ISO 4217 code, or nothing: a text naming no currency is no value of it; a shared
    # sign ("￥") is the rule's currency, told by the pages' language when learned
    "currency": lambda raw, spec, base, currency: currency_code(raw, raw, spec.words, currency),
}


def field_value(selected: object, spec: ValueSpec, base: Base,
                currency: str | None = None) -> Any:
    """One field's value from an XPath result (a list of nodes/strings or a scalar).

    A single-valued field takes the first selected node that stands for a non-blank
    string. ``currency`` is the currency known from elsewhere (JSON-LD
    ``priceCurrency``) for a money text that names none. Returns None (or ``[]`` for
    ``multiple``) when nothing usable was selected."""
    kind = spec.kind
    nodes: Iterable[Any]
    if isinstance(selected, list):
        nodes = selected
        if kind == "breadcrumb" and len(selected) == 1 and not isinstance(selected[0], str):
            nodes = _crumb_parts(selected[0])
    else:
        nodes = () if selected is None else (scalar_text(selected),)
    finish = _FINISH[kind]
    if not spec.needs_all and not spec.post:
        for node in nodes:
            raw = _raw(node, kind, spec.words)
            if raw and not raw.isspace():
                return finish(raw, spec, base, currency)
        return None
    raws: list[str] = []
    for node in nodes:
        raw = _raw(node, kind, spec.words)
        if raw and not raw.isspace():
            raws.append(raw)
            if not spec.needs_all:
                break
    for step in spec.post:
        raws = step(raws, base)
    if kind == "breadcrumb":
        return parse_breadcrumb(raws, spec.words) or None
    if spec.multiple:
        values = [finish(raw, spec, base, currency) for raw in raws if raw.strip()]
        return [v for v in values if v is not None]
    return finish(raws[0], spec, base, currency) if raws and raws[0].strip() else None
