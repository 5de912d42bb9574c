"""What a page-wide XPath selects on the sample pages, beyond the one value it reads.

Input: an XPath (or a field rule) and the sample pages of a detail level. Output: whether
it selects several elements on most pages, and how often the one value it reads is a
guess among differing amounts (a product's price first, related products' after it).
:mod:`structurer.learn.confidence` lowers a rule's confidence by them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from structurer.learn import xpaths
from structurer.replay.records import value_spec
from structurer.rules.model import FieldRule
from structurer.values import Base, field_value

if TYPE_CHECKING:
    from structurer.page.view import PageView

__all__ = ["first_of_differing", "repeated"]

#: kinds of one amount per page: several differing ones make the first read a guess
_ONE_AMOUNT = frozenset({"money", "integer"})


def repeated(xpath: str | None, pages: Sequence[PageView]) -> bool:
    """Does a page-wide XPath select several elements on most sample pages? Its first
    one may be the product's on these pages and a related product's card elsewhere."""
    if not xpath or not pages:
        return False
    many = sum(len(xpaths.evaluate(xpath, page.tree)) > 1 for page in pages)
    return 2 * many > len(pages)


def first_of_differing(rule: FieldRule, pages: Sequence[PageView]) -> tuple[float, float]:
    """How often a page-wide amount rule can be trusted for the one value it reads: per
    sample page, 1 where its XPath gives one amount (or the same one repeated: a price in
    the buy box and a sticky bar), else 1/k of its k differing amounts (a product's price
    and related products' prices: which comes first is the page's order, nothing more);
    the mean over the pages (1.0: no page gives two amounts), and the share of pages
    giving several."""
    spec = value_spec(rule)
    if rule.kind not in _ONE_AMOUNT or spec.needs_all or not rule.xpath or not pages:
        return 1.0, 0.0
    shares = []
    for page in pages:
        base = Base(page.url)
        read = (field_value([node], spec, base) for node in xpaths.evaluate(rule.xpath, page.tree))
        amounts = {getattr(v, "amount", v) for v in read} - {None}
        shares.append(1 / max(len(amounts), 1))
    return sum(shares) / len(shares), sum(x < 1 for x in shares) / len(shares)
