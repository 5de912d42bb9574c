"""The fetching protocol every page source implements (HTTP, browser, saved files).

Input: a URL. Output: a :class:`Page` — the bytes as received, the decoded text,
where redirects ended, and whether a browser rendered it. Analysis and runtime
code only ever see Pages, so they never care where a page came from.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from structurer.errors import FetchError


@dataclass(frozen=True)
class Page:
    """One fetched page."""

    url: str                      # the URL asked for
    final_url: str                # where redirects ended (base for relative links)
    status: int
    body: bytes
    text: str                     # decoded with ``encoding``
    encoding: str
    headers: Mapping[str, str] = field(default_factory=dict)
    rendered: bool = False        # True when a browser produced ``text``
    elapsed: float = 0.0          # seconds
    rounds: int = 0               # "load more" clicks or scrolls that brought new items
    settled: bool = True          # False: rendered, taken before its network went quiet

    @property
    def content_type(self) -> str:
        for key, value in self.headers.items():
            if key.lower() == "content-type":
                return value
        return ""


@dataclass(frozen=True)
class Expand:
    """Load every item of a list page in a browser: click ``more_xpath`` (``load_more``)
    or scroll to the bottom (``scroll``) until ``item_xpath`` matches no more elements,
    at most ``rounds`` times."""

    method: str                   # "load_more" or "scroll"
    item_xpath: str
    more_xpath: str | None = None
    rounds: int = 30


@runtime_checkable
class Expanding(Protocol):
    """A fetcher that can load a list page's further items (a browser)."""

    async def fetch_expanded(self, url: str, expand: Expand) -> Page:
        """Fetch ``url`` and load its further items; ``Page.rounds`` says how often."""
        ...


@runtime_checkable
class Fetcher(Protocol):
    """Anything that turns URLs into Pages; used as an async context manager."""

    async def fetch(self, url: str) -> Page:
        """Fetch one page; raise :class:`structurer.errors.FetchError` on failure."""
        ...

    async def close(self) -> None:
        """Release connections, browsers and files."""
        ...


async def fetch_each(fetch: Callable[[str], Awaitable[Page]], urls: Iterable[str]
                     ) -> list[Page | FetchError]:
    """``fetch`` every URL concurrently (the fetcher bounds how many at once), each
    failure in its place: one page that fails costs the others nothing."""
    async def one(url: str) -> Page | FetchError:
        try:
            return await fetch(url)
        except FetchError as error:
            return error
    return list(await asyncio.gather(*(one(u) for u in urls)))
