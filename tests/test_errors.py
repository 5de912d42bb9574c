"""One FetchError for every page source: ``kind`` (a documented set), ``status``, one line,
and the name a crawl counts the failure by."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import structurer
from structurer.errors import FETCH_KINDS, FetchError, RenderTimeout, StructurerError

PACKAGE = Path(structurer.__file__).resolve().parent


def test_fetch_error_carries_kind_status_and_one_line() -> None:
    error = FetchError("HTTP 503\n   Service   Unavailable", url="http://shop.test/p",
                       kind="http", status=503)
    assert isinstance(error, StructurerError)
    assert (error.kind, error.status, error.url) == ("http", 503, "http://shop.test/p")
    assert str(error) == "http://shop.test/p: HTTP 503 Service Unavailable"
    assert error.failure == "http 503"
    plain = FetchError("no such file", url="missing.html")
    assert (plain.kind, plain.status, plain.failure) == ("fetch", None, "fetch")
    refused = FetchError("disallowed by robots.txt", url="http://shop.test/", kind="robots")
    assert refused.failure == "robots"


def test_render_timeout_is_a_fetch_error_of_its_own_kind() -> None:
    error = RenderTimeout("page did not finish loading within 30s", url="http://shop.test/")
    assert isinstance(error, FetchError)
    assert (error.kind, error.status, error.failure) == ("render_timeout", None,
                                                         "render_timeout")


@pytest.mark.parametrize("name", ["HttpFetchError", "BrowserFetchError"])
def test_the_twin_classes_are_gone(name: str) -> None:
    for module in ("structurer.errors", "structurer.fetch", "structurer.fetch.http",
                   "structurer.fetch.chromium", "structurer.fetch.browser"):
        assert not hasattr(__import__(module, fromlist=["_"]), name), module


def _kinds_in_source() -> set[str]:
    """Every FetchError kind the package spells out: ``kind="..."`` arguments, the route
    guard's refusals and the transport failures of HTTP."""
    found: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        if "FetchError" not in text and "_refuse" not in text:
            continue
        found |= set(re.findall(r'\bkind="([a-z_]+)"', text))
        found |= set(re.findall(r'_refuse\(route, \w+, "([a-z_]+)"', text))
    retry = (PACKAGE / "fetch" / "retry.py").read_text(encoding="utf-8")
    found |= set(re.findall(r'return "([a-z_]+)", f?"', retry))
    return found - {"blocked"}   # images/fonts refused on purpose: counted, never raised


def test_every_kind_raised_is_documented() -> None:
    from structurer.fetch.browser import _kind
    from structurer.fetch.guard import _FAILURES

    kinds = _kinds_in_source()
    kinds |= {failure for _, _, failure in _FAILURES}
    kinds |= {_kind(m) for m in ("net::ERR_NAME_NOT_RESOLVED", "net::ERR_CERT_INVALID",
                                 "net::ERR_CONNECTION_RESET")}
    kinds |= {RenderTimeout("x").kind, FetchError("x").kind}
    # the reader finds what it must: HTTP's, the browser's and the guard's kinds
    assert {"http", "robots", "offsite", "too_large", "redirects", "url", "browser", "dns",
            "tls", "timeout", "protocol", "connection", "render_timeout", "fetch"} <= kinds
    assert sorted(kinds - set(FETCH_KINDS)) == []
