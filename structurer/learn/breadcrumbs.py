"""The breadcrumb trail of detail pages: the category path shown above the product.

Input: detail :class:`PageView` objects, the lexicon, and per page the category names the
product was reached through. Output: one verified breadcrumb :class:`FieldRule` (a block
of short links that varies with the product's category, its unlinked last category
included, never a menu or the product's own name), or None.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from lxml.html import HtmlElement

from structurer.learn import xpaths
from structurer.learn.trails import links_of
from structurer.lexicon import FieldSpec, Lexicon
from structurer.page.dom import text_of
from structurer.page.match import lexicon_match
from structurer.page.view import PageView
from structurer.rules.model import FieldRule


def _unlinked_end(trail: HtmlElement, page: PageView, known: set[str]) -> str:
    """The step to a separator trail's unlinked last crumb (``Home » Jackets »
    <span>Rain</span>``) when it names a category (one of the ``known`` ones the product
    was reached through), or at least not the product (not its heading or title);
    "" for none."""
    if trail.findall(".//li"):
        return ""
    last = next((c for c in reversed(trail) if isinstance(c.tag, str)), None)
    text = text_of(last).lower() if last is not None else ""
    if last is None or last.tag == "a" or last.findall(".//a") or not text or len(text) > 60:
        return ""
    named = {" ".join(part.split()) for t in page.titles for part in re.split(r"[|–—:]", t.lower())}
    named |= {text_of(h).lower() for h in page.body.iter("h1")}
    if text not in {k.lower() for k in known} and any(
            (n.startswith(text) and len(text) >= 0.6 * len(n))
            or (text.startswith(n) and len(n) >= 0.6 * len(text)) for n in named if n):
        return ""   # the product's own name ends the trail
    return "/*[last()][not(self::a)][normalize-space()]"


def _unlinked_crumbs(trail: HtmlElement) -> list[str]:
    """The texts of a list trail's unlinked items before its last one (``Home > Footwear >
    <li>Trail Running</li> > <li>product</li>``): categories a shop leaves unlinked."""
    items = trail.findall(".//li")
    return [text for li in items[:-1] if not li.findall(".//a") and (text := text_of(li))]


def learn_breadcrumb(pages: Sequence[PageView], lexicon: Lexicon,
                     categories: Sequence[set[str]], *,
                     navigation: set[tuple[str, ...]] | frozenset[tuple[str, ...]] = frozenset(),
                     anchor: HtmlElement | None = None) -> FieldRule | None:
    """The link trail naming the product's categories, top first: the best scoring block
    of links (:func:`_trails`) that one XPath finds on the pages and that varies with the
    product's category (a menu's sub-list naming the category too is tried and left).
    ``navigation``: the link lists every sampled product page shows alike (site chrome,
    :func:`structurer.learn.trails.navigation`), never a trail; ``anchor``: the first
    page's product heading, which a trail ends next to (the nearest block wins a tie)."""
    spec = next((s for s in lexicon.fields.values() if s.kind == "breadcrumb"), None)
    name = next((k for k, s in lexicon.fields.items() if s.kind == "breadcrumb"), None)
    if spec is None or name is None:
        return None
    ref = pages[0]
    # the linked part of a trail (Home > Footwear) is alike on products of sibling
    # categories: a block whose unlinked crumbs name more is left to :func:`_trail_xpath`,
    # which never takes crumbs that are the same on pages of different categories
    found = [t for t in _trails(ref, lexicon, spec, name, categories)
             if links_of(t[1], ref.url) not in navigation or _unlinked_crumbs(t[1])]
    near = _nearness(ref, anchor)
    for score, el, texts in sorted(found, key=lambda t: (-t[0], near(t[1]))):
        chosen = _trail_xpath(el, pages, categories)
        if chosen is not None:
            # the sample is what the rule reads (unlinked crumbs in, Home and product out)
            read = [text_of(n) for n in xpaths.evaluate(chosen, ref.tree)
                    if isinstance(n, HtmlElement)]
            return FieldRule(xpath=chosen, kind="breadcrumb", multiple=True,
                             confidence=round(min(1.0, score), 2),
                             samples=[" > ".join(read or texts)])
    return None


def _nearness(page: PageView, anchor: HtmlElement | None) -> Callable[[HtmlElement], int]:
    """How far a block ends from the product's heading, in elements of document order
    (0 for all without a heading)."""
    if anchor is None:
        return lambda el: 0
    order = {el: i for i, el in enumerate(page.body.iter())}
    at = order.get(anchor, 0)

    def distance(el: HtmlElement) -> int:
        start = order.get(el, 0)
        end = max((order.get(d, start) for d in el.iter()), default=start)
        return at - end if end < at else max(start - at, 0)
    return distance


def _trails(ref_page: PageView, lexicon: Lexicon, spec: FieldSpec, name: str,
            categories: Sequence[set[str]]) -> list[tuple[float, HtmlElement, list[str]]]:
    """Blocks of 1-12 short links of the first page that may be its trail, scored by the
    field's words and the categories they name (an unlinked last crumb counts), best
    first (document order among equals); those scoring under 0.3 left out."""
    found: list[tuple[float, HtmlElement, list[str]]] = []
    listed = {m for r in ref_page.product_regions for rec in r.records for m in rec}
    hint = {h.lower() for h in (categories[0] if categories else set())}
    for el in ref_page.body.iter("ol", "ul", "nav", "div", "p"):
        links = el.findall(".//a")
        # one link is a trail too where list items carry it (the parent linked, the
        # category and the product not)
        fewest = 1 if el.tag in ("ol", "ul") and len(el.findall("li")) >= 2 else 2
        if not fewest <= len(links) <= 12 or el in listed:
            continue
        texts = [text_of(a) for a in links]
        if sum(len(t) for t in texts) > 200 or not all(texts):
            continue
        lex, _ = lexicon_match(el, spec, lexicon, lexicon.partial_ratio(name))
        # an unlinked last crumb (``Home » Women » <span>Shoes</span>``) names a category too
        named = {t.lower() for t in texts} | {text_of(c).lower() for c in el[-1:]
                                               if c.tag != "a" and not c.findall(".//a")}
        named |= {t.lower() for t in _unlinked_crumbs(el)}
        overlap = len(named & hint) / max(len(hint), 1)
        lists = sum(1 for _ in el.iter("ol", "ul"))
        # a trail is one sequence: a block holding a second list (a menu beside it) is not
        score = lex + 1.5 * overlap - 0.02 * len(links) - (0.5 if lists > 1 else 0.0)
        if score >= 0.3:
            found.append((score, el, texts))
    return sorted(found, key=lambda f: -f[0])


def _trail_xpath(el: HtmlElement, pages: Sequence[PageView],
                 categories: Sequence[set[str]]) -> str | None:
    """The XPath reading the trail ``el`` (of the first page) on every page: found once
    a page, 1-12 crumbs on most pages, not the same links on pages of other categories."""
    ref_page = pages[0]
    # the link to the site's root is "Home" in any language: not a category
    home = any(a.get("href") == "/" for a in el.iter("a"))
    items = el.findall(".//li")
    if items:
        # the items, unlinked categories too; the last one, unlinked, is the product itself
        step = "//li[not(.//a[@href='/'])]" if home else "//li"
        if not items[-1].findall(".//a"):
            step += "[position() < last()]"
    else:
        step = "//a[not(@href='/')]" if home else "//a"
    tail = _unlinked_end(el, ref_page, categories[0] if categories else set())
    varied = len({frozenset(c) for c in categories if c}) > 1
    for trail in xpaths.absolute_candidates(el):
        xpath = trail + step + (f" | {trail}{tail}" if tail else "")
        if any(len(xpaths.evaluate(trail, page.tree)) > 1 for page in pages):
            continue   # a class the trail shares with another block: that block's links too
        ok = 0
        trails: set[tuple[str, ...]] = set()
        for page in pages:
            texts = [text_of(a) for a in xpaths.evaluate(xpath, page.tree)
                     if isinstance(a, HtmlElement)]
            trails.add(tuple(texts))
            if 1 <= len(texts) <= 12:
                ok += 1
        if varied and len(trails) == 1:
            continue   # the same links on pages of different categories: a menu, not a trail
        if ok >= 0.8 * len(pages):
            return xpath
    return None
