"""One saved page's bytes and URL, for :mod:`structurer.sources` (the files named on the
command line) and :class:`~structurer.fetch.replay.ReplayFetcher` alike.

Input: a file path (``.gz`` is gunzipped). Output: its bytes, at most a bound
(``max_page_bytes``), or a one-line :class:`~structurer.errors.FetchError`; the URL of a
leading ``<base href>`` (the SWDE corpus convention). A module of its own, with nothing
but these readers, so that reading one saved page loads no fetcher.
"""

from __future__ import annotations

import re
import zlib
from pathlib import Path
from urllib.parse import urlsplit

from structurer.errors import FetchError
from structurer.modes import MAX_PAGE_BYTES

_BASE_HREF = re.compile(rb"""\A(?:\xef\xbb\xbf)?\s*<base\s+href\s*=\s*["']?([^"'\s>]+)""",
                        re.IGNORECASE)


def is_url(text: str) -> bool:
    return urlsplit(text).scheme in ("http", "https")


def base_href(body: bytes) -> str | None:
    """The URL of a leading ``<base href>`` (SWDE convention), if the file starts with one."""
    match = _BASE_HREF.match(body[:4096])
    if match is None:
        return None
    url = match.group(1).decode("utf-8", "replace")
    return url if is_url(url) else None


def read_file(path: str, max_bytes: int) -> bytes:
    """At most ``max_bytes`` of the file (gunzipped for ``.gz``), or a one-line error."""
    try:
        if path.endswith(".gz"):
            import gzip  # only for a gzipped page

            with gzip.open(path, "rb") as zipped:
                body = zipped.read(max_bytes + 1)
        else:
            with Path(path).open("rb") as handle:
                body = handle.read(max_bytes + 1)
    except FileNotFoundError:
        raise FetchError("no such file", url=path) from None
    except IsADirectoryError:
        raise FetchError("is a directory, not a saved page", url=path) from None
    except (OSError, EOFError, zlib.error) as error:
        reason = getattr(error, "strerror", None) or str(error) or type(error).__name__
        raise FetchError(f"cannot read the saved page: {reason}", url=path) from None
    if len(body) > max_bytes:
        raise FetchError(f"larger than {max_bytes:,} bytes (the max_page_bytes setting); not "
                         "a page to read", url=path)
    return body


def read_saved(path: Path, max_bytes: int | None = None) -> bytes:
    """The bytes of a saved page, gunzipped when the name ends in ``.gz``, bounded like a
    fetched page (``max_bytes``, default ``Settings.max_page_bytes``): the one file reader
    is :func:`read_file`."""
    return read_file(str(path), MAX_PAGE_BYTES if max_bytes is None else max_bytes)
