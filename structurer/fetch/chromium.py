"""Chromium: found where users install it, and launched one way by every browser user.

Input: :class:`~structurer.config.Settings` (``chromium_path``, ``browser_timeout``) and
the environment. Output: the path of a usable Chromium (:func:`find_chromium`), a
launched Playwright browser (:func:`launch`, used by the browser fetcher and the
review's camera alike), or one :class:`~structurer.errors.FetchError` (kind ``browser``)
saying that none is usable and how to install one.

Where Chromium is looked for, first hit wins:

1. ``Settings.chromium_path`` (a settings file or ``-s chromium_path=...``), then
   ``$STRUCTURER_CHROMIUM``: a path named there is the one used, and when it is not an
   executable file that is the error (no silent fallback to another browser);
2. ``PATH``: ``chromium``, ``chromium-browser``, ``google-chrome``, ``google-chrome-stable``;
3. the browsers ``playwright install chromium`` downloaded: under
   ``$PLAYWRIGHT_BROWSERS_PATH`` (``0``: inside the playwright package) or
   ``$XDG_CACHE_HOME/ms-playwright`` (default ``~/.cache/ms-playwright``),
   ``chromium-*/chrome-linux*/chrome`` and then the headless shells, newest first;
4. Debian's ``/usr/bin/chromium``.

structurer itself never downloads a browser. Playwright is imported only when a
browser is launched.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from structurer.config import CHROMIUM_FLAGS, DEFAULT_CHROMIUM, Settings
from structurer.errors import FetchError

if TYPE_CHECKING:
    from playwright.async_api import Browser, Playwright

__all__ = ["INSTALL_HINT", "chromium_candidates", "find_chromium", "first_line", "launch",
           "playwright_browsers"]

INSTALL_HINT = ("install one (Debian/Ubuntu: `sudo apt-get install chromium`; or "
                "`python -m playwright install chromium`) or set STRUCTURER_CHROMIUM "
                "to a Chromium/Chrome binary")
PATH_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
#: Executables inside Playwright's browser folders, in order of preference.
PLAYWRIGHT_GLOBS = ("chromium-*/chrome-linux*/chrome",
                    "chromium_headless_shell-*/chrome-linux/headless_shell",
                    "chromium_headless_shell-*/chrome-headless-shell-linux*/chrome-headless-shell")


def _usable(path: str | Path) -> bool:
    return os.path.isfile(path) and os.access(path, os.X_OK)


def playwright_browsers(environ: Mapping[str, str]) -> Path:
    """The folder ``playwright install`` puts its browsers in."""
    chosen = environ.get("PLAYWRIGHT_BROWSERS_PATH", "")
    if chosen == "0":
        import importlib.util

        spec = importlib.util.find_spec("playwright")
        package = Path(spec.origin).parent if spec and spec.origin else Path(".")
        return package / "driver" / "package" / ".local-browsers"
    if chosen:
        return Path(chosen).expanduser()
    cache = environ.get("XDG_CACHE_HOME") or str(Path(environ.get("HOME", "~")) / ".cache")
    return Path(cache).expanduser() / "ms-playwright"


def _revision(path: Path) -> int:
    """The revision in a Playwright folder name (``chromium-1148`` -> 1148)."""
    for part in reversed(path.parts):
        match = re.search(r"-(\d+)$", part)
        if match:
            return int(match.group(1))
    return -1


def chromium_candidates(environ: Mapping[str, str]) -> list[str]:
    """Every place discovery tries after the explicit settings, in order (see above)."""
    found: list[str] = []
    search = environ.get("PATH", "")
    for name in PATH_NAMES:
        hit = shutil.which(name, path=search) if search else None
        if hit:
            found.append(hit)
    folder = playwright_browsers(environ)
    for pattern in PLAYWRIGHT_GLOBS:
        found += [str(p) for p in sorted(folder.glob(pattern), key=_revision, reverse=True)]
    found.append(DEFAULT_CHROMIUM)
    return found


def find_chromium(settings: Settings, environ: Mapping[str, str] | None = None) -> str:
    """The Chromium to launch; a :class:`FetchError` (kind ``browser``) if none is usable."""
    env = os.environ if environ is None else environ
    for chosen, source in ((settings.chromium_path, "the chromium_path setting"),
                           (env.get("STRUCTURER_CHROMIUM"), "STRUCTURER_CHROMIUM")):
        if chosen:
            if _usable(chosen):
                return chosen
            what = ": not executable" if os.path.isfile(chosen) else ""
            raise FetchError(f"no Chromium was found at {chosen!r} (set by {source}"
                             f"{what}): {INSTALL_HINT}", kind="browser")
    for path in chromium_candidates(env):
        if _usable(path):
            return path
    raise FetchError(
        f"no Chromium was found (none of {', '.join(PATH_NAMES)} on PATH, none in "
        f"{playwright_browsers(env)}, no {DEFAULT_CHROMIUM}): {INSTALL_HINT}", kind="browser")


def first_line(error: BaseException) -> str:
    """Playwright's message without the API prefix and the call log."""
    text = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    head, sep, rest = text.partition(": ")
    return rest if sep and "." in head and " " not in head else text


async def launch(playwright: Playwright, settings: Settings) -> Browser:
    """Start the Chromium :func:`find_chromium` picks, headless, with ``CHROMIUM_FLAGS``
    (allowing it at least 30 s: a busy machine starts it slowly, whatever a page may take)."""
    from playwright.async_api import Error as PlaywrightError

    path = find_chromium(settings)
    try:
        return await playwright.chromium.launch(
            executable_path=path, args=list(CHROMIUM_FLAGS), headless=True,
            timeout=max(settings.browser_timeout, 30.0) * 1000)
    except PlaywrightError as error:
        raise FetchError(f"Chromium at {path!r} did not start: {first_line(error)}; "
                         f"{INSTALL_HINT}", kind="browser") from None
