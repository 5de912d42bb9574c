"""robots.txt: fetched once per origin, parsed with protego, cached.

Input: a page URL and a coroutine that GETs a robots.txt URL (returning status and
body, following redirects, raising :class:`~structurer.errors.FetchError` on network
failure). Output: whether the page may be fetched and the ``Crawl-delay`` for our
user agent.

The conventions are Google's (RFC 9309):

* **2xx** — the file is parsed (its first 500 KiB; bad lines are skipped);
* **3xx** — redirects are followed by the fetch coroutine; if it still ends on a
  redirect the file counts as missing;
* **4xx other than 429** (404, 401, 403, 410, …) — no robots.txt: everything is allowed;
* **429 and 5xx** — the server cannot say: everything is disallowed *for now*; the
  verdict is cached for ``error_ttl`` seconds, then robots.txt is asked again;
* **network errors** (refused, timeout, DNS) — the error propagates to the page fetch
  (the page would fail the same way); nothing is cached, the next fetch asks again.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

from protego import Protego

from structurer.logs import logger

log = logger(__name__)

MAX_ROBOTS_BYTES = 500 * 1024

RobotsGet = Callable[[str], Awaitable[tuple[int, bytes]]]


@dataclass(frozen=True)
class RobotsRules:
    """What one origin's robots.txt says; ``parser`` None means no usable file."""

    status: int
    parser: Protego | None = None
    disallow_all: bool = False
    fetched_at: float = 0.0

    def allowed(self, url: str, user_agent: str) -> bool:
        if self.disallow_all:
            return False
        if self.parser is None:
            return True
        return bool(self.parser.can_fetch(url, user_agent))

    def crawl_delay(self, user_agent: str) -> float | None:
        if self.parser is None:
            return None
        delay = self.parser.crawl_delay(user_agent)
        return float(delay) if delay is not None else None

    @property
    def reason(self) -> str:
        """Why everything is disallowed ('' unless ``disallow_all``)."""
        return f"robots.txt unavailable: HTTP {self.status}" if self.disallow_all else ""


def origin_of(url: str) -> str:
    """``scheme://host:port`` of a URL, lower-cased, default ports made explicit."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    port = parts.port or (443 if scheme == "https" else 80)
    return f"{scheme}://{(parts.hostname or '').lower()}:{port}"


def robots_url_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}/robots.txt"


def rules_from_response(status: int, body: bytes, *, now: float = 0.0) -> RobotsRules:
    """Apply the status conventions above to one robots.txt response."""
    if 200 <= status < 300:
        text = body[:MAX_ROBOTS_BYTES].decode("utf-8", "replace")
        return RobotsRules(status, Protego.parse(text), fetched_at=now)
    if status == 429 or status >= 500:
        return RobotsRules(status, disallow_all=True, fetched_at=now)
    return RobotsRules(status, fetched_at=now)  # 3xx left over, 4xx: allow everything


class RobotsCache:
    """robots.txt per origin, fetched at most once at a time (concurrent callers wait)."""

    def __init__(self, get: RobotsGet, user_agent: str, *, error_ttl: float = 60.0) -> None:
        self._get = get
        self.user_agent = user_agent
        self.error_ttl = error_ttl
        self._rules: dict[str, RobotsRules] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    def cached(self, url: str) -> RobotsRules | None:
        """The rules already known for the URL's origin, without fetching."""
        return self._rules.get(origin_of(url))

    async def rules_for(self, url: str) -> RobotsRules:
        origin = origin_of(url)
        rules = self._rules.get(origin)
        if rules is not None and not self._expired(rules):
            return rules
        lock = self._locks.setdefault(origin, asyncio.Lock())
        async with lock:
            rules = self._rules.get(origin)
            if rules is not None and not self._expired(rules):
                return rules
            status, body = await self._get(robots_url_of(url))
            rules = rules_from_response(status, body, now=time.monotonic())
            log.debug("robots.txt of %s: HTTP %s", origin, status)
            self._rules[origin] = rules
            return rules

    async def allowed(self, url: str) -> bool:
        return (await self.rules_for(url)).allowed(url, self.user_agent)

    async def crawl_delay(self, url: str) -> float | None:
        """``Crawl-delay`` for our user agent on the URL's origin (None when unset)."""
        return (await self.rules_for(url)).crawl_delay(self.user_agent)

    def _expired(self, rules: RobotsRules) -> bool:
        return rules.disallow_all and time.monotonic() - rules.fetched_at > self.error_ttl
