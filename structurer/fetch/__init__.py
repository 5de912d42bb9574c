"""Page sources behind one protocol: HTTP (aiohttp), saved files (replay), Chromium.

Input: URLs (and Settings, or saved pages). Output: :class:`Page` objects, or a
one-line :class:`~structurer.errors.FetchError` (``kind`` says why). :func:`open_fetcher`
(:mod:`structurer.fetch.factory`) is the one place a fetcher is made for a
:class:`~structurer.schema.RenderMode`: HTTP for ``static``, Chromium for ``browser``;
``fetcher_for`` picks saved pages when given, else HTTP. Which hosts a fetch may reach is
:mod:`structurer.fetch.scope` (every fetch path asks it before a request leaves);
finding and launching Chromium is :mod:`structurer.fetch.chromium`, and the route
every browser tab goes through is :mod:`structurer.fetch.guard`.

The names below load when first used (module ``__getattr__``): reading a saved page
(:mod:`structurer.fetch.replay`) loads no network code.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from structurer._lazy import lazy_names

if TYPE_CHECKING:
    from structurer.fetch.base import Fetcher as Fetcher
    from structurer.fetch.base import Page as Page
    from structurer.fetch.factory import fetcher_for as fetcher_for
    from structurer.fetch.factory import open_fetcher as open_fetcher
    from structurer.fetch.http import FetchStats as FetchStats
    from structurer.fetch.http import HttpFetcher as HttpFetcher
    from structurer.fetch.http import fetch_sync as fetch_sync
    from structurer.fetch.http import run_sync as run_sync
    from structurer.fetch.replay import ReplayFetcher as ReplayFetcher
    from structurer.fetch.replay import SavedPage as SavedPage
    from structurer.fetch.retry import RetryPolicy as RetryPolicy

__all__ = [
    "FetchStats",
    "Fetcher",
    "HttpFetcher",
    "Page",
    "ReplayFetcher",
    "RetryPolicy",
    "SavedPage",
    "fetch_sync",
    "fetcher_for",
    "open_fetcher",
    "run_sync",
]

# name -> the module that defines it
_HOMES = {
    "FetchStats": "structurer.fetch.http",
    "Fetcher": "structurer.fetch.base",
    "HttpFetcher": "structurer.fetch.http",
    "Page": "structurer.fetch.base",
    "ReplayFetcher": "structurer.fetch.replay",
    "RetryPolicy": "structurer.fetch.retry",
    "SavedPage": "structurer.fetch.replay",
    "fetch_sync": "structurer.fetch.http",
    "fetcher_for": "structurer.fetch.factory",
    "open_fetcher": "structurer.fetch.factory",
    "run_sync": "structurer.fetch.http",
}


__getattr__, __dir__ = lazy_names(__name__, _HOMES, globals())
