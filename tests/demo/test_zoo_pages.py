"""Zoo shops serve what their ground truth says: every list page, every product page,
the sitemaps and the channels sub-categories are found through.

Shops: the fewest development seeds that hold every axis value (a greedy cover of
seeds 0-199) and two unseen seeds. Pages are asked of the shop object (no network);
a client shell is followed to its JSON view and a script-built grid to its JSON
endpoint, as the shop's script does (the browser test runs the script itself).
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import urldefrag, urljoin

import pytest
from lxml import html as lxml_html

from structurer.demo.base import Response
from structurer.demo.zoo import AXES, ZooShop, axes_of_seed
from tests.demo.helpers import decode

BASE = "http://zoo.test"
LINK_PAGERS = ("shared_class", "numbered", "rel_next", "text_next")


def _cover() -> list[int]:
    draws = {seed: axes_of_seed(seed) for seed in range(200)}
    need = {(name, value) for name, axis in AXES.items() for value, _ in axis}
    chosen = []
    while need:
        best = max(draws, key=lambda s: (len(need & set(draws[s].items())), -s))
        chosen.append(best)
        need -= set(draws[best].items())
    return chosen


SEEDS = [*_cover(), 10003, 10111]


@pytest.fixture(scope="module", params=SEEDS, ids=[f"seed{s}" for s in SEEDS])
def shop(request: pytest.FixtureRequest) -> ZooShop:
    return ZooShop(request.param)


@pytest.fixture(scope="module")
def truth(shop: ZooShop) -> dict[str, Any]:
    return shop.ground_truth(BASE)


# ----- reading pages as a client would -----------------------------------------------------------
def answer(shop: ZooShop, url: str) -> Response:
    """GET on the shop; a shop that fails a page's first request is asked again."""
    path, host = url.removeprefix(BASE), {"Host": BASE.removeprefix("http://")}
    response = shop.handle_request(path, host)
    if response.status == 500 and shop.axes["session"] == "first_500":
        response = shop.handle_request(path, host)
    return response


def json_of(shop: ZooShop, url: str) -> Any:
    response = answer(shop, urljoin(BASE, url))
    assert response.status == 200 and response.content_type.startswith("application/json"), url
    return json.loads(response.body)


def config_of(tree: Any) -> dict[str, Any]:
    names = tree.xpath("//script[@data-config]/@data-config")
    if not names:
        return {}
    return dict(json.loads(tree.xpath(f'//script[@id="{names[0]}"]')[0].text))


def served(shop: ZooShop, url: str) -> tuple[Any, dict[str, Any], str]:
    """(tree, config, raw text) of the server's HTML: the page, or a shell's JSON view."""
    response = answer(shop, url)
    assert response.status == 200, url
    text = decode(response.content_type, response.body)
    tree = lxml_html.fromstring(text, base_url=url)
    config = config_of(tree)
    if "view" in config:
        assert not tree.xpath("//a[@href]"), "a client shell holds no links"
        view = json_of(shop, config["view"])
        text = f"<html><head>{view['head']}</head><body>{view['html']}</body></html>"
        tree = lxml_html.fromstring(text, base_url=url)
        config = {**view["config"], "state": view["state"]}
    return tree, config, text


def fragment(text: str, url: str) -> Any:
    return lxml_html.fromstring(f"<div>{text}</div>", base_url=url)


def visible(tree: Any) -> str:
    """The page's text without scripts, whitespace collapsed, plus image alt texts."""
    copy = lxml_html.fromstring(lxml_html.tostring(tree))
    for node in copy.xpath("//script|//style"):
        node.drop_tree()
    return " ".join((copy.text_content() + " " + " ".join(copy.xpath("//img/@alt"))).split())


def links(tree: Any, url: str) -> list[str]:
    return [urldefrag(urljoin(url, href))[0] for href in tree.xpath(".//a/@href")]


def product_links(tree: Any, url: str, products: set[str]) -> list[str]:
    out: list[str] = []
    for link in links(tree, url):
        if link in products and (not out or out[-1] != link):
            out.append(link)
    return out


def norm(text: str | None) -> str:
    return " ".join((text or "").split())


# ----- list pages ------------------------------------------------------------------------------------
def _grid_links(tree: Any, url: str, items: list[str], products: set[str]) -> list[str]:
    """Product links inside the smallest element holding every item's link."""
    nodes = [a for a in tree.xpath("//a[@href]")
             if urldefrag(urljoin(url, a.get("href")))[0] in items]
    first, last = nodes[0], nodes[-1]
    ancestors = set(first.iterancestors())
    box = next(a for a in last.iterancestors() if a in ancestors)
    return product_links(box, url, products)


def test_list_pages_hold_exactly_their_items(shop: ZooShop, truth: dict[str, Any]) -> None:
    products = set(truth["detail_pages"])
    kind = shop.axes["pagination"]
    for url, page in truth["list_pages"].items():
        items = [i["url"] for i in page["items"]]
        tree, config, _ = served(shop, url)
        pager = tree
        if "grid" in config:
            assert not set(items) & set(links(tree, url)), "a skeleton has no items"
            data = json_of(shop, config["grid"]["src"])
            assert [urljoin(url, i["url"]) for i in data["items"]] == items, url
            assert [i["price_text"] or None for i in data["items"]] == [
                i["price_text"] for i in page["items"]]
            tree, pager = fragment(data["html"], url), fragment(data["pager"], url)
            assert product_links(tree, url, products) == items, url
        else:
            assert _grid_links(tree, url, items, products) == items, url
        text = visible(tree)
        for item in page["items"]:
            assert item["price_text"] is None or norm(item["price_text"]) in text, url
            name = item["name"]
            if shop.axes["list_names"] == "full" or len(name) <= shop.zoo.look.truncate:
                assert name in text, (url, name)
            else:
                assert name[: shop.zoo.look.truncate].rstrip() + "…" in text
                assert name in tree.xpath("//a/@title") and name in tree.xpath("//img/@alt")
        if page["next"] is None:
            continue
        n = page["page"] + 1
        if kind in LINK_PAGERS:
            assert page["next"] in links(pager, url), url
        elif kind == "script":
            assert pager.xpath(f'//a[@href="#"][@data-page="{n}"]'), url
            assert config["paging"]["pages"][n - 1] == page["next"].removeprefix(BASE)
        else:
            assert pager.xpath(f'//*[@data-next-page="{n}"]'), url
            assert json_of(shop, config["paging"]["api"].replace("{n}", str(n)))["page"] == n


# ----- product pages --------------------------------------------------------------------------------
def _check_rating(shop: ZooShop, tree: Any, text: str, product: dict[str, Any]) -> None:
    kind, rating = shop.axes["rating"], product["rating"]
    if kind == "none" or rating is None:
        assert product["review_count"] is None
        return
    assert shop.zoo.t("reviews_n", n=product["review_count"]) in text
    if kind == "class_word":
        word = ("Zero", "One", "Two", "Three", "Four", "Five")[int(rating)]
        assert tree.xpath(f'//p[@class="star-rating {word}" or @class="stars {word.lower()}"]')
        assert rating == int(rating)
    elif kind == "class_num":
        name = f"rating-{int(rating)}" + ("-5" if rating % 1 else "")
        assert tree.xpath(f'//span[@class="rating {name}"]')
    elif kind == "width":
        assert tree.xpath(f'//*[@style="width:{round(rating * 20)}%"]')
    elif kind == "aria":
        number = shop.zoo.locale.number(rating, 1)
        assert tree.xpath(f'//*[@aria-label="{shop.zoo.t("rated", r=number)}"]')
    else:
        assert f"{shop.zoo.locale.number(rating, 1)} / 5" in text


def _check_stock(shop: ZooShop, tree: Any, text: str, product: dict[str, Any]) -> None:
    z, kind = shop.zoo, shop.axes["stock"]
    item = z.items[product["id"]]
    buy = tree.xpath(f'//form//button[not(@disabled)][normalize-space()="{z.t("add_to_cart")}"]')
    if kind == "button_only":
        assert bool(buy) == (product["availability"] == "in_stock"), product["url"]
    elif kind == "class_only":
        yes, no, shared = z.look.stock_classes
        state = yes if product["availability"] == "in_stock" else no
        assert tree.xpath(f'//p[@class="{shared} {state}"]'), product["url"]
    else:
        words = (z.t("in_stock", z.look.stock_variant, n=item.stock_n)
                 if product["availability"] == "in_stock"
                 else z.t("out_of_stock", z.look.stock_variant))
        assert words in text, product["url"]


def test_product_pages_show_the_truth(shop: ZooShop, truth: dict[str, Any]) -> None:
    prices = {p["url"]: p["price_text"] for p in truth["products"]}
    for product in truth["products"]:
        url = product["url"]
        tree, _, _ = served(shop, url)
        text = visible(tree)
        h1 = norm(tree.xpath("string(//h1)"))
        assert h1 == product["name"] or h1.startswith(product["name"] + " ("), (url, h1)
        for key in ("sku", "brand"):
            assert product[key] in text, (url, key)
        for crumb in product["breadcrumb"]:
            assert crumb in text
        for sentence in re.split(r"(?<=[.!?])\s+", product["description"]):
            assert sentence in text, url
        own = shop.zoo.money(shop.zoo.items[product["id"]].product.price)
        if product["price"] is not None:
            assert norm(product["price_text"]) in text, url
            assert product["currency"] == shop.zoo.locale.currency
        else:
            assert product["availability"] == "out_of_stock" and product["currency"] is None
            shown = {norm(prices[u]) for u in links(tree, url) if u in prices and u != url}
            assert norm(own) not in text or norm(own) in " ".join(shown), url
        if product["original_price"] is not None:
            assert norm(shop.zoo.money(shop.zoo.items[product["id"]].product.original_price
                                       or 0)) in text
        attrs = " ".join(tree.xpath("//@src|//@srcset|//@href|//@data-zoom-image|//@data-src"))
        if product["image"] is not None:
            assert product["image"].removeprefix(BASE) in attrs, url
        else:
            assert shop.zoo.placeholder in tree.xpath("//img/@src"), url
        _check_stock(shop, tree, text, product)
        _check_rating(shop, tree, text, product)


def test_structured_data_agrees(shop: ZooShop, truth: dict[str, Any]) -> None:
    kind = shop.axes["structured"]
    for product in truth["products"][::5]:
        tree, _, _ = served(shop, product["url"])
        blocks = [json.loads(s) for s in tree.xpath('//script[@type="application/ld+json"]/text()')]
        if kind in ("jsonld", "jsonld_partial"):
            assert blocks[0]["name"] == product["name"]
            if kind == "jsonld":
                assert blocks[0]["sku"] == product["sku"]
                price = blocks[0]["offers"].get("price")
                assert (float(price) if price else None) == product["price"]
        else:
            assert blocks == []
        if kind == "microdata":
            assert norm(tree.xpath('string(//*[@itemprop="name"][1])')) == product["name"]
            assert norm(tree.xpath('string(//*[@itemprop="sku"])')) == product["sku"]
        if kind == "opengraph":
            assert tree.xpath('//meta[@property="og:title"]/@content') == [product["name"]]


# ----- robots.txt, sitemaps and where sub-categories are linked -----------------------------------
def test_sitemaps_list_what_the_axis_says(shop: ZooShop, truth: dict[str, Any]) -> None:
    robots = answer(shop, BASE + "/robots.txt").body.decode()
    roots = re.findall(r"(?m)^Sitemap: (\S+)$", robots)
    if shop.axes["sitemap"] == "none":
        assert roots == [] and truth["sitemap"] == []
        assert answer(shop, BASE + "/sitemap.xml").status == 404
        return
    listed: list[str] = []
    todo = list(roots)
    while todo:
        xml = answer(shop, todo.pop(0)).body.decode()
        locs = re.findall(r"<loc>([^<]+)</loc>", xml)
        if "<sitemapindex" in xml:
            todo += locs
        else:
            listed += [loc.replace("&amp;", "&") for loc in locs]
    assert listed == truth["sitemap"]
    assert set(listed) >= {c["url"] for c in truth["categories"]} | set(truth["detail_pages"])
    assert (len(roots), "sitemap_index" in roots[0]) == (1, shop.axes["sitemap"] == "index")


def test_subcategories_are_linked_where_the_axis_says(shop: ZooShop,
                                                      truth: dict[str, Any]) -> None:
    kind = shop.axes["discovery"]
    leaves = {c["url"] for c in truth["categories"] if c["parent"] is not None}
    home, config, home_text = served(shop, truth["home"])
    list_links = set()
    for cat in truth["categories"]:
        tree, _, _ = served(shop, cat["url"])
        list_links |= set(links(tree, cat["url"])) - set(cat["pages"])   # its own pager
        if kind == "tiles" and cat["parent"] is None:
            children = {c["url"] for c in truth["categories"] if c["parent"] == cat["slug"]}
            assert children <= set(links(tree, cat["url"]))
    detail_links: dict[str, set[str]] = {}
    for product in truth["products"]:
        tree, _, _ = served(shop, product["url"])
        detail_links[product["url"]] = set(links(tree, product["url"]))
    everywhere = set(links(home, truth["home"])) | list_links
    if kind == "server_menu":
        assert leaves <= set(links(home, truth["home"]))
        return
    if kind == "tiles":
        return
    assert not leaves & everywhere, f"{kind}: no page's HTML links a sub-category"
    found = {u for page in detail_links.values() for u in page} & leaves
    if kind == "breadcrumbs_only":
        assert found == leaves
        for product in truth["products"]:
            leaf = next(c["url"] for c in truth["categories"]
                        if c["path"] == product["category"])
            assert leaf in detail_links[product["url"]]
        return
    assert not found
    if kind == "sitemap_only":
        assert leaves <= set(truth["sitemap"])
    elif kind == "script_menu":
        menu = json_of(shop, config["menu"]["src"])
        assert {urljoin(BASE, c["url"]) for t in menu["categories"] for c in t["children"]} == leaves
    else:
        state = config.get("state")
        if state is None:
            name = config["menu"]["state"]
            found_state = re.search(rf"window\.{name} = (.*?);</script>", home_text)
            state = json.loads(found_state.group(1) if found_state else
                               home.xpath(f'//script[@id="{name}"]/text()')[0])
        menu = state["navigation"]["categories"]
        assert {urljoin(BASE, c["url"]) for t in menu for c in t["children"]} == leaves
