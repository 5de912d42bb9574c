"""Pages as analysis sees them, and what kind of page each one is.

Input: a URL and decoded HTML. Output: a :class:`PageView` — the parsed tree with
script/style text emptied (positions kept, so XPaths learned here work on raw
pages), the page's JSON-LD objects, its repeated regions and link clusters
(computed once, when first asked), and a page kind: ``list`` (a main list of items:
products, articles), ``detail`` (one product or article), or ``other``
(navigation, category tiles, about pages).

The kind comes from rule-free views of the page weighed with the lexicon: with a
lexicon that has money fields (shops), repeated priced blocks make a list and a
price beside the single title, structured data or a cart button a detail page;
with any other lexicon (news), a strong main link cluster (many items, a large
share of the page's text, more than bare titles, alike URLs) makes a list and an
article body (text density), article structured data or og:type a detail page.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal

from lxml.html import HtmlElement

from structurer.clean import parse_html
from structurer.kinds import compile_phrases, compile_words, gapped_phrases, parse_availability
from structurer.lexicon import Lexicon
from structurer.page import density
from structurer.page.dom import (
    SECTION_NOISE_TAGS,
    heading_before,
    link_href,
    split_money,
    text_of,
)
from structurer.page.linkclusters import LinkCluster, link_clusters, text_length
from structurer.page.lists import Region, context_words, find_regions, is_product_region
from structurer.page.match import buy_words
from structurer.structured import (
    article_object,
    jsonld_objects,
    microdata_fields,
    microdata_items,
    opengraph_fields,
    opengraph_types,
    product_object,
)

PageKind = Literal["list", "detail", "other"]
_EMPTY_TAGS = ("script", "style", "noscript", "template", "svg")
_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")


def empty_noise(tree: HtmlElement) -> None:
    """Empty script/style/svg contents in place (elements stay, so positions stay).
    The elements are listed first: removing an svg's children while iterating would end
    the walk there and leave every later script's text in place."""
    for el in list(tree.iter(*_EMPTY_TAGS)):
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
        return product_object(self.jsonld)

    @cached_property
    def described(self) -> tuple[bool, str]:
        """(whether structured data describes one product, the name it gives): a JSON-LD
        Product, the page's one top-level microdata Product, or og:type product (its
        og:title). A list page marks up each of its items, or none."""
        if self.product is not None:
            name = self.product.get("name")
            return True, name.strip() if isinstance(name, str) else ""
        if len(microdata_items(self.tree, "schema.org/Product", top=True)) == 1:
            return True, microdata_fields(self.tree, {"name": ["name"]}).get("name", "")
        if any("product" in kind for kind in opengraph_types(self.tree)):
            return True, opengraph_fields(self.tree, {"name": ["og:title"]}).get("name", "")
        return False, ""

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
    def link_clusters(self) -> list[LinkCluster]:
        """The page's lists of links, likeliest main list first."""
        return link_clusters(self.tree, self.url, self.lexicon)

    @cached_property
    def main_links(self) -> LinkCluster | None:
        return self.link_clusters[0] if self.link_clusters else None

    @cached_property
    def article(self) -> dict[str, Any] | None:
        return article_object(self.jsonld)

    @cached_property
    def content(self) -> density.ContentFound | None:
        """The main text by text density (computed on a copy; only when asked): for an
        article lexicon the whole article without boilerplate (:mod:`article`)."""
        if not priced(self.lexicon):
            from structurer.page.article import article_content

            return article_content(self.tree, self.lexicon)
        return density.main_content(self.tree, self.lexicon.thresholds.min_block_text)

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


def titled_links(block: HtmlElement, min_text: int) -> set[str]:
    """Where ``block`` links to by an item's title of ``min_text`` characters at least:
    links in a heading, or named links beside a picture linking to the same place (a
    product card)."""
    links = [a for a in block.iter("a") if link_href(a)]
    pictured = {a.get("href") for a in links if a.find(".//img") is not None}
    return {str(a.get("href")) for a in links if text_length(text_of(a)) >= min_text
            and (a.get("href") in pictured or _in_heading(a, block))}


def _title_text(page: PageView) -> int:
    """The shortest title of a card: twice the shortest link text clustered."""
    return 2 * page.lexicon.thresholds.link_min_text


def _in_heading(el: HtmlElement, block: HtmlElement) -> bool:
    node: HtmlElement | None = el
    while node is not None:
        if node.tag in _HEADINGS:
            return True
        if node is block:
            return False
        node = node.getparent()
    return False


def _in_card(el: HtmlElement, stop: HtmlElement, min_text: int) -> bool:
    """``el`` sits in a product card or a header/nav/footer/aside below ``stop`` (a
    promise of free delivery from some amount is not the product's price)."""
    node: HtmlElement | None = el
    while node is not None and node is not stop:
        if node.tag in SECTION_NOISE_TAGS or titled_links(node, min_text):
            return True
        node = node.getparent()
    return False


def listed(page: PageView) -> set[HtmlElement]:
    """Every element inside the page's product lists (related, bestsellers, ...)."""
    return {el for r in page.product_regions for rec in r.records for m in rec for el in m.iter()}


def loose_cards(page: PageView) -> list[HtmlElement]:
    """Priced blocks with a titled link outside every product region and page section:
    the products of a list too short to repeat (the last page of a category)."""
    inside = listed(page)
    noise = page.lexicon.signals.get("noise", {})
    money = compile_words(page.lexicon.vocabulary).money
    cards: dict[HtmlElement, None] = {}
    for el in page.body.iter():
        if (isinstance(el.tag, str) and el not in inside and el.text and money.search(el.text)
                and not any(a.tag in SECTION_NOISE_TAGS for a in el.iterancestors())):
            node = el
            for _ in range(4):
                node = node.getparent()
                if node is None or node.tag == "body":
                    break
                titled = titled_links(node, _title_text(page))
                if titled:
                    # one product per card; a block of several is a container
                    if len(titled) == 1 and not _noise_context(node, noise):
                        cards[node] = None
                    break
    return list(cards)


def _noise_context(el: HtmlElement, vocab: dict[str, float]) -> bool:
    """Inside a "recommended"/"bestsellers" block: by its class/id or the heading above."""
    words = context_words(el)
    heading = heading_before(el).lower()
    return any(vocab.get(w, 0) >= 8 for w in words) or any(
        w >= 8 and p in heading for p, w in vocab.items())


def _title_heading(page: PageView) -> HtmlElement | None:
    """The page's one non-empty h1, or among several the one its <title> repeats."""
    h1s = [h for h in page.body.xpath("//h1") if text_of(h)]
    if len(h1s) == 1:
        return h1s[0]
    return _titled(page, h1s, 8)


def _titled(page: PageView, headings: Iterable[HtmlElement], least: int) -> HtmlElement | None:
    """The first heading (of ``least`` characters or more) that the page's title repeats."""
    titles = [t.lower() for t in page.titles]
    for h in headings:
        text = text_of(h).lower()
        if text_length(text) >= least and any(text in t or density.similarity(text, t) >= 0.8
                                              for t in titles):
            return h
    return None


def can_buy(view: PageView) -> bool:
    """An enabled add-to-cart control: the shop sells the product now (its text holds a
    strong word of the lexicon's ``add_to_cart`` signal, ``add … cart`` spanning a gap)."""
    vocab = view.lexicon.signals.get("add_to_cart", {})
    words = compile_words(view.lexicon.vocabulary)
    buy_text = gapped_phrases(tuple(sorted(p for p, w in vocab.items() if w >= 10)))
    # other products' buttons (related, bestsellers, a short list's cards) say nothing
    inside = listed(view) | {el for card in loose_cards(view) for el in card.iter()}
    for el in view.body.iter("button", "input", "a"):
        if el.get("disabled") is not None or el.get("type") == "hidden" or el in inside:
            continue
        text = (text_of(el) if el.tag != "input" else el.get("value") or el.get("alt") or "")
        low = text.lower()
        names = " ".join(el.get(a) or "" for a in ("id", "name", "class")).lower()
        if words.several_items.search(low):
            continue    # "Add selected to basket": a list's button, not a product's
        if (low and len(low) <= 40 and buy_text.search(low)) or (
                "addtocart" in names or "add-to-cart" in names or "add_to_cart" in names):
            return True
        if _posts_to_cart(el, vocab):
            return True
    return False


def _posts_to_cart(el: HtmlElement, vocab: dict[str, float]) -> bool:
    """A submit control of a form whose action carries the ``add_to_cart`` words
    (``/cart/add``): a buy button whatever language its text is in."""
    if el.tag == "a" or (el.tag == "input" and (el.get("type") or "").lower()
                         not in ("submit", "image")):
        return False
    if el.tag == "button" and (el.get("type") or "submit").lower() != "submit":
        return False
    form = next(el.iterancestors("form"), None)
    action = (form.get("action") or "").lower() if form is not None else ""
    return bool(action) and any(phrase in action for phrase in vocab if phrase.isascii())


def _money_near_title(page: PageView) -> bool:
    """A price close to the page's single h1, outside every product list and page
    section: a product page."""
    money = compile_words(page.lexicon.vocabulary).money
    return _near_title(page, lambda el: _shows_money(el, money))


def _stock_near_title(page: PageView) -> bool:
    """A stock statement close to the page's single h1 ("Out of stock", "已售罄"), or a
    disabled buy button there: a product page that has no price to show."""
    spec = page.lexicon.fields.get("availability")
    if spec is None:
        return False
    phrases = compile_phrases(spec.values)
    vocab = page.lexicon.signals.get("add_to_cart", {})

    def says_stock(el: HtmlElement) -> bool:
        if el.tag in ("button", "input") and el.get("disabled") is not None:
            return buy_words(el, vocab)
        own = (el.text or "").strip()
        if el.tag in _CONTROLS or any(a.tag in _CONTROLS for a in el.iterancestors()):
            return False    # a filter ("In stock only") is a control, not a statement
        return 2 < len(own) <= 40 and any(c.isalpha() for c in own) and \
            parse_availability(own, phrases) in ("in_stock", "out_of_stock")

    return _near_title(page, says_stock)


_CONTROLS = frozenset({"button", "a", "label", "option", "select", "input"})


def _near_title(page: PageView, shows: Callable[[HtmlElement], bool]) -> bool:
    """An element that ``shows`` something close to the page's single h1 (up to five
    levels up), outside every product list, card and page section."""
    anchor = _title_heading(page)
    if anchor is None:
        return False
    inside = listed(page)
    node = anchor
    for _ in range(5):
        node = node.getparent()
        if node is None or node.tag == "body":
            return False
        for el in node.iter():
            if (isinstance(el.tag, str) and el not in inside and shows(el)
                    and not _in_card(el, node, _title_text(page))):
                return True
    return False


def _shows_money(el: HtmlElement, money: re.Pattern[str]) -> bool:
    """A money text (by the lexicon's ``money`` pattern) in the element's own text, or
    split over its inline children."""
    return bool(el.text and money.search(el.text)) or split_money(el) is not None


def priced(lexicon: Lexicon) -> bool:
    """The lexicon describes things with prices (a shop), not articles."""
    return any(spec.kind == "money" for spec in lexicon.fields.values())


def cluster_list_score(cluster: LinkCluster | None) -> float:
    """How strongly a link cluster makes its page a list page (0: not at all). A page's
    main list fills a good part of it, says more than bare titles or has long ones, and
    its links lead to pages of one kind (alike URLs); menus and footers do not."""
    if cluster is None or len(cluster) < 4:
        return 0.0
    f = cluster.features
    if f["text_share"] < 0.2 or f["url_alike"] < 0.5 or (f["rich"] < 0.1
                                                           and f["mean_text"] < 20):
        return 0.0
    return max(0.0, math.log(f["items"]) + 4.0 * f["text_share"] + 1.5 * f["rich"]
               + 1.0 * min(f["mean_text"] / 30.0, 1.0) + 1.0 * f["url_alike"]
               + 0.5 * f["main"] - 2.0 * f["noise"] - 1.5 * f["in_section"] - 1.0)


def classify(page: PageView) -> PageKind:
    """list, detail or other: shops by their priced blocks, articles by their text."""
    return _classify_products(page) if priced(page.lexicon) else _classify_articles(page)


def _list_hits(page: PageView) -> float:
    """Result counts and sort controls ("Showing 13-13 of 13 results", "Sort by")."""
    vocab = page.lexicon.signals.get("list_page", {})
    best = 0.0
    for el in page.body.iter("p", "span", "div", "label", "option", "select", "button"):
        own = (el.text or "").strip().lower()
        if own and len(own) <= 40 and not any(a.tag in SECTION_NOISE_TAGS
                                              for a in el.iterancestors()):
            best = max([best, *(w for p, w in vocab.items() if p in own)])
    return best / 10.0


def _classify_products(page: PageView) -> PageKind:
    product = page.product
    regions = page.product_regions
    main = regions[0] if regions else None
    main_items = len(main) if main else 0
    h1 = page.body.xpath("//h1")
    money = compile_words(page.lexicon.vocabulary).money
    money_nodes = sum(1 for el in page.body.iter() if isinstance(el.tag, str)
                      and _shows_money(el, money))
    # a buy button outside every product card is this page's own: a strong sign
    buy = can_buy(page)
    cart = 2.0 if buy else _signal_hits(page, "add_to_cart")
    described, named = page.described
    detail_score = (2.0 if product else 0.0) + (1.0 if len(h1) == 1 else 0.0) + cart
    strong = described or buy
    if _money_near_title(page):
        # priced beside its title and sold right there: related lists do not outweigh it,
        # unless the page counts or sorts results
        if buy and _list_hits(page) < 0.6:
            return "detail"
        detail_score += 4.0 if buy else 1.5
        strong = True
    if described and product is None:
        detail_score += 1.5
    if not strong and _list_hits(page) < 0.6 and _stock_near_title(page):
        detail_score += 2.5     # no price, but the product's stock is stated beside its title
        strong = True
    heading = _title_heading(page) if named else None
    if heading is not None and density.similarity(text_of(heading), named) >= 0.8:
        return "detail"     # the heading names the one product the data describes
    list_score = 0.0
    noisy = False
    if main is not None:
        list_score = 1.0 + math.log(main_items) + 6.0 * main.features["node_share"]
        noisy = main.features.get("noise", 0) >= 0.8
        if noisy:
            list_score -= 1.5
    if list_score >= 2.5 and list_score >= detail_score:
        return "list"
    if not strong and money_nodes >= 1 and (loose_cards(page) or _list_hits(page) >= 0.6):
        return "list"     # the last page of a category, one or two products left
    if detail_score >= 2.0 and money_nodes >= 1:
        return "detail"
    if main is not None and list_score >= 2.0 and not noisy:
        return "list"
    return "other"


def _article_body(page: PageView, against_list: bool = True) -> float:
    """Text density finds a body that is not the page's main list: 2.5 for several
    paragraphs or a long text, 1.5 for a short one (an article with a headline), else 0.
    Without ``against_list`` the body is only checked to be text rather than links (the
    link clusters are not computed: a page with a headline)."""
    found = page.content
    size = text_length(found.text) if found is not None else 0
    if found is None or size < 200:
        return 0.0
    if not against_list:
        linked = sum(text_length(text_of(a)) for a in found.element.iter("a"))
        if linked >= 0.35 * text_length(text_of(found.element)):
            return 0.0
    else:
        # the body is the main list when it shows most of its links and they are a good
        # part of its text or of its lines (titles over teasers); a table of contents
        # inside an article is neither
        cluster = page.main_links
        shown = [link.text for link in cluster.items if link.text in found.text] \
            if cluster is not None else []
        if cluster is not None and len(shown) >= 0.5 * len(cluster) and (
                sum(map(len, shown)) >= 0.2 * len(found.text)
                or 4 * len(shown) >= found.text.count("\n") + 1):
            return 0.0
    return 2.5 if size >= 800 or (size >= 400 and found.text.count("\n") >= 1) else 1.5


def _headline(page: PageView) -> bool:
    """A heading of a sentence's length that the page's title repeats."""
    return _titled(page, page.body.iter("h1", "h2"), 20) is not None


def _classify_articles(page: PageView) -> PageKind:
    detail_score = 2.0 if page.article is not None else 0.0
    if any("article" in kind for kind in opengraph_types(page.tree)):
        detail_score += 1.5
    headline = _headline(page)
    if headline and _article_body(page, against_list=False):
        return "detail"   # a headline over a text that is not links: a side list is no list
    body = _article_body(page)
    if body >= 2.5:
        return "detail"   # a long text that is not the main list's links: a forum, a blog
    detail_score += body + (1.0 if headline else 0.0)
    list_score = cluster_list_score(page.main_links)
    if list_score >= 3.0 and list_score > detail_score:
        return "list"
    if detail_score >= 2.5:
        return "detail"
    return "list" if list_score >= 3.0 else "other"
