"""Shop "outfitters": exact nodes and order of items, checked with XPaths the test knows."""

from __future__ import annotations

from typing import Any

from tests.demo.helpers import page_tree, text_of


def test_list_grid_items_in_order(demo_truth: dict[str, Any]) -> None:
    truth = demo_truth["outfitters"]
    for url, page in truth["list_pages"].items():
        tree = page_tree(url)
        cards = tree.xpath('//main//ul[contains(@class,"columns-4")]/li[@class="product"]')
        assert [c.xpath('string(.//h2/a/@href)') for c in cards] == [
            i["url"][len(truth["base_url"]):] for i in page["items"]]
        assert [text_of(c.xpath('.//span[@class="price"]')[0]) for c in cards] == [
            i["price_text"] for i in page["items"]]
        # noise: the sidebar reuses the card markup
        assert len(tree.xpath('//aside//li[@class="product"]')) >= 3
        nxt = tree.xpath('//a[@rel="next"]/@href')
        assert (truth["base_url"] + nxt[0] if nxt else None) == page["next"]


def test_detail_jsonld_matches_truth(demo_truth: dict[str, Any]) -> None:
    import json

    for product in demo_truth["outfitters"]["products"][:30]:
        tree = page_tree(product["url"])
        data = json.loads(tree.xpath('//script[@type="application/ld+json"]/text()')[0])
        assert data["name"] == product["name"] and data["sku"] == product["sku"]
        assert float(data["offers"]["price"]) == product["price"]
        assert text_of(tree.xpath('//h1')[0]) == product["name"]
        crumbs = [text_of(a) for a in tree.xpath('//nav[@class="breadcrumb"]//li/a')][1:]
        assert crumbs == product["breadcrumb"]
