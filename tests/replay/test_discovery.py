"""Category sources replayed on one page: breadcrumb trails, page links, inline JSON,
sitemaps (index vs url set)."""

from __future__ import annotations

from structurer.clean import parse_html
from structurer.replay.discovery import (
    CompiledDiscovery,
    breadcrumb_links,
    compile_discovery,
    page_links,
    side_products,
    sitemap_links,
)
from structurer.rules import rules_from_text
from tests.conftest import rule_text

URL = "http://shop.example/p/boot.html"
SOURCES = """
  category:
    url_patterns: ['/c/(?:[^/?]+/)*[^/?]+/']
    sources:
    - {kind: links}
    - {kind: inline_json}
    - {kind: breadcrumb, xpath: "//ol[@class='crumbs']//a"}
    - {kind: sitemap, sitemaps: ['http://shop.example/sitemap.xml']}
  detail:
    fields:
      name: {xpath: //h1, kind: text}
"""


def _compiled() -> CompiledDiscovery:
    return compile_discovery(rules_from_text(rule_text("shop.example", SOURCES), "d.yaml"))


def test_breadcrumb_links_carry_the_trail_as_their_path() -> None:
    page = parse_html(
        '<ol class="crumbs"><li><a href="/">Home</a></li><li><a href="/c/shoes/">Shoes</a>'
        '</li><li><a href="/c/shoes/boots/">Boots</a></li><li><a href="/brand/acme">Acme</a>'
        '</li><li><a href="http://far.example/c/x/">Far</a></li><li>Boot</li></ol>', URL)
    assert breadcrumb_links(_compiled(), page, URL) == [
        (("Shoes",), "http://shop.example/c/shoes/"),
        (("Shoes", "Boots"), "http://shop.example/c/shoes/boots/")]


def test_page_links_from_anchors_and_inline_json() -> None:
    page = parse_html(
        '<script type="application/json">{"menu": [{"label": "Bags", "link": "/c/bags/"}]}'
        '</script><a href="/c/shoes/">Shoes</a><a href="/p/x.html">X</a>'
        '<a href="/c/bags/">Bags again</a>', "http://shop.example/")
    assert page_links(_compiled(), page, "http://shop.example/") == [
        ("Shoes", "http://shop.example/c/shoes/"), ("Bags again", "http://shop.example/c/bags/")]


def test_sitemap_links_split_index_and_categories() -> None:
    d = _compiled()
    index = (b'<sitemapindex><sitemap><loc>http://shop.example/s1.xml</loc></sitemap>'
             b"</sitemapindex>")
    got = sitemap_links(d, index, "http://shop.example/sitemap.xml",
                        max_bytes=10_000, max_urls=10)
    assert got.more == ["http://shop.example/s1.xml"] and got.categories == []
    urlset = (b"<urlset><url><loc>http://shop.example/c/a/</loc></url>"
              b"<url><loc>http://shop.example/p/a.html</loc></url></urlset>")
    got = sitemap_links(d, urlset, "http://shop.example/s1.xml",
                        max_bytes=10_000, max_urls=10)
    assert got.categories == ["http://shop.example/c/a/"] and got.listed == 2


def test_side_products_share_the_shape_of_the_list_s_links() -> None:
    """Links shaped like the items' detail links, outside the items, once each; not the
    categories (they match a pattern), other folders, or pages of another extension."""
    url = "http://shop.example/c/shoes/"
    page = parse_html(
        '<ul><li><a href="/p/boot.html">Boot</a></li></ul><aside><a href="/p/clog.html#top">'
        'Clog</a><a href="/p/clog.html">Clog</a><a href="/p/boot.html">Boot</a></aside>'
        '<a href="/c/bags/">Bags</a><a href="/pages/about">About</a><a href="/p/size-guide">'
        'Sizes</a><a href="http://far.example/p/far.html">Far</a>', url)
    items = ["http://shop.example/p/boot.html"]
    assert side_products(_compiled(), page, url, items) == ["http://shop.example/p/clog.html"]
    without = compile_discovery(rules_from_text(rule_text("shop.example", SOURCES.replace(
        "    - {kind: breadcrumb, xpath: \"//ol[@class='crumbs']//a\"}\n", "")), "d.yaml"))
    assert side_products(without, page, url, items) == []


def test_side_products_need_a_shape_more_than_the_depth() -> None:
    """Root-level product slugs look like any other root page: nothing is taken."""
    url = "http://shop.example/shoes"
    page = parse_html('<a href="/boot">Boot</a><a href="/clog">Clog</a>', url)
    assert side_products(_compiled(), page, url, ["http://shop.example/boot"]) == []
