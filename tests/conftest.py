"""Shared fixtures: demo shops served once per test session on 127.0.0.1, the hand-written
rule files of ``fixtures/rules/`` (and :func:`rule_text` for the small ones tests write
inline), demo pages fetched once and demo shops analyzed once."""

from __future__ import annotations

import copy
import signal
import textwrap
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from structurer.clean import decode_html, parse_html
from structurer.demo import DemoServer, all_shops
from structurer.replay import CompiledRules, compile_rules
from structurer.rules import load_rules, rules_from_text
from structurer.rules.model import SiteRules
from tests.server import LoopbackServer, pages


def pytest_configure(config: pytest.Config) -> None:
    """Ctrl-C for the processes tests start: a run started in the background by a shell
    without job control (``make test &`` in a script) ignores SIGINT, and every child
    inherits that, so the Ctrl-C tests' crawls and browsers would never see theirs."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(scope="session", autouse=True)
def _a_cache_folder_of_the_session(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Parsed YAML is kept in a folder of the test session (and of the commands the tests
    start), not in the user's cache folder."""
    patch = pytest.MonkeyPatch()
    patch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
    yield
    patch.undo()


ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "rules"
STATIC_SHOPS = ["outfitters", "kumo", "huaxia", "nordlicht"]


def rule_text(site: str, levels: str) -> str:
    """A rule file's text: the preamble every hand-written test rule file shares (``site``,
    ``http://SITE/`` as its start URL, a fixed date and the ecommerce template), then
    ``levels``, the YAML under ``levels:`` at any indentation.

    The preamble has no braces, so ``rule_text("{site}", LEVELS)`` (``LEVELS`` with ``{{``
    for its braces) stays a ``str.format`` template of the site.
    """
    body = textwrap.indent(textwrap.dedent(levels).strip("\n"), "  ")
    return (f"schema_version: 1\nsite: {site}\nstart_url: http://{site}/\n"
            "generated_at: '2026-01-01T00:00:00Z'\n"
            "template:\n  name: ecommerce\n  hash: sha256:0123456789abcdef\n"
            f"levels:\n{body}\n")


#: The smallest two-level rule file (a list of links to products named by their <h1>), as
#: a ``str.format`` template of the site.
LIST_DETAIL_RULES = rule_text("{site}", """
  list:
    item_xpath: //ul/li
    detail_link_xpath: ./a
    fields:
      name: {{xpath: ./a, kind: text}}
  detail:
    fields:
      name: {{xpath: //h1, kind: text}}
""")


def fixture_rules(shop: str) -> SiteRules:
    return load_rules(FIXTURES / f"{shop}.yaml")


def compiled_for(shop: str, extra: str = "") -> CompiledRules:
    """The shop's rule file, optionally with YAML text appended (more keys at the end)."""
    if not extra:
        return compile_rules(fixture_rules(shop))
    text = (FIXTURES / f"{shop}.yaml").read_text(encoding="utf-8") + extra
    return compile_rules(rules_from_text(text, f"{shop}.yaml+"))


@pytest.fixture(scope="session")
def page_text() -> Callable[[str], str]:
    """Decoded HTML of a demo page by URL (each fetched once per session)."""
    cache: dict[str, str] = {}

    def get(url: str) -> str:
        if url not in cache:
            with urllib.request.urlopen(url, timeout=10) as response:
                body, ctype = response.read(), response.headers.get("Content-Type")
            cache[url] = decode_html(body, ctype)[0]
        return cache[url]

    return get


@pytest.fixture(scope="session")
def page_tree(page_text: Callable[[str], str]) -> Callable[[str], Any]:
    """A freshly parsed tree of a demo page (extraction must not depend on earlier runs)."""
    return lambda url: parse_html(page_text(url), url)


@pytest.fixture(scope="session")
def demo_server() -> Iterator[DemoServer]:
    with DemoServer(all_shops()) as server:
        yield server


@pytest.fixture(scope="session")
def demo_truth(demo_server: DemoServer) -> dict[str, dict[str, Any]]:
    """Ground truth of every demo shop, with absolute URLs of the running servers."""
    return {name: shop.ground_truth(demo_server.urls[name])
            for name, shop in demo_server.shops.items()}


#: The :func:`analyzed` fixture: (URL, render mode or None) -> (rules, analysis report).
Analyzed = Callable[..., tuple[SiteRules, Any]]


@pytest.fixture(scope="session")
def analyzed() -> Analyzed:
    """``analyze_site(url, settings=Settings(render=render))`` (``render=None``: the default
    settings), run once per session for each URL and render mode: the tests that read the
    rule file learned from one demo shop share its analysis (the same shop gives the same
    rule file: tests/learn/test_determinism.py). Each call gets its own deep copy of the
    rules and the report to change."""
    from structurer.api import analyze_site
    from structurer.config import Settings

    done: dict[tuple[str, str | None], tuple[SiteRules, Any]] = {}

    def get(url: str, render: str | None = None) -> tuple[SiteRules, Any]:
        if (url, render) not in done:
            done[url, render] = analyze_site(
                url, settings=None if render is None else Settings(render=render))
        rules, report = done[url, render]
        return rules.model_copy(deep=True), copy.deepcopy(report)

    return get


@pytest.fixture
def tiny_site() -> Iterator[Callable[[dict[str, str]], str]]:
    """Serve a dict of path -> HTML on 127.0.0.1 (:class:`tests.server.LoopbackServer`,
    each page read when asked, 404 elsewhere); yields a function returning the base URL."""
    with ExitStack() as servers:
        yield lambda site: servers.enter_context(LoopbackServer(fallback=pages(site))).base
