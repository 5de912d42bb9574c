"""Next-page discovery on list pages: a next-link XPath, and page-number URL patterns.

Input: list pages (:class:`PageView`) and the lexicon's ``pagination`` vocabulary.
Output: :class:`PaginationGuess` — the XPath selecting the "next" link on every page
that has one (and never a "previous" one), where it leads on each page, and the URL
pattern with ``{page}`` its links show (``?page=N``, ``/page/N/``, ``?start=24``);
or, for pagers without usable links (``href="#"`` buttons, load more, infinite scroll),
the candidate patterns to try (:func:`guess_patterns`). Nothing here fetches: the
walk that verifies a guess is :mod:`structurer.learn.pagewalk`.

A link reads as "next" by ``rel``, its text, symbol, ``aria-label``, ``title`` or
class words (in many languages, from the lexicon), or by its place: the number after
the current page's marker (``aria-current``, a current/active class, a non-link
number among links). Where "previous" and "next" share a class, the XPath that
selects exactly one next link on every page wins over the one selecting them all.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from urllib.parse import parse_qsl, urljoin, urlsplit

from lxml.html import HtmlElement

from structurer.learn import xpaths
from structurer.lexicon import PagingVocab
from structurer.page.dom import attribute_words, link_href, text_of
from structurer.page.view import PageView
from structurer.rules.model import PagingCheck

_NUMBER = re.compile(r"^\d{1,4}$")
_DIGITS = re.compile(r"\d+")


@dataclass
class PaginationGuess:
    next_xpath: str | None
    next_urls: list[str | None]                 # per page, where the XPath leads
    url_pattern: str | None = None
    confidence: float = 0.0
    evidence: list[str] = field(default_factory=list)
    method: str = "link"
    first_page: int = 2
    step: int = 1
    page_size: int | None = None
    more_xpath: str | None = None
    verified: list[PagingCheck] = field(default_factory=list)


# ----- next or previous ------------------------------------------------------------------------
def _says(text: str, word: str) -> bool:
    """Whether ``text`` says ``word``: as a whole word in a short text ("Next page »",
    not "Weitere Angebote" for "weiter"); CJK words and symbols anywhere in it."""
    if len(text) > len(word) + 12 or len(word) < 2:
        return False
    if word[0].isascii() or not word[0].isalpha() or "\u00c0" <= word[0] <= "\u05ff":
        return re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text) is not None
    return word in text


def _score(a: HtmlElement, words: dict[str, float]) -> float:
    """How strongly ``a``'s text, label or class words say one of ``words``."""
    text = text_of(a).lower()
    label = " ".join(filter(None, (a.get("aria-label"), a.get("title")))).lower().strip()
    parent = a.getparent()
    names = [a] + ([parent] if parent is not None and parent.tag in ("li", "span", "div")
                   and len(parent) == 1 else [])
    toks = {t for el in names for _, t in attribute_words(el, ("class", "id"))}
    toks |= {c.lower() for el in names for c in (el.get("class") or "").split()}
    best = 0.0
    for word, weight in words.items():
        if text == word or _says(text, word):
            best = max(best, weight)
        elif label == word or (len(word) > 2 and _says(label, word)):
            best = max(best, weight * 0.9)
        elif word in toks:
            best = max(best, weight * 0.8)
    return best


def direction(a: HtmlElement, vocab: PagingVocab) -> float:
    """How much ``a`` reads as a "next" control (> 0) or a "previous" one (< 0)."""
    rel = (a.get("rel") or "").lower().split()
    if "next" in rel:
        return 20.0
    if "prev" in rel or "previous" in rel:
        return -20.0
    return _score(a, vocab.next) - _score(a, vocab.previous)


def _word_links(page: PageView, vocab: PagingVocab) -> list[tuple[float, HtmlElement]]:
    """Links reading as "next" by their words (a score of ``paging_word`` or more), best
    first."""
    least = page.lexicon.thresholds.paging_word
    out = [(d, a) for a in page.body.iter("a") if link_href(a)
           and (d := direction(a, vocab)) >= least]
    return sorted(out, key=lambda x: -x[0])


def current_number(page: PageView, vocab: PagingVocab) -> tuple[int, HtmlElement] | None:
    """The current page's number in a numbered pager: aria-current, a current/active
    class, or a number that is no link among numbered links."""
    for el in page.body.xpath('//*[@aria-current="page" or @aria-current="true"]'):
        if _NUMBER.match(text_of(el)):
            return int(text_of(el)), el
    marks = {w.lower() for w in vocab.current}
    for el in page.body.iter("span", "strong", "b", "em", "li", "a", "i"):
        text = text_of(el)
        if not _NUMBER.match(text) or len(el) > 1 or (
                el.tag != "a" and el.find(".//a") is not None):
            continue
        if len(el) == 1 and text_of(el[0]) == text:   # the inner element marks it
            continue
        parent = el.getparent()
        cls = {t.lower() for t in (el.get("class") or "").split()}
        if parent is not None and parent.tag == "li":
            cls |= {t.lower() for t in (parent.get("class") or "").split()}
        if el.tag == "a" and link_href(el) and not cls & marks:
            continue
        scope = parent.getparent() if parent is not None and parent.tag == "li" else parent
        if scope is None:
            continue
        numbered = sum(1 for a in scope.iter("a") if _NUMBER.match(text_of(a)) and a is not el)
        if numbered >= 1 and (el.tag != "a" or cls & marks):
            return int(text), el
    return None


def _number_after(page: PageView, vocab: PagingVocab) -> list[HtmlElement]:
    """The link numbered one more than the current page, near its marker."""
    current = current_number(page, vocab)
    if current is None:
        return []
    number, scope = current
    for _ in range(4):
        scope = scope.getparent()
        if scope is None:
            return []
        links = [a for a in scope.iter("a") if text_of(a) == str(number + 1) and link_href(a)]
        if links:
            return links
    return []


def _plausible(current: str, target: str) -> bool:
    """A next page is on the same host, elsewhere, and numbered (a page, an offset)."""
    a, b = urlsplit(current), urlsplit(target)
    return a.netloc == b.netloc and target != current and bool(_DIGITS.search(target))


def _true_next(page: PageView, vocab: PagingVocab) -> list[HtmlElement]:
    """Links that are this page's "next" by themselves: rel=next, next words (never a
    previous link), or the number after the current one."""
    found: list[HtmlElement] = list(page.tree.xpath('//link[@rel="next"][@href]'))
    strong = page.lexicon.thresholds.next_word
    found += [a for score, a in _word_links(page, vocab) if score >= strong]
    found += [a for a in _number_after(page, vocab) if direction(a, vocab) >= 0]
    return [el for el in found
            if (target := urljoin(page.url, (el.get("href") or "").strip()))
            and _plausible(page.url, target)]


def _candidates(page: PageView, vocab: PagingVocab) -> list[str]:
    out: list[str] = []
    if page.tree.xpath('//link[@rel="next"][@href]'):
        out.append('//link[@rel="next"]/@href')
    if page.body.xpath('//a[@rel="next"][@href]'):
        out.append('//a[@rel="next"]')
    for _, a in _word_links(page, vocab):
        text = text_of(a)
        preds = xpaths.predicates(a)
        if a.get("title") and len(a.get("title", "")) <= 60:
            preds.append(f"@title={xpaths.quote(a.get('title', ''))}")
        for pred in preds:
            out.append(f"//a[{pred}]")
        if text:
            out.append(f"//a[normalize-space()={xpaths.quote(text)}]")
            out.extend(f"//a[{pred}][normalize-space()={xpaths.quote(text)}]" for pred in preds)
    current = current_number(page, vocab)
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
            if el.get("aria-current"):
                out.append(f"//*[@aria-current]/ancestor::{parent.tag}[1]"
                           f"/following-sibling::{parent.tag}[1]//a")
    return list(dict.fromkeys(out))


def _target(xpath: str, page: PageView) -> str | None:
    for node in xpaths.evaluate(xpath, page.tree):
        href = node if isinstance(node, str) else (
            node.get("href") if isinstance(node, HtmlElement) else None)
        if href and not str(href).startswith(("#", "javascript:")):
            return urljoin(page.url, str(href).strip())
    return None


def _judge(xpath: str, pages: Sequence[PageView], truths: list[list[HtmlElement]],
           vocab: PagingVocab) -> tuple[int, int, int]:
    """(pages it is right on, previous links it selects, extra nodes it selects): right
    means its first node is a true next link where there is one, and nothing where not."""
    right = backwards = extra = 0
    for page, truth in zip(pages, truths, strict=True):
        found = xpaths.evaluate(xpath, page.tree)
        nodes = [n for n in found if isinstance(n, HtmlElement)]
        attr = [n for n in found if isinstance(n, str)]
        backwards += sum(1 for n in nodes if n.tag == "a" and direction(n, vocab) < 0)
        extra += max(0, len(nodes) - 1)
        if attr and truth:
            target = urljoin(page.url, str(attr[0]))
            right += any(urljoin(page.url, t.get("href", "")) == target for t in truth)
        elif nodes:
            right += bool(truth) and any(nodes[0] is t for t in truth)
        else:
            right += not truth
    return right, backwards, extra


def learn_pagination(pages: Sequence[PageView], vocab: PagingVocab) -> PaginationGuess | None:
    """The next-link XPath that is right on the most pages (then: selects no previous
    link, then: selects fewest other nodes), with where it leads on each page."""
    truths = [_true_next(p, vocab) for p in pages]
    if not any(truths):
        return None
    order: list[str] = []
    for page, truth in zip(pages, truths, strict=True):
        if truth:
            order.extend(x for x in _candidates(page, vocab) if x not in order)
    best: tuple[tuple[int, int, int], str] | None = None
    for xpath in order:
        right, backwards, extra = _judge(xpath, pages, truths, vocab)
        key = (right, -backwards, -extra)
        if best is None or key > best[0]:
            best = (key, xpath)
    if best is None:
        return None
    (right, _, _), xpath = best
    targets = [_target(xpath, p) for p in pages]
    guess = PaginationGuess(xpath, targets, confidence=round(right / len(pages), 2),
                            evidence=[f"right on {right} of {len(pages)} pages"])
    found = link_pattern(pages, vocab)
    if found is not None:
        guess.url_pattern, guess.first_page, guess.step = found
    return guess


# ----- URL patterns ----------------------------------------------------------------------------
def infer_pattern(current: str, target: str) -> tuple[str, int] | None:
    """``target`` as ``current`` plus one number: (pattern with ``{page}``, the number).
    Forms: ``?param={page}`` (the rest of the query alike), ``/page/{page}/`` appended to
    the path, ``list-{page}.html`` beside it."""
    a, b = urlsplit(current), urlsplit(target)
    if a.netloc != b.netloc:
        return None
    if a.path == b.path:
        qa, qb = dict(parse_qsl(a.query, True)), dict(parse_qsl(b.query, True))
        diff = [k for k in qb if qa.get(k) != qb[k]]
        if len(diff) != 1 or not qb[diff[0]].isdigit() or \
                any(k not in qb for k in qa if k != diff[0]):
            return None
        return f"?{diff[0]}={{page}}", int(qb[diff[0]])
    if a.query != b.query:
        return None
    base = a.path.rstrip("/")
    if b.path.startswith(base + "/"):
        tail = b.path[len(base):]
        numbers = _DIGITS.findall(tail)
        if len(numbers) == 1:
            return _DIGITS.sub("{page}", tail), int(numbers[0])
        return None
    a_dir, _, a_name = a.path.rpartition("/")
    b_dir, _, b_name = b.path.rpartition("/")
    spots = list(_DIGITS.finditer(b_name))
    if a_dir != b_dir or not spots or _DIGITS.search(a_name):
        return None
    last = spots[-1]
    template = b_name[:last.start()] + "{page}" + b_name[last.end():]
    # other digits (a category id) would tie the pattern to one category
    return None if len(spots) > 1 else (template, int(last.group()))


def numbering(pairs: Sequence[tuple[int, int]]) -> tuple[int, int] | None:
    """(number of page 2, step) from (page, number in its URL) pairs: page numbers
    (2, 1), zero-based ones (1, 1) or item offsets (24, 24)."""
    pairs = sorted(set(pairs))
    if not pairs or any(n < 2 for n, _ in pairs):
        return None
    if len(pairs) == 1:
        n, v = pairs[0]
        if v in (n, n - 1):
            return v - n + 2, 1
        return (v // (n - 1), v // (n - 1)) if v % (n - 1) == 0 else None
    (n1, v1), (n2, v2) = pairs[0], pairs[-1]
    if n2 == n1 or (v2 - v1) % (n2 - n1):
        return None
    step = (v2 - v1) // (n2 - n1)
    first = v1 + (2 - n1) * step
    if step < 1 or first < 0 or any(v != first + (n - 2) * step for n, v in pairs):
        return None
    return first, step


def link_pattern(pages: Sequence[PageView], vocab: PagingVocab
                 ) -> tuple[str, int, int] | None:
    """The URL pattern the pager links of first pages show: (pattern, first, step),
    from the numbered links (their text is their page) and the next links (page 2)."""
    seen: dict[str, list[tuple[int, int]]] = {}
    for page in pages:
        links = [(int(text_of(a)), a) for a in page.body.iter("a")
                 if _NUMBER.match(text_of(a)) and link_href(a)]
        current = current_number(page, vocab)
        links += [((current[0] if current else 1) + 1, a) for a in _true_next(page, vocab)]
        for n, a in links:
            found = infer_pattern(page.url, urljoin(page.url, (a.get("href") or "").strip()))
            if found is not None and n >= 2:
                seen.setdefault(found[0], []).append((n, found[1]))
    best = max(seen.items(), key=lambda kv: len(kv[1]), default=None)
    if best is None:
        return None
    way = numbering(best[1])
    return (best[0], *way) if way else None


def guess_patterns(page: PageView, vocab: PagingVocab, items: int, per_kind: int
                   ) -> list[tuple[str, int, int]]:
    """Patterns to try for a pager without usable links: (pattern, first, step) for the
    lexicon's first ``per_kind`` page parameters, the ``/page/N/`` path, and its first
    offset parameters stepping by the page's ``items``; hints on the page first
    (a ``data-*`` page number attribute suggests page numbers)."""
    out = [(f"?{p}={{page}}", 2, 1) for p in vocab.page_params[:per_kind]]
    out.insert(min(2, len(out)), ("/page/{page}/", 2, 1))
    if items > 1:
        out += [(f"?{p}={{page}}", items, items) for p in vocab.offset_params[:per_kind]]
    query = dict(parse_qsl(urlsplit(page.url).query, True))
    return [g for g in out if not g[0].startswith("?") or g[0][1:].split("=")[0] not in query]


def more_controls(page: PageView, vocab: PagingVocab) -> list[str]:
    """XPaths of "load more" controls on a page (buttons or links whose text, label or
    class says so), most specific first."""
    out: list[str] = []
    least = page.lexicon.thresholds.paging_word
    for el in page.body.iter("button", "a"):
        if _score(el, vocab.load_more) < least:
            continue
        text = text_of(el)
        if text:
            out.append(f"//{el.tag}[normalize-space()={xpaths.quote(text)}]")
        out.extend(f"//{el.tag}[{pred}]" for pred in xpaths.predicates(el)
                   if not pred.startswith(("@type", "@role", "@name")))
    return list(dict.fromkeys(out))
