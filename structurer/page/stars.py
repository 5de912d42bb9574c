"""A product's star rating where markup gives it, and the count of reviews beside it:
read alike by analysis (:mod:`structurer.learn.stars`, which learns an XPath to them)
and rule-free extraction (:mod:`structurer.generic.products`).

Input: lxml elements of a product's own block, the lexicon. Output: the rating's element
(the first one the rating field's words point at whose markup holds a rating 0-5 —
a class word, ``rating-4``, a bar's width, an attribute —, else one whose
``aria-label``/``title`` states a rating out of 5), the count element right after it.
"""

from __future__ import annotations

import re

from lxml.html import HtmlElement

from structurer.lexicon import Lexicon
from structurer.namewords import class_words
from structurer.page.dom import MONEY_RE, NUMBER_RE, text_of
from structurer.page.match import lexicon_match
from structurer.values import parse_rating, rating_source
from structurer.words import Words


def stars_value(raw: str | None) -> bool:
    """Whether ``raw`` (what :func:`rating_source` read) is a rating 0-5."""
    value = parse_rating(raw) if raw else None
    return value is not None and 0 <= value <= 5


def out_of_five(el: HtmlElement) -> bool:
    """Whether ``el``'s ``aria-label`` or ``title`` states a rating out of 5: two numbers,
    one the scale 5, the other at most 5 (``Rated 4.5 out of 5``, ``5点中4点``)."""
    for attr in ("aria-label", "title"):
        numbers = [float(n.replace(",", ".")) for n in NUMBER_RE.findall(el.get(attr) or "")]
        if len(numbers) == 2 and 5.0 in numbers and all(0 <= n <= 5 for n in numbers):
            return True
    return False


def rating_element(region: HtmlElement, lexicon: Lexicon, name: str) -> HtmlElement | None:
    """The first element of ``region`` the field ``name``'s words point at whose markup
    holds a rating 0-5, else the first stating a rating out of 5 in an attribute."""
    spec = lexicon.fields[name]
    ratio = lexicon.partial_ratio(name)
    elements = [el for el in region.iter() if isinstance(el.tag, str)]
    worded = next((el for el in elements if lexicon_match(el, spec, lexicon, ratio, depth=0)[0]
                   >= 0.3 and stars_value(rating_source(el))), None)
    return worded if worded is not None else next(
        (el for el in elements if out_of_five(el)), None)


def rating_text(region: HtmlElement, words: Words) -> tuple[HtmlElement, str] | None:
    """(the first element of ``region`` whose whole text states a rating out of 5 — the
    vocabulary's ``rating_labels``, ``rating_scales``: ``3,5 / 5``, ``Rating: 4/5`` —, the
    value as written); never one inside a repeated block of ``region`` (a review of a
    list, another product's card), nor a bare whole number over 5 (``3 / 5``: a picture
    counter) without a label, a unit (``5 out of 5 stars``: ``rating_units``) or a rating
    class about it."""
    for el in region.iter():
        if not isinstance(el.tag, str) or el.tag in ("script", "style"):
            continue
        text = text_of(el)
        found = words.rating_text.match(text) if text and len(text) <= 40 else None
        if found is None or any(len(text_of(c)) == len(text) for c in el.iterchildren()):
            continue                    # the innermost element holding the text
        bare = not found[1] and not any(ch in found[2] for ch in ".,") and \
            (found[3] or "").lower() not in words.rating_units
        if bare and not any(class_words(words, "rating_classes").names(n.get("class") or "")
                            for n in (el, el.getparent()) if n is not None):
            continue
        if not _repeated(el, region):
            return el, found[2]
    return None


def _repeated(el: HtmlElement, region: HtmlElement) -> bool:
    """Whether an ancestor of ``el`` below ``region`` has a sibling of its tag and class
    (one of a list's items)."""
    for node in el.iterancestors():
        if node is region:
            return False
        shape = (node.tag, node.get("class"))
        if any((s.tag, s.get("class")) == shape for s in node.itersiblings())  \
                or any((s.tag, s.get("class")) == shape
                       for s in node.itersiblings(preceding=True)):
            return True
    return False


#: a count of reviews as shops write it: "(264)", "469 отзывов", "12 reviews", "1,200"
_COUNT_RE = re.compile(r"^\(?\s*(?:\d{1,3}(?:[,.\s]\d{3})+|\d+)\s*\)?(?:\s*[^\d\s][^\d]{0,24})?$")


def count_beside(rating: HtmlElement) -> tuple[HtmlElement, int] | None:
    """The element right after the rating (or after its parent or grandparent) holding
    only a count: where shops put the number of reviews the rating averages; with the
    levels gone up from the rating to reach it."""
    node: HtmlElement | None = rating
    for up in range(3):
        if node is None:
            return None
        nxt = node.getnext()
        while nxt is not None and not isinstance(nxt.tag, str):
            nxt = nxt.getnext()
        if nxt is not None:
            text = text_of(nxt)
            if text and _COUNT_RE.match(text) and not MONEY_RE.search(text):
                return nxt, up
            return None
        node = node.getparent()
    return None
