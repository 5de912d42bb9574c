"""Every fetch path stays on its hosts: a hostile shop points everywhere at a canary.

The shop is a demo shop served on 127.0.0.1 whose robots.txt, a category page and a
product page redirect to a canary server on 127.0.0.2, and whose pages link, frame,
fetch and navigate there too. ``analyze`` (with the entry URL carrying credentials),
``review``, ``crawl`` (lightweight and ``--engine scrapy``), ``extract URL`` and
``extract-page URL`` run against it: the canary must not see a single request, its
text must appear nowhere, and the credentials nowhere either.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from structurer.cli import main
from structurer.demo import DemoServer, all_shops
from structurer.demo.base import Response
from tests.server import LoopbackServer, page

ROOT = Path(__file__).resolve().parent.parent
MARK = "CANARY-TEXT"


class Hostile:
    """The outfitters demo shop, with every way out leading to the canary."""

    name = "hostile"

    def __init__(self, canary: str) -> None:
        self.shop = next(s for s in all_shops() if s.name == "outfitters")
        self.canary = canary
        truth = self.shop.ground_truth("")
        self.moved_product = truth["products"][5]["url"]
        self.moved = {"/c/camping/tents/", self.moved_product}

    @property
    def routes(self) -> Mapping[str, Any]:
        return self.shop.routes

    def handle(self, path: str) -> Response:
        if path == "/robots.txt" or path in self.moved:
            return Response(302, b"", "text/plain", {"Location": self.canary + path})
        response = self.shop.handle(path)
        if not response.content_type.startswith("text/html"):
            return response
        html = response.body.decode("utf-8")
        first = re.search(r'href="(/p/[^"]+)"', html)
        if first:   # a product of the list, and its image link, lead to the canary
            html = html.replace(f'href="{first.group(1)}"',
                                f'href="{self.canary}{first.group(1)}"', 1)
        html = html.replace('href="/c/clothing/base-layers/"',
                            f'href="{self.canary}/c/clothing/base-layers/"')
        html = html.replace("</body>", f"""<nav class="partners">
<a href="{self.canary}/c/outlet/">Outlet</a> <a href="{self.canary}/p/evil.html">Evil</a></nav>
<iframe src="{self.canary}/frame" title="ad"></iframe>
<script>fetch("{self.canary}/api").catch(() => null);
addEventListener("load", () => setTimeout(() => {{ location.href = "{self.canary}/leave"; }},
                                           100));</script></body>""")
        return replace(response, body=html.encode("utf-8"))


@dataclass
class World:
    shop: str
    canary: LoopbackServer
    hostile: Hostile


@pytest.fixture(scope="module")
def world() -> Iterator[World]:
    canary_page = page(f"<html><body><h1>{MARK}</h1><ul class='products'>"
                       + "".join(f"<li class='product'><a href='/p/{i}.html'>{MARK} {i}</a>"
                                 f"<span class='price'>$1.00</span></li>" for i in range(12))
                       + "</ul></body></html>")
    with LoopbackServer({"/robots.txt": page("User-agent: *\nDisallow: /\n"),
                         "/c/camping/tents/": canary_page}, host="127.0.0.2") as canary:
        hostile = Hostile(canary.base)
        with DemoServer([hostile]) as server:   # type: ignore[list-item]
            yield World(server.urls["hostile"], canary, hostile)


@pytest.mark.browser
def test_no_command_asks_another_host(world: World, tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    shop, canary = world.shop, world.canary
    entry = shop.replace("http://", "http://shopper:s3cret@") + "/"
    assert main(["analyze", entry, "--out", str(tmp_path)]) == 0, capsys.readouterr().err
    [rules] = list(tmp_path.glob("*.yaml"))
    assert canary.hits == [], "analyze"

    review = tmp_path / "review.html"
    assert main(["review", str(rules), "--out", str(review)]) == 0, capsys.readouterr().err
    assert canary.hits == [], "review"

    records = tmp_path / "records.jsonl"
    assert main(["crawl", str(rules), "--out", str(records)]) == 0, capsys.readouterr().err
    assert canary.hits == [], "crawl"

    scrapy_records = tmp_path / "scrapy.jsonl"
    done = subprocess.run([sys.executable, "-m", "structurer", "crawl", str(rules), "--engine",
                           "scrapy", "--out", str(scrapy_records)], capture_output=True,
                          text=True, cwd=ROOT, timeout=600, env={**os.environ})
    assert done.returncode == 0, done.stderr
    assert canary.hits == [], "crawl --engine scrapy"

    capsys.readouterr()
    assert main(["extract", str(rules), shop + "/c/footwear/"]) == 0
    assert main(["extract", str(rules), shop + "/c/camping/tents/"]) == 2
    assert main(["extract-page", shop + world.hostile.moved_product]) == 2
    assert main(["extract-page", shop + "/c/footwear/hiking-boots/"]) == 0
    out, err = capsys.readouterr()
    assert err.count("off-site redirect to http://127.0.0.2:") == 2, err
    assert canary.hits == [], "extract, extract-page"

    rule_text = rules.read_text(encoding="utf-8")
    products = [json.loads(line) for line in records.read_text().splitlines()]
    scrapy_products = [json.loads(line) for line in scrapy_records.read_text().splitlines()]
    # both engines crawl the shop (the category whose menu link points off-host through
    # product breadcrumbs), into the same records
    assert len(products) > 100
    assert sorted(products, key=lambda p: p["url"]) == \
        sorted(scrapy_products, key=lambda p: p["url"])
    for name, text in [("rules", rule_text), ("review", review.read_text()),
                       ("crawl", records.read_text()), ("scrapy", scrapy_records.read_text()),
                       ("extract", out)]:
        assert MARK not in text, name
        assert "s3cret" not in text and "shopper" not in text, name
    assert f"start_url: {shop}/" in rule_text


def test_an_ipv6_shop_is_analyzed_and_crawled(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """``http://[::1]:PORT/`` used to be refused as off-site by every fetch."""
    from tests.server import send

    shop = next(s for s in all_shops() if s.name == "outfitters")

    def serve(path: str) -> Any:
        def route(handler: Any, server: LoopbackServer) -> None:
            answer = shop.handle(path)
            send(handler, answer.status, answer.body, answer.headers, answer.content_type)
        return route

    with LoopbackServer({path: serve(path) for path in shop.routes}, host="::1") as six:
        assert main(["analyze", six.base + "/", "--render", "static", "--out",
                     str(tmp_path)]) == 0, capsys.readouterr().err
        [rules] = list(tmp_path.glob("*.yaml"))
        assert f"site: '[::1]:{six.port}'" in rules.read_text() or \
            f"site: [::1]:{six.port}" in rules.read_text()
        out = tmp_path / "records.jsonl"
        assert main(["crawl", str(rules), "--out", str(out)]) == 0, capsys.readouterr().err
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == len(shop.ground_truth("")["products"])
    assert all(r["url"].startswith(f"http://[::1]:{six.port}/p/") for r in records)
