"""HttpFetcher against loopback servers: statuses, redirects, retries, limits, politeness."""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Callable, Coroutine, Iterator
from http.server import BaseHTTPRequestHandler
from typing import Any

import pytest

from structurer.clean import parse_html, visible_text
from structurer.config import Settings
from structurer.errors import FetchError
from structurer.fetch import Fetcher, HttpFetcher, Page, RetryPolicy, fetch_sync
from structurer.fetch.retry import parse_retry_after
from tests.server import Gauge, LoopbackServer, closed_port, page, redirect, send

FAST = RetryPolicy(backoff=0.01, max_backoff=0.05)
HTML = "<html><head><title>ok</title></head><body><p>hello</p></body></html>"


def run(coro: Coroutine[Any, Any, Any]) -> Any:
    return asyncio.run(coro)


async def fetch_one(settings: Settings, url: str, **kwargs: Any) -> Page:
    async with HttpFetcher(settings, retry=kwargs.pop("retry", FAST)) as fetcher:
        return await fetcher.fetch(url, **kwargs)


def fetch_error(settings: Settings, url: str, **kwargs: Any) -> FetchError:
    with pytest.raises(FetchError) as info:
        run(fetch_one(settings, url, **kwargs))
    return info.value


@pytest.fixture
def server() -> Iterator[LoopbackServer]:
    with LoopbackServer({"/ok": page(HTML), "/robots.txt": page("", status=404)}) as srv:
        yield srv


# ----- the demo shops -----------------------------------------------------------------
def test_is_a_fetcher() -> None:
    assert isinstance(HttpFetcher(), Fetcher)


@pytest.mark.parametrize("shop", ["outfitters", "huaxia"])
def test_demo_pages_fetch_and_decode(demo_server: Any, demo_truth: Any, shop: str) -> None:
    truth = demo_truth[shop]
    list_url, listing = next(iter(truth["list_pages"].items()))
    product = truth["products"][0]

    async def go() -> list[Page]:
        async with HttpFetcher(Settings()) as fetcher:
            return [await fetcher.fetch(u) for u in (truth["home"], list_url, product["url"])]

    home, lst, detail = run(go())
    assert [p.status for p in (home, lst, detail)] == [200, 200, 200]
    assert lst.final_url == list_url and detail.final_url == product["url"]
    text = visible_text(parse_html(lst.text, lst.final_url))
    for item in listing["items"]:
        assert item["name"] in text
    assert product["name"] in detail.text
    if shop == "huaxia":
        assert detail.encoding == "gb18030"  # GBK declared, decoded by its superset
        assert "华夏优品" in home.text and "\ufffd" not in home.text


def test_demo_404_is_one_line_error(demo_server: Any) -> None:
    url = demo_server.urls["outfitters"] + "/no/such/page"
    error = fetch_error(Settings(), url)
    assert str(error) == f"{url}: HTTP 404 Not Found"
    assert error.status == 404 and error.kind == "http" and error.url == url


# ----- statuses and errors --------------------------------------------------------------
def test_allow_status_and_raise_for_status(server: LoopbackServer) -> None:
    missing = server.url("/missing")
    assert run(fetch_one(Settings(), missing, allow_status=(404,))).status == 404

    async def lenient() -> Page:
        async with HttpFetcher(Settings(), raise_for_status=False) as fetcher:
            return await fetcher.fetch(missing)

    page404 = run(lenient())
    assert page404.status == 404 and "not found" in page404.text


def test_connection_refused_is_one_line() -> None:
    url = f"http://127.0.0.1:{closed_port()}/"
    error = fetch_error(Settings(retries=0), url)
    assert str(error) == f"{url}: connection refused"
    assert error.kind == "connection"
    error = fetch_error(Settings(retries=1, obey_robots=False), url)
    assert str(error) == f"{url}: connection refused (after 2 attempts)"


def test_timeout(server: LoopbackServer) -> None:
    server.routes["/hang"] = lambda h, s: (time.sleep(1.5), send(h, 200, HTML))
    error = fetch_error(Settings(timeout=0.3, retries=0), server.url("/hang"))
    assert str(error).endswith(": timed out after 0.3s") and error.kind == "timeout"


def test_user_agent_reaches_server(server: LoopbackServer) -> None:
    run(fetch_one(Settings(user_agent="structurer-test/9 (+tests)"), server.url("/ok")))
    assert {hit.headers["User-Agent"] for hit in server.hits} == {"structurer-test/9 (+tests)"}
    assert server.paths() == ["/robots.txt", "/ok"]


def test_fetch_sync_keeps_order_and_errors(server: LoopbackServer) -> None:
    urls = [server.url("/ok"), server.url("/missing"), server.url("/ok")]
    results = fetch_sync(urls, Settings())
    assert [type(r) for r in results] == [Page, FetchError, Page]
    assert isinstance(results[1], FetchError) and "HTTP 404" in str(results[1])
    assert [r.status for r in fetch_sync(urls[1:2], Settings(), allow_status={404})] == [404]


def test_stats_count_requests_and_errors(server: LoopbackServer) -> None:
    async def go() -> HttpFetcher:
        async with HttpFetcher(Settings(), retry=FAST) as fetcher:
            await fetcher.fetch(server.url("/ok"))
            with pytest.raises(FetchError):
                await fetcher.fetch(server.url("/missing"))
            return fetcher

    stats = run(go()).stats.as_dict()
    assert stats["requests"] == 3 and stats["pages"] == 1 and stats["robots_fetches"] == 1
    assert stats["errors"] == {"http": 1} and stats["bytes"] > len(HTML)


# ----- redirects, URL guards, off-site -----------------------------------------------------
def test_redirects_followed_and_limited(server: LoopbackServer) -> None:
    for n in range(1, 8):
        server.routes[f"/r{n}"] = redirect(f"/r{n - 1}" if n > 1 else "/ok")
    page1 = run(fetch_one(Settings(), server.url("/r3")))
    assert page1.final_url == server.url("/ok") and page1.url == server.url("/r3")
    assert page1.status == 200 and "hello" in page1.text
    error = fetch_error(Settings(max_redirects=5), server.url("/r7"))
    assert str(error) == f"{server.url('/r7')}: too many redirects (6)"
    assert "/ok" not in server.paths()[-2:]


def test_offsite_and_url_guards(server: LoopbackServer) -> None:
    server.routes["/away"] = redirect(f"http://localhost:{server.port}/ok", 301)
    settings = Settings(allowed_hosts=[f"127.0.0.1:{server.port}"])
    assert run(fetch_one(settings, server.url("/ok"))).status == 200
    error = fetch_error(settings, server.url("/away"))
    assert error.message == (f"off-site redirect to http://localhost:{server.port}/ok "
                             f"(allowed: 127.0.0.1:{server.port})")
    error = fetch_error(Settings(allowed_hosts=["shop.example"]), "http://evil.example/")
    assert error.kind == "offsite" and error.message.startswith("off-site host evil.example")
    # a bare host admits its default ports only: another port is another server
    asked = len(server.hits)
    error = fetch_error(Settings(allowed_hosts=["127.0.0.1"]), server.url("/ok"))
    assert error.kind == "offsite" and len(server.hits) == asked
    long_url = server.url("/" + "a" * 3000)
    assert fetch_error(Settings(), long_url).message == "URL longer than 2048 characters"
    assert fetch_error(Settings(), "ftp://127.0.0.1/x").kind == "url"
    assert not any("aaaa" in p for p in server.paths())


# ----- retries ----------------------------------------------------------------------------
def test_429_with_retry_after_then_success(server: LoopbackServer) -> None:
    def flaky(h: BaseHTTPRequestHandler, s: LoopbackServer) -> None:
        if s.counts["/flaky"] == 1:
            send(h, 429, "slow down", {"Retry-After": "1"})
        else:
            send(h, 200, HTML)

    server.routes["/flaky"] = flaky
    slow_backoff = RetryPolicy(backoff=8.0)  # would wait 4-8 s if Retry-After were ignored
    result = run(fetch_one(Settings(), server.url("/flaky"), retry=slow_backoff))
    assert result.status == 200
    first, second = [hit.started for hit in server.hits if hit.path == "/flaky"]
    assert 0.9 <= second - first < 3.0


def test_503_forever_gives_up_after_retries(server: LoopbackServer) -> None:
    server.routes["/down"] = page("down", status=503)
    error = fetch_error(Settings(retries=2), server.url("/down"))
    assert server.counts["/down"] == 3  # the first attempt and `retries` more
    assert error.message == "HTTP 503 Service Unavailable (after 3 attempts)"
    assert error.status == 503


def test_retry_after_parsing() -> None:
    assert parse_retry_after("120") == 120.0
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT") == 0.0  # in the past
    assert parse_retry_after("soon") is None
    assert RetryPolicy(max_retry_after=2.0).wait(1, "3600") == 2.0
    waits = [RetryPolicy(backoff=1.0, max_backoff=4.0).wait(n, None) for n in (1, 2, 3, 9)]
    assert 0.5 <= waits[0] <= 1.0 and 1.0 <= waits[1] <= 2.0 and 2.0 <= waits[3] <= 4.0


# ----- body size ----------------------------------------------------------------------------
def test_oversized_streamed_body_is_refused_early(server: LoopbackServer) -> None:
    total = 64 * 1024 * 1024
    chunk = b"x" * 65536

    def huge(h: BaseHTTPRequestHandler, s: LoopbackServer) -> None:
        h.send_response(200)
        h.send_header("Content-Type", "text/html")
        h.send_header("Connection", "close")
        h.end_headers()
        s.state["sent"] = 0
        try:
            while s.state["sent"] < total:
                h.wfile.write(chunk)
                s.state["sent"] += len(chunk)
        except OSError:
            s.state["broken"] = True

    server.routes["/huge"] = huge
    error = fetch_error(Settings(max_page_bytes=200_000), server.url("/huge"))
    assert error.message == "page larger than 200000 bytes" and error.kind == "too_large"
    for _ in range(100):
        if server.state.get("broken"):
            break
        time.sleep(0.02)
    assert server.state.get("broken") and server.state["sent"] < total // 4


def test_oversized_declared_body_is_refused_before_reading(server: LoopbackServer) -> None:
    def declared(h: BaseHTTPRequestHandler, s: LoopbackServer) -> None:
        h.send_response(200)
        h.send_header("Content-Length", str(10**9))
        h.end_headers()
        try:
            for _ in range(200):  # 10 s of a slow sender (all of it: ~14 hours)
                h.wfile.write(b"y" * 1000)
                time.sleep(0.05)
        except OSError:
            return

    server.routes["/declared"] = declared
    started = time.monotonic()
    error = fetch_error(Settings(max_page_bytes=1000), server.url("/declared"))
    assert error.message.startswith("page larger than 1000 bytes")
    assert time.monotonic() - started < 5  # refused at the header, not after the body


# ----- robots.txt ---------------------------------------------------------------------------
def test_robots_disallow_is_honoured_and_cached(server: LoopbackServer) -> None:
    server.routes["/robots.txt"] = page("User-agent: *\nDisallow: /private\n",
                                        content_type="text/plain")
    server.routes["/private"] = page(HTML)
    server.routes["/to-private"] = redirect("/private")

    async def go() -> HttpFetcher:
        async with HttpFetcher(Settings(), retry=FAST) as fetcher:
            assert (await fetcher.fetch(server.url("/ok"))).status == 200
            for path in ("/private", "/to-private"):
                with pytest.raises(FetchError, match=r"disallowed by robots\.txt") as info:
                    await fetcher.fetch(server.url(path))
                assert info.value.kind == "robots"
            assert await fetcher.allowed_by_robots(server.url("/ok"))
            return fetcher

    fetcher = run(go())
    assert "/private" not in server.paths()
    assert server.counts["/robots.txt"] == 1
    assert fetcher.stats.errors["robots"] == 2
    assert run(fetch_one(Settings(obey_robots=False), server.url("/private"))).status == 200
    assert server.counts["/private"] == 1


def test_robots_5xx_disallows_4xx_allows(server: LoopbackServer) -> None:
    server.routes["/robots.txt"] = page("oops", status=503)
    error = fetch_error(Settings(retries=0), server.url("/ok"))
    assert error.message == "disallowed by robots.txt; robots.txt unavailable: HTTP 503"
    server.routes["/robots.txt"] = page("no", status=403)
    assert run(fetch_one(Settings(), server.url("/ok"))).status == 200


# ----- politeness ----------------------------------------------------------------------------
def slow(gauge: Gauge) -> Callable[[BaseHTTPRequestHandler, LoopbackServer], None]:
    """A route working 0.15 s before it answers, counted in ``gauge`` while it works: a
    request counts until its answer is sent, never after (a gauge around the whole
    handler still counts one whose client has its answer and asks again)."""
    def route(h: BaseHTTPRequestHandler, s: LoopbackServer) -> None:
        with gauge:
            time.sleep(0.15)
        send(h, 200, HTML)
    return route


def test_per_host_and_global_concurrency() -> None:
    gauge = Gauge()
    with LoopbackServer({"/slow": slow(gauge)}) as one, \
            LoopbackServer({"/slow": slow(Gauge())}) as two:
        settings = Settings(per_host_concurrency=2, concurrency=8, obey_robots=False)

        async def go(settings: Settings, urls: list[str]) -> None:
            async with HttpFetcher(settings) as fetcher:
                results = await fetcher.fetch_all(urls)
                assert all(isinstance(r, Page) for r in results)

        run(go(settings, [one.url("/slow")] * 8))
        assert gauge.peak == 2  # never more than per_host_concurrency, and it was used
        shared = Gauge()
        one.routes["/slow"] = two.routes["/slow"] = slow(shared)
        settings = Settings(per_host_concurrency=4, concurrency=3, obey_robots=False)
        run(go(settings, [one.url("/slow"), two.url("/slow")] * 5))
        assert shared.peak == 3  # the global limit holds across hosts


def test_delay_spaces_request_starts(server: LoopbackServer) -> None:
    settings = Settings(delay=0.2, per_host_concurrency=4, obey_robots=False)

    async def go() -> None:
        async with HttpFetcher(settings) as fetcher:
            await fetcher.fetch_all([server.url("/ok")] * 4)

    started = time.monotonic()
    run(go())
    starts = [hit.started for hit in server.hits]
    gaps = [b - a for a, b in itertools.pairwise(starts)]
    assert len(gaps) == 3 and min(gaps) >= 0.18
    assert time.monotonic() - started < 2.0


def test_robots_crawl_delay_is_respected(server: LoopbackServer) -> None:
    server.routes["/robots.txt"] = page("User-agent: *\nCrawl-delay: 0.25\n",
                                        content_type="text/plain")

    async def go() -> float:
        async with HttpFetcher(Settings(delay=0.05)) as fetcher:
            await fetcher.fetch_all([server.url("/ok")] * 3)
            return await fetcher.crawl_delay(server.url("/ok"))

    assert run(go()) == 0.25
    starts = [hit.started for hit in server.hits if hit.path == "/ok"]
    assert min(b - a for a, b in itertools.pairwise(starts)) >= 0.22


# ----- cookies: none unless a session is asked for -------------------------------------
def _cookie_routes(server: LoopbackServer) -> None:
    server.routes["/set"] = page(HTML, **{"Set-Cookie": "seen=42; Path=/"})


@pytest.mark.parametrize("session", [False, True])
def test_cookies_are_sent_back_only_with_a_session(server: LoopbackServer,
                                                   session: bool) -> None:
    _cookie_routes(server)

    async def go() -> None:
        settings = Settings(obey_robots=False, session=session)
        async with HttpFetcher(settings, retry=FAST) as fetcher:
            await fetcher.fetch(server.url("/set"))
            await fetcher.fetch(server.url("/ok"))

    run(go())
    sent = [hit.headers.get("Cookie") for hit in server.hits if hit.path == "/ok"]
    assert sent == (["seen=42"] if session else [None])
