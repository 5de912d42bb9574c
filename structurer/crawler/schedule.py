"""The revisit schedule of a page across recrawls (adaptive, per page).

Input: a page's previous :class:`History` (None on its first visit), whether this visit
found it changed, and the time. Output: its new history: visits, streaks and the
interval until it is due again.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DAY", "DEFAULT_INTERVAL", "MAX_INTERVAL", "MIN_INTERVAL", "STREAK", "History",
           "reschedule"]

DAY = 86400.0
DEFAULT_INTERVAL, MIN_INTERVAL, MAX_INTERVAL = DAY, 3600.0, 64 * DAY
STREAK = 5          # visits in a row that change the revisit interval


@dataclass(frozen=True, slots=True)
class History:
    """A page's revisit schedule."""

    visits: int = 0
    same: int = 0
    changed: int = 0
    interval: float = DEFAULT_INTERVAL
    next_visit: float = 0.0


def reschedule(prev: History | None, changed: bool, now: float) -> History:
    """After a visit: 5 unchanged visits in a row double the interval, 5 changed ones
    halve it (within 1 hour .. 64 days); the streak starts again after each step."""
    if prev is None:
        return History(1, 0, 0, DEFAULT_INTERVAL, now + DEFAULT_INTERVAL)
    interval, same, change = prev.interval, prev.same, prev.changed
    if changed:
        same, change = 0, change + 1
        if change >= STREAK:
            interval, change = max(MIN_INTERVAL, interval / 2), 0
    else:
        same, change = same + 1, 0
        if same >= STREAK:
            interval, same = min(MAX_INTERVAL, interval * 2), 0
    return History(prev.visits + 1, same, change, interval, now + interval)
