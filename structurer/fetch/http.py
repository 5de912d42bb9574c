"""HTTP fetching with aiohttp: polite, bounded, retrying, one connection pool.

Input: URLs and a :class:`~structurer.config.Settings`. Output: :class:`Page` objects
(body bytes, text decoded by :func:`structurer.clean.decode_html`, final URL after
redirects) or a one-line :class:`~structurer.errors.FetchError` (with ``kind`` and
``status``).

What every request goes through, in order:

1. URL checks: http(s) only, at most ``max_url_length`` characters, host in
   ``allowed_hosts`` (matched by :class:`~structurer.fetch.scope.HostScope`); with
   no ``allowed_hosts`` every hop must stay on the site of the URL asked for, so a
   redirect to another host is refused before it is requested;
2. robots.txt when ``obey_robots`` (see :mod:`structurer.fetch.robots`);
3. politeness (:mod:`structurer.fetch.polite`): at most ``per_host_concurrency``
   requests in flight per host and ``concurrency`` overall; request *starts* to one host
   are spaced by the larger of ``delay`` and the robots.txt ``Crawl-delay`` (capped by
   ``RetryPolicy.max_crawl_delay``);
4. the GET itself, redirects followed here (each hop checked again) up to
   ``max_redirects``; bodies streamed and refused past ``max_page_bytes``;
   robots.txt redirects are followed only on the same host (up to 5; one leading
   elsewhere counts as no robots.txt, like one that keeps redirecting);
5. retries on connection errors, timeouts and 429/500/502/503/504: at most
   ``retries`` more attempts, exponential backoff with jitter, or ``Retry-After``
   (seconds or an HTTP date, capped) when the server sends it (:mod:`structurer.fetch.retry`).

Credentials in a URL (``http://user:secret@host/``) are taken out of it: every Page,
error and redirect names the URL without them, and they are sent as Basic auth only to
that URL's host and port (and to later fetches there), never to another host.

Status handling: a final non-2xx status raises ``FetchError("HTTP 404 Not Found",
kind="http", status=404)``, unless the status is in ``allow_status`` (per call) or the
fetcher was built with ``raise_for_status=False``; then the page is returned as is.
"""

from __future__ import annotations

import asyncio
import base64
import concurrent.futures
import time
from collections import Counter
from collections.abc import Collection, Coroutine, Iterable
from dataclasses import asdict, dataclass, field
from http import HTTPStatus
from types import TracebackType
from typing import Any, NamedTuple, TypeVar
from urllib.parse import urljoin, urlsplit

import aiohttp
from multidict import CIMultiDict

from structurer.clean import decode_html
from structurer.config import Settings
from structurer.errors import FetchError
from structurer.fetch.base import Page, fetch_each
from structurer.fetch.polite import HostSlots
from structurer.fetch.retry import RetryPolicy, transport_failure
from structurer.fetch.robots import MAX_ROBOTS_BYTES, RobotsCache, RobotsRules, origin_of
from structurer.fetch.scope import HostScope, same_host, split_userinfo, strip_userinfo
from structurer.logs import logger

log = logger(__name__)

__all__ = ["FetchStats", "HttpFetcher", "RetryPolicy", "fetch_sync", "run_sync"]

REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
T = TypeVar("T")


@dataclass
class FetchStats:
    """Counters for progress displays; ``errors`` counts failed fetches by kind."""

    requests: int = 0        # HTTP requests sent: retries, redirect hops, robots.txt included
    pages: int = 0           # fetch() calls that returned a Page
    retries: int = 0
    redirects: int = 0
    bytes: int = 0           # body bytes received (decompressed)
    robots_fetches: int = 0
    in_flight: int = 0
    errors: Counter[str] = field(default_factory=Counter)

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["errors"] = dict(self.errors)
        return data


class _Response(NamedTuple):
    status: int
    reason: str
    headers: CIMultiDict[str]
    body: bytes
    attempts: int


class HttpFetcher:
    """The aiohttp :class:`Fetcher`; ``async with HttpFetcher(s) as f: await f.fetch(url)``."""

    def __init__(self, settings: Settings | None = None, *, raise_for_status: bool = True,
                 retry: RetryPolicy | None = None, headers: dict[str, str] | None = None) -> None:
        self.settings = settings or Settings()
        self.raise_for_status = raise_for_status
        self.retry = retry or RetryPolicy.from_settings(self.settings)
        self.headers = {"User-Agent": self.settings.user_agent, "Accept": ACCEPT,
                        **(headers or {})}
        self.stats = FetchStats()
        self.robots = RobotsCache(self._get_robots, self.settings.user_agent,
                                  error_ttl=self.retry.robots_error_ttl)
        self._session: aiohttp.ClientSession | None = None
        self._slots = HostSlots(self.settings.concurrency, self.settings.per_host_concurrency,
                                self._delay_for)
        self.scope = HostScope(self.settings.allowed_hosts)
        self._auth: dict[str, str] = {}   # origin -> Authorization from a URL's userinfo

    # ----- lifecycle -------------------------------------------------------------------
    async def __aenter__(self) -> HttpFetcher:
        self._open()
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        await self.close()

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None

    def _open(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            s = self.settings
            connector = aiohttp.TCPConnector(limit=s.concurrency, ttl_dns_cache=300,
                                             limit_per_host=s.per_host_concurrency)
            self._session = aiohttp.ClientSession(
                connector=connector, headers=self.headers,
                timeout=aiohttp.ClientTimeout(total=s.timeout),
                # no session: cookies are neither kept nor sent (pages fetch-order free)
                cookie_jar=aiohttp.CookieJar(unsafe=True) if s.session
                else aiohttp.DummyCookieJar())
        return self._session

    # ----- public API ------------------------------------------------------------------
    async def fetch(self, url: str, *, allow_status: Collection[int] = ()) -> Page:
        """GET ``url``; statuses in ``allow_status`` come back as Pages instead of errors."""
        started = time.monotonic()
        url = self._credentials(url)
        try:
            page = await self._fetch(url, allow_status, started)
        except FetchError as error:
            self.stats.errors[error.kind] += 1
            raise
        self.stats.pages += 1
        return page

    async def fetch_all(self, urls: Iterable[str], *, allow_status: Collection[int] = ()
                        ) -> list[Page | FetchError]:
        """Fetch concurrently (bounded by the settings); errors are returned in place."""
        return await fetch_each(lambda url: self.fetch(url, allow_status=allow_status), urls)

    def _credentials(self, url: str) -> str:
        """``url`` without userinfo; its credentials are kept for its origin only."""
        url, userinfo = split_userinfo(url)
        if userinfo is not None:
            pair = ":".join(userinfo).encode("utf-8")
            self._auth[origin_of(url)] = "Basic " + base64.b64encode(pair).decode("ascii")
        return url

    async def allowed_by_robots(self, url: str) -> bool:
        """True unless robots.txt (fetched if needed) disallows ``url`` for our agent."""
        return await self.robots.allowed(url)

    async def crawl_delay(self, url: str) -> float:
        """Seconds between request starts to ``url``'s host: delay vs Crawl-delay."""
        if self.settings.obey_robots:
            await self.robots.rules_for(url)
        return self._delay_for(url)

    # ----- one fetch: checks, robots, redirects ----------------------------------------
    async def _fetch(self, url: str, allow_status: Collection[int], started: float) -> Page:
        current = url
        redirects = 0
        while True:
            self.check_url(url, current, redirected=redirects > 0)
            if self.settings.obey_robots:
                rules = await self._robots_rules(url, current)
                if not rules.allowed(current, self.settings.user_agent):
                    where = "" if current == url else f" (redirected to {current})"
                    why = f"; {rules.reason}" if rules.reason else ""
                    raise FetchError(f"disallowed by robots.txt{where}{why}", url=url,
                                     kind="robots")
            response = await self._get(url, current, max_bytes=self.settings.max_page_bytes)
            location = response.headers.get("Location")
            if response.status not in REDIRECT_STATUSES or not location:
                break
            redirects += 1
            if redirects > self.settings.max_redirects:
                raise FetchError(f"too many redirects ({redirects})", url=url,
                                 kind="redirects", status=response.status)
            self.stats.redirects += 1
            current = strip_userinfo(urljoin(current, location.strip()))
        status = response.status
        if not 200 <= status < 300 and self.raise_for_status and status not in allow_status:
            after = f" (after {response.attempts} attempts)" if response.attempts > 1 else ""
            raise FetchError(f"HTTP {status} {response.reason}{after}", url=url,
                             kind="http", status=status)
        content_type = response.headers.get("Content-Type", "")
        text, encoding = decode_html(response.body, content_type or None)
        return Page(url=url, final_url=current, status=status, body=response.body, text=text,
                    encoding=encoding,
                    headers={str(k): v for k, v in response.headers.items()},
                    elapsed=time.monotonic() - started)

    def check_url(self, url: str, target: str, *, redirected: bool) -> None:
        limit = self.settings.max_url_length
        if len(target) > limit:
            what = "redirect to a URL" if redirected else "URL"
            raise FetchError(f"{what} longer than {limit} characters", url=url, kind="url")
        try:
            parts = urlsplit(target)
            _ = parts.port  # a port that is no number raises here
        except ValueError:
            raise FetchError(f"invalid URL {target}", url=url, kind="url") from None
        if parts.scheme not in ("http", "https"):
            raise FetchError(f"unsupported URL scheme {parts.scheme!r} in {target}",
                             url=url, kind="url")
        if not parts.hostname:
            raise FetchError(f"invalid URL {target} (no host)", url=url, kind="url")
        if not self.scope.allows(target, start=url):
            what = f"off-site redirect to {target}" if redirected else \
                f"off-site host {parts.netloc.rsplit('@', 1)[-1]}"
            allowed = self.scope.describe() or f"the site of {url}"
            raise FetchError(f"{what} (allowed: {allowed})", url=url, kind="offsite")

    async def _robots_rules(self, url: str, target: str) -> RobotsRules:
        try:
            return await self.robots.rules_for(target)
        except FetchError as error:  # the host is unreachable: say so for this page
            raise FetchError(error.message, url=url, kind=error.kind,
                             status=error.status) from None

    async def _get_robots(self, robots_url: str) -> tuple[int, bytes]:
        """robots.txt: redirects followed up to 5 times on the same host only (RFC 9309
        follows 5 anywhere; another host is never asked), body cut at 500 KiB. A redirect
        off the host, like one still redirecting after 5, means no robots.txt (404)."""
        self.stats.robots_fetches += 1
        current = robots_url
        for _ in range(6):
            response = await self._get(robots_url, current, max_bytes=MAX_ROBOTS_BYTES,
                                       truncate=True)
            location = response.headers.get("Location")
            if response.status not in REDIRECT_STATUSES or not location:
                return response.status, response.body
            current = strip_userinfo(urljoin(current, location.strip()))
            if not same_host(current, robots_url):
                log.info("robots.txt %s redirects off the host to %s: taken as missing",
                         robots_url, current)
                return 404, b""
        return 404, b""  # still redirecting: no robots.txt (Google's convention)

    # ----- one URL: retries, politeness, streaming -------------------------------------
    async def _get(self, url: str, target: str, *, max_bytes: int,
                   truncate: bool = False) -> _Response:
        """GET ``target`` with retries; errors name ``url`` (what the caller asked for)."""
        attempts = self.settings.retries + 1
        for attempt in range(1, attempts + 1):
            try:
                response = await self._get_once(url, target, max_bytes, truncate, attempt)
            except FetchError:
                raise
            except (aiohttp.ClientError, TimeoutError, OSError) as exc:
                kind, message, retryable = transport_failure(exc, target, self.settings.timeout)
                if not retryable or attempt == attempts:
                    after = f" (after {attempt} attempts)" if attempt > 1 else ""
                    raise FetchError(message + after, url=url, kind=kind) from None
                wait = self.retry.wait(attempt, None)
            else:
                if response.status not in self.retry.statuses or attempt == attempts:
                    return response
                wait = self.retry.wait(attempt, response.headers.get("Retry-After"))
            self.stats.retries += 1
            log.debug("retrying %s in %.2fs (attempt %d of %d)", target, wait, attempt + 1,
                      attempts)
            await asyncio.sleep(wait)
        raise AssertionError("unreachable")  # the loop always returns or raises

    async def _get_once(self, url: str, target: str, max_bytes: int, truncate: bool,
                        attempt: int) -> _Response:
        session = self._open()
        async with self._slots.slot(target):
            self.stats.requests += 1
            self.stats.in_flight += 1
            try:
                auth = self._auth.get(origin_of(target))
                async with session.get(target, allow_redirects=False,
                                       headers={"Authorization": auth} if auth else None
                                       ) as resp:
                    body = await self._read_body(url, resp, max_bytes, truncate)
                    headers = CIMultiDict(resp.headers)
                    reason = resp.reason or _phrase(resp.status)
                    return _Response(resp.status, reason, headers, body, attempt)
            finally:
                self.stats.in_flight -= 1

    async def _read_body(self, url: str, resp: aiohttp.ClientResponse, max_bytes: int,
                         truncate: bool) -> bytes:
        declared = resp.content_length
        encoded = "Content-Encoding" in resp.headers
        if declared is not None and declared > max_bytes and not truncate:
            resp.close()
            raise FetchError(f"page larger than {max_bytes} bytes "
                             f"(Content-Length {declared})", url=url, kind="too_large")
        if declared is not None and not encoded and declared <= max_bytes:
            body = await resp.read()  # the parser stops at Content-Length
        else:
            chunks: list[bytes] = []
            size = 0
            async for chunk in resp.content.iter_any():
                size += len(chunk)
                chunks.append(chunk)
                if size > max_bytes:
                    resp.close()  # drop the connection: never read the rest
                    if truncate:
                        break
                    raise FetchError(f"page larger than {max_bytes} bytes", url=url,
                                     kind="too_large")
            body = b"".join(chunks)[:max_bytes]
        self.stats.bytes += len(body)
        return body

    def _delay_for(self, target: str) -> float:
        delay = self.settings.delay
        if self.settings.obey_robots:
            rules = self.robots.cached(target)
            crawl_delay = rules.crawl_delay(self.settings.user_agent) if rules else None
            if crawl_delay:
                delay = max(delay, min(crawl_delay, self.retry.max_crawl_delay))
        return delay


def _phrase(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return ""


def run_sync(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine to completion from sync code (in a worker thread inside a loop)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coro).result()


def fetch_sync(urls: Iterable[str], settings: Settings | None = None, *,
               allow_status: Collection[int] = ()) -> list[Page | FetchError]:
    """Fetch URLs from sync code (the CLI): one result per URL, in order, errors in place.
    Without ``allowed_hosts`` in ``settings`` each URL stays on its own site: a redirect
    to another host is refused, not followed."""
    url_list = list(urls)

    async def run() -> list[Page | FetchError]:
        async with HttpFetcher(settings) as fetcher:
            return await fetcher.fetch_all(url_list, allow_status=allow_status)

    return run_sync(run())
