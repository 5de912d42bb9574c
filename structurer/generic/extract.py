"""Rule-free extraction of one page: its kind, and its fields or its main list.

Input: decoded HTML, the page's URL and a lexicon (``ecommerce``, ``news``, ...).
Output: one JSON-ready dict ``{"url", "kind", "template", "fields", "sources",
"items"}``. A detail page fills ``fields`` with every field of the template (None
where nothing was found; ``sources`` says where each value came from: ``jsonld``,
``microdata``, ``opengraph``, ``label``, ``lexicon``, ``title``, ``density``, ...);
a list page fills ``items`` with the main list's titles and absolute URLs. Pure: no
network, no files.
"""

from __future__ import annotations

import re
from typing import Any

from lxml.html import HtmlElement

from structurer.clean import parse_html
from structurer.generic.prices import best_price, price_text
from structurer.learn.detail import JSONLD_PATHS, jsonld_value
from structurer.learn.fields import label_match, lexicon_match, squash
from structurer.lexicon import FieldSpec, Lexicon
from structurer.page import byline, density, mainlist
from structurer.page.dates import parse_datetime
from structurer.page.dom import text_of
from structurer.page.view import (
    PageView,
    _types,
    can_buy,
    empty_noise,
    jsonld_objects,
    listed,
)
from structurer.values import (
    Base,
    compile_phrases,
    image_source,
    parse_availability,
    parse_money,
)

_ARTICLE_TYPES = {"Article", "NewsArticle", "BlogPosting", "ReportageNewsArticle", "Report"}
_MICRODATA = {"name": "name", "price": "price", "currency": "priceCurrency", "sku": "sku",
              "availability": "availability", "brand": "brand", "image": "image",
              "description": "description", "rating": "ratingValue",
              "review_count": "reviewCount"}
_NESTED = {"price": ("Offer",), "currency": ("Offer",), "availability": ("Offer",),
           "brand": ("Brand", "Organization"), "rating": ("Rating",),
           "review_count": ("Rating",)}
_OPENGRAPH = {"name": ("og:title",), "image": ("og:image",), "description": ("og:description",),
              "price": ("product:price:amount", "og:price:amount"),
              "currency": ("product:price:currency", "og:price:currency"),
              "availability": ("product:availability", "og:availability"),
              "brand": ("product:brand", "og:brand")}
_DEFINITE = frozenset({"in_stock", "out_of_stock"})
_SKIP_SECTIONS = frozenset({"footer", "nav", "aside", "header", "script", "style"})


def extract_page_generic(html: str, url: str, lexicon: Lexicon) -> dict[str, Any]:
    """Kind and fields (detail) or main list (list) of one page, without rules."""
    return extract_tree_generic(parse_html(html, base_url=url), url, lexicon)


def extract_tree_generic(tree: HtmlElement, url: str, lexicon: Lexicon) -> dict[str, Any]:
    """:func:`extract_page_generic` of a parsed page (the tree's scripts are emptied)."""
    objects = jsonld_objects(tree)
    empty_noise(tree)
    view = PageView(url, tree, lexicon, objects)
    kind = view.kind
    news = "content" in lexicon.fields
    article = next((obj for obj in view.jsonld if _types(obj) & _ARTICLE_TYPES), None)
    if news and kind != "detail":
        kind = "detail" if article is not None or _article_like(view) else kind
    elif not news and kind == "other":
        kind = "detail" if _has_product_data(view) or _priced(view) else kind
    out: dict[str, Any] = {"url": url, "kind": kind, "template": lexicon.name,
                           "fields": {}, "sources": {}, "items": []}
    if kind == "list":
        out["items"] = list_items(view)
    elif kind == "detail":
        values, sources = (news_fields(view, article) if news else product_fields(view))
        out["fields"] = {name: values.get(name) for name in lexicon.fields_for("detail")}
        out["sources"] = {k: v for k, v in sources.items() if out["fields"].get(k) is not None}
    return out


def _has_product_data(view: PageView) -> bool:
    """Structured data describing one product (a list page marks up each of its items)."""
    if view.product is not None or view.tree.xpath(
            '//meta[@property="og:type"][contains(@content, "product")]'):
        return True
    products = view.tree.xpath('//*[@itemscope][contains(@itemtype, "schema.org/Product")]'
                               '[not(ancestor::*[@itemscope][contains(@itemtype, "Product")])]')
    return len(products) == 1


def _article_like(view: PageView) -> bool:
    if view.tree.xpath('//meta[@property="og:type"][contains(@content, "article")]'):
        return True
    if view.product_regions and len(view.product_regions[0]) >= 5:
        return False
    found = view.content
    if found is None or found.text.count("\n") < 2:
        return False
    wide = sum(1 for c in found.text if "\u3040" <= c <= "\u9fff" or "\uac00" <= c <= "\ud7af")
    return len(found.text) + 2 * wide >= 400  # a CJK character carries about a word


# ----- list pages -----------------------------------------------------------------------------
def list_items(view: PageView) -> list[dict[str, Any]]:
    """Title and absolute URL of every item of the page's main list (the repeated-block
    regions cross-checked with the link clusters: :mod:`structurer.page.mainlist`)."""
    return mainlist.list_items(view)


# ----- product pages -----------------------------------------------------------------------------
def _microdata(view: PageView) -> dict[str, Any]:
    scopes = view.tree.xpath('//*[@itemscope][contains(@itemtype, "Product")]')
    if not scopes:
        return {}
    scope = scopes[0]
    out: dict[str, Any] = {}
    for field, prop in _MICRODATA.items():
        for el in scope.xpath(f'.//*[@itemprop="{prop}"]'):
            owner = next((a for a in el.iterancestors() if a.get("itemscope") is not None), None)
            owner_type = (owner.get("itemtype") or "") if owner is not None else ""
            if owner is not scope and not any(t in owner_type for t in _NESTED.get(field, ())):
                continue
            if el.get("itemscope") is not None:
                names = el.xpath('.//*[@itemprop="name"]')
                value = names[0].get("content") or text_of(names[0]) if names else text_of(el)
            else:
                value = (el.get("content") or el.get("href") or el.get("src")
                         or el.get("datetime") or text_of(el))
            if value:
                out[field] = value.strip()
                break
    return out


def _opengraph(view: PageView) -> dict[str, Any]:
    metas: dict[str, str] = {}
    for meta in view.tree.iter("meta"):
        key = (meta.get("property") or meta.get("name") or "").lower()
        if key and meta.get("content") and key not in metas:
            metas[key] = meta.get("content", "").strip()
    out = {}
    for field, keys in _OPENGRAPH.items():
        for key in keys:
            if metas.get(key):
                out[field] = metas[key]
                break
    return out


def _title_element(view: PageView, name: str | None) -> HtmlElement | None:
    """The element naming the product: a heading like the known name, the one h1, an
    element showing the name, else the element the lexicon's name words point at."""
    h1s = [h for h in view.body.xpath("//h1") if text_of(h)]
    if name:
        for h in view.body.xpath("//h1|//h2|//h3"):
            if density.similarity(text_of(h), name) >= 0.8:
                return h
    if len(h1s) == 1:
        return h1s[0]
    if name:
        for el in view.body.iter():
            if (isinstance(el.tag, str) and el.tag != "a" and len(el) <= 2
                    and not any(a.tag in _SKIP_SECTIONS for a in el.iterancestors())
                    and density.similarity(text_of(el), name) >= 0.9):
                return el
    named = _named_element(view)
    return named if named is not None else (h1s[0] if h1s else None)


def _named_element(view: PageView) -> HtmlElement | None:
    """The first short text whose id/class carries the lexicon's name words."""
    spec = view.lexicon.fields.get("name")
    if spec is None:
        return None
    best: tuple[float, HtmlElement] | None = None
    for el in view.body.iter():
        if not isinstance(el.tag, str) or el.tag in _SKIP_SECTIONS or el.tag == "a" or len(el) > 2:
            continue
        text = text_of(el)
        if not 2 <= len(text) <= 150 or any(a.tag in _SKIP_SECTIONS for a in el.iterancestors()):
            continue
        score = lexicon_match(el, spec, view.lexicon, 0.5, depth=0)[0]
        if score >= 0.5 and (best is None or score > best[0] + 1e-9):
            best = (score, el)
    return best[1] if best else None


def _priced(view: PageView) -> bool:
    """A page without structured data whose price is labelled or named (or that sells
    right there: a buy button of its own) near its title."""
    title = density.title_of(view.tree)
    anchor = _title_element(view, title.text if title else "")
    found = best_price(view, anchor, listed(view))
    return found is not None and found.score >= 1.8 and (found.named or can_buy(view))


def _labelled(view: PageView, spec: FieldSpec, lexicon: Lexicon,
              scope: HtmlElement) -> tuple[str, str] | None:
    """(value, source) of the best label or attribute-word match inside ``scope``."""
    best: tuple[float, str, str] | None = None
    labels = sorted(spec.labels, key=len, reverse=True)
    strip = re.compile(r"^\s*(?:" + "|".join(re.escape(x).replace(r"\ ", r"\s*") for x in labels)
                       + r")\s*[:：#.]*\s*",
                       re.I) if labels else None
    ratio = lexicon.partial_ratio(next(n for n, s in lexicon.fields.items() if s is spec))
    squashed = {squash(label) for label in labels}
    for el in scope.iter():
        if not isinstance(el.tag, str) or el.tag in _SKIP_SECTIONS or el.tag == "a":
            continue
        text = text_of(el)
        if not text or len(text) > 80 or len(el) > 3:
            continue
        if any(a.tag in _SKIP_SECTIONS for a in el.iterancestors()):
            continue
        by_label = max(label_match(el, spec)[0], _word_label(el, spec))
        by_word = 0.9 * lexicon_match(el, spec, lexicon, ratio, depth=1)[0]
        score = max(by_label, by_word)
        if score < 0.45:
            continue
        value = strip.sub("", text) if strip is not None else text
        if not value or squash(value) in squashed:
            continue  # nothing but the label ("SKU:", "品 牌：")
        if spec.kind == "availability" and parse_availability(value) in _DEFINITE:
            score += 0.2    # "In stock" says it, whatever label words it shares
        elif any(word in value.lower() for word in spec.labels if len(word) >= 4):
            continue  # a label or heading ("Shop by brand"), not a value
        if best is None or score > best[0]:
            best = (score, value, "label" if by_label >= by_word else "lexicon")
    return (best[1], best[2]) if best else None


def _scope(view: PageView, anchor: HtmlElement | None, levels: int = 5) -> HtmlElement:
    """The block around the title where a product's own facts are (the body without one)."""
    node = anchor
    for _ in range(levels):
        parent = node.getparent() if node is not None else None
        if parent is None or parent.tag in ("body", "html"):
            break
        node = parent
    return node if node is not None and node is not anchor else view.body


def _word_label(el: HtmlElement, spec: FieldSpec) -> float:
    """An attribute word of the field used as a visible label (a dt "Designer")."""
    prev = el.getprevious()
    if prev is None or not isinstance(prev.tag, str) or prev.tag not in ("dt", "th", "label"):
        return 0.0
    word = text_of(prev).lower().rstrip(":：# ").strip()
    return min(spec.words.get(word, 0.0) / 12.0, 1.0)


def _availability_text(view: PageView) -> str | None:
    phrases = compile_phrases(view.lexicon.fields["availability"].values) \
        if "availability" in view.lexicon.fields else ()
    for el in view.body.iter():
        if not isinstance(el.tag, str) or el.tag in _SKIP_SECTIONS:
            continue
        own = (el.text or "").strip()
        if not any(ch.isalpha() for ch in own):
            continue    # a bare count ("0" items in the cart) is no stock phrase
        if len(own) <= 40 and not any(a.tag in _SKIP_SECTIONS for a in el.iterancestors()):
            value = parse_availability(own, phrases) if phrases else parse_availability(own)
            if value in ("in_stock", "out_of_stock"):
                return value
    return None


def product_fields(view: PageView) -> tuple[dict[str, Any], dict[str, str]]:
    """Every e-commerce field: JSON-LD, microdata, OpenGraph, then lexicon and density."""
    values: dict[str, Any] = {}
    sources: dict[str, str] = {}

    def put(name: str, value: Any, source: str) -> None:
        if name not in values and value not in (None, "", []):
            values[name] = value
            sources[name] = source

    if view.product is not None:
        for name, path in JSONLD_PATHS.items():
            put(name, jsonld_value(view.product, path), "jsonld")
    for name, value in _microdata(view).items():
        put(name, value, "microdata")
    for name, value in _opengraph(view).items():
        put(name, value, "opengraph")
    title = density.title_of(view.tree)
    anchor = _title_element(view, str(values.get("name") or (title.text if title else "")))
    if anchor is not None:
        put("name", text_of(anchor), str(anchor.tag))
    if title is not None:
        put("name", title.text, title.source)
    put("price", price_text(view, anchor, listed(view)), "near-title")
    lexicon = view.lexicon
    scope = _scope(view, anchor)
    for name in ("sku", "brand", "availability"):
        if name in lexicon.fields and name not in values:
            found = _labelled(view, lexicon.fields[name], lexicon, scope)
            if found:
                put(name, found[0], found[1])
    if "availability" not in values:
        put("availability", _availability_text(view), "phrase")
    if "availability" not in values and can_buy(view):
        put("availability", "in_stock", "add-to-cart")
    if "image" not in values and anchor is not None:
        put("image", _image_near(anchor, str(values.get("name") or "")), "near-title")
    if "description" not in values:
        content = density.main_content(view.tree)
        if content is not None:
            put("description", content.text, "density")
    return _normalize(values, view), sources


_NOT_PRODUCT_IMAGE = re.compile(r"banner|logo|icon|sprite|badge|flag|rating|star", re.I)


def _image_near(anchor: HtmlElement, name: str) -> str | None:
    """The picture closest to the title: one whose alt text names the product wins,
    banners, logos and icons lose."""
    node = anchor.getparent()
    for _ in range(4):
        if node is None:
            return None
        fallback = None
        for img in node.iter("img"):
            src = image_source(img)
            if not src or _NOT_PRODUCT_IMAGE.search(src):
                continue
            if name and density.similarity(img.get("alt") or img.get("title") or "", name) > 0.6:
                return src
            fallback = fallback or src
        if fallback:
            return fallback
        node = node.getparent()
    return None


def _normalize(values: dict[str, Any], view: PageView) -> dict[str, Any]:
    out = dict(values)
    for key in ("name", "sku", "brand", "description"):
        if isinstance(out.get(key), (int, float)):
            out[key] = str(out[key])
        if isinstance(out.get(key), str):
            out[key] = " ".join(out[key].split())
    if out.get("price") is not None:
        money = parse_money(str(out["price"]), out.get("currency"))
        out["price_text"] = str(out["price"])
        out["price"] = money.amount
        out["currency"] = money.currency or out.get("currency")
    if out.get("availability") is not None:
        phrases = compile_phrases(view.lexicon.fields["availability"].values) \
            if "availability" in view.lexicon.fields else ()
        raw = str(out["availability"])
        out["availability"] = parse_availability(raw, phrases) if phrases else \
            parse_availability(raw)
    if isinstance(out.get("image"), dict):
        out["image"] = out["image"].get("url") or out["image"].get("contentUrl")
    if isinstance(out.get("image"), str):
        out["image"] = Base(view.url).join(out["image"].strip())
    return out


# ----- news pages -----------------------------------------------------------------------------
def news_fields(view: PageView, article: dict[str, Any] | None
                ) -> tuple[dict[str, Any], dict[str, str]]:
    """Title, content, published date and author of an article page: JSON-LD first,
    then meta tags, the title heading and text density (:mod:`density`, :mod:`byline`)."""
    values: dict[str, Any] = {}
    sources: dict[str, str] = {}
    if article is not None:
        for name, path in (("title", "headline"), ("published", "datePublished"),
                           ("author", "author.name"), ("content", "articleBody")):
            value = jsonld_value(article, path)
            if name == "author" and value is None:
                value = jsonld_value(article, "author")
            if isinstance(value, str) and value.strip():
                values[name] = (parse_datetime(value) or value) if name == "published" \
                    else " ".join(value.split())
                sources[name] = "jsonld"
    title = density.title_of(view.tree)
    if "title" not in values and title is not None:
        values["title"], sources["title"] = title.text, title.source
    found = view.content
    if "content" not in values and found is not None:
        values["content"], sources["content"] = found.text, "density"
    if "published" not in values:
        values["published"] = byline.published_of(view.tree,
                                                  found.element if found else None)
        sources["published"] = "meta/near-title"
    if "author" not in values:
        values["author"] = byline.author_of(view.tree)
        sources["author"] = "meta/byline"
    if "url" in view.lexicon.fields:
        values.setdefault("url", view.url)
        sources.setdefault("url", "page")
    return values, sources

