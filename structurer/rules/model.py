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
from functools import partial
from typing import Annotated, Literal
from urllib.parse import urlsplit

from pydantic import AfterValidator, Field, field_validator, model_validator

from structurer.rules.checks import DEFAULT_PORTS, check_post, split_host, url_host
from structurer.rules.expressions import check_xpath
from structurer.rules.regexes import check_regex
from structurer.schema import LevelMode, RenderMode, Strict, ValueKind, error_at
from structurer.vocabulary import Vocabulary

SCHEMA_VERSION = 1      # the rule-file format this code reads and writes (a fact, not a knob)

PostStep = Annotated[str, AfterValidator(check_post)]

XPathExpr = Annotated[str, AfterValidator(check_xpath)]
"""An XPath evaluated once per page (see :mod:`structurer.rules.expressions`)."""
LinksXPath = Annotated[str, AfterValidator(partial(check_xpath, gives="links"))]
"""An XPath whose nodes or strings are links (never a number or a boolean)."""
ItemsXPath = Annotated[str, AfterValidator(partial(check_xpath, gives="elements"))]
"""An XPath selecting the elements of a list's items."""


def _relative(value: str | None, subpath: list[str],
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
    # money: the ISO 4217 code of amounts whose text names none or a shared sign ("kr" on
    # a Swedish shop: SEK)
    currency: str | None = Field(None, pattern=r"^[A-Z]{3}$")
    # normalized value -> phrases (availability: in_stock: [in stock, 有货])
    values: dict[str, list[str]] = Field(default_factory=dict)
    confidence: float = Field(1.0, ge=0, le=1)
    samples: list[str] = Field(default_factory=list)
    runner_up: Candidate | None = None
    # the runner-up scored within a hair of this rule: a person should compare the two
    # (``samples`` and ``runner_up.samples``) and may switch to it
    ambiguous: bool = False
    evidence: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _has_source(self) -> FieldRule:
        if self.xpath is None and self.jsonld is None and self.const is None:
            raise ValueError("a field needs an 'xpath', a 'jsonld' path or a 'const' value")
        if self.ambiguous and self.runner_up is None:
            raise ValueError("an ambiguous field names its 'runner_up'")
        return self


class RenderSample(Strict):
    url: str
    similarity: float = Field(ge=0, le=1)
    # what the level's rules select (list items, detail fields, category links) in the
    # page as fetched and as rendered; None: not measured
    found_raw: int | None = Field(None, ge=0)
    found_rendered: int | None = Field(None, ge=0)


class RenderDecision(Strict):
    """Static HTTP or a browser for one level, and why."""

    mode: LevelMode = RenderMode.STATIC
    decided_by: Literal["auto", "override", "default"] = "default"
    threshold: float | None = Field(None, gt=0, le=1)
    # browser because the rules find far more in the rendered pages, though their
    # structure was alike (a grid filled from a JSON endpoint in a large static page)
    by_content: bool = False
    samples: list[RenderSample] = Field(default_factory=list)


class Baseline(Strict):
    """What analysis saw, so a crawl can tell when a site has changed."""

    pages: int = Field(ge=0)
    items_per_page: float | None = Field(None, ge=0)
    # list level: 1 + the share of the list pages read whose pagination led on (at least
    # this many pages per category: a crawl far below it did not follow the pagination)
    pages_per_category: float | None = Field(None, ge=1)
    fill_rates: dict[str, float] = Field(default_factory=dict)

    @field_validator("fill_rates")
    @classmethod
    def _rates(cls, value: dict[str, float]) -> dict[str, float]:
        for key, rate in value.items():
            if not 0 <= rate <= 1:
                raise ValueError(f"fill rate of {key!r} is {rate}; it must be within 0..1")
        return value


PagingMethod = Literal["link", "pattern", "load_more", "scroll"]


class PagingCheck(Strict):
    """One category's pagination walked to its end while analyzing."""

    url: str                                     # its first page
    pages: int = Field(ge=1)                     # list pages (or load rounds) reached
    items: int = Field(ge=0)                     # distinct items seen over them
    end: str                                     # why the walk stopped ('no next page', ...)


class Pagination(Strict):
    """The way from one list page to the next, and how it was verified.

    ``method``: ``link`` follows ``next_xpath`` (with ``url_pattern`` as a check);
    ``pattern`` steps ``url_pattern``'s number by ``step`` from ``first_page`` while
    pages are full (``page_size`` items) and bring new items; ``load_more`` clicks
    ``more_xpath`` and ``scroll`` scrolls to the bottom in a browser until no new items
    arrive. ``url_pattern`` is ``?param={page}``, a path tail starting with ``/``
    (appended to the first page's path), or a tail relative to the first page."""

    method: PagingMethod = "link"
    next_xpath: LinksXPath | None = None
    # URL with {page}, relative to the first list page
    url_pattern: str | None = Field(None)
    first_page: int = Field(2, ge=0, description="number the pattern gives the second page")
    step: int = Field(1, ge=1, description="what the number grows by from page to page")
    page_size: int | None = Field(None, ge=1, description="items of a full page")
    more_xpath: XPathExpr | None = None          # the "load more" control (load_more)
    confidence: float = Field(1.0, ge=0, le=1)
    samples: list[str] = Field(default_factory=list)
    verified: list[PagingCheck] = Field(default_factory=list)

    @field_validator("url_pattern")
    @classmethod
    def _pattern(cls, value: str | None) -> str | None:
        if value is not None and "{page}" not in value:
            raise ValueError(f"url_pattern {value!r} must contain '{{page}}'")
        return value

    @model_validator(mode="after")
    def _has_way(self) -> Pagination:
        need = {"link": self.next_xpath or self.url_pattern, "pattern": self.url_pattern,
                "load_more": self.more_xpath, "scroll": True}[self.method]
        if not need:
            what = {"link": "'next_xpath' or 'url_pattern'", "pattern": "'url_pattern'",
                    "load_more": "'more_xpath'"}[self.method]
            raise ValueError(f"pagination by {self.method} needs {what}")
        return self


class _ItemRelative(Strict):
    """The check every list layout shares: item XPaths are relative to the item."""

    @field_validator("detail_link_xpath", check_fields=False)
    @classmethod
    def _link_relative(cls, value: str | None) -> str | None:
        return _relative(value, [], "links")

    @field_validator("fields", check_fields=False)
    @classmethod
    def _fields_relative(cls, value: dict[str, FieldRule]) -> dict[str, FieldRule]:
        for name, rule in value.items():
            _relative(rule.xpath, [name, "xpath"])
        return value


class ListLayout(_ItemRelative):
    item_xpath: ItemsXPath
    detail_link_xpath: XPathExpr | None = None
    fields: dict[str, FieldRule] = Field(default_factory=dict)
    pagination: Pagination | None = None


class ListVariant(_ItemRelative):
    """Another list layout of the same site, used on pages where ``when`` is true.

    Keys it leaves out are taken from the level's main layout.
    """

    name: str | None = None
    when: XPathExpr
    item_xpath: ItemsXPath
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


def _check_pattern(value: str) -> str:
    """A category URL pattern: a regex over a URL's path and sorted query, no backtracking."""
    check_regex(value)
    return value


CategoryPattern = Annotated[str, AfterValidator(_check_pattern)]
SourceKind = Literal["menu", "links", "inline_json", "breadcrumb", "sitemap"]


class CategorySource(Strict):
    """One place category links are found, and what analysis saw of it.

    ``menu``: the level's ``link_xpath`` on category pages; ``links``: every link of a
    category page whose URL matches ``url_patterns`` (tiles, sub-category lists);
    ``inline_json``: URL strings of a category page's inline JSON state matching them;
    ``breadcrumb``: the links of ``xpath`` on product pages (their trail); ``sitemap``:
    the URLs of ``sitemaps`` (and the sitemaps they index) matching them.
    """

    kind: SourceKind
    xpath: LinksXPath | None = None
    sitemaps: list[str] = Field(default_factory=list)
    found: int = Field(0, ge=0, description="category URLs it gave during analysis")
    verified: int = Field(0, ge=0, description="of them fetched as list or category pages")
    listed: int | None = Field(None, ge=0, description="sitemap: category URLs it lists")

    @model_validator(mode="after")
    def _complete(self) -> CategorySource:
        if self.kind == "breadcrumb" and self.xpath is None:
            raise ValueError("a breadcrumb source needs the 'xpath' of the trail's links")
        if self.kind == "sitemap" and not self.sitemaps:
            raise ValueError("a sitemap source needs 'sitemaps' (their URLs)")
        return self


class CategoryLevel(Strict):
    """Where the links to category (and sub-category) pages are."""

    link_xpath: LinksXPath | None = None
    render: RenderDecision = Field(default_factory=RenderDecision)
    max_depth: int = Field(3, ge=1, le=10)
    confidence: float = Field(1.0, ge=0, le=1)
    samples: list[str] = Field(default_factory=list)
    # regexes a category URL's path (+ '?' + its query pairs sorted by key) fully matches
    url_patterns: list[CategoryPattern] = Field(default_factory=list)
    sources: list[CategorySource] = Field(default_factory=list)

    @model_validator(mode="after")
    def _reachable(self) -> CategoryLevel:
        if self.link_xpath is None and not self.sources:
            raise ValueError("a category level needs a 'link_xpath' or 'sources'")
        needs = sorted({s.kind for s in self.sources} & {"links", "inline_json", "sitemap"})
        if needs and not self.url_patterns:
            raise ValueError(f"category sources {', '.join(needs)} need 'url_patterns'")
        return self


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


_COLUMN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class RecordSpec(Strict):
    """The keys of the records a crawl of these rules gives, in order (a CSV's columns):
    the contract's, then every field of the template, so a crawl needs the rule file
    alone. Fields the rules have beyond these come after them."""

    columns: list[str] = Field(min_length=1)
    # the words of reading values the lexicon changed from the shipped ones (currencies,
    # stock phrases, home labels, ...): the crawl reads them here, not in the lexicon
    vocabulary: Vocabulary | None = None

    @field_validator("columns")
    @classmethod
    def _columns(cls, value: list[str]) -> list[str]:
        seen: set[str] = set()
        for i, name in enumerate(value):
            if not _COLUMN.match(name):
                raise error_at([str(i)], f"column {name!r} must be a field name like 'price'")
            if name in seen:
                raise error_at([str(i)], f"column {name!r} is listed twice")
            seen.add(name)
        return value


class SiteRules(Strict):
    """One site's rules: the unit that is analyzed once and replayed on every crawl."""

    schema_version: int
    site: str
    start_url: str
    generated_at: datetime
    generator: str = ""
    template: TemplateRef
    hosts: list[str] = Field(default_factory=list, description="other hosts the crawl may visit")
    session: bool = Field(False, description=(
        "keep the cookies the site sets and send them back (off: no request sends cookies)"))
    # None (rule files written before it): the contract's keys and the rules' fields
    record: RecordSpec | None = None
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
        try:
            url_host(value)
        except ValueError as error:
            raise ValueError(f"start_url {error}") from None
        if "@" in urlsplit(value).netloc:
            raise ValueError("start_url must not hold a user name or password: a rule file "
                             "is shared data (give credentials to the crawl, not the file)")
        return value

    @field_validator("site")
    @classmethod
    def _site(cls, value: str) -> str:
        try:
            split_host(value)
        except ValueError as error:
            raise ValueError(f"must be a host name or IP address, optionally with :port: "
                             f"{error}") from None
        return value

    @field_validator("hosts")
    @classmethod
    def _hosts(cls, value: list[str]) -> list[str]:
        for i, host in enumerate(value):
            try:
                split_host(host)
            except ValueError as error:
                raise error_at([str(i)], f"must be a host name or IP address, optionally "
                                         f"with :port: {error}") from None
        return value

    @model_validator(mode="after")
    def _start_on_site(self) -> SiteRules:
        """The crawl starts at ``start_url`` and stays on ``site`` (and ``hosts``): a start
        on another host is a mistake (a subdomain either way, like www., is the same site)."""
        host, port = url_host(self.start_url)
        site, site_port = split_host(self.site)
        same = (host == site or host.endswith("." + site) or site.endswith("." + host)) and \
            port == (site_port or DEFAULT_PORTS[urlsplit(self.start_url).scheme])
        listed = {split_host(h) for h in self.hosts}
        if not same and (host, port) not in listed and (host, None) not in listed:
            raise error_at(["site"], f"site {self.site!r} and the host of start_url "
                                     f"{self.start_url!r} differ; the crawl starts at start_url "
                                     "and stays on site: make them the same host (or list the "
                                     "start host under 'hosts')")
        return self

    @property
    def allowed_hosts(self) -> set[str]:
        return {self.site.lower(), urlsplit(self.start_url).netloc.rpartition("@")[2].lower(),
                *(h.lower() for h in self.hosts)}
