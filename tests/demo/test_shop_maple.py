"""Shop "maple": static home, department and detail pages; script-built list pages.

Without a browser: the static levels carry their data in the raw HTML, the leaf list
pages carry none (only the category id the script needs), and the list API says
exactly what the ground truth says. The rendered lists are checked in
``test_browser_render.py``.
"""

from __future__ import annotations

import html
import http.client
import json
from typing import Any
from urllib.parse import parse_qs, urlsplit

from structurer.demo import get_shop
from tests.demo.helpers import decode, fetch, page_tree, text_of


def _names(truth: dict[str, Any]) -> list[str]:
    return [n for p in truth["products"] for n in (p["name"], html.escape(p["name"]))]


def _api_path(url: str) -> str:
    """Where the page's script fetches its products: read from the raw page, like the script."""
    tree = page_tree(url)
    (cat_id,) = tree.xpath('//*[@id="plp-root"]/@data-category-id')
    page = parse_qs(urlsplit(url).query).get("page", ["1"])[0]
    return f"/api/v2/categories/{cat_id}/products?page={page}"


def test_root_redirects_to_the_english_home(demo_truth: dict[str, Any]) -> None:
    truth = demo_truth["maple"]
    parts = urlsplit(truth["base_url"])
    conn = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=10)
    try:
        conn.request("GET", "/")
        response = conn.getresponse()
        response.read()
        assert response.status == 302 and response.getheader("Location") == "/en/"
    finally:
        conn.close()
    assert truth["home"] == truth["base_url"] + "/en/"


def test_static_category_level_shows_links_and_tiles(demo_truth: dict[str, Any]) -> None:
    truth = demo_truth["maple"]
    base = truth["base_url"]
    home = decode(*fetch(truth["home"])[1:])
    for cat in truth["categories"]:
        assert f'href="{cat["url"][len(base):]}"' in home, cat["url"]
    shop = get_shop("maple")
    for p in shop.bestsellers():  # "Top picks for you" tiles are in the static home page
        assert html.escape(p.name) in home and shop.price_text(p) in home
    for cat in truth["categories"]:
        if cat["leaf"]:
            continue
        assert not cat["lists_products"] and cat["subcategory_links"] and len(cat["pages"]) == 1
        tree = page_tree(cat["url"])
        tiles = tree.xpath('//div[contains(@class,"category-tiles")]//a[@class="category-tile"]/@href')
        children = [c["url"][len(base):] for c in truth["categories"] if c["parent"] == cat["slug"]]
        assert tiles == children
        # noise: a "Popular in ..." block reuses the product-tile markup on a page without a list
        assert len(tree.xpath('//div[@class="product-tile"]')) == 4


def test_leaf_list_html_holds_no_product_data(demo_truth: dict[str, Any]) -> None:
    truth = demo_truth["maple"]
    names = _names(truth)
    shells: dict[str, set[str]] = {}
    for url in truth["list_pages"]:
        text = decode(*fetch(url)[1:])
        assert not [n for n in names if n in text], url
        assert "/en/pdp/" not in text and 'class="product-tile"' not in text
        assert 'id="plp-root"' in text and 'src="/static/js/main.js"' in text
        shells.setdefault(urlsplit(url).path, set()).add(text)
    assert all(len(texts) == 1 for texts in shells.values()), "pages of a category share a shell"


def test_list_api_matches_truth(demo_truth: dict[str, Any]) -> None:
    truth = demo_truth["maple"]
    base = truth["base_url"]
    assert any(len(c["pages"]) >= 3 for c in truth["categories"] if c["leaf"])
    for url, page in truth["list_pages"].items():
        status, ctype, body = fetch(base + _api_path(url))
        assert status == 200 and ctype.startswith("application/json"), url
        data = json.loads(body)
        assert [(base + t["url"], t["name"], t["price"]["sales"]["formatted"])
                for t in data["products"]] == [
            (i["url"], i["name"], i["price_text"]) for i in page["items"]], url
        assert [base + t["image"] for t in data["products"]] == [i["image"] for i in page["items"]]
        assert [t["price"]["sales"]["value"] for t in data["products"]] == [
            i["price"] for i in page["items"]]
        nxt = data["pagination"]["next"]
        assert (base + nxt if nxt else None) == page["next"], url
        assert data["page"] == page["page"] and data["category"]["name"] == page["category"][-1]
        grid = {t["id"] for t in data["products"]}
        recs = data["recommendations"]["products"]
        assert len(recs) >= 3 and not grid & {t["id"] for t in recs}


def test_detail_pages_static_fields(demo_truth: dict[str, Any]) -> None:
    truth = demo_truth["maple"]
    base = truth["base_url"]
    for product in truth["products"]:
        tree = page_tree(product["url"])
        info = tree.xpath('//div[contains(@class,"product-info")]')[0]
        assert text_of(info.xpath('.//h1[@class="product-name"]')[0]) == product["name"]
        assert text_of(info.xpath('.//span[@class="product-id"]')[0]) == product["sku"]
        assert text_of(info.xpath('.//div[@class="product-brand"]/a')[0]) == product["brand"]
        price = info.xpath('.//div[@class="prices"]//span[@class="sales"]/span[@class="value"]')
        assert text_of(price[0]) == product["price_text"]
        old = info.xpath('.//div[@class="prices"]//del//span[@class="value"]/@content')
        assert [float(v) for v in old] == (
            [product["original_price"]] if product["original_price"] else [])
        stock = text_of(info.xpath('.//span[@class="availability-msg"]')[0])
        assert stock == ("In stock online" if product["availability"] == "in_stock"
                         else "Out of stock online")
        crumbs = [text_of(a) for a in tree.xpath('//ol[contains(@class,"breadcrumb")]//a')]
        assert crumbs == ["Home", *product["breadcrumb"]]
        images = tree.xpath('//div[contains(@class,"primary-images")]//img/@src')
        assert [base + i for i in images] == product["images"]
        desc = text_of(tree.xpath('//div[@class="description content"]')[0])
        assert desc == product["description"]
        data = json.loads(tree.xpath('//script[@type="application/ld+json"]/text()')[0])
        assert data["name"] == product["name"] and data["sku"] == product["sku"]
        assert data["offers"]["priceCurrency"] == "CAD" == product["currency"]
        assert float(data["offers"]["price"]) == product["price"]
        assert data["offers"]["availability"].endswith(
            "InStock" if product["availability"] == "in_stock" else "OutOfStock")
