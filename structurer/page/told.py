"""Where a page shows the text its structured data tells (an article's ``articleBody``, a
recipe's steps): a cross-check of the article's container that density chose.

Input: the body of a cleaned, pruned copy of a page, each element's counts
(:func:`structurer.page.density.text_counts`), the container density chose and the told
texts (:func:`structurer.structured.told_texts`, at the lexicon's ``told_text`` keys).
Output: the article's container — density's when it holds what the page tells; the
element holding the told text when density took a part of it (one section of the story)
or another block (a recipe's health tips beside its steps); the smallest element around
both when that holds little else. The told text is found by probes: the first
``_PROBE`` characters of up to ``_PROBES`` of its sentences, spread over it, each looked
for in the page's leaf blocks (elements of text and inline markup only). Pure.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lxml.html import HtmlElement

from structurer.page.density import Counts
from structurer.values import plain_text

_SENTENCE = re.compile(r"(?<=[.!?。！？:])\s+|\n+")
_PROBE = 40      # characters of a sentence compared
_PROBES = 12     # sentences compared, spread over the text
_FOUND = 0.5     # share of the probes found from which the text is on the page
_AROUND = 2.0    # an element around text and container may hold this times their text


def probes(texts: Sequence[str], least: int) -> tuple[list[str], int]:
    """(the probes of the told texts, their characters but spaces); none when they hold
    fewer than ``least`` characters (a teaser tells too little to place the story)."""
    plain = [plain_text(t.replace("\\n", "\n")) if "<" in t or "&" in t else t for t in texts]
    size = sum(len("".join(t.split())) for t in plain)
    if size < least:
        return [], size
    sentences = [" ".join(s.split())[:_PROBE] for t in plain for s in _SENTENCE.split(t)]
    sentences = list(dict.fromkeys(s for s in sentences if len(s) >= _PROBE))
    if len(sentences) > _PROBES:
        step = len(sentences) / _PROBES
        sentences = [sentences[int(i * step)] for i in range(_PROBES)]
    return sentences, size


def told_element(start: HtmlElement, counts: dict[HtmlElement, Counts], probes: list[str]
                 ) -> HtmlElement | None:
    """The smallest element around the leaf blocks holding the probes, when half of them
    or more are found."""
    left = set(probes)
    found: list[HtmlElement] = []
    for el in start.iter():
        c = counts.get(el)
        if c is None or c.block or c.t < _PROBE // 2 or not left:
            continue
        text = " ".join(el.text_content().split())
        hits = {p for p in left if p in text}
        if hits:
            left -= hits
            found.append(el)
    if not found or len(probes) - len(left) < _FOUND * len(probes):
        return None
    return common_ancestor(found)


def common_ancestor(elements: Sequence[HtmlElement]) -> HtmlElement:
    """The lowest element holding all of ``elements`` (themselves included)."""
    around = [elements[0], *elements[0].iterancestors()]
    for el in elements[1:]:
        mine = {el, *el.iterancestors()}
        around = [a for a in around if a in mine]
    return around[0]


def reconciled(best: HtmlElement, told: HtmlElement | None, start: HtmlElement,
               counts: dict[HtmlElement, Counts], size: int) -> HtmlElement:
    """The article's container, density's ``best`` weighed with the element holding the
    told text (``told``, ``size`` characters): ``best`` when it holds it; ``told`` when it
    holds ``best`` and not much more than the told text, or stands apart from ``best``
    with no small element around both; else the element around both."""
    if told is None or told is start or told is best or best in told.iterancestors():
        return best
    if told in best.iterancestors():
        return told if counts[told].t <= _AROUND * size else best
    around = common_ancestor([best, told])
    if around is start or counts[around].t > _AROUND * (counts[best].t + counts[told].t):
        return told
    return around
