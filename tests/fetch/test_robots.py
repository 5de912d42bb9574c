"""robots.txt conventions (Google's): 2xx parsed, 4xx allow all, 429/5xx disallow all."""

from __future__ import annotations

import asyncio

import pytest

from structurer.fetch.robots import RobotsCache, origin_of, robots_url_of, rules_from_response

UA = "structurer/0.1.0 (product-data crawler)"
TEXT = b"User-agent: structurer\nDisallow: /cart\nCrawl-delay: 2\n\nUser-agent: *\nDisallow: /\n"


@pytest.mark.parametrize(("status", "allowed"), [
    (404, True), (410, True), (401, True), (403, True), (301, True),
    (429, False), (500, False), (503, False),
], ids=lambda v: str(v))
def test_status_conventions(status: int, allowed: bool) -> None:
    rules = rules_from_response(status, b"User-agent: *\nDisallow: /\n")
    assert rules.allowed("http://shop.test/p/1", UA) is allowed


def test_parsed_rules_match_our_agent() -> None:
    rules = rules_from_response(200, TEXT)
    assert rules.allowed("http://shop.test/p/1", UA)
    assert not rules.allowed("http://shop.test/cart", UA)
    assert not rules.allowed("http://shop.test/p/1", "OtherBot/1.0")
    assert rules.crawl_delay(UA) == 2.0


def test_origins() -> None:
    assert origin_of("HTTP://Shop.Test/a?b") == "http://shop.test:80"
    assert origin_of("https://shop.test:8443/") == "https://shop.test:8443"
    assert robots_url_of("http://shop.test:81/a/b?c") == "http://shop.test:81/robots.txt"


def test_cache_fetches_once_per_origin_and_reasks_after_errors() -> None:
    asked: list[str] = []
    answers = {"http://a.test/robots.txt": [(503, b""), (200, b"User-agent: *\nDisallow: /x")]}

    async def get(url: str) -> tuple[int, bytes]:
        asked.append(url)
        await asyncio.sleep(0.01)
        return answers[url].pop(0) if len(answers[url]) > 1 else answers[url][0]

    async def go() -> None:
        cache = RobotsCache(get, UA, error_ttl=0.05)
        results = await asyncio.gather(*(cache.allowed("http://a.test/p") for _ in range(5)))
        assert results == [False] * 5 and len(asked) == 1  # concurrent callers share one fetch
        await asyncio.sleep(0.06)
        assert await cache.allowed("http://a.test/p")
        assert not await cache.allowed("http://a.test/x")
        assert len(asked) == 2

    asyncio.run(go())
