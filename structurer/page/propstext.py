"""The text of an article that only the page's JSON data holds: an app's page whose body
is empty until scripts render it from props (a ``<script type="application/json">`` such
as ``__NEXT_DATA__``, a ``data-react-props``-like attribute whose value is a JSON
object).

Input: the texts of the page's JSON data scripts (gathered by
:func:`structurer.page.view.empty_noise` before it empties them) and the parsed tree (for
the JSON held in attributes). Output: the article's paragraphs, in order: the strings of
prose (``least`` characters or more, ending a sentence; HTML in a string is read as its
text) of the JSON node that holds most of the data's prose (from the root, the child
holding ``_MOST`` of its node's prose, as long as there is one: the story's body, not the
teasers of related stories beside it). Pure; read only when the page shows no text.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable
from typing import Any

from lxml.html import HtmlElement

from structurer.page.articlelines import SENTENCE_ENDS

_MOST = 0.6
_BREAKS = re.compile(r"<(?:/?(?:p|div|h[1-6]|li|ul|ol|blockquote|section)\b[^>]*|br\s*/?)>",
                     re.I)
_TAGS = re.compile(r"<[^>]+>")
_SPACE = re.compile(r"[ \t\r\f\v]+")


def props_paragraphs(scripts: Iterable[str], tree: HtmlElement, least: int) -> list[str]:
    """The article's paragraphs from the page's JSON data (see the module doc)."""
    roots: list[Any] = []
    for raw in [*scripts, *tree.xpath("//@*[starts-with(normalize-space(.), '{')]")]:
        try:
            roots.append(json.loads(raw))
        except ValueError:
            continue
    if not roots:
        return []
    node: Any = roots
    while True:
        total = _prose(node, least)
        children = list(node.values()) if isinstance(node, dict) else \
            node if isinstance(node, list) else []
        main = next((c for c in children if total and
                     sum(map(len, _prose(c, least))) >= _MOST * sum(map(len, total))), None)
        if main is None:
            return list(dict.fromkeys(total))
        node = main


def _prose(node: Any, least: int) -> list[str]:
    """The paragraphs of prose below a JSON node, in order."""
    if isinstance(node, str):
        return _paragraphs(node, least) if len(node) >= least else []
    children = node.values() if isinstance(node, dict) else node if isinstance(node, list) \
        else ()
    return [p for child in children for p in _prose(child, least)]


def _paragraphs(value: str, least: int) -> list[str]:
    """A string's paragraphs of prose: its lines (its blocks when it is HTML) of ``least``
    characters or more that hold words and end a sentence (no URL, no code)."""
    if "<" in value and ">" in value:
        value = html.unescape(_TAGS.sub("", _BREAKS.sub("\n", value)))
    out = []
    for line in value.splitlines():
        line = _SPACE.sub(" ", line).strip()
        if len(line) >= least and line.count(" ") >= len(line) / 25 and \
                line.endswith(SENTENCE_ENDS) and "://" not in line[:12]:
            out.append(line)
    return out
