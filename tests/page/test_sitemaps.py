"""Sitemaps: robots.txt lines, url sets, indexes, gzip, text lists, bounds."""

from __future__ import annotations

import gzip

from structurer.page.sitemaps import is_sitemap, parse_sitemap, robots_sitemaps, unpack

NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
URLSET = (f'<?xml version="1.0" encoding="UTF-8"?><urlset {NS}>'
          "<url><loc>https://shop.example/c/shoes/</loc><lastmod>2026-01-01</lastmod></url>"
          "<url><loc> /c/bags/ </loc></url>"
          "<url><loc>https://shop.example/p/boot.html</loc></url>"
          "<url><loc>https://shop.example/c/shoes/</loc></url>"
          "<url><loc>ftp://shop.example/file</loc></url></urlset>").encode()
INDEX = (f'<?xml version="1.0"?><sitemapindex {NS}>'
         "<sitemap><loc>https://shop.example/sitemap-categories.xml</loc></sitemap>"
         "<sitemap><loc>https://shop.example/sitemap-products.xml.gz</loc></sitemap>"
         "</sitemapindex>").encode()
BASE = "https://shop.example/sitemap.xml"


def test_robots_sitemap_lines() -> None:
    text = ("User-agent: *\nDisallow: /cart\nSitemap: https://shop.example/sitemap_index.xml\n"
            "sitemap:/other.xml\n# Sitemap: https://shop.example/commented.xml\n"
            "SITEMAP: https://shop.example/sitemap_index.xml\n")
    assert robots_sitemaps(text, "https://shop.example/") == [
        "https://shop.example/sitemap_index.xml", "https://shop.example/other.xml"]


def test_urlset_urls_in_order_absolute_once() -> None:
    sitemap = parse_sitemap(URLSET, BASE, max_bytes=10_000, max_urls=100)
    assert not sitemap.index
    assert sitemap.urls == ["https://shop.example/c/shoes/", "https://shop.example/c/bags/",
                            "https://shop.example/p/boot.html"]


def test_index_lists_sitemaps() -> None:
    sitemap = parse_sitemap(INDEX, BASE, max_bytes=10_000, max_urls=100)
    assert sitemap.index
    assert sitemap.urls == ["https://shop.example/sitemap-categories.xml",
                            "https://shop.example/sitemap-products.xml.gz"]


def test_gzip_sitemap_is_unpacked_and_recognized() -> None:
    packed = gzip.compress(URLSET)
    assert is_sitemap(packed) and is_sitemap(URLSET) and is_sitemap(INDEX)
    assert parse_sitemap(packed, BASE, max_bytes=10_000, max_urls=100).urls[0] == \
        "https://shop.example/c/shoes/"
    assert not is_sitemap(b"<!DOCTYPE html><html><body>urlset</body></html>")


def test_bounds_bytes_and_urls() -> None:
    packed = gzip.compress(URLSET)
    assert unpack(packed, 50) is None                    # unpacks past the bound
    assert parse_sitemap(packed, BASE, max_bytes=50, max_urls=100).urls == []
    assert unpack(b"\x1f\x8bnot gzip", 1000) is None
    assert len(parse_sitemap(URLSET, BASE, max_bytes=10_000, max_urls=2).urls) == 2


def test_entities_are_not_resolved() -> None:
    evil = (b'<?xml version="1.0"?><!DOCTYPE u [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
            b'<urlset><url><loc>https://shop.example/&x;</loc></url>'
            b"<url><loc>https://shop.example/c/a/</loc></url></urlset>")
    urls = parse_sitemap(evil, BASE, max_bytes=10_000, max_urls=10).urls
    assert "https://shop.example/c/a/" in urls
    assert not any("root:" in u for u in urls)


def test_text_sitemap() -> None:
    text = b"https://shop.example/c/a/\n\nhttps://shop.example/c/b/\n"
    assert parse_sitemap(text, BASE, max_bytes=1000, max_urls=10).urls == [
        "https://shop.example/c/a/", "https://shop.example/c/b/"]
    assert parse_sitemap(b"<html>no</html>", BASE, max_bytes=1000, max_urls=10).urls == []
