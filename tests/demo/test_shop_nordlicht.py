"""Shop "nordlicht": exact nodes and order of items, checked with XPaths the test knows."""

from __future__ import annotations

from typing import Any

from tests.demo.helpers import page_tree, text_of

GRID = '//section[@aria-labelledby="{}-heading"]/div[contains(@class,"md:grid-cols-4")]'
CARD = '/div[contains(@class,"rounded-lg border")][.//h3/a]'
NEXT = '//nav[a[@aria-current="page"]]/a[normalize-space()="»"]/@href'


def test_list_grid_items_in_order(demo_truth: dict[str, Any]) -> None:
    truth = demo_truth["nordlicht"]
    base = truth["base_url"]
    for url, page in truth["list_pages"].items():
        tree = page_tree(url)
        cards = tree.xpath(GRID.format("products") + CARD)
        items = page["items"]
        assert [c.xpath("string(.//h3/a/@href)") for c in cards] == [
            i["url"][len(base):] for i in items], url
        assert [text_of(c.xpath(".//h3/a")[0]) for c in cards] == [i["name"] for i in items]
        assert [text_of(c.xpath('.//div[contains(@class,"text-lg")]')[0]) for c in cards] == [
            i["price_text"] for i in items]
        # the truth's image is the largest the card offers: its srcset's 2x entry
        assert [base + c.xpath("string(.//img/@srcset)").split(",")[-1].split()[0]
                for c in cards] == [i["image"] for i in items]
        # noise: a promo tile inside the grid, and a Bestsellers grid with identical cards
        if len(items) >= 6:
            assert tree.xpath(GRID.format("products") + '/div[not(.//h3/a/span)]')
        bestsellers = tree.xpath(GRID.format("bestsellers") + CARD)
        assert len(bestsellers) >= 3
        assert {c.get("class") for c in bestsellers} == {c.get("class") for c in cards}
        nxt = tree.xpath(NEXT)
        assert (base + nxt[0] if nxt else None) == page["next"], url
        assert "next" not in " ".join(tree.xpath("//nav[a[@aria-current]]//text()")).lower()


def test_parent_pages_show_only_subcategory_links(demo_truth: dict[str, Any]) -> None:
    truth = demo_truth["nordlicht"]
    base = truth["base_url"]
    by_slug = {c["slug"]: c for c in truth["categories"]}
    for cat in truth["categories"]:
        if cat["leaf"]:
            continue
        assert not cat["lists_products"] and cat["subcategory_links"]
        tree = page_tree(cat["url"])
        assert not tree.xpath(GRID.format("products"))
        tiles = [base + h for h in tree.xpath("//main//h3/a/@href")
                 if h.startswith("/category/")]
        children = [c["url"] for c in by_slug.values() if c["parent"] == cat["slug"]]
        assert tiles == children


def test_detail_fields_match_truth(demo_truth: dict[str, Any]) -> None:
    truth = demo_truth["nordlicht"]
    base = truth["base_url"]
    for product in truth["products"][::7][:30]:
        tree = page_tree(product["url"])
        assert not tree.xpath('//script[@type="application/ld+json"]')
        assert text_of(tree.xpath("//h1")[0]) == product["name"]
        assert tree.xpath('string(//dt[.="Item no."]/following-sibling::dd)') == product["sku"]
        assert text_of(tree.xpath('//p[contains(@class,"text-3xl")]')[0]) == product["price_text"]
        old = tree.xpath('//main//p[contains(@class,"line-through")]')
        assert bool(old) == (product["original_price"] is not None)
        crumbs = [text_of(a) for a in tree.xpath('//nav[@aria-label="Breadcrumb"]//li/div/a')]
        assert crumbs == ["Home", *product["breadcrumb"]]
        stock = "In stock" if product["availability"] == "in_stock" else "Currently unavailable"
        assert tree.xpath(f'//main//p[.="{stock}"]')
        gallery = tree.xpath('//main//button/img/@src')
        assert [base + s.split("?")[0] for s in gallery] == product["images"]
        assert len(tree.xpath(GRID.format("recently") + CARD)) >= 3
