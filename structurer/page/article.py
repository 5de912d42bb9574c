"""The main text of an article page, whole and without the site's boilerplate.

Input: an lxml HTML tree and the lexicon (its ``signals``: ``boilerplate`` class/id
words, ``article_body`` words that clear them, ``boilerplate_headings`` that open a
comment thread or a side list, ``boilerplate_text`` lines such as sharing prompts and
consent notices). Output: :class:`~structurer.page.density.ContentFound` — the element
holding the article and its text, one line per paragraph, heading, list item or cell.

Three steps, each what the best extractors do on top of text density:

1. *Noise out.* The density view's noise sections (:func:`density.denoised`), plus
   blocks whose class/id words name boilerplate (comments, consent banners, sharing,
   newsletter boxes, author bios, related stories), hidden blocks and dialogs, and
   blocks opened by a boilerplate heading ("Leave a reply", "Ähnliche Beiträge").
2. *Seed, then the whole article.* The element of highest text density is the seed;
   a seed is often one paragraph or list item of the article, so among the seed and
   its ancestors the one with the most paragraph weight wins (Readability's score: a
   paragraph of 25 characters or more gives ``1 + commas + min(chars / 100, 3)``,
   times its share of text outside links, to its parent, half to its grandparent and
   ``1 / (3 * level)`` further up), times the share of its own text outside links;
   siblings of that element carrying paragraph weight of their own (a second section,
   a list after the text) join it.
3. *Lines.* The text is cut at block elements; a line mostly made of links ("Also
   read: ...", a tag list) or a short boilerplate line is left out.

Pure functions: the input tree is never modified (the work is done on a copy).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lxml.html import HtmlElement

from structurer.clean import BLOCK_TAGS, NOISE_TAGS, normalize_space
from structurer.lexicon import Lexicon
from structurer.page import density

#: A boilerplate word of this weight names boilerplate even beside an article word.
STRONG = 15
_PARAGRAPHS = frozenset({"p", "pre", "blockquote", "li", "dd", "td", "dt"})
_LISTS = frozenset({"ul", "ol", "dl", "tbody", "thead", "tfoot", "tr"})
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")
_TOKENS = re.compile(r"[^a-z0-9]+")
_HIDDEN = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.I)
_COMMAS = re.compile(r"[,，、،]")


@dataclass(frozen=True)
class Vocabulary:
    """The lexicon's words for an article's boilerplate (see the module doc)."""
    boilerplate: dict[str, float]
    body: frozenset[str]
    headings: tuple[str, ...]
    lines: tuple[str, ...]

    @classmethod
    def of(cls, lexicon: Lexicon) -> Vocabulary:
        signals = lexicon.signals
        return cls({k.lower(): v for k, v in signals.get("boilerplate", {}).items()},
                   frozenset(k.lower() for k in signals.get("article_body", {})),
                   tuple(k.lower() for k in signals.get("boilerplate_headings", {})),
                   tuple(k.lower() for k in signals.get("boilerplate_text", {})))


def attribute_tokens(el: HtmlElement) -> list[str]:
    """The words of an element's class and id ("commentList" -> comment, list)."""
    raw = f"{el.get('class') or ''} {el.get('id') or ''}"
    return [t for t in _TOKENS.split(_CAMEL.sub(" ", raw).lower()) if t]


def _word_hit(word: str, tokens: list[str]) -> bool:
    """``word`` ("author-bio", "cookie") is a run of the tokens; a word of four letters or
    more also matches the start of a token ("cookiebanner", "sharedaddy")."""
    parts = [p for p in _TOKENS.split(word) if p]
    n = len(parts)
    if n == 0 or n > len(tokens):
        return False
    for i in range(len(tokens) - n + 1):
        if tokens[i:i + n - 1] == parts[:-1]:
            last = tokens[i + n - 1]
            if last == parts[-1] or (len(parts[-1]) >= 4 and last.startswith(parts[-1])):
                return True
    return False


def boilerplate_block(el: HtmlElement, vocab: Vocabulary) -> bool:
    """A block of boilerplate: by its class/id words, hidden, a dialog, or opened by a
    boilerplate heading."""
    if el.get("hidden") is not None or _HIDDEN.search(el.get("style") or "") or \
            el.get("role") in ("dialog", "alertdialog") or el.get("aria-modal") == "true":
        return True
    tokens = attribute_tokens(el)
    if tokens:
        weight = max((w for word, w in vocab.boilerplate.items() if _word_hit(word, tokens)),
                     default=0.0)
        if weight >= STRONG or (weight > 0 and not vocab.body.intersection(tokens)):
            return True
    return _opened_by_boilerplate(el, vocab)


def _opened_by_boilerplate(el: HtmlElement, vocab: Vocabulary) -> bool:
    if not vocab.headings or el.tag not in ("div", "section", "ul", "ol", "dl", "aside") \
            or len(el) < 2:
        return False
    head = el[0]
    if not isinstance(head.tag, str) or head.tag not in ("h1", "h2", "h3", "h4", "h5", "h6",
                                                          "div", "span", "strong", "p", "b"):
        return False
    text = normalize_space(head.text_content()).lower()
    return 0 < len(text) <= 60 and text.startswith(vocab.headings)


def _cut_at_boilerplate_headings(start: HtmlElement, vocab: Vocabulary) -> None:
    """A heading such as "Leave a reply" or "Related posts" among the article's own
    paragraphs ends the article: it and what follows it in its parent are removed."""
    if not vocab.headings:
        return
    doomed = []
    for heading in start.iter("h2", "h3", "h4", "h5", "h6"):
        text = normalize_space(heading.text_content()).lower()
        if 0 < len(text) <= 60 and text.startswith(vocab.headings):
            doomed.append(heading)
    for heading in doomed:
        parent = heading.getparent()
        if parent is None or parent is start:
            continue
        for el in [heading, *heading.itersiblings()]:
            parent.remove(el)


def article_content(tree: HtmlElement, lexicon: Lexicon) -> density.ContentFound | None:
    """The article's element and its whole text (see the module doc)."""
    vocab = Vocabulary.of(lexicon)
    min_text = lexicon.thresholds.min_block_text
    root = density.denoised(tree, lambda el: boilerplate_block(el, vocab))
    body = root.find(".//body")
    start = body if body is not None else root
    _cut_at_boilerplate_headings(start, vocab)
    scores, counts = density.density_scores(start, min_text)
    if not scores:
        return None
    seed = max(scores, key=lambda el: scores[el])
    points, good = _paragraph_points(start, counts)

    def weight(el: HtmlElement) -> float:
        c = counts[el]
        return points.get(el, 0.0) * (1 - c.lt / c.t if c.t else 0.0)

    chain = [seed, *(a for a in seed.iterancestors() if a.tag not in ("body", "html"))]
    core = max(chain, key=weight) if any(weight(el) for el in chain) else seed
    best = _widened(core, chain, counts, good, lexicon.thresholds.article_slack)
    text = "\n".join(_lines(best, vocab))
    if not text:
        return None
    return density.ContentFound(best, text, scores.get(best, 0.0))


def _widened(core: HtmlElement, chain: list[HtmlElement],
             counts: dict[HtmlElement, density.Counts], good: dict[HtmlElement, int],
             slack: int) -> HtmlElement:
    """The highest ancestor of ``core`` that adds paragraphs and whose text beyond the
    core's is still mostly paragraphs (the article's other sections), give or take
    ``slack`` characters of headline, byline and captions."""
    best = core
    base_t, base_g = counts[core].t, good.get(core, 0)
    for el in chain[chain.index(core) + 1:]:
        added = counts[el].t - base_t
        more = good.get(el, 0)
        if more > good.get(best, 0) and more - base_g >= 0.6 * added - slack:
            best = el     # only a step that adds paragraphs: no site header for nothing
    return best


def _paragraph_points(start: HtmlElement, counts: dict[HtmlElement, density.Counts]
                      ) -> tuple[dict[HtmlElement, float], dict[HtmlElement, int]]:
    """Readability's paragraph weight, given to each paragraph's nearest ancestors; and
    the characters of paragraph text outside links below every ancestor."""
    points: dict[HtmlElement, float] = {}
    good: dict[HtmlElement, int] = {}
    for el in start.iter(*_PARAGRAPHS, "div", "section"):
        c = counts.get(el)
        if c is None or c.p or c.t < 25 or c.t - c.lt < 25:
            continue     # a paragraph holding paragraphs lets them count
        if el.tag in ("div", "section") and c.block:
            continue     # a text-only div is a paragraph; others are containers
        outside = (c.t - c.lt) / c.t
        if outside < 0.5:
            continue
        text = el.text_content()
        value = (1 + len(_COMMAS.findall(text)) + min((c.t - c.lt) / 100, 3)) * outside
        level = 0
        good[el] = good.get(el, 0) + c.t - c.lt
        for parent in el.iterancestors():
            good[parent] = good.get(parent, 0) + c.t - c.lt
            if level >= 5 or parent is start or parent.tag in _LISTS:
                continue     # a list is part of the text around it, not a container
            points[parent] = points.get(parent, 0.0) + value / (
                1 if level == 0 else 2 if level == 1 else 3 * level)
            level += 1
    return points, good


def _lines(el: HtmlElement, vocab: Vocabulary) -> list[str]:
    """The text of ``el``, one line per block, link lines and boilerplate lines left out."""
    walk = _Walk()
    walk.visit(el, False)
    walk.flush()
    out = []
    for text, linked in walk.lines:
        squeezed = len("".join(text.split()))
        if linked >= 0.5 * squeezed:
            continue
        if len(text) <= 120 and text.lower().startswith(vocab.lines):
            continue
        out.append(text)
    return out


class _Walk:
    """Text cut at block elements, with the characters inside links of each line."""

    def __init__(self) -> None:
        self.lines: list[tuple[str, int]] = []
        self.pieces: list[str] = []
        self.linked = 0

    def add(self, text: str | None, link: bool) -> None:
        if text:
            self.pieces.append(text)
            if link:
                self.linked += len("".join(text.split()))

    def flush(self) -> None:
        text = normalize_space("".join(self.pieces))
        if text:
            self.lines.append((text, self.linked))
        self.pieces, self.linked = [], 0

    def visit(self, el: HtmlElement, in_link: bool) -> None:
        block = el.tag in BLOCK_TAGS and el.tag != "br"
        link = in_link or el.tag == "a"
        if block:
            self.flush()
        elif el.tag == "br":
            self.add(" ", link)
        self.add(el.text, link)
        for child in el:
            if isinstance(child.tag, str) and child.tag not in NOISE_TAGS:
                self.visit(child, link)
            self.add(child.tail, link)
        if block:
            self.flush()
