"""Bytes to lxml trees: decoding, parsing and noise removal, the one way all code does it.

Input: the body bytes and the Content-Type header of a response (or text), or an
lxml tree. Output: decoded text and its encoding; an lxml HTML tree whose base URL is
the page's URL; cleaned copies of trees (no scripts, styles, comments...) and their
visible text. Pure functions: no network, no files.

Decoding verifies what is declared instead of trusting it: a BOM decides; a body
that is valid UTF-8 is UTF-8 whatever the header or ``<meta>`` say (other text is
almost never valid UTF-8, and a wrong ``<meta charset>`` on a UTF-8 page is common);
otherwise the header's charset, then the ``<meta>`` one, is used when the body
decodes with it strictly and the text is plausible (:func:`_plausibility`); a body
that is UTF-8 but for a few bad bytes stays UTF-8; anything else goes to a small
detector that decodes with the usual CJK, Cyrillic and Western codecs and keeps the
most plausible text. So a GBK page sent as ``charset=utf-8`` and a UTF-8 page with
``<meta charset="gbk">`` both come out right.

Parsing keeps pages nested deeper than libxml2's default limit of 255 levels
(``huge_tree``); a page nested deeper than :data:`~structurer.nesting.MAX_DEPTH` is
parsed again with the never-closed tags that pile up the depth dropped (their content
kept), then any tags still deeper (:mod:`structurer.nesting`), so that no page stops
parsing half way and no tree is too deep to walk.
"""

from __future__ import annotations

import codecs
import copy
import re
from collections.abc import Collection

import lxml.html
from lxml import etree
from w3lib.encoding import (
    html_body_declared_encoding,
    html_to_unicode,
    http_content_type_encoding,
    read_bom,
)

from structurer.logs import logger
from structurer.nesting import MAX_DEPTH, shallower, too_deep

_PARSER = lxml.html.HTMLParser(  # type: ignore[call-arg]  # lxml-stubs lag behind
    remove_comments=False, collect_ids=False, default_doctype=False, huge_tree=True)
# Every element is an HtmlElement (no FormElement, InputElement ...: nothing here uses
# their extras), looked up in C: lxml.html's own lookup is a Python call each time an
# element is touched, the larger part of walking a tree (a third of reading an article).
_PARSER.set_element_class_lookup(etree.ElementDefaultClassLookup(
    element=lxml.html.HtmlElement, comment=lxml.html.HtmlComment,
    pi=lxml.html.HtmlProcessingInstruction, entity=lxml.html.HtmlEntity))
log = logger(__name__)

#: Codecs the detector tries when nothing declared fits, in order of preference on ties.
DETECT = ("gb18030", "big5", "shift_jis", "euc_jp", "euc_kr", "cp1251", "cp1252")
#: The most frequent Chinese characters (simplified and traditional) and shop words.
_COMMON_HAN = frozenset(
    "的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家"
    "学对可她里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经"
    "头面公同三已老从动两长知民样现分将外但身些与高意进把法此实回二理美点月明其种全工己话儿者向"
    "情部正名定女问力机给等几很业最间新什打便位因重被走电四第门相次东政海口使教西再平真听世气信"
    "北少关并内加化由却代产入先山五太水万市体别处总才场书比住员九性通目华报立马命张活难神数件安"
    "表原车白应路期送价格购买货号码款质装商品元包邮销售库存评论颜尺寸鞋衣服男童手机数码"
    "這個們來為國說時會對於著過發後裡與經麼學現當沒動進還開從實價購買貨號碼質裝銷售庫評論顏")
_UTF = ("utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be")


def decode_html(body: bytes, content_type: str | None = None) -> tuple[str, str]:
    """(text, encoding) of an HTML body; never raises on bad bytes (see the module doc)."""
    bom, _ = read_bom(body)
    header = _codec_name(http_content_type_encoding(content_type or ""))
    meta = _codec_name(html_body_declared_encoding(body))
    if bom is not None:
        encoding, text = html_to_unicode(content_type, body)
        return text, _codec_name(encoding)
    for declared in (header, meta):
        wide = _strict(body, declared) if declared in _UTF else None
        if wide is not None:
            return wide, declared
    if body.isascii():
        declared = next((e for e in (header, meta) if e and _ascii_based(e)), "utf-8")
        return body.decode("ascii"), declared
    try:
        return body.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    for declared in dict.fromkeys(e for e in (header, meta) if e and e != "utf-8"):
        strict = _strict(body, declared)
        if strict is None or _plausibility(strict) < 0.5:
            continue
        # a single-byte codec decodes any bytes: it must also beat the detector
        return _detect(body, [declared]) if _single_byte(declared) else (strict, declared)
    lenient = body.decode("utf-8", "replace")
    if not _mostly_not_utf8(lenient) and (not (header or meta) or "utf-8" in (header, meta)):
        return lenient, "utf-8"   # UTF-8 with a few bad bytes
    return _detect(body, [e for e in (header, meta) if e and e != "utf-8"])


def _strict(body: bytes, encoding: str) -> str | None:
    try:
        return body.decode(encoding)
    except (UnicodeDecodeError, LookupError):
        return None


def _single_byte(encoding: str) -> bool:
    """Every byte is one character (Latin-1, windows-125x, KOI8-R ...)."""
    return len(bytes(range(0x80, 0x100)).decode(encoding, "replace")) == 0x80


def _ascii_based(encoding: str) -> bool:
    try:
        return "<p>a</p>".encode(encoding) == b"<p>a</p>"
    except (LookupError, UnicodeEncodeError):
        return False


def _detect(body: bytes, declared: list[str]) -> tuple[str, str]:
    """The most plausible decoding among the declared codecs and :data:`DETECT`; a
    codec that cannot decode the body strictly competes with its replacement marks."""
    best: tuple[float, str, str] | None = None
    for rank, encoding in enumerate(dict.fromkeys([*declared, *DETECT])):
        try:
            text = body.decode(encoding, "replace")
        except LookupError:
            continue
        # what is declared wins unless another codec reads clearly better; ties: DETECT order
        score = _plausibility(text) - (0.3 if rank >= len(declared) else 0) - rank * 1e-3
        if best is None or score > best[0]:
            best = (score, text, encoding)
    assert best is not None  # DETECT's codecs always exist
    return best[1], best[2]


def _plausibility(text: str, sample: int = 4000) -> float:
    """Mean plausibility of the non-ASCII characters of decoded text (up to ``sample``):
    about 1 or more for real text, below 0.5 for a wrong codec's output — frequent Han
    characters, kana and Hangul score high, runs of accented letters with no ASCII
    letter beside them, private-use, rare or half-width characters and replacement
    marks score low."""
    total = count = 0.0
    for match in _NON_ASCII.finditer(text):
        i = match.start()
        total += _weight(text[i], text[i - 1:i], text[i + 1:i + 2])
        count += 1
        if count >= sample:
            break
    return total / count if count else 1.0


def _weight(char: str, before: str, after: str) -> float:
    code = ord(char)
    if char in _COMMON_HAN or 0x3040 <= code <= 0x30FF:
        return 2.0
    if 0xAC00 <= code <= 0xD7A3:
        return 1.5
    if 0x4E00 <= code <= 0x9FFF:
        return 0.5
    if (0x3000 <= code <= 0x303F or 0xFF01 <= code <= 0xFF5E or 0xFFE0 <= code <= 0xFFE6
            or 0x2010 <= code <= 0x205E or 0x20A0 <= code <= 0x20BF):
        return 1.0
    if 0xA0 <= code <= 0xBF or code in (0xD7, 0xF7):   # Latin-1 signs: next to plain text
        return 1.0 if any(c.isascii() for c in before + after) else 0.0
    if 0xC0 <= code <= 0x24F or 0x370 <= code <= 0x4FF:
        # a letter of an alphabet: plausible beside a letter of the same script
        near = before + after
        same = any(c.isascii() and c.isalpha() for c in near) if code <= 0x24F else any(
            0x370 <= ord(c) <= 0x4FF for c in near)
        return 1.0 if same else 0.0
    return -1.0


_NON_ASCII = re.compile(r"[^\x00-\x7f]")


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
    if root is not None and (too_deep(root) or any(
            "Excessive depth" in error.message for error in _PARSER.error_log)):
        log.warning("%s: nested deeper than %d levels; parsed without its never-closed tags",
                    base_url or "a page", MAX_DEPTH)
        root = etree.fromstring(shallower(text), _PARSER,
                                base_url=base_url)  # type: ignore[arg-type]
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


#: Characters of paragraphs a ``<noscript>`` holds from which it is the page's own text
#: for readers without scripts (a blog's post, a whole page), not a "please enable
#: JavaScript" notice or a tracking pixel.
NOSCRIPT_TEXT = 500


def holds_text(noscript: etree._Element) -> bool:
    """A ``<noscript>`` holding paragraphs: the page's text where scripts would draw it
    (Blogger's posts, a site that shows itself only without scripts); kept as text."""
    chars = 0
    for p in noscript.iter("p"):
        chars += len("".join("".join(str(t) for t in p.itertext()).split()))
    return chars >= NOSCRIPT_TEXT


def _root(tree: etree._Element | etree._ElementTree) -> etree._Element:
    return tree.getroot() if isinstance(tree, etree._ElementTree) else tree


def clean_tree(tree: etree._Element | etree._ElementTree, *,
               keep_jsonld: bool = False) -> etree._Element:
    """A copy of the tree without scripts, styles, SVG/MathML, noscript (but one holding
    paragraphs: :func:`holds_text`), template, iframe/object/embed, comments and
    processing instructions.

    Text after a removed element (its tail) is kept. ``<meta>`` and ``<link>`` stay
    wherever they are: microdata puts ``<meta itemprop="price">`` in the body. With
    ``keep_jsonld`` the ``<script type="application/ld+json">`` blocks stay too.
    """
    root = copy.deepcopy(_root(tree))
    for noscript in [el for el in root.iter("noscript") if holds_text(el)]:
        noscript.tag = "div"      # the page's text for readers without scripts
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


_STRING = etree.XPath("string()", smart_strings=False)   # as text_content() reads it


def short_text(el: etree._Element, most: int) -> str | None:
    """``normalize_space(el.text_content())``, or None when that is surely longer than
    ``most`` characters: it has more than ``most // 2 + 1`` words (split that far only: a
    heading test on a block holding the whole page does not space all of its text)."""
    text = str(_STRING(el))
    words = most // 2 + 1
    if len(text) > most and len(text.split(None, words)) > words:
        return None
    return normalize_space(text)


def _open(node: etree._Element, out: list[str]) -> None:
    if node.tag in BLOCK_TAGS:
        out.append(" ")
    if node.text:
        out.append(node.text)


def drop_elements(doomed: list[etree._Element]) -> None:
    """Remove the elements (the outermost of nested ones) with their content, keeping the
    text that follows each."""
    marked = set(doomed)
    for el in doomed:
        if not any(a in marked for a in el.iterancestors()):
            _drop(el)


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
