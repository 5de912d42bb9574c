"""Site rules: what ``structurer analyze`` learned about one shop, as data.

Input: validated YAML (see ``rules/io.py``). Output: frozen models that the
runtime replays. One file per site holds three levels — category (where category
links are), list (the repeated items, their fields, the way to the next page) and
detail (the product page's fields) — each with its render mode and the evidence
for it. Every field keeps its confidence, sample values and the runner-up, so a
person can see why a choice was made and edit it.

The levels are in ``rules/levels.py``, a field's rule in ``rules/fields.py``; this module
holds the file as a whole and names every model of it.
"""

from __future__ import annotations

import re
from datetime import datetime
from urllib.parse import urlsplit

from pydantic import Field, field_validator, model_validator

from structurer.rules.checks import DEFAULT_PORTS, split_host, url_host
from structurer.rules.fields import (
    Candidate,
    FieldRule,
    ItemsXPath,
    LinksXPath,
    PostStep,
    XPathExpr,
)
from structurer.rules.levels import (
    Baseline,
    CategoryLevel,
    CategorySource,
    DetailLayout,
    DetailLevel,
    DetailVariant,
    Levels,
    ListLayout,
    ListLevel,
    ListVariant,
    Pagination,
    PagingCheck,
    PagingMethod,
    RenderDecision,
    RenderSample,
    SourceKind,
)
from structurer.schema import Strict, error_at
from structurer.vocabulary import Vocabulary

__all__ = [
    "SCHEMA_VERSION", "Baseline", "Candidate", "CategoryLevel", "CategorySource", "DetailLayout",
    "DetailLevel", "DetailVariant", "FieldRule", "ItemsXPath", "Levels", "LinksXPath",
    "ListLayout", "ListLevel", "ListVariant", "Pagination", "PagingCheck", "PagingMethod",
    "PostStep", "RecordSpec", "RenderDecision", "RenderSample", "SiteRules", "SourceKind",
    "TemplateRef", "XPathExpr",
]

SCHEMA_VERSION = 1      # the rule-file format this code reads and writes (a fact, not a knob)


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
    hosts: list[str] = Field([], description="other hosts the crawl may visit")
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
