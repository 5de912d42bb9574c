"""Rule-free views of an article-like page: its title, main content, publish time, author.

Input: an lxml HTML tree (as :func:`structurer.clean.parse_html` returns it). Output:
:class:`TitleFound` (the title and where it came from), :class:`ContentFound` (the
element holding the main text and that text, chosen by text and symbol density),
and ISO date / author strings (or None). Pure functions: no network, no files; the
input tree is never modified (noise is removed from a copy).

Content score of an element (text density after Sun et al., as GNE uses it)::

    TD    = (T - LT) / (TG - LTG)          characters, link characters, tags, link tags
    SbD   = (T - LT) / (Sb + 1)            Sb: punctuation characters outside links
    score = ln(SD) * TD * log10(PNum + 2) * ln(SbD)

SD is the standard deviation of TD over all elements, PNum the number of ``<p>``
descendants. Guards: a zero tag difference counts as one tag; ``ln(SD)`` is a constant
factor and is replaced by 1 when SD <= e (so it never flips the ranking); ``ln(SbD)``
is 0 when SbD <= 1 (text that is mostly punctuation is not content).
"""

from __future__ import annotations

import difflib
import math
import re
import statistics
from dataclasses import dataclass
from datetime import date, datetime

from lxml.html import HtmlElement

from structurer.clean import clean_tree, normalize_space, visible_text

#: Elements that are never the main content (removed from the copy before scoring).
NOISE_SECTIONS = ("nav", "footer", "header", "aside", "form", "button", "select")
_NOISE_WORDS = re.compile(
    r"(?:^|[-_\s])(?:comments?|related|recommend(?:ed|ations)?|share|sharing|social|"
    r"sidebar|footer|nav|navbar|menu|breadcrumbs?|advert|ads?|cookie|newsletter|"
    r"popular|trending|hot|most-read|subscribe|promo|banner)(?:$|[-_\s])", re.I)
_PUNCT = frozenset("，。！？；：、“”‘’（）《》…,.!?;:'\"()[]{}<>-—–/|·")
_TITLE_METAS = ("og:title", "twitter:title", "title", "sailthru.title", "dc.title",
                "parsely-title", "headline")
_SPLIT_TITLE = re.compile(r"\s+(?:[-|–—_»·:]|::)\s+")


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


def title_of(tree: HtmlElement) -> TitleFound | None:
    """The page's title: a meta title, else the h1-h3 most like <title>, else <title>."""
    found = _meta(tree, _TITLE_METAS)
    if found:
        return TitleFound(found[0][1], f"meta:{found[0][0]}")
    titles = tree.xpath("//title")
    page_title = normalize_space(titles[0].text_content()) if titles else ""
    best: tuple[float, str, str] | None = None
    for heading in tree.xpath("//body//*[self::h1 or self::h2 or self::h3]"):
        text = visible_text(heading)
        if not text or len(text) > 300:
            continue
        score = similarity(text, page_title) + (0.5 if text.lower() in page_title.lower()
                                                 else 0.0)
        score += {"h1": 0.2, "h2": 0.1}.get(str(heading.tag), 0.0)
        if best is None or score > best[0]:
            best = (score, text, str(heading.tag))
    if best is not None and (best[0] >= 0.5 or not page_title):
        return TitleFound(best[1], best[2])
    if page_title:
        parts = _SPLIT_TITLE.split(page_title)
        return TitleFound(max(parts, key=len) if len(parts) > 1 else page_title, "title")
    return None


# ----- content --------------------------------------------------------------------------------
def _is_noise(el: HtmlElement) -> bool:
    if el.tag in NOISE_SECTIONS:
        return True
    words = f"{el.get('class') or ''} {el.get('id') or ''} {el.get('role') or ''}"
    return bool(words.strip()) and bool(_NOISE_WORDS.search(words))


def denoised(tree: HtmlElement) -> HtmlElement:
    """A copy without scripts/styles/comments (``clean_tree``) and noise sections."""
    root = clean_tree(tree)
    body = root.find(".//body")
    start = body if body is not None else root
    doomed = [el for el in start.iter() if isinstance(el.tag, str) and el is not start
              and el.tag not in ("html", "body", "article", "main") and _is_noise(el)]
    for el in doomed:
        parent = el.getparent()
        if parent is not None and not any(a in doomed for a in el.iterancestors()):
            tail = el.tail
            parent.remove(el)
            if tail:
                prev = parent[-1] if len(parent) else None
                if prev is not None:
                    prev.tail = (prev.tail or "") + tail
                else:
                    parent.text = (parent.text or "") + tail
    return root


@dataclass
class _Counts:
    t: int = 0      # characters
    lt: int = 0     # characters inside links
    tg: int = 0     # tags
    ltg: int = 0    # link tags
    sb: int = 0     # punctuation outside links
    p: int = 0      # <p> descendants


def _chars(text: str | None) -> tuple[int, int]:
    if not text:
        return 0, 0
    squeezed = "".join(text.split())
    return len(squeezed), sum(1 for c in squeezed if c in _PUNCT)


def _count(el: HtmlElement, out: dict[HtmlElement, _Counts], in_link: bool) -> _Counts:
    link = in_link or el.tag == "a"
    c = _Counts()
    n, sb = _chars(el.text)
    c.t += n
    c.lt += n if link else 0
    c.sb += 0 if link else sb
    for child in el:
        if isinstance(child.tag, str):
            sub = _count(child, out, link)
            c.t, c.lt, c.sb, c.p = c.t + sub.t, c.lt + sub.lt, c.sb + sub.sb, c.p + sub.p
            c.tg += sub.tg + 1
            c.ltg += sub.ltg + (1 if child.tag == "a" else 0)
            c.p += 1 if child.tag == "p" else 0
        n, sb = _chars(child.tail)
        c.t += n
        c.lt += n if link else 0
        c.sb += 0 if link else sb
    out[el] = c
    return c


def _td(c: _Counts) -> float:
    return (c.t - c.lt) / max(c.tg - c.ltg, 1)


def main_content(tree: HtmlElement) -> ContentFound | None:
    """The element with the highest density score (after noise removal) and its text."""
    root = denoised(tree)
    body = root.find(".//body")
    start = body if body is not None else root
    counts: dict[HtmlElement, _Counts] = {}
    _count(start, counts, False)
    if not counts:
        return None
    densities = [_td(c) for c in counts.values()]
    sd = statistics.pstdev(densities) if len(densities) > 1 else 0.0
    sd_factor = math.log(sd) if sd > math.e else 1.0
    best: tuple[float, HtmlElement] | None = None
    for el, c in counts.items():
        if el.tag in ("a", "body", "html") or c.t - c.lt <= 0:
            continue
        sbd = (c.t - c.lt) / (c.sb + 1)
        score = sd_factor * _td(c) * math.log10(c.p + 2) * (math.log(sbd) if sbd > 1 else 0.0)
        if best is None or score > best[0]:
            best = (score, el)
    if best is None:
        return None
    return ContentFound(best[1], content_text(best[1]), best[0])


def content_text(el: HtmlElement) -> str:
    """Text of a content element, one line per paragraph-like block."""
    blocks = [visible_text(b) for b in el.xpath(".//p|.//li|.//h2|.//h3|.//h4|.//pre|"
                                                ".//blockquote[not(.//p)]")]
    blocks = [b for b in blocks if b]
    whole = visible_text(el)
    if blocks and sum(len(b) for b in blocks) >= 0.6 * len(whole):
        return "\n".join(blocks)
    return whole


# ----- publish time -----------------------------------------------------------------------------
_TIME_METAS = ("article:published_time", "datepublished", "pubdate", "publishdate",
               "og:published_time", "article.published", "publication_date", "date",
               "dc.date", "dc.date.issued", "sailthru.date", "parsely-pub-date")
_MONTHS = {
    **{m: i + 1 for i, m in enumerate(["january", "february", "march", "april", "may", "june",
                                       "july", "august", "september", "october", "november",
                                       "december"])},
    **{m: i + 1 for i, m in enumerate(["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug",
                                       "sep", "oct", "nov", "dec"])},
    "sept": 9,
    **{m: i + 1 for i, m in enumerate(["januar", "februar", "märz", "april", "mai", "juni",
                                       "juli", "august", "september", "oktober", "november",
                                       "dezember"])},
    **{m: i + 1 for i, m in enumerate(["janvier", "février", "mars", "avril", "mai", "juin",
                                       "juillet", "août", "septembre", "octobre", "novembre",
                                       "décembre"])},
    **{m: i + 1 for i, m in enumerate(["enero", "febrero", "marzo", "abril", "mayo", "junio",
                                       "julio", "agosto", "septiembre", "octubre", "noviembre",
                                       "diciembre"])},
}
_MONTH = "|".join(sorted((re.escape(m) for m in _MONTHS), key=len, reverse=True))
_DATE_PATTERNS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"(?<!\d)(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*日"), "ymd"),
    (re.compile(r"(?<!\d)(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?!\d)"), "ymd"),
    (re.compile(r"(?<!\d)(\d{1,2})\.\s?(\d{1,2})\.\s?(\d{4})(?!\d)"), "dmy"),
    (re.compile(r"(?<!\d)(\d{1,2})-(\d{1,2})-(\d{4})(?!\d)"), "dmy"),
    (re.compile(r"(?<!\d)(\d{1,2})/(\d{1,2})/(\d{4})(?!\d)"), "mdy"),
    (re.compile(rf"\b({_MONTH})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})\b", re.I), "Mdy"),
    (re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\.?\s+(?:de\s+)?({_MONTH})\.?,?\s+(?:de\s+)?"
                rf"(\d{{4}})\b", re.I), "dMy"),
]


def parse_date(text: str) -> str | None:
    """ISO date (``YYYY-MM-DD``, or the full ISO timestamp given) in ``text``, or None."""
    text = normalize_space(text)
    if not text:
        return None
    try:
        stamp = datetime.fromisoformat(text)
        return stamp.isoformat() if "T" in text or ":" in text else stamp.date().isoformat()
    except ValueError:
        pass
    for pattern, order in _DATE_PATTERNS:
        for found in pattern.finditer(text):
            a, b, c = found.groups()
            try:
                if order == "ymd":
                    year, month, day = int(a), int(b), int(c)
                elif order == "dmy":
                    year, month, day = int(c), int(b), int(a)
                elif order == "mdy":
                    year, month, day = int(c), int(a), int(b)
                    if month > 12:
                        month, day = day, month
                elif order == "Mdy":
                    year, month, day = int(c), _MONTHS[a.lower()], int(b)
                else:
                    year, month, day = int(c), _MONTHS[b.lower()], int(a)
                if 1900 <= year <= 2100:
                    return date(year, month, day).isoformat()
            except (ValueError, KeyError):
                continue
    return None


def published_of(tree: HtmlElement, content: HtmlElement | None = None) -> str | None:
    """Publish date: meta tags, itemprop datePublished, <time datetime>, then date
    patterns in the text around the title and content (first found)."""
    for _, value in _meta(tree, _TIME_METAS):
        found = parse_date(value)
        if found:
            return found
    for el in tree.xpath('//*[@itemprop="datePublished"]|//time[@datetime]|//time[@pubdate]'):
        for value in (el.get("content"), el.get("datetime"), el.text_content()):
            found = parse_date(value or "")
            if found:
                return found
    for el in tree.xpath('//*[contains(@class, "date") or contains(@class, "time") or '
                         'contains(@class, "byline") or contains(@class, "meta")]'):
        found = parse_date(visible_text(el)[:200])
        if found:
            return found
    for el in (content, tree):
        if el is not None:
            found = parse_date(visible_text(el)[:3000])
            if found:
                return found
    return None


# ----- author --------------------------------------------------------------------------------
_AUTHOR_METAS = ("author", "article:author", "dc.creator", "sailthru.author", "parsely-author",
                 "byl")
_BY = re.compile(r"^\s*(?:by|von|par|por|di|作者|文|记者|编辑|author)\s*[:：/|]?\s*", re.I)
_AUTHOR_XPATH = ('//*[@rel="author"]|//*[@itemprop="author"]|'
                 '//*[contains(@class, "author") or contains(@class, "byline") or '
                 'contains(@id, "author") or contains(@id, "byline")]')


def _clean_author(text: str) -> str | None:
    text = _BY.sub("", normalize_space(text))
    text = re.split(r"\s+(?:\||·|•|-|—|on|am|le|el)\s+|\s+\d|,|，|\s{2,}", text)[0].strip(" ;:|")
    if not text or text.startswith(("http://", "https://")) or len(text) > 60:
        return None
    return text


def author_of(tree: HtmlElement) -> str | None:
    """Author: meta tags, then rel=author / itemprop=author / author and byline classes."""
    for _, value in _meta(tree, _AUTHOR_METAS):
        found = _clean_author(value)
        if found:
            return found
    for el in tree.xpath(_AUTHOR_XPATH):
        if el.tag == "meta":
            continue
        names = el.xpath('.//*[@itemprop="name"]')
        value = (names[0].get("content") or names[0].text_content()) if names else \
            (el.get("content") or visible_text(el))
        found = _clean_author(value or "")
        if found:
            return found
    return None

