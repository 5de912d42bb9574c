"""What kind a shop's page is: list, detail or other, for a lexicon with money fields.

Input: a :class:`~structurer.page.view.PageView`. Output: its kind
(:func:`classify_products`, which :func:`structurer.page.view.classify` calls for a shop's
lexicon) and the product evidence it weighs, also used by rule-free extraction: the
page's own buy control (:func:`can_buy`) and, beside the elements of its product lists
(``PageView.listed``), the priced cards of a list too short to repeat (:func:`find_loose_cards`).
Repeated priced blocks make a list; a price or a stock statement beside the single
title, structured data or a cart button a detail page; a carousel of related products
does not outweigh them.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from lxml.html import HtmlElement

from structurer.kinds import compile_phrases, gapped_phrases, parse_availability
from structurer.namewords import NameWords, signal_words
from structurer.page import titles
from structurer.page.dom import (
    HEADING_TAGS,
    SECTION_NOISE_TAGS,
    heading_before,
    link_href,
    split_money,
    text_length,
    text_of,
)
from structurer.page.lists import context_words
from structurer.page.match import buy_words, form_action
from structurer.page.titles import titled

if TYPE_CHECKING:
    from structurer.page.view import PageKind, PageView



def _signal_hits(page: PageView, name: str) -> float:
    vocab = page.lexicon.signals.get(name, {})
    if not vocab:
        return 0.0
    texts = [text_of(el).lower() for el in page.body.iter("button", "a", "input")
             if isinstance(el.tag, str)][:400]
    texts += [(el.get("value") or "").lower() for el in page.body.iter("input")]
    best = 0.0
    for text in texts:
        if not text or len(text) > 40:
            continue
        for phrase, weight in vocab.items():
            if phrase in text:
                best = max(best, weight)
    return best / 10.0


def titled_links(block: HtmlElement, min_text: int) -> set[str]:
    """Where ``block`` links to by an item's title of ``min_text`` characters at least:
    links in a heading, or named links beside a picture linking to the same place (a
    product card)."""
    links = [a for a in block.iter("a") if link_href(a)]
    pictured = {a.get("href") for a in links if a.find(".//img") is not None}
    return {str(a.get("href")) for a in links if text_length(text_of(a)) >= min_text
            and (a.get("href") in pictured or _in_heading(a, block))}


def _title_text(page: PageView) -> int:
    """The shortest title of a card: twice the shortest link text clustered."""
    return 2 * page.lexicon.thresholds.link_min_text


def _in_heading(el: HtmlElement, block: HtmlElement) -> bool:
    node: HtmlElement | None = el
    while node is not None:
        if node.tag in HEADING_TAGS:
            return True
        if node is block:
            return False
        node = node.getparent()
    return False


def _in_card(el: HtmlElement, stop: HtmlElement, min_text: int) -> bool:
    """``el`` sits in a product card or a header/nav/footer/aside below ``stop`` (a
    promise of free delivery from some amount is not the product's price)."""
    node: HtmlElement | None = el
    while node is not None and node is not stop:
        if node.tag in SECTION_NOISE_TAGS or titled_links(node, min_text):
            return True
        node = node.getparent()
    return False


def find_loose_cards(page: PageView) -> list[HtmlElement]:
    """Priced blocks with a titled link outside every product region and page section:
    the products of a list too short to repeat (the last page of a category). Read once
    per page as ``PageView.loose_cards``."""
    inside = page.listed
    noise, strong = page.lexicon.signals.get("noise", {}), page.lexicon.thresholds.noise_card
    money = page.words.money
    cards: dict[HtmlElement, None] = {}
    for el in page.body.iter():
        if (isinstance(el.tag, str) and el not in inside and _shows_money(el, money)
                and not any(a.tag in SECTION_NOISE_TAGS for a in el.iterancestors())):
            node = el
            for _ in range(4):
                node = node.getparent()
                if node is None or node.tag == "body":
                    break
                titled = titled_links(node, _title_text(page))
                if titled:
                    # one product per card; a block of several is a container
                    if len(titled) == 1 and not _noise_context(node, noise, strong):
                        cards[node] = None
                    break
    return list(cards)


def _noise_context(el: HtmlElement, vocab: dict[str, float], strong: float) -> bool:
    """Inside a "recommended"/"bestsellers" block: by its class/id or the heading above
    (a word of weight ``strong`` or more)."""
    words = context_words(el)
    heading = heading_before(el).lower()
    return any(vocab.get(w, 0) >= strong for w in words) or any(
        w >= strong and p in heading for p, w in vocab.items())


def can_buy(view: PageView) -> bool:
    """An enabled add-to-cart control: the shop sells the product now (its text, or its
    id, name or class as class words, holds a strong word of the lexicon's
    ``add_to_cart`` signal, ``add … cart`` spanning a gap)."""
    vocab = view.lexicon.signals.get("add_to_cart", {})
    words = view.words
    strong = view.lexicon.thresholds.strong_signal
    buy_text = gapped_phrases(tuple(sorted(p for p, w in vocab.items() if w >= strong)))
    buy_names = signal_words(view.lexicon, "add_to_cart", strong)
    cart_names = signal_words(view.lexicon, "add_to_cart")   # any weight: a form's action
    # other products' buttons (related, bestsellers, a short list's cards) say nothing
    inside = view.listed | {el for card in view.loose_cards for el in card.iter()}
    for el in view.body.iter("button", "input", "a"):
        if el.get("disabled") is not None or el.get("type") == "hidden" or el in inside:
            continue
        text = (text_of(el) if el.tag != "input" else el.get("value") or el.get("alt") or "")
        low = text.lower()
        if words.several_items.search(low):
            continue    # "Add selected to basket": a list's button, not a product's
        if (low and len(low) <= 40 and buy_text.search(low)) or any(
                buy_names.names(el.get(a) or "") for a in ("id", "name", "class")):
            return True
        if _posts_to_cart(el, cart_names):
            return True
    return False


def _posts_to_cart(el: HtmlElement, cart_names: NameWords) -> bool:
    """A submit control of a form whose action carries the ``add_to_cart`` words
    (``/cart/add``, not ``/sidecart/update``): a buy button whatever language its text
    is in."""
    if el.tag == "a" or (el.tag == "input" and (el.get("type") or "").lower()
                         not in ("submit", "image")):
        return False
    if el.tag == "button" and (el.get("type") or "submit").lower() != "submit":
        return False
    form = next(el.iterancestors("form"), None)
    action = form_action(form)
    return bool(action) and cart_names.names(action)


def _money_near_title(page: PageView) -> bool:
    """A price close to the page's single h1, outside every product list and page
    section: a product page."""
    money = page.words.money
    return _near_title(page, lambda el: _shows_money(el, money))


def _stock_near_title(page: PageView) -> bool:
    """A stock statement close to the page's single h1 ("Out of stock", "已售罄", "Pre-order
    now"), or a disabled buy button there: a product page that has no price to show."""
    spec = page.lexicon.spec_of("availability")
    if spec is None:
        return False
    phrases = compile_phrases(spec.values)

    def says_stock(el: HtmlElement) -> bool:
        if el.tag in ("button", "input") and el.get("disabled") is not None:
            return buy_words(el, page.lexicon)
        own = (el.text or "").strip()
        if el.tag in _CONTROLS or any(a.tag in _CONTROLS for a in el.iterancestors()):
            return False    # a filter ("In stock only") is a control, not a statement
        # a short statement or one sentence ("This product is not available right now.")
        return 2 < len(own) <= 60 and any(c.isalpha() for c in own) and \
            parse_availability(own, phrases) not in (None, "unknown")   # pre-order too

    return _near_title(page, says_stock)


_CONTROLS = frozenset({"button", "a", "label", "option", "select", "input"})


def _near_title(page: PageView, shows: Callable[[HtmlElement], bool]) -> bool:
    """An element that ``shows`` something close to the page's single h1 (up to five
    levels up), outside every product list, card and page section."""
    anchor = _title_heading(page)
    if anchor is None:
        return False
    inside = page.listed
    node = anchor
    for _ in range(5):
        node = node.getparent()
        if node is None or node.tag == "body":
            return False
        for el in node.iter():
            if (isinstance(el.tag, str) and el not in inside and shows(el)
                    and not _in_card(el, node, _title_text(page))):
                return True
    return False


def _shows_money(el: HtmlElement, money: re.Pattern[str]) -> bool:
    """A money text (by the lexicon's ``money`` pattern) in the element's own text, or
    split over its inline children."""
    return bool(el.text and money.search(el.text)) or split_money(el) is not None


def _list_hits(page: PageView) -> float:
    """Result counts and sort controls ("Showing 13-13 of 13 results", "Sort by",
    ``<select name="orderby">``)."""
    vocab = page.lexicon.signals.get("list_page", {})
    best = 0.0
    for el in page.body.iter("p", "span", "div", "label", "option", "select", "button"):
        own = (el.text or "").strip().lower()
        if el.tag == "select":      # a sort control by its name, whatever its language
            own = " ".join(el.get(a) or "" for a in ("name", "id", "aria-label")).lower()
        if own and len(own) <= 40 and not any(a.tag in SECTION_NOISE_TAGS
                                              for a in el.iterancestors()):
            best = max([best, *(w for p, w in vocab.items() if p in own)])
    return best / 10.0


def classify_products(page: PageView) -> PageKind:
    """list, detail or other for a shop's page (see the module doc)."""
    product = page.product
    regions = page.product_regions
    main = regions[0] if regions else None
    main_items = len(main) if main else 0
    h1 = page.body.xpath("//h1")
    money = page.words.money
    money_nodes = sum(1 for el in page.body.iter() if isinstance(el.tag, str)
                      and _shows_money(el, money))
    # a buy button outside every product card is this page's own: a strong sign
    buy = can_buy(page)
    cart = 2.0 if buy else _signal_hits(page, "add_to_cart")
    described, named = page.described
    detail_score = (2.0 if product else 0.0) + (1.0 if len(h1) == 1 else 0.0) + cart
    strong = described or buy
    evidenced = False   # priced beside its title and shown to be one product's page
    if _money_near_title(page):
        # priced beside its title and sold right there, or beside the heading its <title>
        # names (a category's heading has no price of its own beside it, outside the
        # cards): related lists do not outweigh it, unless the page counts or sorts results
        if (buy or _titled_heading(page)) and _list_hits(page) < 0.6:
            return "detail"
        detail_score += 4.0 if buy else 1.5
        strong = True
        # no buy button: the slug, a quantity, specifications say one product (a page
        # counting or sorting results, or with cards of its own, lists them)
        cues = 0.0 if buy or page.loose_cards or _list_hits(page) >= 0.6 else \
            _main_product_cues(page)
        detail_score, evidenced = detail_score + cues, cues > 0
    if described and product is None:
        detail_score += 1.5
    stocked = _list_hits(page) < 0.6 and _stock_near_title(page)
    if stocked:
        # the product's stock stated beside its title: with no price shown (sold out) the
        # page's main evidence, beside a price more of it against a related-products list
        detail_score += 1.0 if strong else 2.5
        strong = True
    heading = _title_heading(page) if named else None
    if heading is not None and titles.similarity(text_of(heading), named) >= 0.8:
        return "detail"     # the heading names the one product the data describes
    if described and _titled_heading(page) and not _offers_of_many(page) \
            and _list_hits(page) < 0.6:
        return "detail"     # data for one product under the heading the <title> names
    list_score = 0.0
    noisy = False
    if main is not None:
        list_score = 1.0 + math.log(main_items) + 6.0 * main.features["node_share"]
        noisy = main.features.get("noise", 0) >= 0.8
        if noisy:   # "You may also like": the more so beside the product's own stock or buy
            list_score -= 3.0 if stocked or buy or described or evidenced else 1.5
    if list_score >= 2.5 and list_score >= detail_score:
        return "list"
    if not strong and money_nodes >= 1 and (page.loose_cards or _list_hits(page) >= 0.6):
        return "list"     # the last page of a category, one or two products left
    if detail_score >= 2.0 and (money_nodes >= 1 or stocked):
        return "detail"
    if main is not None and list_score >= 2.0 and not noisy:
        return "list"
    return "other"


def _main_product_cues(page: PageView) -> float:
    """:func:`structurer.page.mainproduct.product_cues` of the page's title heading."""
    from structurer.page.mainproduct import product_cues

    heading = _title_heading(page)
    return product_cues(page, heading) if heading is not None else 0.0


def _offers_of_many(page: PageView) -> bool:
    """The JSON-LD Product sums up several products' offers (an AggregateOffer counting
    more than one: a category marked up as one product for search engines)."""
    offers = (page.product or {}).get("offers")
    count = offers.get("offerCount") if isinstance(offers, dict) else None
    try:
        return count is not None and int(str(count)) > 1
    except ValueError:
        return False


def _titled_heading(page: PageView) -> bool:
    """The page's single h1 is the name its <title> (or og:title) gives the page."""
    heading = _title_heading(page)
    return heading is not None and titled(page.titles, [heading], 8) is heading


def _title_heading(page: PageView) -> HtmlElement | None:
    """The page's one non-empty h1, or among several the one its <title> repeats; without
    an h1, the heading or short text block its <title> repeats."""
    h1s = [h for h in page.body.xpath("//h1") if text_of(h)]
    if len(h1s) == 1:
        return h1s[0]
    if h1s:
        return titled(page.titles, h1s, 8)
    # no h1: the first lower heading, else short text block, that the <title> repeats
    # (a shop naming its product in <div class="product-title">), outside page sections
    blocks = [el for el in page.body.iter("h2", "h3", "div", "span", "p")
              if len(el) == 0 and not any(a.tag in SECTION_NOISE_TAGS for a in el.iterancestors())]
    heading = titled(page.titles, [el for el in blocks if el.tag in ("h2", "h3")], 8)
    return heading if heading is not None else titled(page.titles, blocks, 8)
