"""Robust XPaths for nodes: stable attributes first, positions last, verified on pages.

Input: lxml elements (and the pages they must work on). Output: XPath strings —
absolute ones for list containers and page fields, relative ones for fields
inside a list item. Candidates prefer itemprop, data-*, ids that look hand-made
and class tokens shared across pages; every candidate is checked against every
sample page and the best scoring one wins.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence

from lxml import etree
from lxml.html import HtmlElement

from structurer.page.dom import STATE_TOKENS, class_tokens, text_of

_GENERATED_ID = re.compile(r"(\d{3,}|[0-9a-f]{8,}|^(ember|react|ng-|yui|uid|:r)|__)", re.I)
_HASHED_CLASS = re.compile(r"^(css-[0-9a-z]{5,}|_[0-9a-z]{4,}_\d+|[a-z]+_[a-z]+__[0-9a-z]{4,}|"
                           r"sc-[a-z]{5,}|jsx-\d+)$", re.I)
_LAYOUT_TOKENS = frozenset({"hidden", "show", "row", "col"})   # grid and visibility toggles
_STABLE_ATTRS = ("itemprop", "aria-current", "data-testid", "data-test", "data-qa", "data-role",
                 "data-component", "role", "aria-label", "name", "type", "rel")


def quote(value: str) -> str:
    """An XPath string literal for any value (concat() when both quote kinds appear)."""
    if "'" not in value:
        return f"'{value}'"
    if '"' not in value:
        return f'"{value}"'
    parts = value.split("'")
    return "concat(" + ", \"'\", ".join(f"'{p}'" for p in parts) + ")"


def has_class(token: str) -> str:
    return f"contains(concat(' ', normalize-space(@class), ' '), ' {token} ')"


def good_id(value: str | None) -> bool:
    return bool(value) and len(value or "") <= 40 and not _GENERATED_ID.search(value or "")


def good_class(token: str) -> bool:
    """Class tokens worth naming in an XPath: not state, not layout-utility noise."""
    low = token.lower()
    return (2 <= len(token) <= 40 and not low.isdigit() and ":" not in token
            and "[" not in token and "/" not in token
            and low not in STATE_TOKENS and low not in _LAYOUT_TOKENS)


def hashed_class(token: str) -> bool:
    """A generated CSS-module token (css-1x2y3z, Card_title__3xYz1): stable in one build."""
    return bool(_HASHED_CLASS.match(token))


def predicates(el: HtmlElement) -> list[str]:
    """Candidate predicates naming ``el`` by its attributes, most stable first."""
    out: list[str] = []
    for name in _STABLE_ATTRS:
        value = el.get(name)
        if value and len(value) <= 60 and "\n" not in value:
            out.append(f"@{name}={quote(value)}")
    eid = el.get("id")
    if eid and good_id(eid):
        out.append(f"@id={quote(eid)}")
    tokens = [t for t in class_tokens(el) if good_class(t)]
    semantic = [t for t in tokens if not _HASHED_CLASS.match(t)]
    out.extend(has_class(t) for t in semantic)
    out.extend(has_class(t) for t in tokens if _HASHED_CLASS.match(t))
    return out


def all_classes(el: HtmlElement) -> str | None:
    """One predicate requiring every usable class token of ``el`` (None for fewer than 2)."""
    tokens = [t for t in class_tokens(el) if good_class(t)]
    return " and ".join(has_class(t) for t in tokens) if len(tokens) >= 2 else None


def step(el: HtmlElement, pred: str | None = None) -> str:
    return f"{el.tag}[{pred}]" if pred else str(el.tag)


def position_step(el: HtmlElement) -> str:
    """``tag[n]`` among same-tag siblings."""
    parent = el.getparent()
    if parent is None:
        return str(el.tag)
    same = [c for c in parent if c.tag == el.tag]
    if len(same) == 1:
        return str(el.tag)
    return f"{el.tag}[{same.index(el) + 1}]"


def relative_path(node: HtmlElement, root: HtmlElement) -> list[HtmlElement]:
    """Elements from ``root`` (exclusive) down to ``node`` (inclusive)."""
    chain: list[HtmlElement] = []
    cur: HtmlElement | None = node
    while cur is not None and cur is not root:
        chain.append(cur)
        cur = cur.getparent()
    if cur is None:
        raise ValueError("node is not inside root")
    chain.reverse()
    return chain


def relative_candidates(node: HtmlElement, root: HtmlElement) -> list[str]:
    """Relative XPaths from ``root`` to ``node``: by attributes, by tag path, by position."""
    chain = relative_path(node, root)
    if not chain:
        return ["."]
    out: list[str] = []
    last = chain[-1]
    for pred in predicates(last):
        out.append(".//" + step(last, pred))
        if len(chain) > 1:
            parent_preds = predicates(chain[-2])
            if parent_preds:
                out.append(".//" + step(chain[-2], parent_preds[0]) + "/" + step(last, pred))
    # tag path with the most stable predicate per step (none when absent)
    path = []
    for el in chain:
        preds = predicates(el)
        path.append(step(el, preds[0]) if preds else str(el.tag))
    out.append("./" + "/".join(path))
    out.append(".//" + str(last.tag) if len(chain) > 1 else "./" + str(last.tag))
    out.append("./" + "/".join(position_step(el) for el in chain))
    return list(dict.fromkeys(out))


def _first(items: list[str]) -> str | None:
    return items[0] if items else None


def absolute_candidates(node: HtmlElement, *, max_anchor_depth: int = 8) -> list[str]:
    """Absolute XPaths to ``node``: anchored on itself, or on a named ancestor."""
    out: list[str] = []
    for pred in predicates(node):
        out.append("//" + step(node, pred))
    chain: list[HtmlElement] = []
    cur: HtmlElement | None = node
    depth = 0
    while cur is not None and depth < max_anchor_depth:
        parent = cur.getparent()
        chain.insert(0, cur)
        if parent is None or parent.tag in ("html",):
            break
        preds = predicates(parent)
        if preds:
            tail = "/".join(step(el, _first(predicates(el))) for el in chain)
            out.append("//" + step(parent, preds[0]) + "/" + tail)
            if node.tag != "body":
                out.append("//" + step(parent, preds[0]) + "//" + step(
                    node, _first(predicates(node))))
        cur = parent
        depth += 1
    # all of an element's class tokens at once (utility-class soup: no single token is
    # unique, their combination often is), for the node and its parent
    node_all = all_classes(node)
    parent = node.getparent()
    if node_all:
        out.append(f"//{node.tag}[{node_all}]")
        parent_all = all_classes(parent) if parent is not None else None
        if parent is not None and parent_all:
            out.append(f"//{parent.tag}[{parent_all}]/{node.tag}[{node_all}]")
            out.append(f"//{parent.tag}[{parent_all}]/{node.tag}")
    # full positional path as the last resort
    full: list[str] = []
    cur = node
    while cur is not None and cur.tag != "html":
        full.insert(0, position_step(cur))
        cur = cur.getparent()
    out.append("/html/" + "/".join(full))
    return list(dict.fromkeys(out))


def _positions(node: HtmlElement, root: HtmlElement | None) -> list[tuple[str, str, bool]]:
    """(tag, positional step, last of its tag) from below ``root`` (else ``html``) down to
    ``node``."""
    chain: list[tuple[str, str, bool]] = []
    cur: HtmlElement | None = node
    while cur is not None and cur is not root and (root is not None or cur.tag != "html"):
        parent = cur.getparent()
        last = parent is None or next(
            (c for c in reversed(parent) if c.tag == cur.tag), None) is cur
        chain.insert(0, (str(cur.tag), position_step(cur), last))
        cur = parent
    return chain


def shifted_paths(nodes: Sequence[HtmlElement],
                  roots: Sequence[HtmlElement] | None = None) -> list[str]:
    """Positional paths to ``nodes`` (one per page, or per record below its root in
    ``roots``: relative paths then) on one tag path, leaving out the positions they do
    not share: an optional block before the price makes its block the second ``div`` on
    one page and the first on the next, and ``div[2]`` would read nothing (or the wrong
    block) there. The step is the bare tag, else ``[last()]`` where every node's block
    is its parent's last of that tag. Empty where the nodes share every position or lie
    on different tag paths."""
    chains = [_positions(n, roots[i] if roots else None) for i, n in enumerate(nodes)]
    if len(chains) < 2 or not chains[0] or len({tuple(t for t, _, _ in c) for c in chains}) != 1:
        return []
    bare: list[str] = []
    last: list[str] = []
    for column in zip(*chains, strict=True):
        tag, first, _ = column[0]
        if all(s == first for _, s, _ in column):
            bare.append(first)
            last.append(first)
        else:
            bare.append(tag)
            last.append(f"{tag}[last()]" if all(e for _, _, e in column) else tag)
    if bare == [s for _, s, _ in chains[0]]:
        return []
    start = "./" if roots else "/html/"
    return list(dict.fromkeys([start + "/".join(bare), start + "/".join(last)]))


def unpinned_paths(node: HtmlElement, blocks: frozenset[HtmlElement]) -> list[str]:
    """The positional path to ``node`` with the position of each ancestor in ``blocks``
    (blocks known to shift between pages) left out: ``[last()]`` where it is its
    parent's last of its tag, then the bare tag. Empty when no ancestor is in
    ``blocks``."""
    chain = [node, *node.iterancestors()][::-1][1:]   # below html, down to node
    if not any(el in blocks for el in chain):
        return []
    last = [_positions(el, el.getparent())[0] for el in chain]
    out = []
    for loose in (True, False):
        steps = [f"{t}[last()]" if el in blocks and loose and e else t if el in blocks else s
                 for el, (t, s, e) in zip(chain, last, strict=True)]
        out.append("/html/" + "/".join(steps))
    return list(dict.fromkeys(out))


_COMPILED: dict[str, etree.XPath] = {}


#: what separates the marks of a value: spaces, digits and the number's own punctuation
_MARK_SPLIT = re.compile(r"[\s\d.,'\u2019\u00a0\u202f]+")


def shared_marks(values: Sequence[str], misfits: Sequence[str], most: int = 2) -> list[str]:
    """The marks (tokens between numbers and spaces: ``R$``, ``€``, ``kr``) every one of
    ``values`` shows and none of ``misfits`` holds, longest first: a guard telling a
    class-less price from a review count or a paragraph beside it."""
    if not values:
        return []
    marks = set.intersection(*({t for t in _MARK_SPLIT.split(v) if t} for v in values))
    return sorted((m for m in marks if not any(m in text for text in misfits)),
                  key=lambda m: (-len(m), m))[:most]


def guarded(candidates: Sequence[str], marks: Sequence[str]) -> list[str]:
    """Each candidate again with a guard on each mark (``span[contains(., 'R$')]``)."""
    return [f"{c}[contains(., {quote(m)})]" for m in marks for c in candidates]


def evaluate(xpath: str, context: HtmlElement) -> list[object]:
    compiled = _COMPILED.get(xpath)
    if compiled is None:
        compiled = etree.XPath(xpath, namespaces={"re": "http://exslt.org/regular-expressions"})
        if len(_COMPILED) > 20_000:
            _COMPILED.clear()
        _COMPILED[xpath] = compiled
    result = compiled(context)
    return list(result) if isinstance(result, list) else [result]


def replayed(xpath: str, view: str, context: HtmlElement) -> HtmlElement | None:
    """The element replay would read ``view`` of: the first one ``xpath`` selects that
    holds a non-blank value there (a blank first match is stepped over)."""
    for node in evaluate(xpath, context):
        if not isinstance(node, HtmlElement):
            continue
        value = node.get(view[1:]) if view.startswith("@") else text_of(node)
        if value and value.strip():
            return node
    return None


def best_xpath(candidates: Iterable[str], cases: Sequence[tuple[HtmlElement, Sequence[object]]],
               *, first_only: bool = False,
               score: Callable[[int, int, int], float] | None = None) -> tuple[str, float] | None:
    """The candidate that selects the expected nodes in every case, and its F1 score.

    ``cases`` pairs a context node with the nodes the XPath should select there.
    ``first_only`` judges only the first selected node (for single-valued fields).
    Ties go to the earlier (more stable) candidate.
    """
    best: tuple[str, float] | None = None
    for xpath in candidates:
        tp = fp = fn = 0
        for context, expected in cases:
            try:
                got = evaluate(xpath, context)
            except etree.XPathError:
                tp = -1
                break
            if first_only:
                got = got[:1]
                want = list(expected)[:1]
            else:
                want = list(expected)
            want_ids = {id(x) for x in want}
            got_ids = {id(x) for x in got}
            tp += len(want_ids & got_ids)
            fp += len(got_ids - want_ids)
            fn += len(want_ids - got_ids)
        if tp <= 0:
            continue
        value = score(tp, fp, fn) if score else 2 * tp / (2 * tp + fp + fn)
        if best is None or value > best[1] + 1e-9:
            best = (xpath, value)
            if value >= 1.0:
                break
    return best


def for_view(path: str, view: str) -> str:
    """``path`` extended to the value view a slot was read from (an attribute, own text)."""
    if view.startswith("@") and view not in ("@src", "@href"):
        return f"{path}/{view}"
    if view == "own":
        return f"{path}/text()[normalize-space()][1]"
    return path
