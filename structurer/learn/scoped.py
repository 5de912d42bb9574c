"""XPaths of detail fields learned from markup, inside the main product's region.

Input: a reference element of one sample page and the XPath of the main product's
region (:func:`structurer.learn.detail._scope_xpath`). Output: candidate absolute XPaths
to the element, scoped first, and the check that an XPath finds a page's own element
first (or nothing where the page has none), and the check of what it reads on a page
without the field (:func:`reads_where_missing`). Shared by the markup learners
(:mod:`structurer.learn.markup`, :mod:`structurer.learn.stars`) and the detail learner.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from lxml.html import HtmlElement

from structurer.learn import xpaths
from structurer.page.view import PageView


def scoped_candidates(ref: HtmlElement, scope: str | None) -> list[str]:
    """Absolute XPaths to ``ref``: first each inside the main product's region, then as is."""
    plain = xpaths.absolute_candidates(ref)
    if not scope:
        return plain
    region = next((n for n in xpaths.evaluate(scope, ref.getroottree().getroot())
                   if isinstance(n, HtmlElement)), None)
    inner = xpaths.relative_candidates(ref, region) if region is not None and (
        region in set(ref.iterancestors())) else []
    return list(dict.fromkeys([scope + x for x in plain if x.startswith("//")]
                              + [scope + x[1:] for x in inner if x.startswith("./")]
                              + plain))


def selects_first(xpath: str, page: PageView, want: HtmlElement | None) -> bool:
    got = [n for n in xpaths.evaluate(xpath, page.tree) if isinstance(n, HtmlElement)]
    return (bool(got) and got[0] is want) if want is not None else not got


def reads_where_missing(xpath: str, owns: Sequence[tuple[HtmlElement, HtmlElement]],
                        reads: Callable[[str, HtmlElement], bool]) -> int:
    """The pages on which ``xpath`` still reads something (``reads``: what replay would
    take for the field) with the field's own element taken out: what it reads on the
    page of a product without the field (one nobody rated) though every sample has it —
    the review count or a delivery line in the rating's place. ``owns`` pairs each
    page's tree with its own element; the element is put back where it was."""
    count = 0
    for tree, own in owns:
        parent = own.getparent()
        if parent is None:
            continue
        index = parent.index(own)
        parent.remove(own)      # its tail goes with it, and comes back with it
        try:
            count += reads(xpath, tree)
        finally:
            parent.insert(index, own)
    return count
