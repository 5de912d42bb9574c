"""Shop "kumo": exact nodes and order of items, checked with XPaths the test knows."""

from __future__ import annotations

import json
import re
from typing import Any

from tests.demo.helpers import page_tree, text_of

GRID = '//section[@aria-labelledby=//h1/@id]/article[@data-testid="product-card"]'
CARROUSEL = '//section[h2="Recently viewed"]//article[@data-testid="product-card"]'
FIELD_WORDS = ("name", "price", "img", "image", "sku", "brand", "rating", "stock", "title",
               "card", "grid", "product", "item", "list", "link", "page", "nav")


def test_list_grid_items_in_order(demo_truth: dict[str, Any]) -> None:
    truth = demo_truth["kumo"]
    base = truth["base_url"]
    for url, page in truth["list_pages"].items():
        tree = page_tree(url)
        cards = tree.xpath(GRID)
        items = page["items"]
        assert [c.xpath('string(.//h3/a/@href)') for c in cards] == [
            i["url"][len(base):] for i in items], url
        assert [c.xpath('string(.//*[@itemprop="name"])') for c in cards] == [
            i["name"] for i in items], url
        assert [text_of(c.xpath('.//*[@itemprop="price"]')[0]) for c in cards] == [
            i["price_text"] for i in items], url
        assert [float(c.get("data-price")) for c in cards] == [i["price"] for i in items]
        assert [base + c.xpath('string(.//img/@src)') for c in cards] == [
            i["image"] for i in items], url
        # noise: the Recently viewed carousel reuses the very same card markup
        noise = tree.xpath(CARROUSEL)
        assert len(noise) >= 3
        assert {c.get("class") for c in noise} == {c.get("class") for c in cards}
        # numbered-only pagination: the link to page n+1 is the next page
        nxt = tree.xpath(f'//nav[@aria-label="Pagination"]//a[@aria-label="Page '
                         f'{page["page"] + 1}"]/@href')
        assert (base + nxt[0] if nxt else None) == page["next"], url
        links = tree.xpath('//nav[@aria-label="Pagination"]//a')
        assert all(text_of(a).isdigit() for a in links), "no next/previous text"


def test_class_names_are_meaningless_hashes(demo_truth: dict[str, Any]) -> None:
    truth = demo_truth["kumo"]
    urls = [*list(truth["list_pages"])[:3], *list(truth["detail_pages"])[:3]]
    for url in urls:
        tree = page_tree(url)
        classes = {c for value in tree.xpath('//@class') for c in value.split()}
        assert len(classes) > 40
        for cls in classes:
            assert re.fullmatch(r"css-[0-9a-z]{7}|_[0-9a-z]{5}_[1-9]", cls), cls
            assert not any(word in cls for word in FIELD_WORDS), cls


def test_variants_show_from_prices(demo_truth: dict[str, Any]) -> None:
    truth = demo_truth["kumo"]
    items = [i for page in truth["list_pages"].values() for i in page["items"]]
    from_items = [i for i in items if i["price_text"].startswith("From $")]
    assert from_items and len(from_items) < len(items) / 2
    for item in from_items:
        assert item["price_text"] == f"From ${item['price']:,.2f}"
    urls = [c["url"] for c in truth["categories"]]
    assert len(set(urls)) == len(urls) and all("/collections/" in u for u in urls)


def test_detail_matches_truth(demo_truth: dict[str, Any]) -> None:
    products = demo_truth["kumo"]["products"]
    for product in products[::3][:30]:
        tree = page_tree(product["url"])
        h1 = tree.xpath('//h1[@itemprop="name"]')
        assert len(h1) == 1 and text_of(h1[0]) == product["name"]
        box = h1[0].getparent()
        assert text_of(box.xpath('.//*[@itemprop="sku"]')[0]) == product["sku"]
        assert text_of(box.xpath('.//*[@itemprop="brand"]')[0]) == product["brand"]
        price = box.xpath('.//*[@itemprop="price"]')[0]
        assert text_of(price) == product["price_text"]
        assert float(price.get("content")) == product["price"]
        was = box.xpath('.//s[@aria-label="Regular price"]')
        assert (text_of(was[0]) if was else None) == (
            f"${product['original_price']:,.2f}" if product["original_price"] else None)
        assert text_of(box.xpath('.//*[@itemprop="description"]')[0]) == product["description"]
        crumbs = [text_of(a) for a in tree.xpath('//nav[@aria-label="Breadcrumb"]//li/a')][1:]
        assert crumbs == product["breadcrumb"]
        base = demo_truth["kumo"]["base_url"]
        gallery = tree.xpath('//button[starts-with(@aria-label,"Show image")]/img/@src')
        assert [base + src for src in gallery] == product["images"]
        data = json.loads(tree.xpath('//script[@type="application/ld+json"]/text()')[0])
        assert data["name"] == product["name"] and data["sku"] == product["sku"]
        offer = data["offers"]
        assert float(offer.get("price") or offer["lowPrice"]) == product["price"]
        assert len(tree.xpath(CARROUSEL)) >= 3
