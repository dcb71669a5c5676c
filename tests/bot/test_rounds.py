"""Pairing through Discord: a TD previews, fixes and publishes each round, members ask for
byes and report without typing an opponent, and a 4-round Swiss runs from start to end."""

from __future__ import annotations

import random
import sys

import pytest

from bot.store import EventKind
from core.model import EntryKind
from core.pairing import pairing_problems, prepare
from tests.bot.support import Club, clicked, running_tournament

PLAYERS = ("alice", "bob", "carol", "dave", "erin")


def _member(number: int) -> str:
    return PLAYERS[number - 1]


async def _play(club: Club, round: int, rng: random.Random) -> None:
    """White reports each published board with no opponent typed; black confirms."""
    drafts = await club.store.round_pairings(club.guild, "Club Night")
    for board in drafts[round].pairing.boards:
        result = rng.choice(["win", "draw", "loss"])
        message = await club.ok(_member(board.white), "report", {"round": round, "result": result})
        assert "provisional" in message.text
        await clicked(club, _member(board.black), message, "Confirm")


async def test_a_four_round_swiss_is_paired_reported_and_ranked_in_discord(club: Club) -> None:
    await running_tournament(club, rounds=4, players=PLAYERS)
    rng = random.Random(4)
    noted = await club.ok("carol", "bye request", {"round": 2})
    assert noted.ephemeral
    assert noted.text == (
        "✅ Noted: #3 Carol has a half-point bye in round 2. The pairing of round 2 will "
        "leave you out."
    )
    for r in range(1, 5):
        if r == 1:
            draft = await club.ok("td", "round preview")
            assert draft.ephemeral
            assert draft.text.splitlines()[0] == (
                "**Draft pairings (not published): Club Night, round 1 of 4** "
                "(FIDE Dutch system (C.04.3), white first)"
            )
        published = await club.ok("td", "round pair")
        assert not published.ephemeral
        lines = published.text.splitlines()
        assert lines[0].startswith(f"**Pairings: Club Night, round {r} of 4**")
        assert lines[-1].startswith(f"Report your result with `/report round:{r}")
        picture = published.attachment(f"round-{r}-pairings-dark.png")
        assert picture.description.startswith(f"Pairings picture: Club Night, round {r}.")
        if r == 1:  # C.04.3: top half against bottom half, the lowest gets the bye
            assert lines[1:4] == [
                "1. 1 Alice (0) – 3 Carol (0)",
                "2. 4 Dave (0) – 2 Bob (0)",
                "5 Erin (0): pairing-allocated bye",
            ]
        if r == 2:
            assert "3 Carol (0): half-point bye" in lines
        await _play(club, r, rng)
    # Every round was published, checked again here against the absolute criteria.
    state = await club.store.state(club.guild, "Club Night")
    drafts = await club.store.round_pairings(club.guild, "Club Night")
    assert sorted(drafts) == [1, 2, 3, 4] and all(d.published for d in drafts.values())
    for r, draft in drafts.items():
        request = prepare(state.tournament, r, rounds=4)
        assert pairing_problems(request, draft.pairing) == []
    # Every game has its colour from the published board; the byes were given.
    entries = [e for p in state.tournament.players for e in p.entries]
    assert all(e.colour is not None for e in entries if e.kind.played)
    assert [e.kind for e in state.tournament.player(3).entries][1] is EntryKind.HALF_BYE
    assert sum(e.kind is EntryKind.PAIRING_BYE for e in entries) == 3
    standings = await club.ok("alice", "standings")
    assert "Club Night" in standings.embeds[0]["title"]


async def test_only_a_td_pairs_and_a_round_waits_for_every_result(club: Club) -> None:
    await running_tournament(club, rounds=4, players=PLAYERS)
    refused = await club.refused("alice", "round pair")
    assert "tournament director" in refused.text
    await club.ok("td", "round pair")
    waiting = await club.refused("td", "round pair")
    assert waiting.text.startswith("Round 2 cannot be paired before every result is in: round 1")
    early = await club.refused("alice", "bye request", {"round": 1})
    assert early.text == "Round 1 is already paired: ask a TD for a bye in it."


async def test_report_without_an_opponent_needs_a_published_board(club: Club) -> None:
    await running_tournament(club, rounds=4, players=PLAYERS)
    refused = await club.refused("alice", "report", {"round": 1, "result": "win"})
    assert refused.text == "Round 1 has no published board for #1 Alice: name the opponent."
    await club.ok("td", "round preview")  # a draft is not a board yet
    assert (await club.refused("alice", "report", {"round": 1, "result": "win"})).text == (
        refused.text
    )
    published = await club.ok("td", "round pair")
    shown = await club.ok("bob", "round show")
    assert shown.ephemeral and shown.text.splitlines()[1:4] == published.text.splitlines()[1:4]
    message = await club.ok("alice", "report", {"round": 1, "result": "draw"})
    assert message.text.startswith("**Alice** reported round 1: #1 Alice ½-½ #3 Carol")
    game = (await club.store.state(club.guild, "Club Night")).games[0]
    assert game.colour is not None  # from the board: Alice had white


async def test_a_td_swaps_players_in_the_draft_and_the_swap_is_audited(club: Club) -> None:
    await running_tournament(club, rounds=4, players=PLAYERS)
    draft = await club.ok("td", "round preview")
    assert "1. 1 Alice (0) – 3 Carol (0)" in draft.text.splitlines()
    swapped = await club.ok("td", "round swap", {"player": "#3", "other": "#5"})
    assert swapped.text.splitlines()[1:4] == [
        "1. 1 Alice (0) – 5 Erin (0)",
        "2. 4 Dave (0) – 2 Bob (0)",
        "3 Carol (0): pairing-allocated bye",
    ]
    published = await club.ok("td", "round pair")
    assert published.text.splitlines()[1:4] == swapped.text.splitlines()[1:4]
    history = await club.ok("td", "result history")
    described = history.embeds[0]["description"]
    assert "Tina Director swapped #3 Carol and #5 Erin in the draft" in described
    assert "Tina Director published the pairing #" in described
    assert "Tina Director gave a bye: #3 Carol: pairing-allocated bye" in described
    # Published: a swap now needs the publication undone first.
    late = await club.refused("td", "round swap", {"player": "#1", "other": "#2"})
    assert "already published" in late.text


async def test_a_swap_into_a_rematch_is_refused(club: Club) -> None:
    await running_tournament(club, rounds=4, players=PLAYERS)
    await club.ok("td", "round pair")
    rng = random.Random(1)
    await _play(club, 1, rng)
    draft = await club.ok("td", "round preview")
    drafts = await club.store.round_pairings(club.guild, "Club Night")
    first = drafts[2].pairing.boards[0]
    # Put Alice's round-1 opponent, Carol, on Alice's board in round 2.
    alice_board = drafts[2].pairing.board_of(1)
    assert alice_board is not None and draft.ephemeral
    other = alice_board.opponent_of(1)
    refused = await club.refused("td", "round swap", {"player": f"#{other}", "other": "#3"})
    assert "That swap breaks the pairing rules" in refused.text and "[C1]" in refused.text
    assert first == (await club.store.round_pairings(club.guild, "Club Night"))[2].pairing.boards[0]


async def test_undoing_a_publication_makes_the_round_a_draft_again(club: Club) -> None:
    await running_tournament(club, rounds=4, players=PLAYERS)
    await club.ok("td", "round pair")
    history = await club.store.history(club.guild, "Club Night")
    publish = next(e for e in history if e.event.kind is EventKind.PUBLISH)
    await club.ok("td", "result undo", {"event": publish.seq})
    drafts = await club.store.round_pairings(club.guild, "Club Night")
    assert not drafts[1].published
    again = await club.ok("td", "round pair")
    assert again.text.startswith("**Pairings: Club Night, round 1 of 4**")


async def test_a_bye_requested_ahead_is_not_a_round_played(club: Club) -> None:
    """A bye asked for a later round is not a result of that round: /standings,
    /tournament info and /crosstable all count the rounds played as core does
    (core.model.as_played), not the rounds that have an entry."""
    await running_tournament(club, rounds=4, players=PLAYERS)
    await club.ok("td", "round pair")
    await _play(club, 1, random.Random(1))
    await club.ok("carol", "bye request", {"round": 3})
    standings = await club.ok("alice", "standings")
    assert standings.embeds[0]["title"] == "Club Night — standings after round 1 of 4"
    info = await club.ok("alice", "tournament info")
    fields = {f["name"]: f["value"] for f in info.embeds[0]["fields"]}
    assert fields["Rounds with results"] == "1 of 4"
    table = await club.ok("alice", "crosstable")
    assert "Crosstable of **Club Night** after 1 of 4 rounds, 5 players" in table.text


async def test_before_any_result_the_bye_players_are_not_ranked_first(club: Club) -> None:
    """Right after round 1 is paired (one player given the pairing-allocated bye) with a
    half-point bye asked for round 2, no round has been played (core.model.as_played):
    /standings says so instead of ranking the byes after round 2."""
    await running_tournament(club, rounds=4, players=PLAYERS)
    await club.ok("td", "round pair")
    await club.ok("carol", "bye request", {"round": 2})
    refused = await club.refused("alice", "standings")
    assert refused.text == "Club Night has no results yet."
    info = await club.ok("alice", "tournament info")
    fields = {f["name"]: f["value"] for f in info.embeds[0]["fields"]}
    assert fields["Rounds with results"] == "0 of 4"


async def test_a_withdrawal_by_default_starts_with_the_next_round_to_pair(club: Club) -> None:
    """Without a first round, a withdrawal starts with the round the late-entry rule enters
    (the next round to pair): a bye asked ahead for round 3 does not move it to round 4,
    and a published round the player is paired in is not taken from them."""
    await running_tournament(club, rounds=4, players=PLAYERS)
    await club.ok("td", "round pair")
    await club.ok("carol", "bye request", {"round": 3})
    paired = await club.ok("td", "player withdraw", {"player": "dave"})
    assert paired.text.endswith("is withdrawn from round 2 on.")
    await _play(club, 1, random.Random(3))
    gone = await club.ok("td", "player withdraw", {"player": "erin"})
    assert gone.text.endswith("is withdrawn from round 2 on.")


async def test_without_the_pairing_extra_a_td_is_told_what_to_install(
    club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The engine is an optional extra: without it the bot runs, and pairing is refused
    with what to install, nothing recorded."""
    await running_tournament(club, rounds=4, players=PLAYERS)
    monkeypatch.setitem(sys.modules, "gacrux", None)  # as if harkness[pairing] were missing
    monkeypatch.delitem(sys.modules, "gacrux.pairingchecker", raising=False)
    monkeypatch.delitem(sys.modules, "gacrux.trf2json", raising=False)
    for command in ("round preview", "round pair"):
        refused = await club.refused("td", command)
        assert "pip install 'harkness[pairing]'" in refused.text, refused.text
    assert await club.store.round_pairings(club.guild, "Club Night") == {}


async def test_a_bye_asked_ahead_does_not_keep_a_late_entry_out_of_the_next_round(
    club: Club,
) -> None:
    """A member who joins after round 1 enters round 2 (the next to pair), even when
    someone has already asked for a bye in round 3."""
    await running_tournament(club, rounds=4, players=PLAYERS[:4])
    await club.ok("td", "round pair")
    await _play(club, 1, random.Random(2))
    await club.ok("carol", "bye request", {"round": 3})
    await club.ok("erin", "join")
    erin = next(p for p in await club.store.players(club.guild, "Club Night") if p.number == 5)
    assert erin.late_entry_round == 2
    await club.ok("td", "round pair")
    drafts = await club.store.round_pairings(club.guild, "Club Night")
    pairing = drafts[2].pairing
    paired = {n for b in pairing.boards for n in (b.white, b.black)} | {pairing.bye}
    assert 5 in paired


async def test_players_a_td_keeps_apart_are_never_paired_together(club: Club) -> None:
    """Round 1 pairs Alice with Carol; kept apart, they are not, and the list says so."""
    await running_tournament(club, rounds=4, players=PLAYERS)
    assert (await club.refused("alice", "round avoid add", {"player": "#1", "other": "#3"})).text
    added = await club.ok("td", "round avoid add", {"player": "#1", "other": "#3"})
    assert (
        added.text == "✅ #1 Alice – #3 Carol will not be paired together in Club Night (group 1)."
    )
    listed = await club.ok("td", "round avoid list")
    assert listed.text == "Never paired together in Club Night:\n1. #1 Alice – #3 Carol"
    draft = await club.ok("td", "round preview")
    boards = draft.text.splitlines()[1:3]
    assert boards == ["1. 1 Alice (0) – 4 Dave (0)", "2. 3 Carol (0) – 2 Bob (0)"]
    swap = await club.refused("td", "round swap", {"player": "#3", "other": "#4"})
    assert swap.text.endswith(
        "kept apart (/round avoid, or the imported file): players 1 and 3 are to be kept apart."
    )
    again = await club.refused("td", "round avoid add", {"player": "#3", "other": "#1"})
    assert "kept apart already" in again.text
    await club.ok("td", "round avoid remove", {"group": 1})
    assert (await club.ok("td", "round avoid list")).text == "Club Night keeps no players apart."
    draft = await club.ok("td", "round preview")
    assert draft.text.splitlines()[1] == "1. 1 Alice (0) – 3 Carol (0)"


async def test_a_draft_that_pairs_players_kept_apart_since_is_not_published(club: Club) -> None:
    await running_tournament(club, rounds=4, players=PLAYERS)
    draft = await club.ok("td", "round preview")
    assert draft.text.splitlines()[1] == "1. 1 Alice (0) – 3 Carol (0)"
    await club.ok("td", "round avoid add", {"player": "#1", "other": "#3"})
    stale = await club.refused("td", "round pair")
    assert stale.text == (
        "The draft of round 1 no longer fits the tournament (player 1, round 1: kept apart "
        "(/round avoid, or the imported file): players 1 and 3 are to be kept apart): pair "
        "it again."
    )


EIGHT = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")


async def test_accelerated_pairings_are_announced_before_round_one(club: Club) -> None:
    """FIDE's Baku Acceleration (C.04.5.1): of 8 players the top 4 start with a virtual
    point, so round 1 pairs 1–4 among themselves (1–3, 4–2) and 5–8 (5–7, 8–6), not 1–5."""
    await running_tournament(club, rounds=5, players=())
    for name in EIGHT:  # unrated: C.04.2 orders them by name, as they were entered
        await club.ok("td", "player add", {"name": name})
    plain = await club.ok("td", "round preview")
    assert plain.text.splitlines()[1] == "1. 1 Ann (0) – 5 Eve (0)"
    # A draft exists: round 1 counts as paired.
    refused = await club.refused("td", "round accelerate", {"method": "baku"})
    assert "has paired round 1 already" in refused.text
    await club.ok("td", "result undo", {})
    announced = await club.ok("td", "round accelerate", {"method": "baku"})
    assert "Baku Acceleration" in announced.text
    draft = await club.ok("td", "round preview")
    assert draft.text.splitlines()[1:5] == [
        "1. 1 Ann (0) – 3 Cat (0)",
        "2. 4 Dan (0) – 2 Ben (0)",
        "3. 5 Eve (0) – 7 Gus (0)",
        "4. 8 Hal (0) – 6 Fay (0)",
    ]
