"""Rule-free views of an article-like page: its title and its main content.

Input: an lxml HTML tree (as :func:`structurer.clean.parse_html` returns it). Output:
:class:`TitleFound` (the title and where it came from, site name removed) and
:class:`ContentFound` (the element holding the main text and that text, chosen by
text and symbol density). Publish time and author are in
:mod:`structurer.page.byline`. Pure functions: no network, no files; the input
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

import difflib
import math
import re
from collections.abc import Callable
from dataclasses import dataclass

from lxml.html import HtmlElement

from structurer.clean import clean_tree, drop_elements, normalize_space, visible_text
from structurer.kinds import Words, default_words
from structurer.lexicon import DEFAULT_THRESHOLDS

#: Elements that are never the main content (removed from the copy before scoring).
NOISE_SECTIONS = ("nav", "footer", "header", "aside", "form", "button", "select")
_PUNCT = frozenset("，。！？；：、“”‘’（）《》…,.!?;:'\"()[]{}<>-—–/|·")
_TITLE_METAS = ("og:title", "twitter:title", "title", "sailthru.title", "dc.title",
                "parsely-title", "headline")
_SITE_METAS = ("og:site_name", "application-name", "apple-mobile-web-app-title")
_SEP = r"(?:[-|–—_»·:]|::)"
_SPLIT_TITLE = re.compile(rf"\s+{_SEP}\s+|(?<=[\u3040-\u9fff])_|_(?=[\u3040-\u9fff])")
#: Inline elements: a block whose children are all inline is one paragraph of text.
INLINE = frozenset({"a", "abbr", "b", "bdi", "br", "cite", "code", "em", "font", "i", "img",
                     "kbd", "mark", "q", "s", "small", "span", "strong", "sub", "sup", "time",
                     "u", "var", "wbr"})
_TEXT_BLOCKS = frozenset({"div", "section", "td"})


@dataclass(frozen=True)
class TitleFound:
    text: str
    source: str          # "meta:og:title", "h1", "title", ...


@dataclass(frozen=True)
class ContentFound:
    element: HtmlElement
    text: str
    score: float


# ----- title ------------------------------------------------------------------------------
def _meta(tree: HtmlElement, names: tuple[str, ...]) -> list[tuple[str, str]]:
    """(name, content) of <meta> tags whose property/name/itemprop is one of ``names``."""
    out = []
    wanted = {n.lower() for n in names}
    for meta in tree.iter("meta"):
        key = (meta.get("property") or meta.get("name") or meta.get("itemprop") or "").lower()
        content = normalize_space(meta.get("content") or "")
        if key in wanted and content:
            out.append((key, content))
    out.sort(key=lambda kv: [n.lower() for n in names].index(kv[0]))
    return out


def similarity(a: str, b: str) -> float:
    """0..1 likeness of two texts (case-insensitive sequence matching)."""
    if not a or not b:
        return 0.0
    return difflib.SequenceMatcher(None, a.lower(), b.lower()).ratio()


def _headings(tree: HtmlElement) -> list[HtmlElement]:
    """The page's non-empty h1-h3 of at most 300 characters in the body, in document
    order (walked: an XPath testing every element's name is several times slower)."""
    root = tree.getroottree().getroot()   # broken markup can leave more top-level elements
    tops = [*reversed(list(root.itersiblings(preceding=True))), root, *root.itersiblings()]
    found = {h: None for top in tops if isinstance(top.tag, str) for body in top.iter("body")
             for h in body.iter("h1", "h2", "h3") if h is not body}
    return [h for h in found if 0 < len(visible_text(h)) <= 300]


def _heading_inside(title: str, headings: list[str]) -> str | None:
    """A heading that is ``title`` minus a site name, section or date beside a separator
    ("Headline | Site", "Site: Headline", "Headline_Section_Site"), also when the two
    spell a character differently (a prime for an apostrophe)."""
    low = title.lower()
    parts = _SPLIT_TITLE.split(title)
    spans = [" ".join(parts[i:j]) for i in range(len(parts))
             for j in range(i + 1, len(parts) + 1) if (i, j) != (0, len(parts))]
    for text in sorted(headings, key=len, reverse=True):
        part = text.lower()
        if len(part) < 8 or part == low:
            continue
        if part in low:
            before, after = low.split(part, 1)
            edge_before = not before.strip() or re.search(rf"(?:{_SEP}|_)\s*$", before)
            edge_after = not after.strip() or re.match(rf"\s*(?:{_SEP}|_)", after)
            if edge_before and edge_after:
                return text
        elif any(similarity(text, span) >= 0.9 for span in spans):
            return text
    return None


def _site_part(heading: str, page_title: str) -> bool:
    """The heading is the site's name in the <title>: its first or last part beside a
    separator, with a longer part (the headline) beside it (a logo in an <h1>)."""
    parts = [p.strip().lower() for p in _SPLIT_TITLE.split(page_title)]
    low = heading.strip().lower()
    return len(parts) > 1 and low in (parts[0], parts[-1]) and \
        max(len(p) for p in parts if p != low) > len(low)


def _without_site(title: str, tree: HtmlElement) -> str:
    """``title`` without the site's name at its start or end (og:site_name and kin)."""
    for _, name in _meta(tree, _SITE_METAS):
        pattern = re.escape(name)
        cut = re.sub(rf"\s*(?:{_SEP}|_)\s*{pattern}\s*$", "", title, flags=re.I)
        cut = re.sub(rf"^\s*{pattern}\s*(?:{_SEP}|_)\s*", "", cut, flags=re.I)
        if cut.strip() and cut != title:
            return cut.strip()
    return title


def title_of(tree: HtmlElement) -> TitleFound | None:
    """The page's title: a meta title, else the h1-h3 most like <title>, else <title>;
    a site name beside a separator is removed (the heading that remains wins)."""
    headings = [visible_text(h) for h in _headings(tree)]
    found = _meta(tree, _TITLE_METAS)
    if found:
        text = found[0][1]
        return TitleFound(_heading_inside(text, headings) or _without_site(text, tree),
                          f"meta:{found[0][0]}")
    titles = tree.xpath("//title")
    page_title = normalize_space(titles[0].text_content()) if titles else ""
    best: tuple[float, str, str] | None = None
    for heading in _headings(tree):
        text = visible_text(heading)
        if _site_part(text, page_title):
            continue
        score = similarity(text, page_title) + (0.5 if text.lower() in page_title.lower()
                                                 else 0.0)
        score += {"h1": 0.2, "h2": 0.1}.get(str(heading.tag), 0.0)
        if best is None or score > best[0]:
            best = (score, text, str(heading.tag))
    if best is not None and (best[0] >= 0.5 or not page_title):
        return TitleFound(best[1], best[2])
    if page_title:
        page_title = _without_site(page_title, tree)
        parts = _SPLIT_TITLE.split(page_title)
        return TitleFound(max(parts, key=len) if len(parts) > 1 else page_title, "title")
    return None


def title_element(tree: HtmlElement, title: str | None = None) -> HtmlElement | None:
    """The heading that states the page's title (the most similar h1-h3), else the
    first h1."""
    if title is None:
        found = title_of(tree)
        title = found.text if found else ""
    best: tuple[float, HtmlElement] | None = None
    for heading in _headings(tree):
        text, bonus = visible_text(heading), (0.05 if heading.tag == "h1" else 0)
        # skip a heading whose length alone keeps it below the bar or the best so far
        # (the ratio is at most 2 * shorter / both): costly sequence matching is the rest
        bound = 2 * min(len(text), len(title)) / (len(text) + len(title) or 1) + bonus
        if bound < 0.6 or (best is not None and bound <= best[0]):
            continue
        score = similarity(text, title) + bonus
        if best is None or score > best[0]:
            best = (score, heading)
    if best is not None and best[0] >= 0.6:
        return best[1]
    h1s = tree.xpath("//body//h1")
    return h1s[0] if h1s else None


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
    w = words or default_words()
    return bool(w.noise_class.search(said)) and not w.content_class.search(said)


def noise_heading(el: HtmlElement, words: Words | None = None) -> bool:
    """A block headed "32 comments", "Related stories", "Meistgelesen", "热门排行"... (the
    vocabulary's ``noise_headings``): a comment thread or side list even when its class
    names say nothing."""
    if el.tag not in ("div", "section", "ul", "ol", "dl") or len(el) < 2:
        return False
    head = el[0]
    if not isinstance(head.tag, str) or head.tag in ("p", "a", "li"):
        return False
    text = normalize_space(head.text_content())
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
    if not text:
        return 0, 0
    squeezed = "".join(text.split())
    return len(squeezed), sum(1 for c in squeezed if c in _PUNCT)


def _count(el: HtmlElement, out: dict[HtmlElement, Counts], in_link: bool,
           min_text: int) -> Counts:
    link = in_link or el.tag == "a"
    c = Counts()
    n, sb = _chars(el.text)
    c.t += n
    c.lt += n if link else 0
    c.sb += 0 if link else sb
    for child in el:
        if isinstance(child.tag, str):
            sub = _count(child, out, link, min_text)
            c.t, c.lt, c.sb, c.p = c.t + sub.t, c.lt + sub.lt, c.sb + sub.sb, c.p + sub.p
            c.tg += sub.tg + 1
            c.ltg += sub.ltg + (1 if child.tag == "a" else 0)
            c.p += 1 if child.tag == "p" or _text_block(child, sub, min_text) else 0
            c.block = c.block or sub.block or child.tag not in INLINE
        n, sb = _chars(child.tail)
        c.t += n
        c.lt += n if link else 0
        c.sb += 0 if link else sb
    out[el] = c
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
