"""The fold on its own (no database): undo chains, and that any log at all folds into a
consistent tournament."""

from __future__ import annotations

import doctest
import importlib
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.store.fold import Folded, LiveFold, fold, part_of
from bot.store.model import (
    Event,
    EventKind,
    PlayerInfo,
    ResultStatus,
    TournamentInfo,
    TournamentStatus,
)
from core.model import BYES, WITH_OPPONENT, Colour, EntryKind

AT = datetime(2026, 3, 14, tzinfo=UTC)
ROSTER = tuple(PlayerInfo(10 + n, n, f"P{n}") for n in range(1, 7))
INFO = TournamentInfo(1, "g", "Club", "uscf", None, 4, TournamentStatus.RUNNING, "td", AT)


def event(seq: int, kind: EventKind, **fields) -> Event:
    return Event(seq, kind, "someone", AT, **fields)


def test_a_revert_of_a_revert_restores_the_original_and_a_third_undoes_it_again():
    log = [event(1, EventKind.BYE, round=1, player=11, result=EntryKind.FULL_BYE)]
    log.append(event(2, EventKind.REVERT, refers_to=1))
    assert fold(ROSTER, log, INFO).reverted == {1}
    log.append(event(3, EventKind.REVERT, refers_to=2))
    assert fold(ROSTER, log, INFO).reverted == {2}
    log.append(event(4, EventKind.REVERT, refers_to=3))
    assert fold(ROSTER, log, INFO).reverted == {1, 3}
    assert fold(ROSTER, log, INFO).tournament.rounds == 0


def test_a_finished_tournament_has_its_planned_rounds_even_when_the_last_is_empty():
    log = [event(1, EventKind.BYE, round=1, player=11, result=EntryKind.FULL_BYE)]
    finished = TournamentInfo(1, "g", "Club", "uscf", None, 3, TournamentStatus.FINISHED, "td", AT)
    assert fold(ROSTER, log, INFO).tournament.rounds == 1
    assert fold(ROSTER, log, finished).tournament.rounds == 3


ids = st.sampled_from([p.id for p in ROSTER])
rounds = st.integers(1, 4)


@st.composite
def logs(draw) -> list[Event]:
    """Any log: reports, verdicts, TD decisions and undos in any order."""
    out: list[Event] = []
    for _ in range(draw(st.integers(0, 40))):
        seq = len(out) + 1
        kind = draw(st.sampled_from(list(EventKind)))
        r = draw(rounds)
        player, opponent = draw(ids), draw(ids)
        if kind in (EventKind.REPORT, EventKind.SET):
            if player == opponent:
                continue
            out.append(
                event(
                    seq,
                    kind,
                    round=r,
                    player=player,
                    opponent=opponent,
                    result=draw(st.sampled_from(sorted(WITH_OPPONENT, key=str))),
                    colour=draw(st.sampled_from([None, Colour.WHITE, Colour.BLACK])),
                )
            )
        elif kind in (EventKind.CONFIRM, EventKind.DISPUTE, EventKind.REVERT):
            if not out:
                continue
            target = draw(st.sampled_from([e.seq for e in out]))
            out.append(event(seq, kind, round=r, refers_to=target))
        elif kind is EventKind.BYE:
            out.append(
                event(
                    seq,
                    kind,
                    round=r,
                    player=player,
                    result=draw(st.sampled_from(sorted(BYES, key=str))),
                )
            )
        else:
            out.append(event(seq, kind, round=r, player=player))
    return out


@settings(max_examples=300, deadline=None)
@given(logs())
def test_any_log_folds_into_a_consistent_tournament_with_honest_marks(log: list[Event]):
    state = fold(ROSTER, log, INFO)  # Tournament() validates both sides of every game
    t = state.tournament
    for g in state.games:
        low, high = (
            t.player(ROSTER[[p.id for p in ROSTER].index(x)].number) for x in (g.low, g.high)
        )
        entry = low.entries[g.round - 1]
        assert g.counted == (entry.opponent == high.id and entry.kind is g.result)
        marks = {state.marks.get((low.id, g.round)), state.marks.get((high.id, g.round))}
        if g.status is ResultStatus.PROVISIONAL:
            assert marks == {ResultStatus.PROVISIONAL}
        if not g.counted:
            assert g.status is ResultStatus.DISPUTED
    for (number, r), mark in state.marks.items():
        entry = t.player(number).entries[r - 1]
        assert (mark is ResultStatus.DISPUTED) == (
            entry.kind in (EntryKind.ABSENT, EntryKind.WITHDRAWN)
        )


def _seen(state: Folded) -> tuple[object, ...]:
    """Everything a fold says, to compare two folds."""
    return (
        state.tournament,
        state.games,
        state.byes,
        state.withdrawn,
        state.marks,
        state.last_seq,
        state.reverted,
        state.pending,
        state.open_games,
    )


@settings(max_examples=300, deadline=None)
@given(logs(), st.integers(0, 40))
def test_a_fold_grown_event_by_event_is_the_fold_of_the_whole_log(log: list[Event], start: int):
    """The store keeps each tournament's fold and adds each new event to it (an undo
    replays again only the rounds it changes): always what replaying the whole log gives."""
    live = LiveFold(log[:start])
    for n, e in enumerate(log[start:], start=start):
        seen = log[: n + 1]
        changed = live.changes(e)
        parts = {part_of(x) for x in seen if x.seq in changed}
        live.add(e, {p: [x for x in seen if part_of(x) == p] for p in parts})
        assert _seen(live.settle().folded(ROSTER, INFO)) == _seen(fold(ROSTER, seen, INFO))


@settings(max_examples=200, deadline=None)
@given(logs(), st.integers(1, 10))
def test_a_log_fed_a_piece_at_a_time_folds_as_the_whole(log: list[Event], piece: int):
    """A fold read from the database a chunk at a time: its reverts and pairing events
    first, then every event in order."""
    reverts = [e for e in log if e.kind is EventKind.REVERT]
    pairing = [e for e in log if e.kind in (EventKind.PAIRING, EventKind.SWAP, EventKind.PUBLISH)]
    live = LiveFold.begin(reverts, pairing)
    for start in range(0, len(log), piece):
        live.feed(iter(log[start : start + piece]))
    live.finish()
    assert _seen(live.folded(ROSTER, INFO)) == _seen(fold(ROSTER, log, INFO))
    assert (live.size, live.pairing_events) == (len(log), pairing)


@pytest.mark.parametrize(
    "module",
    [
        "bot.store",
        "bot.store.errors",
        "bot.store.fold",
        "bot.store.model",
        "bot.store.players",
        "bot.store.queries",
        "bot.store.results",
        "bot.store.records",
    ],
)
def test_the_examples_in_the_docstrings_run(module: str):
    failures, tried = doctest.testmod(
        importlib.import_module(module), optionflags=doctest.NORMALIZE_WHITESPACE
    )
    assert tried > 0 and failures == 0
