"""Values the markup gives rather than the text: a picture's best source, a star rating,
a price struck through.

Input: one lxml element (an ``<img>``, ``<picture>``, a link to a picture file, a star
widget) and the vocabulary (:class:`~structurer.kinds.Words`: placeholder names, larger
rendition attributes, rating class words). Output: the picture's address (lazy-loading
stand-ins and "no image" pictures skipped, the widest ``srcset`` entry or a zoom
rendition preferred) or the raw rating string the markup states (``rating-4-5``,
``stars three``, a bar's width, an ``aria-label``); None when there is none; whether
a text shows struck through (:func:`struck`). Pure;
re-exported by :mod:`structurer.values`, which reads every field's value.
"""

from __future__ import annotations

import re
from typing import Any

from structurer.kinds import Words, default_words
from structurer.namewords import class_words

_DIGIT = re.compile(r"\d")

#: tags that strike their text through: a price there is the one before a discount
STRUCK_TAGS = frozenset({"del", "s", "strike"})


_LAZY_ATTRS = ("data-src", "data-original", "data-lazy-src", "data-lazy", "data-original-src")


_SRCSETS = ("srcset", "data-srcset")


_IMAGE_FILE = re.compile(r"\.(?:jpe?g|png|webp|gif|avif|svg|bmp|tiff?)(?:[?#]|$)", re.IGNORECASE)


_BG_URL = re.compile(r"url\(\s*['\"]?([^'\")]+)")


def is_placeholder(src: str, words: Words | None = None) -> bool:
    """A lazy-loading stand-in or the shop's "no image" picture, not the product's (the
    vocabulary's ``placeholder_images`` and ``placeholder_folders``)."""
    src = src.strip()
    if not src or src[:5].lower() == "data:":
        return True
    w = words or default_words()
    path = src.split("?", 1)[0]
    return (w.placeholder.search(src.lower(), src.rfind("/") + 1) is not None
            or w.placeholder_folder.search(path) is not None)


def _largest(srcset: str) -> str | None:
    """The widest (or densest) candidate of a ``srcset``; the last one without sizes."""
    best: tuple[float, str] | None = None
    for i, part in enumerate(p.strip() for p in srcset.split(",")):
        bits = part.split()
        if not bits:
            continue
        size = bits[1] if len(bits) > 1 else "1x"
        try:
            weight = float(size[:-1]) if size[-1:] in ("w", "x") else float(i)
        except ValueError:
            weight = float(i)
        if best is None or weight >= best[0]:
            best = (weight, bits[0])
    return best[1] if best else None


def _zoom_link(img: Any) -> str | None:
    """``<a href="large.jpg"><img src="medium.jpg"></a>``: the link's picture."""
    parent = img.getparent()
    for node in (parent, parent.getparent() if parent is not None else None):
        if node is not None and node.tag == "a":
            href = (node.get("href") or "").strip()
            return href if _IMAGE_FILE.search(href) else None
    return None


def image_source(el: Any, words: Words | None = None) -> str | None:
    """The real picture of an ``<img>`` (or of the first one inside ``el``) at the best
    size the page offers: a zoom or full-size attribute (``data-zoom-image``), the
    largest ``srcset`` entry, a link around it to the picture file, then ``src`` unless
    it is a lazy-loading or "no image" placeholder, else ``data-src``/``data-original``;
    a CSS ``background-image`` as a last resort. A placeholder is no picture (None).
    ``words``: the vocabulary (large-rendition attributes, placeholders); the shipped one
    by default."""
    w = words or default_words()
    if el.tag not in ("img", "source"):
        img = next(el.iter("img"), None)
        if img is None:
            style = el.get("style") or ""
            url = _BG_URL.search(style) if "url(" in style else None
            return url.group(1).strip() if url and not is_placeholder(url.group(1), w) \
                else None
        el = img
    found: list[str | None] = [el.get(a) for a in w.large_attrs]
    found += [_largest(el.get(a) or "") for a in _SRCSETS]
    found += [_zoom_link(el), el.get("src")]
    found += [el.get(a) for a in _LAZY_ATTRS]
    for candidate in found:
        if candidate and candidate.strip() and not is_placeholder(candidate, w):
            return str(candidate).strip()
    return None


#: star ratings given by markup alone: ``rating-4``/``rating-4-5`` classes, class number
#: words (``stars three``; the vocabulary's ``rating_classes``, ``rating_numbers``), a star
#: bar's width, attributes
_RATING_ATTRS = ("aria-label", "title", "data-rating", "data-score", "data-value", "content")


_WIDTH = re.compile(r"(?<![-\w])width\s*:\s*(\d{1,3}(?:\.\d+)?)\s*%")


def rating_source(el: Any, words: Words | None = None) -> str | None:
    """A star rating the markup gives without a number in the text (``4.5``): in an
    attribute (``aria-label="Rated 4.1 out of 5"``), a class (``rating-4-5``, ``stars
    three``) or a bar's width (``style="width:80%"`` is 4 of 5) of ``el`` or inside it;
    None when there is none (the text beside, a review count, is not read)."""
    w = words or default_words()
    hints = class_words(w, "rating_classes")
    for node in el.iter():
        if not isinstance(node.tag, str):
            continue
        for attr in _RATING_ATTRS:
            value = node.get(attr)
            if value and _DIGIT.search(value) and len(value) <= 60:
                return str(value)
        tokens = (node.get("class") or "").lower().split()
        rated = hints.names(node.get("class") or "")
        for token in tokens:
            found = w.rating_class.match(token)
            if found:
                return f"{found[1]}.{found[2] or 0}"
            if rated and token in w.rating_numbers:
                return w.rating_numbers[token]
        width = _WIDTH.search(node.get("style") or "")
        if width and (rated or any(hints.names(a.get("class") or "")
                                   for a in node.iterancestors())):
            return f"{float(width[1]) / 20:g}"
    return None


def struck(el: Any, words: Words | None = None, levels: int | None = None) -> bool:
    """Whether ``el``'s text shows struck through, as a price before a discount does: it
    or one of its ``levels`` nearest ancestors (None: any) is a ``<del>``, ``<s>`` or
    ``<strike>``, has a ``line-through`` style (CSS) or a class of the vocabulary's
    ``struck_classes`` (``strikethrough``); ``words``: the shipped vocabulary if None."""
    classes = (words or default_words()).struck_classes
    node, left = el, levels
    while node is not None and (left is None or left >= 0):
        if node.tag in STRUCK_TAGS or "line-through" in (node.get("style") or "") or any(
                t in classes for t in (node.get("class") or "").lower().split()):
            return True
        node, left = node.getparent(), None if left is None else left - 1
    return False
