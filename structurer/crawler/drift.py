"""Drift: has the site changed since its rules were learned?

Input: the rule file (its ``levels.<list|detail>.baseline``: items per list page and
per-field fill rates seen by analysis, and the fields it defines) and a crawl's
:class:`~structurer.crawler.stats.CrawlStats`. Output: :class:`Drift` warnings,
each naming the level and field that fell well below its baseline, such as
``detail.price: filled on 12% of 140 detail pages, baseline 100%``. Without a
baseline a field that no page filled, and lists that came back empty, are reported; so
is a price error rate (garbled or suspicious prices) above ``drift_price_errors``.
Completeness is checked whatever the number of pages: a crawl of a rule file with a
list level that reached no list page, or read list pages without one item, or a
detail level that read no detail page although items were listed, and one whose
pages per category fell far below what analysis saw (its pagination not followed).
``structurer crawl --strict`` exits with 1 when there is any. How far below is too far
is the crawl's settings (``drift_*``, :class:`~structurer.config.Settings`).
"""

from __future__ import annotations

from dataclasses import dataclass

from structurer.config import Settings
from structurer.crawler.stats import CrawlStats
from structurer.rules.model import Baseline, SiteRules

__all__ = ["Drift", "check_drift"]



@dataclass(frozen=True)
class Drift:
    level: str
    field: str | None    # None: the level as a whole (items per list page)
    observed: float
    expected: float | None
    message: str

    def __str__(self) -> str:
        return self.message


def _fields(rules: SiteRules, level: str) -> dict[str, float]:
    """Field -> confidence of a level's own fields."""
    lvl = rules.levels.list if level == "list" else rules.levels.detail
    return {name: rule.confidence for name, rule in lvl.fields.items()} if lvl else {}


def _level_drift(level: str, baseline: Baseline | None, stats: CrawlStats,
                 confidences: dict[str, float], s: Settings) -> list[Drift]:
    """A field of an optional kind (filled on fewer than ``drift_optional`` of the
    samples: an old price) has drifted only when it nearly vanished: analysis samples
    such fields on purpose, so their baselines run high."""
    out: list[Drift] = []
    total = stats.counted.get(level, 0)
    what = "list items" if level == "list" else "detail pages"
    rates = stats.fill_rates(level)
    if baseline is not None and baseline.fill_rates:
        if total < s.drift_min_pages:
            return out
        for name, expected in sorted(baseline.fill_rates.items()):
            observed = rates.get(name, 0.0)
            ratio = s.drift_optional_ratio if expected < s.drift_optional \
                else s.drift_drop_ratio
            if observed < expected * ratio and expected - observed >= s.drift_drop_points:
                out.append(Drift(level, name, observed, expected,
                                 f"{level}.{name}: filled on {observed:.0%} of {total} {what}, "
                                 f"baseline {expected:.0%}"))
        return out
    if total < s.drift_min_records:
        return out
    for name, confidence in sorted(confidences.items()):
        if rates.get(name, 0.0) == 0.0 and confidence >= 0.5:
            out.append(Drift(level, name, 0.0, None,
                             f"{level}.{name}: empty on all {total} {what} (the rule file has "
                             f"no baseline for this level)"))
    return out


def _completeness(rules: SiteRules, stats: CrawlStats, s: Settings) -> list[Drift]:
    """The levels a crawl did not reach, or reached empty (any number of pages; none
    read at all is the crawl's shortfall, said there)."""
    levels, out = rules.levels, list[Drift]()
    if stats.pages_total == 0:
        return out
    if levels.list is not None and stats.list_pages == 0:
        out.append(Drift("list", None, 0.0, None, (
            f"list: no list page reached: the list rules found no item on any of the "
            f"{stats.pages_total} pages read (a level that needs a browser, or a changed "
            f"site)")))
    elif levels.list is not None and stats.items == 0:
        out.append(Drift("list", None, 0.0, None,
                         f"list: no items on any of the {stats.list_pages} list pages"))
    detail_pages = stats.counted.get("detail", 0)
    if levels.detail is not None and detail_pages == 0 and (
            stats.items > 0 or levels.list is None):
        out.append(Drift("detail", None, 0.0, None, "detail: no detail page read"))
    baseline = levels.list.baseline if levels.list is not None else None
    expected = baseline.pages_per_category if baseline is not None else None
    observed = stats.pages_per_category
    if expected and expected > 1 and observed is not None \
            and stats.categories_listed >= s.drift_min_pages \
            and observed - 1 < (expected - 1) * s.drift_pages_ratio:
        out.append(Drift("list", None, observed, expected, (
            f"list: {observed:.2f} list pages per category over {stats.categories_listed} "
            f"categories, baseline at least {expected:.2f} (pagination not followed?)")))
    return out


def check_drift(rules: SiteRules, stats: CrawlStats,
                settings: Settings | None = None, *, complete: bool = True) -> list[Drift]:
    """Every way the crawl fell well below what the rules were learned on, by the
    ``drift_*`` settings (their defaults without ``settings``); ``complete``: the crawl
    read every page it was to read (not a recrawl of the pages due), so levels it did
    not reach are reported too."""
    s = settings if settings is not None else Settings.model_construct()
    out: list[Drift] = _completeness(rules, stats, s) if complete else []
    levels = rules.levels
    # lists without any item are said above already
    if levels.list is not None and stats.list_pages >= s.drift_min_pages \
            and (stats.items or not complete):
        baseline = levels.list.baseline
        observed = stats.items_per_list_page or 0.0
        expected = baseline.items_per_page if baseline else None
        if expected and observed < expected * s.drift_items_ratio:
            out.append(Drift("list", None, observed, expected,
                             f"list: {observed:.1f} items per list page over "
                             f"{stats.list_pages} pages, baseline {expected:.1f}"))
        elif stats.empty_lists * 2 > stats.list_pages:
            out.append(Drift("list", None, observed, expected,
                             f"list: {stats.empty_lists} of {stats.list_pages} list pages had "
                             f"no items"))
    for level in ("list", "detail"):
        lvl = levels.list if level == "list" else levels.detail
        if lvl is not None:
            out += _level_drift(level, lvl.baseline, stats, _fields(rules, level), s)
    return out + _price_drift(stats, s)


def _price_drift(stats: CrawlStats, s: Settings) -> list[Drift]:
    """Too many prices that are there but wrong-looking (an empty price is no warning:
    an unavailable product may show none)."""
    bad = {kind: n for kind, n in sorted(stats.price_errors.items()) if kind != "empty" and n}
    total = sum(bad.values())
    if stats.records < s.drift_min_records or total <= s.drift_price_errors * stats.records:
        return []
    kinds = ", ".join(f"{kind} {n}" for kind, n in bad.items())
    return [Drift("record", "price", total / stats.records, s.drift_price_errors,
                  f"price: {total} of {stats.records} records ({total / stats.records:.0%}) "
                  f"have a garbled or suspicious price ({kinds})")]
