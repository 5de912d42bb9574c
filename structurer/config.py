"""Settings: every knob of fetching, crawling and analysis in one validated model.

Layers apply in order default < settings file < rule file < command line
(:meth:`Settings.layered`); later layers override earlier ones key by key. The
analysis thresholds themselves live in the lexicon, where a person edits them.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

from pydantic import ConfigDict, Field

from structurer import __version__, yamlio
from structurer.modes import MAX_PAGE_BYTES
from structurer.schema import RenderMode, Strict

#: Debian's Chromium, the last place :func:`structurer.fetch.chromium.find_chromium` looks.
DEFAULT_CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
)
USER_AGENT = f"structurer/{__version__} (product-data crawler; +https://pypi.org/project/structurer/)"


class Settings(Strict):
    """Runtime settings. Every limit has a safe default."""

    # validators are built on first use: reading a default (a page-size bound) is free
    model_config = ConfigDict(defer_build=True)

    user_agent: str = USER_AGENT
    obey_robots: bool = True
    # floats are finite and bounded: ``--delay inf`` or ``nan`` would stall a crawl forever
    timeout: float = Field(20.0, gt=0, le=600, allow_inf_nan=False,
                           description="seconds per request")
    retries: int = Field(3, ge=0, le=10)
    # how long a retried request (and a page put back in a crawl's queue) waits first
    retry_backoff: float = Field(0.5, ge=0, le=60, allow_inf_nan=False, description=(
        "seconds before the first retry; doubles each attempt, with jitter"))
    retry_backoff_max: float = Field(30.0, ge=0, le=600, allow_inf_nan=False, description=(
        "longest wait between two attempts, seconds"))
    retry_after_max: float = Field(60.0, ge=0, le=600, allow_inf_nan=False, description=(
        "a server's Retry-After longer than this is cut to it, seconds"))
    retry_statuses: list[Annotated[int, Field(ge=400, le=599)]] = Field(
        default_factory=lambda: [429, 500, 502, 503, 504],
        description="HTTP statuses asked again (connection errors and timeouts always are)")
    crawl_retries: int = Field(2, ge=0, le=10, description=(
        "times a crawl puts a page that failed transiently (after its retries) back at the "
        "end of the queue"))
    max_page_bytes: int = Field(MAX_PAGE_BYTES, gt=0, le=1_000_000_000)
    max_redirects: int = Field(5, ge=0, le=20)
    max_url_length: int = Field(2048, ge=64)
    max_path_depth: int = Field(12, ge=1)
    max_depth: int = Field(10, ge=1, description="links followed from the start page")
    max_pages: int | None = Field(None, ge=1, description="stop a crawl after this many pages")
    max_pages_per_pattern: int = Field(5000, ge=1, description="crawler-trap guard")
    max_sitemaps: int = Field(50, ge=1, le=10_000, description="sitemap files read per crawl")
    max_sitemap_urls: int = Field(50_000, ge=1, description="URLs read from one sitemap")
    concurrency: int = Field(8, ge=1, le=256)
    per_host_concurrency: int = Field(4, ge=1, le=64)
    delay: float = Field(0.0, ge=0, le=600, allow_inf_nan=False,
                         description="seconds between requests to one host")
    # hosts a crawl may visit (see structurer.fetch.scope); empty: each fetch stays on
    # the site of the URL it was given
    allowed_hosts: list[str] = Field(default_factory=list)
    must_include: list[str] = Field(default_factory=list)
    must_exclude: list[str] = Field(default_factory=list)
    analyze_max_pages: int = Field(60, ge=3, description="pages fetched while analyzing a site")
    # pagination: analysis walks it to its end on a few categories before keeping it; the
    # crawl's "load more" clicks and scrolls per list page are bounded alike
    paging_walk: int = Field(30, ge=2, le=1000, description=(
        "list pages (or load-more rounds) a pagination walk goes at most, per category"))
    paging_categories: int = Field(2, ge=1, le=20, description=(
        "categories whose pagination analysis walks to its end"))
    chromium_path: str | None = Field(None, description="Chromium binary; None: found by "
                                      "structurer.fetch.chromium.find_chromium")
    browser_timeout: float = Field(30.0, gt=0, le=600, allow_inf_nan=False)
    browser_pages: int = Field(4, ge=1, le=32, description="pages kept open in the browser pool")
    round_wait: float = Field(4.0, gt=0, le=120, allow_inf_nan=False, description=(
        "seconds of quiet after a load-more click or scroll (and the script requests it "
        "started) before the round counts as having brought nothing"))
    # static or browser for every level, or "auto": decide per level by comparing pages
    render: RenderMode = RenderMode.AUTO
    # cookies: off, every request goes without them, so a page never depends on which
    # pages were fetched before it ("recently viewed" blocks, a cookie set by a retried 500)
    session: bool = Field(False, description=(
        "keep the cookies a site sets and send them back (a rule file's `session: true`)"))
    # replay: a page whose rules take longer is given up (one rule_timeout failure)
    rule_budget: float = Field(2.0, gt=0, le=600, allow_inf_nan=False,
                               description="CPU seconds of rule evaluation per page")
    # recrawls: the adaptive revisit schedule, and when a page counts as changed
    revisit_interval: float = Field(86_400.0, gt=0, allow_inf_nan=False, description=(
        "seconds from a page's first visit to its next"))
    revisit_min: float = Field(3_600.0, gt=0, allow_inf_nan=False, description=(
        "shortest revisit interval, seconds"))
    revisit_max: float = Field(5_529_600.0, gt=0, allow_inf_nan=False, description=(
        "longest revisit interval, seconds (64 days)"))
    revisit_streak: int = Field(5, ge=1, description=(
        "visits in a row, unchanged (or changed), that double (or halve) the interval"))
    near_duplicate_bits: int = Field(3, ge=0, le=64, description=(
        "simhash bits a page may differ by and still be unchanged"))
    # drift: when a crawl's fill rates say the site changed since its rules were learned
    drift_min_pages: int = Field(3, ge=1, description=(
        "fewest pages of a level that say anything about drift"))
    drift_min_records: int = Field(20, ge=1, description=(
        "fewest records that say a field without a baseline is empty"))
    drift_drop_ratio: float = Field(0.6, ge=0, le=1, description=(
        "a fill rate below this share of its baseline ..."))
    drift_drop_points: float = Field(0.15, ge=0, le=1, description=(
        "... and at least this far below it has drifted"))
    drift_items_ratio: float = Field(0.5, ge=0, le=1, description=(
        "items per list page below this share of the baseline have drifted"))
    drift_pages_ratio: float = Field(0.25, ge=0, le=1, description=(
        "list pages per category beyond the first below this share of the baseline's: "
        "the pagination was not followed"))
    drift_optional: float = Field(0.75, ge=0, le=1, description=(
        "a baseline below this marks an optional field (an old price) ..."))
    drift_optional_ratio: float = Field(0.25, ge=0, le=1, description=(
        "... which has drifted only below this share of its baseline"))
    drift_price_errors: float = Field(0.05, ge=0, le=1, description=(
        "share of records whose price is garbled, unparsable or suspicious (an instalment "
        "or range text, contradicted by structured data or the list page) above which a "
        "crawl warns; empty prices do not count"))

    @classmethod
    def layered(cls, *layers: Mapping[str, Any] | None) -> Settings:
        """Merge layers (lowest first), ignoring None values, and validate once."""
        merged: dict[str, Any] = {}
        for layer in layers:
            if layer:
                merged.update({k: v for k, v in layer.items() if v is not None})
        return cls.model_validate(merged)

    @classmethod
    def from_file(cls, path: str | Path) -> dict[str, Any]:
        """A settings file as a layer (validated on its own, so errors name the file)."""
        model = yamlio.load_model(cls, Path(path))
        return model.model_dump(exclude_unset=True)
