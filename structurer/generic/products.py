"""Rule-free fields of a product page, or of a page of any template that is neither a
shop's nor news (books): for :mod:`structurer.generic.extract`, which loads this only
for such pages (articles and lists need none of it).

Input: a :class:`PageView`. Output: (values, sources) per field of the template —
structured data (JSON-LD, microdata, OpenGraph) first, then the title, the price near
it (:mod:`structurer.generic.prices`), labels and lexicon words around it
(:mod:`structurer.generic.labels`) and text density; values as the crawl gives them
(:func:`normalize`). Structured data is read by :mod:`structurer.generic.offers`.
"""

from __future__ import annotations

from typing import Any

from lxml.html import HtmlElement

from structurer.generic.crumbs import breadcrumb_field
from structurer.generic.describe import dense_description, named_description
from structurer.generic.labels import after_label, label_field, labelled, linked_field, url_code
from structurer.generic.offers import structured_fields
from structurer.generic.prices import best_price, old_price_field, price_text, shown_sale
from structurer.generic.reviews import star_fields
from structurer.generic.stock import SKIP_SECTIONS, availability_text, stock_state
from structurer.lexicon import FieldSpec
from structurer.page import titles
from structurer.page.dom import text_of
from structurer.page.match import lexicon_match
from structurer.page.productkind import can_buy
from structurer.page.scope import buy_control, main_region
from structurer.page.view import PageView
from structurer.values import (
    Base,
    ValueSpec,
    Words,
    compile_phrases,
    field_value,
    image_source,
    parse_availability,
    parse_money,
    plain_text,
)


def has_product_data(view: PageView) -> bool:
    """Structured data describing one product (a list page marks up each of its items)."""
    return view.described[0]



def _title_element(view: PageView, name: str | None) -> HtmlElement | None:
    """The element naming the product: a heading like the known name, the one h1, an
    element showing the name, else the element the lexicon's name words point at."""
    h1s = [h for h in view.body.xpath("//h1") if text_of(h)]
    if name:
        for h in view.body.xpath("//h1|//h2|//h3"):
            if titles.similarity(text_of(h), name) >= 0.8:
                return h
    if len(h1s) == 1:
        return h1s[0]
    if name:
        for el in view.body.iter():
            if (isinstance(el.tag, str) and el.tag != "a" and len(el) <= 2
                    and not any(a.tag in SKIP_SECTIONS for a in el.iterancestors())
                    and titles.similarity(text_of(el), name) >= 0.9):
                return el
    named = _named_element(view)
    return named if named is not None else (h1s[0] if h1s else None)


def _named_element(view: PageView) -> HtmlElement | None:
    """The first short text whose id/class carries the lexicon's name words."""
    spec = view.lexicon.spec_of("text", title=True)
    if spec is None:
        return None
    best: tuple[float, HtmlElement] | None = None
    for el in view.body.iter():
        if not isinstance(el.tag, str) or el.tag in SKIP_SECTIONS or el.tag == "a" or len(el) > 2:
            continue
        text = text_of(el)
        if not 2 <= len(text) <= 150 or any(a.tag in SKIP_SECTIONS for a in el.iterancestors()):
            continue
        score = lexicon_match(el, spec, view.lexicon, 0.5, depth=0)[0]
        if score >= 0.5 and (best is None or score > best[0] + 1e-9):
            best = (score, el)
    return best[1] if best else None


def _heading_text(anchor: HtmlElement) -> str:
    """The title's text without a ``<small>`` subtitle inside it (``Name <small>
    (Paperback)</small>``: an edition, fit or condition, not the name)."""
    if anchor.find(".//small") is None:
        return text_of(anchor)
    kept = " ".join(str(t) for t in anchor.xpath(".//text()[not(ancestor::small)]"))
    return " ".join(kept.split()) or text_of(anchor)


def priced_here(view: PageView) -> bool:
    """A page without structured data whose price is labelled or named (or that sells
    right there: a buy button of its own) near its title."""
    title = view.title
    anchor = _title_element(view, title.text if title else "")
    found = best_price(view, anchor)
    return found is not None and found.score >= 1.8 and (found.named or can_buy(view))


def _scope(view: PageView, anchor: HtmlElement | None) -> HtmlElement:
    """The block around the title where the product's own facts are, no other product's
    card in it (:func:`structurer.page.scope.main_region`; the body without a title)."""
    region = main_region(view, anchor)
    return region if region is not anchor else view.body


def product_fields(view: PageView) -> tuple[dict[str, Any], dict[str, str]]:
    """Every e-commerce field: JSON-LD, microdata, OpenGraph, then lexicon and density."""
    values: dict[str, Any] = {}
    sources: dict[str, str] = {}

    def put(name: str, value: Any, source: str) -> None:
        if name not in values and value not in (None, "", []):
            values[name] = value
            sources[name] = source

    lexicon = view.lexicon
    for name, value, source in structured_fields(view):
        put(name, value, source)
    title = view.title
    anchor = _title_element(view, str(values.get("name") or (title.text if title else "")))
    if anchor is not None:
        put("name", _heading_text(anchor), str(anchor.tag))
    if title is not None:
        put("name", title.text, title.source)
    if sources.get("price") in ("jsonld", "microdata", "opengraph"):
        sale = shown_sale(view, anchor, values)
        if sale is not None:     # the data's regular price, struck beside the sale price
            values["price"], sources["price"] = sale, "near-title"
    put("price", price_text(view, anchor), "near-title")
    extra: list[tuple[tuple[str, Any] | None, str]] = [
        (breadcrumb_field(view, str(values.get("name") or "")), "breadcrumb"),
        (old_price_field(view, anchor, values), "near-title")]
    for found, source in extra:
        if found is not None:
            put(found[0], found[1], source)
    scope = _scope(view, anchor)
    for name, spec in lexicon.fields_for("detail").items():
        if _by_label(spec) and name not in values:
            found = label_field(view, spec, scope) or linked_field(view, spec, scope, values)
            if found and (spec.kind != "availability" or stock_state(view, found[0])):
                put(name, found[0], found[1])   # a stock label's text must say a state
    code = next((n for n, spec in lexicon.fields_for("detail").items() if spec.identifier), None)
    if code is not None and code not in values:
        found = url_code(view)     # shown nowhere but there, or not by a label
        if found is not None:
            put(code, *found)
    if "availability" not in values:
        put("availability", *_stock(view, scope, anchor, values.get("price")))
    if "image" not in values and anchor is not None:
        put("image", _image_near(anchor, str(values.get("name") or ""),
                                 view.words), "near-title")
    if "description" not in values:
        put("description", *named_description(view, anchor, scope))
    for name, value in star_fields(view, scope, values).items():
        put(name, value, "markup")
    if "description" not in values:
        put("description", dense_description(view, scope, anchor), "density")
    return normalize(values, view), sources


def _stock(view: PageView, scope: HtmlElement, anchor: HtmlElement | None,
           price: Any) -> tuple[str | None, str]:
    """(state, source) of a page whose data says no stock: the stock phrase of the
    product's block, else its buy control's state, else in stock for a priced page that
    says nothing of its stock (on sale: source ``default``)."""
    control = buy_control(scope, view.lexicon)
    phrase = availability_text(view, scope, control, anchor)
    if phrase:
        return phrase, "phrase"
    if control is not None:
        return ("out_of_stock" if control.get("disabled") is not None else "in_stock",
                "add-to-cart")
    if can_buy(view):
        return "in_stock", "add-to-cart"
    return ("in_stock" if price not in (None, "", 0, "0") else None), "default"


def _by_label(spec: FieldSpec) -> bool:
    """A field looked up by its labels and words around the title: a plain text (the
    SKU, the brand, any text field a lexicon adds) or the stock state, not the title nor
    prose (the description, read by text density; the currency comes from the price)."""
    return spec.kind in ("text", "availability") and not spec.title and not spec.prose


def _image_near(anchor: HtmlElement, name: str, words: Words) -> str | None:
    """The picture closest to the title: one whose alt text names the product wins,
    banners, logos and icons (the vocabulary's ``not_product_images``) lose."""
    node = anchor.getparent()
    for _ in range(4):
        if node is None:
            return None
        fallback = None
        for img in node.iter("img"):
            src = image_source(img, words)
            if not src or words.not_product_image.search(src):
                continue
            if name and titles.similarity(img.get("alt") or img.get("title") or "", name) > 0.6:
                return src
            fallback = fallback or src
        if fallback:
            return fallback
        node = node.getparent()
    return None


def normalize(values: dict[str, Any], view: PageView) -> dict[str, Any]:
    """Values as the crawl gives them: text without markup, ratings and counts as
    numbers, a price as amount + currency (+ its text), stock as a state, URLs absolute."""
    out = dict(values)
    base = Base(view.url)
    words = view.words
    for key, value in values.items():
        spec = view.lexicon.fields.get(key)
        kind = spec.kind if spec is not None else "text"
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            continue
        if kind == "text":
            out[key] = plain_text(str(value))
        elif kind in ("integer", "rating"):
            out[key] = field_value(value, ValueSpec(kind, words=words), base)
        elif kind == "money" and key != "price":     # an old price: its amount
            out[key] = parse_money(str(value), values.get("currency"), words).amount
    if out.get("price") is not None:
        money = parse_money(str(out["price"]), out.get("currency"), words)
        out["price_text"] = str(out["price"])
        out["price"] = money.amount
        out["currency"] = money.currency or out.get("currency")
    if out.get("availability") is not None:
        spec = view.lexicon.spec_of("availability")
        phrases = compile_phrases(spec.values) if spec is not None else ()
        raw = str(out["availability"])
        out["availability"] = parse_availability(raw, phrases or words.stock)
    if isinstance(out.get("image"), dict):
        out["image"] = out["image"].get("url") or out["image"].get("contentUrl")
    if isinstance(out.get("image"), str):
        out["image"] = base.join(out["image"].strip())
    return out


# ----- pages of any other template (books, ...) ---------------------------------------------------
def template_fields(view: PageView) -> tuple[dict[str, Any], dict[str, str]]:
    """A template that is neither a shop's nor news: its title field from the page's
    title, every other field by its labels and attribute words around the title (then
    anywhere on the page)."""
    lexicon = view.lexicon
    values: dict[str, Any] = {}
    sources: dict[str, str] = {}
    title = view.title
    anchor = _title_element(view, title.text if title else "")
    scope = _scope(view, anchor)
    for name, spec in lexicon.fields_for("detail").items():
        if spec.title:
            if anchor is not None and text_of(anchor):
                values[name], sources[name] = text_of(anchor), str(anchor.tag)
            elif title is not None:
                values[name], sources[name] = title.text, title.source
            continue
        found = after_label(view.body, spec) or labelled(view, spec, lexicon, scope)
        if found is None and scope is not view.body:
            found = labelled(view, spec, lexicon, view.body)
        if found is not None:
            values[name], sources[name] = found
    return normalize(values, view), sources

