"""Every demo shop serves what its ground truth says, checked without knowing its markup.

Shop-specific checks (exact nodes, order) live in ``test_shop_<name>.py``; the
checks here hold for every static shop: the truth's values appear on the page.
Client-rendered levels are checked in the browser tests.
"""

from __future__ import annotations

import html
from typing import Any

import pytest

from structurer.demo import SHOP_CLASSES, get_shop
from tests.demo.helpers import decode, fetch

SHOPS = list(SHOP_CLASSES)
STATIC_LIST = [n for n in SHOPS if SHOP_CLASSES[n].render["list"] == "static"]
STATIC_DETAIL = [n for n in SHOPS if SHOP_CLASSES[n].render["detail"] == "static"]


def _visible(page: str, value: str) -> bool:
    return value in page or html.escape(value, quote=True) in page


def test_at_least_six_shops_of_distinct_kinds() -> None:
    assert len(SHOPS) >= 6
    hard = {get_shop(name).hard for name in SHOPS}
    assert len(hard) == len(SHOPS)


@pytest.mark.parametrize("name", SHOPS)
def test_catalog_is_deterministic(name: str) -> None:
    a, b = get_shop(name).ground_truth("http://x"), get_shop(name).ground_truth("http://x")
    assert a == b


@pytest.mark.parametrize("name", SHOPS)
def test_truth_shape(name: str, demo_truth: dict[str, Any]) -> None:
    truth = demo_truth[name]
    tops = [c for c in truth["categories"] if c["parent"] is None]
    leaves = [c for c in truth["categories"] if c["leaf"]]
    assert len(tops) >= 2 and len(leaves) >= 4, "two-level category tree"
    assert all(len(c["path"]) == 2 for c in leaves)
    assert any(len(c["pages"]) >= 3 for c in truth["categories"]), "paginated lists"
    products = truth["products"]
    assert len(products) >= 60
    listed = {item["url"] for page in truth["list_pages"].values() for item in page["items"]}
    assert listed == {p["url"] for p in products}, "every product is reachable from a list"
    assert any(p["availability"] == "out_of_stock" for p in products)
    assert any(p["original_price"] for p in products)
    assert len({p["sku"] for p in products}) == len(products)
    assert len({p["name"] for p in products}) == len(products)
    for p in products:
        assert p["price"] > 0 and p["currency"] and p["image"].startswith(truth["base_url"])
        assert p["category"] == p["breadcrumb"] and p["category"] in p["categories"]


@pytest.mark.parametrize("name", SHOPS)
def test_every_route_answers(name: str, demo_server: Any, demo_truth: dict[str, Any]) -> None:
    truth = demo_truth[name]
    urls = [truth["home"], *truth["list_pages"], *list(truth["detail_pages"])[:40]]
    for url in urls:
        status, ctype, body = fetch(url)
        assert status == 200, url
        assert ctype.startswith("text/html"), url
        decode(ctype, body)  # decodes cleanly in its declared charset
    status, _, _ = fetch(truth["base_url"] + "/no/such/page")
    assert status == 404
    status, ctype, body = fetch(truth["base_url"] + "/robots.txt")
    assert status == 200 and b"User-agent" in body


@pytest.mark.parametrize("name", STATIC_LIST)
def test_list_pages_show_their_items(name: str, demo_truth: dict[str, Any]) -> None:
    truth = demo_truth[name]
    base = truth["base_url"]
    for url, page in truth["list_pages"].items():
        text = decode(*fetch(url)[1:])
        for item in page["items"]:
            path = item["url"][len(base):]
            assert f'href="{path}"' in text or f'href="{item["url"]}"' in text, (url, path)
            assert _visible(text, item["name"]), (url, item["name"])
            assert _visible(text, item["price_text"]), (url, item["price_text"])
        if page["next"]:
            nxt = page["next"][len(base):]
            assert _visible(text, f'href="{nxt}"') or f'href="{html.escape(nxt)}"' in text, url


@pytest.mark.parametrize("name", STATIC_DETAIL)
def test_detail_pages_show_their_product(name: str, demo_truth: dict[str, Any]) -> None:
    truth = demo_truth[name]
    for product in truth["products"]:
        text = decode(*fetch(product["url"])[1:])
        for key in ("name", "sku", "brand", "price_text"):
            assert _visible(text, product[key]), (product["url"], key)
        for crumb in product["breadcrumb"]:
            assert _visible(text, crumb), (product["url"], crumb)
        assert _visible(text, product["description"].split(". ")[0]), product["url"]
