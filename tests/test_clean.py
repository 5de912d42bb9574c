"""clean: decoding with the right charset, parsing, noise removal, visible text."""

from __future__ import annotations

import codecs

import pytest
from lxml import etree
from lxml.html import HtmlComment, HtmlElement

from structurer.clean import (
    clean_tree,
    decode_html,
    normalize_space,
    parse_html,
    short_text,
    structure_only,
    visible_text,
)

NOISY = """<!DOCTYPE html><html><head><title>Shop</title><meta charset="utf-8">
<style>.a{color:red}</style><script>var tracking = 1;</script>
<script type="application/ld+json">{"@type": "Product", "name": "Boot"}</script>
<link rel="stylesheet" href="/s.css"></head>
<body><!-- header comment -->Intro<?php echo 1; ?> text
<div class="product"><h2>Trail <b>Boot</b></h2><svg><path d="M0 0"/><text>icon</text></svg>after svg
<noscript><img src="/real.jpg"></noscript><template><p>tpl</p></template>
<iframe src="/ad"></iframe><span class="price">$12<small>.99</small></span>
<meta itemprop="priceCurrency" content="USD"></div>
<ul><li>one</li><li>two</li></ul><p>A&nbsp;b</p></body></html>"""


def tags(root: etree._Element) -> set[str]:
    return {el.tag for el in root.iter() if isinstance(el.tag, str)}


# ----- decoding ------------------------------------------------------------------------
def test_gbk_without_header_charset_uses_meta() -> None:
    html = '<html><head><meta charset="gbk"><title>华夏优品</title></head><body>价格 ￥1299</body></html>'
    text, encoding = decode_html(html.encode("gbk"), "text/html")
    assert "华夏优品" in text and "价格 ￥1299" in text
    assert codecs.lookup(encoding).name in ("gbk", "gb18030")
    tree = parse_html(html.encode("gbk"))
    assert tree.findtext(".//title") == "华夏优品"


def test_shift_jis_meta() -> None:
    html = ('<html><head><meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">'
            '</head><body><p>価格：1,980円 在庫あり</p></body></html>')
    text, encoding = decode_html(html.encode("shift_jis"), None)
    assert "価格：1,980円 在庫あり" in text
    assert encoding in ("shift_jis", "cp932")


def test_header_beats_meta_and_bom_beats_header() -> None:
    html = '<html><head><meta charset="gbk"></head><body>Café</body></html>'
    text, encoding = decode_html(html.encode("utf-8"), "text/html; charset=utf-8")
    assert encoding == "utf-8" and "Café" in text
    text, encoding = decode_html(codecs.BOM_UTF8 + "<p>Grüße</p>".encode(), "text/html; charset=gbk")
    assert encoding == "utf-8" and "Grüße" in text and not text.startswith("\ufeff")


def test_latin1_bytes_declared_utf8_do_not_crash() -> None:
    html = "<html><body><p>Café crème, 12,50 €, naïve — déjà vu</p></body></html>"
    body = html.encode("cp1252")
    text, encoding = decode_html(body, "text/html; charset=utf-8")
    assert "Café crème, 12,50 €" in text and encoding == "cp1252"
    text, encoding = decode_html(body, None)  # nothing declared: sniffed
    assert "déjà vu" in text
    assert parse_html(body).findtext(".//p").startswith("Caf")


def test_one_bad_byte_keeps_utf8() -> None:
    body = "<p>Grüße aus Köln, schöne Straße</p>".encode() + b"\xff"
    text, encoding = decode_html(body, "text/html; charset=utf-8")
    assert encoding == "utf-8" and "Grüße aus Köln" in text


def test_header_latin1_on_utf8_body_and_real_mismatch_to_meta() -> None:
    body = '<html><head><meta charset="utf-8"></head><body>Zürich — 5 €</body></html>'.encode()
    text, encoding = decode_html(body, "text/html; charset=ISO-8859-1")
    assert encoding == "utf-8" and "Zürich — 5 €" in text
    gbk = '<html><head><meta charset="gbk"></head><body>手机数码 智能手表</body></html>'.encode("gbk")
    text, _ = decode_html(gbk, "text/html; charset=utf-8")
    assert "手机数码 智能手表" in text


ZH = "<html><head><title>华夏优品 手机数码</title></head><body><p>价格：￥1299 有货 立即购买 这款智能手表的续航时间很长，支持心率监测和睡眠分析。</p></body></html>"
TW = "<html><body><p>價格：NT$1299 有貨 立即購買 這款智慧手錶的續航時間很長，支援心率監測。</p></body></html>"
JA = "<html><body><p>価格：1,980円 在庫あり。この商品は人気があります。送料無料でお届けします。</p></body></html>"
KO = "<html><body><p>가격: 19,800원 재고 있음. 이 상품은 인기가 많습니다. 무료 배송.</p></body></html>"
RU = "<html><body><p>Цена: 1 990 руб. В наличии. Этот товар очень популярен.</p></body></html>"
FR = "<html><body><p>Café crème, 12,50 €, naïve — déjà vu. Prix réduit: 9,99 € «ações»</p></body></html>"


@pytest.mark.parametrize("declared", ["text/html; charset=utf-8", "text/html; charset=ISO-8859-1",
                                      "text/html", None])
@pytest.mark.parametrize(("html", "codec"), [(ZH, "gbk"), (TW, "big5"), (JA, "shift_jis"),
                                             (JA, "euc_jp"), (KO, "euc_kr"), (RU, "cp1251"),
                                             (FR, "cp1252")],
                         ids=["gbk", "big5", "shift_jis", "euc_jp", "euc_kr", "cp1251", "cp1252"])
def test_a_wrong_or_missing_header_charset_is_detected(html: str, codec: str,
                                                       declared: str | None) -> None:
    """The server's default charset (UTF-8, ISO-8859-1) on a page in another one, no <meta>."""
    text, encoding = decode_html(html.encode(codec), declared)
    assert text == html
    assert codecs.lookup(encoding).name == codecs.lookup(
        "gb18030" if codec == "gbk" else codec).name


@pytest.mark.parametrize("meta", ["gbk", "iso-8859-1", "shift_jis", "windows-1251"])
def test_a_wrong_meta_charset_on_utf8_is_overridden(meta: str) -> None:
    html = f'<html><head><meta charset="{meta}"></head><body>手机数码 Zürich — 5 € Цена</body></html>'
    for header in (None, "text/html", f"text/html; charset={meta}"):
        assert decode_html(html.encode(), header) == (html, "utf-8")


def test_a_right_declaration_is_kept() -> None:
    body = ZH.encode("gbk")
    assert decode_html(body, "text/html; charset=gbk") == (ZH, "gb18030")
    western = "<p>Preis: 12 € – Größe 42</p>"
    assert decode_html(western.encode("cp1252"), "text/html; charset=windows-1252") == (
        western, "cp1252")


@pytest.mark.parametrize("depth", [300, 1500, 5000])
def test_a_page_nested_deeper_than_libxml2_allows_is_parsed_whole(depth: int) -> None:
    """libxml2 stops at 255 levels (2048 with huge_tree) and drops the rest of the page."""
    from structurer.generic.extract import extract_tree_generic
    from structurer.lexicon import load_lexicon

    html = ("<html><head><title>Trail Boot X</title></head><body>"
            + '<div class="wrap">' * depth
            + '<div class="product"><h1 class="product-title">Trail Boot X</h1>'
              '<span class="price">Price: $129.99</span><p>In stock</p></div></body></html>')
    tree = parse_html(html, "http://shop.test/p/1.html")
    assert tree.xpath("string(//h1)") == "Trail Boot X"
    result = extract_tree_generic(tree, "http://shop.test/p/1.html", load_lexicon("ecommerce"))
    assert result["kind"] == "detail"
    assert result["fields"]["name"] == "Trail Boot X" and result["fields"]["price"] == 129.99


def test_parse_empty_and_xml_prolog() -> None:
    assert parse_html("").tag == "html"
    tree = parse_html('<?xml version="1.0" encoding="utf-8"?><html><body><p>x</p></body></html>')
    assert tree.findtext(".//p") == "x"


# ----- cleaning --------------------------------------------------------------------------
def test_clean_tree_removes_noise_and_keeps_text() -> None:
    tree = parse_html(NOISY, "http://shop.test/")
    cleaned = clean_tree(tree)
    assert cleaned is not tree
    assert not tags(cleaned) & {"script", "style", "svg", "path", "noscript", "template",
                                "iframe", "img"}
    assert not cleaned.xpath("//comment() | //processing-instruction()")
    text = visible_text(cleaned)
    assert text == "Intro text Trail Boot after svg $12.99 one two A b"
    assert cleaned.xpath("//meta[@itemprop='priceCurrency']/@content") == ["USD"]
    assert cleaned.xpath("//link/@href") == ["/s.css"]
    assert cleaned.getroottree().docinfo.URL == "http://shop.test/"
    # the input is untouched
    assert {"script", "svg", "noscript"} <= tags(tree)
    assert tree.xpath("//comment()")


def test_clean_tree_can_keep_jsonld() -> None:
    cleaned = clean_tree(parse_html(NOISY), keep_jsonld=True)
    scripts = cleaned.xpath("//script")
    assert len(scripts) == 1 and scripts[0].get("type") == "application/ld+json"
    assert "Boot" in scripts[0].text and "tracking" not in etree.tostring(cleaned, encoding=str)


def test_structure_only() -> None:
    tree = parse_html(NOISY)
    bare = structure_only(tree, attributes=["class"])
    assert all(not (el.text or "").strip() and not (el.tail or "").strip() for el in bare.iter())
    assert bare.xpath("//div/@class") == ["product"] and not bare.xpath("//@href")
    assert structure_only(tree).xpath("//link/@href") == ["/s.css"]


@pytest.mark.parametrize(("html", "expected"), [
    ("<p>Price: <b>12</b>.99</p><p>next</p>", "Price: 12.99 next"),
    ("<td>a</td><td>b</td>", "a b"),
    ("<div>x<br>y</div>", "x y"),
    ("<div>a<script>b</script>c<!-- d -->e</div>", "ace"),
    ("<div>\n  lots   of\tspace\u00a0here </div>", "lots of space here"),
], ids=["inline", "cells", "br", "script-comment", "whitespace"])
def test_visible_text(html: str, expected: str) -> None:
    assert visible_text(parse_html(html)) == expected


def test_visible_text_of_one_element_and_head() -> None:
    tree = parse_html(NOISY)
    assert visible_text(tree.xpath("//span[@class='price']")[0]) == "$12.99"
    assert visible_text(tree, skip_head=False).startswith("Shop Intro")
    assert normalize_space("  a \n b ") == "a b"


def test_every_parsed_element_is_a_plain_html_element_of_a_c_lookup() -> None:
    """Parsed pages (and their copies) look element classes up in C: lxml.html's own
    lookup is a Python call per element touched. Nothing reads a form's extras."""
    tree = parse_html("<html><body><form action='/s'><input name='q' value='x'>"
                      "<select><option>a</option></select><textarea>t</textarea>"
                      "<label for='q'>Q</label></form><!-- c --></body></html>")
    for root in (tree, clean_tree(tree)):
        elements = [el for el in root.iter() if isinstance(el.tag, str)]
        assert {el.tag for el in elements} >= {"form", "input", "select", "textarea", "label"}
        assert {type(el) for el in elements} == {HtmlElement}
    assert any(type(el) is HtmlComment for el in tree.iter())
    assert tree.find(".//input").get("value") == "x"
    assert tree.find(".//textarea").text_content() == "t"


@pytest.mark.parametrize("html, most, expected", [
    ("<div><h2> Leave  a\n reply </h2></div>", 60, "Leave a reply"),
    ("<div><h2>Related<b> posts</b></h2>tail</div>", 60, "Related posts"),
    ("<div><h2>" + "word " * 40 + "</h2></div>", 60, None),     # 40 words: surely longer
    ("<div><h2>" + "x" * 70 + "</h2></div>", 60, "x" * 70),     # one long word: the caller
    ("<div><h2>a \u00a0 b</h2></div>", 3, "a b"),               # decides on its length
    ("<div><h2>  </h2></div>", 60, ""),
])
def test_short_text_is_the_spaced_text_or_none_when_surely_longer(
        html: str, most: int, expected: str | None) -> None:
    heading = parse_html(html).find(".//h2")
    assert short_text(heading, most) == expected
    if expected is not None:
        assert expected == normalize_space(heading.text_content())
    else:
        assert len(normalize_space(heading.text_content())) > most
