"""The description a product page names, for :mod:`structurer.generic.products`: the text
after a label of the description field (``<b>Description:</b> A lamp designed ...``) or
the paragraphs under a heading that is one (``Product Overview``, ``Product
Description``) up to the next heading like it — before text density, which takes the
densest block of the page, a testimonial or a delivery notice as readily as the product's
own text.

Input: the block of the product's own facts (never a related product's card) and the
field's spec (its ``labels``). Output: the text, or None where no label names a prose
description; where none does, text density read in the product's part of the page
(:func:`dense_description`), never in related products' cards or the footer's prose.
"""

from __future__ import annotations

import copy

from lxml.html import HtmlElement, fromstring

from structurer.generic.stock import SKIP_SECTIONS
from structurer.lexicon import FieldSpec
from structurer.page import density
from structurer.page.dom import HEADING_TAGS, text_of
from structurer.page.match import squash
from structurer.page.scope import other_products, prose_run
from structurer.page.view import PageView
from structurer.values import compile_phrases, element_text

#: elements that may carry a description's label or heading (a link is a tab, its
#: text elsewhere on the page)
_LABELS = ("h2", "h3", "h4", "h5", "h6", "p", "div", "span", "b", "strong", "dt", "th", "td",
           "font", "label", "em")
_SEP = ": \u00a0\t\n：-–—"
_GRIDS = ("table", "dl")


def labelled_description(scope: HtmlElement, spec: FieldSpec, min_text: int) -> str | None:
    """The description under or after the first of the field's labels in ``scope`` whose
    text runs ``min_text`` characters or more and is not mostly links nor a grid of
    specifications (tables, definition lists: "Product details" over a table)."""
    labels = {squash(label) for label in spec.labels}
    for el in scope.iter(*_LABELS):
        text = text_of(el)
        if not text or len(text) > 40 or squash(text.rstrip(_SEP)) not in labels:
            continue
        if any(a.tag in SKIP_SECTIONS or a.tag == "a" for a in el.iterancestors()):
            continue
        found = _after(el)
        if found is not None and len(found[0]) >= min_text and 2 * found[1] <= len(found[0]) \
                and found[2] < 0.6 * len(found[0]):
            return found[0]
    return None


def _after(label: HtmlElement) -> tuple[str, int, int] | None:
    """(the text after ``label`` in its block, how much of it is link text, how much is
    in tables or definition lists): the label's
    wrappers of the same text climbed (``<font><b>Description:</b></font>``), then the
    siblings after it up to a heading or an element shaped like the label (the next
    section's), with the text between them."""
    holder = label
    parent = holder.getparent()
    while parent is not None and text_of(parent) == text_of(holder):
        holder, parent = parent, parent.getparent()
    parts, linked, grids = [(holder.tail or "").strip(" \u00a0\t\n")], 0, 0
    shape = (holder.tag, holder.get("class"))
    for sibling in _section(holder, parent):
        if ((sibling.tag, sibling.get("class")) == shape and len(text_of(sibling)) <= 40):
            break
        parts.append(element_text(sibling))
        linked += sum(len(text_of(a)) for a in sibling.iter("a"))
        grids += len(text_of(sibling)) if sibling.tag in _GRIDS or any(
            True for _ in sibling.iterdescendants(*_GRIDS)) else 0
        parts.append((sibling.tail or "").strip())
    text = " ".join(" ".join(p for p in parts if p).split()).lstrip(_SEP)
    return (text, linked, grids) if text else None


def _section(holder: HtmlElement, parent: HtmlElement | None) -> list[HtmlElement]:
    """The elements after a label ``holder`` that its description runs over: its
    siblings up to a heading (of the same level or higher, under a heading label); where
    the label begins a paragraph (``<p><b>Description:</b> A lamp ...</p>``), then the
    paragraphs after it up to one beginning with a label of its own (``<p><b>Price:</b>``)
    or anything else."""
    level = int(holder.tag[1]) if holder.tag in HEADING_TAGS else 9
    out: list[HtmlElement] = []
    for sibling in holder.itersiblings():
        if not isinstance(sibling.tag, str):
            continue
        if sibling.tag in HEADING_TAGS and int(sibling.tag[1]) <= level:
            return out
        out.append(sibling)
    if parent is None or parent.tag != "p" or \
            not text_of(parent).startswith(text_of(holder)):
        return out
    for para in parent.itersiblings():
        if not isinstance(para.tag, str):
            continue
        if para.tag != "p" or _starts_labelled(para):
            break
        out.append(para)
    return out


def _starts_labelled(para: HtmlElement) -> bool:
    """Whether a paragraph begins with a bold label of its own (``<b>Price:</b> £60``)."""
    text = text_of(para)
    return any(text.startswith(t) for t in (text_of(b) for b in para.iter("b", "strong"))
               if t and len(t) <= 40)


def named_description(view: PageView, anchor: HtmlElement | None,
                      scope: HtmlElement) -> tuple[str | None, str]:
    """(the description the page names, its source): the text under or after a label of
    the description field (:func:`labelled_description`), else the prose run right under
    the title block (:func:`~structurer.page.scope.prose_run`, as analysis learns a
    description with no heading); (None, "") for neither (text density decides)."""
    spec, lexicon = view.lexicon.fields.get("description"), view.lexicon
    if spec is None or not spec.prose:
        return None, ""
    least = lexicon.thresholds.min_block_text
    found = labelled_description(scope, spec, least)
    if found is not None:
        return found, "label"
    stock = view.lexicon.spec_of("availability")
    run = prose_run(scope, anchor, least, compile_phrases(stock.values) if stock else None) \
        if anchor is not None else []
    return (" ".join(element_text(n) for n in run), "under-title") if run else (None, "")


def dense_description(view: PageView, scope: HtmlElement,
                      anchor: HtmlElement | None) -> str | None:
    """The densest text (:func:`~structurer.page.density.main_content`) of the product's
    part of the page, where the page names no description: the block below the body
    holding the main region ``scope`` (a description tab may lie beside the buy box, in
    a block that also holds related products), without other products' cards — never a
    related product's text, nor a footer beside that block; the whole page where no
    region was found (``scope`` is the body). None where that text is no paragraph long
    or holds the product's heading (``anchor``): the buy box, not a description."""
    least = view.lexicon.thresholds.min_block_text
    content = density.main_content(view.tree if scope is view.body else
                                   _product_document(view, scope), least)
    if content is None or len(content.text) < least:
        return None
    if anchor is not None and any(text_of(h) == text_of(anchor)
                                  for h in content.element.iter(str(anchor.tag))):
        return None
    return content.text


def _product_document(view: PageView, scope: HtmlElement) -> HtmlElement:
    """A page of its own: copies of the page's head and of the body's child holding
    ``scope``, without the other products' cards in it."""
    top = scope
    while (up := top.getparent()) is not None and up.tag not in ("body", "html"):
        top = up
    cards = set(other_products(view))   # kept alive: an element's proxy is its identity
    gone = {i for i, el in enumerate(top.iter()) if el in cards}
    block = copy.deepcopy(top)
    for el in [el for i, el in enumerate(block.iter()) if i in gone]:
        el.drop_tree()
    doc = fromstring("<html><head></head><body></body></html>")
    head = view.tree.find("head")
    if head is not None:
        doc.replace(doc[0], copy.deepcopy(head))
    doc[1].append(block)
    return doc
