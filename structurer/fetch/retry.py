"""When a failed HTTP request is asked again, and after how long.

Input: the attempt number, a response's status and ``Retry-After`` header, or the
transport error aiohttp raised. Output: seconds to wait (:meth:`RetryPolicy.wait`), and
for a transport error its :class:`~structurer.errors.FetchError` ``kind``, a one-line
message and whether asking again may help (:func:`transport_failure`).

Retried: connection errors, timeouts and the statuses of ``RetryPolicy.statuses``
(429/500/502/503/504), with exponential backoff and jitter, or the server's
``Retry-After`` (seconds or an HTTP date, capped); the statuses, the backoff and the cap
are settings (``retry_*``, :meth:`RetryPolicy.from_settings`), the same for both
runtimes. Never retried: a name that does not resolve, a TLS error, a malformed response
or URL (asking again gives the same answer).
"""

from __future__ import annotations

import email.utils
import errno
import random
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import aiohttp

if TYPE_CHECKING:
    from structurer.config import Settings

__all__ = ["RetryPolicy", "parse_retry_after", "transport_failure"]


@dataclass(frozen=True)
class RetryPolicy:
    """When and how long to wait before asking again (the count is ``Settings.retries``)."""

    statuses: frozenset[int] = frozenset({429, 500, 502, 503, 504})
    backoff: float = 0.5          # first wait; doubles each attempt
    max_backoff: float = 30.0
    max_retry_after: float = 60.0  # a longer Retry-After is cut to this
    max_crawl_delay: float = 30.0  # a longer robots.txt Crawl-delay is cut to this
    robots_error_ttl: float = 60.0  # re-ask a robots.txt that answered 429/5xx after this

    @classmethod
    def from_settings(cls, settings: Settings) -> RetryPolicy:
        """The policy a crawl's or an analysis's settings ask for (``retry_*``)."""
        return cls(statuses=frozenset(settings.retry_statuses), backoff=settings.retry_backoff,
                   max_backoff=settings.retry_backoff_max,
                   max_retry_after=settings.retry_after_max)

    def wait(self, attempt: int, retry_after: str | None) -> float:
        """Seconds to sleep after failed attempt number ``attempt`` (1-based)."""
        if retry_after:
            seconds = parse_retry_after(retry_after)
            if seconds is not None:
                return float(min(seconds, self.max_retry_after))
        cap = min(self.max_backoff, self.backoff * 2.0 ** (attempt - 1))
        return cap / 2 + random.uniform(0, cap / 2)


def parse_retry_after(value: str) -> float | None:
    """Retry-After as seconds from now: ``"120"`` or an HTTP date; None if unreadable."""
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def transport_failure(exc: BaseException, target: str, timeout: float) -> tuple[str, str, bool]:
    """(kind, one-line message, retryable) of a transport error requesting ``target``."""
    if isinstance(exc, TimeoutError):
        return "timeout", f"timed out after {timeout:g}s", True
    if isinstance(exc, aiohttp.ClientConnectorDNSError):
        return "dns", f"cannot resolve host {urlsplit(target).hostname}", False
    if isinstance(exc, aiohttp.ClientSSLError | aiohttp.ClientConnectorCertificateError):
        return "tls", f"TLS error: {exc}", False
    if isinstance(exc, aiohttp.InvalidURL):
        return "url", f"invalid URL {target}", False
    if isinstance(exc, aiohttp.ClientConnectorError):
        if exc.os_error.errno == errno.ECONNREFUSED:
            return "connection", "connection refused", True
        return "connection", f"cannot connect: {exc.os_error.strerror or exc}", True
    if isinstance(exc, aiohttp.ServerDisconnectedError):
        return "connection", "server disconnected", True
    if isinstance(exc, aiohttp.ClientPayloadError):
        return "connection", "incomplete response body", True
    if isinstance(exc, aiohttp.ClientResponseError):
        return "protocol", f"bad HTTP response: {exc.message}", False
    if isinstance(exc, ConnectionResetError):
        return "connection", "connection reset", True
    return "connection", f"{type(exc).__name__}: {exc}", True
