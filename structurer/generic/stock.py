"""The stock state of a product page without rules, for :mod:`structurer.generic.products`:
the lexicon's stock phrases read in the product's own block (never a related product's
card), else a class token of it that is one (``<p class="availability outofstock">``).
"""

from __future__ import annotations

from lxml.html import HtmlElement

from structurer.kinds import Phrases, compile_phrases, parse_availability
from structurer.page.dom import hidden, text_of
from structurer.page.view import PageView

DEFINITE = frozenset({"in_stock", "out_of_stock"})
SKIP_SECTIONS = frozenset({"footer", "nav", "aside", "header", "script", "style"})


def stock_state(view: PageView, text: str) -> str | None:
    """``in_stock`` or ``out_of_stock`` as the lexicon's stock phrases read ``text``."""
    spec = view.lexicon.spec_of("availability")
    state = parse_availability(text, compile_phrases(spec.values)) if spec is not None \
        else parse_availability(text)
    return state if state in DEFINITE else None


def availability_text(view: PageView, scope: HtmlElement, control: HtmlElement | None = None,
                      anchor: HtmlElement | None = None) -> str | None:
    """The stock phrase of the product's own block (never a related product's), else a
    class token of it that is one (``<p class="availability outofstock">``). Beside the
    product's buy ``control`` a phrase counts only near it (:data:`BUY_BOX` levels above
    it, up to the block holding the product's title ``anchor``): "Image unavailable"
    under the gallery or "List unavailable." in a wish-list menu
    says nothing of the product the enabled button sells; the control's own state
    stands instead (None here: the caller reads it)."""
    spec = view.lexicon.spec_of("availability")
    phrases = compile_phrases(spec.values) if spec is not None else ()
    near = None if control is None else _buy_box(control, anchor)
    return _phrase_first(view, scope, phrases, near) or _class_state(view, scope, phrases, near)


BUY_BOX = 3   # levels above the buy control whose stock statements are the product's


def _buy_box(control: HtmlElement, anchor: HtmlElement | None) -> set[HtmlElement]:
    """The buy control and the blocks up to :data:`BUY_BOX` levels above it, up to the
    one holding the title (not the gallery beside that block)."""
    box = {control}
    for block in list(control.iterancestors())[:BUY_BOX]:
        box.add(block)
        if anchor is not None and (block is anchor or anchor in block.iterdescendants()):
            break
    return box


def _near_control(el: HtmlElement, box: set[HtmlElement] | None) -> bool:
    """``el`` lies in the buy box, or holds it (the product's wrapper, ``<div
    class="product instock">``); always, without a buy control."""
    if box is None or el in box or any(a in box for a in el.iterancestors()):
        return True
    top = next(b for b in box if b.getparent() not in box)   # the box is one chain up
    return any(a is el for a in top.iterancestors())


_VARIANT_TEXT = 12   # most characters of a variant's name in a menu ("XL", "Navy blue")


def _a_variant(el: HtmlElement) -> bool:
    """``el`` is one item of a menu of variants ("M - Sold out" among sizes "S", "L"): an
    option, or a list item whose siblings are short names."""
    item = next((n for n in (el, *el.iterancestors()) if n.tag in ("li", "option")), None)
    if item is None:
        return False
    others = [*item.itersiblings(preceding=True), *item.itersiblings()]
    return item.tag == "option" or (bool(others) and all(
        len(text_of(n)) <= _VARIANT_TEXT for n in others))


def _class_state(view: PageView, scope: HtmlElement, phrases: Phrases,
                 near: set[HtmlElement] | None = None) -> str | None:
    """A class token of the product's own block (not of a card) that is a stock phrase
    (near the buy control where there is one)."""
    states = {phrase: value for phrase, value in phrases if value in DEFINITE}
    cards = view.listed
    for el in scope.iter():
        if not isinstance(el.tag, str) or el in cards or el.tag in SKIP_SECTIONS \
                or not _near_control(el, near):
            continue
        for token in (el.get("class") or "").lower().split():
            state = states.get(" ".join(token.replace("_", " ").replace("-", " ").split()))
            if state is not None and not any(a.tag in SKIP_SECTIONS for a in el.iterancestors()):
                return state
    return None


def _phrase_first(view: PageView, scope: HtmlElement, phrases: Phrases,
                  near: set[HtmlElement] | None = None) -> str | None:
    """The first stock phrase in the text of the product's own block (near the buy
    control where there is one), not a variant's among others."""
    for el in scope.iter():
        if not isinstance(el.tag, str) or el.tag in SKIP_SECTIONS or not _near_control(el, near):
            continue
        own = (el.text or "").strip()
        if not any(ch.isalpha() for ch in own):
            continue    # a bare count ("0" items in the cart) is no stock phrase
        if len(own) <= 60 and not any(a.tag in SKIP_SECTIONS for a in el.iterancestors()):
            value = parse_availability(own, phrases) if phrases else parse_availability(
                own, view.words.stock)
            if value in ("in_stock", "out_of_stock") and not _a_variant(el) \
                    and not any(hidden(n) for n in (el, *el.iterancestors())):
                return value
    return None
