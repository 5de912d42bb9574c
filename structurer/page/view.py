"""Pages as analysis sees them, and what kind of page each one is.

Input: a URL and decoded HTML. Output: a :class:`PageView` — the parsed tree with
script/style text emptied (positions kept, so XPaths learned here work on raw
pages), the page's JSON-LD objects, its repeated regions and link clusters
(computed once, when first asked), and a page kind: ``list`` (a main list of items:
products, articles), ``detail`` (one product or article), or ``other``
(navigation, category tiles, about pages).

The kind comes from rule-free views of the page weighed with the lexicon: with a
lexicon that has money fields (shops), repeated priced blocks make a list and a
price beside the single title, structured data or a cart button a detail page
(:mod:`structurer.page.productkind`); with any other lexicon (news), a strong main
link cluster (many items, a large share of the page's text, more than bare titles,
alike URLs) makes a list and an article body (text density), article structured data
or og:type a detail page.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import urlsplit

from lxml.html import HtmlElement

from structurer.clean import holds_text, parse_html
from structurer.lexicon import Lexicon
from structurer.page import density
from structurer.page.dom import link_href, text_length, text_of
from structurer.page.titles import TitleFound, title_of, title_part, titled
from structurer.structured import (
    article_object,
    jsonld_objects,
    microdata_fields,
    microdata_items,
    opengraph_fields,
    opengraph_types,
    product_object,
    told_texts,
)
from structurer.values import Base
from structurer.words import Words, compile_words

if TYPE_CHECKING:  # loaded when first asked for: an article's kind needs neither
    from structurer.page.linkclusters import LinkCluster
    from structurer.page.lists import Region

PageKind = Literal["list", "detail", "other"]
_EMPTY_TAGS = ("script", "style", "noscript", "template", "svg")
_OWN_ENTRIES = 0.8    # share of a list's links into the page itself: its own entries


def empty_noise(tree: HtmlElement, data: list[str] | None = None) -> None:
    """Empty script/style/svg contents in place (elements stay, so positions stay), and
    noscript unless it holds paragraphs (:func:`structurer.clean.holds_text`).
    The elements are listed first: removing an svg's children while iterating would end
    the walk there and leave every later script's text in place. ``data``, when given,
    receives the text of the scripts holding JSON data (not JSON-LD): the props an app
    renders its page from (:mod:`structurer.page.propstext`)."""
    for el in list(tree.iter(*_EMPTY_TAGS)):
        if el.tag == "noscript" and holds_text(el):
            continue    # the page's text for readers without scripts (clean_tree keeps it)
        if data is not None and el.tag == "script" and el.text and \
                "json" in (kind := (el.get("type") or "").lower()) and "ld+json" not in kind:
            data.append(el.text)
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
        from structurer.page.lists import find_regions

        return find_regions(self.tree, self.lexicon)

    @cached_property
    def product_regions(self) -> list[Region]:
        from structurer.page.lists import is_product_region

        return [r for r in self.regions if is_product_region(r.features)]

    @cached_property
    def product(self) -> dict[str, Any] | None:
        return product_object(self.jsonld)

    @cached_property
    def listed(self) -> frozenset[HtmlElement]:
        """Every element inside the page's product lists (related, bestsellers, ...), and
        inside the cards beside them that the repetition left out
        (:func:`structurer.page.lists.left_out`: a card without a rating unlike its
        neighbours): a button in any card of a list is no buy control of the page's own, a
        price there none of its own."""
        from structurer.page.lists import left_out

        members = {m for r in self.product_regions for rec in r.records for m in rec}
        members.update(card for r in self.product_regions for card in left_out(r))
        return frozenset(el for m in members for el in m.iter())

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
        from structurer.page.linkclusters import link_clusters

        return link_clusters(self.tree, self.url, self.lexicon)

    @cached_property
    def main_links(self) -> LinkCluster | None:
        return self.link_clusters[0] if self.link_clusters else None

    @cached_property
    def article(self) -> dict[str, Any] | None:
        return article_object(self.jsonld)

    @cached_property
    def words(self) -> Words:
        """The lexicon's vocabulary compiled (money, stock, crumb words), asked for once
        by each page's readers."""
        return compile_words(self.lexicon.vocabulary)

    @cached_property
    def title(self) -> TitleFound | None:
        """The page's title (:func:`structurer.page.titles.title_of`), found once."""
        return title_of(self.tree, self.words)

    @cached_property
    def content(self) -> density.ContentFound | None:
        """The main text by text density (computed on a copy; only when asked): for an
        article lexicon the whole article without boilerplate (:mod:`article`)."""
        if not priced(self.lexicon):
            from structurer.page.article import article_content

            found = self.title
            told = told_texts(self.jsonld, self.lexicon.signals.get("told_text", {}))
            return article_content(self.tree, self.lexicon, found.text if found else "", told)
        return density.main_content(self.tree, self.lexicon.thresholds.min_block_text)

    @cached_property
    def loose_cards(self) -> tuple[HtmlElement, ...]:
        """The priced cards outside every product list
        (:func:`structurer.page.productkind.find_loose_cards`), found once: the page's
        kind, its main list and its buy control all ask."""
        from structurer.page.productkind import find_loose_cards

        return tuple(find_loose_cards(self))

    @cached_property
    def kind(self) -> PageKind:
        return classify(self)


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
    if priced(page.lexicon):
        from structurer.page.productkind import classify_products

        return classify_products(page)
    return _classify_articles(page)


def _article_body(page: PageView, against_list: bool = True) -> float:
    """Text density finds a body that is not the page's main list: 2.5 for several
    paragraphs or a long text, 1.5 for a short one (an article with a headline), else 0.
    Without ``against_list`` the body is only checked to be text rather than links (the
    link clusters are not computed: a page with a headline)."""
    found = page.content
    text = found.evidence if found is not None else ""    # not the tidied text: its lines
    size = text_length(text)
    if found is None or size < 200:
        return 0.0
    if not against_list:
        linked = sum(text_length(text_of(a)) for a in found.element.iter("a"))
        if linked >= 0.35 * text_length(text_of(found.element)):
            return 0.0
    else:
        # the body is the main list when it shows most of its links and they are a good
        # part of its text or of its lines (titles over teasers); a table of contents
        # inside an article is neither, nor a live blog's entries
        cluster = _other_pages(page)
        shown = _shown(cluster, found, page.url) if cluster is not None else []
        if cluster is not None and len(shown) >= 0.5 * len(cluster) and (
                sum(map(len, shown)) >= 0.2 * len(text)
                or 4 * len(shown) >= text.count("\n") + 1):
            return 0.0
    return 2.5 if size >= 800 or (size >= 400 and text.count("\n") >= 1) else 1.5


def _shown(cluster: LinkCluster, found: density.ContentFound, url: str) -> list[str]:
    """The texts of the cluster's item links the article body shows as lines: half of a
    line of its text at least, or — when the list's items make half of the body's text —
    linked from it by a link that is half of its line in the markup (a title over its
    teaser, left out of the text as a link line). A word of the text that a link list
    repeats is not shown ("Birch" in a sentence, beside "<a>Birch</a> tree description"),
    nor are a few teasers inside a long text; each text once (a gallery's "Full screen"
    links are no titles)."""
    lines = found.evidence.splitlines()
    titles = set()
    items = sum(text_length(text_of(r)) for r in cluster.records)
    for a in found.element.iter("a") if 2 * items >= text_length(found.evidence) else ():
        href = link_href(a)
        block = next((p for p in a.iterancestors() if p.tag not in density.INLINE), None)
        if href is None or block is None:
            continue
        line = text_length(text_of(block)) - sum(
            text_length(text_of(child)) for child in block
            if isinstance(child.tag, str) and child.tag not in density.INLINE)
        if 2 * text_length(text_of(a)) >= line:     # its line: the block beside its blocks
            titles.add(Base(url).join(href))
    return list(dict.fromkeys(link.text for link in cluster.items if link.url in titles or any(
        link.text in line and 2 * len(link.text) >= len(line) for line in lines)))


def _headline(page: PageView) -> bool:
    """A heading of a sentence's length that the page's title repeats."""
    return titled(page.titles, page.body.iter("h1", "h2"), 20) is not None


def _short_headline(page: PageView) -> bool:
    """A shorter heading that is a whole part of the title beside the site's name
    ("Gefällt mir – jovelblog"): a short post's headline, or a list's ("Latest stories")."""
    return title_part(page.titles, page.body.iter("h1", "h2")) is not None


def _other_pages(page: PageView) -> LinkCluster | None:
    """The page's main list of links, unless its items lead into the page itself (its URL
    with another query or fragment): a live blog's or a ticker's entries linked to their
    own anchors are the page's text, not teasers of other pages (a section's list leads
    to the pages below it)."""
    cluster = page.main_links
    if cluster is None or not cluster.items:
        return cluster
    here = urlsplit(page.url)
    path = here.path.rstrip("/")
    inside = 0
    for link in cluster.items:
        there = urlsplit(link.url)
        inside += there.netloc == here.netloc and there.path.rstrip("/") == path
    return None if inside >= _OWN_ENTRIES * len(cluster.items) else cluster


def _classify_articles(page: PageView) -> PageKind:
    detail_score = 2.0 if page.article is not None else 0.0
    kinds = opengraph_types(page.tree)
    if any("article" in kind for kind in kinds):
        detail_score += 1.5
    headline = _headline(page)
    if headline and _article_body(page, against_list=False):
        return "detail"   # a headline over a text that is not links: a side list is no list
    body = _article_body(page)
    if body >= 2.5 or (body and any(kind.startswith("video") for kind in kinds)):
        # a long text that is not the main list's links (a forum, a blog); or a video's
        # own page (og:type video.*) with its description, the show's other videos beside
        return "detail"
    detail_score += body + (1.0 if headline or _short_headline(page) else 0.0)
    list_score = cluster_list_score(_other_pages(page))
    if list_score >= 3.0 and list_score > detail_score:
        return "list"
    if detail_score >= 2.5:
        return "detail"
    return "list" if list_score >= 3.0 else "other"
