"""Whole Swiss tournaments paired round by round by the engine, every round checked.

Results are random but seeded; players ask for half- and zero-point byes, withdraw, and
enter late; ratings are not in starting-number order. Every round's pairing must pass
core's check of the absolute criteria (no rematch, at most one pairing-allocated bye,
colour rules) and put every available player on a board or the bye.
"""

from __future__ import annotations

import pytest

from tests.pairing.support import run_event

EVENTS = [(7, 5, 1), (12, 6, 2), (25, 7, 3), (40, 9, 4), (61, 7, 5)]


@pytest.mark.parametrize(("players", "rounds", "seed"), EVENTS)
def test_every_round_of_a_seeded_swiss_meets_the_absolute_criteria(players, rounds, seed):
    checked = [(r, problems) for r, problems in run_event(players, rounds, seed)]
    assert [r for r, _ in checked] == list(range(1, rounds + 1))
    assert all(problems == [] for _, problems in checked), checked
