"""Sitemaps: the ``Sitemap:`` lines of a robots.txt and the URLs a sitemap file lists.

Input: robots.txt text, or the bytes of a sitemap file as fetched (XML ``<urlset>`` or
``<sitemapindex>``, gzip-compressed or not, or a plain-text list of URLs). Output: the
sitemap URLs robots.txt names, and a :class:`Sitemap` — whether the file is an index
(its URLs are more sitemaps) and the URLs it lists, in document order. Pure, bounded:
at most ``max_bytes`` are unpacked and at most ``max_urls`` URLs read from one file; XML
entities are never resolved and nothing is fetched. Analysis
(:mod:`structurer.learn.discovery`) and the crawler (:mod:`structurer.crawler.traverse`)
read sitemaps with these functions only.
"""

from __future__ import annotations

import re
import zlib
from dataclasses import dataclass, field
from urllib.parse import urljoin, urlsplit

from lxml import etree

__all__ = ["Sitemap", "is_sitemap", "parse_sitemap", "robots_sitemaps", "unpack"]

_GZIP_MAGIC = b"\x1f\x8b"
_SITEMAP_LINE = re.compile(r"^\s*sitemap\s*:\s*(\S+)", re.IGNORECASE | re.MULTILINE)
_ROOT = re.compile(rb"<(?:[\w.-]+:)?(urlset|sitemapindex)[\s>]")


@dataclass(frozen=True)
class Sitemap:
    """What one sitemap file lists: page URLs, or (``index``) more sitemaps."""

    index: bool = False
    urls: list[str] = field(default_factory=list)


def robots_sitemaps(text: str, base: str) -> list[str]:
    """The http(s) URLs of robots.txt's ``Sitemap:`` lines (resolved against ``base``),
    in file order, each once."""
    out: list[str] = []
    for match in _SITEMAP_LINE.finditer(text):
        url = urljoin(base, match.group(1).strip())
        if urlsplit(url).scheme in ("http", "https") and url not in out:
            out.append(url)
    return out


def unpack(body: bytes, max_bytes: int) -> bytes | None:
    """The body, gunzipped when it is gzip data; None when it unpacks past ``max_bytes``
    or is broken (a truncated or bogus gzip stream)."""
    if not body.startswith(_GZIP_MAGIC):
        return body[:max_bytes] if len(body) <= max_bytes else None
    inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
    try:
        data = inflater.decompress(body, max_bytes + 1)
    except zlib.error:
        return None
    return data if len(data) <= max_bytes else None


def is_sitemap(body: bytes) -> bool:
    """Whether fetched bytes are a sitemap file (XML ``urlset`` or ``sitemapindex``, maybe
    gzipped): the crawler reads such a page as a sitemap, not as HTML."""
    if body.startswith(_GZIP_MAGIC):
        try:
            head = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(body, 2048)
        except zlib.error:
            return False
    else:
        head = body[:2048]
    return _ROOT.search(head) is not None


def parse_sitemap(body: bytes, base: str, *, max_bytes: int, max_urls: int) -> Sitemap:
    """The URLs a sitemap file lists (``<loc>`` of ``<url>`` or ``<sitemap>``; a text
    sitemap's lines), absolute and http(s) only, first ``max_urls`` of them."""
    data = unpack(body, max_bytes)
    if data is None:
        return Sitemap()
    root_match = _ROOT.search(data[:4096])
    if root_match is None:
        return Sitemap(urls=_text_urls(data, base, max_urls))
    index = root_match.group(1) == b"sitemapindex"
    parser = etree.XMLParser(resolve_entities=False, no_network=True, recover=True,
                             huge_tree=False, remove_comments=True)
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError:
        return Sitemap(index)
    if root is None:
        return Sitemap(index)
    urls: list[str] = []
    for el in root.iter():
        if not isinstance(el.tag, str) or etree.QName(el).localname != "loc":
            continue
        parent = el.getparent()
        if parent is None or etree.QName(parent).localname not in ("url", "sitemap"):
            continue
        url = _absolute((el.text or "").strip(), base)
        if url and url not in urls:
            urls.append(url)
            if len(urls) >= max_urls:
                break
    return Sitemap(index, urls)


def _absolute(value: str, base: str) -> str | None:
    if not value or any(ch.isspace() for ch in value):
        return None
    url = urljoin(base, value)
    return url if urlsplit(url).scheme in ("http", "https") else None


def _text_urls(data: bytes, base: str, max_urls: int) -> list[str]:
    """A text sitemap: one absolute URL a line (anything else: not a sitemap, nothing)."""
    out: list[str] = []
    for line in data.decode("utf-8", "replace").splitlines():
        line = line.strip()
        if not line:
            continue
        if not line.startswith(("http://", "https://")):
            return []
        url = _absolute(line, base)
        if url and url not in out:
            out.append(url)
            if len(out) >= max_urls:
                break
    return out

