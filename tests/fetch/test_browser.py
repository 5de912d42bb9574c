"""BrowserFetcher in real headless Chromium: rendering, waiting, politeness, errors, the
tab pool, and that every browser process is gone after errors, cancellation and Ctrl-C.

Needs Chromium (Debian's ``/usr/bin/chromium`` or ``$STRUCTURER_CHROMIUM``); these tests
fail without it, they never skip.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Coroutine, Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest

from structurer.clean import parse_html, visible_text
from structurer.config import Settings
from structurer.errors import FetchError, RenderTimeout
from structurer.fetch import Fetcher, HttpFetcher, Page
from structurer.fetch.browser import BrowserFetcher
from tests.server import (
    Gauge,
    LoopbackServer,
    Route,
    closed_port,
    page,
    redirect,
    send,
)

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
HTML = "<html><head><title>ok</title></head><body><p>hello</p></body></html>"
BUILT = """<html><body><div id="app"></div><script>
setTimeout(() => { document.getElementById('app').innerHTML =
  '<ul class="items"><li>one</li><li>two</li></ul>'; }, 300);
</script></body></html>"""
POLLING = """<html><body><p>busy</p><script>
(function poll() { fetch('/slow-api').then(() => setTimeout(poll, 50)); })();
</script></body></html>"""
IMAGES = """<html><head><link rel="stylesheet" href="/style.css"></head>
<body><img src="/img.png"><p>pictures</p></body></html>"""


def run(coro: Coroutine[Any, Any, Any]) -> Any:
    return asyncio.run(coro)


def no_robots(**kwargs: Any) -> Settings:
    return Settings(obey_robots=False, **kwargs)


@pytest.fixture
def server() -> Iterator[LoopbackServer]:
    routes = {"/ok": page(HTML), "/robots.txt": page("", status=404), "/built": page(BUILT)}
    with LoopbackServer(routes) as srv:
        yield srv


def hang(seconds: float) -> Route:
    """A route that answers only after ``seconds``."""
    def route(h: BaseHTTPRequestHandler, s: LoopbackServer) -> None:
        time.sleep(seconds)
        with contextlib.suppress(OSError):  # the browser is gone by now
            send(h, 200, HTML)
    return route


# ----- process bookkeeping -------------------------------------------------------------
def _children() -> dict[int, list[int]]:
    tree: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if fields[0] != "Z":
            tree.setdefault(int(fields[1]), []).append(int(entry))
    return tree


def chromium_under(pid: int) -> set[int]:
    """Live Chromium processes descending from ``pid``."""
    tree, found, todo = _children(), set(), [pid]
    while todo:
        for child in tree.get(todo.pop(), []):
            todo.append(child)
            try:
                cmdline = Path(f"/proc/{child}/cmdline").read_bytes()
            except OSError:
                continue
            if b"chrom" in cmdline:
                found.add(child)
    return found


def alive(pids: set[int]) -> set[int]:
    """Those of ``pids`` still running (zombies count as gone), waiting up to 5 s."""
    deadline = time.monotonic() + 5
    while True:
        living = set()
        for pid in pids:
            try:
                if Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z":
                    living.add(pid)
            except OSError:
                pass
        if not living or time.monotonic() > deadline:
            return living
        time.sleep(0.1)


# ----- rendering -------------------------------------------------------------------------
def test_is_a_fetcher() -> None:
    fetcher = BrowserFetcher()
    assert isinstance(fetcher, Fetcher) and not fetcher.running


def test_renders_client_built_demo_pages(demo_server: Any, demo_truth: Any) -> None:
    pixel, maple = demo_truth["pixel"], demo_truth["maple"]
    pixel_url = next(iter(pixel["list_pages"]))
    maple_url = next(iter(maple["list_pages"]))
    grid = '//div[@id="product-grid"]/div/div[@class="product"]'

    async def go() -> tuple[Page, Page, Page, BrowserFetcher]:
        async with HttpFetcher(Settings()) as http, BrowserFetcher(Settings()) as browser:
            raw = await http.fetch(pixel_url)
            rendered = await browser.fetch(pixel_url)
            by_xpath = await browser.fetch(maple_url, wait_for_xpath=grid)
        return raw, rendered, by_xpath, browser

    raw, rendered, by_xpath, browser = run(go())
    names = [item["name"] for item in pixel["list_pages"][pixel_url]["items"]]
    assert rendered.rendered and not raw.rendered
    assert rendered.status == 200 and rendered.final_url == pixel_url
    assert rendered.encoding == "utf-8" and rendered.body == rendered.text.encode()
    assert "text/html" in rendered.content_type and rendered.elapsed > 0
    shown = visible_text(parse_html(rendered.text))
    assert all(name in shown for name in names)
    assert not any(name in visible_text(parse_html(raw.text)) for name in names)
    tree = parse_html(by_xpath.text)
    assert len(tree.xpath(grid)) == len(maple["list_pages"][maple_url]["items"])
    assert browser.stats.pages == 2 and browser.stats.blocked > 0  # product images refused
    assert not browser.running


def test_waits_for_script_built_content(server: LoopbackServer) -> None:
    server.routes["/js-redirect"] = page("<html><body><p>wait</p><script>setTimeout(() => "
                                         "location.href = '/built', 100)</script></body></html>")

    async def go() -> tuple[Page, Page, Page]:
        async with BrowserFetcher(no_robots()) as browser:
            idle = await browser.fetch(server.url("/built"))
            xpath = await browser.fetch(server.url("/built"), "//ul[@class='items']/li[2]")
            moved = await browser.fetch(server.url("/js-redirect"))
        return idle, xpath, moved

    idle, xpath, moved = run(go())
    for result in (idle, xpath, moved):
        assert parse_html(result.text).xpath("//ul[@class='items']/li/text()") == ["one", "two"]
    assert moved.url == server.url("/js-redirect") and moved.final_url == server.url("/built")


def test_time_out_is_render_timeout_and_the_pool_recovers(server: LoopbackServer) -> None:
    def slow_api(h: BaseHTTPRequestHandler, s: LoopbackServer) -> None:
        time.sleep(0.3)
        send(h, 200, "{}", content_type="application/json")

    server.routes["/polling"] = page(POLLING)
    server.routes["/slow-api"] = slow_api
    server.routes["/stalled"] = lambda h, s: time.sleep(6.0)  # far past the timeout

    async def go() -> tuple[list[RenderTimeout], BrowserFetcher, Any, float]:
        errors = []
        async with BrowserFetcher(no_robots(browser_timeout=1.0)) as browser:
            for url, xpath in [("/ok", "//div[@id='never']"), ("/stalled", None)]:
                started = time.monotonic()
                with pytest.raises(RenderTimeout) as info:
                    await browser.fetch(server.url(url), wait_for_xpath=xpath)
                assert time.monotonic() - started < 5.0  # the timeout, not the server
                errors.append(info.value)
            # a loaded page that keeps polling is taken after half the time, not lost
            started, unsettled = time.monotonic(), browser.stats.unsettled
            polling = await browser.fetch(server.url("/polling"))
            took = time.monotonic() - started
            assert browser.stats.unsettled == unsettled + 1
            assert (await browser.fetch(server.url("/ok"))).status == 200
        return errors, browser, polling, took

    (xpath_error, load_error), browser, polling, took = run(go())
    assert str(xpath_error) == (f"{server.url('/ok')}: XPath //div[@id='never'] did not match "
                                "within 1s")
    assert str(load_error) == f"{server.url('/stalled')}: page did not finish loading within 1s"
    assert isinstance(xpath_error, FetchError)
    assert xpath_error.kind == load_error.kind == "render_timeout"  # what crawls count
    assert polling.status == 200 and "busy" in polling.text and 0.4 <= took < 3.0
    assert browser.stats.errors == {"render_timeout": 2} and browser.stats.tabs_opened == 3


# ----- errors ----------------------------------------------------------------------------
def test_missing_browser_is_one_line_with_install_hint(monkeypatch: pytest.MonkeyPatch,
                                                      tmp_path: Path) -> None:
    monkeypatch.setenv("STRUCTURER_CHROMIUM", "/nonexistent/chromium")
    settings = Settings()

    async def enter(settings: Settings) -> None:
        async with BrowserFetcher(settings):
            raise AssertionError("unreachable")

    with pytest.raises(FetchError) as info:
        run(enter(settings))
    message = str(info.value)
    assert message == ("no Chromium was found at '/nonexistent/chromium' (set by "
                       "STRUCTURER_CHROMIUM): install one (Debian/Ubuntu: `sudo apt-get install "
                       "chromium`; or `python -m playwright install chromium`) or set "
                       "STRUCTURER_CHROMIUM to a Chromium/Chrome binary")
    assert info.value.kind == "browser" and isinstance(info.value, FetchError)
    assert info.value.__cause__ is None and info.value.__suppress_context__ is False

    not_executable = tmp_path / "chromium"
    not_executable.write_text("")
    fetcher = BrowserFetcher(Settings(chromium_path=str(not_executable), obey_robots=False))
    with pytest.raises(FetchError, match=r"at '.*chromium' \(set by the chromium_path "
                       r"setting: not executable\): install one"):
        run(fetcher.fetch("http://127.0.0.1:9/"))
    assert not fetcher.running and chromium_under(os.getpid()) == set()


def test_missing_browser_from_the_command_line(tmp_path: Path) -> None:
    """What a user sees: one line on stderr, no traceback."""
    script = textwrap.dedent("""
        import asyncio, sys
        from structurer.errors import StructurerError
        from structurer.fetch.browser import BrowserFetcher
        async def main():
            async with BrowserFetcher() as fetcher:
                await fetcher.fetch("http://127.0.0.1:9/")
        try:
            asyncio.run(main())
        except StructurerError as error:
            sys.exit(f"error: {error}")
    """)
    env = {**os.environ, "STRUCTURER_CHROMIUM": str(tmp_path / "none")}
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            env=env, cwd=ROOT, timeout=60)
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert "apt-get install chromium" in result.stderr


def test_http_errors_and_unreachable_hosts(server: LoopbackServer) -> None:
    refused = f"http://127.0.0.1:{closed_port()}/"

    async def go() -> tuple[list[FetchError], Page]:
        errors = []
        async with BrowserFetcher(no_robots()) as browser:
            for url in (server.url("/missing"), refused, "http://no-such-host.invalid/"):
                with pytest.raises(FetchError) as info:
                    await browser.fetch(url)
                errors.append(info.value)
        async with BrowserFetcher(no_robots(), raise_for_status=False) as lenient:
            return errors, await lenient.fetch(server.url("/missing"))

    (missing, unreachable, unknown), lenient = run(go())
    assert unknown.kind == "dns" and "ERR_NAME_NOT_RESOLVED" in str(unknown)
    assert str(missing) == f"{server.url('/missing')}: HTTP 404 Not Found"
    assert (missing.kind, missing.status) == ("http", 404)
    assert unreachable.kind == "connection" and "ERR_CONNECTION_REFUSED" in str(unreachable)
    assert "\n" not in str(unreachable) and "Call log" not in str(unreachable)
    assert lenient.status == 404 and lenient.rendered


def test_robots_txt_user_agent_and_hosts_like_http(server: LoopbackServer) -> None:
    server.routes["/robots.txt"] = page("User-agent: *\nDisallow: /private\n")
    server.routes["/private"] = page(HTML)
    server.routes["/to-private"] = redirect("/private")
    agent = "structurer-test/9 (+tests)"

    async def go() -> dict[str, FetchError]:
        errors = {}
        async with BrowserFetcher(Settings(user_agent=agent)) as browser:
            for path in ("/private", "/to-private"):
                with pytest.raises(FetchError) as info:
                    await browser.fetch(server.url(path))
                errors[path] = info.value
            assert (await browser.fetch(server.url("/ok"))).status == 200
        return errors

    errors = run(go())
    assert str(errors["/private"]) == f"{server.url('/private')}: disallowed by robots.txt"
    assert errors["/to-private"].message == (
        f"disallowed by robots.txt (redirected to {server.url('/private')})")
    assert {e.kind for e in errors.values()} == {"robots"}
    # the redirect's target is checked before it is requested: /private is never asked for
    assert server.counts["/robots.txt"] == 1 and server.counts["/private"] == 0
    assert {hit.headers["User-Agent"] for hit in server.hits} == {agent}

    offsite = BrowserFetcher(Settings(allowed_hosts=["example.com"]))
    with pytest.raises(FetchError, match=r"off-site host 127\.0\.0\.1") as info:
        run(offsite.fetch(server.url("/ok")))
    assert info.value.kind == "offsite" and not offsite.running  # refused before launching


def test_images_fonts_media_blocked_unless_asked(server: LoopbackServer) -> None:
    server.routes["/pictures"] = page(IMAGES)
    server.routes["/style.css"] = lambda h, s: send(h, 200, "p { color: red }",
                                                    content_type="text/css")
    server.routes["/img.png"] = page("not really a png")

    async def go(**kwargs: Any) -> BrowserFetcher:
        async with BrowserFetcher(no_robots(), **kwargs) as browser:
            await browser.fetch(server.url("/pictures"))
        return browser

    assert run(go()).stats.blocked == 1
    assert server.counts["/img.png"] == 0 and server.counts["/style.css"] == 1
    assert run(go(block=())).stats.blocked == 0
    assert server.counts["/img.png"] == 1


# ----- the pool ----------------------------------------------------------------------------
def test_pool_bounds_concurrent_tabs_and_reuses_them(server: LoopbackServer) -> None:
    gauge, want = Gauge(), [2]

    def slow(h: BaseHTTPRequestHandler, s: LoopbackServer) -> None:
        # each request waits (1.2 s at most) until `want` are in flight, so the peak
        # measures how many tabs the pool lets run at once, not how fast tabs open
        with gauge:
            deadline = time.monotonic() + 1.2
            while gauge.now < want[0] and time.monotonic() < deadline:
                time.sleep(0.01)
            time.sleep(0.25)
            send(h, 200, HTML)

    server.routes.update({f"/slow{i}": slow for i in range(6)})
    urls = [server.url(f"/slow{i}") for i in range(6)]

    async def go(pages: int) -> tuple[BrowserFetcher, float]:
        # the ceiling counts from getting a tab: the last of 3 rounds starts after ~1.6 s
        async with BrowserFetcher(no_robots(browser_pages=pages, browser_timeout=8)) as browser:
            started = time.monotonic()
            results = await browser.fetch_all(urls)
            elapsed = time.monotonic() - started
            assert all(isinstance(r, Page) for r in results)
        return browser, elapsed

    narrow, narrow_time = run(go(2))
    assert gauge.peak == 2 and narrow.stats.max_in_flight == 2
    assert narrow.stats.tabs_opened == 2 and narrow_time >= 3 * 0.25
    gauge.peak, want[0] = 0, 4
    wide, _ = run(go(6))
    assert gauge.peak >= 4 and wide.stats.max_in_flight >= 4


# ----- closing ---------------------------------------------------------------------------
def test_browser_closed_after_an_error(server: LoopbackServer) -> None:
    seen: set[int] = set()

    async def go() -> None:
        async with BrowserFetcher(no_robots()) as browser:
            await browser.fetch(server.url("/ok"))
            seen.update(chromium_under(os.getpid()))
            raise RuntimeError("analysis blew up")

    with pytest.raises(RuntimeError, match="analysis blew up"):
        run(go())
    assert seen and alive(seen) == set()


def test_cancelled_fetch_closes_its_tab_and_the_browser(server: LoopbackServer) -> None:
    server.routes["/hang"] = hang(3)
    seen: set[int] = set()

    async def go() -> BrowserFetcher:
        async with BrowserFetcher(no_robots()) as browser:
            task = asyncio.create_task(browser.fetch(server.url("/hang")))
            while not server.counts["/hang"]:
                await asyncio.sleep(0.05)
            seen.update(chromium_under(os.getpid()))
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            assert browser.stats.in_flight == 0 and browser.stats.tabs_opened == 1
            assert (await browser.fetch(server.url("/ok"))).status == 200
            assert browser.stats.tabs_opened == 2  # the cancelled tab was not reused
        return browser

    browser = run(go())
    assert not browser.running and seen and alive(seen) == set()


CTRL_C = textwrap.dedent("""
    import asyncio, sys
    from structurer.config import Settings
    from structurer.fetch.browser import BrowserFetcher
    async def main(url):
        async with BrowserFetcher(Settings(obey_robots=False)) as fetcher:
            print("ready", flush=True)
            await fetcher.fetch(url)
    try:
        asyncio.run(main(sys.argv[1]))
    except KeyboardInterrupt:
        print("interrupted", flush=True)
        sys.exit(130)
""")


@pytest.mark.parametrize("target", ["process", "group"])
def test_ctrl_c_closes_the_browser(server: LoopbackServer, target: str) -> None:
    """SIGINT to Python alone (our cleanup must do it) or to the group (a terminal's Ctrl-C)."""
    server.routes["/hang"] = hang(5)
    proc = subprocess.Popen([sys.executable, "-c", CTRL_C, server.url("/hang")], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline() == "ready\n"
        deadline = time.monotonic() + 20
        while not server.counts["/hang"] and time.monotonic() < deadline:
            time.sleep(0.05)
        browsers = chromium_under(proc.pid)
        assert browsers, "Chromium should be running"
        if target == "group":
            os.killpg(proc.pid, signal.SIGINT)
        else:
            proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130 and out == "interrupted\n", err
    assert "Traceback" not in err
    assert alive(browsers) == set()


# ----- hosts: checked before Chromium sends anything ------------------------------------
HOSTILE = """<html><body><p id="here">here</p><iframe src="{canary}/frame"></iframe>
<script>
fetch('{canary}/fetch').catch(() => {{}});
fetch('/api-away').then(r => r.text()).then(t => {{ document.getElementById('here').append(t); }})
  .catch(() => {{}});
fetch('/api').then(r => r.text()).then(t => {{ document.getElementById('here').append(t); }});
const x = new XMLHttpRequest(); x.open('GET', '{canary}/xhr'); x.send();
new EventSource('{canary}/events');
navigator.sendBeacon('{canary}/beacon', 'x');
setTimeout(() => {{ location.href = '{canary}/leave'; }}, 100);
</script></body></html>"""


def test_no_request_leaves_the_hosts_not_even_a_redirect_hop(server: LoopbackServer) -> None:
    """Chromium follows redirects without showing them to a route, and a page's scripts ask
    anywhere: each must be refused before it is sent, so the canary hears nothing."""
    with LoopbackServer(host="127.0.0.2") as canary:
        server.routes.update({
            "/hostile": page(HOSTILE.format(canary=canary.base)),
            "/api": page("[api]"), "/api-away": redirect(canary.url("/api")),
            "/hop": redirect("/hop2"), "/hop2": redirect(canary.url("/ok")),
            "/fine": redirect("/ok")})

        async def go(settings: Settings) -> tuple[Page, FetchError, Page, BrowserFetcher]:
            async with BrowserFetcher(settings) as browser:
                hostile = await browser.fetch(server.url("/hostile"))
                with pytest.raises(FetchError) as info:
                    await browser.fetch(server.url("/hop"))
                return hostile, info.value, await browser.fetch(server.url("/fine")), browser

        for settings in (no_robots(), no_robots(allowed_hosts=[f"127.0.0.1:{server.port}"])):
            hostile, hop, fine, browser = run(go(settings))
            assert hostile.final_url == server.url("/hostile")
            assert "[api]" in hostile.text and hostile.text.count("[api]") == 1
            assert hop.kind == "offsite" and str(hop) == (
                f"{server.url('/hop')}: off-site redirect to {canary.url('/ok')} (allowed: "
                f"{settings.allowed_hosts[0] if settings.allowed_hosts else 'the site of '}"
                f"{'' if settings.allowed_hosts else server.url('/hop')})")
            assert fine.final_url == server.url("/ok") and fine.status == 200
            assert browser.stats.refused["offsite"] >= 6
        assert canary.hits == []
    assert server.counts["/hop2"] == 2 and server.counts["/api-away"] == 2


def test_a_page_larger_than_max_page_bytes_is_refused(server: LoopbackServer) -> None:
    server.routes["/big"] = page("<html><body>" + "<p>word</p>" * 2000 + "</body></html>")

    async def go() -> FetchError:
        async with BrowserFetcher(no_robots(max_page_bytes=10_000)) as browser:
            assert (await browser.fetch(server.url("/ok"))).status == 200
            with pytest.raises(FetchError) as info:
                await browser.fetch(server.url("/big"))
            return info.value

    error = run(go())
    assert error.kind == "too_large" and "larger than 10000 bytes" in str(error)


@pytest.mark.parametrize("session", [False, True])
def test_cookies_carry_between_pages_only_with_a_session(server: LoopbackServer,
                                                         session: bool) -> None:
    """Without a session every page starts without cookies, whichever tab renders it
    (a reused one, or one opened while another page is in flight)."""
    server.routes["/set"] = page(HTML, **{"Set-Cookie": "seen=42; Path=/"})

    async def go() -> None:
        async with BrowserFetcher(no_robots(session=session, browser_pages=2)) as browser:
            await browser.fetch(server.url("/set"))
            await browser.fetch(server.url("/ok"))
            await browser.fetch_all([server.url("/set"), server.url("/built"), server.url("/ok")])

    run(go())
    sent = [hit.headers.get("Cookie") for hit in server.hits if hit.path in ("/ok", "/built")]
    assert sent == (["seen=42"] * 3 if session else [None] * 3)
