"""Weighted DOM trees, their weighted similarity, and tree edit distance with pruning.

Input: lxml elements, the lexicon's attribute weights and its thresholds (the node
budgets ``tree_nodes``, ``tree_depth``, ``ted_nodes`` and ``root_share``; by default
:data:`~structurer.lexicon.DEFAULT_THRESHOLDS`). Output: similarity scores in 0..1 and
normalized edit distances. The method's two-step test for "these siblings repeat": a
coarse weighted similarity (> alpha), then Zhang–Shasha tree edit distance (``zss``,
:func:`tree_edit_distance`) normalized by tree size (< beta). The coarse pass is linear
in tree size; edit distance runs only on pairs that survive it, never on pairs whose
shapes are identical, and not where a cheap bound already decides the test: a lower
bound from label multisets (:func:`distance_lower_bound`) or from traversal sequences
(:func:`traversal_distance`) rejects, an upper bound from a top-down mapping
(:func:`top_down_distance`) accepts.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from lxml.html import HtmlElement

from structurer.lexicon import DEFAULT_THRESHOLDS as _TH
from structurer.page.dom import NOISE_TAGS, STATE_TOKENS, shape_class, tokens

_STRUCTURAL_ATTRS = ("id", "name", "type", "itemprop", "itemtype", "role", "rel")



@dataclass(slots=True)
class WTree:
    """A weighted tree node: label for edit distance, attribute features for similarity."""

    tag: str
    label: str
    feats: dict[str, float]
    children: list[WTree] = field(default_factory=list)
    weight: float = 1.0
    size: int = 1
    shape: int = 0          # hash of the whole subtree's labels: equal shape => identical
    labels: Counter[str] = field(default_factory=Counter)   # label multiset of the subtree


def _features(el: HtmlElement, weights: Mapping[str, float]) -> dict[str, float]:
    feats: dict[str, float] = {}
    cls = el.get("class")
    toks = [t for t in cls.split() if t.lower() not in STATE_TOKENS] if cls else []
    if toks:
        w = weights.get("class", 10.0) / len(toks)
        for t in toks:
            feats["c:" + shape_class(t)] = w
    for name in _STRUCTURAL_ATTRS:
        value = el.get(name)
        if value:
            w = weights.get(name, 4.0)
            toks = tokens(shape_class(value)) or [value]
            for t in toks:
                feats[f"{name}:{t}"] = w / len(toks)
    data_w = weights.get("data-*", 6.0)
    for name in el.attrib:
        if name.startswith("data-"):
            feats["d:" + name] = data_w
    return feats


def build(el: HtmlElement, weights: Mapping[str, float], *, max_nodes: int = _TH.tree_nodes,
          max_depth: int = _TH.tree_depth) -> WTree:
    """The weighted tree of ``el``: at most ``max_nodes`` nodes, at most ``max_depth``
    levels down (the lexicon's ``tree_nodes`` and ``tree_depth``); sibling weights under
    one parent sum to 1.

    A child's weight grows with its subtree size and with the weight of its
    attributes (class/name/type count more than bare tags).
    """
    budget = [max_nodes]

    def make(node: HtmlElement, depth: int) -> WTree:
        budget[0] -= 1
        feats = _features(node, weights)
        classes = sorted(k[2:] for k in feats if k.startswith("c:"))
        label = node.tag + ("." + ".".join(classes) if classes else "")
        tree = WTree(node.tag, label, feats)
        if depth < max_depth:
            for child in node:
                if budget[0] <= 0:
                    break
                if isinstance(child.tag, str) and child.tag not in NOISE_TAGS:
                    tree.children.append(make(child, depth + 1))
        tree.size = 1 + sum(c.size for c in tree.children)
        tree.shape = hash((label, tuple(c.shape for c in tree.children)))
        tree.labels = Counter([label])
        for c in tree.children:
            tree.labels.update(c.labels)
        if tree.children:
            raw = [c.size * (1.0 + sum(c.feats.values()) / 20.0) for c in tree.children]
            total = sum(raw)
            for c, r in zip(tree.children, raw, strict=True):
                c.weight = r / total
        return tree

    return make(el, 0)


def group(trees: Sequence[WTree]) -> WTree:
    """A virtual root over several sibling trees (a record spanning k siblings)."""
    if len(trees) == 1:
        return trees[0]
    root = WTree("#group", "#group", {}, list(trees))
    root.size = 1 + sum(t.size for t in trees)
    root.shape = hash(("#group", tuple(t.shape for t in trees)))
    root.labels = Counter(["#group"])
    for t in trees:
        root.labels.update(t.labels)
    # weights of the members are re-shared under the virtual root
    total = sum(t.size for t in trees)
    root.children = [WTree(t.tag, t.label, t.feats, t.children, t.size / total, t.size, t.shape,
                           t.labels) for t in trees]
    return root


def _attr_similarity(a: dict[str, float], b: dict[str, float]) -> float:
    if not a and not b:
        return 1.0
    shared = 0.0
    union = 0.0
    for key, wa in a.items():
        wb = b.get(key, 0.0)
        shared += min(wa, wb)
        union += max(wa, wb)
    for key, wb in b.items():
        if key not in a:
            union += wb
    return shared / union if union else 1.0


def _align(a: list[WTree], b: list[WTree]) -> list[tuple[int, int]]:
    """Order-preserving alignment of two child lists by tag (longest common subsequence)."""
    n, m = len(a), len(b)
    if n == m and all(x.tag == y.tag for x, y in zip(a, b, strict=True)):
        return [(i, i) for i in range(n)]
    table = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        row, below = table[i], table[i + 1]
        tag = a[i].tag
        for j in range(m - 1, -1, -1):
            row[j] = below[j + 1] + 1 if tag == b[j].tag else max(below[j], row[j + 1])
    pairs, i, j = [], 0, 0
    while i < n and j < m:
        if a[i].tag == b[j].tag:
            pairs.append((i, j))
            i, j = i + 1, j + 1
        elif table[i + 1][j] >= table[i][j + 1]:
            i += 1
        else:
            j += 1
    return pairs


def weighted_similarity(a: WTree, b: WTree, root_share: float = _TH.root_share) -> float:
    """Coarse similarity in 0..1: attributes of the roots (``root_share`` of it), then
    aligned children by weight."""
    if a.tag != b.tag:
        return 0.0
    if a.shape == b.shape and a.feats == b.feats:
        return 1.0
    asim = _attr_similarity(a.feats, b.feats)
    if not a.children and not b.children:
        return asim
    if not a.children or not b.children:
        return root_share * asim
    csim = 0.0
    for i, j in _align(a.children, b.children):
        ca, cb = a.children[i], b.children[j]
        csim += (ca.weight + cb.weight) / 2.0 * weighted_similarity(ca, cb, root_share)
    return root_share * asim + (1.0 - root_share) * csim


def _children(t: WTree) -> list[WTree]:
    return t.children


def _label(t: WTree) -> str:
    return t.label


def _label_dist(x: str, y: str) -> int:
    return 0 if x == y else 1


def tree_edit_distance(a: WTree, b: WTree) -> int:
    """Zhang–Shasha tree edit distance of two label trees (``zss``): inserting or deleting
    a node costs 1, relabelling 1 (0 for the same label). ``zss`` (and numpy, which it
    uses) load on the first pair that needs an edit distance, not with this module."""
    import zss

    return int(zss.simple_distance(a, b, _children, _label, _label_dist))


def distance_lower_bound(a: WTree, b: WTree) -> float:
    """A cheap lower bound of :func:`edit_distance` from the label multisets.

    Every insert, delete or relabel changes each multiset difference by at most one,
    so the edit distance is at least the larger of the two differences.
    """
    only_a = sum((a.labels - b.labels).values())
    only_b = sum((b.labels - a.labels).values())
    return max(only_a, only_b) / (a.size + b.size)


def top_down_distance(a: WTree, b: WTree) -> int:
    """The cost of the cheapest top-down mapping of two trees (Selkow): roots map to each
    other, and children are aligned in order, a pair mapped recursively, an unmatched
    child deleted or inserted with its whole subtree.

    A top-down mapping is one of the mappings Zhang–Shasha chooses from, so this is an
    upper bound of :func:`tree_edit_distance`; it is equal on the usual difference of
    repeated records (an optional badge, a missing old price) and costs a small share of
    it, as it never deletes an inner node alone."""
    if a.shape == b.shape:
        return 0
    previous = [0]
    for child in b.children:
        previous.append(previous[-1] + child.size)
    for x in a.children:
        row = [previous[0] + x.size]
        for j, y in enumerate(b.children):
            row.append(min(previous[j + 1] + x.size, row[j] + y.size,
                           previous[j] + top_down_distance(x, y)))
        previous = row
    return (0 if a.label == b.label else 1) + previous[-1]


_TED_CACHE: dict[tuple[int, int, int], float] = {}
_BOUND_CACHE: dict[tuple[int, int, int], tuple[float, float]] = {}


def _pair_key(a: WTree, b: WTree, nodes: int) -> tuple[int, int, int]:
    return (a.shape, b.shape, nodes) if a.shape < b.shape else (b.shape, a.shape, nodes)


def truncated(tree: WTree, budget: int = _TH.ted_nodes) -> WTree:
    """A copy of ``tree`` keeping its first ``budget`` nodes in breadth-first order.

    Zhang–Shasha is quadratic in tree size and more; the top of a record (its
    layout) is what decides whether two records repeat.
    """
    if tree.size <= budget:
        return tree
    root = WTree(tree.tag, tree.label, tree.feats)
    queue = [(tree, root)]
    kept = 1
    while queue and kept < budget:
        source, copy = queue.pop(0)
        for child in source.children:
            if kept >= budget:
                break
            node = WTree(child.tag, child.label, child.feats)
            copy.children.append(node)
            queue.append((child, node))
            kept += 1

    def finish(node: WTree) -> None:
        for child in node.children:
            finish(child)
        node.size = 1 + sum(c.size for c in node.children)
        node.shape = hash((node.label, tuple(c.shape for c in node.children)))

    finish(root)
    return root


def edit_distance(a: WTree, b: WTree, nodes: int = _TH.ted_nodes) -> float:
    """Zhang–Shasha tree edit distance of the trees' first ``nodes`` nodes (breadth-first;
    the lexicon's ``ted_nodes``), normalized by both sizes (0 same .. 1 unlike).

    Dividing by the sum keeps small cards with one optional element (a badge, an old
    price) as alike as large ones with the same difference.
    """
    if a.shape == b.shape:
        return 0.0
    key = _pair_key(a, b, nodes)
    cached = _TED_CACHE.get(key)
    if cached is None:
        ta, tb = truncated(a, nodes), truncated(b, nodes)
        cached = tree_edit_distance(ta, tb) / (ta.size + tb.size)
        if len(_TED_CACHE) > 50_000:
            _TED_CACHE.clear()
        _TED_CACHE[key] = cached
    return cached


def traversal_distance(a: WTree, b: WTree) -> int:
    """The larger string edit distance of the two trees' preorder and of their postorder
    label sequences: a lower bound of :func:`tree_edit_distance` (Guha et al., 2002),
    since a node's relabelling, deletion or insertion edits each sequence by one label."""
    return max(_string_distance(_order(a, True), _order(b, True)),
               _string_distance(_order(a, False), _order(b, False)))


def _order(tree: WTree, pre: bool) -> list[str]:
    out: list[str] = []

    def walk(node: WTree) -> None:
        if pre:
            out.append(node.label)
        for child in node.children:
            walk(child)
        if not pre:
            out.append(node.label)

    walk(tree)
    return out


def _string_distance(a: list[str], b: list[str]) -> int:
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        row = [i]
        for j, y in enumerate(b, 1):
            row.append(min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (x != y)))
        previous = row
    return previous[-1]


def within(a: WTree, b: WTree, beta: float, nodes: int = _TH.ted_nodes) -> bool:
    """``edit_distance(a, b, nodes) < beta``, decided by the top-down upper bound where it
    is below ``beta`` already (most pairs of repeated records), by the traversal lower bound
    where that is ``beta`` or more (most unlike pairs left), else by Zhang–Shasha."""
    if a.shape == b.shape:
        return True
    key = _pair_key(a, b, nodes)
    bounds = _BOUND_CACHE.get(key)
    if bounds is None:
        ta, tb = truncated(a, nodes), truncated(b, nodes)
        size = ta.size + tb.size
        upper = top_down_distance(ta, tb) / size
        lower = traversal_distance(ta, tb) / size if upper >= beta else 0.0
        if len(_BOUND_CACHE) > 50_000:
            _BOUND_CACHE.clear()
        _BOUND_CACHE[key] = bounds = (upper, lower)
    upper, lower = bounds
    if upper < beta:
        return True
    if lower >= beta:
        return False
    return edit_distance(a, b, nodes) < beta


def similar(a: WTree, b: WTree, alpha: float, beta: float, *, confirm: bool = True,
            ted_nodes: int = _TH.ted_nodes, root_share: float = _TH.root_share) -> bool:
    """The method's test: weighted similarity above alpha, confirmed by edit distance below beta.

    With ``confirm=False`` (a long run already confirmed several times) a pair clearly
    above alpha is accepted without running the edit distance. ``ted_nodes`` and
    ``root_share`` are the lexicon's (see :func:`edit_distance`, :func:`weighted_similarity`).
    """
    if a.shape == b.shape:
        return True
    if abs(a.size - b.size) / (a.size + b.size) >= beta:
        return False  # the size difference alone is an edit distance of at least beta
    if distance_lower_bound(a, b) >= beta:
        return False
    coarse = weighted_similarity(a, b, root_share)
    if coarse <= alpha:
        return False
    if not confirm and coarse >= alpha + (1 - alpha) / 3:
        return True
    return within(a, b, beta, ted_nodes)
