"""The report workflow: a member's report is provisional until the opponent confirms it;
an agreeing second report confirms; a conflicting one marks the game disputed; repeats
change nothing; members touch only their own games."""

from __future__ import annotations

import pytest

from bot.store import ResultStatus, Store, StoreError, TournamentStatus
from tests.store.conftest import ANN, BOB, CAT, DAN, EVE, GUILD, TD, Club, user


async def test_a_report_is_provisional_and_counts_marked_until_the_opponent_confirms(club: Club):
    said = await club.report(ANN, 1, BOB, "win", colour="white")
    assert said.changed and said.status is ResultStatus.PROVISIONAL
    assert said.game is not None and said.game.score == "1-0"
    assert said.game.opponent.name == "Bob" and said.game.claims[0].seq == said.event.seq
    state = await club.store.state(GUILD, club.name)
    assert await club.entries(1) == ["W2 (w)"] and await club.entries(2) == ["L1 (b)"]
    assert state.marks == {(1, 1): ResultStatus.PROVISIONAL, (2, 1): ResultStatus.PROVISIONAL}
    assert [g.describe() for g in state.open_games] == ["round 1: #1 Ann 1-0 #2 Bob (provisional)"]

    done = await club.store.confirm(GUILD, club.name, BOB, said.event.seq)
    assert done.changed and done.status is ResultStatus.CONFIRMED
    state = await club.store.state(GUILD, club.name)
    assert state.marks == {} and state.open_games == ()


async def test_the_opponent_reporting_the_same_result_confirms_it(club: Club):
    await club.report(ANN, 1, BOB, "draw")
    second = await club.report(BOB, 1, ANN, "draw", colour="b")
    assert second.status is ResultStatus.CONFIRMED
    assert await club.entries(1) == ["D2 (w)"]  # one side's colour completes the other's


async def test_a_conflicting_report_disputes_the_game_and_leaves_it_out_of_standings(club: Club):
    await club.report(ANN, 1, BOB, "win")
    second = await club.report(BOB, 1, ANN, "win")
    assert second.status is ResultStatus.DISPUTED
    assert "disagree" in second.message
    state = await club.store.state(GUILD, club.name)
    assert state.marks == {(1, 1): ResultStatus.DISPUTED, (2, 1): ResultStatus.DISPUTED}
    assert [str(e) for e in state.tournament.player(1).entries] == [""]  # not counted
    assert [len(g.claims) for g in state.open_games] == [2]


async def test_contradicting_colours_are_a_dispute_too(club: Club):
    await club.report(ANN, 1, BOB, "draw", colour="white")
    second = await club.report(BOB, 1, ANN, "draw", colour="white")
    assert second.status is ResultStatus.DISPUTED


async def test_reporting_the_same_thing_twice_writes_nothing(club: Club):
    first = await club.report(ANN, 1, BOB, "win")
    again = await club.report(ANN, 1, BOB, "win")
    assert not again.changed and again.event is None
    assert again.status is ResultStatus.PROVISIONAL and "Already recorded" in again.message
    history = await club.store.history(GUILD, club.name)
    assert [h.seq for h in history] == [first.event.seq]


async def test_confirming_twice_or_reporting_a_confirmed_result_again_writes_nothing(club: Club):
    said = await club.report(ANN, 1, BOB, "win")
    await club.store.confirm(GUILD, club.name, BOB, said.event.seq)
    again = await club.store.confirm(GUILD, club.name, BOB, said.event.seq)
    repeat = await club.report(BOB, 1, ANN, "loss")
    assert not again.changed and not repeat.changed
    assert repeat.status is ResultStatus.CONFIRMED
    assert len(await club.store.history(GUILD, club.name)) == 2


async def test_a_player_may_correct_their_provisional_report_which_supersedes_the_first(club: Club):
    first = await club.report(ANN, 1, BOB, "win")
    fixed = await club.report(ANN, 1, BOB, "draw")
    assert fixed.event.supersedes == first.event.seq
    assert await club.entries(1) == ["D2"]
    # Bob can no longer confirm the replaced report, only the current one.
    with pytest.raises(StoreError) as stale:
        await club.store.confirm(GUILD, club.name, BOB, first.event.seq)
    assert stale.value.code == "stale-report"
    done = await club.store.confirm(GUILD, club.name, BOB, fixed.event.seq)
    assert done.status is ResultStatus.CONFIRMED


async def test_reporting_another_opponent_moves_the_players_claim(club: Club):
    await club.report(ANN, 1, BOB, "win")
    moved = await club.report(ANN, 1, CAT, "win")
    assert moved.status is ResultStatus.PROVISIONAL
    assert await club.entries(2) == [""] and await club.entries(3) == ["L1"]


async def test_two_opponents_claiming_one_player_is_a_pairing_conflict(club: Club):
    await club.report(ANN, 1, BOB, "win")
    clash = await club.report(CAT, 1, ANN, "loss")
    assert clash.status is ResultStatus.DISPUTED and clash.game.conflict
    assert "clashes" in clash.message
    state = await club.store.state(GUILD, club.name)
    assert {n for (n, _), m in state.marks.items() if m is ResultStatus.DISPUTED} == {1, 2, 3}
    # A TD confirming Ann's report settles it; Cat's claim stays disputed, out of standings.
    ann_report = next(g for g in state.open_games if g.opponent.name == "Bob").claims[0].seq
    await club.store.confirm(GUILD, club.name, TD, ann_report)
    assert await club.entries(1) == ["W2"] and await club.entries(3) == [""]
    state = await club.store.state(GUILD, club.name)
    assert state.marks == {(3, 1): ResultStatus.DISPUTED}


async def test_a_member_cannot_report_a_game_they_did_not_play(club: Club):
    with pytest.raises(StoreError) as other:
        await club.store.report(
            GUILD, club.name, CAT, round=1, player=user(ANN), opponent=user(BOB), result="win"
        )
    with pytest.raises(StoreError) as outsider:
        await club.report(EVE, 1, BOB, "win")
    assert other.value.code == "not-your-game"
    assert str(other.value) == "you can only report your own games"
    assert outsider.value.code == "not-registered"
    assert "join" in str(outsider.value)


async def test_only_the_opponent_or_a_td_answers_a_report(club: Club):
    said = await club.report(ANN, 1, BOB, "win")
    with pytest.raises(StoreError) as own:
        await club.store.confirm(GUILD, club.name, ANN, said.event.seq)
    with pytest.raises(StoreError) as stranger:
        await club.store.dispute(GUILD, club.name, CAT, said.event.seq)
    assert "your own report" in str(own.value)
    assert str(stranger.value) == "only Bob (the opponent) or a TD can dispute this report"
    assert (await club.store.confirm(GUILD, club.name, TD, said.event.seq)).changed


async def test_a_dispute_waits_for_a_td_who_sets_the_result(club: Club):
    said = await club.report(ANN, 1, BOB, "win")
    disputed = await club.store.dispute(GUILD, club.name, BOB, said.event.seq, "I won")
    assert disputed.status is ResultStatus.DISPUTED and disputed.event.note == "I won"
    assert not (await club.store.dispute(GUILD, club.name, BOB, said.event.seq)).changed
    decided = await club.store.set_result(
        GUILD, club.name, TD, round=1, player=2, opponent=1, result="win"
    )
    assert decided.status is ResultStatus.CONFIRMED
    assert await club.entries(2) == ["W1"]


async def test_a_confirmed_result_can_only_be_changed_by_a_td(club: Club):
    said = await club.report(ANN, 1, BOB, "win")
    await club.store.confirm(GUILD, club.name, BOB, said.event.seq)
    with pytest.raises(StoreError) as late:
        await club.report(BOB, 1, ANN, "win")
    with pytest.raises(StoreError) as elsewhere:
        await club.report(CAT, 1, ANN, "win")
    assert late.value.code == "already-confirmed" and "ask a TD" in str(late.value)
    assert "#1 Ann already has a confirmed result in round 1" in str(elsewhere.value)


@pytest.mark.parametrize(
    ("round", "words"), [(0, "round 0 is out of range"), (4, "round 4 is out of range")]
)
async def test_a_round_outside_the_tournament_is_refused(club: Club, round: int, words: str):
    with pytest.raises(StoreError) as error:
        await club.report(ANN, round, BOB, "win")
    assert error.value.code == "round-out-of-range"
    assert str(error.value) == f"{words}: Club Night has rounds 1–3"


async def test_nonsense_is_refused_in_words(club: Club):
    cases = [
        (dict(opponent=user(ANN), result="win"), "a player cannot play themselves"),
        (dict(opponent=user(BOB), result="won-ish"), "a game's result is win, draw or loss"),
        (dict(opponent="Zed", result="win"), "Club Night has no player called 'Zed'"),
        (dict(opponent=user(BOB), result="win", colour="green"), "a colour is white or black"),
    ]
    for arguments, words in cases:
        with pytest.raises(StoreError) as error:
            await club.store.report(GUILD, club.name, ANN, round=1, **arguments)
        assert str(error.value).startswith(words)


async def test_members_report_only_while_the_tournament_runs(club: Club):
    await club.store.set_status(GUILD, club.name, TournamentStatus.FINISHED, TD)
    with pytest.raises(StoreError) as finished:
        await club.report(ANN, 1, BOB, "win")
    assert finished.value.code == "tournament-finished"
    await club.store.create_tournament(GUILD, "Later", rounds=2, actor=TD)
    await club.store.join(GUILD, "Later", ANN)
    await club.store.join(GUILD, "Later", BOB)
    with pytest.raises(StoreError) as early:
        await club.store.report(GUILD, "Later", ANN, round=1, opponent=user(BOB), result="win")
    assert str(early.value) == "Later has not started yet"


async def test_a_withdrawn_player_cannot_be_reported_against_after_withdrawing(club: Club):
    await club.store.withdraw(GUILD, club.name, TD, player=user(DAN), from_round=2)
    with pytest.raises(StoreError) as error:
        await club.report(CAT, 2, DAN, "win")
    assert str(error.value) == "#4 Dan withdrew from round 2 on"
    assert (await club.report(CAT, 1, DAN, "win")).changed


async def test_players_are_named_by_number_name_or_mention(club: Club):
    for ref in (2, "#2", "bob", "<@902>"):
        said = await club.store.report(GUILD, club.name, ANN, round=1, opponent=ref, result="draw")
        assert said.game.opponent.name == "Bob"


async def test_every_spelling_of_a_draw_a_sheet_accepts_is_accepted_in_discord(club: Club):
    """One table of result words (core.results): ``1/2-1/2`` is a draw in both front doors."""
    said = await club.report(ANN, 1, BOB, "1/2-1/2")
    assert said.game is not None and said.game.score == "½-½"


async def test_a_name_is_found_by_the_one_ranking_a_unique_start_before_a_part(club: Club):
    """``an`` is Ann (the only name starting so), as in ``/why``, though ``Dan`` holds it."""
    said = await club.store.report(GUILD, club.name, BOB, round=1, opponent="an", result="loss")
    assert said.game is not None and said.game.opponent.name == "Ann"


async def test_a_round_whose_only_game_is_disputed_was_played_for_every_answer(store: Store):
    """mdchess, 5 rounds: rounds 1–2 confirmed, round 3's only game disputed. Round 3 was
    played (core.model.rounds_played with the store's pending rounds): the state, the
    standings, ``/tiebreaks``' order and a late entry all count 3 rounds, and the order is
    the one for 3 rounds (Modified Median first, not moved last as after 2)."""
    from bot.answers import tiebreak_order
    from core.model import rounds_played

    name = "Scholastic"
    await store.create_tournament(GUILD, name, rounds=5, actor=TD, profile="mdchess")
    for member in (ANN, BOB, CAT, DAN):
        await store.join(GUILD, name, member)
    await store.set_status(GUILD, name, TournamentStatus.RUNNING, TD)
    for r, a, b in ((1, 1, 2), (1, 3, 4), (2, 1, 3), (2, 2, 4)):
        await store.set_result(GUILD, name, TD, round=r, player=a, opponent=b, result="win")
    await store.report(GUILD, name, ANN, round=3, opponent=user(DAN), result="win")
    said = await store.report(GUILD, name, DAN, round=3, opponent=user(ANN), result="win")
    assert said.status is ResultStatus.DISPUTED

    state = await store.state(GUILD, name)
    view = await store.standings(GUILD, name)
    listed = await tiebreak_order(store, GUILD, state.info)
    assert tuple(code for code, _, _ in listed.order) == view.standings.order
    assert view.standings.order == ("MM", "SOLK", "CUM", "OCUM")
    assert view.after_round == state.rounds_played == 3 and state.as_played.rounds == 3
    assert rounds_played(state.tournament) == 2 and state.pending == {3}
    late = await store.join(GUILD, name, EVE)
    assert late.late_entry_round == 4
