"""What the crawl queue holds and what fetching a page gives: plain data, shared by both
engines (``structurer crawl`` and the Scrapy runtime).

A :class:`Task` is a page to fetch (canonical URL, level, crawl depth, category path); a
:class:`Link` is a page found on another, before it is queued; an :class:`Item` is a
product seen on a list page; an :class:`Outcome` is everything one fetched page gave.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["CATEGORY", "DETAIL", "LEVELS", "LIST", "Item", "Link", "Outcome", "Task"]

CATEGORY, LIST, DETAIL = 0, 1, 2
LEVELS = ("category", "list", "detail")


@dataclass(slots=True)
class Task:
    """A page to fetch: its run-queue row."""

    id: int
    key: str                     # canonical URL (w3lib), the dedup key
    url: str                     # the URL as linked, what is fetched
    level: int
    depth: int                   # category links followed from the start page
    path: tuple[str, ...]        # category path the page belongs to
    tries: int = 0


@dataclass(slots=True)
class Link:
    key: str
    url: str
    level: int
    depth: int
    path: tuple[str, ...]


@dataclass(slots=True)
class Item:
    """A product seen on a list page; ``detail`` False when its detail page is not fetched."""

    key: str
    url: str
    fields: dict[str, Any]
    detail: bool


@dataclass(slots=True)
class Outcome:
    """What fetching one task gave; ``error`` is the failure kind, ``retry`` requeues it."""

    task: Task
    error: str | None = None
    retry: bool = False
    links: list[Link] = field(default_factory=list)
    items: list[Item] | None = None          # None: items were not looked for
    is_list: bool = False                    # items, or an empty page that should have had
    next_url: str | None = None              # the list's next page
    detail: dict[str, Any] | None = None
    fingerprint: int | None = None
    content: str | None = None               # digest of what was extracted
    size: int = 0                            # body bytes
    skipped: list[str] = field(default_factory=list)   # why links were not queued
    refused: list[str] = field(default_factory=list)   # links first refused here (keys)
