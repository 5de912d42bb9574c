"""Text cut at block elements, as a reader sees it: one line per paragraph, heading,
list item or cell, with the characters inside links of each line; figures around
pictures and captions left out, soft hyphens dropped (the article's line filter,
:mod:`structurer.page.article`, decides which lines stay). Pure.
"""

from __future__ import annotations

import re

from lxml.html import HtmlElement

from structurer.clean import BLOCK_TAGS, NOISE_TAGS, normalize_space
from structurer.page.dates import find_dates
from structurer.page.dom import HEADING_TAGS

_CLOCK = re.compile(r"\b\d{1,2}[:.]\d{2}(?!\d)(?:\s*(?:[ap]\.?m\.?|uhr|h))?", re.I)


def _picture(el: HtmlElement) -> bool:
    """A caption, or a figure around a picture: its credits and captions are not text."""
    return el.tag == "figcaption" or (el.tag == "figure" and any(
        True for _ in el.iter("img", "picture", "video")))


def stamp(line: str) -> bool:
    """A short line that is a date or a time of day and a few words ("Dienstag, 4. Juni
    2019", "05:28 Uhr", "Posted on May 3, 2021 by Ann"): a byline, not text."""
    if len(line) > 80:
        return False
    rest = _CLOCK.sub(" ", line)
    for found in reversed(find_dates(rest)):
        rest = rest[:found.start] + " " + rest[found.end:]
    return rest != line and len(rest.split()) <= 4


class Walk:
    """Text cut at block elements, with the characters inside links of each line, and
    those of the links it ends with (punctuation after them aside)."""

    def __init__(self, anchor: HtmlElement | None = None) -> None:
        self.anchor = anchor            # the headline: the index of its line is kept
        self.headline: int | None = None
        # (text, link characters, a heading's level (0: none), a list item's line)
        self.lines: list[tuple[str, int, int, bool]] = []
        self.ends: list[int] = []       # of each line: the link characters it ends with
        self.pieces: list[str] = []
        self.linked = 0
        self.trailing = 0
        self.blocks: list[str] = []     # the block elements open around the text, innermost last

    def add(self, text: str | None, link: bool) -> None:
        if text:
            self.pieces.append(text)
            squeezed = len("".join(text.split()))
            if link:
                self.linked += squeezed
                self.trailing += squeezed
            elif any(char.isalnum() for char in text):
                self.trailing = 0       # words after the links: the line ends in none

    def flush(self) -> None:
        # soft hyphens are hyphenation hints, not text a reader sees ("Mit\xadtel\xadal\xadter")
        text = normalize_space("".join(self.pieces).replace("\xad", ""))
        if text:
            # a heading's own line: not text a heading left unclosed wraps (<h2>…<p>…</p>)
            block = self.blocks[-1] if self.blocks else ""
            level = int(block[1]) if block in HEADING_TAGS else 0
            self.lines.append((text, self.linked, level, block == "li"))
            self.ends.append(self.trailing)
        self.pieces, self.linked, self.trailing = [], 0, 0

    def visit(self, el: HtmlElement, in_link: bool) -> None:
        block = el.tag in BLOCK_TAGS and el.tag != "br"
        link = in_link or el.tag == "a"
        if block:
            self.flush()
            self.blocks.append(el.tag)
        elif el.tag == "br":
            self.add(" ", link)
        if el is self.anchor:
            self.flush()
            self.headline = len(self.lines)
        self.add(el.text, link)
        for child in el:
            if isinstance(child.tag, str) and child.tag not in NOISE_TAGS and not _picture(child):
                self.visit(child, link)
            self.add(child.tail, link)
        if block:
            self.flush()
            self.blocks.pop()
