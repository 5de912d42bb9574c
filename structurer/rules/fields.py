"""A field's rule in a site rule file, and the XPath types every level's rules use.

An XPath is checked when the file is read (see :mod:`structurer.rules.expressions`); an
item's XPaths are relative to the item, since they run once per item.
"""

from __future__ import annotations

from functools import partial
from typing import Annotated, Literal

from pydantic import AfterValidator, Field, model_validator

from structurer.rules.checks import check_post
from structurer.rules.expressions import check_xpath
from structurer.schema import Strict, ValueKind, error_at

PostStep = Annotated[str, AfterValidator(check_post)]

XPathExpr = Annotated[str, AfterValidator(check_xpath)]
"""An XPath evaluated once per page (see :mod:`structurer.rules.expressions`)."""
LinksXPath = Annotated[str, AfterValidator(partial(check_xpath, gives="links"))]
"""An XPath whose nodes or strings are links (never a number or a boolean)."""
ItemsXPath = Annotated[str, AfterValidator(partial(check_xpath, gives="elements"))]
"""An XPath selecting the elements of a list's items."""


def item_relative(value: str | None, subpath: list[str],
              gives: Literal["any", "links"] = "any") -> str | None:
    """Item-relative XPaths must not start with '/' (that would search the whole page) nor
    search the page elsewhere in the expression: they run once per item."""
    if value is None:
        return value
    if value.startswith("/"):
        raise error_at(subpath, f"{value!r} starts with '/', so it searches the whole page, "
                                f"not the item; write it relative, like '.{value}'")
    try:
        check_xpath(value, per_item=True, gives=gives)
    except ValueError as error:
        raise error_at(subpath, str(error)) from None
    return value


class Candidate(Strict):
    """A runner-up location for a field, kept so a person can switch to it."""

    xpath: XPathExpr
    confidence: float = Field(ge=0, le=1)
    samples: list[str] = Field([])


class FieldRule(Strict):
    """Where one field's value is and how to clean it."""

    xpath: XPathExpr | None = None
    # dotted path in the page's JSON-LD Product, e.g. offers.price
    jsonld: str | None = Field(None)
    # a constant, for what a site never shows but always means (currency: CAD)
    const: str | None = None
    kind: ValueKind
    multiple: bool = False
    post: list[PostStep] = Field([])
    # money, currency: the ISO 4217 code of amounts whose text names none or a shared
    # sign ("kr" on a Swedish shop: SEK; "￥" on a Japanese one: JPY)
    currency: str | None = Field(None, pattern=r"^[A-Z]{3}$")
    # normalized value -> phrases (availability: in_stock: [in stock, 有货])
    values: dict[str, list[str]] = Field({})
    confidence: float = Field(1.0, ge=0, le=1)
    samples: list[str] = Field([])
    runner_up: Candidate | None = None
    # the runner-up scored within a hair of this rule: a person should compare the two
    # (``samples`` and ``runner_up.samples``) and may switch to it
    ambiguous: bool = False
    evidence: list[str] = Field([])

    @model_validator(mode="after")
    def _has_source(self) -> FieldRule:
        if self.xpath is None and self.jsonld is None and self.const is None:
            raise ValueError("a field needs an 'xpath', a 'jsonld' path or a 'const' value")
        if self.ambiguous and self.runner_up is None:
            raise ValueError("an ambiguous field names its 'runner_up'")
        return self
