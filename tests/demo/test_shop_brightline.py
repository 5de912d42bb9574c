"""Shop "brightline": exact rows and order of items, checked with XPaths the test knows."""

from __future__ import annotations

from typing import Any

from tests.demo.helpers import page_tree, text_of

ROWS = '//td[@id="{}"]//table[contains(@class,"catalog")]/tbody/tr[td[@class="sku"]]'


def test_list_rows_in_order(demo_truth: dict[str, Any]) -> None:
    truth = demo_truth["brightline"]
    base = truth["base_url"]
    leaf = {c["url"]: c["leaf"] for c in truth["categories"]}
    for url, page in truth["list_pages"].items():
        tree = page_tree(url)
        rows = tree.xpath(ROWS.format("main"))
        items = page["items"]
        assert [r.xpath('string(td[@class="prod"]/a[@class="pname"]/@href)') for r in rows] == [
            i["url"][len(base):] for i in items], url
        assert [text_of(r.xpath('td[@class="prod"]/a[@class="pname"]')[0]) for r in rows] == [
            i["name"] for i in items]
        assert [text_of(r.xpath('td[@class="price"]/b')[0]) for r in rows] == [
            i["price_text"] for i in items]
        assert [base + r.xpath('string(td[@class="prod"]//img/@src)') for r in rows] == [
            i["image"] for i in items]
        # parent pages interleave sub-category group rows; leaves do not
        groups = tree.xpath('//td[@id="main"]//table[@class="catalog"]/tbody/tr[@class="group"]')
        category_url = url.split("?")[0]
        assert bool(groups) == (not leaf[category_url]), url
        # noise: the right column reuses the row markup
        assert len(tree.xpath(ROWS.format("right"))) >= 3
        nxt_head = tree.xpath('//head/link[@rel="next"]/@href')
        nxt_body = tree.xpath('//body//a[@rel="next"]/@href')
        assert nxt_head == nxt_body
        assert (base + nxt_head[0] if nxt_head else None) == page["next"], url
        if nxt_body:
            assert text_of(tree.xpath('//body//a[@rel="next"]')[0]).startswith("Next page")


def test_parent_pages_hide_subcategory_links_in_body(demo_truth: dict[str, Any]) -> None:
    truth = demo_truth["brightline"]
    base = truth["base_url"]
    for cat in truth["categories"]:
        if cat["leaf"]:
            continue
        assert cat["lists_products"] and not cat["subcategory_links"]
        children = {c["url"][len(base):] for c in truth["categories"]
                    if c["parent"] == cat["slug"]}
        for url in cat["pages"]:
            tree = page_tree(url)
            main = set(tree.xpath('//td[@id="main"]//a/@href'))
            assert not main & children, url
            assert children <= set(tree.xpath('//ul[@id="nav"]//a/@href'))


def test_detail_fields_match_truth(demo_truth: dict[str, Any]) -> None:
    truth = demo_truth["brightline"]
    base = truth["base_url"]
    for product in truth["products"][::7][:30]:
        tree = page_tree(product["url"])
        scope = tree.xpath('//*[@itemtype="https://schema.org/Product"]')
        assert len(scope) == 1 and not tree.xpath('//script[@type="application/ld+json"]')
        item = scope[0]
        assert text_of(item.xpath('.//*[@itemprop="name"]')[0]) == product["name"]
        assert item.xpath('string(.//dd[@itemprop="sku"])') == product["sku"]
        assert item.xpath('string(.//dd[@itemprop="brand"])') == product["brand"]
        assert float(item.xpath('string(.//meta[@itemprop="price"]/@content)')) == product["price"]
        assert item.xpath('string(.//meta[@itemprop="priceCurrency"]/@content)') == "GBP"
        availability = item.xpath('string(.//link[@itemprop="availability"]/@href)')
        assert availability.endswith("InStock" if product["availability"] == "in_stock"
                                     else "OutOfStock")
        assert text_of(tree.xpath('//div[@class="pinc"]')[0]) == product["price_text"]
        ex_vat = text_of(tree.xpath('//div[@class="pex"]')[0])
        assert ex_vat.endswith(" ex. VAT")
        assert float(ex_vat.split()[0].lstrip("£").replace(",", "")) != product["price"]
        crumbs = [text_of(a) for a in tree.xpath('//div[@class="crumbs"]/a')]
        assert crumbs == ["Home", *product["breadcrumb"]]
        assert [dt.text for dt in tree.xpath('//dl[@class="spec"]/dt')] == [
            "Manufacturer", "Part number", "Pack size", "Stock"]
        assert tree.xpath('string(//table[@class="specs"]//th[.="Part number"]/../td)') == (
            product["sku"])
        gallery = tree.xpath('//div[@class="thumbs"]/a/@href')
        assert [base + g for g in gallery] == product["images"]
        assert len(tree.xpath(ROWS.format("right"))) >= 3
