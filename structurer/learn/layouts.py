"""Layouts: telling apart pages of one level that follow different templates.

Input: two groups of :class:`PageView` (pages one rule set fits, pages it does not).
Output: an XPath condition true on every page of one group and false on every page
of the other, which a rule file's ``variants[].when`` uses to pick the rule set.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from lxml.html import HtmlElement

from structurer.learn import xpaths
from structurer.page.view import PageView
from structurer.rules.model import FieldRule


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


#: field kinds whose one value on every page is the site's, not the product's (as in
#: :func:`structurer.learn.fields.score_slot`'s "same text in every record")
_VARYING_KINDS = frozenset({"text", "money", "integer", "rating"})


def site_constants(fields: Mapping[str, FieldRule], pages: Sequence[PageView],
                   read: Callable[[str, PageView], str]) -> list[str]:
    """Fields of a layout learned on few pages whose XPath reads one same value on every
    sampled page of the level (three or more, whatever their layout): the shop's name in
    the header's ``navbar-brand`` taken for the brand on two sold-out pages of one brand.
    Learning on the whole level would have seen it repeat; its layout alone cannot."""
    if len(pages) < 3:
        return []
    out = []
    for name, rule in fields.items():
        if rule.kind not in _VARYING_KINDS or not rule.xpath:
            continue
        values = {read(rule.xpath, page) for page in pages}
        if len(values) == 1 and "" not in values:
            out.append(name)
    return out
