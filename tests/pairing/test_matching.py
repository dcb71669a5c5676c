"""The engine's weighted matchings by bbpPairings' matching computer
(:mod:`core.pairing.matching`) are networkx's minimum-weight maximum-cardinality matchings:
the same number of pairs and the same total weight on every graph, exact at 1,000+-bit
weights; and the engine pairs every round alike with either.
"""

from __future__ import annotations

import gc
import json
import random
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import networkx as nx
import pytest

from core.formats import read_tournament
from core.model import EntryKind, Tournament
from core.pairing import matching, pair_round, prepare
from core.pairing.acceleration import Acceleration
from core.pairing.engine import pair_trf
from core.pairing.matching import min_weight_matching
from core.pairing.prepare import PairingRequest
from core.pairing.trf import engine_trf
from tests.pairing.support import Event

pytestmark = pytest.mark.skipif(
    not matching.available(), reason="py4swiss has no wheel for this platform"
)


def _graph(seed: int) -> nx.Graph:
    rng = random.Random(seed)
    n = rng.randint(1, 40)
    density = rng.choice([0.1, 0.3, 0.7, 1.0])
    bits = rng.choice([1, 4, 64, 129, 600, 1_200])
    graph = nx.Graph()
    graph.add_nodes_from(range(n))  # some stay isolated
    for a in range(n):
        for b in range(a + 1, n):
            if rng.random() < density:
                graph.add_edge(a, b, weight=rng.randrange(1 << bits))
    return graph


def _is_matching(graph: nx.Graph, pairs: set[tuple[int, int]]) -> bool:
    ends = [v for pair in pairs for v in pair]
    return len(ends) == len(set(ends)) and all(graph.has_edge(a, b) for a, b in pairs)


def _weight(graph: nx.Graph, pairs: set[tuple[int, int]]) -> int:
    return sum(graph[a][b]["weight"] for a, b in pairs)


@pytest.mark.parametrize("seed", range(120))
def test_as_many_pairs_and_the_same_least_weight_as_networkx(seed):
    graph = _graph(seed)
    ours, theirs = min_weight_matching(graph), nx.min_weight_matching(graph)
    assert _is_matching(graph, ours)
    assert (len(ours), _weight(graph, ours)) == (len(theirs), _weight(graph, theirs))


def test_more_pairs_beat_a_smaller_weight():
    """A path a–b–c–d: the two end edges (weight 10 each) make two pairs, the middle one
    (weight 0) only one, and the most pairs come first."""
    graph = nx.Graph()
    graph.add_weighted_edges_from([(1, 2, 10), (2, 3, 0), (3, 4, 10)])
    assert min_weight_matching(graph) == {(1, 2), (3, 4)}


def test_a_unique_best_matching_is_networkx_s_own():
    """Distinct powers of two make every matching's weight different (a bracket's weights
    encode the Dutch criteria that way): the matching itself is then the same, including
    where the weights differ only in their lowest of 1,100 bits."""
    rng = random.Random(7)
    graph = nx.Graph()
    powers = rng.sample(range(1_100), 300)
    for a in range(24):
        for b in range(a + 1, 24):
            graph.add_edge(a, b, weight=(1 << 1_100) + (1 << powers.pop()) if powers else 1)
    pairs = {tuple(sorted(p)) for p in min_weight_matching(graph)}
    assert pairs == {tuple(sorted(p)) for p in nx.min_weight_matching(graph)}


def test_weights_that_are_not_integers_go_to_networkx():
    graph = nx.Graph()
    graph.add_weighted_edges_from([(1, 2, 0.5), (2, 3, 0.25), (3, 4, 0.5), (1, 4, 2.0)])
    assert min_weight_matching(graph) == set(nx.min_weight_matching(graph))


def test_an_empty_graph_has_no_pairs():
    graph = nx.Graph()
    graph.add_nodes_from([1, 2, 3])
    assert min_weight_matching(graph) == set()


# The engine with either matching: every round of seeded events and of real files.

CORPUS = Path(__file__).parent.parent / "corpus" / "pairing"


def _rounds_of_an_event(
    players: int, rounds: int, seed: int, **options: Any
) -> Iterator[tuple[str, int]]:
    """Each round's engine input of a seeded event (byes, withdrawals, late entries),
    played on from networkx's pairing."""
    event = Event(players, rounds, seed, by_rating=seed % 2 == 0)
    for r in range(1, rounds + 1):
        event.request_byes(r)
        request = prepare(event.tournament(), r, **options)
        text, _ = engine_trf(request)
        yield text, r
        event.play(pair_round(request, engine=partial(pair_trf, matching="networkx")))


EVENTS = [
    (24, 7, 11, {}),
    (45, 9, 12, {"acceleration": Acceleration.BAKU}),
    (90, 8, 13, {"avoid": [(3, 17), (40, 41, 42), (88, 5)]}),
]


@pytest.mark.parametrize(("players", "rounds", "seed", "options"), EVENTS)
def test_every_round_of_a_seeded_swiss_pairs_alike(players, rounds, seed, options):
    for text, r in _rounds_of_an_event(players, rounds, seed, **options):
        assert pair_trf(text, r) == pair_trf(text, r, matching="networkx"), f"round {r}"


@pytest.mark.parametrize(
    ("name", "rounds"),
    [
        ("javafo-demo-137.trf", range(2, 8)),
        ("british-2026-108.trf", range(2, 9)),
        ("javafo-accelerated-84.trf", range(2, 10)),
        ("bbp-final-round-60.trf", None),
    ],
)
def test_real_events_pair_alike(name, rounds):
    """Rounds of real files paired from their earlier rounds (players absent from a round
    kept out), or the round after the file's last."""
    t = read_tournament(CORPUS / name)
    requests = [prepare(t)] if rounds is None else [_as_played(t, k) for k in rounds]
    for request in requests:
        text, _ = engine_trf(request)
        k = request.round
        assert pair_trf(text, k) == pair_trf(text, k, matching="networkx"), f"round {k}"


def _as_played(t: Tournament, k: int) -> PairingRequest:
    absent = {
        p.id: EntryKind.ZERO_BYE for p in t.players if p.entries[k - 1].kind is EntryKind.ABSENT
    }
    return prepare(t, k, requests=absent)


def test_a_1000_player_round_3_pairs_as_networkx_and_bbppairings_did():
    """Round 3 of a 1,000-player Swiss whose first rounds followed the ratings (the
    engine's hardest round: a small score group between two large ones, one matching of
    336 players and 56,000 edges of 1,100-bit weights): the boards networkx's matching
    gave, which bbpPairings 6.0.0 gives too. (The engine's child process runs without the
    cyclic garbage collector; so does this test, to take the time it takes there.)"""
    text = (CORPUS / "swiss-1000-by-rating-r3.trf").read_text()
    expected = json.loads((CORPUS / "swiss-1000-by-rating-r3.json").read_text())
    gc.disable()
    try:
        assert [list(pair) for pair in pair_trf(text, 3)] == expected
    finally:
        gc.enable()


def test_the_engine_s_matchings_go_to_the_computer():
    import gacrux.pairingdutch

    from core.pairing.engine import _Networkx

    t = read_tournament(CORPUS / "bbp-final-round-60.trf")
    pair_round(prepare(t))
    assert isinstance(gacrux.pairingdutch.nx, _Networkx)
