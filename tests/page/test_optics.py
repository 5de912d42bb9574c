"""OPTICS over ancestor chains (page.optics): a hand-computed example, the float32
distance numpy gave, and no scikit-learn (nor numpy) on the way.

The example's labels are scikit-learn's: ``OPTICS(metric="precomputed", min_samples=3,
max_eps=0.13, cluster_method="dbscan", eps=0.13)`` gave the same on its distance matrix
(checked while scikit-learn was a dependency, with thousands of real pages)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from structurer.lexicon import DEFAULT_THRESHOLDS
from structurer.page.optics import chain_distance, cluster_labels, distance_matrix

EPS = DEFAULT_THRESHOLDS.link_eps

# signature chains (root first, the link last) of 10 depths, and one of 3
X = ("html", "body", "div", "div", "div", "div", "div", "div", "li", "a")
Y = (*X[:9], "a.more")                     # X but the link: 9 of 10 depths alike
Z = (*X[:8], "li.ad", "a")                 # X but the item: 9 alike with X, 8 with Y
W = ("html", "body", *["section"] * 7, "a")
W2 = (*W[:9], "a.more")
V = ("html", "body", "a")
ITEMS = [  # (signature chain, node chain): node ids shared by two chains are shared nodes
    (Y, (0, 1, 2, 3, 4, 5, 6, 100, 101, 102)),         # 0: shares 7 nodes with 1 only
    (X, (0, 1, 2, 3, 4, 5, 6, 110, 111, 112)),         # 1 \
    (X, (0, 1, 2, 3, 20, 21, 22, 120, 121, 122)),      # 2  } one list
    (X, (0, 1, 2, 3, 30, 31, 32, 130, 131, 132)),      # 3 /
    (Z, (0, 1, 2, 3, 20, 21, 22, 140, 141, 142)),      # 4: shares 7 nodes with 2 only
    (W, (0, 1, 50, 51, 52, 53, 54, 150, 151, 152)),    # 5 \
    (W, (0, 1, 50, 60, 61, 62, 63, 160, 161, 162)),    # 6  } another list
    (W, (0, 1, 50, 70, 71, 72, 73, 170, 171, 172)),    # 7 /
    (V, (0, 1, 180)),                                  # 8: alone
    (W2, (0, 1, 50, 51, 52, 53, 54, 190, 191, 192)),   # 9: shares 7 nodes with 5 only
]


def test_hand_computed_clusters() -> None:
    # d = (P_max - 0.9 alike - 0.1 shared) / P_max. Same signatures: (10 - 9 - 0.1 s) / 10
    # <= 0.1, so 1-3 and 5-7 are within eps of each other: core points (3 with themselves).
    # 9 alike need 7 shared nodes: (10 - 8.1 - 0.7) / 10 = 0.12. Hence 0, 4 and 9 each have
    # one neighbour (2 with themselves: not core) and 8 none.
    sigs, nodes = [s for s, _ in ITEMS], [n for _, n in ITEMS]
    # 4 and 9 are border points of the list whose first item comes before them; 0 comes
    # first of all: the OPTICS ordering starts there, finds no core point, and the cut
    # leaves it noise (DBSCAN would give it to the first list)
    assert cluster_labels(nodes, sigs) == [-1, 0, 0, 0, 0, 1, 1, 1, -1, 1]
    dist = distance_matrix(nodes, sigs)
    assert dist[1, 2] == pytest.approx(0.06, abs=1e-6)       # shared html..div: 4 nodes
    assert dist[0, 1] == pytest.approx(0.12, abs=1e-6)
    assert dist[0, 2] == pytest.approx(0.15, abs=1e-6)       # only 4 shared: too far
    assert dist[8, 5] == pytest.approx(0.8, abs=1e-6)        # (10 - 1.8 - 0.2) / 10


def test_distance_is_float32_as_numpy_computed_it() -> None:
    # 9 alike, 6 shared: exactly 0.13 in real numbers, 0.13000002 in float32: not within eps
    assert chain_distance(9, 6, 10) == pytest.approx(0.13000002, abs=1e-8)
    assert chain_distance(9, 6, 10) > EPS
    assert chain_distance(9, 7, 10) <= EPS
    assert chain_distance(0, 0, 5) == 1.0


def test_too_few_items_are_noise() -> None:
    assert cluster_labels([(0, 1), (0, 2)], [("a", "b"), ("a", "b")]) == [-1, -1]
    assert cluster_labels([], []) == []


def test_link_clusters_load_neither_scikit_learn_nor_numpy() -> None:
    code = """
import sys
from structurer.clean import parse_html
from structurer.page.linkclusters import link_clusters
items = "".join(f'<li><a href="/p/{i}">Product number {i}</a></li>' for i in range(8))
tree = parse_html(f"<html><body><ul>{items}</ul></body></html>", "http://t.test/")
[cluster] = link_clusters(tree, "http://t.test/")
assert len(cluster) == 8, cluster.urls
print(sorted(m for m in ("sklearn", "scipy", "numpy") if m in sys.modules))
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "[]"
