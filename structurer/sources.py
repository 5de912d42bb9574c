"""The pages a person names on the command line: http(s) URLs or saved files.

Input: PAGE arguments (``analyze --pages``, ``extract``, ``extract-page``; in Python
:func:`structurer.api.fetch_pages`), :class:`~structurer.config.Settings` and an optional
base URL. Output: one :class:`Source` per argument, in order, or a one-line
:class:`~structurer.errors.FetchError` naming the argument.

- A URL is fetched politely (robots.txt, the user agent, size and redirect limits),
  following redirects only within the hosts of the URLs given (unless the settings name
  the allowed hosts).
- A file is read up to ``Settings.max_page_bytes`` (a larger one, or ``/dev/zero``, is
  refused), gunzipped when its name ends in ``.gz`` (the bound applies to what it
  unpacks to). Its URL, which resolves its relative links and names it in records, is:
  the base URL when one is given — a base URL ending in ``/`` (or naming no path) is the
  folder the files were saved from, and each file's URL is that folder plus the file's
  name (less ``.gz``); any other base URL is the URL of the one saved page, so it takes
  exactly one file —; else the URL of a leading ``<base href="...">`` (how the SWDE
  corpus saves pages); else the file's ``file://`` URL.

Only what a URL needs is imported for it: reading saved files loads no network code.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote, urljoin, urlsplit

from structurer.clean import decode_html
from structurer.errors import FetchError
from structurer.fetch.saved import base_href, is_url, read_file
from structurer.modes import MAX_PAGE_BYTES

if TYPE_CHECKING:
    from structurer.config import Settings

__all__ = ["Source", "base_href", "check_base_url", "is_url", "read_file", "read_pages",
           "saved_url"]

@dataclass(frozen=True)
class Source:
    """One page as read: its URL, its bytes and their decoded text."""

    given: str                    # the argument: a URL or a path
    url: str                      # the page's URL (after redirects, or the saved page's URL)
    body: bytes
    text: str
    encoding: str
    status: int = 200
    headers: Mapping[str, str] = field(default_factory=dict)
    rendered: bool = False


def _folder(base_url: str) -> bool:
    """Whether a base URL names the folder the files were saved from (ends in '/', or
    has no path at all), rather than one saved page."""
    return base_url.endswith("/") or not urlsplit(base_url).path


def saved_url(path: str, body: bytes, base_url: str | None = None) -> str:
    """The URL of the saved page at ``path`` (see the module docstring)."""
    if base_url:
        if not _folder(base_url):
            return base_url
        name = Path(path).name.removesuffix(".gz")
        return urljoin(base_url if base_url.endswith("/") else base_url + "/", quote(name))
    return base_href(body) or Path(path).resolve().as_uri()


def max_page_bytes(settings: Settings | None) -> int:
    """The page size bound: the settings', or its default without loading
    :mod:`structurer.config` (reading one saved page should cost nothing)."""
    return MAX_PAGE_BYTES if settings is None else settings.max_page_bytes


def check_base_url(base_url: str | None, files: int) -> None:
    """A base URL must be an absolute http(s) URL, and a page's URL names one file."""
    if base_url is None:
        return
    if not is_url(base_url) or not urlsplit(base_url).netloc:
        raise FetchError(f"--base-url {base_url!r} must be an absolute http(s) URL")
    if files > 1 and not _folder(base_url):
        raise FetchError(f"--base-url {base_url!r} is the URL of one saved page, but {files} "
                         "files were given: end it with '/' to give the folder they were "
                         "saved from")


def _fetched(urls: list[str], settings: Settings) -> list[Source]:
    from structurer.fetch import open_fetcher, run_sync
    from structurer.schema import RenderMode

    if not settings.allowed_hosts:  # a URL given is fetched, not what it redirects elsewhere to
        hosts = sorted({urlsplit(u).netloc.rpartition("@")[2].lower() for u in urls})
        settings = settings.model_copy(update={"allowed_hosts": hosts})

    async def run() -> list[Source]:
        async with open_fetcher(RenderMode.STATIC, settings) as http:
            pages = [await http.fetch(url) for url in urls]
        return [Source(url, p.final_url, p.body, p.text, p.encoding, p.status, p.headers,
                       p.rendered) for url, p in zip(urls, pages, strict=True)]

    return run_sync(run())


def read_pages(pages: Sequence[str], settings: Settings | None = None, *,
               base_url: str | None = None) -> list[Source]:
    """Every page named, in order: saved files read first (so a missing file fails before
    any request), then the URLs fetched."""
    files = [p for p in pages if not is_url(p)]
    check_base_url(base_url, len(files))
    saved: dict[str, Source] = {}
    for path in files:
        body = read_file(path, max_page_bytes(settings))
        text, encoding = decode_html(body)
        saved[path] = Source(path, saved_url(path, body, base_url), body, text, encoding)
    urls = [p for p in pages if is_url(p)]
    if urls and settings is None:
        from structurer.config import Settings

        settings = Settings()
    fetched = iter(_fetched(urls, settings) if urls and settings else [])
    return [saved[p] if p in saved else next(fetched) for p in pages]
