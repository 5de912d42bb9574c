"""Page sources behind one protocol: HTTP (aiohttp), saved files (replay), Chromium.

Input: URLs (and Settings, or saved pages). Output: :class:`Page` objects, or a
one-line :class:`~structurer.errors.FetchError`. ``fetcher_for`` picks the source:
saved pages when given, the network otherwise. Which hosts a fetch may reach is
:mod:`structurer.fetch.scope` (every fetch path asks it before a request leaves);
finding and launching Chromium is :mod:`structurer.fetch.chromium`, and the route
every browser tab goes through is :mod:`structurer.fetch.guard`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from structurer.config import Settings
from structurer.fetch.base import Fetcher, Page
from structurer.fetch.http import (
    FetchStats,
    HttpFetcher,
    HttpFetchError,
    RetryPolicy,
    fetch_sync,
    run_sync,
)
from structurer.fetch.replay import ReplayFetcher, SavedPage

# BrowserFetcher lives in structurer.fetch.browser and is imported where needed: it
# pulls in Playwright, which a static crawl never loads.


def fetcher_for(settings: Settings | None = None, *,
                pages: str | os.PathLike[str] | Mapping[str, str | os.PathLike[str]] | None = None
                ) -> HttpFetcher | ReplayFetcher:
    """A ReplayFetcher over ``pages`` (a directory, one file, or a URL -> file mapping)
    when given, else an HttpFetcher with ``settings``."""
    if pages is None:
        return HttpFetcher(settings)
    if isinstance(pages, Mapping):
        return ReplayFetcher(pages)
    path = Path(pages)
    return ReplayFetcher.from_directory(path) if path.is_dir() else ReplayFetcher.from_files([path])


__all__ = [
    "FetchStats",
    "Fetcher",
    "HttpFetchError",
    "HttpFetcher",
    "Page",
    "ReplayFetcher",
    "RetryPolicy",
    "SavedPage",
    "fetch_sync",
    "fetcher_for",
    "run_sync",
]
