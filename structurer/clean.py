"""Bytes to lxml trees: decoding, parsing and noise removal, the one way all code does it.

Input: the body bytes and the Content-Type header of a response (or text), or an
lxml tree. Output: decoded text and its encoding; an lxml HTML tree whose base URL is
the page's URL; cleaned copies of trees (no scripts, styles, comments...) and their
visible text. Pure functions: no network, no files.

Decoding trusts, in order, a BOM, the HTTP header, ``<meta charset>``, then sniffing
(w3lib), so GBK, Shift_JIS and Latin-1 pages come out without mojibake. Two
declarations that the bytes plainly contradict are overridden: UTF-8 declared on a
body that is mostly not UTF-8 (the ``<meta>`` charset is tried next, then
windows-1252), and a Western single-byte charset declared by the header on a body
that is valid UTF-8 (the usual server-default ``ISO-8859-1``).
"""

from __future__ import annotations

import codecs
import copy
from collections.abc import Collection

import lxml.html
from lxml import etree
from w3lib.encoding import html_body_declared_encoding, html_to_unicode, read_bom, to_unicode

_PARSER = lxml.html.HTMLParser(  # type: ignore[call-arg]  # lxml-stubs lag behind
    remove_comments=False, collect_ids=False, default_doctype=False)
_WESTERN = frozenset({"cp1252", "iso8859-1", "iso8859-15", "ascii"})


def decode_html(body: bytes, content_type: str | None = None) -> tuple[str, str]:
    """(text, encoding) of an HTML body; never raises on bad bytes."""
    encoding, text = html_to_unicode(content_type, body)
    encoding = _codec_name(encoding)
    if read_bom(body)[0] is not None:
        return text, encoding
    if encoding == "utf-8":
        if "\ufffd" in text and _mostly_not_utf8(text):
            declared = _codec_name(html_body_declared_encoding(body))
            if declared and declared != "utf-8":
                return to_unicode(body, declared), declared
            return to_unicode(body, "cp1252"), "cp1252"
    elif encoding in _WESTERN and not body.isascii():
        declared = _codec_name(html_body_declared_encoding(body))
        if declared in ("", "utf-8"):
            try:
                return body.decode("utf-8"), "utf-8"
            except UnicodeDecodeError:
                pass
    return text, encoding


def _codec_name(encoding: str | None) -> str:
    """Python's canonical name of an encoding ('utf8' -> 'utf-8'); '' when unknown."""
    if not encoding:
        return ""
    try:
        return codecs.lookup(encoding).name
    except LookupError:
        return encoding


def _mostly_not_utf8(text: str) -> bool:
    """More replacement characters than well-decoded non-ASCII characters."""
    bad = text.count("\ufffd")
    non_ascii = len(text) - len(text.encode("ascii", "ignore"))
    return bad > non_ascii - bad


def parse_html(text: str | bytes, base_url: str | None = None) -> lxml.html.HtmlElement:
    """Parse HTML text into a tree (an empty <html> for an empty page)."""
    if isinstance(text, bytes):
        text, _ = decode_html(text)
    if not text.strip():
        text = "<html><body></body></html>"
    # lxml refuses str input that declares an encoding in an XML prolog
    if text.lstrip().startswith("<?xml"):
        text = text.split("?>", 1)[1] if "?>" in text else text
    root = etree.fromstring(text, _PARSER, base_url=base_url)  # type: ignore[arg-type]
    if root is None:
        root = etree.fromstring("<html><body></body></html>", _PARSER,
                                base_url=base_url)  # type: ignore[arg-type]
    return root


# ----- cleaning ------------------------------------------------------------------------

#: Elements whose content is never page content: code, styling, drawings, embeds.
NOISE_TAGS = ("script", "style", "svg", "math", "noscript", "template", "iframe", "object",
              "embed")
#: Elements that separate words in visible text (a space is put at their edges).
BLOCK_TAGS = frozenset({
    "address", "article", "aside", "blockquote", "br", "caption", "dd", "details", "dialog",
    "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3",
    "h4", "h5", "h6", "header", "hr", "li", "main", "nav", "ol", "option", "p", "pre",
    "section", "summary", "table", "tbody", "td", "tfoot", "th", "thead", "title", "tr", "ul",
    "img", "input", "select", "textarea", "button", "label", "body", "head", "html"})
_SKIP_TEXT = frozenset(NOISE_TAGS) | {"style", "head"}


def _root(tree: etree._Element | etree._ElementTree) -> etree._Element:
    return tree.getroot() if isinstance(tree, etree._ElementTree) else tree


def clean_tree(tree: etree._Element | etree._ElementTree, *,
               keep_jsonld: bool = False) -> etree._Element:
    """A copy of the tree without scripts, styles, SVG/MathML, noscript, template,
    iframe/object/embed, comments and processing instructions.

    Text after a removed element (its tail) is kept. ``<meta>`` and ``<link>`` stay
    wherever they are: microdata puts ``<meta itemprop="price">`` in the body. With
    ``keep_jsonld`` the ``<script type="application/ld+json">`` blocks stay too.
    """
    root = copy.deepcopy(_root(tree))
    tags: list[object] = [t for t in NOISE_TAGS if not (keep_jsonld and t == "script")]
    if keep_jsonld:
        for script in list(root.iter("script")):
            if (script.get("type") or "").strip().lower() != "application/ld+json":
                _drop(script)
    etree.strip_elements(root, *tags, etree.Comment, etree.ProcessingInstruction,
                         with_tail=False)
    return root


def structure_only(tree: etree._Element | etree._ElementTree, *,
                   attributes: Collection[str] | None = None) -> etree._Element:
    """A cleaned copy with all text removed, for structure fingerprints.

    ``attributes`` names the attributes kept (None keeps all, empty keeps none).
    """
    root = clean_tree(tree)
    keep = None if attributes is None else frozenset(attributes)
    for el in root.iter():
        el.text = None
        el.tail = None
        if keep is not None:
            for name in [n for n in el.attrib if n not in keep]:
                del el.attrib[name]
    return root


def visible_text(el: etree._Element | etree._ElementTree, *, skip_head: bool = True) -> str:
    """The text a reader sees in ``el``: no scripts/styles/comments (nor ``<head>`` unless
    ``skip_head`` is False), words split at block elements, whitespace collapsed."""
    root = _root(el)
    skip = _SKIP_TEXT if skip_head else _SKIP_TEXT - {"head"}
    out: list[str] = []
    if not isinstance(root.tag, str) or root.tag in skip:
        return ""
    _open(root, out)
    nodes = [root]
    stack = [iter(root)]
    while stack:
        child = next(stack[-1], None)
        if child is None:
            stack.pop()
            node = nodes.pop()
            if node.tag in BLOCK_TAGS:
                out.append(" ")
            if nodes and node.tail:
                out.append(node.tail)
            continue
        tag = child.tag
        if not isinstance(tag, str) or tag in skip:
            if child.tail:
                out.append(child.tail)
            continue
        _open(child, out)
        nodes.append(child)
        stack.append(iter(child))
    return normalize_space("".join(out))


def normalize_space(text: str) -> str:
    """Whitespace runs (non-breaking spaces included) collapsed to one space, trimmed."""
    return " ".join(text.split())


def _open(node: etree._Element, out: list[str]) -> None:
    if node.tag in BLOCK_TAGS:
        out.append(" ")
    if node.text:
        out.append(node.text)


def _drop(el: etree._Element) -> None:
    """Remove ``el`` and its content, keeping the text that follows it."""
    parent = el.getparent()
    if parent is None:
        return
    if el.tail:
        previous = el.getprevious()
        if previous is not None:
            previous.tail = (previous.tail or "") + el.tail
        else:
            parent.text = (parent.text or "") + el.tail
    parent.remove(el)
