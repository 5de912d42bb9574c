"""Next-page discovery on list pages: a link XPath, and a page-number URL pattern.

Input: list pages (:class:`PageView`) and the lexicon's ``next_page`` words.
Output: :class:`PaginationGuess` — the XPath selecting the "next" link on every
page that has one, where it leads on each page, and a URL pattern with
``{page}`` when the page number is visible in the URLs. Candidates: rel=next,
links whose text or attributes carry a next-page word (``next``, ``›``,
``下一页``), and numbered pagers (the link after the current page number).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from urllib.parse import urljoin, urlsplit

from lxml.html import HtmlElement

from structurer.learn import xpaths
from structurer.page.dom import attribute_words, link_href, text_of
from structurer.page.view import PageView

_NUMBER = re.compile(r"^\d{1,4}$")
_CURRENT_WORDS = frozenset({"current", "active", "selected", "on", "cur", "now"})


@dataclass
class PaginationGuess:
    next_xpath: str | None
    next_urls: list[str | None]                 # per page, where the XPath leads
    url_pattern: str | None = None
    confidence: float = 0.0
    evidence: list[str] = field(default_factory=list)


def _word_links(page: PageView, words: dict[str, float]) -> list[tuple[float, HtmlElement]]:
    out = []
    for a in page.body.iter("a"):
        href = link_href(a)
        if not href:
            continue
        text = text_of(a).lower()
        label = " ".join(filter(None, (a.get("aria-label"), a.get("title")))).lower()
        toks = {t for _, t in attribute_words(a, ("class", "id", "rel", "aria-label", "title"))}
        best = 0.0
        for word, weight in words.items():
            if text == word or (len(word) > 1 and word in text and len(text) <= len(word) + 12):
                best = max(best, weight)
            elif word in toks or (len(word) > 2 and word in label):
                best = max(best, weight * 0.8)
        if best >= 6:
            out.append((best, a))
    return out


def _current_number(page: PageView) -> tuple[int, HtmlElement] | None:
    """The current page's number in a numbered pager: a non-link number, or aria-current."""
    for el in page.body.xpath('//*[@aria-current="page" or @aria-current="true"]'):
        text = text_of(el)
        if _NUMBER.match(text):
            return int(text), el
    for el in page.body.iter("span", "strong", "b", "em", "li", "a", "i"):
        text = text_of(el)
        if not _NUMBER.match(text) or len(el) > 1:
            continue
        cls = {t.lower() for t in (el.get("class") or "").split()}
        if el.tag == "a" and not (cls & _CURRENT_WORDS):
            continue
        siblings = [s for s in (el.getparent() if el.getparent() is not None else el)]
        numbered = sum(1 for s in siblings if _NUMBER.match(text_of(s)))
        if numbered >= 2 and (el.tag != "a" or cls & _CURRENT_WORDS):
            return int(text), el
    return None


def _candidates(page: PageView, words: dict[str, float]) -> list[str]:
    out: list[str] = []
    if page.tree.xpath('//link[@rel="next"][@href]'):
        out.append('//link[@rel="next"]/@href')
    if page.body.xpath('//a[@rel="next"][@href]'):
        out.append('//a[@rel="next"]')
    for _, a in sorted(_word_links(page, words), key=lambda x: -x[0]):
        text = text_of(a)
        for pred in xpaths.predicates(a):
            out.append(f"//a[{pred}]")
        if text:
            out.append(f"//a[normalize-space()={xpaths.quote(text)}]")
    current = _current_number(page)
    if current is not None:
        _, el = current
        for anchor in xpaths.absolute_candidates(el)[:4]:
            out.append(f"{anchor}/following-sibling::a[1]")
            out.append(f"{anchor}/following-sibling::*[1]/descendant-or-self::a[1]")
        parent = el.getparent()
        if parent is not None and len(parent) == 1 and parent.tag not in ("body", "nav"):
            # the current number wrapped alone (li > span.current): step to the next wrapper
            for pred in xpaths.predicates(el)[:3]:
                out.append(f"//{parent.tag}[{el.tag}[{pred}]]/following-sibling::{parent.tag}[1]"
                           "//a")
    return list(dict.fromkeys(out))


def _target(xpath: str, page: PageView) -> str | None:
    for node in xpaths.evaluate(xpath, page.tree):
        href = node if isinstance(node, str) else (
            node.get("href") if isinstance(node, HtmlElement) else None)
        if href and not str(href).startswith(("#", "javascript:")):
            return urljoin(page.url, str(href).strip())
    return None


def _plausible(current: str, target: str) -> bool:
    a, b = urlsplit(current), urlsplit(target)
    return a.netloc == b.netloc and target != current and bool(re.search(r"\d", target))


def _true_next(page: PageView, words: dict[str, float]) -> list[HtmlElement]:
    """Links that are this page's "next" by themselves: rel=next, a next word, or the
    number after the current one in a numbered pager."""
    found: list[HtmlElement] = list(page.tree.xpath('//link[@rel="next"][@href]'))
    found += [a for a in page.body.xpath('//a[@rel="next"][@href]')]
    found += [a for score, a in _word_links(page, words) if score >= 8]
    current = _current_number(page)
    if current is not None:
        number, el = current
        scope = el.getparent()
        for _ in range(3):
            if scope is None:
                break
            links = [a for a in scope.iter("a") if text_of(a) == str(number + 1) and link_href(a)]
            if links:
                found += links
                break
            scope = scope.getparent()
    return [el for el in found
            if (target := urljoin(page.url, (el.get("href") or "").strip()))
            and _plausible(page.url, target)]


def learn_pagination(pages: Sequence[PageView], words: dict[str, float]) -> PaginationGuess | None:
    """The next-link XPath that is right on the most pages, with where it leads on each.

    Right means: on a page with a recognisable next link it selects that link first;
    on a page without one (the last page) it selects nothing.
    """
    truths = [_true_next(p, words) for p in pages]
    if not any(truths):
        return None
    order: list[str] = []
    for page, truth in zip(pages, truths, strict=True):
        if truth:
            order.extend(x for x in _candidates(page, words) if x not in order)
    best: tuple[int, str] | None = None
    for xpath in order:
        right = 0
        for page, truth in zip(pages, truths, strict=True):
            nodes = [n for n in xpaths.evaluate(xpath, page.tree) if not isinstance(n, str)]
            attr = [n for n in xpaths.evaluate(xpath, page.tree) if isinstance(n, str)]
            if attr and truth:
                target = urljoin(page.url, str(attr[0]))
                right += any(urljoin(page.url, t.get("href", "")) == target for t in truth)
            elif nodes:
                right += bool(truth) and any(nodes[0] is t for t in truth)
            else:
                right += not truth
        if best is None or right > best[0]:
            best = (right, xpath)
    assert best is not None
    right, xpath = best
    targets = [_target(xpath, p) for p in pages]
    guess = PaginationGuess(xpath, targets, confidence=round(right / len(pages), 2),
                            evidence=[f"right on {right} of {len(pages)} pages"])
    first = next(((p.url, t) for p, t in zip(pages, targets, strict=True) if t), None)
    if first is not None:
        guess.url_pattern = url_pattern(*first)
    return guess


def url_pattern(current: str, nxt: str) -> str | None:
    """``{page}`` template of ``nxt`` relative to ``current`` (a first page), if the page
    number is visible: ``?page={page}``, ``page/{page}/``, ``list-12-{page}.html``."""
    a, b = urlsplit(current), urlsplit(nxt)
    if a.netloc != b.netloc:
        return None
    if b.path == a.path and b.query != a.query:
        query = re.sub(r"(?<=[=&])(2)(?=&|$)", "{page}", b.query, count=1) \
            if re.search(r"=2(?:&|$)", b.query) else None
        return f"?{query}" if query else None
    if b.path.startswith(a.path) and a.path.endswith("/"):
        rest = b.path[len(a.path):]
        if re.search(r"(?<!\d)2(?!\d)", rest):
            return re.sub(r"(?<!\d)2(?!\d)", "{page}", rest, count=1)
        return None
    a_dir, b_dir = a.path.rsplit("/", 1), b.path.rsplit("/", 1)
    if len(a_dir) == 2 and len(b_dir) == 2 and a_dir[0] == b_dir[0]:
        name = b_dir[1]
        spots = [m.start() for m in re.finditer(r"(?<!\d)2(?!\d)", name)]
        if spots:
            i = spots[-1]
            template = name[:i] + "{page}" + name[i + 1:]
            # other digits (a category id) would tie the pattern to one category
            return None if re.search(r"\d", template) else template
    return None
