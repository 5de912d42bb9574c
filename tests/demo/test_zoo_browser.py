"""Script-built zoo pages, rendered for real in Chromium and checked against the truth.

A client-side zoo shop (every list page an empty shell filled from a JSON view) must
show each sampled list page's truth items, in order, once rendered; a shop whose
grid comes from a JSON endpoint and grows with a "load more" button must show page 1
and, after one click, pages 1 and 2. Needs Chromium (found as the package finds it);
without it these tests fail, they never skip.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import urldefrag, urljoin

import pytest
from lxml import html as lxml_html

from structurer.demo import DemoServer
from structurer.demo.zoo import ZooShop, axes_of_seed
from tests.chromium import watched_tab

pytestmark = pytest.mark.browser


def _seed(**want: str) -> int:
    return next(s for s in range(200) if axes_of_seed(s)["session"] == "none"
                and all(axes_of_seed(s)[k] == v for k, v in want.items()))


CLIENT = ZooShop(_seed(list_render="client", detail_render="client"))
MORE = ZooShop(_seed(list_render="json_grid", pagination="load_more"))


@pytest.fixture(scope="module")
def site() -> Iterator[dict[str, str]]:
    with DemoServer([CLIENT, MORE]) as server:
        yield server.urls


@pytest.fixture(scope="module")
def tab() -> Iterator[Any]:
    with watched_tab() as page:
        yield page


def product_links(tab: Any, truth: dict[str, Any]) -> list[str]:
    tree = lxml_html.fromstring(tab.content())
    out: list[str] = []
    for href in tree.xpath("//a/@href"):
        url = urldefrag(urljoin(tab.url, href))[0]
        if url in truth["detail_pages"] and (not out or out[-1] != url):
            out.append(url)
    return out


def contains_run(found: list[str], items: list[str]) -> bool:
    return any(found[i:i + len(items)] == items for i in range(len(found)))


def test_client_shell_list_pages_render_their_items(site: dict[str, str], tab: Any) -> None:
    truth = CLIENT.ground_truth(site[CLIENT.name])
    pages = list(truth["list_pages"].items())
    for url, page in [pages[0], *[p for p in pages if p[1]["page"] == 2][:1], pages[-1]]:
        raw = lxml_html.fromstring(CLIENT.handle(url[len(truth["base_url"]):]).body)
        assert not raw.xpath("//a"), "the server sends an empty shell"
        response = tab.goto(url, wait_until="networkidle", timeout=20_000)
        assert response is not None and response.status == 200
        items = [i["url"] for i in page["items"]]
        assert contains_run(product_links(tab, truth), items), url
        assert tab.title().startswith(page["category"][-1])


def test_load_more_appends_the_next_page(site: dict[str, str], tab: Any) -> None:
    truth = MORE.ground_truth(site[MORE.name])
    url = next(c["pages"][0] for c in truth["categories"] if len(c["pages"]) >= 2
               and c["lists_products"])
    first = [i["url"] for i in truth["list_pages"][url]["items"]]
    second = [i["url"] for i in truth["list_pages"][truth["list_pages"][url]["next"]]["items"]]
    tab.goto(url, wait_until="networkidle", timeout=20_000)
    assert contains_run(product_links(tab, truth), first)
    assert not set(second) & set(product_links(tab, truth))
    tab.click("[data-next-page]")
    last = second[-1][len(truth["base_url"]):]
    tab.wait_for_function("path => [...document.querySelectorAll('a')].some("
                          "a => a.getAttribute('href') === path)", arg=last, timeout=10_000)
    assert contains_run(product_links(tab, truth), first + second)
