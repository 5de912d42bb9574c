"""Saved pages as a :class:`Fetcher`: tests, ``analyze --pages`` and offline corpora.

Input: a mapping URL -> file, a directory (with an optional ``index.json``), or plain
file paths. Output: :class:`Page` objects read from disk, decoded with
:func:`structurer.clean.decode_html`; a URL that is not saved raises a one-line
:class:`~structurer.errors.FetchError`.

A page can be asked for by its URL (a key of the mapping or index), by a file path,
or by a ``file://`` URL. Files ending in ``.gz`` are gunzipped. When a file starts
with ``<base href="URL">`` (the SWDE corpus convention, ``*.htm.gz``) that URL is the
page's ``final_url``, and the file can be asked for by it too.

``index.json`` is either ``{"URL": "relative/path.html", ...}`` or a list of entries
``{"url", "path", "status"?, "content_type"?, "final_url"?, "rendered"?}``.

:func:`~structurer.fetch.saved.read_file` is the one reader of a saved page's bytes
(bounded, ``.gz`` unpacked, one-line errors) and :func:`~structurer.fetch.saved.base_href`
the one reader of its leading ``<base href>``; :mod:`structurer.sources` reads the files
named on the command line with them.
"""

from __future__ import annotations

import gzip
import json
import os
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any
from urllib.parse import unquote, urldefrag, urlsplit

from structurer.clean import decode_html
from structurer.errors import FetchError
from structurer.fetch.base import Page
from structurer.fetch.saved import base_href as base_href  # re-exported: the readers of one
from structurer.fetch.saved import is_url as is_url  # saved page live in fetch.saved, which
from structurer.fetch.saved import read_file as read_file  # the command line loads alone
from structurer.fetch.saved import read_saved as read_saved

PathLike = str | os.PathLike[str]


@dataclass(frozen=True)
class SavedPage:
    """Where one saved page lives and what its response looked like."""

    path: Path
    status: int = 200
    content_type: str | None = None   # None: decode by BOM, <meta> or sniffing
    final_url: str | None = None
    rendered: bool = False


def _peek(path: Path, size: int = 4096) -> bytes:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rb") as handle:
        return handle.read(size)


class ReplayFetcher:
    """Serve saved pages; ``fetched`` lists the URLs asked for, in order."""

    def __init__(self, pages: Mapping[str, PathLike | SavedPage] | None = None, *,
                 root: PathLike | None = None) -> None:
        root_dir = Path(root) if root is not None else None
        self.pages: dict[str, SavedPage] = {}
        for url, where in (pages or {}).items():
            saved = where if isinstance(where, SavedPage) else SavedPage(Path(where))
            if root_dir is not None and not saved.path.is_absolute():
                saved = SavedPage(root_dir / saved.path, saved.status, saved.content_type,
                                  saved.final_url, saved.rendered)
            self.pages[urldefrag(url)[0]] = saved
        self.fetched: list[str] = []

    @classmethod
    def from_directory(cls, directory: PathLike, index: str = "index.json") -> ReplayFetcher:
        """Pages listed in ``directory/index.json``; without one, every file in the tree,
        known by its ``file://`` URL and by its leading ``<base href>`` if any."""
        root = Path(directory)
        index_path = root / index
        if index_path.is_file():
            return cls(_load_index(index_path), root=root)
        files = sorted(p for p in root.rglob("*") if p.is_file() and not p.name.startswith("."))
        return cls.from_files(files)

    @classmethod
    def from_files(cls, paths: Iterable[PathLike]) -> ReplayFetcher:
        """Each file known by its ``file://`` URL and by its leading ``<base href>``."""
        pages: dict[str, PathLike | SavedPage] = {}
        for item in paths:
            path = Path(item).resolve()
            href = base_href(_peek(path))
            saved = SavedPage(path, final_url=href)
            pages[path.as_uri()] = saved
            if href is not None:
                pages.setdefault(href, saved)
        return cls(pages)

    async def fetch(self, url: str) -> Page:
        started = time.monotonic()
        self.fetched.append(url)
        saved = self._lookup(url)
        body = read_saved(saved.path)     # a one-line FetchError naming the file
        final_url = saved.final_url or base_href(body)
        if final_url is None:
            final_url = url if urlsplit(url).scheme else saved.path.resolve().as_uri()
        text, encoding = decode_html(body, saved.content_type)
        headers = {"Content-Type": saved.content_type} if saved.content_type else {}
        return Page(url=url, final_url=final_url, status=saved.status, body=body, text=text,
                    encoding=encoding, headers=headers, rendered=saved.rendered,
                    elapsed=time.monotonic() - started)

    def _lookup(self, url: str) -> SavedPage:
        key = urldefrag(url)[0]
        saved = self.pages.get(key)
        if saved is not None:
            return saved
        parts = urlsplit(key)
        if parts.scheme == "file":
            from urllib.request import url2pathname  # network code: only for file URLs

            path = Path(url2pathname(unquote(parts.path)))
        elif not parts.scheme or len(parts.scheme) == 1:  # a plain path (or C:\ on Windows)
            path = Path(key)
        else:
            raise FetchError("not among the saved pages", url=url)
        saved = self.pages.get(path.resolve().as_uri())
        if saved is not None:
            return saved
        if not path.is_file():
            raise FetchError(f"no saved page at {path}", url=url)
        return SavedPage(path)

    async def close(self) -> None:
        return None

    async def __aenter__(self) -> ReplayFetcher:
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        await self.close()


def _load_index(path: Path) -> dict[str, PathLike | SavedPage]:
    try:
        data: Any = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise FetchError(f"{path}: unreadable index ({error})") from None
    if isinstance(data, dict):
        return {str(url): str(rel) for url, rel in data.items()}
    if not isinstance(data, list):
        raise FetchError(f"{path}: index must be an object or a list of entries")
    pages: dict[str, PathLike | SavedPage] = {}
    for n, entry in enumerate(data):
        if not isinstance(entry, dict) or "url" not in entry or "path" not in entry:
            raise FetchError(f"{path}: entry {n} needs 'url' and 'path'")
        pages[str(entry["url"])] = SavedPage(
            Path(entry["path"]), int(entry.get("status", 200)), entry.get("content_type"),
            entry.get("final_url"), bool(entry.get("rendered", False)))
    return pages
