"""The title of an article-like page, and the heading element that shows it.

Input: an lxml HTML tree (as :func:`structurer.clean.parse_html` returns it). Output:
:class:`TitleFound` (the title and where it came from: meta tags, the page's headings,
its ``<title>``; the site name removed) and the title's heading element
(:func:`title_element`); :func:`similarity` compares two titles. Pure functions.
"""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

from lxml.html import HtmlElement

from structurer.clean import normalize_space, visible_text
from structurer.page.dom import text_length, text_of
from structurer.words import Words, default_words

_TITLE_METAS = ("og:title", "twitter:title", "title", "sailthru.title", "dc.title",
                "parsely-title", "headline")
_SITE_METAS = ("og:site_name", "application-name", "apple-mobile-web-app-title")
_SEP = r"(?:[-|–—_»·:]|::)"
_SPLIT_LATIN = re.compile(rf"\s+{_SEP}\s+")
_HOST = re.compile(r"^(?:https?://)?([a-z0-9-]+(?:\.[a-z0-9-]+)+)/?$", re.I)


def _split_title(title: str) -> list[str]:
    """``title`` cut at its separators, and at a "_" beside a CJK character. A title with
    no character that far up the table is cut by the separators alone (the same cuts):
    the whole pattern's ranges cost more to compile than reading most pages."""
    if not title or max(title) < "\u3040":
        return _SPLIT_LATIN.split(title)
    return _split_cjk().split(title)


@functools.cache
def _split_cjk() -> re.Pattern[str]:
    return re.compile(rf"\s+{_SEP}\s+|(?<=[\u3040-\u9fff])_|_(?=[\u3040-\u9fff])")


@dataclass(frozen=True)
class TitleFound:
    text: str
    source: str          # "meta:og:title", "h1", "title", ...


def meta_contents(tree: HtmlElement, names: tuple[str, ...]) -> list[tuple[str, str]]:
    """(name, content) of <meta> tags whose property/name/itemprop is one of ``names``."""
    out = []
    wanted = {n.lower() for n in names}
    for meta in tree.iter("meta"):
        key = (meta.get("property") or meta.get("name") or meta.get("itemprop") or "").lower()
        content = normalize_space(meta.get("content") or "") if key in wanted else ""
        if content:
            out.append((key, content))
    out.sort(key=lambda kv: [n.lower() for n in names].index(kv[0]))
    return out


@functools.lru_cache(maxsize=4096)
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
    parts = _split_title(title)
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
    parts = [p.strip().lower() for p in _split_title(page_title)]
    low = heading.strip().lower()
    return len(parts) > 1 and low in (parts[0], parts[-1]) and \
        max(len(p) for p in parts if p != low) > len(low)


def _without_site(title: str, tree: HtmlElement) -> str:
    """``title`` without the site's name at its start or end (og:site_name and kin)."""
    for _, name in meta_contents(tree, _SITE_METAS):
        pattern = re.escape(name)
        cut = re.sub(rf"\s*(?:{_SEP}|_)\s*{pattern}\s*$", "", title, flags=re.I)
        cut = re.sub(rf"^\s*{pattern}\s*(?:{_SEP}|_)\s*", "", cut, flags=re.I)
        if cut.strip() and cut != title:
            return cut.strip()
    return title


def _squeezed(text: str) -> str:
    return re.sub(r"\W+", "", text.lower())


def site_name(host: str, suffixes: frozenset[str]) -> str | None:
    """A host's registrable name: the label before its public suffix (the last label, and
    the one before it where that is one of ``suffixes`` before a country code: ``co.uk``),
    never a subdomain's word (``shop`` of shop.example.com); None for an address or a
    host of one label."""
    labels = [x for x in host.lower().rstrip(".").split(".") if x]
    if len(labels) < 2 or labels[-1].isdigit():
        return None
    end = len(labels) - 1
    if len(labels) > 2 and len(labels[-1]) == 2 and labels[-2] in suffixes:
        end -= 1
    return labels[end - 1]


def _site_only(title: str, tree: HtmlElement, suffixes: frozenset[str]) -> bool:
    """``title`` names only the site: each of its parts is the site's name (og:site_name
    and kin), a host name (the page's, or one in the title) or a host's registrable name
    (:func:`site_name` by ``suffixes``: "retrosixty - retrosixty.co.uk"), or one part
    repeated."""
    parts = [p for p in _split_title(title) if p.strip()]
    hosts = [urlsplit(tree.getroottree().docinfo.URL or "").hostname or ""]
    hosts += [m.group(1) for p in parts if (m := _HOST.match(p.strip()))]
    names = {_squeezed(name) for _, name in meta_contents(tree, _SITE_METAS)}
    for host in filter(None, hosts):
        name = site_name(host, suffixes)
        names |= {_squeezed(host), *([_squeezed(name)] if name else [])}
    squeezed = [_squeezed(p) for p in parts]
    names.discard("")
    return bool(squeezed) and (all(p in names for p in squeezed) or
                               (len(squeezed) > 1 and len(set(squeezed)) == 1))


def title_of(tree: HtmlElement, words: Words | None = None) -> TitleFound | None:
    """The page's title: a meta title, else the h1-h3 most like <title>, else <title>;
    a site name beside a separator is removed (the heading that remains wins). A meta
    title that names only the site says nothing about the page: it is passed over.
    ``words``: the run's vocabulary (its ``host_suffixes``), the shipped one if None."""
    headings = [visible_text(h) for h in _headings(tree)]
    suffixes = (words or default_words()).host_suffixes
    found = [kv for kv in meta_contents(tree, _TITLE_METAS)
             if not _site_only(kv[1], tree, suffixes)]
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
        parts = _split_title(page_title)
        return TitleFound(max(parts, key=len) if len(parts) > 1 else page_title, "title")
    return None


def title_element(tree: HtmlElement, title: str | None = None,
                  avoid: Callable[[HtmlElement], bool] | None = None) -> HtmlElement | None:
    """The heading that states the page's title (the most similar h1-h3), else the
    first h1; with ``avoid``, a heading it names (one in a breadcrumb repeating the
    headline) only when no other states the title."""
    if title is None:
        found = title_of(tree)
        title = found.text if found else ""
    if avoid is not None:
        kept = _title_heading(tree, title, avoid)
        if kept is not None:
            return kept
    found_heading = _title_heading(tree, title, None)
    if found_heading is not None:
        return found_heading
    h1s = tree.xpath("//body//h1")
    return h1s[0] if h1s else None


def _title_heading(tree: HtmlElement, title: str,
                   avoid: Callable[[HtmlElement], bool] | None) -> HtmlElement | None:
    best: tuple[float, HtmlElement] | None = None
    for heading in _headings(tree):
        text, bonus = visible_text(heading), (0.05 if heading.tag == "h1" else 0)
        # skip a heading whose length alone keeps it below the bar or the best so far
        # (the ratio is at most 2 * shorter / both): costly sequence matching is the rest
        bound = 2 * min(len(text), len(title)) / (len(text) + len(title) or 1) + bonus
        if bound < 0.6 or (best is not None and bound <= best[0]):
            continue
        score = similarity(text, title) + bonus
        if (best is None or score > best[0]) and (avoid is None or not avoid(heading)):
            best = (score, heading)
    return best[1] if best is not None and best[0] >= 0.6 else None


def title_part(titles: list[str], headings: Iterable[HtmlElement]) -> HtmlElement | None:
    """The first heading that is a whole part of the page's title beside a separator and
    not the site's name ("Gefällt mir" of "Gefällt mir – jovelblog"): a short headline."""
    for h in headings:
        if names_title(text_of(h), titles, whole=False):
            return h
    return None


def names_title(text: str, titles: Iterable[str], whole: bool = True) -> bool:
    """Whether ``text`` is a whole part of one of the page's ``titles`` beside a separator
    (or, where ``whole``, the whole title) and not the site's name: "Acme Kettle" of
    "Acme Kettle | Shop" names the page, "Acme" (a brand's logo) does not."""
    low = " ".join(text.split()).lower()
    return bool(low) and any(
        (whole and low == " ".join(t.split()).lower())
        or (_heading_inside(t, [text]) is not None and not _site_part(text, t))
        for t in titles)


def titled(titles: list[str], headings: Iterable[HtmlElement], least: int) -> HtmlElement | None:
    """The first heading (of ``least`` characters or more) that the page's title
    (``titles``: its <title>, og:title ...) repeats."""
    lowered = [t.lower() for t in titles]
    for h in headings:
        text = text_of(h).lower()
        if text_length(text) >= least and any(text in t or similarity(text, t) >= 0.8
                                              for t in lowered):
            return h
    return None
