"""The one fetcher factory: a render mode in, a fetcher out; Playwright loads only for a
browser, and reading saved pages loads no network code at all."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest

from structurer.config import Settings
from structurer.fetch import HttpFetcher, ReplayFetcher, fetcher_for, open_fetcher
from structurer.schema import RenderMode

ROOT = Path(__file__).resolve().parents[2]


def _loaded(code: str) -> list[str]:
    """Top-level packages loaded after running ``code`` in a fresh interpreter."""
    done = subprocess.run([sys.executable, "-c", code + "\nimport json, sys\n"
                           "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))"],
                          capture_output=True, text=True, check=True, cwd=ROOT)
    loaded: list[str] = json.loads(done.stdout.strip().splitlines()[-1])
    return loaded


def test_each_mode_gets_its_fetcher_with_the_settings() -> None:
    from structurer.fetch.browser import BrowserFetcher

    settings = Settings(user_agent="factory-test/1.0", delay=0.5)
    static = open_fetcher(RenderMode.STATIC, settings)
    browser = open_fetcher(RenderMode.BROWSER, settings)   # built, not launched
    assert type(static) is HttpFetcher and type(browser) is BrowserFetcher
    assert static.settings is settings and browser.settings is settings
    assert open_fetcher("static", settings).settings is settings  # type: ignore[call-overload]
    with pytest.raises(ValueError, match="ask for static or browser"):
        open_fetcher(RenderMode.AUTO, settings)

    async def close() -> None:
        await static.close()
        await browser.close()

    asyncio.run(close())


def test_saved_pages_are_no_render_mode(tmp_path: Path) -> None:
    (tmp_path / "a.html").write_text("<html><body>a</body></html>")
    assert isinstance(fetcher_for(pages=tmp_path), ReplayFetcher)
    assert type(fetcher_for(Settings())) is HttpFetcher


def test_playwright_loads_only_for_a_browser() -> None:
    static = _loaded("from structurer.fetch import open_fetcher\n"
                     "from structurer.schema import RenderMode\n"
                     "open_fetcher(RenderMode.STATIC)")
    assert "aiohttp" in static and "playwright" not in static
    browser = _loaded("from structurer.fetch import open_fetcher\n"
                      "from structurer.schema import RenderMode\n"
                      "open_fetcher(RenderMode.BROWSER)")
    assert "playwright" in browser


def test_reading_a_saved_page_loads_no_network_code(tmp_path: Path) -> None:
    page = tmp_path / "p.html"
    page.write_text("<html><body><h1>Saved</h1></body></html>")
    loaded = _loaded("import structurer.fetch\nfrom structurer.sources import read_pages\n"
                     f"assert 'Saved' in read_pages([{str(page)!r}])[0].text")
    assert [name for name in ("aiohttp", "playwright", "multidict") if name in loaded] == []
