"""Tournaments, players and guild settings, each guild in a world of its own."""

from __future__ import annotations

import pytest

from bot.store import Actor, DiscordUser, ResultStatus, Store, StoreError, TournamentStatus
from tests.store.conftest import ANN, BOB, CAT, EVE, GUILD, OTHER_GUILD, TD, Club, user

DAN_TWIN = Actor("906", "Alice")


async def test_a_new_tournament_has_the_rules_rounds_and_creator_it_was_given(store: Store):
    info = await store.create_tournament(
        GUILD, "  Spring   Open ", rounds=5, actor=TD, profile="MCA", tiebreaks="mm, solk, h2h"
    )
    assert (info.name, info.profile, info.tiebreaks, info.rounds) == (
        "Spring Open",
        "mca",
        "MM,SOLK,H2H",
        5,
    )
    assert info.status is TournamentStatus.REGISTERING and info.created_by == TD.user
    assert (await store.tournament(GUILD, "spring open")).id == info.id


async def test_a_name_is_taken_whatever_its_case_but_free_in_another_guild(store: Store):
    await store.create_tournament(GUILD, "Spring Open", rounds=5, actor=TD)
    with pytest.raises(StoreError) as taken:
        await store.create_tournament(GUILD, "SPRING  open", rounds=4, actor=TD)
    assert taken.value.code == "name-taken"
    assert str(taken.value) == "there is already a tournament called 'Spring Open' here"
    elsewhere = await store.create_tournament(OTHER_GUILD, "Spring Open", rounds=4, actor=TD)
    assert elsewhere.guild == OTHER_GUILD


async def test_a_name_differing_only_by_characters_that_show_nothing_is_the_same_name(
    club: Club,
):
    eve = await club.store.join(GUILD, club.name, EVE, name="Alice Archer")
    with pytest.raises(StoreError) as taken:
        await club.store.join(GUILD, club.name, DAN_TWIN, name="Alice\u200b Archer")
    assert taken.value.code == "name-taken"
    assert (await club.store.player(GUILD, club.name, "alice\u2060 archer")).number == eve.number
    with pytest.raises(StoreError) as spaced:
        await club.store.create_tournament(GUILD, "Club\u200b\u00ad Night", rounds=3, actor=TD)
    assert spaced.value.code == "name-taken"


@pytest.mark.parametrize("blank", ["\u200b", "\u3164 \u115f", "\u2800\u2060", "\ufe0f"])
async def test_a_name_of_only_characters_that_show_nothing_is_refused(club: Club, blank: str):
    with pytest.raises(StoreError) as invisible:
        await club.store.join(GUILD, club.name, EVE, name=blank)
    assert invisible.value.code == "bad-name"
    assert "visible character" in str(invisible.value)


async def test_another_guilds_tournament_is_invisible_to_every_operation(club: Club):
    store, name = club.store, club.name
    said = await club.report(ANN, 1, BOB, "win")
    attempts = [
        store.tournament(OTHER_GUILD, name),
        store.state(OTHER_GUILD, name),
        store.players(OTHER_GUILD, name),
        store.history(OTHER_GUILD, name),
        store.export(OTHER_GUILD, name, "crosstable"),
        store.join(OTHER_GUILD, name, EVE),
        store.report(OTHER_GUILD, name, ANN, round=1, opponent=user(BOB), result="win"),
        store.confirm(OTHER_GUILD, name, TD, said.event.seq),
        store.undo(OTHER_GUILD, name, TD),
        store.set_status(OTHER_GUILD, name, TournamentStatus.FINISHED, TD),
        store.linked.pending_writes(OTHER_GUILD, name),
    ]
    for attempt in attempts:
        with pytest.raises(StoreError) as error:
            await attempt
        assert error.value.code == "unknown-tournament"
        assert str(error.value) == "there is no tournament called 'Club Night' here"
    assert await store.tournaments(OTHER_GUILD) == []
    assert len(await store.history(GUILD, name)) == 1


async def test_tournaments_are_listed_newest_first_and_filtered_by_what_was_typed(
    store: Store, clock
):
    for name in ("Spring Open", "Summer Swiss", "Spring Rapid", "50% Off_Blitz"):
        clock.advance(60)
        await store.create_tournament(GUILD, name, rounds=3, actor=TD)
    assert [t.name for t in await store.tournaments(GUILD, typed="spr")] == [
        "Spring Rapid",
        "Spring Open",
    ]
    assert [t.name for t in await store.tournaments(GUILD, limit=2)] == [
        "50% Off_Blitz",
        "Spring Rapid",
    ]
    assert [t.name for t in await store.tournaments(GUILD, typed="0%")] == ["50% Off_Blitz"]
    assert await store.tournaments(GUILD, typed="f_b") == await store.tournaments(GUILD, typed="50")
    assert await store.tournaments(GUILD, status=TournamentStatus.RUNNING) == []


@pytest.mark.parametrize(
    ("profile", "tiebreaks", "words"),
    [
        ("lichess", None, "unknown rule profile 'lichess': choose one of uscf, mdchess"),
        ("lichess", "MM,XYZ", "unknown rule profile 'lichess': choose one of uscf, mdchess"),
        ("uscf", "MM,XYZ", "tiebreaks: unknown code 'XYZ' for profile uscf"),
        ("uscf", "COIN,MM", "tiebreaks: COIN (a coin flip) can only be the last tiebreak"),
    ],
)
async def test_unknown_rules_are_refused_with_the_choices(store: Store, profile, tiebreaks, words):
    with pytest.raises(StoreError) as error:
        await store.create_tournament(
            GUILD, "X", rounds=3, actor=TD, profile=profile, tiebreaks=tiebreaks
        )
    assert str(error.value).startswith(words)


async def test_fide_rules_and_a_changed_order_are_accepted(club: Club):
    info = await club.store.set_rules(GUILD, club.name, TD, profile="fide", tiebreaks="BH,SB")
    assert (info.profile, info.tiebreaks) == ("fide", "BH,SB")


async def test_profile_options_are_kept_only_where_they_differ_from_the_profile(club: Club):
    info = await club.store.set_rules(
        GUILD,
        club.name,
        TD,
        profile="uscf",
        options={"cumulative-half-bye": True, "unplayed-rule": True},
    )
    assert info.options == "cumulative-half-bye=yes"
    assert (await club.store.tournament(GUILD, club.name)).option_values == {
        "cumulative-half-bye": True
    }
    info = await club.store.set_rules(
        GUILD, club.name, TD, profile="swisssys", options={"cumulative-half-bye": True}
    )
    assert (info.profile, info.options) == ("swisssys", None)
    with pytest.raises(StoreError) as error:
        await club.store.set_rules(
            GUILD, club.name, TD, profile="fide", options={"unplayed-rule": False}
        )
    assert error.value.code == "bad-options"
    assert "only for the US Chess profiles" in str(error.value)


@pytest.mark.parametrize("rounds", [0, 100])
async def test_rounds_are_between_one_and_ninety_nine(store: Store, rounds: int):
    with pytest.raises(StoreError) as error:
        await store.create_tournament(GUILD, "X", rounds=rounds, actor=TD)
    assert error.value.code == "bad-rounds"


async def test_starting_records_the_date_and_finishing_early_keeps_the_rounds_played(club: Club):
    info = await club.store.tournament(GUILD, club.name)
    assert info.status is TournamentStatus.RUNNING and info.start_date == "2026-03-14"
    await club.report(ANN, 1, BOB, "win")
    done = await club.store.set_status(GUILD, club.name, TournamentStatus.FINISHED, TD)
    assert (done.status, done.rounds, done.end_date) == (TournamentStatus.FINISHED, 1, "2026-03-14")
    with pytest.raises(StoreError) as member:
        await club.store.set_status(GUILD, club.name, TournamentStatus.RUNNING, ANN)
    assert member.value.code == "not-td"


async def test_members_join_once_with_the_next_starting_number(club: Club):
    assert [p.label for p in (club.ann, club.bob, club.cat, club.dan)] == [
        "#1 Ann",
        "#2 Bob",
        "#3 Cat",
        "#4 Dan",
    ]
    assert club.ann.discord_id == ANN.user and club.ann.late_entry_round is None
    with pytest.raises(StoreError) as twice:
        await club.store.join(GUILD, club.name, ANN, name="Ann Again")
    assert str(twice.value) == "<@901> is already registered in Club Night as #1 Ann"


async def test_a_player_who_joins_after_round_one_is_a_late_entry(club: Club):
    await club.report(ANN, 1, BOB, "win")
    eve = await club.store.join(GUILD, club.name, EVE, name="Eve Late", rating=1500)
    assert (eve.number, eve.late_entry_round, eve.rating) == (5, 2, 1500)
    assert await club.entries(5) == [""]


async def test_no_one_joins_a_finished_tournament(club: Club):
    await club.store.set_status(GUILD, club.name, TournamentStatus.FINISHED, TD)
    with pytest.raises(StoreError) as error:
        await club.store.join(GUILD, club.name, EVE)
    assert str(error.value) == "Club Night is finished: no one can join it now"


async def test_a_td_adds_and_links_players_and_members_cannot(club: Club):
    with pytest.raises(StoreError):
        await club.store.add_player(GUILD, club.name, "Fay", actor=ANN)
    fay = await club.store.add_player(
        GUILD, club.name, "Fay", actor=TD, rating=1900, uscf_id="12345678"
    )
    assert fay.discord_id is None and fay.uscf_id == "12345678"
    linked = await club.store.link_player(GUILD, club.name, "fay", "906", TD)
    assert linked.discord_id == "906"
    assert (await club.store.player(GUILD, club.name, DiscordUser("906"))).name == "Fay"
    with pytest.raises(StoreError) as taken:
        await club.store.link_player(GUILD, club.name, 5, ANN.user, TD)
    assert str(taken.value) == "<@901> is already linked to #1 Ann"
    state = await club.store.state(GUILD, club.name)
    assert state.tournament.player(5).external_ids == (("discord", "906"), ("uscf", "12345678"))


async def test_players_autocomplete_by_what_was_typed(club: Club):
    await club.store.add_player(GUILD, club.name, "Annabel", actor=TD)
    assert [p.name for p in await club.store.players(GUILD, club.name, typed="an")] == [
        "Ann",
        "Annabel",
        "Dan",
    ]
    assert [p.name for p in await club.store.players(GUILD, club.name, typed="3")] == ["Cat"]
    assert len(await club.store.players(GUILD, club.name, typed="a", limit=2)) == 2


async def test_a_name_that_fits_two_players_asks_for_the_number(club: Club):
    await club.store.add_player(GUILD, club.name, "Ann", actor=TD)
    with pytest.raises(StoreError) as error:
        await club.store.player(GUILD, club.name, "ann")
    assert error.value.code == "ambiguous-player"
    assert str(error.value) == "'ann' could be #1 Ann, #5 Ann: give the starting number (e.g. #1)"


async def test_the_td_role_is_a_setting_of_each_guild(store: Store):
    assert await store.td_role(GUILD) is None
    await store.set_td_role(GUILD, "role-7", TD)
    await store.set_td_role(GUILD, "role-8", TD)
    await store.set_setting(OTHER_GUILD, "td_role", "role-1", TD)
    assert (await store.td_role(GUILD), await store.td_role(OTHER_GUILD)) == ("role-8", "role-1")
    await store.set_td_role(GUILD, None, TD)
    assert await store.td_role(GUILD) is None and await store.td_role(OTHER_GUILD) == "role-1"


async def test_standings_count_provisional_results_and_mark_them(club: Club):
    said = await club.report(ANN, 1, BOB, "win")
    await club.store.set_result(GUILD, club.name, TD, round=1, player=3, opponent=4, result="draw")
    await club.report(ANN, 2, CAT, "win")
    table = await club.store.standings(GUILD, club.name)
    assert [(r.place, r.player.name, str(r.score)) for r in table.standings.rows] == [
        ("1", "Ann", "2"),
        ("2", "Cat", "1/2"),
        ("3", "Dan", "1/2"),
        ("4", "Bob", "0"),
    ]
    assert [table.marked(n) for n in (1, 2, 3, 4)] == [ResultStatus.PROVISIONAL] * 3 + [None]
    await club.store.confirm(GUILD, club.name, BOB, said.event.seq)
    after_one = await club.store.standings(GUILD, club.name, after_round=1)
    assert after_one.after_round == 1 and after_one.marked(1) is None
    with pytest.raises(StoreError) as error:
        await club.store.standings(GUILD, club.name, after_round=3)
    assert str(error.value) == "round 3 has no results: Club Night has results for rounds 1–2"


async def test_standings_of_a_tournament_without_results_say_so(club: Club):
    with pytest.raises(StoreError) as error:
        await club.store.standings(GUILD, club.name)
    assert str(error.value) == "Club Night has no results yet"


async def test_standings_are_kept_until_the_log_the_players_or_the_rules_change(club: Club):
    """Asked again with nothing changed, the standings are the ones computed before (the log
    is not read again); a new event, a new player or other rules compute them again."""
    await club.report(ANN, 1, BOB, "win")
    first = await club.store.standings(GUILD, club.name)
    assert await club.store.standings(GUILD, club.name) is first
    await club.store.set_result(GUILD, club.name, TD, round=1, player=3, opponent=4, result="draw")
    second = await club.store.standings(GUILD, club.name)
    assert second is not first
    assert [str(r.score) for r in second.standings.rows] != [
        str(r.score) for r in first.standings.rows
    ]
    assert await club.store.standings(GUILD, club.name) is second
    await club.store.set_rules(GUILD, club.name, TD, profile="mca")
    third = await club.store.standings(GUILD, club.name)
    assert third is not second and third.standings.profile.name == "mca"
    await club.store.add_player(GUILD, club.name, "Eve", actor=TD)
    assert await club.store.standings(GUILD, club.name) is not third
