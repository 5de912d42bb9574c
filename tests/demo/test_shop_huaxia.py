"""Shop "huaxia": GBK bytes, dl/dd items in order and detail fields, with XPaths the test knows."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.demo.helpers import fetch, page_tree, text_of

GRID = '//div[@id="plist"]/dl[@class="goods-item"]'
ROWS = '//div[@id="rows"]/div[@class="row-item"]'
HOT = '//div[@class="hot-sale"]//dl[@class="goods-item"]'


def test_pages_are_really_gbk(demo_truth: dict[str, Any]) -> None:
    truth = demo_truth["huaxia"]
    urls = [truth["home"], *list(truth["list_pages"])[:3], *list(truth["detail_pages"])[:3]]
    for url in urls:
        status, ctype, body = fetch(url)
        assert status == 200 and ctype == "text/html; charset=gbk"
        with pytest.raises(UnicodeDecodeError):
            body.decode("utf-8")
        text = body.decode("gbk")
        assert "首页" in text and "￥" in text
        assert '<meta http-equiv="Content-Type" content="text/html; charset=gbk" />' in text
        # every character was encodable: no numeric character references slipped in
        assert not re.search(rb"&#", body), url


def test_list_items_in_order(demo_truth: dict[str, Any]) -> None:
    truth = demo_truth["huaxia"]
    base = truth["base_url"]
    for url, page in truth["list_pages"].items():
        tree = page_tree(url)
        items = page["items"]
        if page["category"][0] == "食品饮料":    # the row layout of the food department
            rows = tree.xpath(ROWS)
            assert not tree.xpath(GRID)
            assert [r.xpath('string(.//h4/a/@href)') for r in rows] == [
                i["url"][len(base):] for i in items], url
            assert [text_of(r.xpath('.//strong[@class="row-jg"]')[0]) for r in rows] == [
                i["price_text"] for i in items], url
            assert [base + r.xpath('string(.//img/@src)') for r in rows] == [
                i["image"] for i in items], url
            continue
        cards = tree.xpath(GRID)
        assert [c.xpath('string(dd[@class="spmc"]/a/@href)') for c in cards] == [
            i["url"][len(base):] for i in items], url
        assert [text_of(c.xpath('dd[@class="spmc"]/a')[0]) for c in cards] == [
            i["name"] for i in items], url
        assert [text_of(c.xpath('dd[@class="jg"]/em')[0]) for c in cards] == [
            i["price_text"] for i in items], url
        assert [base + c.xpath('string(dt[@class="tp"]//img/@data-original)') for c in cards] == [
            i["image"] for i in items], url
        assert all(c.xpath('string(dt//img/@src)') == "/images/blank.gif" for c in cards)
        # noise: the 热销排行 sidebar reuses the item markup
        hot = tree.xpath(HOT)
        assert len(hot) >= 3 and not set(map(id, hot)) & set(map(id, cards))
        nxt = tree.xpath('//div[contains(@class,"fy")]/a[.="下一页"]/@href')
        assert (base + nxt[0] if nxt else None) == page["next"], url
        mini = tree.xpath('//a[@class="mini-next"]/@href')
        assert (base + mini[0] if mini else None) == page["next"], url
        if page["page"] > 1:
            assert tree.xpath('//div[contains(@class,"fy")]/a[.="上一页"]/@href')


def test_detail_matches_truth(demo_truth: dict[str, Any]) -> None:
    products = demo_truth["huaxia"]["products"]
    for product in products[::3][:30]:
        tree = page_tree(product["url"])
        assert text_of(tree.xpath('//div[@class="sku-name"]/h1')[0]) == product["name"]
        assert text_of(tree.xpath('//dd[@class="spbh"]')[0]) == product["sku"]
        assert text_of(tree.xpath('//dd[@class="pp"]/a')[0]) == product["brand"]
        assert text_of(tree.xpath('//strong[@class="p-price"]')[0]) == product["price_text"]
        old = tree.xpath('//span[@class="yj"]/del')
        assert (text_of(old[0]) if old else None) == (
            f"￥{product['original_price']:.2f}" if product["original_price"] else None)
        stock = text_of(tree.xpath('//dd[@class="kc"]')[0])
        assert stock == ("有货" if product["availability"] == "in_stock" else "无货")
        crumbs = [text_of(a) for a in tree.xpath('//div[contains(@class,"mbx")]/a')]
        assert crumbs == ["首页", *product["breadcrumb"]]
        assert text_of(tree.xpath('//div[@class="spjs"]/p')[0]) == product["description"]
        if product["rating"] is not None:
            assert float(text_of(tree.xpath('//span[@class="pf-num"]')[0])) == product["rating"]
        assert not tree.xpath('//script[@type="application/ld+json"]')
        assert len(tree.xpath(HOT)) >= 3
