"""Pages nested too deep to parse or walk: found on the tree, repaired in the text.

Input: HTML text, or the tree libxml2 parsed from it. Output: whether that tree is nested
deeper than :data:`MAX_DEPTH` (:func:`too_deep`), and the text without the start tags
that are never closed, then without any tags still deeper (:func:`shallower`).
:func:`structurer.clean.parse_html` parses such a page again from the shallower text, so
that no page stops parsing half way and no tree is too deep to walk. A small tag
tokenizer, not a parser: it only has to find where depth piles up.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from typing import NamedTuple

from lxml import etree

#: Tags never pushed on the open-element stack, and tags whose end tag HTML implies.
_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                   "param", "source", "track", "wbr"})
_IMPLIED_END = frozenset({"p", "li", "dt", "dd", "tr", "td", "th", "option", "optgroup",
                          "thead", "tbody", "tfoot", "colgroup", "caption", "rb", "rt", "rp",
                          "html", "head", "body"})
_TOKEN = re.compile(r"<!--.*?-->|<(script|style)\b.*?</\1\s*>"
                    r"|<(/?)([a-zA-Z][a-zA-Z0-9:-]*)\b[^>]*?(/?)>", re.S | re.I)
#: Deeper trees are parsed again shallower: code that walks trees recursively must not
#: run out of Python's stack (1000 frames), and browsers stop nesting at 512 too.
MAX_DEPTH = 400
_DEEPER = etree.XPath("boolean(" + "/*" * MAX_DEPTH + ")")


def too_deep(root: etree._Element) -> bool:
    """True when the tree has an element MAX_DEPTH levels down (linear: one step per level)."""
    return bool(_DEEPER(root))


def shallower(text: str) -> str:
    """``text`` without the start tags that are never closed (their content stays where
    it is: what piles up depth in a page libxml2 gives up on, like hundreds of unclosed
    ``<div>``), then without tags nested deeper than :data:`MAX_DEPTH`."""
    return _cut(_cut(text, _never_closed), _too_deep)


def _cut(text: str, pick: Callable[[list[_Tag]], set[int]]) -> str:
    tags = []
    for match in _TOKEN.finditer(text):
        name = (match.group(3) or "").lower()
        if name and name not in _VOID and not match.group(4):
            tags.append(_Tag(match.start(), match.end(), name, bool(match.group(2))))
    out, last = [], 0
    for index in sorted(pick(tags)):
        out.append(text[last:tags[index].start])
        last = tags[index].end
    out.append(text[last:])
    return "".join(out)


class _Tag(NamedTuple):
    start: int
    end: int
    name: str
    closing: bool


def _never_closed(tags: list[_Tag]) -> set[int]:
    """Start tags that no end tag closes (an end tag closes the innermost open tag of its
    name and, implicitly, those opened inside it), save those HTML lets go unclosed."""
    stack: list[tuple[str, int]] = []
    open_names: Counter[str] = Counter()
    unclosed: set[int] = set()
    for index, tag in enumerate(tags):
        if not tag.closing:
            stack.append((tag.name, index))
            open_names[tag.name] += 1
        elif open_names[tag.name]:
            while stack:
                name, at = stack.pop()
                open_names[name] -= 1
                if name == tag.name:
                    break
                unclosed.add(at)
    unclosed.update(at for _, at in stack)
    return {at for at in unclosed if tags[at].name not in _IMPLIED_END}


def _too_deep(tags: list[_Tag]) -> set[int]:
    """Start and end tags nested deeper than :data:`MAX_DEPTH` (those whose end HTML
    implies do not count: libxml2 closes them itself)."""
    depth, deep = 0, set()
    for index, tag in enumerate(tags):
        if tag.name in _IMPLIED_END:
            continue
        if tag.closing:
            depth -= 1
            if depth >= MAX_DEPTH:
                deep.add(index)
            depth = max(depth, 0)
        else:
            if depth >= MAX_DEPTH:
                deep.add(index)
            depth += 1
    return deep
