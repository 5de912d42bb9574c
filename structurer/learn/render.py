"""Static or browser, per level: simhash of a page's structure, raw vs rendered.

Input: pages as HTML (text or bytes) or lxml trees — for each sample page of a level
the HTML as fetched over HTTP and the DOM a browser rendered from it — and the
lexicon's ``thresholds.render_similarity``. Output: structure features and
fingerprints of pages, the similarity of two pages, and for a level a
:class:`~structurer.rules.model.RenderDecision` that records every page's similarity
as evidence. Pure functions: no network, no browser, no files.

The fingerprint ("pre-fetch, compare, mark"):

* **structure only** — the ``<body>`` of :func:`structurer.clean.clean_tree` (no
  scripts, styles, SVG, noscript, templates, iframes, comments), no text, no
  attributes; ``<meta>``/``<link>``/``<base>`` are skipped (scripts add them freely),
  and ``<tbody>``/``<thead>``/``<tfoot>`` are see-through because browsers insert them
  where the HTML left them out;
* **features are tag paths** — every element contributes its path from ``body``
  (``body/main/div/ul/li/a``), weighted by how often it occurs. A bag of tag *names*
  is not enough: a script-built product grid is made of the same tags as the shell
  around it (the maple demo's list pages score 0.81–0.91 that way), whereas the
  paths of the grid are new, and being repeated per product they weigh a lot;
* **256-bit simhash** (blake2b per feature) and similarity ``1 - hamming / 256``.
  Identical structures score 1.0; unrelated ones about 0.5. 256 rather than 64 bits
  because the similarity of a simhash is an estimate whose spread shrinks with the
  number of bits (about ±0.06 at 64 bits, ±0.03 at 256 near the 0.8 threshold).

A level is static when the *mean* similarity of its samples (at least two pages) is
at or above the threshold, browser otherwise — unless what the level's rules select
(list items, detail fields, category links: :func:`rule_counter`) is missing, or far
rarer, in the pages as fetched than in the rendered ones: then it is browser whatever
the structure says (``by_content``); and a level whose structure moved but whose pages
as fetched hold as much of it as rendered, on every sample, is static (``by_content``:
a script built the page's chrome, a menu, not what is crawled). A grid a script fills
from a JSON endpoint in an otherwise large static page changes the structure little
(similarity 0.87) and the items from 0 to 24. Both measurements stay in the decision's samples.
A browser category level needs the browser for its entry page only (:func:`entry_only`)
when the other category pages serve their category links and rendering adds none the
rendered entry lacks, however far their structure moves: a grid a script fills there is
the list level's concern, not the category level's.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Callable, Collection, Sequence
from statistics import fmean
from typing import Any

from lxml import etree
from simhash import Simhash

from structurer.clean import clean_tree, parse_html
from structurer.page.catlinks import url_matches
from structurer.replay.discovery import compile_discovery, page_links
from structurer.replay.extract import (
    CompiledRules,
    extract_categories,
    extract_detail,
    extract_list,
)
from structurer.rules.model import RenderDecision, RenderSample
from structurer.schema import RenderMode

#: Bits of a structure fingerprint.
BITS = 256
#: Fewest sample pages a level is decided from (the default of ``render_min_pages``).
MIN_PAGES = 2
#: Elements whose position says nothing about layout (scripts add them anywhere).
SKIPPED_TAGS = frozenset({"meta", "link", "base"})
#: Elements a browser inserts on its own where the HTML omitted them.
TRANSPARENT_TAGS = frozenset({"tbody", "thead", "tfoot"})

Html = str | bytes | etree._Element | etree._ElementTree
#: One sample page of a level: (url, HTML as fetched, DOM as rendered).
Sample = tuple[str, Html, Html]
#: What a level's rules select on a page (HTML, its URL): items, fields or links.
Count = Callable[[str, str], int]


def _hash(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=BITS // 8).digest()


def _body(page: Html) -> etree._Element:
    """The cleaned ``<body>`` of a page (the cleaned root when there is no body)."""
    tree = parse_html(page) if isinstance(page, str | bytes) else page
    root = clean_tree(tree)
    body = root if root.tag == "body" else root.find("body")
    return body if body is not None else root


def structure_features(page: Html) -> Counter[str]:
    """Tag path from ``body`` of every element in the body -> number of such elements."""
    features: Counter[str] = Counter()
    stack: list[tuple[etree._Element, str]] = [(_body(page), "body")]
    while stack:
        node, path = stack.pop()
        for child in node:
            tag = child.tag
            if not isinstance(tag, str) or tag in SKIPPED_TAGS:
                continue
            tag = tag.lower()
            if tag in TRANSPARENT_TAGS:
                stack.append((child, path))
                continue
            child_path = f"{path}/{tag}"
            features[child_path] += 1
            stack.append((child, child_path))
    return features


def fingerprint(features: Counter[str]) -> int:
    """The 256-bit simhash of weighted features (0 for none)."""
    if not features:
        return 0
    # float weights: the library's integer path overflows numpy uint8 above weight 50
    weighted = {feature: float(count) for feature, count in features.items()}
    return int(Simhash(weighted, f=BITS, hashfunc=_hash).value)


def similarity(a: Counter[str], b: Counter[str]) -> float:
    """Simhash similarity of two feature sets, 0..1 (1.0 both empty, 0.0 one empty)."""
    if not a or not b:
        return 1.0 if not a and not b else 0.0
    return 1.0 - (fingerprint(a) ^ fingerprint(b)).bit_count() / BITS


def render_similarity(raw: Html, rendered: Html) -> float:
    """How alike the structure of a fetched page and its rendered DOM are, 0..1."""
    return similarity(structure_features(raw), structure_features(rendered))


def added_links(raw: Html, rendered: Html) -> int:
    """How many distinct links the rendered page has that the page as fetched lacks (a
    product grid a script filled adds one per product; the shell around it none)."""
    def hrefs(page: Html) -> set[str]:
        return {href.strip() for a in _body(page).iter("a")
                if (href := a.get("href")) and not href.strip().startswith(("#", "javascript:"))}
    return len(hrefs(rendered) - hrefs(raw))


def category_links(compiled: CompiledRules) -> Callable[[str, str], set[str]]:
    """The category URLs the rules follow from a page (the menu XPath's and the category
    sources' matching the URL patterns: what a crawl follows from a category page)."""
    discovery = compile_discovery(compiled.rules)

    def links(html: str, url: str) -> set[str]:
        tree = parse_html(html, base_url=url)
        found = {u for _, u in extract_categories(compiled, tree, url, budget=None)}
        return found | {u for _, u in page_links(discovery, tree, url)}
    return links


def rule_counter(compiled: CompiledRules, level: str) -> Count:
    """How much of ``level`` the rules find on a page: list items and their filled
    fields, filled detail fields (URLs aside) or category links (:func:`category_links`).
    Values count, not only items: cards a server sends without the prices a script
    fills in are not as much as the rendered cards."""
    links = category_links(compiled) if level == "category" else None

    def count(html: str, url: str) -> int:
        if links is not None:
            return len(links(html, url))
        tree = parse_html(html, base_url=url)
        if level == "list":
            items = extract_list(compiled, tree, url, budget=None).items
            return sum(1 + _filled(item) for item in items)
        return _filled(extract_detail(compiled, tree, url, budget=None))
    return count


def _filled(record: dict[str, Any]) -> int:
    return sum(v not in (None, "", []) for k, v in record.items() if k != "url")


def entry_only(samples: Sequence[tuple[str, str, str]], entry: Sequence[str],
               links: Callable[[str, str], set[str]], ratio: float) -> bool:
    """Whether a category level needs a browser for its entry page only: the samples
    (url, as fetched, as rendered) hold the entry (one of the URLs ``entry``) and other
    category pages, each of which holds, as fetched, category URLs (``links``) and not
    far fewer (:func:`far_more`, ``ratio``) than the entry as fetched, and shows, rendered,
    none that neither it as fetched nor the rendered entry shows (a menu a script builds
    on every page is read once, from the entry). Judged by the links alone, not the
    structure: a product grid a script fills moves a category page's structure for the
    list level, not the category links; an app shell holds none of them as fetched."""
    first = [(url, raw, rendered) for url, raw, rendered in samples if url in entry]
    others = [s for s in samples if s[0] not in entry]
    if not first or not others:
        return False
    url, raw, rendered = first[0]
    served, shown = len(links(raw, url)), links(rendered, url)

    def alike(url: str, raw: str, rendered: str) -> bool:
        held = links(raw, url)
        return bool(held) and not far_more([len(held)], [served], ratio) \
            and not links(rendered, url) - held - shown
    return all(alike(*sample) for sample in others)


def category_samples(samples: Sequence[tuple[str, str, str]], entry: Sequence[str],
                     pages: Sequence[tuple[str, str, str]], most: int = MIN_PAGES, *,
                     patterns: Sequence[re.Pattern[str]] = (), lists: Collection[str] = ()
                     ) -> list[tuple[str, str, str]]:
    """The samples a category level is judged on: the entry's (one of the URLs ``entry``)
    and category pages. The level is first sampled before its links are known, on the
    entry and pages of the entry's link groups (an "about" page); when none of those is
    a category page, ``pages`` (category pages fetched both ways, in order) take their
    place, so that category pages a script builds whole are judged as such. Unchanged
    when a sample already is a category page, or there is none to add. Given the level's
    URL ``patterns``, a page is a category page only when its URL matches one or it is
    one of ``lists`` (pages analysis found listing items: top categories a menu links
    where the patterns cover only the sub-categories a sitemap named): a link XPath
    learned on the wrong links (a footer's information pages) leads to an "about" page,
    which is no category page for that."""
    known = {url for url, _, _ in pages
             if not patterns or url_matches(patterns, url) or url in lists}
    pages = [s for s in pages if s[0] in known]
    first = [s for s in samples if s[0] in entry]
    if any(s[0] in known for s in samples if s[0] not in entry):
        return list(samples)
    extra = [s for s in pages if s[0] not in entry][: max(most - len(first), 1)]
    return [*first, *extra] if extra else list(samples)


def far_more(raw: Sequence[int], rendered: Sequence[int], ratio: float) -> bool:
    """Do the rendered pages hold far more of what the rules select (the pages as
    fetched fewer than ``ratio`` of it, none at all included)?"""
    return sum(rendered) > 0 and sum(raw) < ratio * sum(rendered)


def decide_level(samples: Sequence[tuple[str, str, str]], threshold: float, *,
                 count: Count | None = None, content_ratio: float = 0.5,
                 min_pages: int = MIN_PAGES) -> RenderDecision:
    """Static or browser for one level from (url, raw HTML, rendered HTML) samples.

    Needs at least ``min_pages`` pages (``ValueError`` otherwise). Static when the mean
    similarity is at or above ``threshold`` and, given ``count`` (what the level's rules
    select on a page), the raw pages hold at least ``content_ratio`` of what the
    rendered ones do; static too, given ``count``, when the structures differ but every
    page as fetched holds as much as rendered, and something (a menu a script builds on
    product pages the server renders whole); each page's similarity (rounded to three
    decimals) and counts are kept in ``samples`` as the evidence the rule file shows.
    """
    if len(samples) < max(min_pages, 1):
        raise ValueError(f"a level's render mode is decided from at least {min_pages} pages, "
                         f"got {len(samples)}")
    evidence = []
    for url, raw, rendered in samples:
        found = (count(raw, url), count(rendered, url)) if count is not None else (None, None)
        evidence.append(RenderSample(url=url, similarity=round(render_similarity(raw, rendered), 3),
                                     found_raw=found[0], found_rendered=found[1]))
    mean = fmean(sample.similarity for sample in evidence)
    mode = RenderMode.STATIC if mean >= threshold else RenderMode.BROWSER
    raw_found = [s.found_raw or 0 for s in evidence]
    rendered_found = [s.found_rendered or 0 for s in evidence]
    if count is None:
        by_content = False
    elif mode == RenderMode.STATIC:
        by_content = far_more(raw_found, rendered_found, content_ratio)
    else:   # the structure moved, but not what the rules select: a script built chrome
        by_content = all(r == f > 0 for r, f in zip(raw_found, rendered_found, strict=True))
    if by_content:
        mode = RenderMode.STATIC if mode == RenderMode.BROWSER else RenderMode.BROWSER
    return RenderDecision(mode=mode, decided_by="auto", threshold=threshold,
                          by_content=by_content, samples=evidence)


def override(mode: RenderMode) -> RenderDecision:
    """The decision a ``--render static|browser`` option imposes (no evidence)."""
    return RenderDecision(mode=mode, decided_by="override")
