"""The one reader of a page's structured data: JSON-LD, schema.org microdata, OpenGraph.

Input: a parsed page (an lxml tree; read JSON-LD before the page's scripts are emptied)
and, per field, where structured data keeps it — schema.org property paths such as
``offers.price`` (read in JSON-LD and in microdata alike) and OpenGraph meta names such
as ``product:price:amount``, both from the lexicon (a field's ``structured`` and
``opengraph`` lists; a rule file's ``jsonld`` path is one such path). Output: plain
values — the page's JSON-LD objects, its schema.org Product or Article, the value (or
the strings) at a path, and per field the raw string microdata and OpenGraph carry.

Analysis (page kinds, field hints, ``jsonld`` rules), replay (a rule's ``jsonld`` path)
and ``extract-page`` all read through here, so a path analysis writes is read the same
way by every crawl. Pure, and light to import.

The rules, once: a JSON-LD script may be wrapped in an HTML comment and hold control
characters; lists and ``@graph`` are flattened; a type matches without its URL or
``schema:`` prefix, in any case. The page's Product (Article) is the first object of
such a type, else the one a page object is about (``mainEntity``, an offer's
``itemOffered``) — never one of a list of other products (``itemListElement``). Along a
path a list gives its first element, a plain string stands for its own ``name``
(``"brand": "Acme"``) and an offer without ``price`` gives its ``lowPrice``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from lxml import etree

from structurer.logs import logger
from structurer.values import element_text, image_source, scalar_text

if TYPE_CHECKING:
    from structurer.words import Words

log = logger(__name__)

__all__ = ["ARTICLE_TYPES", "PRODUCT_TYPES", "JsonLd", "article_object", "is_a",
           "jsonld_objects", "jsonld_strings", "jsonld_value", "main_object",
           "microdata_fields", "microdata_items", "microdata_offers", "opengraph_fields",
           "opengraph_types", "product_object", "told_texts"]

# schema.org types, lower case and without prefix (a protocol fact, not a tuning choice)
PRODUCT_TYPES = frozenset({"product", "productgroup", "individualproduct", "productmodel",
                           "someproducts"})
ARTICLE_TYPES = frozenset({"article", "newsarticle", "blogposting", "reportagenewsarticle",
                           "report", "analysisnewsarticle", "opinionnewsarticle",
                           "techarticle", "liveblogposting", "scholarlyarticle",
                           "backgroundnewsarticle", "reviewnewsarticle", "satiricalarticle",
                           "advertisercontentarticle", "medicalscholarlyarticle",
                           "socialmediaposting", "discussionforumposting"})
_ABOUT = ("mainEntity", "itemOffered")    # where a page object names what it is about
_LD_SCRIPTS: Callable[[Any], Any] = etree.XPath("//script[contains(@type, 'ld+json')]")


# ----- JSON-LD ----------------------------------------------------------------------------------
def _parse(text: str) -> Any:
    try:
        return json.loads(text.strip().removeprefix("<!--").removesuffix("-->"), strict=False)
    except ValueError:
        log.debug("unreadable JSON-LD block skipped")
        return None


def jsonld_objects(root: Any) -> list[dict[str, Any]]:
    """Every object of the page's ld+json scripts, in order, lists and ``@graph``
    flattened (objects nested in properties stay inside their owner)."""
    out: list[dict[str, Any]] = []
    for script in _LD_SCRIPTS(root):
        data = _parse(script.text or "")
        stack = list(data) if isinstance(data, list) else [data]
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


def _type_names(obj: dict[str, Any]) -> set[str]:
    kind = obj.get("@type")
    return {value.rsplit("/", 1)[-1].rsplit(":", 1)[-1].lower()
            for value in (kind if isinstance(kind, list) else [kind]) if isinstance(value, str)}


def is_a(obj: dict[str, Any], types: frozenset[str]) -> bool:
    """Whether a JSON-LD object has one of ``types`` (lower case, no prefix)."""
    return not _type_names(obj).isdisjoint(types)


def _about(obj: Any, types: frozenset[str], depth: int) -> dict[str, Any] | None:
    """The object of ``types`` that ``obj`` is about, following ``mainEntity`` and
    ``itemOffered`` at most ``depth`` steps."""
    for key in _ABOUT if isinstance(obj, dict) and depth > 0 else ():
        value = obj.get(key)
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, dict):
                found = item if is_a(item, types) else _about(item, types, depth - 1)
                if found is not None:
                    return found
    return None


def main_object(objects: Sequence[dict[str, Any]], types: frozenset[str]
                ) -> dict[str, Any] | None:
    """The page's object of ``types``: the first such object, else the first one a page
    object is about (see the module docstring)."""
    for obj in objects:
        if is_a(obj, types):
            return obj
    for obj in objects:
        found = _about(obj, types, 3)
        if found is not None:
            return found
    return None


def product_object(objects: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
    return main_object(objects, PRODUCT_TYPES)


def article_object(objects: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
    return main_object(objects, ARTICLE_TYPES)


def _walk(obj: Any, keys: Iterable[str]) -> tuple[Any, Any]:
    """(what the path reaches, the last object on the way) — see the module docstring."""
    parent: Any = None
    for key in keys:
        while isinstance(obj, list):
            obj = obj[0] if obj else None
        if isinstance(obj, dict):
            parent = obj
            obj = obj.get(key, obj.get("lowPrice") if key == "price" else None)
        elif isinstance(obj, str) and key == "name":
            return obj, parent
        else:
            return None, None
    return obj, parent


def _split(path: str | Sequence[str]) -> Sequence[str]:
    return path.split(".") if isinstance(path, str) else path


def jsonld_value(obj: Any, path: str | Sequence[str]) -> Any:
    """The value at a dotted path (a list's first element), as JSON gave it."""
    value = _walk(obj, _split(path))[0]
    while isinstance(value, list):
        value = value[0] if value else None
    return value


def _text(value: Any) -> str | None:
    if isinstance(value, dict):
        value = next((value[k] for k in ("name", "value", "price", "url", "@id") if k in value),
                     None)
    if value is None or isinstance(value, (dict, list)):
        return None
    return scalar_text(value)


def jsonld_strings(obj: Any, path: str | Sequence[str]) -> tuple[list[str], str | None]:
    """(the strings at a dotted path, the ``priceCurrency`` beside them): every element
    of a list at the end; an object there gives its ``name`` (``value``, ``price``,
    ``url``, ``@id``)."""
    value, parent = _walk(obj, _split(path))
    currency = parent.get("priceCurrency") if isinstance(parent, dict) else None
    texts = [_text(v) for v in (value if isinstance(value, list) else [value])]
    return [t for t in texts if t is not None], currency if isinstance(currency, str) else None


def told_texts(objects: Sequence[dict[str, Any]], keys: Iterable[str]) -> list[str]:
    """The texts the first of the page's objects that tells any tells at ``keys`` (an
    article's ``articleBody``, a recipe's ``recipeInstructions``), as JSON gave them: a
    string, each string of a list, and the ``text`` of each step (a HowToStep, nested in
    a HowToSection's ``itemListElement``). One object: a page may describe others too."""
    out: list[str] = []
    for obj in objects:
        if out:
            break
        for key in keys:
            stack = [obj.get(key)]
            while stack:
                value = stack.pop(0)
                if isinstance(value, str):
                    out.append(value)
                elif isinstance(value, list):
                    stack.extend(value)
                elif isinstance(value, dict):
                    stack.extend((value.get("text"), value.get("itemListElement")))
    return out


class JsonLd:
    """A page's JSON-LD Product, parsed on first use only (replay asks for it only when
    a rule has a ``jsonld`` path and its XPath found nothing); ``objects``: the page's
    JSON-LD objects where they were read before its scripts were emptied (a
    :class:`~structurer.page.view.PageView`'s)."""

    __slots__ = ("_objects", "_product", "_root")

    def __init__(self, root: Any, objects: list[dict[str, Any]] | None = None) -> None:
        self._root = root
        self._objects = objects
        self._product: dict[str, Any] | bool | None = False

    def product(self) -> dict[str, Any] | None:
        if self._product is False:
            self._product = product_object(self._objects if self._objects is not None
                                           else jsonld_objects(self._root))
        return self._product if isinstance(self._product, dict) else None

    def lookup(self, path: Sequence[str]) -> tuple[list[str], str | None]:
        """:func:`jsonld_strings` of the page's Product."""
        product = self.product()
        return jsonld_strings(product, path) if product is not None else ([], None)


# ----- microdata --------------------------------------------------------------------------------
def microdata_items(root: Any, kind: str, *, top: bool = False) -> list[Any]:
    """Elements of the page's microdata items whose itemtype names ``kind``
    (``Product``); with ``top``, only those not inside another such item nor in an
    element an item's ``itemref`` names (its properties placed elsewhere on the page:
    another product it refers to, related products)."""
    xpath = f'//*[@itemscope][contains(@itemtype, "{kind}")]'
    if not top:
        return list(root.xpath(xpath))
    xpath += f'[not(ancestor::*[@itemscope][contains(@itemtype, "{kind}")])]'
    refs = {ref for el in root.xpath("//*[@itemscope][@itemref]")
            for ref in (el.get("itemref") or "").split()}
    return [el for el in root.xpath(xpath)
            if not refs or not any(a.get("id") in refs for a in (el, *el.iterancestors()))]


def _owner(el: Any) -> Any:
    return next((a for a in el.iterancestors() if a.get("itemscope") is not None), None)


def _own_value(el: Any, words: Words | None) -> str:
    """The value a plain (not itemscope) property element gives; a picture's at the best
    size the page offers (:func:`~structurer.values.image_source`: a zoom link around it,
    the widest ``srcset`` entry, the vocabulary ``words``' large-rendition attributes),
    never a placeholder."""
    if el.tag == "img" and el.get("content") is None:
        return image_source(el, words) or ""
    return str(el.get("content") or el.get("href") or el.get("src") or el.get("datetime")
               or element_text(el))


def _md_value(item: Any, keys: Sequence[str], words: Words | None = None) -> str | None:
    """The first non-empty value at ``keys`` below a microdata item (the item's own
    properties only: nested items are stepped into by the path)."""
    key, rest = keys[0], keys[1:]
    for el in item.xpath(f'.//*[@itemprop="{key}"]'):
        if _owner(el) is not item:
            continue
        if el.get("itemscope") is not None:
            if rest:
                value = _md_value(el, rest, words)
            else:
                names = el.xpath('.//*[@itemprop="name"]')
                value = (names[0].get("content") or element_text(names[0])) if names \
                    else element_text(el)
        elif not rest or list(rest) == ["name"]:
            value = _own_value(el, words)  # a plain property stands for its own name
        else:
            continue
        if value and value.strip():
            return value.strip()
    return None


def microdata_fields(root: Any, paths: Mapping[str, Sequence[str]],
                     words: Words | None = None) -> dict[str, str]:
    """Field -> raw string of the page's first schema.org Product item, each field by
    the first of its paths that gives a value; ``words``: the run's vocabulary (a
    picture's large renditions, placeholders), the shipped one by default."""
    scopes = microdata_items(root, "Product")
    out: dict[str, str] = {}
    if not scopes:
        return out
    for field, options in paths.items():
        for path in options:
            value = _md_value(scopes[0], path.split("."), words)
            if value:
                out[field] = value
                break
    return out


def microdata_offers(root: Any, words: Words | None = None) -> list[dict[str, str]]:
    """The offers of the page's first schema.org Product item (sizes, colours, sellers),
    each as JSON-LD writes one: ``price``, ``priceCurrency``, ``availability``."""
    scopes = microdata_items(root, "Product")
    out: list[dict[str, str]] = []
    for el in scopes[0].xpath('.//*[@itemprop="offers"][@itemscope]') if scopes else ():
        if _owner(el) is scopes[0]:
            offer = {key: _md_value(el, [key], words) for key in
                     ("price", "priceCurrency", "availability")}
            out.append({k: v for k, v in offer.items() if v})
    return out


# ----- OpenGraph --------------------------------------------------------------------------------
def _metas(root: Any) -> dict[str, str]:
    metas: dict[str, str] = {}
    for meta in root.iter("meta"):
        key = (meta.get("property") or meta.get("name") or "").lower()
        if key and meta.get("content") and key not in metas:
            metas[key] = meta.get("content", "").strip()
    return metas


def opengraph_fields(root: Any, names: Mapping[str, Sequence[str]]) -> dict[str, str]:
    """Field -> content of the first of its meta tags the page has (``og:title``,
    ``product:price:amount``, ...)."""
    metas = _metas(root)
    out: dict[str, str] = {}
    for field, keys in names.items():
        found = next((metas[k] for k in keys if metas.get(k)), None)
        if found:
            out[field] = found
    return out


def opengraph_types(root: Any) -> list[str]:
    """The contents of the page's ``og:type`` meta tags (``product``, ``article``)."""
    return [str(m.get("content") or "") for m in root.xpath('//meta[@property="og:type"]')]
