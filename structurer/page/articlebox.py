"""The article's container around its densest part (step 2 of
:mod:`structurer.page.article`): how far the core widens to its ancestors, which
characters count as its text beside paragraphs (a recipe's short items), and what
follows the core inside the container that is not the article (a share bar, a contact
card, teasers). Pure functions over the counts of a cleaned copy."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise

from lxml.html import HtmlElement

from structurer.page import density


def widened(core: HtmlElement, chain: list[HtmlElement],
             counts: dict[HtmlElement, density.Counts], good: dict[HtmlElement, int],
             slack: int, tail: tuple[int, float]) -> HtmlElement:
    """The highest ancestor of ``core`` that adds paragraphs and whose text beyond the
    core's is still mostly paragraphs (the article's other sections), give or take
    ``slack`` characters of headline, byline and captions: loose words (outside links and
    paragraphs) above the core or in a short block after it, or a block after it that
    the tail cut drops anyway (``tail``: :func:`tail_blocks`, a contact card, teaser
    links). A side column's links, or its long boxes beside or below the text (a
    subscription offer), get no slack."""
    best = core
    base_t, base_g = counts[core].t, good.get(core, 0)
    loose = 0      # the words the slack may forgive (see the doc)
    for below, el in pairwise(chain[chain.index(core):]):
        inside = counts[below].t
        for sibling in below.itersiblings(preceding=True):
            c = counts.get(sibling)
            if c is not None:
                inside += c.t
                loose += max(0, c.t - c.lt - good.get(sibling, 0))
        for sibling in below.itersiblings():
            c = counts.get(sibling)
            if c is None:
                continue
            inside += c.t
            if _tail_block(c, good.get(sibling, 0), tail):
                loose += max(0, c.t - good.get(sibling, 0))
            elif c.t < tail[0]:
                loose += max(0, c.t - c.lt - good.get(sibling, 0))
        loose += max(0, counts[el].t - inside)      # its own words (an unclosed heading's)
        added = counts[el].t - base_t
        more = good.get(el, 0)
        if more > good.get(best, 0) and more - base_g >= 0.6 * added - min(slack, loose):
            best = el     # only a step that adds paragraphs: no site header for nothing
    return best


def with_items(start: HtmlElement, counts: dict[HtmlElement, density.Counts],
                good: dict[HtmlElement, int]) -> dict[HtmlElement, int]:
    """``good`` plus the characters of the short list items and table cells without links
    below each element ("200 g Mehl", "Margarine oder Butter"): a recipe's ingredients, a
    table of figures — the article's own text though no paragraph (menus and tag lists
    are links)."""
    out = dict(good)
    for el in start.iter("li", "td", "th", "dd", "dt"):
        c = counts.get(el)
        if c is None or c.lt or c.block or not 0 < c.t < 25:
            continue
        for a in (el, *el.iterancestors()):
            out[a] = out.get(a, 0) + c.t
            if a is start:
                break
    return out


def tail_blocks(core: HtmlElement, best: HtmlElement,
                 counts: dict[HtmlElement, density.Counts], good: dict[HtmlElement, int],
                 least: int, share: float, headline: str | None = None) -> list[HtmlElement]:
    """The blocks that follow the article's paragraphs (``core``) inside its container
    (``best``) and are not mostly paragraphs: a share bar, a tag box, a contact card, a
    list of teasers that widening took in with the article's other sections; and a block
    opened by a heading of the headline's own tag (``headline``: "h1") when the container
    holds no other, another page's headline — a side column's or the next story's (a
    theme that sets each section's heading as an ``<h1>`` has three or more)."""
    doomed = []
    if headline == "h1" and sum(1 for _ in best.iter("h1")) != 2:
        headline = None
    for el in (core, *core.iterancestors()):
        if el is best:
            break
        for sibling in el.itersiblings():
            c = counts.get(sibling)
            if c is not None and (_tail_block(c, good.get(sibling, 0), (least, share))
                                  or (headline == "h1" and _opened_by(sibling, headline))):
                doomed.append(sibling)
    return doomed


def _opened_by(block: HtmlElement, tag: str) -> bool:
    """The first element of ``block`` with text of its own is a ``tag``."""
    first = next((e for e in block.iter() if isinstance(e.tag, str) and (e.text or "").strip()),
                 None)
    return first is not None and first.tag == tag


def _tail_block(c: density.Counts, good: int, tail: tuple[int, float]) -> bool:
    """A block of ``tail[0]`` characters or more less than ``tail[1]`` of them paragraphs."""
    return c.t >= tail[0] and good < tail[1] * c.t


_BETWEEN, _BETWEEN_MOST = 2, 600   # blocks between two sections: how many, how long each


def sibling_sections(best: HtmlElement, counts: dict[HtmlElement, density.Counts],
                     good: dict[HtmlElement, int]) -> list[HtmlElement]:
    """The article's other sections when a page sets each in a wrapper of its own beside
    the container's (``<div class="block topic">`` after ``<div class="block topic">``,
    a table or a figure between): the siblings of the container's outermost wrapper (the
    first ancestor with a sibling that has text) of the same tag and class that are mostly
    paragraphs, in a run from it (at most ``_BETWEEN`` other blocks of ``_BETWEEN_MOST``
    characters between two: a quote between them is read too, a table or an ad is not),
    in page order, the container's wrapper included. Empty when there are none: a
    related list or a comment box is named otherwise, or is links."""
    el = best
    while el.getparent() is not None and el.tag not in ("body", "html") and not any(
            s in counts and counts[s].t
            for s in (*el.itersiblings(preceding=True), *el.itersiblings())):
        el = el.getparent()
    if el.tag in ("body", "html") or not el.get("class"):
        return []
    key = (el.tag, el.get("class"))

    def run(siblings: Iterator[HtmlElement]) -> list[HtmlElement]:
        out: list[HtmlElement] = []
        between: list[HtmlElement] = []
        for sibling in siblings:
            c = counts.get(sibling)
            if c is None or not c.t:
                continue      # no text: a picture, a spacer
            own = good.get(sibling, 0)
            if (sibling.tag, sibling.get("class")) == key and own >= 0.5 * c.t:
                out.extend(b for b in between if good.get(b, 0) >= 0.5 * counts[b].t)
                out.append(sibling)
                between = []
            elif len(between) < _BETWEEN and c.t <= _BETWEEN_MOST:
                between.append(sibling)  # a quote, a table, a figure or an ad between two
            else:
                break
        return out

    before, after = run(el.itersiblings(preceding=True)), run(el.itersiblings())
    return [*before[::-1], el, *after] if before or after else []
