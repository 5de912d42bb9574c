"""Bytes to lxml trees: decoding and parsing of HTML, the one way all code does it.

Input: the body bytes and the Content-Type header of a response (or text).
Output: decoded text and its encoding, and an lxml HTML tree whose base URL is the
page's URL. Decoding follows the header, then BOM and <meta>, then sniffing
(w3lib), so GBK, Shift_JIS and Latin-1 pages come out without mojibake.
"""

from __future__ import annotations

import lxml.html
from lxml import etree
from w3lib.encoding import html_to_unicode

_PARSER = lxml.html.HTMLParser(remove_comments=False, collect_ids=False, default_doctype=False)


def decode_html(body: bytes, content_type: str | None = None) -> tuple[str, str]:
    """(text, encoding) of an HTML body; never raises on bad bytes."""
    encoding, text = html_to_unicode(content_type, body)
    return text, encoding


def parse_html(text: str | bytes, base_url: str | None = None) -> lxml.html.HtmlElement:
    """Parse HTML text into a tree (an empty <html> for an empty page)."""
    if isinstance(text, bytes):
        text, _ = decode_html(text)
    if not text.strip():
        text = "<html><body></body></html>"
    # lxml refuses str input that declares an encoding in an XML prolog
    if text.lstrip().startswith("<?xml"):
        text = text.split("?>", 1)[1] if "?>" in text else text
    root = etree.fromstring(text, _PARSER, base_url=base_url)
    if root is None:
        root = etree.fromstring("<html><body></body></html>", _PARSER, base_url=base_url)
    return root  # type: ignore[no-any-return]
