"""URLs as the crawl queue sees them: the dedup key, well-formedness, the trap pattern.

Input: a URL. Output: its canonical form (w3lib: the key pages are deduplicated by),
whether it parses at all (host and port), and its pattern (:func:`url_pattern`: pages
of one pattern count against one cap, which stops calendars, endless pagination and
generated slugs). Pure; shared by both engines.
"""

from __future__ import annotations

import re
from functools import lru_cache
from urllib.parse import urlsplit

from w3lib.url import canonicalize_url

__all__ = ["canonical", "url_pattern", "well_formed"]

_DIGITS = re.compile(r"\d+")
_RUNS = re.compile(r"[^\W_]+")       # runs of letters or digits, in any script


@lru_cache(maxsize=65536)
def canonical(url: str) -> str:
    return str(canonicalize_url(url))


def well_formed(url: str) -> bool:
    """Whether ``url`` parses, host and port included (``http://[::1/`` or port 99999
    do not): a link that does not is skipped, not the page it is on."""
    try:
        parts = urlsplit(url)
        return parts.port is not None or bool(parts.hostname)
    except ValueError:
        return False


def _shape(text: str) -> str:
    """Each run of letters or digits by its kind and length: 'aa' -> '*2', 'x7f' -> '~3'
    (letters and digits), any number -> '0'."""
    def token(run: re.Match[str]) -> str:
        word = run.group()
        return "0" if word.isdigit() else \
            f"{'~' if any(c.isdigit() for c in word) else '*'}{len(word)}"
    return _RUNS.sub(token, text)


def url_pattern(url: str) -> str:
    """The URL as a trap candidate: pages of one pattern count against one cap.

    Numbers become 0 everywhere (calendars, page numbers). Where pages generated from one
    template differ — the last path segment when there is no query, else the query's
    values — only the shape is kept (:func:`_shape`), so generated slugs (``/c/aa/``,
    ``/c/ab/``, ...) are one pattern while the words naming real sibling categories spread
    over many shapes; the rest of the path stays literal, so each category's pagination
    is its own pattern."""
    parts = urlsplit(url)
    path = _DIGITS.sub("0", parts.path.lower())
    if parts.query:
        query = "&".join(sorted(f"{k}={_shape(v)}" if v else k for k, _, v in (
            q.lower().partition("=") for q in parts.query.split("&") if q)))
    else:
        query = ""
        head, _, last = path[:-1].rpartition("/") if path.endswith("/") else \
            path.rpartition("/")
        path = f"{head}/{_shape(last)}{'/' if path.endswith('/') and last else ''}"
    return f"{parts.netloc.lower()}{path}?{query}"
