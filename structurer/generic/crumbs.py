"""The category path of a product page without rules, for :mod:`structurer.generic.products`:
structured data's ``BreadcrumbList`` (JSON-LD or microdata), else the first block the
breadcrumb field's words name (``class="breadcrumb"``, ``aria-label="breadcrumb"``) that
holds a few links, outside navigation menus and other products' cards.

The trail is its links' names top first (:func:`~structurer.kinds.parse_breadcrumb`:
"Home" and a leading label dropped), the unlinked last crumb kept only where it is not
the product's own name. One page cannot show that a block varies with the product (what
analysis checks across pages), so only a block named a breadcrumb counts, never a menu.
"""

from __future__ import annotations

from typing import Any

from lxml.html import HtmlElement

from structurer.kinds import parse_breadcrumb
from structurer.page.catlinks import home_link
from structurer.page.dom import text_of
from structurer.page.match import lexicon_match
from structurer.page.titles import similarity
from structurer.page.view import PageView

_BLOCKS = ("nav", "ol", "ul", "div", "p", "span", "section")
_MOST_LINKS = 10


def breadcrumb_field(view: PageView, name: str) -> tuple[str, list[str]] | None:
    """(the lexicon's breadcrumb field, the page's category path, top first, without
    "Home" nor the product ``name``), or None."""
    field = next((n for n, f in view.lexicon.fields.items() if f.kind == "breadcrumb"), None)
    found = _breadcrumb(view, field, name) if field is not None else None
    return (field, found) if field is not None and found else None


def _breadcrumb(view: PageView, field: str, name: str) -> list[str] | None:
    words = view.words
    listed = _structured(view)
    if listed:
        return _without_name(parse_breadcrumb(listed, words), name) or None
    spec, ratio = view.lexicon.fields[field], view.lexicon.partial_ratio(field)
    named = [el for el in view.body.iter(*_BLOCKS) if el not in view.listed
             and 2 <= len(_links(el)) <= _MOST_LINKS
             and lexicon_match(el, spec, view.lexicon, ratio, depth=0)[0] >= 0.5]
    inner = set(named)
    for el in named:     # the innermost named block: a bar holding the trail and a menu
        if any(d in inner for d in el.iterdescendants()):
            continue
        links = _links(el)
        if home_link(links[0].get("href"), view.url):
            links = links[1:]     # "Home" in any language: the link to the site's root
        last = _unlinked_end(el)
        names = _without_name(parse_breadcrumb([text_of(a) for a in links]
                                               + ([last] if last else []), words), name)
        if names:
            return names
    return None


def _links(el: HtmlElement) -> list[HtmlElement]:
    return [a for a in el.iter("a") if text_of(a)]


def _without_name(names: list[str], name: str) -> list[str]:
    """The trail without its last crumb where that is the product's own name."""
    if names and name and similarity(names[-1].lower(), name.lower()) >= 0.8:
        return names[:-1]
    return names


def _unlinked_end(trail: HtmlElement) -> str:
    """The text of the trail's last item when it holds no link (the current page's)."""
    items = [c for c in trail.iter("li")] or [c for c in trail if isinstance(c.tag, str)]
    last = items[-1] if items else None
    if last is None or last.tag == "a" or last.find(".//a") is not None:
        return ""
    text = text_of(last)
    return text if 0 < len(text) <= 60 else ""


def _structured(view: PageView) -> list[str]:
    """The names of a ``BreadcrumbList`` in the page's JSON-LD, else its microdata."""
    for obj in view.jsonld:
        kinds = obj.get("@type")
        if "BreadcrumbList" in (kinds if isinstance(kinds, list) else [kinds]):
            items = obj.get("itemListElement")
            ordered = sorted((i for i in items if isinstance(i, dict)),
                             key=lambda i: _position(i.get("position"))) \
                if isinstance(items, list) else []
            names = [_item_name(i) for i in ordered]
            return [n for n in names if n]
    for trail in view.tree.xpath('//*[@itemscope][contains(@itemtype, "BreadcrumbList")]'):
        names = [text_of(n) if not n.get("content") else str(n.get("content"))
                 for n in trail.xpath('.//*[@itemprop="itemListElement"]//*[@itemprop="name"]')]
        return [n for n in names if n]
    return []


def _position(value: Any) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return 0.0


def _item_name(item: dict[str, Any]) -> str:
    name = item.get("name")
    inner = item.get("item")
    if not name and isinstance(inner, dict):
        name = inner.get("name")
    return " ".join(str(name).split()) if isinstance(name, str) else ""
