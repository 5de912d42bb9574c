"""Crawl statistics: counted as batches commit, shown live, summed up at the end.

Input: the outcomes of committed pages (level, list items, detail records, failure
kinds) and the records emitted. Output: :class:`CrawlStats` — pages per level, list
items, records, per-field fill rates (per level and over records), the price error
rate (records whose price is empty, non-numeric or garbled — the paper's quality
measure — or suspicious: an instalment or range text, an amount the page's structured
data or the list page contradicts; by kind), failures by kind, skipped links by reason,
retries (HTTP requests the fetcher retried; pages the crawl asked again, and of those
the rendered pages that came back blank), elapsed time, pages/s and a timeline of
(elapsed, pages, items, records) samples for the crawl report's chart — as a dict
(stored in the crawl state so a resumed crawl keeps counting, and written as JSON
beside the output, ``<output name>.stats.json``); and :class:`CrawlProgress`, what a
running crawl hands its progress callback (showing it is the command line's:
:mod:`structurer.cli.display`).
"""

from __future__ import annotations

import json
import math
import os
import re
import tempfile
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from structurer.errors import StructurerError
from structurer.kinds import parse_money

__all__ = ["SUSPICIOUS", "CrawlProgress", "CrawlStats", "Sample", "price_disagreement",
           "price_error"]

SAMPLE_EVERY = 0.5   # seconds between timeline samples at least ...
MAX_SAMPLES = 240    # ... and at most this many: a longer timeline is thinned to half
_MOJIBAKE = ("\ufffd", "Ã", "Â", "â‚", "â€", "锟")


# a count times an amount ("or 4 × $308.38", "3x 19,99 €"): an instalment, not the price
_MULTIPLIER = re.compile(r"\d\s*[×xX*]\s*(?:[^\d\s]{1,4}\s*)?\d")
# two amounts joined by a dash or tilde ("$5.00 – $9.00", "10~20元"): a range
_RANGE = re.compile(r"\d\s*[-–—~]\s*(?:[^\d\s]{1,4}\s*)?\d")
#: Kinds of price error that are a value, but a suspicious one (not a missing value).
SUSPICIOUS = ("multiplier", "range", "structured-mismatch", "list-mismatch")


def price_error(record: Mapping[str, Any]) -> str | None:
    """Why a record's price is unusable ('empty', 'non-numeric', 'garbled') or suspicious
    ('multiplier', 'range', and what the crawl noticed while building the record:
    'structured-mismatch', 'list-mismatch', see :func:`price_disagreement`), or None."""
    price, text = record.get("price"), record.get("price_text")
    if isinstance(text, str) and any(mark in text for mark in _MOJIBAKE):
        return "garbled"
    if price is None or (isinstance(price, float) and math.isnan(price)):
        return "empty" if not text else "non-numeric"
    if not isinstance(price, (int, float)) or isinstance(price, bool) or price < 0:
        return "non-numeric"
    if isinstance(text, str) and _MULTIPLIER.search(text):
        return "multiplier"
    if isinstance(text, str) and _RANGE.search(text.replace("\u2009", " ")):
        return "range"
    flag = getattr(record, "price_flag", None)
    return flag if isinstance(flag, str) else None


def _amount(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        return None
    try:
        amount: float | None = float(value)
    except ValueError:
        amount = parse_money(value).amount if isinstance(value, str) else None
    return amount if amount is not None and math.isfinite(amount) else None


def price_disagreement(price: Any, structured: Any, listed: Iterable[Any]) -> str | None:
    """'structured-mismatch' when the page's structured data gives another amount than
    the record's price, 'list-mismatch' when every list page that showed the product gave
    another amount; None when they agree or there is nothing to compare."""
    amount = _amount(price)
    if amount is None:
        return None
    other = _amount(structured)
    if other is not None and abs(other - amount) >= 0.005:
        return "structured-mismatch"
    shown = [a for a in (_amount(v) for v in listed) if a is not None]
    if shown and all(abs(a - amount) >= 0.005 for a in shown):
        return "list-mismatch"
    return None


class Sample(NamedTuple):
    """The counters at one moment of a crawl (seconds of crawling, over all sessions)."""

    elapsed: float
    pages: int
    items: int
    records: int


def _filled(value: Any) -> bool:
    return value is not None and value != "" and value != []


@dataclass
class CrawlStats:
    """Counters of one crawl (all sessions of it, when resumed)."""

    pages: Counter[str] = field(default_factory=Counter)      # fetched, by level
    list_pages: int = 0                                        # pages read for items
    categories_listed: int = 0         # ... of them reached by a category link, not a pager
    empty_lists: int = 0
    items: int = 0
    records: int = 0
    price_errors: Counter[str] = field(default_factory=Counter)
    filled: dict[str, Counter[str]] = field(default_factory=dict)  # level -> field -> n
    counted: Counter[str] = field(default_factory=Counter)          # level -> records
    failures: Counter[str] = field(default_factory=Counter)
    skipped: Counter[str] = field(default_factory=Counter)
    retries: int = 0            # HTTP requests retried (by the fetcher, or Scrapy's retry)
    requeued: int = 0           # pages the crawl asked again: a transient failure, or ...
    blank_renders: int = 0      # ... a rendered page its script left blank
    bytes: int = 0
    elapsed: float = 0.0
    fields: dict[str, list[str]] = field(default_factory=dict)     # level -> its fields
    timeline: list[Sample] = field(default_factory=list)

    # ----- counting ------------------------------------------------------------------------
    def count(self, level: str, records: Iterable[Mapping[str, Any]]) -> None:
        """Fill counts of ``records`` (list items, detail records or emitted records)."""
        names = self.fields.get(level)
        filled = self.filled.setdefault(level, Counter())
        for record in records:
            self.counted[level] += 1
            for name in names if names is not None else record:
                if _filled(record.get(name)):
                    filled[name] += 1
            if level == "record":
                self.records += 1
                why = price_error(record)
                if why is not None:
                    self.price_errors[why] += 1

    def sample(self) -> None:
        """Note the counters at ``elapsed`` on the timeline: after the start, one sample
        per stretch of ``SAMPLE_EVERY`` seconds (its last, so the newest sample always
        equals the figures). Past ``MAX_SAMPLES`` stretches the stretches double, and the
        older samples are merged the same way: a long crawl stays small, evenly sampled."""
        now = Sample(round(self.elapsed, 3), self.pages_total, self.items, self.records)
        span = SAMPLE_EVERY
        while now.elapsed / span > MAX_SAMPLES:
            span *= 2
        line = self.timeline
        if (len(line) > 1 and line[-1].elapsed // span == now.elapsed // span) \
                or (line and now.elapsed <= line[-1].elapsed):
            line[-1] = now
        else:
            line.append(now)
        if len(line) > MAX_SAMPLES + 2:
            last = {int(s.elapsed // span): s for s in line[1:]}
            self.timeline = [line[0], *last.values()]

    # ----- derived figures ---------------------------------------------------------------
    def fill_rates(self, level: str) -> dict[str, float]:
        total = self.counted.get(level, 0)
        names = self.fields.get(level) or sorted(self.filled.get(level, {}))
        filled = self.filled.get(level, Counter())
        return {n: filled[n] / total for n in names} if total else {}

    @property
    def price_error_rate(self) -> float | None:
        return sum(self.price_errors.values()) / self.records if self.records else None

    @property
    def items_per_list_page(self) -> float | None:
        return self.items / self.list_pages if self.list_pages else None

    @property
    def pages_per_category(self) -> float | None:
        """List pages per category listed (1.0: no pagination followed)."""
        return self.list_pages / self.categories_listed if self.categories_listed else None

    @property
    def pages_total(self) -> int:
        return sum(self.pages.values())

    @property
    def pages_per_second(self) -> float:
        return self.pages_total / self.elapsed if self.elapsed > 0 else 0.0

    # ----- storing -------------------------------------------------------------------------
    def as_dict(self) -> dict[str, Any]:
        return {
            "pages": dict(self.pages), "pages_total": self.pages_total,
            "list_pages": self.list_pages, "empty_lists": self.empty_lists,
            "categories_listed": self.categories_listed,
            "pages_per_category": self.pages_per_category,
            "items": self.items, "items_per_list_page": self.items_per_list_page,
            "records": self.records, "price_error_rate": self.price_error_rate,
            "price_errors": dict(self.price_errors),
            "fill_rates": {level: self.fill_rates(level) for level in sorted(self.counted)},
            "failures": dict(self.failures), "skipped": dict(self.skipped),
            "retries": self.retries, "requeued": self.requeued,
            "blank_renders": self.blank_renders, "bytes": self.bytes,
            "elapsed": round(self.elapsed, 3), "pages_per_second": round(self.pages_per_second, 1),
            "timeline": [s._asdict() for s in self.timeline],
            "_filled": {k: dict(v) for k, v in self.filled.items()},
            "_counted": dict(self.counted),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> CrawlStats:
        stats = cls()
        if not data:
            return stats
        stats.pages.update(data.get("pages", {}))
        stats.list_pages = int(data.get("list_pages", 0))
        stats.empty_lists = int(data.get("empty_lists", 0))
        stats.categories_listed = int(data.get("categories_listed", 0))
        stats.items = int(data.get("items", 0))
        stats.records = int(data.get("records", 0))
        stats.price_errors.update(data.get("price_errors", {}))
        stats.filled = {k: Counter(v) for k, v in data.get("_filled", {}).items()}
        stats.counted.update(data.get("_counted", {}))
        stats.failures.update(data.get("failures", {}))
        stats.skipped.update(data.get("skipped", {}))
        stats.retries = int(data.get("retries", 0))
        stats.requeued = int(data.get("requeued", 0))
        stats.blank_renders = int(data.get("blank_renders", 0))
        stats.bytes = int(data.get("bytes", 0))
        stats.elapsed = float(data.get("elapsed", 0.0))
        stats.timeline = [Sample(float(s["elapsed"]), int(s["pages"]), int(s["items"]),
                                 int(s["records"])) for s in data.get("timeline", [])]
        return stats

    @classmethod
    def merged(cls, parts: Iterable[CrawlStats], fields: dict[str, list[str]]) -> CrawlStats:
        """The counters of several workers' shares of one crawl, summed (figures derived
        from them, like fill rates, are over the whole); ``fields``: each level's fields."""
        total = cls(fields=dict(fields))
        for part in parts:
            for mine, theirs in ((total.pages, part.pages), (total.counted, part.counted),
                                 (total.price_errors, part.price_errors),
                                 (total.failures, part.failures),
                                 (total.skipped, part.skipped)):
                mine.update(theirs)
            for level, filled in part.filled.items():
                total.filled.setdefault(level, Counter()).update(filled)
            for name in ("list_pages", "categories_listed", "empty_lists", "items", "records",
                         "retries", "requeued", "blank_renders", "bytes"):
                setattr(total, name, getattr(total, name) + getattr(part, name))
            total.elapsed = max(total.elapsed, part.elapsed)
        return total

    def public(self) -> dict[str, Any]:
        """The figures without the raw counters (what the JSON file holds)."""
        return {k: v for k, v in self.as_dict().items() if not k.startswith("_")}

    @staticmethod
    def path_beside(out: Path) -> Path:
        """Where the statistics of a crawl writing ``out`` go: ``<out>.stats.json``, from
        the whole name, so ``products.jsonl`` and ``products.csv`` keep their own."""
        return out.with_name(f"{out.name}.stats.json")

    def write_json(self, path: Path, extra: Mapping[str, Any] | None = None) -> Path:
        """Write the figures (and ``extra``) to ``path`` atomically: a crash or a full
        disk leaves the previous file, never half of one."""
        data = {**self.public(), **(extra or {})}
        text = json.dumps(data, ensure_ascii=False, indent=1) + "\n"
        tmp = None
        try:
            fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(text)
            os.replace(tmp, path)
        except OSError as error:
            if tmp is not None:
                Path(tmp).unlink(missing_ok=True)
            raise StructurerError(f"cannot write the statistics: {error.strerror or error}",
                                  url=str(path)) from None
        return path


@dataclass(frozen=True)
class CrawlProgress:
    """Where a running crawl stands, as its progress callback gets it: the counters of
    the whole crawl, the queue, and this session's pages and seconds (a resumed
    crawl's earlier pages took earlier sessions' time, so the rate is this session's)."""

    stats: CrawlStats
    queued: int             # pages waiting in the run queue
    in_flight: int          # pages being fetched
    pages: int              # pages fetched in this session ...
    elapsed: float          # ... in this many seconds

    @property
    def rate(self) -> float:
        """Pages per second of this session."""
        return self.pages / self.elapsed if self.elapsed > 0 else 0.0
