"""The three levels of a site rule file: category, list and detail, each with its render
mode and the evidence analysis gathered for it (pagination walked, baselines, samples).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, Field, field_validator, model_validator

from structurer.rules.fields import FieldRule, ItemsXPath, LinksXPath, XPathExpr, item_relative
from structurer.rules.regexes import check_regex
from structurer.schema import LevelMode, RenderMode, Strict


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
    # category level: only the start page needs the browser (its menu is built by a
    # script; the other category pages, rendered, show no category link it does not)
    entry_only: bool = False
    samples: list[RenderSample] = Field([])


class Baseline(Strict):
    """What analysis saw, so a crawl can tell when a site has changed."""

    pages: int = Field(ge=0)
    items_per_page: float | None = Field(None, ge=0)
    # list level: 1 + the share of the list pages read whose pagination led on (at least
    # this many pages per category: a crawl far below it did not follow the pagination)
    pages_per_category: float | None = Field(None, ge=1)
    fill_rates: dict[str, float] = Field({})

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
    samples: list[str] = Field([])
    verified: list[PagingCheck] = Field([])

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
        return item_relative(value, [], "links")

    @field_validator("fields", check_fields=False)
    @classmethod
    def _fields_relative(cls, value: dict[str, FieldRule]) -> dict[str, FieldRule]:
        for name, rule in value.items():
            item_relative(rule.xpath, [name, "xpath"])
        return value


class ListLayout(_ItemRelative):
    item_xpath: ItemsXPath
    detail_link_xpath: XPathExpr | None = None
    fields: dict[str, FieldRule] = Field({})
    pagination: Pagination | None = None


class ListVariant(_ItemRelative):
    """Another list layout of the same site, used on pages where ``when`` is true.

    Keys it leaves out are taken from the level's main layout.
    """

    name: str | None = None
    when: XPathExpr
    item_xpath: ItemsXPath
    detail_link_xpath: XPathExpr | None = None
    fields: dict[str, FieldRule] = Field({})
    pagination: Pagination | None = None


class ListLevel(ListLayout):
    render: RenderDecision = RenderDecision()
    confidence: float = Field(1.0, ge=0, le=1)
    baseline: Baseline | None = None
    variants: list[ListVariant] = Field([])


class DetailLayout(Strict):
    fields: dict[str, FieldRule] = Field(min_length=1)


class DetailVariant(Strict):
    """Another detail layout (a product type with its own page), used where ``when`` is true."""

    name: str | None = None
    when: XPathExpr
    fields: dict[str, FieldRule] = Field(min_length=1)


class DetailLevel(DetailLayout):
    render: RenderDecision = RenderDecision()
    confidence: float = Field(1.0, ge=0, le=1)
    baseline: Baseline | None = None
    variants: list[DetailVariant] = Field([])


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
    sitemaps: list[str] = Field([])
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
    render: RenderDecision = RenderDecision()
    max_depth: int = Field(3, ge=1, le=10)
    # analysis measures it: the share of link_xpath's links it fetched that are list pages
    # or departments leading to them; without link_xpath, of the sources' links reached
    confidence: float = Field(1.0, ge=0, le=1)
    samples: list[str] = Field([])
    # regexes a category URL's path (+ '?' + its query pairs sorted by key) fully matches
    url_patterns: list[CategoryPattern] = Field([])
    sources: list[CategorySource] = Field([])

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
