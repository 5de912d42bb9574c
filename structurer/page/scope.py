"""A detail page's own product, apart from the other products it shows.

Input: a :class:`PageView` of a product page and the element naming its product (the
heading). Output: the cards of other products (:func:`other_products`: related,
recently viewed, upsell, bundles, carousels — repeated blocks that each link elsewhere
and show their own name and a picture or a price) and the main region
(:func:`main_region`: the largest block around the heading that holds none of them).
Detection is structural (repeated blocks with their own names, links and prices), not by
class words. Detail learning scopes its XPaths to the main region and rule-free
extraction reads fields inside it, so an empty price stays empty instead of taking a
related product's. Pure.
"""

from __future__ import annotations

from lxml.html import HtmlElement

from structurer.page.match import buy_words
from structurer.page.view import PageView

__all__ = ["buy_control", "card_holders", "inside", "main_region", "other_products"]


def other_products(page: PageView) -> list[HtmlElement]:
    """The record elements of repeated product cards: two or more similar blocks, most
    of them linking to a page of their own, with a name (some text) and a picture or a
    price each. A gallery of thumbnails (no text) and menus (no picture, no price) are
    not cards."""
    out: list[HtmlElement] = []
    for region in page.regions:
        f = region.features
        if (len(region) >= 2 and f.get("link_frac", 0) >= 0.6
                and f.get("distinct_links", 0) >= 0.6 and f.get("avg_text", 0) >= 8
                and max(f.get("money_frac", 0), f.get("img_frac", 0)) >= 0.5):
            out.extend(m for rec in region.records for m in rec)
    return out


def card_holders(cards: list[HtmlElement]) -> set[HtmlElement]:
    """The cards and every element holding one (kept as elements, so lxml keeps them)."""
    holders: set[HtmlElement] = set()
    for card in cards:
        holders.add(card)
        for up in card.iterancestors():
            if up in holders:
                break
            holders.add(up)
    return holders


def main_region(page: PageView, anchor: HtmlElement | None,
                cards: list[HtmlElement] | None = None) -> HtmlElement:
    """The largest block holding ``anchor`` (the product's heading) and no card of
    another product: the main product's own facts are in it. The body without an anchor;
    a card-free page gives the body's child holding the anchor."""
    if anchor is None:
        return page.body
    holders = card_holders(other_products(page) if cards is None else cards)
    if anchor in holders:
        return page.body
    node = anchor
    while True:
        parent = node.getparent()
        if parent is None or parent.tag in ("body", "html") or parent in holders:
            return node
        node = parent


def inside(el: HtmlElement, blocks: set[HtmlElement]) -> bool:
    """Whether ``el`` or one of its ancestors is in ``blocks``."""
    return el in blocks or any(a in blocks for a in el.iterancestors())


_CONTROLS = frozenset({"submit", "image", "button"})


def buy_control(region: HtmlElement, vocab: dict[str, float]) -> HtmlElement | None:
    """The region's own add-to-cart control, enabled or not: a button (or submit input)
    whose text, name or class, or whose form's action, carries the lexicon's
    ``add_to_cart`` words; the first one in document order."""
    for el in region.iter("button", "input"):
        if el.tag == "input" and (el.get("type") or "").lower() not in _CONTROLS:
            continue
        if buy_words(el, vocab):
            return el
    return None
