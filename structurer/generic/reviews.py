"""A product's star rating and review count read from the markup of its own block, for
:mod:`structurer.generic.products` where structured data gives neither (the page-level
reading is :mod:`structurer.page.stars`, which analysis shares).
"""

from __future__ import annotations

from typing import Any

from lxml.html import HtmlElement

from structurer.page.dom import text_of
from structurer.page.stars import count_beside, rating_element, rating_text
from structurer.page.view import PageView
from structurer.values import rating_source


def star_fields(view: PageView, scope: HtmlElement, values: dict[str, Any]) -> dict[str, str]:
    """The rating field's value where the markup of the product's own block gives it (a
    class word, a bar's width, an attribute: :func:`~structurer.page.stars.rating_element`)
    and the count field's, right after it (:func:`~structurer.page.stars.count_beside`),
    where structured data gave neither."""
    lexicon = view.lexicon
    rating = next((n for n, f in lexicon.fields.items() if f.kind == "rating"), None)
    count = next((n for n, f in lexicon.fields.items() if f.kind == "integer" and any(
        p.startswith("aggregateRating.") for p in f.structured)), None)
    if rating is None or rating in values or scope is view.body:
        return {}
    words = view.words
    el = rating_element(scope, lexicon, rating)
    raw = rating_source(el, words) if el is not None else None
    if el is None or raw is None:
        el, raw = rating_text(scope, words) or (None, None)
    if el is None or raw is None:
        return {}
    beside = count_beside(el) if count is not None and count not in values else None
    return {rating: raw, **({count: text_of(beside[0])} if beside and count else {})}
