"""Dates and times written in text, in several languages and formats.

Input: a string ("5. März 2024, 14:30 Uhr", "2024年3月5日 14:30", "Mar 5th 2024 2:30
PM", an ISO timestamp). Output: ISO strings — ``YYYY-MM-DD``, or ``YYYY-MM-DDTHH:MM:SS``
when a time of day follows the date — or every date found with its position, for
callers that weigh where on the page a date stands. Pure functions.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from datetime import date, datetime

from structurer.clean import normalize_space
from structurer.kinds import Words, default_words


@functools.lru_cache(maxsize=8)
def _clock(words: Words) -> re.Pattern[str]:
    """A time of day right after a date, maybe after one of the vocabulary's time words."""
    said = "|".join(re.escape(w) for w in words.time_words) or "(?!)"
    return re.compile(rf"^[\s,;:\-–—|·T]*(?:{said})?\s*(\d{{1,2}})[:：h](\d{{2}})"
                      r"(?::(\d{2}))?\s*([ap]\.?\s?m\.?)?(?![\d])", re.I)


@functools.lru_cache(maxsize=8)
def _patterns(words: Words) -> list[tuple[re.Pattern[str], str]]:
    """The date patterns, with the vocabulary's month names (longest first)."""
    month = "|".join(sorted((re.escape(m) for m in words.months), key=len, reverse=True))
    month = month or "(?!)"
    return [
        (re.compile(r"(?<!\d)(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*日"), "ymd"),
        (re.compile(r"(?<!\d)(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?!\d)"), "ymd"),
        (re.compile(r"(?<!\d)(\d{1,2})\.\s?(\d{1,2})\.\s?(\d{4})(?!\d)"), "dmy"),
        (re.compile(r"(?<!\d)(\d{1,2})-(\d{1,2})-(\d{4})(?!\d)"), "dmy"),
        (re.compile(r"(?<!\d)(\d{1,2})/(\d{1,2})/(\d{4})(?!\d)"), "mdy"),
        (re.compile(rf"\b({month})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})\b", re.I),
         "Mdy"),
        (re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\.?\s+(?:de\s+)?({month})\.?,?\s+(?:de\s+)?"
                    rf"(\d{{4}})\b", re.I), "dMy"),
    ]


@dataclass(frozen=True)
class DateFound:
    iso: str        # YYYY-MM-DD, or YYYY-MM-DDTHH:MM:SS with a time of day
    start: int      # position of the date in the searched text
    end: int        # position after the date (and its time of day)


def _ymd(order: str, a: str, b: str, c: str, months: dict[str, int]) -> date | None:
    try:
        if order == "ymd":
            year, month, day = int(a), int(b), int(c)
        elif order == "dmy":
            year, month, day = int(c), int(b), int(a)
        elif order == "mdy":
            year, month, day = int(c), int(a), int(b)
            if month > 12:
                month, day = day, month
        elif order == "Mdy":
            year, month, day = int(c), months[a.lower()], int(b)
        else:
            year, month, day = int(c), months[b.lower()], int(a)
        return date(year, month, day) if 1900 <= year <= 2100 else None
    except (ValueError, KeyError):
        return None


def _with_clock(day: date, text: str, end: int, words: Words) -> tuple[str, int]:
    """The date, plus the time of day written right after it (if any)."""
    clock = _clock(words).match(text[end:end + 30])
    if clock is None:
        return day.isoformat(), end
    hour, minute = int(clock.group(1)), int(clock.group(2))
    second = int(clock.group(3) or 0)
    half = (clock.group(4) or "").lower().replace(".", "").replace(" ", "")
    if half and not 1 <= hour <= 12:
        return day.isoformat(), end
    hour = hour % 12 + (12 if half == "pm" else 0) if half else hour
    if hour > 23 or minute > 59 or second > 59:
        return day.isoformat(), end
    return datetime(day.year, day.month, day.day, hour, minute, second).isoformat(), \
        end + clock.end()


def find_dates(text: str, words: Words | None = None) -> list[DateFound]:
    """Every date in ``text`` (each position once, earliest pattern wins), in order;
    ``words``: the vocabulary of month names (None: the shipped one)."""
    found: dict[int, DateFound] = {}
    taken: list[tuple[int, int]] = []
    w = words or default_words()
    for pattern, order in _patterns(w):
        for match in pattern.finditer(text):
            if any(s < match.end() and match.start() < e for s, e in taken):
                continue
            a, b, c = match.groups()
            day = _ymd(order, a, b, c, w.months)
            if day is None:
                continue
            iso, end = _with_clock(day, text, match.end(), w)
            found[match.start()] = DateFound(iso, match.start(), end)
            taken.append((match.start(), match.end()))
    return [found[k] for k in sorted(found)]


def _iso_stamp(text: str) -> str | None:
    try:
        stamp = datetime.fromisoformat(text)
    except ValueError:
        return None
    return stamp.isoformat() if "T" in text or ":" in text else stamp.date().isoformat()


def parse_datetime(text: str, words: Words | None = None) -> str | None:
    """The first date in ``text`` as ISO, with its time of day when one is written."""
    text = normalize_space(text)
    if not text:
        return None
    found = find_dates(text, words)
    return _iso_stamp(text) or (found[0].iso if found else None)


def parse_date(text: str) -> str | None:
    """ISO date (``YYYY-MM-DD``, or the full ISO timestamp given) in ``text``, or None."""
    text = normalize_space(text)
    if not text:
        return None
    found = find_dates(text)
    return _iso_stamp(text) or (found[0].iso[:10] if found else None)
