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
at or above the threshold, browser otherwise.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Sequence
from statistics import fmean

from lxml import etree
from simhash import Simhash

from structurer.clean import clean_tree, parse_html
from structurer.rules.model import RenderDecision, RenderSample
from structurer.schema import RenderMode

#: Bits of a structure fingerprint.
BITS = 256
#: Fewest sample pages a level is decided from.
MIN_PAGES = 2
#: Elements whose position says nothing about layout (scripts add them anywhere).
SKIPPED_TAGS = frozenset({"meta", "link", "base"})
#: Elements a browser inserts on its own where the HTML omitted them.
TRANSPARENT_TAGS = frozenset({"tbody", "thead", "tfoot"})

Html = str | bytes | etree._Element | etree._ElementTree
#: One sample page of a level: (url, HTML as fetched, DOM as rendered).
Sample = tuple[str, Html, Html]


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


def decide_level(samples: Sequence[Sample], threshold: float) -> RenderDecision:
    """Static or browser for one level from (url, raw HTML, rendered HTML) samples.

    Needs at least two pages (``ValueError`` otherwise). Static when the mean
    similarity is at or above ``threshold``; each page's similarity is kept in
    ``samples`` (rounded to three decimals) as the evidence the rule file shows.
    """
    if len(samples) < MIN_PAGES:
        raise ValueError(f"a level's render mode is decided from at least {MIN_PAGES} pages, "
                         f"got {len(samples)}")
    evidence = [RenderSample(url=url, similarity=round(render_similarity(raw, rendered), 3))
                for url, raw, rendered in samples]
    mean = fmean(sample.similarity for sample in evidence)
    mode = RenderMode.STATIC if mean >= threshold else RenderMode.BROWSER
    return RenderDecision(mode=mode, decided_by="auto", threshold=threshold, samples=evidence)


def override(mode: RenderMode) -> RenderDecision:
    """The decision a ``--render static|browser`` option imposes (no evidence)."""
    return RenderDecision(mode=mode, decided_by="override")
