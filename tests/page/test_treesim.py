"""The tree-similarity core (page.treesim) on hand-built trees with known answers: weighted
trees (sibling weights summing to 1), weighted similarity, Zhang–Shasha edit distance over
``zss`` (hand-checked, normalized, loaded only when a pair of records needs one), its lower
bound and its top-down upper bound, truncation to the node budget, and the two-step test
``similar``."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter

import lxml.html
import pytest
from lxml.html import HtmlElement

from structurer.clean import parse_html
from structurer.lexicon import DEFAULT_THRESHOLDS
from structurer.page import treesim
from structurer.page.treesim import (
    WTree,
    build,
    distance_lower_bound,
    edit_distance,
    group,
    similar,
    top_down_distance,
    traversal_distance,
    tree_edit_distance,
    truncated,
    weighted_similarity,
    within,
)


def tree(spec: str | tuple) -> WTree:
    """``("f", ("d", "a", ("c", "b")), "e")``: a label, then its children."""
    if isinstance(spec, str):
        return WTree("x", spec, {})
    label, *children = spec
    return WTree("x", label, {}, [tree(c) for c in children])


@pytest.mark.parametrize(("a", "b", "expected"), [
    ("a", "a", 0),
    ("a", "b", 1),                                        # relabel
    (("a", "b", "c"), ("a", "b"), 1),                     # delete a leaf
    (("a", ("b", "c")), ("a", "c"), 1),                   # delete an inner node: c moves up
    (("a", "b", "c"), ("a", "c", "b"), 2),                # order matters: two relabels
    (("a", "b"), ("x", ("y", "z"), "w"), 4),              # relabel a, b; insert two
    # Zhang & Shasha's own example (1989): delete c under d, insert c above d
    (("f", ("d", "a", ("c", "b")), "e"), ("f", ("c", ("d", "a", "b")), "e"), 2),
], ids=["same", "relabel", "delete-leaf", "delete-inner", "swap", "grow", "paper"])
def test_edit_distance(a: str | tuple, b: str | tuple, expected: int) -> None:
    assert tree_edit_distance(tree(a), tree(b)) == expected
    assert tree_edit_distance(tree(b), tree(a)) == expected


def test_zss_loads_only_for_an_edit_distance() -> None:
    code = """
import sys
from structurer.clean import parse_html
from structurer.lexicon import load_lexicon
from structurer.page.lists import find_regions
def cards(extra):
    return "".join(
        f'<div class="card"><h3><a href="/p/{i}">Item {i}</a></h3><span class="price">$'
        f'{i}.99</span>' + (extra if i % 2 else "") + '</div>' for i in range(6))
lexicon = load_lexicon("ecommerce")
same = parse_html(f'<html><body><div class="grid">{cards("")}</div></body></html>', "http://t/")
regions = find_regions(same, lexicon)          # identical shapes: no edit distance needed
assert regions and len(regions[0]) == 6, [len(r) for r in regions]
print("zss" in sys.modules, end=" ")
extra = '<b class="new">New</b>'
mixed = parse_html(f'<html><body><div class="grid">{cards(extra)}</div></body></html>',
                   "http://t/")
regions = find_regions(mixed, lexicon)         # two shapes: the top-down bound confirms
assert regions and len(regions[0]) == 6, [len(r) for r in regions]
print("zss" in sys.modules, end=" ")
from structurer.page.treesim import build, within
def wt(markup):
    return build(parse_html(markup, "http://t/").find(".//li"), lexicon.attribute_weights)
# an inner node inserted: the bound (4/12) is no proof of < 0.2, the edit distance (2/12) is
a = wt("<ul><li><i><a></a><b><s></s></b></i><u></u></li></ul>")
b = wt("<ul><li><b><i><a></a><s></s></i></b><u></u></li></ul>")
assert within(a, b, 0.2)
print("zss" in sys.modules)
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "False False True"


# --- weighted trees (build, group), built from real elements -----------------------------

W = {"class": 10.0}          # attribute weights: class as the ecommerce lexicon weighs it


def el(html: str) -> HtmlElement:
    """The first element of a fragment, as the pipeline parses it."""
    return parse_html(f"<html><body>{html}</body></html>", "http://t/").find("body")[0]


def node(spec: str | tuple) -> HtmlElement:
    """``("ul", "li", ("li", "b"))``: an element tree whose tags are the labels."""
    if isinstance(spec, str):
        return lxml.html.Element(spec)
    tag, *children = spec
    root = lxml.html.Element(tag)
    root.extend(node(c) for c in children)
    return root


def wt(spec: str | tuple) -> WTree:
    return build(node(spec), W)


def test_sibling_weights_sum_to_one_and_grow_with_size_and_attributes() -> None:
    # raw weight = size * (1 + attribute weight / 20): 1 * 1.5, 2 * 1.5, 1 * 1 -> 3/11, 6/11, 2/11
    ul = build(el('<ul><li class="a">x</li><li class="b a"><span>p</span></li><li></li></ul>'), W)
    assert [c.label for c in ul.children] == ["li.a", "li.a.b", "li"]   # classes sorted
    assert [c.size for c in ul.children] == [1, 2, 1] and ul.size == 5
    assert [c.weight for c in ul.children] == pytest.approx([3 / 11, 6 / 11, 2 / 11])
    assert sum(c.weight for c in ul.children) == pytest.approx(1.0)
    assert ul.weight == 1.0 and ul.children[1].children[0].weight == 1.0   # an only child
    assert ul.labels == Counter({"ul": 1, "li": 1, "li.a": 1, "li.a.b": 1, "span": 1})


def test_features_of_a_node() -> None:
    """Class tokens share the class weight (digits blanked, state tokens dropped); structural
    attributes are split into word tokens; every data-* attribute counts once."""
    card = build(el('<div class="card-12 odd" itemprop="offers" data-id="5" title="t"></div>'),
                 {"class": 10.0, "itemprop": 4.0, "data-*": 6.0})
    assert card.label == "div.card-0"
    assert card.feats == {"c:card-0": 10.0, "itemprop:offers": 4.0, "d:data-id": 6.0}
    two = build(el('<a class="x y" rel="nofollow noopener"></a>'), {})    # default weights
    assert two.feats == {"c:x": 5.0, "c:y": 5.0, "rel:nofollow": 2.0, "rel:noopener": 2.0}


def test_shape_is_equal_exactly_for_the_same_labelled_tree() -> None:
    same = [build(el(h), W) for h in ('<li class="item-3 odd"><b>A</b><i>1</i></li>',
                                      '<li class="item-7 even"><b>Bb</b><i>22</i></li>')]
    assert same[0].shape == same[1].shape                 # text, digits, state tokens ignored
    for other in ('<li class="item-3"><b>A</b></li>', '<li class="card"><b>A</b><i>1</i></li>',
                  '<li class="item-3"><i>1</i><b>A</b></li>'):
        assert build(el(other), W).shape != same[0].shape, other


def test_noise_depth_and_node_budget() -> None:
    noisy = build(el('<div><script>x()</script><p></p><svg></svg><style></style></div>'), W)
    assert [c.tag for c in noisy.children] == ["p"]
    deep = node(("div", ("p", ("b", "i"))))
    assert build(deep, W, max_depth=1).size == 2           # div > p, nothing below
    assert build(deep, W, max_depth=2).size == 3
    wide = node(("ul", *["li"] * 10))
    assert build(wide, W, max_nodes=4).size == 4            # the root and three items
    # the budget is spent in document order (depth first): the first subtree is kept whole
    cut = build(node(("div", ("p", "b", "i"), "p")), W, max_nodes=3)
    assert [c.label for c in cut.children] == ["p"] and cut.children[0].size == 2


def test_group_shares_weight_by_size_under_a_virtual_root() -> None:
    a, b = wt(("dt", "b")), wt("dd")
    assert group([a]) is a
    pair = group([a, b])
    assert (pair.label, pair.size) == ("#group", 4)
    assert [c.weight for c in pair.children] == pytest.approx([2 / 3, 1 / 3])
    assert a.weight == 1.0 and b.weight == 1.0              # the members are not changed
    assert pair.labels == Counter({"#group": 1, "dt": 1, "b": 1, "dd": 1})
    assert group([wt(("dt", "b")), wt("dd")]).shape == pair.shape
    assert group([b, a]).shape != pair.shape


# --- weighted similarity -------------------------------------------------------------------

@pytest.mark.parametrize(("a", "b", "expected"), [
    ('<li class="x"><b></b></li>', '<p class="x"><b></b></p>', 0.0),          # other tag
    ('<li class="x"><b>1</b></li>', '<li class="x"><b>2</b></li>', 1.0),      # same shape
    # leaves: weighted Jaccard of features; {price: 5, sale: 5} vs {price: 10} = 5 / 15
    ('<span class="price sale"></span>', '<span class="price"></span>', 1 / 3),
    ('<span class="price"></span>', '<span class="cost"></span>', 0.0),
    ('<div class="x"></div>', '<div class="x"><b></b></div>', 0.25),         # only the root share
    # children aligned by tag (LCS): h3~h3, i~i, b unmatched; each pair weighs the mean of
    # its weights: (1/3 + 1/2) / 2 * 2 = 5/6 -> 0.25 + 0.75 * 5/6
    ("<li><h3></h3><b></b><i></i></li>", "<li><h3></h3><i></i></li>", 0.875),
    # a swap keeps only one of b, i aligned: 0.25 + 0.75 * (2/3)
    ("<li><h3></h3><b></b><i></i></li>", "<li><h3></h3><i></i><b></b></li>", 0.75),
    # roots half alike (1/3 as above), children identical: 0.25 * 1/3 + 0.75 * 1
    ('<li class="price sale"><b></b></li>', '<li class="price"><b></b></li>', 0.25 / 3 + 0.75),
], ids=["tag", "same", "leaf-jaccard", "leaf-disjoint", "leaf-vs-inner", "missing-child",
        "swap", "root-attributes"])
def test_weighted_similarity(a: str, b: str, expected: float) -> None:
    ta, tb = build(el(a), W), build(el(b), W)
    assert weighted_similarity(ta, tb) == pytest.approx(expected)
    assert weighted_similarity(tb, ta) == pytest.approx(expected)


# --- normalized edit distance, its lower bound, the node budget ---------------------------

PAIRS = [
    (("ul", "li", "li", "li"), ("ul", "li", "li"), 1 / 7),            # delete one of 4 + 3 nodes
    (("ul", "li", "li", "li"), ("ul", "li", "p"), 2 / 7),             # relabel + delete
    (("li", "h3", "b"), ("li", "h3", "b", "i"), 1 / 7),
    (("li", ("div", "h3", "b")), ("li", "h3", "b"), 1 / 7),          # an unwrapped block
    (("li", "b", "b"), ("li", "i", "i"), 2 / 6),
    (("li", "h3", "b", "i"), ("li", "h3", "i", "b"), 2 / 8),
]


@pytest.mark.parametrize(("a", "b", "expected"), PAIRS)
def test_edit_distance_is_normalized_by_both_sizes(a: tuple, b: tuple, expected: float) -> None:
    assert edit_distance(wt(a), wt(b)) == pytest.approx(expected)
    assert edit_distance(wt(b), wt(a)) == pytest.approx(expected)


def test_identical_shapes_need_no_edit_distance(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(treesim, "tree_edit_distance", None)    # would fail if called
    assert edit_distance(wt(("li", "h3", "b")), wt(("li", "h3", "b"))) == 0.0
    assert similar(wt(("li", "h3", "b")), wt(("li", "h3", "b")), alpha=1.0, beta=0.0)


@pytest.mark.parametrize(("a", "b", "expected"), [
    (("ul", "li", "li", "li"), ("ul", "li", "p"), 2 / 7),      # 2 li more on one side
    (("li", "b", "b"), ("li", "i", "i"), 2 / 6),
    (("li", "h3", "b", "i"), ("li", "h3", "i", "b"), 0.0),     # same labels: no bound at all
    (("ul", "li", "li", "li"), ("ul", "li", "li"), 1 / 7),
])
def test_lower_bound_from_label_multisets(a: tuple, b: tuple, expected: float) -> None:
    assert distance_lower_bound(wt(a), wt(b)) == pytest.approx(expected)


@pytest.mark.parametrize(("a", "b", "_"), PAIRS)
def test_lower_bound_never_exceeds_the_edit_distance(a: tuple, b: tuple, _: float) -> None:
    assert distance_lower_bound(wt(a), wt(b)) <= edit_distance(wt(a), wt(b)) + 1e-12


@pytest.mark.parametrize(("a", "b", "expected"), PAIRS)
def test_top_down_distance_bounds_the_edit_distance_from_above(a: tuple, b: tuple,
                                                               expected: float) -> None:
    ta, tb = wt(a), wt(b)
    bound = top_down_distance(ta, tb)
    assert bound == top_down_distance(tb, ta)
    assert bound >= tree_edit_distance(ta, tb) == round(expected * (ta.size + tb.size))


@pytest.mark.parametrize(("a", "b", "_"), PAIRS)
def test_traversal_distance_bounds_the_edit_distance_from_below(a: tuple, b: tuple,
                                                                _: float) -> None:
    ta, tb = wt(a), wt(b)
    assert traversal_distance(ta, tb) == traversal_distance(tb, ta) <= tree_edit_distance(ta, tb)


def test_traversal_distance() -> None:
    # preorder f d a c b e / f c d a b e: 2 edits; postorder a b c d e f / a b d c e f: 2
    paper = wt(("f", ("d", "a", ("c", "b")), "e")), wt(("f", ("c", ("d", "a", "b")), "e"))
    assert traversal_distance(*paper) == 2 == tree_edit_distance(*paper)
    # a node moved from the end to the front: one insert and one delete in each order
    assert traversal_distance(wt(("li", "h3", "b", "i")), wt(("li", "i", "h3", "b"))) == 2


@pytest.mark.parametrize(("a", "b", "expected"), [
    (("li", "h3", "b"), ("li", "h3", "b", "i"), 1),                   # an optional badge
    (("ul", "li", "li", "li"), ("ul", "li", "p"), 2),                 # relabel + delete
    (("li", ("div", "h3", "b")), ("li", "h3", "b"), 4),               # unwrapping: 1 for TED
    (("f", ("d", "a", ("c", "b")), "e"), ("f", ("c", ("d", "a", "b")), "e"), 4),   # paper: 2
])
def test_top_down_distance(a: tuple, b: tuple, expected: int) -> None:
    assert top_down_distance(wt(a), wt(b)) == expected


def test_within_needs_no_edit_distance_where_the_bound_decides(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(treesim, "tree_edit_distance", None)    # would fail if called
    assert within(wt(("li", "h3", "b", "em")), wt(("li", "h3", "b", "em", "i")), 0.2)   # 1/9


def test_within_needs_no_edit_distance_where_the_lower_bound_decides(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(treesim, "tree_edit_distance", None)    # would fail if called
    assert not within(wt(("li", "b", "b", "em")), wt(("li", "i", "i", "em")), 0.25)   # 2/8


def test_within_asks_the_edit_distance_where_the_bound_cannot() -> None:
    unwrapped, wrapped = wt(("li", "h3", "b")), wt(("li", ("div", "h3", "b")))
    assert top_down_distance(unwrapped, wrapped) / 7 >= 0.2 > edit_distance(unwrapped, wrapped)
    assert within(unwrapped, wrapped, 0.2) and not within(unwrapped, wrapped, 1 / 7)


def _bfs(tree: WTree) -> list[str]:
    order, queue = [], [tree]
    while queue:
        current = queue.pop(0)
        order.append(current.label)
        queue.extend(current.children)
    return order


def test_truncation_keeps_the_first_nodes_breadth_first() -> None:
    full = wt(("r", ("a", "a1", "a2", "a3"), ("b", "b1", "b2", "b3"), ("c", "c1", "c2", "c3")))
    assert full.size == 13 and truncated(full, 13) is full
    top = truncated(full, 5)
    assert _bfs(top) == ["r", "a", "b", "c", "a1"] and top.size == 5
    assert [c.size for c in top.children] == [2, 1, 1]
    assert truncated(full, 1).size == 1 and not truncated(full, 1).children
    assert truncated(full, 4).shape == wt(("r", "a", "b", "c")).shape   # shapes recomputed


def test_edit_distance_reads_only_the_node_budget() -> None:
    """Records alike in their first TED_NODES nodes (breadth first) are alike: the edit
    distance of the whole trees is 1, that of the budgeted tops 0."""
    n = DEFAULT_THRESHOLDS.ted_nodes + 8
    a = wt(("ul", *["li"] * n))
    b = wt(("ul", *["li"] * (n - 1), "p"))
    c = wt(("ul", "p", *["li"] * (n - 1)))
    assert a.shape != b.shape and tree_edit_distance(a, b) == 1
    assert edit_distance(a, b) == 0.0                     # the p is past the budget
    assert edit_distance(a, c) == pytest.approx(1 / (2 * DEFAULT_THRESHOLDS.ted_nodes))
    assert edit_distance(a, b, n + 1) == pytest.approx(1 / (2 * (n + 1)))   # a larger budget


# --- the two-step test ---------------------------------------------------------------------

def test_similar_gates_in_order() -> None:
    base = wt(("li", "h3", "b"))
    badge = wt(("li", "h3", "b", "i"))         # size 3 vs 4, coarse 0.875, edit distance 1/7
    assert similar(base, badge, alpha=0.5, beta=0.3)
    assert not similar(base, badge, alpha=0.9, beta=0.3)        # coarse 0.875 <= alpha
    assert not similar(base, badge, alpha=0.5, beta=0.14)       # size gap 1/7 >= beta


def _refuse(*args: object) -> None:
    raise AssertionError("a cheaper gate should have decided")


def test_cheap_gates_spare_the_costly_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    """The size gap, then the label-multiset bound, reject before any similarity is computed."""
    small, big = wt("li"), wt(("li", *["b"] * 9))
    bees, eyes = wt(("li", "b", "b")), wt(("li", "i", "i"))
    monkeypatch.setattr(treesim, "weighted_similarity", _refuse)
    monkeypatch.setattr(treesim, "edit_distance", _refuse)
    assert not similar(bees, eyes, alpha=0.0, beta=0.3)        # bound 2/6, equal sizes
    monkeypatch.setattr(treesim, "distance_lower_bound", _refuse)
    assert not similar(small, big, alpha=0.0, beta=0.8)        # size gap 9/11


def test_similar_without_confirmation_skips_the_edit_distance() -> None:
    """A swapped pair is coarse-alike (0.75) but 2 edits apart (0.25): confirmed, it fails;
    unconfirmed and clearly above alpha (0.75 >= 0.6 + 0.4/3), it passes."""
    a, b = wt(("li", "h3", "b", "i")), wt(("li", "h3", "i", "b"))
    assert not similar(a, b, alpha=0.6, beta=0.2)
    assert similar(a, b, alpha=0.6, beta=0.2, confirm=False)
    assert not similar(a, b, alpha=0.7, beta=0.2, confirm=False)   # 0.75 < 0.7 + 0.3/3
