"""Site rules: what ``structurer analyze`` learned about one shop, as data.

Input: validated YAML (see ``rules/io.py``). Output: frozen models that the
runtime replays. One file per site holds three levels — category (where category
links are), list (the repeated items, their fields, the way to the next page) and
detail (the product page's fields) — each with its render mode and the evidence
for it. Every field keeps its confidence, sample values and the runner-up, so a
person can see why a choice was made and edit it.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Annotated, Literal
from urllib.parse import urlsplit

from pydantic import AfterValidator, Field, field_validator, model_validator

from structurer.schema import RenderMode, Strict, ValueKind, XPathExpr, error_at

SCHEMA_VERSION = 1

_POST_OPS = {"strip", "lower", "upper", "first", "last", "join", "absolute_url", "collapse"}
_POST_ARG_OPS = {"regex", "remove", "split", "replace", "prefix", "suffix", "default"}


def _check_post(step: str) -> str:
    """A post-processing step: ``op`` or ``op:argument`` (``regex:SKU:\\s*(\\S+)``)."""
    op, sep, arg = step.partition(":")
    if not sep:
        if op in _POST_OPS:
            return step
        if op in _POST_ARG_OPS:
            raise ValueError(f"post step {op!r} needs an argument, like '{op}:...'")
        known = ", ".join(sorted(_POST_OPS | {f"{o}:..." for o in _POST_ARG_OPS}))
        raise ValueError(f"unknown post step {step!r} (known: {known})")
    if op not in _POST_ARG_OPS:
        raise ValueError(f"unknown post step {op!r} (steps with an argument: "
                         f"{', '.join(sorted(_POST_ARG_OPS))})")
    if op == "regex":
        try:
            re.compile(arg)
        except re.error as error:
            raise ValueError(f"invalid regex {arg!r}: {error}") from None
    if op == "replace" and "=>" not in arg:
        raise ValueError(f"replace step {step!r} must look like 'replace:old=>new'")
    return step


PostStep = Annotated[str, AfterValidator(_check_post)]


def _relative(value: str | None, subpath: list[str]) -> str | None:
    """Item-relative XPaths must not start with '/': that would search the whole page."""
    if value is not None and value.startswith("/"):
        raise error_at(subpath, f"{value!r} starts with '/', so it searches the whole page, "
                                f"not the item; write it relative, like '.{value}'")
    return value


class Candidate(Strict):
    """A runner-up location for a field, kept so a person can switch to it."""

    xpath: XPathExpr
    confidence: float = Field(ge=0, le=1)
    samples: list[str] = Field(default_factory=list)


class FieldRule(Strict):
    """Where one field's value is and how to clean it."""

    xpath: XPathExpr | None = None
    # dotted path in the page's JSON-LD Product, e.g. offers.price
    jsonld: str | None = Field(None)
    # a constant, for what a site never shows but always means (currency: CAD)
    const: str | None = None
    kind: ValueKind
    multiple: bool = False
    post: list[PostStep] = Field(default_factory=list)
    # normalized value -> phrases (availability: in_stock: [in stock, 有货])
    values: dict[str, list[str]] = Field(default_factory=dict)
    confidence: float = Field(1.0, ge=0, le=1)
    samples: list[str] = Field(default_factory=list)
    runner_up: Candidate | None = None
    evidence: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _has_source(self) -> FieldRule:
        if self.xpath is None and self.jsonld is None and self.const is None:
            raise ValueError("a field needs an 'xpath', a 'jsonld' path or a 'const' value")
        return self


class RenderSample(Strict):
    url: str
    similarity: float = Field(ge=0, le=1)


class RenderDecision(Strict):
    """Static HTTP or a browser for one level, and why."""

    mode: RenderMode = "static"
    decided_by: Literal["auto", "override", "default"] = "default"
    threshold: float | None = Field(None, gt=0, le=1)
    samples: list[RenderSample] = Field(default_factory=list)


class Baseline(Strict):
    """What analysis saw, so a crawl can tell when a site has changed."""

    pages: int = Field(ge=0)
    items_per_page: float | None = Field(None, ge=0)
    fill_rates: dict[str, float] = Field(default_factory=dict)

    @field_validator("fill_rates")
    @classmethod
    def _rates(cls, value: dict[str, float]) -> dict[str, float]:
        for key, rate in value.items():
            if not 0 <= rate <= 1:
                raise ValueError(f"fill rate of {key!r} is {rate}; it must be within 0..1")
        return value


class Pagination(Strict):
    """The way from one list page to the next: a link XPath and/or a URL pattern."""

    next_xpath: XPathExpr | None = None
    # URL with {page}, relative to the first list page
    url_pattern: str | None = Field(None)
    first_page: int = Field(2, ge=0, description="page number the pattern's second page has")
    confidence: float = Field(1.0, ge=0, le=1)
    samples: list[str] = Field(default_factory=list)

    @field_validator("url_pattern")
    @classmethod
    def _pattern(cls, value: str | None) -> str | None:
        if value is not None and "{page}" not in value:
            raise ValueError(f"url_pattern {value!r} must contain '{{page}}'")
        return value

    @model_validator(mode="after")
    def _has_way(self) -> Pagination:
        if self.next_xpath is None and self.url_pattern is None:
            raise ValueError("pagination needs 'next_xpath' or 'url_pattern'")
        return self


class _ItemRelative(Strict):
    """The check every list layout shares: item XPaths are relative to the item."""

    @field_validator("detail_link_xpath", check_fields=False)
    @classmethod
    def _link_relative(cls, value: str | None) -> str | None:
        return _relative(value, [])

    @field_validator("fields", check_fields=False)
    @classmethod
    def _fields_relative(cls, value: dict[str, FieldRule]) -> dict[str, FieldRule]:
        for name, rule in value.items():
            _relative(rule.xpath, [name, "xpath"])
        return value


class ListLayout(_ItemRelative):
    item_xpath: XPathExpr
    detail_link_xpath: XPathExpr | None = None
    fields: dict[str, FieldRule] = Field(default_factory=dict)
    pagination: Pagination | None = None


class ListVariant(_ItemRelative):
    """Another list layout of the same site, used on pages where ``when`` is true.

    Keys it leaves out are taken from the level's main layout.
    """

    name: str | None = None
    when: XPathExpr
    item_xpath: XPathExpr
    detail_link_xpath: XPathExpr | None = None
    fields: dict[str, FieldRule] = Field(default_factory=dict)
    pagination: Pagination | None = None


class ListLevel(ListLayout):
    render: RenderDecision = Field(default_factory=RenderDecision)
    confidence: float = Field(1.0, ge=0, le=1)
    baseline: Baseline | None = None
    variants: list[ListVariant] = Field(default_factory=list)


class DetailLayout(Strict):
    fields: dict[str, FieldRule] = Field(min_length=1)


class DetailVariant(Strict):
    """Another detail layout (a product type with its own page), used where ``when`` is true."""

    name: str | None = None
    when: XPathExpr
    fields: dict[str, FieldRule] = Field(min_length=1)


class DetailLevel(DetailLayout):
    render: RenderDecision = Field(default_factory=RenderDecision)
    confidence: float = Field(1.0, ge=0, le=1)
    baseline: Baseline | None = None
    variants: list[DetailVariant] = Field(default_factory=list)


class CategoryLevel(Strict):
    """Where the links to category (and sub-category) pages are."""

    link_xpath: XPathExpr
    render: RenderDecision = Field(default_factory=RenderDecision)
    max_depth: int = Field(3, ge=1, le=10)
    confidence: float = Field(1.0, ge=0, le=1)
    samples: list[str] = Field(default_factory=list)


class Levels(Strict):
    category: CategoryLevel | None = None
    list: ListLevel | None = None
    detail: DetailLevel | None = None

    @model_validator(mode="after")
    def _something(self) -> Levels:
        if self.list is None and self.detail is None:
            raise ValueError("rules need a 'list' or a 'detail' level")
        return self


class TemplateRef(Strict):
    """The lexicon the rules were learned with."""

    name: str
    hash: str = Field(pattern=r"^sha256:[0-9a-f]{16,64}$")
    path: str | None = None


class SiteRules(Strict):
    """One site's rules: the unit that is analyzed once and replayed on every crawl."""

    schema_version: int
    site: str
    start_url: str
    generated_at: datetime
    generator: str = ""
    template: TemplateRef
    hosts: list[str] = Field(default_factory=list, description="other hosts the crawl may visit")
    levels: Levels

    @field_validator("schema_version")
    @classmethod
    def _version(cls, value: int) -> int:
        if value != SCHEMA_VERSION:
            raise ValueError(f"unsupported schema_version {value} (this structurer reads "
                             f"{SCHEMA_VERSION}); re-run `structurer analyze`")
        return value

    @field_validator("start_url")
    @classmethod
    def _url(cls, value: str) -> str:
        parts = urlsplit(value)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ValueError(f"start_url {value!r} must be an absolute http(s) URL")
        return value

    @field_validator("site")
    @classmethod
    def _site(cls, value: str) -> str:
        if not re.match(r"^[A-Za-z0-9.-]+(:\d{1,5})?$", value):
            raise ValueError(f"site {value!r} must be a host name, optionally with :port")
        return value

    @property
    def allowed_hosts(self) -> set[str]:
        return {self.site.lower(), urlsplit(self.start_url).netloc.lower(),
                *(h.lower() for h in self.hosts)}
