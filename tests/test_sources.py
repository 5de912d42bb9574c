"""The one reader of the pages a person names: the URL a saved file gets, .gz, bounds."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from structurer.config import Settings
from structurer.errors import FetchError
from structurer.sources import read_pages, saved_url

SWDE = b'<base href="http://books.example/item/7.html"/>\n<html><body><h1>Book</h1></body></html>'


@pytest.mark.parametrize(("base", "expected"), [
    ("http://shop.example/p/item-1.html", "http://shop.example/p/item-1.html"),
    ("http://shop.example/p/", "http://shop.example/p/saved%20page.html"),
    ("http://shop.example", "http://shop.example/saved%20page.html"),
    (None, "http://books.example/item/7.html"),
], ids=["page", "folder", "origin", "base-href"])
def test_the_url_of_a_saved_page(base: str | None, expected: str) -> None:
    assert saved_url("/tmp/x/saved page.html.gz", SWDE, base) == expected


def test_plain_file_url_and_order(tmp_path: Path) -> None:
    plain = tmp_path / "a.html"
    plain.write_bytes(b"<html><body>caf\xc3\xa9</body></html>")
    zipped = tmp_path / "b.htm.gz"
    zipped.write_bytes(gzip.compress(SWDE))
    first, second = read_pages([str(plain), str(zipped)])
    assert (first.url, first.given, first.body) == (plain.resolve().as_uri(), str(plain),
                                                    plain.read_bytes())
    assert "café" in first.text
    assert second.url == "http://books.example/item/7.html" and second.body == SWDE


@pytest.mark.parametrize(("name", "content", "says"), [
    ("missing.html", None, "no such file"),
    ("broken.html.gz", b"not gzip at all", "cannot read the saved page"),
    ("big.html", b"x" * 2001, "larger than 2,000 bytes (the max_page_bytes setting)"),
    ("bomb.html.gz", gzip.compress(b" " * 100_000), "larger than 2,000 bytes"),
])
def test_unreadable_pages_are_one_line(name: str, content: bytes | None, says: str,
                                       tmp_path: Path) -> None:
    path = tmp_path / name
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(FetchError) as info:
        read_pages([str(path)], Settings(max_page_bytes=2000))
    assert says in str(info.value) and str(path) in str(info.value)
    assert "\n" not in str(info.value)


def test_one_page_url_names_one_file(tmp_path: Path) -> None:
    page = tmp_path / "a.html"
    page.write_text("<html></html>")
    with pytest.raises(FetchError, match="end it with '/'"):
        read_pages([str(page), str(page)], base_url="http://shop.example/p/a.html")
    with pytest.raises(FetchError, match="must be an absolute http"):
        read_pages([str(page)], base_url="shop.example/p/")
    assert [s.url for s in read_pages([str(page)] * 2, base_url="http://shop.example/p/")] == \
        ["http://shop.example/p/a.html"] * 2
