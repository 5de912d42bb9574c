"""The Scrapy runtime's downloader middlewares: the rule file's guards on every request
(redirects included), browser levels through the project's own browser fetcher, and
failures named as ``structurer crawl`` names them."""

from __future__ import annotations

import asyncio
import dataclasses
from types import SimpleNamespace
from typing import Any

import pytest
from scrapy import Request
from scrapy.exceptions import IgnoreRequest
from scrapy.http import Response
from scrapy.spidermiddlewares.httperror import HttpError
from twisted.internet.error import ConnectionRefusedError, TimeoutError

from structurer.config import Settings
from structurer.crawler.scrapy.middleware import (
    RENDER,
    SITE,
    BrowserMiddleware,
    GuardMiddleware,
    Refused,
    failure_kind,
)
from structurer.crawler.scrapy.state import MemoryState
from structurer.crawler.scrapy.worker import Site
from structurer.errors import FetchError, RenderTimeout
from structurer.fetch.base import Page
from structurer.fetch.retry import RetryPolicy
from structurer.rules import rules_from_text
from tests.conftest import rule_text

RULES = rule_text("shop.test", """
  list:
    item_xpath: //li
    fields:
      name: {xpath: .//h2, kind: text}
""")


def _crawler() -> Any:
    site = Site(rules_from_text(RULES), Settings(max_url_length=80), MemoryState())
    return SimpleNamespace(spider=SimpleNamespace(sites={site.name: site}),
                           settings=None, signals=SimpleNamespace(connect=lambda *a, **k: None))


def test_guards_refuse_offsite_and_long_urls() -> None:
    guard = GuardMiddleware(_crawler())
    meta = {SITE: "shop.test"}
    assert guard.process_request(Request("http://shop.test/c/1", meta=meta)) is None
    assert guard.process_request(Request("http://cdn.shop.test/x", meta=meta)) is None
    with pytest.raises(Refused) as offsite:
        guard.process_request(Request("http://elsewhere.test/", meta=meta))
    assert failure_kind(offsite.value) == "offsite"
    with pytest.raises(Refused) as long:
        guard.process_request(Request("http://shop.test/" + "a" * 80, meta=meta))
    assert failure_kind(long.value) == "url_length"
    # Scrapy's own requests (robots.txt) stay on the rule files' hosts, and a robots.txt
    # redirect on its host: one elsewhere is ignored (Scrapy then takes it as missing)
    assert guard.process_request(Request("http://shop.test/robots.txt")) is None
    for url, first in [("http://elsewhere.test/robots.txt", None),
                       ("http://cdn.shop.test/robots.txt", "http://shop.test/robots.txt")]:
        meta = {"redirect_urls": [first]} if first else {}
        with pytest.raises(IgnoreRequest):
            guard.process_request(Request(url, meta=meta))


class FakeBrowser:
    def __init__(self) -> None:
        self.fetched: list[str] = []
        self.closed = False

    async def fetch(self, url: str) -> Page:
        self.fetched.append(url)
        html = "<html><body><li><h2>Rendered ✓</h2></li></body></html>"
        return Page(url, url + "?final", 200, html.encode(), html, "utf-8", rendered=True)

    async def close(self) -> None:
        self.closed = True


def test_browser_levels_go_through_the_project_fetcher(monkeypatch: pytest.MonkeyPatch) -> None:
    browser = FakeBrowser()
    modes: list[tuple[str, list[str]]] = []

    def open_fetcher(mode: str, settings: Settings) -> FakeBrowser:
        modes.append((mode, settings.allowed_hosts))
        return browser

    monkeypatch.setattr("structurer.crawler.scrapy.middleware.open_fetcher", open_fetcher)
    mw = BrowserMiddleware(_crawler(), Settings())

    async def run() -> tuple[Any, Any]:
        static = await mw.process_request(Request("http://shop.test/a", meta={RENDER: "static"}))
        rendered = await mw.process_request(Request("http://shop.test/b",
                                                    meta={RENDER: "browser"}))
        await mw.close()
        return static, rendered

    static, rendered = asyncio.run(run())
    assert static is None                        # Scrapy's own downloader fetches it
    assert isinstance(rendered, Response) and rendered.flags == ["rendered"]
    assert rendered.url == "http://shop.test/b?final"
    assert "Rendered ✓" in rendered.text
    assert modes == [("browser", ["shop.test"])] and browser.fetched == ["http://shop.test/b"]
    assert browser.closed


def test_a_page_handed_over_unsettled_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """The spider asks again for a rendered page without items the browser took before
    its network went quiet, as ``structurer crawl`` does: the response is flagged."""
    class BusyBrowser(FakeBrowser):
        async def fetch(self, url: str) -> Page:
            return dataclasses.replace(await super().fetch(url), settled=False)

    monkeypatch.setattr("structurer.crawler.scrapy.middleware.open_fetcher",
                        lambda mode, settings: BusyBrowser())
    mw = BrowserMiddleware(_crawler(), Settings())
    response = asyncio.run(mw.process_request(Request("http://shop.test/b",
                                                      meta={RENDER: "browser"})))
    assert response.flags == ["rendered", "unsettled"]


def test_a_page_that_failed_transiently_is_asked_again() -> None:
    """As ``structurer crawl`` requeues a page that failed transiently once its HTTP
    retries are spent (a 5xx, a render that ran out of time, a lost connection), at most
    ``crawl_retries`` times (the reader's word, one policy for both runtimes), the spider
    puts it back in the queue with its HTTP retries to start again, and counts it among
    the pages asked again, not among Scrapy's HTTP retries; other failures are settled."""
    from scrapy import Spider
    from scrapy.utils.test import get_crawler

    from structurer.crawler.frontier import DETAIL, Link
    from structurer.crawler.scrapy.middleware import REQUEUED
    from structurer.crawler.scrapy.spider import RuleSpider

    site = Site(rules_from_text(RULES), Settings(crawl_retries=2), MemoryState())
    spider, queued, settled = RuleSpider(), [], []
    spider.sites = {site.name: site}
    crawler = get_crawler(Spider)
    spider.crawler = SimpleNamespace(engine=SimpleNamespace(crawl=queued.append),
                                     stats=crawler.stats, settings=crawler.settings)
    spider.apply = lambda _site, o, _meta: settled.append(o.error)  # type: ignore[method-assign]

    def fail(url: str, error: BaseException) -> None:
        request = spider.request(site, Link(url, url, DETAIL, 1, ()), dont_filter=False)
        request.meta["retry_times"] = 3          # Scrapy's HTTP retries, spent
        while True:
            before = len(queued)
            spider.on_error(SimpleNamespace(request=request, value=error))
            if len(queued) == before:
                return
            request = queued[-1]
            assert "retry_times" not in request.meta and request.dont_filter

    busy = Response("http://shop.test/a", status=503, request=Request("http://shop.test/a"))
    fail("http://shop.test/a", HttpError(busy, "busy"))
    assert [r.meta[REQUEUED] for r in queued] == [1, 2] and settled == ["http 503"]
    assert [r.priority for r in queued] == [-1, -2]     # behind the other product pages
    fail("http://shop.test/b", RenderTimeout("page did not finish loading within 30s"))
    assert len(queued) == 4 and settled == ["http 503", "render_timeout"]
    gone = Response("http://shop.test/c", status=404, request=Request("http://shop.test/c"))
    fail("http://shop.test/c", HttpError(gone, "gone"))
    fail("http://shop.test/d", IgnoreRequest("Forbidden by robots.txt"))
    assert len(queued) == 4 and settled[2:] == ["http 404", "robots"]
    stats = spider.crawler.stats
    assert stats.get_value("structurer/requeue/count") == 4
    assert stats.get_value("structurer/requeue/reason_count/http 503") == 2
    assert stats.get_value("retry/count") is None
    assert spider.crawl_stats.requeued == 4


def test_failures_are_named_like_the_lightweight_crawl() -> None:
    response = Response("http://shop.test/x", status=503, request=Request("http://shop.test/x"))
    browser_errors = (RenderTimeout("page did not finish loading within 30s"),
                      FetchError("HTTP 502 Bad Gateway", kind="http", status=502),
                      FetchError("net::ERR_CONNECTION_RESET", kind="connection"))
    assert [failure_kind(e) for e in (
        HttpError(response, "bad"), IgnoreRequest("Forbidden by robots.txt"),
        TimeoutError(), ConnectionRefusedError(), *browser_errors, ValueError("x"))] == [
        "http 503", "robots", "timeout", "connection", "render_timeout", "http 502",
        "connection", "ValueError"]
    # what Scrapy's download handlers raise in place of Twisted's errors: the same kinds
    # (a timeout or a lost connection is transient, a name that does not resolve is not)
    from scrapy import exceptions
    from twisted.internet.error import DNSLookupError

    assert [failure_kind(e) for e in (
        exceptions.DownloadTimeoutError("slow"), exceptions.DownloadConnectionRefusedError(),
        exceptions.DownloadFailedError(), exceptions.CannotResolveHostError("shop.test"),
        DNSLookupError())] == ["timeout", "connection", "connection", "dns", "dns"]


@pytest.mark.parametrize("session", [False, True])
def test_cookies_only_when_the_rule_file_asks_for_a_session(session: bool) -> None:
    """Scrapy's cookie middleware neither keeps nor sends cookies for a rule file
    without ``session: true``; the browser fetcher gets the same word."""
    from scrapy.downloadermiddlewares.cookies import CookiesMiddleware

    from structurer.crawler.frontier import LIST, Link
    from structurer.crawler.scrapy.spider import RuleSpider

    text = RULES.replace("site: shop.test\n", f"site: shop.test\nsession: {str(session).lower()}\n")
    rules = rules_from_text(text)
    assert rules.session is session
    site = Site(rules, Settings(), MemoryState())
    spider = SimpleNamespace(parse_page=None, on_error=None)

    def request(path: str) -> Request:
        link = Link(path, f"http://shop.test{path}", LIST, 1, ())
        return RuleSpider.request(spider, site, link, dont_filter=False)  # type: ignore[arg-type]

    cookies = CookiesMiddleware()
    first = request("/a")
    cookies.process_request(first)
    cookies.process_response(first, Response(first.url, headers={"Set-Cookie": "seen=42; Path=/"},
                                             request=first))
    second = request("/b")
    cookies.process_request(second)
    assert second.headers.get("Cookie") == (b"seen=42" if session else None)

    opened: list[bool] = []
    crawler = SimpleNamespace(spider=SimpleNamespace(sites={site.name: site}), settings=None,
                              signals=SimpleNamespace(connect=lambda *a, **k: None))

    def open_fetcher(mode: str, settings: Settings) -> FakeBrowser:
        opened.append(settings.session)
        return FakeBrowser()

    mw = BrowserMiddleware(crawler, Settings())
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("structurer.crawler.scrapy.middleware.open_fetcher", open_fetcher)
        asyncio.run(mw.process_request(Request("http://shop.test/c", meta={RENDER: "browser"})))
    assert opened == [session]


def test_scrapy_retries_wait_as_the_lightweight_fetcher_does(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A retried HTTP request (a 5xx, a lost connection) carries the wait
    ``structurer crawl``'s fetcher sleeps after that attempt (RetryPolicy: doubling, or
    the server's Retry-After), which BackoffMiddleware then sleeps once; a response
    that is not retried, and a request out of retries, carry none."""
    from scrapy import Spider
    from scrapy.utils.test import get_crawler

    from structurer.crawler.scrapy.middleware import WAIT, BackoffMiddleware
    from structurer.crawler.scrapy.middleware import RetryBackoffMiddleware as Retry
    from structurer.crawler.scrapy.runner import scrapy_settings

    settings = scrapy_settings(["r.yaml"], "o.jsonl", Settings(retries=2))
    crawler = get_crawler(Spider, settings)
    crawler.spider = Spider("t")
    crawler.spider.crawler = crawler
    mw = Retry.from_crawler(crawler)
    monkeypatch.setattr("random.uniform", lambda low, high: high)    # no jitter
    request = Request("http://shop.test/a")
    waits = []
    for _ in range(2):
        request = mw.process_response(request, Response(request.url, status=503))
        waits.append(request.meta[WAIT])
    assert waits == [RetryPolicy().wait(1, None), RetryPolicy().wait(2, None)] == [0.5, 1.0]
    assert isinstance(mw.process_response(request, Response(request.url, status=503)),
                      Response)                                  # retries spent
    busy = Response("http://shop.test/b", status=429, headers={"Retry-After": "7"})
    assert mw.process_response(Request(busy.url), busy).meta[WAIT] == 7.0
    lost = mw.process_exception(Request("http://shop.test/c"), ConnectionRefusedError())
    assert lost.meta[WAIT] == 0.5
    ok = Response("http://shop.test/d", status=200)
    assert mw.process_response(Request(ok.url), ok) is ok
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    monkeypatch.setattr("asyncio.sleep", sleep)
    backoff = BackoffMiddleware()
    asyncio.run(backoff.process_request(lost))
    asyncio.run(backoff.process_request(lost))
    assert slept == [0.5] and WAIT not in lost.meta
