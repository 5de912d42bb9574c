"""Who wrote an article and when: publish time and author, without rules.

Input: an lxml HTML tree. Output: an ISO date or timestamp, an author name (or None).
Machine-readable statements win (meta tags, ``itemprop``, ``<time datetime>``); then
the text right after the title's heading, where bylines stand — a page also carries
today's date in its header, dates of comments and of teasers in side lists, and
"updated" stamps, so the date nearest after the title, not the first on the page, is
the publish time. Pure functions; the tree is not modified.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

from lxml.html import HtmlElement

from structurer.clean import normalize_space, visible_text
from structurer.kinds import Words, default_words
from structurer.lexicon import DEFAULT_THRESHOLDS, Thresholds, load_lexicon
from structurer.page.dates import find_dates, parse_datetime
from structurer.page.density import is_noise
from structurer.page.titles import meta_contents, title_element

_SKIP = frozenset({"script", "style", "noscript", "template", "svg"})


@dataclass
class _Around:
    """The visible text of a page with noise sections left out, and where the title
    heading starts and ends in it; ``stamps`` are machine-readable times by position."""
    anchor: HtmlElement
    keep: set[HtmlElement]
    pieces: list[tuple[int, str]] = field(default_factory=list)   # (position, text)
    size: int = 0
    start: int = -1
    end: int = -1
    stamps: list[tuple[int, str]] = field(default_factory=list)

    def add(self, text: str | None) -> None:
        text = normalize_space(text or "")
        if text:
            self.pieces.append((self.size, text))
            self.size += len(text) + 1

    def visit(self, el: HtmlElement) -> None:
        if not isinstance(el.tag, str) or el.tag in _SKIP:
            return
        if el not in self.keep and is_noise(el):
            return
        if el is self.anchor:
            self.start = self.size
        if el.tag == "time" and el.get("datetime"):
            self.stamps.append((self.size, el.get("datetime", "")))
        self.add(el.text)
        for child in el:
            self.visit(child)
            self.add(child.tail)
        if el is self.anchor:
            self.end = self.size

    @property
    def text(self) -> str:
        return " ".join(text for _, text in self.pieces) + " "


def _around(tree: HtmlElement, anchor: HtmlElement) -> _Around:
    walk = _Around(anchor, {anchor, *anchor.iterancestors()})

    body = tree.find(".//body")
    walk.visit(body if body is not None else tree)
    return walk


def _updated(text: str, at: int, floor: int, words: Words) -> bool:
    """An "updated"/"modified" label just before ``at`` (not looking back past ``floor``,
    so a headline ending in "update" does not count)."""
    return bool(words.updated.search(text[max(floor, at - 40):at]))


def _date_near(walk: _Around, th: Thresholds, words: Words | None) -> str | None:
    """The date nearest after the title (within ``th.byline_after`` characters), else
    nearest before it (within ``th.byline_before``: a dateline), "updated" ones last."""
    text = walk.text
    ahead, back = th.byline_after, th.byline_before
    after: list[tuple[int, str]] = [(pos, stamp) for pos, stamp in walk.stamps
                                    if walk.end <= pos < walk.end + ahead]
    after += [(walk.end + d.start, d.iso)
              for d in find_dates(text[walk.end:walk.end + ahead], words)]
    before = [(walk.start - back + d.start, d.iso)
              for d in find_dates(text[max(0, walk.start - back):walk.start], words)]
    before += [(pos, stamp) for pos, stamp in walk.stamps
               if walk.start - back <= pos < walk.start]
    ranked = sorted(after) + sorted(before, reverse=True)
    fresh = [iso for pos, iso in ranked
             if not _updated(text, pos, walk.end if pos >= walk.end else 0,
                             words or default_words())]
    for iso in fresh + [iso for _, iso in ranked]:
        found = parse_datetime(iso, words)
        if found:
            return found
    return None


def _in_noise(el: HtmlElement, keep: set[HtmlElement]) -> bool:
    """Inside comments, a sidebar, navigation...; ``keep`` (the title heading and its
    ancestors, an article's own <header>) never counts as noise."""
    return any(is_noise(a) for a in (el, *el.iterancestors())
               if a not in keep and a.tag not in ("html", "body", "article", "main"))


def _keep(tree: HtmlElement, title: str | None) -> tuple[HtmlElement | None, set[HtmlElement]]:
    anchor = title_element(tree, title)
    return anchor, ({anchor, *anchor.iterancestors()} if anchor is not None else set())


class Near:
    """What :func:`published_of` and :func:`author_of` both read around a page's title
    heading, found once when a caller asks both (``near=``): the heading with its
    ancestors, and the page's text walked around it. The tree must stay unchanged."""

    def __init__(self, tree: HtmlElement, title: str | None) -> None:
        self.tree, self.title = tree, title

    @cached_property
    def kept(self) -> tuple[HtmlElement | None, set[HtmlElement]]:
        return _keep(self.tree, self.title)

    @cached_property
    def walk(self) -> _Around | None:
        anchor = self.kept[0]
        return _around(self.tree, anchor) if anchor is not None else None


def meta_names(field: str) -> tuple[str, ...]:
    """The meta tag names (``opengraph``) of a field of the shipped news lexicon
    (``published``, ``author``): those of a page whose caller has no lexicon at hand."""
    return _shipped_metas().get(field, ())


@functools.cache
def _shipped_metas() -> dict[str, tuple[str, ...]]:
    return {k: tuple(v) for k, v in load_lexicon("news").opengraph_names().items()}


def published_of(tree: HtmlElement, content: HtmlElement | None = None,
                 title: str | None = None, *,
                 th: Thresholds = DEFAULT_THRESHOLDS, words: Words | None = None,
                 metas: Sequence[str] | None = None, near: Near | None = None) -> str | None:
    """Publish date or timestamp: meta tags, itemprop datePublished, the date next to
    the title, <time> elements, date-ish classes, then the content's text. ``title``:
    the page's title (:func:`~structurer.page.titles.title_of`) when already known;
    ``th``: the lexicon's thresholds (how far from the title to look); ``words``: its
    vocabulary (month names); ``metas``: the meta tag names of a publish time (the
    lexicon's ``opengraph`` of its ``published`` field; the shipped news lexicon's);
    ``near``: :class:`Near` of the same tree and title, shared with :func:`author_of`."""
    for _, value in meta_contents(tree, tuple(meta_names("published") if metas is None else metas)):
        found = parse_datetime(value, words)
        if found:
            return found
    for el in tree.xpath('//*[@itemprop="datePublished"]'):
        for value in (el.get("content"), el.get("datetime"), el.text_content()):
            found = parse_datetime(value or "", words)
            if found:
                return found
    near = near or Near(tree, title)
    keep = near.kept[1]
    if near.walk is not None:
        found = _date_near(near.walk, th, words)
        if found:
            return found
    for el in tree.xpath('//time[@datetime]|//time[@pubdate]|//*[contains(@class, "date") or '
                         'contains(@class, "time") or contains(@class, "byline")]'):
        if _in_noise(el, keep):
            continue
        for value in (el.get("datetime"), visible_text(el)[:200]):
            found = parse_datetime(value or "", words)
            if found:
                return found
    for el in (content, tree):
        if el is not None:
            found = parse_datetime(visible_text(el)[:3000], words)
            if found:
                return found
    return None


# ----- author --------------------------------------------------------------------------------
_AUTHOR_XPATH = ('//*[contains(@class, "author") or contains(@class, "byline") or '
                 'contains(@id, "author") or contains(@id, "byline")]')


def _clean_author(text: str, w: Words) -> str | None:
    text = w.author_label.sub("", w.posted.sub("", normalize_space(text)))
    text = w.byline_break.split(text)[0].strip(" ;:|")
    words = text.split()
    if not text or text.startswith(("http://", "https://")) or len(text) > 60 or \
            len(words) > 5 or len(set(words)) < len(words) or w.not_author.match(text):
        return None
    return text


def _name_in(text: str, w: Words) -> str | None:
    """The name of a byline sentence ("By Ann Lee in Oslo", "作者：王芳"), or None (the
    vocabulary's ``author_labels``, ``author_roles``, ``name_particles``)."""
    found = w.byline.search(text) or w.role.match(text) or (
        # a CJK name needs a CJK character: a text without one leaves that pattern
        # uncompiled (its ranges cost more than reading most pages)
        w.cjk_byline.search(text) if text and max(text) >= "\u4e00" else None)
    return found.group(1).strip(" .") if found else None


def _author_element(el: HtmlElement, w: Words) -> str | None:
    names = el.xpath('.//*[@itemprop="name"]')
    value = (names[0].get("content") or names[0].text_content()) if names else \
        (el.get("content") or visible_text(el))
    return _name_in(value or "", w) or _clean_author(value or "", w)


def author_of(tree: HtmlElement, title: str | None = None, *,
              th: Thresholds = DEFAULT_THRESHOLDS, words: Words | None = None,
              metas: Sequence[str] | None = None, near: Near | None = None) -> str | None:
    """Author: meta tags, rel=author / itemprop=author, author and byline classes, then
    a byline sentence right after the title (within half of ``th.byline_after``
    characters; all outside comments and side lists); ``title`` as for
    :func:`published_of`; ``words``: the lexicon's vocabulary (author labels, roles);
    ``metas``: the meta tag names of an author (as for :func:`published_of`)."""
    w = words or default_words()
    for _, value in meta_contents(tree, tuple(meta_names("author") if metas is None else metas)):
        found = _clean_author(value, w)
        if found:
            return found
    near = near or Near(tree, title)
    keep = near.kept[1]
    for xpath in ('//*[@rel="author"]|//*[@itemprop="author"]', _AUTHOR_XPATH):
        for el in tree.xpath(xpath):
            if el.tag != "meta" and not _in_noise(el, keep):
                found = _author_element(el, w)
                if found:
                    return found
    walk = near.walk
    if walk is None:
        return None
    for pos, text in walk.pieces:
        if walk.end <= pos < walk.end + th.byline_after // 2 and len(text) <= 120:
            found = _name_in(text, w)
            if found:
                return found
    return None
