"""The stock state of a product page without rules, for :mod:`structurer.generic.products`:
the lexicon's stock phrases read in the product's own block (never a related product's
card), else a class token of it that is one (``<p class="availability outofstock">``).
"""

from __future__ import annotations

from lxml.html import HtmlElement

from structurer.kinds import Phrases, compile_phrases, parse_availability
from structurer.page.view import PageView

DEFINITE = frozenset({"in_stock", "out_of_stock"})
SKIP_SECTIONS = frozenset({"footer", "nav", "aside", "header", "script", "style"})


def stock_state(view: PageView, text: str) -> str | None:
    """``in_stock`` or ``out_of_stock`` as the lexicon's stock phrases read ``text``."""
    spec = view.lexicon.spec_of("availability")
    state = parse_availability(text, compile_phrases(spec.values)) if spec is not None \
        else parse_availability(text)
    return state if state in DEFINITE else None


def availability_text(view: PageView, scope: HtmlElement) -> str | None:
    """The stock phrase of the product's own block (never a related product's), else a
    class token of it that is one (``<p class="availability outofstock">``)."""
    spec = view.lexicon.spec_of("availability")
    phrases = compile_phrases(spec.values) if spec is not None else ()
    return _phrase_first(view, scope, phrases) or _class_state(view, scope, phrases)


def _class_state(view: PageView, scope: HtmlElement, phrases: Phrases) -> str | None:
    """A class token of the product's own block (not of a card) that is a stock phrase."""
    states = {phrase: value for phrase, value in phrases if value in DEFINITE}
    cards = view.listed
    for el in scope.iter():
        if not isinstance(el.tag, str) or el in cards or el.tag in SKIP_SECTIONS:
            continue
        for token in (el.get("class") or "").lower().split():
            state = states.get(" ".join(token.replace("_", " ").replace("-", " ").split()))
            if state is not None and not any(a.tag in SKIP_SECTIONS for a in el.iterancestors()):
                return state
    return None


def _phrase_first(view: PageView, scope: HtmlElement, phrases: Phrases) -> str | None:
    """The first stock phrase in the text of the product's own block."""
    for el in scope.iter():
        if not isinstance(el.tag, str) or el.tag in SKIP_SECTIONS:
            continue
        own = (el.text or "").strip()
        if not any(ch.isalpha() for ch in own):
            continue    # a bare count ("0" items in the cart) is no stock phrase
        if len(own) <= 60 and not any(a.tag in SKIP_SECTIONS for a in el.iterancestors()):
            value = parse_availability(own, phrases) if phrases else parse_availability(
                own, view.words.stock)
            if value in ("in_stock", "out_of_stock"):
                return value
    return None
