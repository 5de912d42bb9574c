"""The one fetcher factory: a :class:`~structurer.schema.RenderMode` in, a fetcher out.

Input: a render mode and :class:`~structurer.config.Settings`. Output: a fetcher not yet
opened (``async with`` it, or call ``close``): :class:`~structurer.fetch.http.HttpFetcher`
for ``static``, :class:`~structurer.fetch.browser.BrowserFetcher` for ``browser``
(Playwright is imported only then). Every part of structurer that fetches (analysis, the
crawl and its Scrapy runtime, the review, reading pages named on the command line) asks
here, so a new way of fetching is a module, a line here and a member of ``RenderMode``.
Saved pages are no render mode: :func:`fetcher_for` serves them where a caller has them.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Literal, overload

from structurer.config import Settings
from structurer.errors import StructurerError
from structurer.fetch.base import Fetcher
from structurer.fetch.http import HttpFetcher
from structurer.fetch.replay import ReplayFetcher
from structurer.schema import RenderMode

if TYPE_CHECKING:  # it pulls in Playwright, which a static crawl never loads
    from structurer.fetch.browser import BrowserFetcher

__all__ = ["fetcher_for", "open_fetcher"]


@overload
def open_fetcher(mode: Literal[RenderMode.STATIC], settings: Settings | None = None
                 ) -> HttpFetcher: ...
@overload
def open_fetcher(mode: Literal[RenderMode.BROWSER], settings: Settings | None = None
                 ) -> BrowserFetcher: ...
@overload
def open_fetcher(mode: RenderMode, settings: Settings | None = None) -> Fetcher: ...
def open_fetcher(mode: RenderMode, settings: Settings | None = None) -> Fetcher:
    """The fetcher for pages of ``mode``; ``auto`` is no way to fetch a page (ValueError)."""
    if mode == RenderMode.STATIC:
        return HttpFetcher(settings)
    if mode == RenderMode.BROWSER:
        try:
            from structurer.fetch.browser import BrowserFetcher
        except ImportError as error:
            raise StructurerError(f"these pages need a browser, which is not available "
                                  f"({error})") from None
        return BrowserFetcher(settings)
    raise ValueError(f"no fetcher renders pages {mode!r}: ask for static or browser")


def fetcher_for(settings: Settings | None = None, *,
                pages: str | os.PathLike[str] | Mapping[str, str | os.PathLike[str]] | None = None
                ) -> HttpFetcher | ReplayFetcher:
    """A ReplayFetcher over ``pages`` (a directory, one file, or a URL -> file mapping)
    when given, else the static fetcher with ``settings``."""
    if pages is None:
        return open_fetcher(RenderMode.STATIC, settings)
    if isinstance(pages, Mapping):
        return ReplayFetcher(pages)
    path = Path(pages)
    return ReplayFetcher.from_directory(path) if path.is_dir() else ReplayFetcher.from_files([path])
