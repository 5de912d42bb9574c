"""OPTICS over ancestor chains, cut DBSCAN-style, without a distance matrix.

Input: per item (a link) two chains of the same length, root first: the nodes
themselves and their signatures (tag and class), each any hashable. Output: one
cluster label per item, -1 for noise: exactly the labels of scikit-learn's
``OPTICS(metric="precomputed", min_samples=3, max_eps=eps, cluster_method="dbscan",
eps=eps)`` over the matrix of :func:`chain_distance` (which this project used before;
a sweep over the demo shops, the news site and every corpus page found no difference).

The distance of two chains: ``alike`` depths with equal signatures, ``shared`` depths
with the same node (a prefix: the chains meet at their lowest common ancestor),
``M = 0.9 alike + 0.1 shared``, ``d = (P_max - M) / P_max`` with ``P_max`` the longer
chain, in float32 arithmetic as numpy computed it (depths past 255 are not compared).

Why no matrix: pages have up to 2000 links but few distinct signature chains. Items
with the same signature chain form a class; for a pair of classes ``alike`` and
``P_max`` are fixed, so whether two items are within ``eps`` depends on ``shared``
only, i.e. on whether they share the node at one depth. Neighbour counts (core points)
and the clusters then come from grouping items by that node, class pair by class pair.
"""

from __future__ import annotations

import struct
from collections import Counter, defaultdict
from collections.abc import Callable, Hashable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from structurer.lexicon import DEFAULT_THRESHOLDS

if TYPE_CHECKING:
    import numpy as np

# depths compared: a true constant, the uint8 matrix the sklearn equivalence was shown on
MAX_DEPTH = 255
Chain = Sequence[Hashable]

_F32 = struct.Struct("f")


def _f32(x: float) -> float:
    """``x`` rounded to float32 (one rounding of an exact double: as float32 hardware)."""
    value: float = _F32.unpack(_F32.pack(x))[0]
    return value


_NINE, _TENTH = _f32(0.9), _f32(0.1)


@lru_cache(maxsize=4096)
def chain_distance(alike: int, shared: int, longest: int) -> float:
    """``(P_max - M) / P_max`` of two chains, in [0, 1] (see the module docstring)."""
    matches = _f32(_f32(_NINE * alike) + _f32(_TENTH * shared))
    return min(max(_f32(_f32(longest - matches) / longest), 0.0), 1.0)


def _alike(a: Chain, b: Chain) -> int:
    return sum(x == y for x, y in zip(a[:MAX_DEPTH], b[:MAX_DEPTH], strict=False))


def _shared(a: Chain, b: Chain) -> int:
    n = 0
    for x, y in zip(a[:MAX_DEPTH], b[:MAX_DEPTH], strict=False):
        if x != y:
            break
        n += 1
    return n


def distance_matrix(nodes: Sequence[Chain], sigs: Sequence[Chain]) -> np.ndarray:
    """The full matrix of :func:`chain_distance`, for looking at it (clustering never
    builds it)."""
    import numpy as np

    n = len(nodes)
    out = np.zeros((n, n), dtype=np.float32)
    for i in range(n):
        for j in range(i + 1, n):
            out[i, j] = out[j, i] = chain_distance(
                _alike(sigs[i], sigs[j]), _shared(nodes[i], nodes[j]),
                max(len(nodes[i]), len(nodes[j])))
    return out


def _threshold(alike: int, longest: int, most: int, eps: float) -> int | None:
    """The fewest shared depths that bring two chains within ``eps`` (None: never)."""
    if chain_distance(alike, most, longest) > eps:
        return None
    low, high = 0, most           # the distance falls as ``shared`` grows
    while low < high:
        mid = (low + high) // 2
        if chain_distance(alike, mid, longest) <= eps:
            high = mid
        else:
            low = mid + 1
    return low


def _near_pairs(nodes: Sequence[Chain], sigs: Sequence[Chain], eps: float
                ) -> list[tuple[list[int], list[int], int]]:
    """(members of class a, members of class b, shared depths needed) for every pair of
    signature classes whose items can be within ``eps`` (a == b included)."""
    classes: dict[tuple[Hashable, ...], list[int]] = defaultdict(list)
    for i, sig in enumerate(sigs):
        classes[tuple(sig)].append(i)
    keys = list(classes)
    out = []
    for x, ka in enumerate(keys):
        for kb in keys[x:]:
            la, lb = len(ka), len(kb)
            most = min(la, lb, MAX_DEPTH)
            longest = max(la, lb)
            if chain_distance(most, most, longest) > eps:
                continue          # lengths too far apart whatever matches
            alike = most if ka is kb else _alike(ka, kb)
            need = _threshold(alike, longest, most, eps)
            if need is not None:
                out.append((classes[ka], classes[kb], need))
    return out


def _core_points(n: int, pairs: list[tuple[list[int], list[int], int]],
                 key: Callable[[int, int], Hashable], min_samples: int) -> list[bool]:
    """Whether each item has ``min_samples`` items (itself included) within eps."""
    count = [1] * n
    for a, b, need in pairs:
        in_b = Counter(key(j, need) for j in b)
        for i in a:
            count[i] += in_b[key(i, need)] - (a is b)
        if a is not b:
            in_a = Counter(key(i, need) for i in a)
            for j in b:
                count[j] += in_a[key(j, need)]
    return [c >= min_samples for c in count]


def _components(n: int, pairs: list[tuple[list[int], list[int], int]],
                key: Callable[[int, int], Hashable], core: list[bool]) -> Callable[[int], int]:
    """Union-find over the core points linked within eps; ``find(i)`` is the lowest
    item of ``i``'s component."""
    parent = list(range(n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for a, b, need in pairs:
        first: dict[Hashable, int] = {}
        for i in (a if a is b else [*a, *b]):
            if core[i]:
                k = key(i, need)
                if k in first:
                    x, y = find(i), find(first[k])
                    parent[max(x, y)] = min(x, y)
                else:
                    first[k] = i
    return find


def cluster_labels(nodes: Sequence[Chain], sigs: Sequence[Chain],
                   eps: float = DEFAULT_THRESHOLDS.link_eps,
                   min_samples: int = DEFAULT_THRESHOLDS.link_min_samples) -> list[int]:
    """OPTICS labels (-1: noise) of the items, cut at ``eps``.

    With ``max_eps = eps`` every finite reachability is at most ``eps``, so the OPTICS
    ordering walks one eps-connected component after another, each seeded by the
    lowest-numbered item not yet ordered, and the cut labels each component by its
    seed: a new cluster when the seed is a core point, noise for good when it is not.
    So a cluster is a component of core points (linked when within ``eps``), numbered
    by its lowest item; a non-core item joins the lowest-numbered cluster with a core
    point within ``eps`` of it, if that cluster's lowest item comes before it.
    """
    n = len(nodes)
    if n < min_samples:
        return [-1] * n
    pairs = _near_pairs(nodes, sigs, eps)

    def key(i: int, need: int) -> Hashable:
        return nodes[i][need - 1] if need else None

    core = _core_points(n, pairs, key, min_samples)
    find = _components(n, pairs, key, core)
    seeds = sorted({find(i) for i in range(n) if core[i]})
    number = {seed: label for label, seed in enumerate(seeds)}
    labels = [number[find(i)] if core[i] else -1 for i in range(n)]
    for a, b, need in pairs:
        for own, other in ((a, b), (b, a)) if a is not b else ((a, a),):
            nearest: dict[Hashable, int] = {}
            for j in other:
                if core[j]:
                    k, seed = key(j, need), find(j)
                    nearest[k] = min(nearest.get(k, seed), seed)
            for i in own:
                seed = nearest.get(key(i, need), n) if not core[i] else n
                if seed < i and (labels[i] < 0 or seed < seeds[labels[i]]):
                    labels[i] = number[seed]
    return labels
