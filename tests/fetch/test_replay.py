"""ReplayFetcher: saved pages by URL, path, file:// URL, gzip and SWDE-style base href."""

from __future__ import annotations

import asyncio
import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from structurer.errors import FetchError
from structurer.fetch import Fetcher, Page, ReplayFetcher, fetcher_for

SWDE = ('<base href="http://www.example-books.com/book/123"/>\n'
        '<html><head><title>A book</title></head><body><h1>Der Zauberberg</h1>'
        '<a href="/book/124">next</a></body></html>')
GBK = '<html><head><meta charset="gbk"><title>华夏</title></head><body>价格 ￥99</body></html>'


def fetch(fetcher: ReplayFetcher, url: str) -> Page:
    return asyncio.run(fetcher.fetch(url))


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    (tmp_path / "plain.html").write_text("<html><body><p>plain page</p></body></html>")
    (tmp_path / "gbk.html").write_bytes(GBK.encode("gbk"))
    with gzip.open(tmp_path / "0123.htm.gz", "wb") as handle:
        handle.write(SWDE.encode())
    return tmp_path


def test_is_a_fetcher() -> None:
    assert isinstance(ReplayFetcher(), Fetcher)


def test_plain_path_and_file_url(saved: Path) -> None:
    fetcher = ReplayFetcher()
    path = saved / "plain.html"
    by_path = fetch(fetcher, str(path))
    assert by_path.status == 200 and "plain page" in by_path.text
    assert by_path.final_url == path.as_uri() and by_path.url == str(path)
    by_uri = fetch(fetcher, path.as_uri())
    assert by_uri.body == by_path.body and by_uri.final_url == path.as_uri()
    assert fetcher.fetched == [str(path), path.as_uri()]


def test_gzip_with_base_href(saved: Path) -> None:
    page = fetch(ReplayFetcher(), str(saved / "0123.htm.gz"))
    assert page.final_url == "http://www.example-books.com/book/123"
    assert "Der Zauberberg" in page.text and page.encoding == "utf-8"


def test_mapping_and_encoding(saved: Path) -> None:
    fetcher = ReplayFetcher({"http://shop.test/": "gbk.html", "http://shop.test/p": "plain.html"},
                            root=saved)
    home = fetch(fetcher, "http://shop.test/#top")
    assert home.final_url == "http://shop.test/#top" and home.encoding == "gb18030"
    assert "价格 ￥99" in home.text
    with pytest.raises(FetchError) as info:
        fetch(fetcher, "http://shop.test/missing")
    assert str(info.value) == "http://shop.test/missing: not among the saved pages"
    with pytest.raises(FetchError, match="no saved page at"):
        fetch(fetcher, str(saved / "nope.html"))


def test_directory_with_index_entries(saved: Path) -> None:
    index: list[dict[str, Any]] = [
        {"url": "http://shop.test/a", "path": "plain.html", "status": 404,
         "content_type": "text/html; charset=utf-8", "rendered": True},
        {"url": "http://shop.test/b", "path": "gbk.html", "final_url": "http://shop.test/b2"},
    ]
    (saved / "index.json").write_text(json.dumps(index))
    fetcher = ReplayFetcher.from_directory(saved)
    a = fetch(fetcher, "http://shop.test/a")
    assert a.status == 404 and a.rendered and a.content_type == "text/html; charset=utf-8"
    assert fetch(fetcher, "http://shop.test/b").final_url == "http://shop.test/b2"


def test_directory_without_index_knows_base_hrefs(saved: Path) -> None:
    fetcher = fetcher_for(pages=saved)
    assert isinstance(fetcher, ReplayFetcher)
    page = fetch(fetcher, "http://www.example-books.com/book/123")
    assert "Der Zauberberg" in page.text
    assert fetch(fetcher, (saved / "plain.html").as_uri()).status == 200


def test_bad_index_is_one_line_error(tmp_path: Path) -> None:
    (tmp_path / "index.json").write_text('[{"url": "http://x/"}]')
    with pytest.raises(FetchError, match="entry 0 needs 'url' and 'path'"):
        ReplayFetcher.from_directory(tmp_path)


def test_corrupt_gzip_is_fetch_error(tmp_path: Path) -> None:
    (tmp_path / "bad.html.gz").write_bytes(b"not gzip at all")
    with pytest.raises(FetchError, match="cannot read the saved page"):
        fetch(ReplayFetcher(), str(tmp_path / "bad.html.gz"))
