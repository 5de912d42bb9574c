"""Downloader middlewares of the Scrapy runtime: the rule file's guards, and browser levels.

:class:`GuardMiddleware` checks every request the spider did not build itself (above
all redirects) against the hosts and URL length of its rule file, as ``structurer
crawl``'s fetcher checks every redirect hop; hosts match as
:class:`~structurer.fetch.scope.HostScope` says. Requests of no rule file — robots.txt,
which Scrapy asks for itself, and its redirects — must lie on some rule file's hosts, and
a robots.txt redirect on the host it was asked from (one elsewhere is refused, and
Scrapy then takes the robots.txt as missing, as ``structurer crawl`` does).
:class:`BrowserMiddleware` fetches the pages of levels whose ``render.mode`` is
``browser`` through the project's own browser fetcher (:func:`structurer.fetch.open_fetcher`:
Playwright and the Chromium :mod:`structurer.fetch.chromium` finds,
on the asyncio reactor), so both runtimes render pages the same way: one rendering
path, the same waiting for network idle, the same robots.txt and host checks; a
rendered response is flagged ``rendered``, and ``unsettled`` when the browser handed the
page over before its network went quiet (the spider may ask for it again).
:func:`failure_kind` names a failure the way ``structurer crawl`` does;
:func:`requeue` puts a page back in the queue (the spider does, when the
:class:`~structurer.crawler.traverse.PageReader` says a page that failed transiently, or
a blank render, is asked again: the policy ``structurer crawl`` follows), counted under
``REQUEUE`` in Scrapy's statistics, apart from ``retry/``, its own retries of HTTP requests;
:class:`BackoffMiddleware` makes such a page wait first, as ``structurer crawl`` does
(:func:`~structurer.crawler.outcomes.requeue_wait`). :class:`RetryBackoffMiddleware` is
Scrapy's RetryMiddleware whose retries of an HTTP request wait as ``structurer crawl``'s
fetcher waits between attempts (:meth:`~structurer.fetch.retry.RetryPolicy.wait`: doubling
with jitter, or the server's ``Retry-After``), not at once.
"""

from __future__ import annotations

import asyncio
from typing import Any

from scrapy import signals
from scrapy.downloadermiddlewares.retry import RetryMiddleware
from scrapy.exceptions import IgnoreRequest
from scrapy.http import HtmlResponse, Request
from scrapy.spidermiddlewares.httperror import HttpError
from twisted.internet.error import ConnectError, DNSLookupError, TCPTimedOutError, TimeoutError
from twisted.web._newclient import ResponseFailed

from structurer.config import Settings
from structurer.crawler.outcomes import requeue_wait
from structurer.errors import FetchError
from structurer.fetch import open_fetcher
from structurer.fetch.base import Expand, Expanding, Fetcher
from structurer.fetch.retry import RetryPolicy
from structurer.fetch.scope import HostScope, same_host
from structurer.schema import RenderMode

__all__ = ["EXPAND", "RENDER", "RENDERED", "REQUEUE", "REQUEUED", "UNSETTLED", "WAIT",
           "BackoffMiddleware", "BrowserMiddleware", "GuardMiddleware", "Refused",
           "RetryBackoffMiddleware", "failure_kind", "requeue", "retry_after", "retry_policy"]

RENDER = "structurer_render"     # request.meta: a RenderMode, static or browser
EXPAND = "structurer_expand"     # request.meta: an Expand's fields (load more / scroll)
SITE = "structurer_site"         # request.meta: the rule file's site
RENDERED = "rendered"            # response.flags: a browser produced the page
UNSETTLED = "unsettled"          # response.flags: handed over before its network went quiet
# Scrapy statistics of pages asked again by the crawl itself (a render that failed
# transiently, a blank render), as structurer crawl requeues them: REQUEUE/count,
# REQUEUE/reason_count/<kind>; Scrapy's own retries of HTTP requests stay under retry/
REQUEUE = "structurer/requeue"
REQUEUED = "structurer_requeued"   # request.meta: times the page was put back (Task.tries)
WAIT = "structurer_wait"           # request.meta: seconds to wait before fetching it again
# the errors recent Scrapy download handlers raise in place of Twisted's: by
# name, so that a release without some of them still runs
_DOWNLOAD_ERRORS = {"DownloadTimeoutError": "timeout", "DownloadFailedError": "connection",
                    "DownloadConnectionRefusedError": "connection",
                    "ResponseDataLossError": "connection", "CannotResolveHostError": "dns"}


class Refused(IgnoreRequest):
    """A request the rule file's guards refuse; ``kind`` as in the crawl statistics."""

    def __init__(self, kind: str, url: str) -> None:
        super().__init__(f"{kind}: {url}")
        self.kind = kind


def failure_kind(error: BaseException) -> str:
    """The failure kind ``structurer crawl`` would count for ``error``."""
    if isinstance(error, Refused):
        return error.kind
    if isinstance(error, HttpError):
        return f"http {error.response.status}"
    if isinstance(error, IgnoreRequest):
        return "robots" if "robots" in str(error).lower() else "ignored"
    if isinstance(error, DNSLookupError):
        return "dns"
    if isinstance(error, (TimeoutError, TCPTimedOutError)):
        return "timeout"
    if isinstance(error, (ConnectError, ResponseFailed, ConnectionError)):
        return "connection"
    if isinstance(error, FetchError):   # the browser fetcher's
        return error.failure
    return _DOWNLOAD_ERRORS.get(type(error).__name__, type(error).__name__)


def retry_after(error: BaseException) -> str | None:
    """The ``Retry-After`` header of the response an HTTP error carries, if any."""
    response = getattr(error, "response", None) if isinstance(error, HttpError) else None
    value = response.headers.get("Retry-After") if response is not None else None
    return value.decode("latin-1") if isinstance(value, bytes) else value


def retry_policy(scrapy_settings: Any) -> RetryPolicy:
    """The crawl's retry policy, from its ``STRUCTURER_SETTINGS`` (as ``structurer
    crawl`` takes it from its settings)."""
    return RetryPolicy.from_settings(
        Settings.model_validate(scrapy_settings.getdict("STRUCTURER_SETTINGS")))


def requeue(request: Any, spider: Any, reason: str, after: str | None = None) -> Any:
    """``request`` put back in the queue: a copy, counted under ``REQUEUE`` (``reason``:
    the failure kind, or ``blank_render``) and in its ``REQUEUED``; its HTTP retries start
    again, as a page ``structurer crawl`` requeues is fetched anew, it waits behind its
    level's other pages as Scrapy's retries do (``RETRY_PRIORITY_ADJUST``), and then
    ``WAIT`` seconds (:func:`~structurer.crawler.outcomes.requeue_wait`; ``after``: the
    server's ``Retry-After``)."""
    adjust = spider.crawler.settings.getint("RETRY_PRIORITY_ADJUST")
    again = request.replace(dont_filter=True, priority=request.priority + adjust)
    again.meta[REQUEUED] = int(request.meta.get(REQUEUED, 0)) + 1
    again.meta[WAIT] = requeue_wait(again.meta[REQUEUED], after,
                                    retry_policy(spider.crawler.settings))
    again.meta.pop("retry_times", None)
    stats = spider.crawler.stats
    stats.inc_value(f"{REQUEUE}/count")
    stats.inc_value(f"{REQUEUE}/reason_count/{reason}")
    return again


class GuardMiddleware:
    """Refuse requests off the rule file's hosts or too long (``Refused``)."""

    def __init__(self, crawler: Any) -> None:
        self.crawler = crawler
        self._scopes: dict[str | None, HostScope] = {}   # per site; None: every site's

    @classmethod
    def from_crawler(cls, crawler: Any) -> GuardMiddleware:
        return cls(crawler)

    def _scope(self, sites: dict[str, Any], site: str | None) -> HostScope:
        scope = self._scopes.get(site)
        if scope is None:
            chosen = [sites[site]] if site is not None else list(sites.values())
            scope = self._scopes[site] = HostScope(
                sorted({h for one in chosen for h in one.guards.hosts}))
        return scope

    def process_request(self, request: Any, spider: Any = None) -> None:
        site = request.meta.get(SITE)
        sites = getattr(self.crawler.spider, "sites", {})
        if site not in sites:   # robots.txt (and its redirects): no rule file's own
            first = (request.meta.get("redirect_urls") or [request.url])[0]
            if sites and not (self._scope(sites, None).allows(request.url)
                              and same_host(request.url, first)):
                # plain IgnoreRequest: Scrapy's robots.txt middleware takes it quietly
                raise IgnoreRequest(f"offsite: {request.url}")
            return
        guards = sites[site].guards
        if len(request.url) > guards.s.max_url_length:
            raise Refused("url_length", request.url)
        if not self._scope(sites, site).allows(request.url):
            raise Refused("offsite", request.url)


class BackoffMiddleware:
    """Wait ``WAIT`` seconds before fetching a page put back in the queue, or a retry of
    an HTTP request (:class:`RetryBackoffMiddleware`); each wait once (it is taken off
    the request). Its download slot waits, as ``structurer crawl``'s fetch task does."""

    @classmethod
    def from_crawler(cls, crawler: Any) -> BackoffMiddleware:
        return cls()

    async def process_request(self, request: Any, spider: Any = None) -> None:
        wait = float(request.meta.pop(WAIT, 0.0))
        if wait > 0:
            await asyncio.sleep(wait)


class RetryBackoffMiddleware(RetryMiddleware):
    """Scrapy's retries of an HTTP request (``RETRY_TIMES``, ``RETRY_HTTP_CODES``), each
    waiting ``WAIT`` seconds first (:class:`BackoffMiddleware` sleeps them): the wait
    ``structurer crawl``'s fetcher sleeps after failed attempt N
    (:meth:`~structurer.fetch.retry.RetryPolicy.wait`), so that a server that is failing
    is not asked again at once, the same in both runtimes (the crawl's settings'
    policy: :func:`retry_policy`)."""

    def __init__(self, settings: Any) -> None:
        super().__init__(settings)
        self.policy = retry_policy(settings)

    def process_response(self, request: Any, response: Any, spider: Any = None) -> Any:
        again = super().process_response(request, response)
        return self._wait(again, response.headers.get("Retry-After"))

    def process_exception(self, request: Any, exception: Exception,
                          spider: Any = None) -> Any:
        return self._wait(super().process_exception(request, exception), None)

    def _wait(self, again: Any, after: bytes | str | None) -> Any:
        """``again``, if it is a retry, told how long to wait before it is sent."""
        if isinstance(again, Request) and again.meta.get("retry_times"):
            text = after.decode("latin-1") if isinstance(after, bytes) else after
            again.meta[WAIT] = self.policy.wait(int(again.meta["retry_times"]), text)
        return again


class BrowserMiddleware:
    """Render requests marked ``browser`` with the project's browser fetcher."""

    def __init__(self, crawler: Any, settings: Settings) -> None:
        self.crawler, self.settings = crawler, settings
        self.fetcher: Fetcher | None = None

    @classmethod
    def from_crawler(cls, crawler: Any) -> BrowserMiddleware:
        settings = Settings.model_validate(crawler.settings.getdict("STRUCTURER_SETTINGS"))
        middleware = cls(crawler, settings)
        crawler.signals.connect(middleware.close, signal=signals.spider_closed)
        return middleware

    async def process_request(self, request: Any, spider: Any = None) -> Any:
        if request.meta.get(RENDER) != RenderMode.BROWSER:
            return None
        if self.fetcher is None:
            sites = getattr(self.crawler.spider, "sites", {}).values()
            hosts = sorted({h for site in sites for h in site.guards.hosts})
            session = self.settings.session or any(site.rules.session for site in sites)
            self.fetcher = open_fetcher(RenderMode.BROWSER, self.settings.model_copy(
                update={"allowed_hosts": hosts or self.settings.allowed_hosts,
                        "session": session}))
        expand = request.meta.get(EXPAND)
        if expand is not None and isinstance(self.fetcher, Expanding):
            page = await self.fetcher.fetch_expanded(request.url, Expand(**expand))
        else:
            page = await self.fetcher.fetch(request.url)
        flags = [RENDERED] if page.settled else [RENDERED, UNSETTLED]
        return HtmlResponse(page.final_url, status=page.status, body=page.text.encode("utf-8"),
                            encoding="utf-8", request=request, flags=flags,
                            headers={"Content-Type": "text/html; charset=utf-8"})

    async def close(self, spider: Any = None) -> None:
        if self.fetcher is not None:
            await self.fetcher.close()
            self.fetcher = None
