"""Zhang–Shasha tree edit distance (page.treesim over ``zss``): hand-checked distances, and
``zss`` (with numpy) loaded only when a pair of records needs an edit distance."""

from __future__ import annotations

import subprocess
import sys

import pytest

from structurer.page.treesim import WTree, tree_edit_distance


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
regions = find_regions(mixed, lexicon)         # two shapes: confirmed by edit distance
assert regions and len(regions[0]) == 6, [len(r) for r in regions]
print("zss" in sys.modules)
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "False True"
