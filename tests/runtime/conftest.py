"""Fixtures of the runtime tests: hand-written rule files and demo pages fetched once."""

from __future__ import annotations

import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from structurer.clean import decode_html, parse_html
from structurer.replay import CompiledRules, compile_rules
from structurer.rules import load_rules, rules_from_text
from structurer.rules.model import SiteRules

FIXTURES = Path(__file__).resolve().parent / "fixtures"
STATIC_SHOPS = ["outfitters", "kumo", "huaxia", "nordlicht"]


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
