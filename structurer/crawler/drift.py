"""Drift: has the site changed since its rules were learned?

Input: the rule file (its ``levels.<list|detail>.baseline``: items per list page and
per-field fill rates seen by analysis, and the fields it defines) and a crawl's
:class:`~structurer.crawler.stats.CrawlStats`. Output: :class:`Drift` warnings,
each naming the level and field that fell well below its baseline, such as
``detail.price: filled on 12% of 140 detail pages, baseline 100%``. Without a
baseline a field that no page filled, and lists that came back empty, are reported.
``structurer crawl --strict`` exits with 1 when there is any.
"""

from __future__ import annotations

from dataclasses import dataclass

from structurer.crawler.stats import CrawlStats
from structurer.rules.model import Baseline, SiteRules

__all__ = ["Drift", "check_drift"]

MIN_PAGES = 3        # fewer pages of a level say nothing
MIN_RECORDS = 20     # fewer records say nothing about a field without a baseline
DROP_RATIO = 0.6     # a rate below this share of its baseline ...
DROP_POINTS = 0.15   # ... and at least this far below it has drifted
ITEMS_RATIO = 0.5    # items per list page below this share of the baseline
OPTIONAL = 0.75      # a field filled on fewer samples than this is optional (an old price):
OPTIONAL_RATIO = 0.25  # it has drifted only when it nearly vanished (analysis samples such
#                        fields on purpose, so their baselines run high)


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
                 confidences: dict[str, float]) -> list[Drift]:
    out: list[Drift] = []
    total = stats.counted.get(level, 0)
    what = "list items" if level == "list" else "detail pages"
    rates = stats.fill_rates(level)
    if baseline is not None and baseline.fill_rates:
        if total < MIN_PAGES:
            return out
        for name, expected in sorted(baseline.fill_rates.items()):
            observed = rates.get(name, 0.0)
            ratio = OPTIONAL_RATIO if expected < OPTIONAL else DROP_RATIO
            if observed < expected * ratio and expected - observed >= DROP_POINTS:
                out.append(Drift(level, name, observed, expected,
                                 f"{level}.{name}: filled on {observed:.0%} of {total} {what}, "
                                 f"baseline {expected:.0%}"))
        return out
    if total < MIN_RECORDS:
        return out
    for name, confidence in sorted(confidences.items()):
        if rates.get(name, 0.0) == 0.0 and confidence >= 0.5:
            out.append(Drift(level, name, 0.0, None,
                             f"{level}.{name}: empty on all {total} {what} (the rule file has "
                             f"no baseline for this level)"))
    return out


def check_drift(rules: SiteRules, stats: CrawlStats) -> list[Drift]:
    """Every way the crawl fell well below what the rules were learned on."""
    out: list[Drift] = []
    levels = rules.levels
    if levels.list is not None and stats.list_pages >= MIN_PAGES:
        baseline = levels.list.baseline
        observed = stats.items_per_list_page or 0.0
        expected = baseline.items_per_page if baseline else None
        if expected and observed < expected * ITEMS_RATIO:
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
            out += _level_drift(level, lvl.baseline, stats, _fields(rules, level))
    return out
