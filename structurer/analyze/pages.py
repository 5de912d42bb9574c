"""Pages as analysis sees them, and what kind of page each one is.

Input: a URL and decoded HTML. Output: a :class:`PageView` — the parsed tree with
script/style text emptied (positions kept, so XPaths learned here work on raw
pages), the page's JSON-LD objects, its repeated regions (computed once), and a
page kind: ``list`` (repeated product blocks), ``detail`` (one product), or
``other`` (navigation, category tiles, content).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal

from lxml.html import HtmlElement

from structurer.analyze.dom import MONEY_RE, text_of
from structurer.analyze.lists import Region, find_regions, is_product_region
from structurer.clean import parse_html
from structurer.lexicon import Lexicon

PageKind = Literal["list", "detail", "other"]
_EMPTY_TAGS = ("script", "style", "noscript", "template", "svg")


def jsonld_objects(tree: HtmlElement) -> list[dict[str, Any]]:
    """Every JSON object in the page's ld+json scripts, @graph flattened."""
    out: list[dict[str, Any]] = []
    for script in tree.xpath('//script[contains(@type, "ld+json")]'):
        try:
            data = json.loads(script.text or "")
        except ValueError:
            continue
        stack = data if isinstance(data, list) else [data]
        while stack:
            item = stack.pop(0)
            if isinstance(item, dict):
                out.append(item)
                graph = item.get("@graph")
                if isinstance(graph, list):
                    stack.extend(graph)
            elif isinstance(item, list):
                stack.extend(item)
    return out


def _types(obj: dict[str, Any]) -> set[str]:
    kind = obj.get("@type", [])
    return {str(k).rsplit("/", 1)[-1] for k in (kind if isinstance(kind, list) else [kind])}


def jsonld_product(objects: list[dict[str, Any]]) -> dict[str, Any] | None:
    for obj in objects:
        if _types(obj) & {"Product", "ProductGroup", "IndividualProduct"}:
            return obj
    return None


def empty_noise(tree: HtmlElement) -> None:
    """Empty script/style/svg contents in place (elements stay, so positions stay)."""
    for el in tree.iter(*_EMPTY_TAGS):
        for child in list(el):
            el.remove(child)
        el.text = None


@dataclass
class PageView:
    url: str
    tree: HtmlElement
    lexicon: Lexicon
    jsonld: list[dict[str, Any]] = field(default_factory=list)
    html: str = ""                  # the page as fetched, for replaying rules on it

    @classmethod
    def from_html(cls, url: str, html: str, lexicon: Lexicon) -> PageView:
        tree = parse_html(html, base_url=url)
        objects = jsonld_objects(tree)
        empty_noise(tree)
        return cls(url, tree, lexicon, objects, html)

    @cached_property
    def regions(self) -> list[Region]:
        return find_regions(self.tree, self.lexicon)

    @cached_property
    def product_regions(self) -> list[Region]:
        return [r for r in self.regions if is_product_region(r.features)]

    @cached_property
    def product(self) -> dict[str, Any] | None:
        return jsonld_product(self.jsonld)

    @cached_property
    def titles(self) -> list[str]:
        """What the page says its title is: <title>, og:title, twitter:title, meta title."""
        out = [text_of(t) for t in self.tree.xpath("//head/title|//title")[:1]]
        for meta in self.tree.xpath('//meta[@property="og:title" or @name="og:title" or '
                                    '@name="twitter:title" or @name="title"]'):
            content = (meta.get("content") or "").strip()
            if content:
                out.append(content)
        return [t for t in out if t]

    @cached_property
    def body(self) -> HtmlElement:
        body = self.tree.find(".//body")
        return body if body is not None else self.tree

    @cached_property
    def kind(self) -> PageKind:
        return classify(self)


def _signal_hits(page: PageView, name: str) -> float:
    vocab = page.lexicon.signals.get(name, {})
    if not vocab:
        return 0.0
    texts = [text_of(el).lower() for el in page.body.iter("button", "a", "input")
             if isinstance(el.tag, str)][:400]
    texts += [(el.get("value") or "").lower() for el in page.body.iter("input")]
    best = 0.0
    for text in texts:
        if not text or len(text) > 40:
            continue
        for phrase, weight in vocab.items():
            if phrase in text:
                best = max(best, weight)
    return best / 10.0


def _money_near_title(page: PageView) -> bool:
    """A price close to the page's single h1, outside every product list: a product page."""
    h1s = page.body.xpath("//h1")
    if len(h1s) != 1:
        return False
    listed = {el for r in page.product_regions for rec in r.records for m in rec
              for el in m.iter()}
    node = h1s[0]
    for _ in range(5):
        node = node.getparent()
        if node is None or node.tag == "body":
            return False
        for el in node.iter():
            if (isinstance(el.tag, str) and el not in listed and el.text
                    and MONEY_RE.search(el.text)):
                return True
    return False


def classify(page: PageView) -> PageKind:
    """list, detail or other, from repeated product blocks, structured data and controls."""
    product = page.product
    regions = page.product_regions
    main = regions[0] if regions else None
    main_items = len(main) if main else 0
    h1 = page.body.xpath("//h1")
    money_nodes = sum(1 for el in page.body.iter() if isinstance(el.tag, str)
                      and el.text and MONEY_RE.search(el.text))
    cart = _signal_hits(page, "add_to_cart")
    detail_score = (2.0 if product else 0.0) + (1.0 if len(h1) == 1 else 0.0) + cart
    if _money_near_title(page):
        detail_score += 1.5
    if page.tree.xpath('//meta[@property="og:type"][contains(@content, "product")]'):
        detail_score += 1.5
    list_score = 0.0
    if main is not None:
        list_score = 1.0 + math.log(main_items) + 6.0 * main.features["node_share"]
        if main.features.get("noise", 0) >= 0.8:
            list_score -= 1.5
    if list_score >= 2.5 and list_score >= detail_score:
        return "list"
    if detail_score >= 2.0 and money_nodes >= 1:
        return "detail"
    if main is not None and list_score >= 2.0:
        return "list"
    return "other"
