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

from urllib.parse import urlsplit

from lxml.html import HtmlElement

from structurer.kinds import Phrases, parse_availability
from structurer.lexicon import Lexicon
from structurer.page.dom import MONEY_RE, text_of, tokens
from structurer.page.lists import left_out
from structurer.page.match import buy_words, label_value
from structurer.page.view import PageView

__all__ = ["buy_control", "card_holders", "field_link", "inside", "main_region", "other_products",
           "prose_run", "sibling_cards"]


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
            out.extend(left_out(region))
    seen = set(out)
    out.extend(card for card in sibling_cards(page.body) if card not in seen)
    return out


_CARD_TEXT = 300    # most characters of a card's text (a name, a price, a rating)
_CARD_LINKS = 3     # most pages a card links to (its product; a cart or wish-list link)


def _card_link(el: HtmlElement) -> str | None:
    """The first link of a block to another page (no ``#fragment``, no script), where it
    links to few pages (a column of a layout table or a box of links is no card). A link
    to a part of a page (``/p/1#reviews`` beside ``/p/1``) is that page: a card whose
    stars link its product's reviews links no more pages than one without."""
    pages = [page for a in el.iter("a") if (page := _page_of(a.get("href")))]
    if not pages or len(set(pages)) > _CARD_LINKS or next(el.iter("h1"), None) is not None:
        return None
    return pages[0]


def _page_of(href: str | None) -> str | None:
    """The page a link leads to, its ``#fragment`` left out (None: none, or a script)."""
    page = (href or "").strip().split("#", 1)[0]
    return page if page and not page.startswith("javascript:") else None


def sibling_cards(root: HtmlElement) -> list[HtmlElement]:
    """Product cards told by what each shows, not by their likeness (a small carousel's
    cards differ: one without a rating, one with an old price, a sold-out one with no
    price): two or more children of one parent, of one tag and sharing a class word where
    they carry classes, each linking to a page of its own with a name (some text) and a
    picture or a price, half of them or more showing a price."""
    out: list[HtmlElement] = []
    for parent in root.iter():
        if len(parent) < 2:
            continue
        groups: dict[str, list[HtmlElement]] = {}
        for child in parent:
            if isinstance(child.tag, str):
                groups.setdefault(child.tag, []).append(child)
        for children in groups.values():
            if len(children) >= 2:
                out.extend(_cards_of(children))
    return out


def _cards_of(children: list[HtmlElement]) -> list[HtmlElement]:
    """Those of one parent's same-tag ``children`` that make a row of product cards."""
    cards, links, priced = [], set(), 0
    for child in children:
        link = _card_link(child)
        text = text_of(child) if link else ""
        money = bool(MONEY_RE.search(text))
        if link and 8 <= len(text) <= _CARD_TEXT and link not in links and (
                money or next(child.iter("img"), None) is not None):
            cards.append(child)
            links.add(link)
            priced += money
    if len(cards) < 2 or 2 * priced < len(cards) or 2 * len(cards) < len(children):
        return []
    classes = [set((c.get("class") or "").split()) for c in cards]
    if any(classes) and not set.intersection(*classes):
        return []
    return cards


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


def buy_control(region: HtmlElement, lexicon: Lexicon) -> HtmlElement | None:
    """The region's own add-to-cart control, enabled or not: a button (or submit input)
    whose text, name or class, or whose form's action, carries the lexicon's
    ``add_to_cart`` words; the first one in document order."""
    for el in region.iter("button", "input"):
        if el.tag == "input" and (el.get("type") or "").lower() not in _CONTROLS:
            continue
        if buy_words(el, lexicon):
            return el
    return None


_PROSE = ("p", "ul", "ol")
_NOTICE_WORDS = 8   # a stock notice is short; a description's sentence may name the stock
_NOT_PROSE = frozenset({"form", "a", "li", "table", "label", "button", "h1", "h2", "h3"})


def prose_run(region: HtmlElement, anchor: HtmlElement, min_text: int,
               stock: Phrases | None = None) -> list[HtmlElement]:
    """The paragraph (and the lists and paragraphs right after it) under the product's
    title block: the first ``<p>`` after the heading, in a block holding the heading,
    reading as a sentence (not a label pair, no amount of money, no short stock notice
    such as "This product is currently unavailable." that ``stock`` phrases read), the
    run's text at least ``min_text`` characters."""
    holders = list(anchor.iterancestors())[:3]
    after = False
    for el in region.iter():
        if el is anchor:
            after = True
        if not after or el.tag != "p" or el.getparent() not in holders:
            continue
        text = text_of(el)
        if len(text.split()) < 4 or MONEY_RE.search(text) or label_value(el) is not None \
                or any(n.tag in _NOT_PROSE for n in el.iter()) or (
                    stock is not None and len(text.split()) <= _NOTICE_WORDS
                    and parse_availability(text, stock) not in (None, "unknown")):
            continue
        run = [el]
        nxt = el.getnext()
        while nxt is not None and nxt.tag in _PROSE and text_of(nxt):
            run.append(nxt)
            nxt = nxt.getnext()
        if sum(len(text_of(n)) for n in run) >= min_text:
            return run   # a short line ("In stock (28)") is not the description: go on
    return []


def _names_field(href: str | None, words: dict[str, float], least: float) -> bool:
    """Whether a link's path names the field: ``/brands/penrose`` for the brand (by one of
    its ``words`` weighing ``least`` or more)."""
    if not href:
        return False
    path = [t for part in urlsplit(href).path.lower().split("/")[:-1] for t in tokens(part)]
    return any(t == w or (len(w) >= 4 and w in t) for t in path
               for w, weight in words.items() if weight >= least)


def _link_value(link: HtmlElement) -> tuple[HtmlElement, str] | None:
    """The node holding a link's short value: its text, else its image's alt."""
    text = text_of(link)
    if text:
        return (link, text) if len(text) <= 60 else None
    img = next(link.iter("img"), None)
    alt = " ".join((img.get("alt") or img.get("title") or "").split()) if img is not None else ""
    return (img, alt) if img is not None and alt and len(alt) <= 60 else None


def field_link(region: HtmlElement, words: dict[str, float], least: float
               ) -> tuple[HtmlElement, str] | None:
    """(the node, the value) of a field shown only as a link to its own page (the brand
    as ``<a href="/brands/x">``, its text or logo): the region's first link whose path
    the field's ``words`` of weight ``least`` or more (the lexicon's
    ``thresholds.path_word``) name (:func:`_names_field`), its text or its image's alt."""
    link = next((a for a in region.iter("a") if _names_field(a.get("href"), words, least)),
                None)
    return _link_value(link) if link is not None else None
