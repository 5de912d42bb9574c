"""Chromium discovery: found where users install it, one launcher, and a clear message
with the install hint (exit 2) when there is none.

Fake browsers are shell scripts: one that records that it was started and then runs the
real Chromium (so a launch through it really works), and one that exits at once.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import structurer.fetch.chromium as chromium
from structurer.config import Settings
from structurer.errors import FetchError
from structurer.fetch.browser import BrowserFetcher
from structurer.fetch.chromium import find_chromium
from structurer.schema import RenderMode
from tests.server import LoopbackServer, page

ROOT = Path(__file__).resolve().parents[2]
REAL = find_chromium(Settings(), {"PATH": os.environ.get("PATH", "")})
HINT = "python -m playwright install chromium"


def fake(path: Path, body: str = "exit 3") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(0o755)
    return path


def recording(path: Path, marker: Path) -> Path:
    """A Chromium that notes it was used, then is the real one."""
    return fake(path, f': > "{marker}"\nexec "{REAL}" "$@"')


@pytest.fixture
def no_debian(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Debian's path points at nothing, so that only what a test sets up is found."""
    monkeypatch.setattr(chromium, "DEFAULT_CHROMIUM", str(tmp_path / "no-usr-bin-chromium"))


def test_path_names_in_order(tmp_path: Path, no_debian: None) -> None:
    bin_dir = tmp_path / "bin"
    env = {"PATH": f"{tmp_path / 'empty'}:{bin_dir}", "HOME": str(tmp_path)}
    fake(bin_dir / "google-chrome")
    assert find_chromium(Settings(), env) == str(bin_dir / "google-chrome")
    fake(bin_dir / "chromium-browser")
    assert find_chromium(Settings(), env) == str(bin_dir / "chromium-browser")
    (bin_dir / "chromium").write_text("not executable")
    assert find_chromium(Settings(), env) == str(bin_dir / "chromium-browser")


def test_playwrights_own_browsers_newest_first(tmp_path: Path, no_debian: None) -> None:
    cache = tmp_path / "home" / ".cache" / "ms-playwright"
    env = {"PATH": "", "HOME": str(tmp_path / "home")}
    shell = fake(cache / "chromium_headless_shell-1300" / "chrome-linux" / "headless_shell")
    assert find_chromium(Settings(), env) == str(shell)
    fake(cache / "chromium-1100" / "chrome-linux" / "chrome")
    newest = fake(cache / "chromium-1200" / "chrome-linux64" / "chrome")
    assert find_chromium(Settings(), env) == str(newest)
    elsewhere = fake(tmp_path / "pw" / "chromium-1000" / "chrome-linux" / "chrome")
    assert find_chromium(Settings(), {**env, "PLAYWRIGHT_BROWSERS_PATH": str(tmp_path / "pw")}
                         ) == str(elsewhere)
    assert find_chromium(Settings(), {"PATH": "", "XDG_CACHE_HOME": str(cache.parent)}
                         ) == str(newest)
    fake(tmp_path / "bin" / "chromium")   # PATH comes before Playwright's folder
    assert find_chromium(Settings(), {**env, "PATH": str(tmp_path / "bin")}) == str(
        tmp_path / "bin" / "chromium")


def test_an_explicit_choice_wins_and_is_never_replaced(tmp_path: Path) -> None:
    env = {"PATH": str(tmp_path / "bin"), "STRUCTURER_CHROMIUM": str(tmp_path / "env-chrome")}
    fake(tmp_path / "bin" / "chromium")
    fake(tmp_path / "env-chrome")
    chosen = fake(tmp_path / "chosen")
    assert find_chromium(Settings(), env) == str(tmp_path / "env-chrome")
    assert find_chromium(Settings(chromium_path=str(chosen)), env) == str(chosen)
    with pytest.raises(FetchError) as info:
        find_chromium(Settings(), {**env, "STRUCTURER_CHROMIUM": "/nonexistent/chrome"})
    assert info.value.kind == "browser" and str(info.value).startswith(
        "no Chromium was found at '/nonexistent/chrome' (set by STRUCTURER_CHROMIUM): install")


def test_none_found_names_where_it_looked_and_how_to_install(tmp_path: Path,
                                                             no_debian: None) -> None:
    with pytest.raises(FetchError) as info:
        find_chromium(Settings(), {"PATH": str(tmp_path), "HOME": str(tmp_path)})
    message = str(info.value)
    assert message.startswith("no Chromium was found (none of chromium, chromium-browser, "
                              "google-chrome, google-chrome-stable on PATH, none in "
                              f"{tmp_path / '.cache' / 'ms-playwright'}, no ")
    assert HINT in message and "apt-get install chromium" in message and "\n" not in message


def test_the_script_make_runs_finds_the_same(tmp_path: Path) -> None:
    """scripts/ensure-chromium (``make demo``, ``make test``) looks in the same order."""
    cache = tmp_path / ".cache" / "ms-playwright"
    fake(cache / "chromium-1100" / "chrome-linux" / "chrome")
    newest = fake(cache / "chromium-1200" / "chrome-linux64" / "chrome")
    for env in ({"PATH": str(tmp_path / "bin"), "HOME": str(tmp_path)},
                {"PATH": str(tmp_path / "bin"), "HOME": str(tmp_path),
                 "STRUCTURER_CHROMIUM": str(newest)}):
        done = subprocess.run(["/bin/bash", str(ROOT / "scripts" / "ensure-chromium")],
                              env=env, capture_output=True, text=True, timeout=30)
        assert done.returncode == 0 and done.stdout == f"Chromium: {find_chromium(Settings(), env)}\n"
    fake(tmp_path / "bin" / "chromium-browser")
    env = {"PATH": str(tmp_path / "bin"), "HOME": str(tmp_path)}
    done = subprocess.run(["/bin/bash", str(ROOT / "scripts" / "ensure-chromium")], env=env,
                          capture_output=True, text=True, timeout=30)
    assert done.stdout == f"Chromium: {tmp_path / 'bin' / 'chromium-browser'}\n"
    bad = subprocess.run(["/bin/bash", str(ROOT / "scripts" / "ensure-chromium")],
                         env={**env, "STRUCTURER_CHROMIUM": "/nonexistent"},
                         capture_output=True, text=True, timeout=30)
    assert bad.returncode == 1 and "STRUCTURER_CHROMIUM=/nonexistent" in bad.stderr


# ----- launching -----------------------------------------------------------------------------
def _render(url: str) -> Any:
    async def go() -> Any:
        async with BrowserFetcher(Settings(obey_robots=False)) as browser:
            return await browser.fetch(url)
    return asyncio.run(go())


@pytest.mark.browser
@pytest.mark.parametrize("where", ["PATH", "playwright"])
def test_the_browser_found_is_the_one_launched(where: str, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Not only /usr/bin/chromium: a Chromium on PATH or from `playwright install`."""
    marker = tmp_path / "started"
    if where == "PATH":
        recording(tmp_path / "bin" / "chromium", marker)
        monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}:{os.environ.get('PATH', '')}")
    else:
        recording(tmp_path / "pw" / "chromium-1234" / "chrome-linux" / "chrome", marker)
        monkeypatch.setenv("PLAYWRIGHT_BROWSERS_PATH", str(tmp_path / "pw"))
        monkeypatch.setenv("PATH", str(tmp_path / "nothing"))
        monkeypatch.setattr(chromium, "DEFAULT_CHROMIUM", str(tmp_path / "none"))
    monkeypatch.delenv("STRUCTURER_CHROMIUM", raising=False)
    with LoopbackServer({"/ok": page("<html><body><p>rendered</p></body></html>")}) as srv:
        rendered = _render(srv.url("/ok"))
    assert rendered.rendered and "rendered" in rendered.text and marker.exists()


def test_a_chromium_that_does_not_start_is_one_line(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STRUCTURER_CHROMIUM", str(fake(tmp_path / "broken-chrome")))
    with pytest.raises(FetchError) as info:
        _render("http://127.0.0.1:9/")
    message = str(info.value)
    assert info.value.kind == "browser" and "\n" not in message
    assert message.startswith(f"Chromium at '{tmp_path / 'broken-chrome'}' did not start: ")
    assert message.endswith("or set STRUCTURER_CHROMIUM to a Chromium/Chrome binary")


@pytest.mark.browser
def test_analysis_of_a_script_built_shop_without_chromium_says_so(tmp_path: Path) -> None:
    """It used to say 'found no product list pages (no repeated product blocks ...)'."""
    from structurer.demo import DemoServer, all_shops

    with DemoServer([s for s in all_shops() if s.name == "pixel"]) as server:
        env = {**os.environ, "STRUCTURER_CHROMIUM": "/nonexistent", "PATH": ""}
        done = subprocess.run([sys.executable, "-m", "structurer", "analyze",
                               server.urls["pixel"] + "/", "--out", str(tmp_path)],
                              env=env, capture_output=True, text=True, cwd=ROOT, timeout=300)
    err = done.stderr
    assert done.returncode == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert "this shop's pages need a browser" in err and HINT in err
    assert "no Chromium was found at '/nonexistent'" in err
    assert list(tmp_path.iterdir()) == []


def test_a_scrapy_crawl_of_browser_levels_without_chromium_says_so(tmp_path: Path) -> None:
    from structurer.rules import save_rules
    from tests.conftest import fixture_rules

    rules = fixture_rules("shop")
    levels = rules.levels
    assert levels.list is not None
    browser = levels.list.render.model_copy(update={"mode": RenderMode.BROWSER})
    rules = rules.model_copy(update={"levels": levels.model_copy(update={
        "list": levels.list.model_copy(update={"render": browser})})})
    save_rules(rules, tmp_path / "shop.yaml")
    env = {**os.environ, "STRUCTURER_CHROMIUM": str(tmp_path / "none")}
    done = subprocess.run([sys.executable, "-m", "structurer", "crawl", str(tmp_path / "shop.yaml"),
                           "--engine", "scrapy", "--out", str(tmp_path / "out.jsonl")],
                          env=env, capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "no Chromium was found at" in done.stderr and HINT in done.stderr
