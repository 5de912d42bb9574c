"""Star ratings given by markup, and the review count beside them.

Input: detail :class:`PageView` objects, the lexicon, the anchors and main regions
:mod:`structurer.learn.detail` found (or a list's records and its rating rule). Output:
a verified rating :class:`FieldRule` (a class word, ``rating-4``, a bar's width, an
``aria-label`` stating a rating out of 5 in any language, the scale first or last) and
the review count right after it, or None.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from lxml.html import HtmlElement

from structurer.learn import xpaths
from structurer.learn.choose import scale_first_post
from structurer.learn.scoped import reads_where_missing, scoped_candidates, selects_first
from structurer.lexicon import FieldSpec, Lexicon
from structurer.page.dom import text_of
from structurer.page.match import lexicon_match
from structurer.page.scope import main_region
from structurer.page.stars import count_beside, out_of_five, rating_element, stars_value
from structurer.page.view import PageView
from structurer.rules.model import FieldRule
from structurer.values import rating_source


def learn_rating(pages: Sequence[PageView], lexicon: Lexicon, name: str,
                 anchors: Sequence[HtmlElement | None], cards: Sequence[list[HtmlElement]],
                 scope: str | None) -> FieldRule | None:
    """A star rating given by markup alone (a class word, ``rating-4``, a bar's width, an
    aria-label): the first element of the main region the field's words point at whose
    markup holds a rating 0-5 (:func:`rating_source`), on half the pages or more, found
    by one XPath on each. Where no word points at one (utility classes only), an
    ``aria-label``/``title`` stating a rating out of 5 in any language (``Noté 4,7 sur
    5``, :func:`out_of_five`) is one, when the pages' ratings differ."""
    spec = lexicon.fields[name]
    regions = [main_region(page, anchor, page_cards)
               for page, anchor, page_cards in zip(pages, anchors, cards, strict=True)]

    def worded(el: HtmlElement) -> bool:
        return lexicon_match(el, spec, lexicon, lexicon.partial_ratio(name),
                             depth=0)[0] >= 0.3 and stars_value(rating_source(el))

    for test, evidence in ((worded, "a rating in the markup (class, width or attribute) "
                                    "where the field's words point"),
                           (out_of_five, "an aria-label or title stating a rating out of 5")):
        found = [next((el for el in region.iter() if isinstance(el.tag, str) and test(el)),
                      None) for region in regions]
        told = {rating_source(el) for el in found if el is not None}
        if test is worded or len(told) > 1:
            rule = _rating_rule(pages, found, scope, evidence)
            if rule is not None:
                return rule
    return None


def _rating_rule(pages: Sequence[PageView], found: Sequence[HtmlElement | None],
                 scope: str | None, evidence: str) -> FieldRule | None:
    """The rating rule selecting each page's ``found`` element, on half the pages or
    more; where every rating is written after its scale 5 (the first number is 5 on
    every page and the second differs), a post step reads the second number."""
    present = [el for el in found if el is not None]
    if not present or len(present) < 0.5 * len(pages):
        return None
    samples = [rating_source(el) or "" for el in present]
    post = scale_first_post(samples)
    # where no sample lacks a rating, what the path reads with each one taken out
    owns = list(zip((page.tree for page in pages), present, strict=True)) \
        if len(present) == len(pages) else []
    for xpath in scoped_candidates(present[0], scope):
        if all(selects_first(xpath, page, el) for page, el in zip(pages, found, strict=True)
               ) and not reads_where_missing(xpath, owns, _reads_stars):
            return FieldRule(xpath=xpath, kind="rating", confidence=0.8, samples=samples[:3],
                             post=post, evidence=[evidence])
    return None


def learn_review_count(pages: Sequence[PageView], rating: FieldRule,
                       scope: str | None) -> FieldRule | None:
    """The review count where no word names it: the count right after each page's rating
    element (:func:`count_beside`), on half the pages or more, varying across pages and
    found by one XPath that selects nothing where there is none: read from the rating
    (``RATING/following-sibling::*[1]``) where it can be, so that a page without a
    rating gives none (not what then stands at the count's place)."""
    if not rating.xpath:
        return None
    beside: list[tuple[HtmlElement, int] | None] = []
    for page in pages:
        got = [n if isinstance(n, HtmlElement) else getattr(n, "getparent", lambda: None)()
               for n in xpaths.evaluate(rating.xpath, page.tree)[:1]]
        beside.append(count_beside(got[0]) if got and got[0] is not None else None)
    found = [b[0] if b is not None else None for b in beside]
    present = [el for el in found if el is not None]
    if len(present) < max(2, 0.5 * len(pages)) or len({text_of(el) for el in present}) < 2:
        return None
    ups = {b[1] for b in beside if b is not None}
    relative = ([f"{rating.xpath}{'/..' * ups.pop()}/following-sibling::*[1]"]
                if len(ups) == 1 and "|" not in rating.xpath
                and not rating.xpath.startswith(("concat(", "string(")) else [])
    for xpath in relative + scoped_candidates(present[0], scope):
        if all(selects_first(xpath, page, el) for page, el in zip(pages, found, strict=True)):
            return FieldRule(xpath=xpath, kind="integer", confidence=0.75,
                             samples=[text_of(el) for el in present[:3]],
                             evidence=["a count right after the rating (its reviews)"])
    return None


def learn_list_rating(records: Sequence[Sequence[HtmlElement]], lexicon: Lexicon,
                      name: str) -> FieldRule | None:
    """A list's star rating given by markup alone, where the text ranking found none (a
    class word, ``rating-4``, a bar's width, an aria-label): each card's rating element
    (:func:`rating_element`), on two cards or more and a quarter of them, the ratings
    differing, found by one XPath relative to the card that selects nothing on a card
    nobody rated."""
    found = [rating_element(record[0], lexicon, name) if record else None
             for record in records]
    present = [(record[0], el) for record, el in zip(records, found, strict=True)
               if el is not None]
    samples = [rating_source(el) or "" for _, el in present]
    if len(present) < max(2, 0.25 * len(records)) or len(set(samples)) < 2:
        return None
    for xpath in xpaths.relative_candidates(present[0][1], present[0][0]):
        if all(_first(xpath, record) is want for record, want in zip(records, found, strict=True)):
            return FieldRule(xpath=xpath, kind="rating", confidence=0.8, samples=samples[:3],
                             evidence=["a rating in each card's markup (class, width or "
                                       "attribute) where the field's words point"])
    return None


def _first(xpath: str, record: Sequence[HtmlElement]) -> HtmlElement | None:
    """The first element ``xpath`` selects relative to a record's first element."""
    got = [n for n in xpaths.evaluate(xpath, record[0]) if isinstance(n, HtmlElement)] \
        if record else []
    return got[0] if got else None


def count_field(fields: Mapping[str, FieldSpec], rating: str) -> str | None:
    """The field counting the reviews a rating averages (structured data's
    ``aggregateRating.reviewCount``), or None."""
    return next((k for k, f in fields.items() if k != rating and f.kind == "integer"
                 and "aggregateRating.reviewCount" in f.structured), None)


def learn_list_review_count(records: Sequence[Sequence[HtmlElement]], rating: FieldRule
                            ) -> FieldRule | None:
    """A list's review count where no word names it (a bare "(12)" after the stars):
    the count right after each card's rating element (:func:`count_beside`), on half the
    rated cards or more (at least two), varying, read from the rating
    (``RATING/following-sibling::*[1]``), so that a card nobody rated gives none."""
    path = re.sub(r"/@[\w:-]+$|/text\(\)(?:\[[^\]]*\])*$", "", rating.xpath or "")
    if not path or "|" in path or path.startswith(("concat(", "string(")):
        return None
    found: list[HtmlElement | None] = []
    ups: set[int] = set()
    rated = 0
    for record in records:
        own = _first(path, record)
        rated += own is not None
        beside = count_beside(own) if own is not None else None
        found.append(beside[0] if beside else None)
        ups.update([beside[1]] if beside else [])
    present = [el for el in found if el is not None]
    if len(ups) != 1 or len(present) < max(2, 0.5 * rated) or \
            len({text_of(el) for el in present}) < 2:
        return None
    xpath = f"{path}{'/..' * ups.pop()}/following-sibling::*[1]"
    if any(_first(xpath, record) is not want
           for record, want in zip(records, found, strict=True)):
        return None
    return FieldRule(xpath=xpath, kind="integer", confidence=0.75,
                     samples=[text_of(el) for el in present[:3]],
                     evidence=["a count right after each card's rating (its reviews)"])


def _reads_stars(xpath: str, tree: HtmlElement) -> bool:
    """Whether ``xpath`` selects an element whose markup holds a rating 0-5."""
    return any(isinstance(n, HtmlElement) and stars_value(rating_source(n))
               for n in xpaths.evaluate(xpath, tree))
