"""Results through Discord: a member reports their own game, the opponent confirms or
disputes with buttons, TDs set, correct and undo; nobody else touches a game."""

from __future__ import annotations

from bot.store import EventKind, ResultStatus
from tests.bot.support import Club, clicked, reported, running_tournament


async def test_a_report_asks_the_opponent_to_confirm_with_buttons(club: Club) -> None:
    await running_tournament(club)
    message = await reported(club, "alice", 1, "#2", "win")
    bob = club.member("bob")
    assert not message.ephemeral
    assert message.text.splitlines() == [
        "**Alice** reported round 1: #1 Alice 1-0 #2 Bob (provisional).",
        f"<@{bob.id}>, please confirm or dispute it with the buttons below.",
    ]
    assert [b["label"] for b in message.buttons()] == ["Confirm", "Dispute"]
    seq = (await club.store.history(club.guild, "Club Night"))[0].seq
    assert message.button("Confirm")["custom_id"].endswith(f":{seq}")
    # Only the opponent is pinged, whatever else the message says.
    sent = club.fake.requests[-1].json
    mentions = sent["allowed_mentions"]
    assert mentions["parse"] == [] and [str(u) for u in mentions["users"]] == [str(bob.id)]


async def test_the_opponent_confirms_and_the_buttons_go(club: Club) -> None:
    await running_tournament(club)
    message = await reported(club, "alice", 1, "bob", "win")
    after = await clicked(club, "bob", message, "Confirm")
    assert after.id == message.id and after.buttons() == []
    assert after.text.splitlines() == [  # no longer "(provisional)": the verdict says what
        "**Alice** reported round 1: #1 Alice 1-0 #2 Bob.",
        "✅ Confirmed: round 1, #1 Alice 1-0 #2 Bob. — Bob",
    ]
    game = (await club.store.state(club.guild, "Club Night")).games[0]
    assert game.status is ResultStatus.CONFIRMED


async def test_the_reporter_cannot_confirm_their_own_report(club: Club) -> None:
    await running_tournament(club)
    message = await reported(club, "alice", 1, "#2", "draw")
    error = await club.failed(await club.click("alice", message, "Confirm"))
    assert error.text == "You cannot confirm your own report: Bob or a TD must."
    assert club.fake.messages[message.id].buttons() != []  # still waiting for Bob


async def test_a_bystander_cannot_confirm_or_dispute(club: Club) -> None:
    await running_tournament(club)
    message = await reported(club, "alice", 1, "#2", "win")
    for label in ("Confirm", "Dispute"):
        error = await club.failed(await club.click("carol", message, label))
        assert error.text == (f"Only Bob (the opponent) or a TD can {label.lower()} this report.")
    state = await club.store.state(club.guild, "Club Night")
    assert state.games[0].status is ResultStatus.PROVISIONAL


async def test_a_td_can_confirm_for_an_opponent(club: Club) -> None:
    await running_tournament(club)
    message = await reported(club, "alice", 1, "#2", "loss")
    after = await clicked(club, "td", message, "Confirm")
    assert "✅ Confirmed: round 1, #1 Alice 0-1 #2 Bob. — Tina Director" in after.text


async def test_a_disputed_result_waits_for_a_td_and_is_listed(club: Club) -> None:
    await running_tournament(club)
    message = await reported(club, "alice", 1, "#2", "win")
    after = await clicked(club, "bob", message, "Dispute")
    assert after.buttons() == []
    assert (
        "⚠️ Disputed: round 1, #1 Alice 1-0 #2 Bob; the players disagree, so a TD will "
        "decide." in after.text
    )
    listing = await club.ok("td", "result open")
    assert listing.ephemeral
    assert listing.embeds[0]["description"].startswith(
        "⚠️ round 1: #1 Alice 1-0 #2 Bob (disputed) — reports #"
    )
    # The TD decides: a draw.
    decided = await club.ok(
        "td", "result set", {"round": 1, "player": "#1", "opponent": "#2", "result": "draw"}
    )
    assert decided.text == "🛠️ Set: round 1: #1 Alice ½-½ #2 Bob (confirmed). (by Tina Director, TD)"
    assert "Every result is confirmed" in (await club.ok("td", "result open")).text


async def test_conflicting_reports_make_the_game_disputed(club: Club) -> None:
    await running_tournament(club)
    await reported(club, "alice", 1, "#2", "win")
    second = await reported(club, "bob", 1, "#1", "win")
    assert second.buttons() == []
    assert "Disputed" in second.text and "/result set" in second.text
    standings = await club.ok("carol", "standings")
    assert "? disputed game" in standings.text


async def test_the_same_result_from_both_sides_confirms_it(club: Club) -> None:
    await running_tournament(club)
    await reported(club, "alice", 2, "#2", "draw")
    second = await reported(club, "bob", 2, "#1", "draw")
    assert second.text == "Confirmed: round 2, #2 Bob ½-½ #1 Alice."
    assert second.buttons() == []


async def test_reporting_twice_changes_nothing_and_shows_the_buttons_again(club: Club) -> None:
    await running_tournament(club)
    first = await reported(club, "alice", 1, "#2", "win")
    again = await reported(club, "alice", 1, "#2", "win")
    assert again.button("Confirm")["custom_id"] == first.button("Confirm")["custom_id"]
    reports = [
        e
        for e in await club.store.history(club.guild, "Club Night")
        if e.event.kind is EventKind.REPORT
    ]
    assert len(reports) == 1


async def test_a_member_can_only_report_a_tournament_they_play_in(club: Club) -> None:
    await running_tournament(club)
    error = await club.refused("erin", "report", {"round": 1, "opponent": "#1", "result": "win"})
    assert error.text == "You are not registered in Club Night: join it first."


async def test_a_member_cannot_report_against_themselves_or_outside_the_rounds(club: Club) -> None:
    await running_tournament(club, rounds=4)
    itself = await club.refused("alice", "report", {"round": 1, "opponent": "#1", "result": "win"})
    assert itself.text == "A player cannot play themselves."
    late = await club.refused("alice", "report", {"round": 5, "opponent": "#2", "result": "win"})
    assert late.text == "Round 5 is out of range: Club Night has rounds 1–4."


async def test_a_member_cannot_set_someone_elses_result_but_a_td_can(club: Club) -> None:
    await running_tournament(club)
    options = {"round": 1, "player": "#3", "opponent": "#4", "result": "win"}
    error = await club.refused("alice", "result set", options)
    assert error.text.startswith("Only a tournament director can set results")
    assert (await club.store.state(club.guild, "Club Night")).games == ()
    done = await club.ok("td", "result set", options)
    assert "#3 Carol 1-0 #4 Dave (confirmed)" in done.text


async def test_a_confirmed_result_can_only_be_changed_by_a_td(club: Club) -> None:
    await running_tournament(club)
    message = await reported(club, "alice", 1, "#2", "win")
    await clicked(club, "bob", message, "Confirm")
    error = await club.refused("bob", "report", {"round": 1, "opponent": "#1", "result": "win"})
    assert error.text == (
        "Round 1 against #1 Alice is already confirmed as 0-1: ask a TD to correct it."
    )


async def test_a_td_gives_byes_and_withdraws_players(club: Club) -> None:
    await running_tournament(club, players=("alice", "bob", "carol", "dave", "erin"))
    bye = await club.ok("td", "result bye", {"round": 1, "player": "#5", "kind": "half"})
    assert bye.text == "🛠️ #5 Erin has a half-point bye in round 1. (by Tina Director, TD)"
    gone = await club.ok("td", "player withdraw", {"player": "erin", "from_round": 3})
    assert gone.text == "🚪 #5 Erin is withdrawn from round 3 on."
    error = await club.refused("bob", "result bye", {"round": 1, "player": "#2"})
    assert error.text.startswith("Only a tournament director can give byes")


async def test_undo_takes_back_the_last_change_and_undo_again_redoes(club: Club) -> None:
    await running_tournament(club)
    await club.ok(
        "td", "result set", {"round": 1, "player": "#1", "opponent": "#2", "result": "win"}
    )
    undone = await club.ok("td", "result undo")
    assert undone.text.startswith("↩️ Undone: #")
    assert "set #1 Alice 1-0 #2 Bob" in undone.text
    assert (await club.store.state(club.guild, "Club Night")).tournament.rounds == 0
    history = await club.ok("td", "result history")
    lines = history.embeds[0]["description"].splitlines()
    assert "undid" in lines[0] and "[undone]" in lines[1]
    revert_seq = int(lines[0].split()[0].lstrip("#"))
    await club.ok("td", "result undo", {"event": revert_seq})
    assert (await club.store.state(club.guild, "Club Night")).tournament.rounds == 1


async def test_a_member_cannot_undo(club: Club) -> None:
    await running_tournament(club)
    error = await club.refused("alice", "result undo")
    assert error.text.startswith("Only a tournament director can undo changes")


async def test_a_member_joins_once_and_a_td_adds_others(club: Club) -> None:
    await running_tournament(club, players=("alice",))
    joined = await club.ok("bob", "join", {"rating": 1650, "name": "Robert Fischer"})
    assert "#2 Robert Fischer (1650)" in joined.text and "joined **Club Night**" in joined.text
    twice = await club.refused("bob", "join")
    assert twice.text == (
        f"\\<\\@{club.member('bob').id}\\> is already registered in Club Night as "
        "#2 Robert Fischer."
    )
    added = await club.ok("td", "player add", {"name": "Guest Player", "rating": 1400})
    assert "#3 Guest Player (1400) is registered in **Club Night**" in added.text
    member = await club.ok("td", "player add", {"name": "Frank", "member": club.member("frank")})
    assert f"<@{club.member('frank').id}>" in member.text
    refused = await club.refused("carol", "player add", {"name": "Carol's friend"})
    assert refused.text.startswith("Only a tournament director can add other players")


async def test_when_both_players_report_the_first_message_loses_its_buttons(club: Club) -> None:
    await running_tournament(club)
    first = await reported(club, "alice", 1, "#2", "win")
    second = await reported(club, "bob", 1, "#1", "loss")  # the same result: confirmed
    assert second.buttons() == []
    assert "Confirmed" in second.text
    before = club.fake.messages[first.id]
    assert before.buttons() == []
    assert before.text.splitlines() == [
        "**Alice** reported round 1: #1 Alice 1-0 #2 Bob.",
        "✅ Confirmed: round 1, #2 Bob 0-1 #1 Alice. — Bob",
    ]
    # Reports that disagree: the first one's buttons go too (a TD decides).
    first = await reported(club, "carol", 1, "#4", "win")
    await reported(club, "dave", 1, "#3", "win")
    after = club.fake.messages[first.id]
    assert after.buttons() == [] and "⚠️ Disputed" in after.text


async def test_a_td_sets_a_double_forfeit(club: Club) -> None:
    await running_tournament(club)
    options = {"round": 1, "player": "#3", "opponent": "#4", "result": "double forfeit"}
    done = await club.ok("td", "result set", options)
    assert "#3 Carol -/- #4 Dave (confirmed)" in done.text
    state = await club.store.state(club.guild, "Club Night")
    assert [str(state.tournament.player(n).entries[0]) for n in (3, 4)] == ["F4", "F3"]
