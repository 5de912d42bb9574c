"""Client-rendered demo levels, rendered for real in Chromium and checked against the truth.

Shops "pixel" (every level built by script) and "maple" (list pages built by script)
are loaded in headless Chromium, waited on until the network is idle, and the
rendered DOM (``page.content()``) is parsed with lxml: the main grid must list the
truth's items in order (url, name, price text), the "Next" link must lead to the
truth's next page, and pixel's product pages must show the truth's fields.

Needs Chromium (found as the package finds it: ``$STRUCTURER_CHROMIUM``, PATH,
Playwright's folder, ``/usr/bin/chromium``); without it these tests fail, they never skip.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import urljoin

import pytest
from lxml import html as lxml_html

from tests.chromium import watched_tab
from tests.demo.helpers import text_of

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def page() -> Iterator[Any]:
    """One Chromium tab for the module (:func:`tests.chromium.watched_tab`)."""
    with watched_tab() as tab:
        yield tab


def render(tab: Any, url: str) -> lxml_html.HtmlElement:
    response = tab.goto(url, wait_until="networkidle", timeout=20_000)
    assert response is not None and response.status == 200, url
    return lxml_html.fromstring(tab.content(), base_url=url)


def sample_list_pages(truth: dict[str, Any]) -> list[str]:
    """First pages of a few categories, a page 2, the last page of the longest list."""
    cats = [c for c in truth["categories"] if c["lists_products"]]
    longest = max(cats, key=lambda c: len(c["pages"]))
    single = [c for c in cats if len(c["pages"]) == 1]
    multi = [c for c in cats if len(c["pages"]) >= 2]
    picks = [cats[0]["pages"][0], multi[-1]["pages"][1], longest["pages"][-1],
             longest["pages"][1], *(c["pages"][0] for c in single[:1]), cats[-1]["pages"][0]]
    assert len(longest["pages"]) >= 3
    return list(dict.fromkeys(picks))


def sample_products(truth: dict[str, Any], n: int = 10) -> list[dict[str, Any]]:
    """Products spread over the catalog, with out-of-stock and discounted ones among them."""
    products = truth["products"]
    picks = products[:: max(1, len(products) // (n - 2))][: n - 2]
    picks.append(next(p for p in products if p["availability"] == "out_of_stock"))
    picks.append(next(p for p in products if p["original_price"] and p not in picks))
    return picks


def check_grid(truth: dict[str, Any], url: str, cards: list[Any], link: str, price: str,
               next_href: list[str]) -> None:
    page = truth["list_pages"][url]
    got = [(urljoin(url, c.xpath(f"string({link}/@href)")), text_of(c.xpath(link)[0]),
            text_of(c.xpath(price)[0])) for c in cards]
    assert got == [(i["url"], i["name"], i["price_text"]) for i in page["items"]], url
    assert (urljoin(url, next_href[0]) if next_href else None) == page["next"], url


def test_pixel_home_renders_mega_menu(page: Any, demo_truth: dict[str, Any]) -> None:
    truth = demo_truth["pixel"]
    tree = render(page, truth["home"])
    links = {urljoin(truth["home"], h) for h in tree.xpath('//nav[@class="megamenu"]//a/@href')}
    assert {c["url"] for c in truth["categories"]} <= links
    assert len(tree.xpath('//section[@class="rail"]//div[contains(concat(" ", @class, " "), " card ")]')) >= 8
    assert page.title().startswith("Pixel Bazaar")


def test_pixel_list_pages_render_truth(page: Any, demo_truth: dict[str, Any]) -> None:
    truth = demo_truth["pixel"]
    for url in sample_list_pages(truth):
        tree = render(page, url)
        cards = tree.xpath('//div[@class="grid"]/div[contains(concat(" ", @class, " "), " card ")]')
        check_grid(truth, url, cards, './/h3[@class="card__title"]/a',
                   './/span[@class="card__price-now"]',
                   tree.xpath('//nav[@class="pager"]/a[@class="pager__next"]/@href'))
        rail = tree.xpath('//section[@class="rail"]//div[contains(concat(" ", @class, " "), " card ")]')
        assert len(rail) >= 3, "the Trending rail reuses the card markup"
        assert truth["list_pages"][url]["category"][-1] in page.title()


def test_pixel_detail_pages_render_truth(page: Any, demo_truth: dict[str, Any]) -> None:
    truth = demo_truth["pixel"]
    for product in sample_products(truth):
        url = product["url"]
        tree = render(page, url)
        info = tree.xpath('//div[@class="pdp__info"]')[0]
        assert text_of(info.xpath('.//h1[@class="pdp__title"]')[0]) == product["name"], url
        assert text_of(info.xpath('.//dd[@class="pdp__sku"]')[0]) == product["sku"]
        assert text_of(info.xpath('.//a[@class="pdp__brand"]')[0]) == product["brand"]
        assert text_of(info.xpath('.//span[@class="pdp__price-now"]')[0]) == product["price_text"]
        old = info.xpath('.//s[@class="pdp__price-was"]')
        assert bool(old) == bool(product["original_price"]), url
        stock = text_of(info.xpath('.//p[contains(@class,"pdp__stock")]')[0])
        assert stock.startswith("In stock" if product["availability"] == "in_stock"
                                else "Out of stock"), url
        crumbs = [text_of(a) for a in tree.xpath('//nav[@class="breadcrumbs"]//a')]
        assert crumbs == ["Home", *product["breadcrumb"]], url
        image = tree.xpath('//img[@class="pdp__image"]/@src')[0]
        assert urljoin(url, image) == product["image"]
        desc = text_of(tree.xpath('//div[@class="pdp__description"]')[0])
        assert desc == product["description"]
        assert page.title() == f"{product['name']} | Pixel Bazaar"


def test_maple_list_pages_render_truth(page: Any, demo_truth: dict[str, Any]) -> None:
    truth = demo_truth["maple"]
    for url in sample_list_pages(truth):
        tree = render(page, url)
        cards = tree.xpath('//div[@id="product-grid"]/div/div[@class="product"]')
        check_grid(truth, url, cards, './/div[@class="pdp-link"]/a',
                   './/span[@class="sales"]/span[@class="value"]',
                   tree.xpath('//nav[@id="plp-pagination"]//li[contains(@class,"next")]/a/@href'))
        recs = tree.xpath('//section[@id="plp-recs"]//div[@class="product-tile"]')
        assert len(recs) >= 3, "the recommendations rail reuses the tile markup"
        assert tree.xpath('//div[@id="product-grid"]/@aria-busy') == ["false"]
