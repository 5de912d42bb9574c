"""Host scope: which hosts a fetch may reach, and the HTTP fetcher keeping to them.

A second loopback server on 127.0.0.2 plays another host (a canary): what the fetcher
must not ask, it must not ask at all, so the canary's request log must stay empty.
"""

from __future__ import annotations

import asyncio
import base64
from collections.abc import Coroutine, Iterator
from typing import Any

import pytest

from structurer.config import Settings
from structurer.errors import FetchError
from structurer.fetch import HttpFetcher, Page, fetch_sync
from structurer.fetch.scope import HostScope, same_host, same_site, split_userinfo
from tests.server import LoopbackServer, page, redirect

HTML = "<html><head><title>ok</title></head><body><p>hello</p></body></html>"


def run(coro: Coroutine[Any, Any, Any]) -> Any:
    return asyncio.run(coro)


@pytest.fixture
def shop() -> Iterator[LoopbackServer]:
    with LoopbackServer({"/ok": page(HTML), "/robots.txt": page("", status=404)}) as srv:
        yield srv


@pytest.fixture
def canary() -> Iterator[LoopbackServer]:
    with LoopbackServer({"/ok": page(HTML), "/robots.txt": page("User-agent: *\nDisallow: /\n")},
                        host="127.0.0.2") as srv:
        yield srv


# ----- the rule ------------------------------------------------------------------------------
@pytest.mark.parametrize(("entry", "url", "admitted"), [
    ("shop.example", "https://shop.example/p/1", True),
    ("shop.example", "http://cdn.shop.example/x.jpg", True),
    ("shop.example", "http://evilshop.example/", False),
    ("shop.example", "http://shop.example.evil.example/", False),
    ("shop.example", "http://shop.example:8080/", False),      # a bare name: default ports
    ("shop.example:8080", "http://shop.example:8080/", True),
    ("shop.example:8080", "http://cdn.shop.example:8080/", False),
    ("SHOP.example", "https://Shop.Example./", True),
    ("user:secret@shop.example", "https://shop.example/", True),
    ("http://shop.example/start", "https://shop.example/", True),
    ("1", "http://127.0.0.1/", False),                          # not a domain: itself only
    ("1", "http://10.0.0.1/", False),
    ("0.1", "http://127.0.0.1/", False),
    ("localhost", "http://localhost/", True),
    ("localhost", "http://evil.localhost/", False),
    ("127.0.0.1", "http://127.0.0.1/", True),
    ("127.0.0.1", "http://127.0.0.1:8001/", False),
    ("127.0.0.1", "http://1.127.0.0.1/", False),
    ("127.0.0.1:8001", "http://127.0.0.1:8001/c/", True),
    ("127.0.0.1:8001", "http://127.0.0.2:8001/", False),
    ("[::1]:8001", "http://[::1]:8001/", True),
    ("[::1]:8001", "http://[0:0::1]:8001/", True),
    ("[::1]:8001", "http://[::1]:8002/", False),
    ("::1", "http://[::1]/", True),
    ("[::1]", "http://[::2]/", False),
    ("shop.example", "ftp://shop.example/", False),
    ("shop.example", "javascript:alert(1)", False),
], ids=lambda v: str(v))
def test_an_entry_admits_its_host_exactly(entry: str, url: str, admitted: bool) -> None:
    assert HostScope([entry]).allows(url) is admitted


def test_without_entries_a_fetch_stays_on_its_site() -> None:
    start = "http://shop.example/"
    assert HostScope().allows("https://www.shop.example/p/1", start=start)
    assert HostScope().allows("https://shop.example/", start="http://www.shop.example:80/")
    assert not HostScope().allows("http://cdn.shop.example/", start=start)
    assert not HostScope().allows("http://shop.example:8080/", start=start)
    assert not HostScope().allows("http://www.127.0.0.1/", start="http://127.0.0.1/")
    assert not HostScope().allows(start)   # no entries and no start: nothing
    assert same_site("http://[::1]:81/a", "http://[0::1]:81/") and not same_host(
        "http://www.shop.example/", start)


def test_userinfo_is_split_off() -> None:
    assert split_userinfo("http://us%40er:p%3Ass@shop.example:81/a?b#c") == (
        "http://shop.example:81/a?b#c", ("us@er", "p:ss"))
    assert split_userinfo("http://shop.example/") == ("http://shop.example/", None)
    assert split_userinfo("http://[::1/") == ("http://[::1/", None)   # invalid: as it is


# ----- the HTTP fetcher ------------------------------------------------------------------------
def test_a_one_label_entry_admits_no_ip_address(shop: LoopbackServer) -> None:
    """``hosts: ['1']`` used to admit every host ending in '.1'."""
    with pytest.raises(FetchError) as info:
        run(HttpFetcher(Settings(allowed_hosts=["1"])).fetch(shop.url("/ok")))
    assert info.value.kind == "offsite" and shop.hits == []


def test_ipv6_hosts_are_matched_with_brackets_and_ports() -> None:
    with LoopbackServer({"/ok": page(HTML), "/robots.txt": page("", status=404)},
                        host="::1") as six:
        settings = Settings(allowed_hosts=[f"[::1]:{six.port}"])
        [fetched] = fetch_sync([six.url("/ok")], settings)
        assert isinstance(fetched, Page), fetched
        assert fetched.final_url == f"http://[::1]:{six.port}/ok" and "hello" in fetched.text
        [other] = fetch_sync([six.url("/ok")], Settings(allowed_hosts=["[::1]:1"]))
        assert isinstance(other, FetchError) and other.kind == "offsite"
    assert six.paths() == ["/robots.txt", "/ok"]


def test_a_redirect_to_another_host_is_refused_before_it_is_sent(
        shop: LoopbackServer, canary: LoopbackServer) -> None:
    """Without allowed hosts (``extract URL``) a fetch stays on the URL's own site."""
    shop.routes["/away"] = redirect(canary.url("/ok"))
    shop.routes["/other-port"] = redirect(f"http://127.0.0.1:{canary.port}/ok")
    shop.routes["/home"] = redirect("/ok", 301)
    moved, other_port, home = fetch_sync(
        [shop.url("/away"), shop.url("/other-port"), shop.url("/home")], Settings())
    assert isinstance(moved, FetchError) and moved.kind == "offsite"
    assert str(moved) == (f"{shop.url('/away')}: off-site redirect to {canary.url('/ok')} "
                          f"(allowed: the site of {shop.url('/away')})")
    assert isinstance(other_port, FetchError) and other_port.kind == "offsite"
    assert isinstance(home, Page) and home.final_url == shop.url("/ok")
    assert canary.hits == []


def test_robots_txt_redirected_off_the_host_counts_as_missing(
        shop: LoopbackServer, canary: LoopbackServer) -> None:
    """The canary's robots.txt disallows everything: following the redirect would refuse
    the page, and ask another host."""
    shop.routes["/robots.txt"] = redirect(canary.url("/robots.txt"))
    for settings in (Settings(), Settings(allowed_hosts=[shop.base, canary.base])):
        [fetched] = fetch_sync([shop.url("/ok")], settings)
        assert isinstance(fetched, Page) and fetched.status == 200
    shop.routes["/robots.txt"] = redirect("/real-robots.txt")
    shop.routes["/real-robots.txt"] = page("User-agent: *\nDisallow: /ok\n")
    [refused] = fetch_sync([shop.url("/ok")], Settings())
    assert isinstance(refused, FetchError) and refused.kind == "robots"   # same host: read
    assert canary.hits == []


def test_credentials_go_to_their_host_only_and_never_into_urls(
        shop: LoopbackServer, canary: LoopbackServer) -> None:
    shop.routes["/away"] = redirect(canary.url("/ok"))
    canary.routes["/robots.txt"] = page("", status=404)
    url = f"http://shopper:s3cret@127.0.0.1:{shop.port}/ok"

    async def go() -> tuple[Page, Page, FetchError]:
        async with HttpFetcher(Settings(allowed_hosts=[shop.base, canary.base])) as fetcher:
            first = await fetcher.fetch(url)
            again = await fetcher.fetch(shop.url("/away"))    # same origin, then elsewhere
            with pytest.raises(FetchError) as info:
                await fetcher.fetch(f"http://shopper:s3cret@127.0.0.1:{shop.port}/missing")
            return first, again, info.value

    first, away, missing = run(go())
    assert first.url == first.final_url == shop.url("/ok") and "s3cret" not in str(first.headers)
    assert away.final_url == canary.url("/ok")
    assert "s3cret" not in str(missing) and str(missing).startswith(shop.url("/missing"))
    token = "Basic " + base64.b64encode(b"shopper:s3cret").decode()
    assert [h.headers.get("Authorization") for h in shop.hits if h.path != "/robots.txt"] == [
        token, token, token]
    assert canary.hits and all("Authorization" not in h.headers for h in canary.hits)
