"""Layouts: telling apart pages of one level that follow different templates.

Input: two groups of :class:`PageView` (pages one rule set fits, pages it does not).
Output: an XPath condition true on every page of one group and false on every page
of the other, which a rule file's ``variants[].when`` uses to pick the rule set.
"""

from __future__ import annotations

from collections.abc import Sequence

from lxml.html import HtmlElement

from structurer.learn import xpaths
from structurer.page.view import PageView


def distinguishing_condition(inside: Sequence[PageView], outside: Sequence[PageView],
                             prefer: Sequence[HtmlElement] = ()) -> str | None:
    """An XPath true on every page of one layout and false on every page of the other,
    naming an element only that layout has (``boolean(//main[...])``): first the
    ``prefer``red elements of the first page (the layout's own list container and its
    ancestors), then the shallowest elements of the page."""
    ref = inside[0]
    by_depth = sorted((el for el in ref.body.iter() if isinstance(el.tag, str)),
                      key=lambda el: sum(1 for _ in el.iterancestors()))
    for el in [*prefer, *by_depth[:600]]:
        for pred in xpaths.predicates(el)[:3]:
            test = f"//{el.tag}[{pred}]"
            if all(xpaths.evaluate(test, p.tree) for p in inside) and not any(
                    xpaths.evaluate(test, p.tree) for p in outside):
                return f"boolean({test})"
    return None
