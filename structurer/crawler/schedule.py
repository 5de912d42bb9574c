"""The revisit schedule of a page across recrawls (adaptive, per page).

Input: a page's previous :class:`History` (None on its first visit), whether this visit
found it changed, the time and the :class:`Revisit` policy (from the crawl's settings:
``revisit_interval``, ``revisit_min``, ``revisit_max``, ``revisit_streak``,
``near_duplicate_bits``). Output: its new history: visits, streaks and the interval until
it is due again.
"""

from __future__ import annotations

from dataclasses import dataclass

from structurer.config import Settings

__all__ = ["DAY", "DEFAULT_INTERVAL", "DEFAULT_REVISIT", "MAX_INTERVAL", "MIN_INTERVAL",
           "History", "Revisit", "reschedule"]

DAY = 86400.0       # seconds in a day: a unit, not a tuning choice


@dataclass(frozen=True, slots=True)
class Revisit:
    """How recrawls revisit pages (see :func:`reschedule`)."""

    interval: float     # after a page's first visit
    least: float        # the interval never falls below this ...
    most: float         # ... nor grows past this
    streak: int         # visits in a row that change the interval
    near_bits: int      # simhashes this close are the same page

    @classmethod
    def of(cls, settings: Settings) -> Revisit:
        return cls(settings.revisit_interval, settings.revisit_min, settings.revisit_max,
                   settings.revisit_streak, settings.near_duplicate_bits)


#: The policy of the default settings.
DEFAULT_REVISIT = Revisit.of(Settings.model_construct())
DEFAULT_INTERVAL, MIN_INTERVAL, MAX_INTERVAL = (DEFAULT_REVISIT.interval, DEFAULT_REVISIT.least,
                                                DEFAULT_REVISIT.most)


@dataclass(frozen=True, slots=True)
class History:
    """A page's revisit schedule."""

    visits: int = 0
    same: int = 0
    changed: int = 0
    interval: float = DEFAULT_INTERVAL
    next_visit: float = 0.0


def reschedule(prev: History | None, changed: bool, now: float,
               policy: Revisit = DEFAULT_REVISIT) -> History:
    """After a visit: ``policy.streak`` (5) unchanged visits in a row double the interval,
    as many changed ones halve it (within ``policy.least`` .. ``policy.most``, 1 hour ..
    64 days); the streak starts again after each step."""
    if prev is None:
        return History(1, 0, 0, policy.interval, now + policy.interval)
    interval, same, change = prev.interval, prev.same, prev.changed
    if changed:
        same, change = 0, change + 1
        if change >= policy.streak:
            interval, change = max(policy.least, interval / 2), 0
    else:
        same, change = same + 1, 0
        if same >= policy.streak:
            interval, same = min(policy.most, interval * 2), 0
    return History(prev.visits + 1, same, change, interval, now + interval)
