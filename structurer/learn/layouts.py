"""Layouts: telling apart pages of one level that follow different templates.

Input: the sample pages of a level and the rules learned on them. Output: the pages
those rules do not fit (:func:`misfits`), then, for two groups of pages (those one rule
set fits, those it does not), an XPath condition true on every page of one group and
false on every page of the other, which a rule file's ``variants[].when`` uses to pick
the rule set.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from lxml.html import HtmlElement

from structurer.generic.stock import availability_text, stock_state
from structurer.learn import xpaths
from structurer.lexicon import Lexicon
from structurer.page.dom import text_of
from structurer.page.productkind import can_buy
from structurer.page.scope import main_region
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


def site_constants(fields: Mapping[str, FieldRule], pages: Sequence[PageView]) -> list[str]:
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
        values = {rule_value(rule.xpath, page) for page in pages}
        if len(values) == 1 and "" not in values:
            out.append(name)
    return out


def rule_value(xpath: str, page: PageView) -> str:
    """What ``xpath`` finds on ``page``: text, else an image or link address."""
    for node in xpaths.evaluate(xpath, page.tree):
        if isinstance(node, HtmlElement):
            text = text_of(node) or node.get("src") or node.get("href") or \
                node.get("content") or ""
        else:
            text = " ".join(str(node).split())
        if text:
            return text
    return ""


#: field kinds a product that cannot be bought now may lack (no price to pay, so no
#: currency and no old price either): their absence on such a page is its state, not
#: another layout
_UNSOLD_KINDS = frozenset({"money", "currency"})


def misfits(pages: Sequence[PageView], fields: Mapping[str, FieldRule], lexicon: Lexicon,
            list_hints: Sequence[dict[str, str | None]] | None = None) -> list[int]:
    """Indexes of pages the learned rules do not fit: a required field or two of the
    usual fields missing, or a title that is not the name the list page gave — pages
    of another layout. A sold-out product's page (:func:`sold_out`) lacking only its
    price is the same layout in another state. Where no two pages fit (rules taken from
    two layouts at once), the pages the title rule does not read."""
    rules = {k: r.xpath for k, r in fields.items() if r.xpath}
    found = [{k: rule_value(x, page) for k, x in rules.items()} for page in pages]
    # fields nearly every page shows, and the required ones wherever the rules have them
    usual = [k for k in rules if sum(bool(f[k]) for f in found) >= 0.8 * len(pages)]
    required = [k for k in rules if lexicon.fields[k].required]
    title = next((k for k in rules if lexicon.fields[k].title), None)
    bad: list[int] = []
    untitled: list[int] = []
    for i, values in enumerate(found):
        excused = {k for k in rules if fields[k].kind in _UNSOLD_KINDS} if sold_out(
            pages[i], fields, values) else set()
        missing = [k for k in usual if not values[k] and k not in excused]
        hint = (list_hints[i] if list_hints else {}).get("name")
        wrong_title = bool(hint and title and values.get(title) and
                           " ".join(hint.split()).lower() not in values[title].lower())
        if title and (wrong_title or not values.get(title)):
            untitled.append(i)
        if len(missing) >= 2 or any(not values[k] for k in required if k not in excused) \
                or wrong_title:
            bad.append(i)
    if len(pages) - len(bad) < 2 and untitled and len(pages) - len(untitled) >= 2:
        # rules learned on two layouts at once (the name from one, the image from the
        # other) fit no page: the pages the title rule reads are the main layout
        return untitled
    return bad


def sold_out(page: PageView, fields: Mapping[str, FieldRule], values: Mapping[str, str]
             ) -> bool:
    """Whether the page's product cannot be bought now: its learned availability rule
    reads a state of out of stock, or, where that reads none, the page offers no enabled
    buy control (:func:`~structurer.page.productkind.can_buy`) and the first stock phrase
    of its own block says so (:func:`_own_block`: never a related product's "In stock")."""
    rule = next((k for k, r in fields.items() if r.kind == "availability"), None)
    state = stock_state(page, values[rule]) if rule and values.get(rule) else None
    if state is not None:
        return state == "out_of_stock"
    return not can_buy(page) and \
        availability_text(page, _own_block(page, fields)) == "out_of_stock"


def _own_block(page: PageView, fields: Mapping[str, FieldRule]) -> HtmlElement:
    """The main product's block (:func:`~structurer.page.scope.main_region`) around its
    heading: what the title rule reads on the page, else the page's one ``h1``."""
    title = next((r.xpath for k, r in fields.items() if r.xpath and (
        spec := page.lexicon.fields.get(k)) is not None and spec.title), None)
    anchor = next((n if isinstance(n, HtmlElement) else n.getparent()
                   for n in (xpaths.evaluate(title, page.tree) if title else [])
                   if isinstance(n, HtmlElement) or hasattr(n, "getparent")), None)
    if anchor is None:
        h1s = [h for h in page.body.iter("h1") if text_of(h)]
        anchor = h1s[0] if len(h1s) == 1 else None
    region = main_region(page, anchor)
    return region if region is not anchor else page.body
