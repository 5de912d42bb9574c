"""Shop "pixel": every HTML route is the same empty shell; the JSON API carries the truth.

The rendered pages are checked in ``test_browser_render.py``; here, without a browser,
the raw HTML must hold no shop data at all and the API must say exactly what the
ground truth says (the app only copies API values into the DOM).
"""

from __future__ import annotations

import html
import json
from typing import Any
from urllib.parse import parse_qs, urljoin, urlsplit

from tests.demo.helpers import decode, fetch


def _api(base: str, path: str) -> Any:
    status, ctype, body = fetch(base + path)
    assert status == 200, path
    assert ctype.startswith("application/json"), (path, ctype)
    return json.loads(body)


def _list_api_path(url: str) -> str:
    parts = urlsplit(url)
    assert parts.path.startswith("/browse/"), url
    page = parse_qs(parts.query).get("page", ["1"])[0]
    return f"/api/category/{parts.path.removeprefix('/browse/')}.json?page={page}"


def test_every_html_route_is_the_same_shell(demo_truth: dict[str, Any]) -> None:
    truth = demo_truth["pixel"]
    urls = [truth["home"], *truth["list_pages"], *truth["detail_pages"]]
    shells = {decode(*fetch(url)[1:]) for url in urls}
    assert len(shells) == 1, "home, list and detail pages serve one identical shell"
    shell = shells.pop()
    assert '<div id="root"></div>' in shell and "<noscript>" in shell
    assert 'src="/static/app.js"' in shell and "<title>Pixel Bazaar</title>" in shell
    for product in truth["products"]:
        assert product["name"] not in shell and html.escape(product["name"]) not in shell
    for cat in truth["categories"]:
        assert cat["name"] not in shell and html.escape(cat["name"]) not in shell
    assert "$" not in shell, "no prices in the raw HTML"


def test_app_assets_are_served(demo_truth: dict[str, Any]) -> None:
    base = demo_truth["pixel"]["base_url"]
    status, ctype, body = fetch(base + "/static/app.js")
    assert status == 200 and ctype.startswith("application/javascript")
    assert b"/api/category/" in body and b"/api/product/" in body and b"/api/nav.json" in body
    status, ctype, _ = fetch(base + "/static/app.css")
    assert status == 200 and ctype.startswith("text/css")


def test_nav_api_links_every_category(demo_truth: dict[str, Any]) -> None:
    truth = demo_truth["pixel"]
    base = truth["base_url"]
    nav = _api(base, "/api/nav.json")
    links = {base + top["url"] for top in nav["menu"]}
    links |= {base + child["url"] for top in nav["menu"] for child in top["children"]}
    assert links == {c["url"] for c in truth["categories"]}
    assert len(nav["footer"]) >= 3 and all(len(col["links"]) >= 4 for col in nav["footer"])


def test_list_api_matches_truth(demo_truth: dict[str, Any]) -> None:
    truth = demo_truth["pixel"]
    base = truth["base_url"]
    pages_by_cat = {tuple(c["path"]): len(c["pages"]) for c in truth["categories"]}
    assert max(pages_by_cat.values()) >= 3
    for url, page in truth["list_pages"].items():
        data = _api(base, _list_api_path(url))
        assert [(base + i["url"], i["name"], i["price_text"]) for i in data["items"]] == [
            (i["url"], i["name"], i["price_text"]) for i in page["items"]], url
        assert [base + i["image"] for i in data["items"]] == [i["image"] for i in page["items"]]
        assert [i["price"] for i in data["items"]] == [i["price"] for i in page["items"]]
        assert data["page"] == page["page"]
        assert data["pages"] == pages_by_cat[tuple(page["category"])]
        assert data["category"]["name"] == page["category"][-1]
        # the app links the next page as a relative "?page=N"
        nxt = urljoin(url, f"?page={data['page'] + 1}") if data["page"] < data["pages"] else None
        assert nxt == page["next"], url
        # the "Trending now" rail reuses the card markup but never repeats grid items
        grid_ids = {i["id"] for i in data["items"]}
        assert len(data["trending"]) >= 3 and not grid_ids & {i["id"] for i in data["trending"]}


def test_product_api_matches_truth(demo_truth: dict[str, Any]) -> None:
    truth = demo_truth["pixel"]
    base = truth["base_url"]
    for product in truth["products"]:
        slug = product["url"].rsplit("/", 1)[1]
        data = _api(base, f"/api/product/{slug}.json")
        assert base + data["url"] == product["url"]
        for key in ("name", "sku", "brand", "price", "price_text", "currency", "original_price",
                    "availability", "description", "rating"):
            assert data[key] == product[key], (product["url"], key)
        assert data["reviews"] == product["review_count"]
        assert [base + i for i in data["images"]] == product["images"]
        assert [c["name"] for c in data["breadcrumb"]] == product["breadcrumb"]
        if product["original_price"] is None:
            assert data["old_price_text"] is None
        else:
            assert data["old_price_text"] == f"${product['original_price']:,.2f}"
        assert data["in_stock"] == (product["availability"] == "in_stock")


def test_api_serves_only_existing_pages(demo_truth: dict[str, Any]) -> None:
    truth = demo_truth["pixel"]
    base = truth["base_url"]
    for cat in truth["categories"]:
        path = _list_api_path(cat["url"]).replace("?page=1", f"?page={len(cat['pages']) + 1}")
        assert fetch(base + path)[0] == 404, path
        assert fetch(cat["url"] + f"?page={len(cat['pages']) + 1}")[0] == 404
    assert fetch(base + "/api/product/no-such-thing.json")[0] == 404
