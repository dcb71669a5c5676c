"""The engine's weighted matchings, computed by bbpPairings' matching computer.

gacrux pairs a score bracket by a minimum-weight maximum-cardinality matching of a graph
whose vertices are players and whose edge weights are exact integers encoding the Dutch
criteria (C.04.3) in order of importance: a whole lower part of a large field can be one
graph of 300+ players, 50,000+ edges and weights of 1,100+ bits. networkx's
``min_weight_matching`` (pure Python) takes most of a 1,000-player round's time there.

:func:`min_weight_matching` answers the same question with the C++ blossom algorithm of
bbpPairings (Galil, Micali and Gabow; O(n³)), the matching code of the FIDE-endorsed
engine, over its multi-word unsigned integers: exact at any width. It is the copy that
py4swiss (MIT; its ``cpp/`` folder is bbpPairings', Apache 2.0) builds for Python as
``py4swiss.matching_computer``. That computer finds a maximum-*weight* matching of
positive weights, so the question is put to it as one:

- each weight ``w`` becomes ``top − w`` with ``top = 1 + max(w)`` (networkx's own
  transformation: all ≥ 1, smaller is better), plus a ``bonus`` larger than any
  matching's sum of those, so that a matching with one more edge always weighs more;
- a maximum-weight matching then has the most edges possible and, among those, the
  least total of the original weights: exactly networkx's minimum-weight
  maximum-cardinality matching (same cardinality, same total weight).

Where several matchings tie on both, the two algorithms may pick different ones; gacrux
keeps only the pairs of the bracket being paired, whose weights carry the criteria, and
the pairings it makes are compared with networkx's on every position in the tests.

Weights that are not integers (and graphs with loops, or more vertices than the computer
takes) go to networkx; so does every call when py4swiss is not installed (a platform
without its wheel): the answers are the same, only slower.
"""

from __future__ import annotations

import struct
from collections.abc import Hashable
from typing import Any

__all__ = ["available", "min_weight_matching"]

_WORD = 64  # bits of one part of bbpPairings' DynamicUint (std::uintmax_t)
_MAX_VERTICES = 9_999  # py4swiss builds the computer with 16-bit vertex indices


def available() -> bool:
    """Whether bbpPairings' matching computer (py4swiss) is installed."""
    try:
        from py4swiss.dynamicuint import DynamicUint  # noqa: F401
        from py4swiss.matching_computer import ComputerDutchOptimality  # noqa: F401
    except ImportError:
        return False
    return True


def min_weight_matching(graph: Any, weight: str = "weight") -> set[tuple[Hashable, Hashable]]:
    """A minimum-weight maximum-cardinality matching of the networkx ``graph`` (the
    contract of ``networkx.min_weight_matching``): a set of (u, v) edges."""
    import networkx as nx

    edges = list(graph.edges(data=weight, default=1))
    if not edges:
        return set()
    nodes = list(graph)
    if (
        not available()
        or len(nodes) > _MAX_VERTICES
        or any(type(w) is not int or u == v for u, v, w in edges)
    ):
        return set(nx.min_weight_matching(graph, weight=weight))
    index = {node: i for i, node in enumerate(nodes)}
    top = 1 + max(w for _, _, w in edges)
    biggest = top - min(w for _, _, w in edges)
    # One more edge outweighs any difference in the rest: a matching of k edges weighs
    # at most k × (bonus + biggest) and one of k + 1 edges at least (k + 1) × (bonus + 1).
    bonus = (len(nodes) // 2) * biggest + 1
    return _matching(nodes, [(index[u], index[v], bonus + top - w) for u, v, w in edges])


def _matching(nodes: list[Hashable], edges: list[tuple[int, int, int]]) -> set[tuple[Any, Any]]:
    """The maximum-weight matching of positive integer ``edges`` (vertex indices into
    ``nodes``) by bbpPairings' computer."""
    from py4swiss.dynamicuint import DynamicUint
    from py4swiss.matching_computer import ComputerDutchOptimality

    bits = max(w for _, _, w in edges).bit_length()
    # The computer needs two spare bits above its largest weight (computer.h).
    parts = (bits + 2 + _WORD - 1) // _WORD
    wide = DynamicUint(1)
    for _ in range(parts - 1):
        wide.shift_grow(_WORD)
    zero = wide & 0
    layout = struct.Struct(f">{parts}Q")

    def exact(value: int) -> DynamicUint:
        number = DynamicUint(zero)
        for word in layout.unpack(value.to_bytes(layout.size, "big")):
            number <<= _WORD
            if word:
                number |= word
        return number

    computer = ComputerDutchOptimality(len(nodes), exact((1 << bits) - 1))
    for _ in nodes:
        computer.add_vertex()
    converted: dict[int, DynamicUint] = {}  # brackets repeat weights: convert each once
    for i, j, w in edges:
        value = converted.get(w)
        if value is None:
            value = converted[w] = exact(w)
        computer.set_edge_weight(i, j, value)
    computer.compute_matching()
    mate = computer.get_matching()
    return {(nodes[i], nodes[j]) for i, j in enumerate(mate) if i < j}
