"""Cues that a shop's page shows one main product, for a page whose price sits beside its
single title but that has no buy button of its own, no structured data and a title its
``<title>`` does not repeat (:func:`structurer.page.productkind.classify_products`).

Input: a :class:`~structurer.page.view.PageView` and its title heading. Output: a weight
(:func:`product_cues`): the URL's slug naming the heading (``/red-kettle-1-7-l`` under
"Red Kettle 1.7 l"), a quantity input, a table of label/value rows (the product's
specifications), a gallery of pictures beside the title that link to no other page, all
outside every product list, card and page section. A category's
heading may match its slug too, but has no quantity input nor specification table of
its own, and no price beside it outside its cards.
"""

from __future__ import annotations

import re
import unicodedata
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlsplit

from lxml.html import HtmlElement

from structurer.namewords import signal_words
from structurer.page.dom import SECTION_NOISE_TAGS, text_of

if TYPE_CHECKING:
    from structurer.page.view import PageView

_WORD = re.compile(r"[^\W_]+")
SLUG = 1.0       # the URL's slug spells the heading
QUANTITY = 1.5   # a quantity to put in the cart
SPECS = 1.0      # a table of the product's specifications
GALLERY = 1.0    # pictures of the product beside its title
_PICTURES = 3    # pictures that make a gallery
_LEVELS = 3      # levels above the title searched for the gallery
_IMAGE_FILE = re.compile(r"\.(?:jpe?g|png|webp|gif|avif)(?:$|\?)", re.I)
_SPEC_ROWS = 3   # label/value rows that make a specification table
_LABEL = 40      # longest label of a specification row


def product_cues(view: PageView, heading: HtmlElement) -> float:
    """The weight of the cues (module doc) of one product under ``heading``."""
    outside = set(view.listed) | {el for card in view.loose_cards for el in card.iter()}
    return float(SLUG * slug_names(view.url, text_of(heading))
                 + QUANTITY * _quantity_input(view, outside) + SPECS * _spec_table(view, outside)
                 + GALLERY * _gallery(heading, outside))


def _words(text: str) -> list[str]:
    """Lower-case words of a text without accents ("Café" and the slug's "cafe" agree)."""
    plain = unicodedata.normalize("NFKD", text.lower())
    return _WORD.findall("".join(c for c in plain if not unicodedata.combining(c)))


def slug_names(url: str, heading: str) -> bool:
    """The URL's last path segment (or the one before a numeric id) holds at least two
    words and most words of the heading: the page is about what its heading names."""
    segments = [unquote(s) for s in urlsplit(url).path.split("/") if s]
    named = [w for w in _words(heading) if not w.isdigit()]
    if len(named) < 2:
        return False
    for segment in reversed(segments[-2:]):
        slug = set(_words(segment.rsplit(".", 1)[0]))
        if len(slug - {w for w in slug if w.isdigit()}) >= 2:
            return sum(1 for w in named if w in slug) >= max(2, 0.6 * len(named))
    return False


def _free(el: HtmlElement, outside: set[HtmlElement]) -> bool:
    """Outside every product list, card and page section."""
    return el not in outside and not any(a.tag in SECTION_NOISE_TAGS for a in el.iterancestors())


def _quantity_input(view: PageView, outside: set[HtmlElement]) -> bool:
    """An input or select named by the lexicon's ``quantity`` words (``name="qty"``), or a
    number input holding 1, outside every card: how many of the one product to buy (a
    price filter's number inputs hold no 1)."""
    vocab = signal_words(view.lexicon, "quantity")
    for el in view.body.iter("input", "select"):
        kind = (el.get("type") or "").lower()
        if kind == "hidden" or not _free(el, outside):
            continue
        if (kind == "number" and el.get("value") == "1") or any(
                vocab.names(el.get(a) or "") for a in ("name", "id", "class")):
            return True
    return False


def _spec_table(view: PageView, outside: set[HtmlElement]) -> bool:
    """A table or definition list of :data:`_SPEC_ROWS` label/value rows at least, with
    short labels and no links in them (a product's specifications, not a list of
    products nor a menu)."""
    for box in view.body.iter("table", "dl"):
        if not _free(box, outside) or box.find(".//a") is not None:
            continue
        if box.tag == "dl":
            labels = [text_of(el) for el in box.iter("dt")]
            rows = len(labels) if len(labels) == len(list(box.iter("dd"))) else 0
        else:
            cells = [[c for c in tr if c.tag in ("th", "td")] for tr in box.iter("tr")]
            pairs = [c for c in cells if len(c) == 2]
            labels = [text_of(c[0]) for c in pairs]
            rows = len(pairs) if len(pairs) == len(cells) else 0
        if rows >= _SPEC_ROWS and all(0 < len(label) <= _LABEL for label in labels):
            return True
    return False


def _gallery(heading: HtmlElement, outside: set[HtmlElement]) -> bool:
    """:data:`_PICTURES` pictures at least in the block around the title (up to
    :data:`_LEVELS` levels above it), none in a card and none linking to another page
    (a thumbnail links to its picture or nowhere; a category's tile to its page)."""
    block = heading
    for _ in range(_LEVELS):
        parent = block.getparent()
        if parent is None or parent.tag == "body":
            break
        block = parent
    pictures = 0
    for img in block.iter("img"):
        link = next(img.iterancestors("a"), None)
        href = (link.get("href") or "").strip() if link is not None else ""
        if not _free(img, outside) or (href and not href.startswith("#")
                                       and not _IMAGE_FILE.search(href)):
            continue
        pictures += 1
    return pictures >= _PICTURES
