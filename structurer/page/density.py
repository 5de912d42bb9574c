"""Rule-free views of an article-like page: its main content.

Input: an lxml HTML tree (as :func:`structurer.clean.parse_html` returns it). Output:
:class:`ContentFound` (the element holding the main text and that text, chosen by
text and symbol density). The title is in :mod:`structurer.page.titles`, publish time
and author in :mod:`structurer.page.byline`. Pure functions: no network, no files; the input
tree is never modified (noise is removed from a copy).

Content score of an element (text density after Sun et al., as GNE uses it)::

    TD    = (T - LT) / (TG - LTG)          characters, link characters, tags, link tags
    SbD   = (T - LT) / (Sb + 1)            Sb: punctuation characters outside links
    score = ln(SD) * TD * log10(PNum + 2) * ln(SbD)

SD is the standard deviation of TD over all elements, PNum the number of paragraphs
below the element: ``<p>``, and blocks that hold only text and inline markup (a
``<div>`` per paragraph, as many portals write them). Guards: a zero tag difference
counts as one tag; ``ln(SD)`` is a constant factor and is replaced by 1 when SD <= e
(so it never flips the ranking); ``ln(SbD)`` is 0 when SbD <= 1 (text that is mostly
punctuation is not content).
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable
from dataclasses import dataclass

from lxml.html import HtmlElement

from structurer.clean import clean_tree, drop_elements, short_text, visible_text
from structurer.kinds import Words, default_words
from structurer.lexicon import DEFAULT_THRESHOLDS
from structurer.namewords import class_words, value_tokens
from structurer.page.titles import title_element

#: Elements that are never the main content (removed from the copy before scoring).
NOISE_SECTIONS = ("nav", "footer", "header", "aside", "form", "button", "select")
_PUNCT = frozenset("，。！？；：、“”‘’（）《》…,.!?;:'\"()[]{}<>-—–/|·")
_PUNCT_RE = re.compile(f"[{re.escape(''.join(sorted(_PUNCT)))}]")
#: Inline elements: a block whose children are all inline is one paragraph of text.
INLINE = frozenset({"a", "abbr", "b", "bdi", "br", "cite", "code", "em", "font", "i", "img",
                     "kbd", "mark", "q", "s", "small", "span", "strong", "sub", "sup", "time",
                     "u", "var", "wbr"})
_TEXT_BLOCKS = frozenset({"div", "section", "td"})


@dataclass(frozen=True)
class ContentFound:
    element: HtmlElement
    text: str
    score: float
    #: the element's lines before the filters that tidy the text (all but link lines):
    #: what the page's kind is judged on, so that leaving a boilerplate line out of the
    #: text never changes the kind; empty: the text itself
    read: str = ""

    @property
    def evidence(self) -> str:
        """The text the page's kind is judged on (``read``, else ``text``)."""
        return self.read or self.text


# ----- content --------------------------------------------------------------------------------
def is_noise(el: HtmlElement, words: Words | None = None) -> bool:
    """A navigation, footer, sidebar, comments, sharing... element (by tag or by the
    words of its class, id and role: the vocabulary's ``noise_classes``); a content word
    beside them (``content_classes``: "content-sidebar-wrap", as themes name the wrapper
    of text and sidebar) clears it, as in Readability."""
    if el.tag in NOISE_SECTIONS:
        return True
    said = f"{el.get('class') or ''} {el.get('id') or ''} {el.get('role') or ''}"
    if not said.strip():
        return False
    return _noise_said(words or default_words(), said)


@functools.lru_cache(maxsize=1 << 14)
def _noise_said(words: Words, said: str) -> bool:
    """:func:`is_noise` of a class, id and role joined by spaces, read once per vocabulary
    and value (:mod:`structurer.namewords`, camelCase split: noise words as whole words,
    the content words clearing them partly too, as the vocabulary's ``partial_words``
    declares)."""
    tokens = value_tokens(said)
    return class_words(words, "noise_classes").finds(tokens) and not \
        class_words(words, "content_classes").finds(tokens)


def noise_heading(el: HtmlElement, words: Words | None = None) -> bool:
    """A block headed "32 comments", "Related stories", "Meistgelesen", "热门排行"... (the
    vocabulary's ``noise_headings``): a comment thread or side list even when its class
    names say nothing."""
    if el.tag not in ("div", "section", "ul", "ol", "dl") or len(el) < 2:
        return False
    head = el[0]
    if not isinstance(head.tag, str) or head.tag in ("p", "a", "li"):
        return False
    text = short_text(head, 40) or ""
    return 0 < len(text) <= 40 and bool((words or default_words()).noise_heading.match(text))


def denoised(tree: HtmlElement, extra: Callable[[HtmlElement], bool] | None = None, *,
             words: bool = True) -> HtmlElement:
    """A copy without scripts/styles/comments (``clean_tree``) and noise sections (but
    never a section holding the title's heading); ``extra`` names more noise (an
    article's boilerplate, :mod:`structurer.page.article`); without ``words`` only noise
    tags count, not class/id words or noise headings (the caller weighs those itself)."""
    root = clean_tree(tree)
    body = root.find(".//body")
    start = body if body is not None else root
    anchor = title_element(root)
    keep = set(anchor.iterancestors()) if anchor is not None else set()

    def noise(el: HtmlElement) -> bool:
        hit = (is_noise(el) or noise_heading(el)) if words else el.tag in NOISE_SECTIONS
        return hit or (extra is not None and extra(el))

    drop_elements([el for el in start.iter() if isinstance(el.tag, str) and el is not start
              and el.tag not in ("html", "body", "article", "main") and el not in keep
              and noise(el)])
    return root


@dataclass
class Counts:
    t: int = 0      # characters
    lt: int = 0     # characters inside links
    tg: int = 0     # tags
    ltg: int = 0    # link tags
    sb: int = 0     # punctuation outside links
    p: int = 0      # paragraphs below: <p>, and text-only blocks
    block: bool = False   # has a non-inline element below it


def _chars(text: str | None) -> tuple[int, int]:
    """(characters but spaces, punctuation characters) of a text."""
    if not text or text.isspace():
        return 0, 0
    squeezed = "".join(text.split())
    return len(squeezed), len(_PUNCT_RE.findall(squeezed))


def _count(el: HtmlElement, out: dict[HtmlElement, Counts], in_link: bool,
           min_text: int) -> Counts:
    """The counts of ``el`` (its children's first, into ``out``: every element once)."""
    link = in_link or el.tag == "a"
    t, sb = _chars(el.text)
    lt, sb = (t, 0) if link else (0, sb)
    tg = ltg = p = 0
    block = False
    for child in el:
        tag = child.tag
        if isinstance(tag, str):
            sub = _count(child, out, link, min_text)
            t, lt, sb, p = t + sub.t, lt + sub.lt, sb + sub.sb, p + sub.p
            tg += sub.tg + 1
            ltg += sub.ltg + (1 if tag == "a" else 0)
            p += 1 if tag == "p" or _text_block(child, sub, min_text) else 0
            block = block or sub.block or tag not in INLINE
        tail = child.tail
        if tail and not tail.isspace():   # most tails are a line break and an indent
            n, s = _chars(tail)
            t += n
            lt += n if link else 0
            sb += 0 if link else s
    c = out[el] = Counts(t, lt, tg, ltg, sb, p, block)
    return c


def _text_block(el: HtmlElement, c: Counts, min_text: int) -> bool:
    """A div (section, cell) that holds one paragraph: only text and inline markup, at
    least ``min_text`` characters of it outside links."""
    return el.tag in _TEXT_BLOCKS and not c.block and c.t - c.lt >= min_text


def _td(c: Counts) -> float:
    return (c.t - c.lt) / max(c.tg - c.ltg, 1)


def _pstdev(values: list[float]) -> float:
    """Population standard deviation (``statistics.pstdev`` but for the last bits, without
    loading ``statistics``: it costs a page read in start-up time)."""
    mean = math.fsum(values) / len(values)
    return math.sqrt(math.fsum((v - mean) ** 2 for v in values) / len(values))


def main_content(tree: HtmlElement, min_text: int = DEFAULT_THRESHOLDS.min_block_text
                 ) -> ContentFound | None:
    """The element with the highest density score (after noise removal) and its text;
    a text-only block counts as a paragraph from ``min_text`` characters (the lexicon's
    ``min_block_text``)."""
    root = denoised(tree)
    body = root.find(".//body")
    scores, counts = density_scores(body if body is not None else root, min_text)
    if not scores:
        return None
    best = max(scores, key=lambda el: scores[el])
    return ContentFound(*_paragraph_owner(best, scores, counts, min_text))


def text_counts(start: HtmlElement, min_text: int = DEFAULT_THRESHOLDS.min_block_text
                ) -> dict[HtmlElement, Counts]:
    """Characters, link characters, tags, punctuation and paragraphs below every element
    under ``start`` (``start`` included)."""
    counts: dict[HtmlElement, Counts] = {}
    _count(start, counts, False, min_text)
    return counts


def density_scores(start: HtmlElement, min_text: int = DEFAULT_THRESHOLDS.min_block_text
                   ) -> tuple[dict[HtmlElement, float], dict[HtmlElement, Counts]]:
    """The density score of every element below ``start`` (none for links, body, html and
    elements without text outside links), and each element's counts."""
    counts = text_counts(start, min_text)
    if not counts:
        return {}, counts
    densities = [_td(c) for c in counts.values()]
    sd = _pstdev(densities) if len(densities) > 1 else 0.0
    sd_factor = math.log(sd) if sd > math.e else 1.0
    scores: dict[HtmlElement, float] = {}
    for el, c in counts.items():
        if el.tag in ("a", "body", "html") or c.t - c.lt <= 0:
            continue
        sbd = (c.t - c.lt) / (c.sb + 1)
        scores[el] = sd_factor * _td(c) * math.log10(c.p + 2) * (
            math.log(sbd) if sbd > 1 else 0.0)
    return scores, counts


def _paragraph_owner(best: HtmlElement, scores: dict[HtmlElement, float],
                     counts: dict[HtmlElement, Counts], min_text: int
                     ) -> tuple[HtmlElement, str, float]:
    """One long paragraph can out-score the text it belongs to (its own density has no
    tags to divide by): a winning paragraph gives way to its nearest ancestor holding
    several paragraphs, unless that ancestor scores far lower."""
    top = scores[best]
    if best.tag == "p" or _text_block(best, counts[best], min_text):
        for parent in best.iterancestors():
            if parent not in scores:
                break
            if counts[parent].p >= 2:
                if scores[parent] >= 0.25 * top:
                    best = parent
                break
    return best, content_text(best, min_text), scores[best]


_BLOCKS = frozenset({"p", "li", "h2", "h3", "h4", "pre", "blockquote", "dd"})


def _blocks(el: HtmlElement, out: list[HtmlElement], min_text: int) -> None:
    for child in el:
        if not isinstance(child.tag, str):
            continue
        paragraph = child.tag in _BLOCKS and not (child.tag == "blockquote"
                                                 and child.find(".//p") is not None)
        inline_only = child.tag in _TEXT_BLOCKS and all(
            not isinstance(g.tag, str) or g.tag in INLINE for g in child.iterdescendants())
        if paragraph or (inline_only and len(visible_text(child)) >= min_text):
            out.append(child)
        else:
            _blocks(child, out, min_text)


def _mostly_link(el: HtmlElement) -> bool:
    """A line that is mostly a link ("Also read: <a>other story</a>"), not text."""
    total = len("".join(visible_text(el).split()))
    linked = sum(len("".join(visible_text(a).split())) for a in el.iter("a"))
    return total > 0 and linked >= 0.5 * total


def content_text(el: HtmlElement,
                 min_text: int = DEFAULT_THRESHOLDS.min_block_text) -> str:
    """Text of a content element, one line per paragraph-like block (a text-only block
    of ``min_text`` characters at least is one)."""
    found: list[HtmlElement] = []
    _blocks(el, found, min_text)
    blocks = [text for text in (visible_text(b) for b in found if not _mostly_link(b))
              if text]
    whole = visible_text(el)
    if blocks and sum(len(b) for b in blocks) >= 0.6 * len(whole):
        return "\n".join(blocks)
    return whole
