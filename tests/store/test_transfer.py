"""Import a TRF-16 or crosstable file into a new tournament; export any tournament as
TRF-16 or crosstable text. What goes in comes back out."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.store import Store, StoreError, TournamentStatus
from core.formats import read_text
from core.formats.crosstable import read_crosstable, write_crosstable
from core.formats.trf import read_trf, write_trf
from core.standings import compute_standings
from tests.generate import random_swiss
from tests.store.conftest import ANN, GUILD, OTHER_GUILD, TD, Club


def same_section(a, b) -> bool:
    return a.rounds == b.rounds and a.players == b.players


async def test_a_crosstable_file_imports_and_exports_unchanged(store: Store, examples: Path):
    text = (examples / "mdchess-scholastic.txt").read_text()
    original = read_text(text, "mdchess-scholastic.txt")
    info = await store.import_tournament(
        GUILD, "Scholastic", text, actor=TD, filename="mdchess-scholastic.txt", profile="mdchess"
    )
    assert info.rounds == original.rounds and info.status is TournamentStatus.RUNNING
    exported = await store.export(GUILD, "Scholastic", "crosstable", with_standings=False)
    assert same_section(read_crosstable(exported), original)
    assert same_section((await store.state(GUILD, "Scholastic")).tournament, original)


async def test_standings_of_an_import_are_cores_standings_of_the_file(store: Store, examples: Path):
    text = (examples / "mdchess-scholastic.txt").read_text()
    await store.import_tournament(GUILD, "Scholastic", text, actor=TD, profile="mdchess")
    expected = compute_standings(read_text(text), "mdchess")
    table = await store.standings(GUILD, "Scholastic")
    assert [(r.place, r.player.id) for r in table.standings.rows] == [
        (r.place, r.player.id) for r in expected.rows
    ]
    assert all(table.marked(r.player.id) is None for r in table.standings.rows)
    csv = await store.export(GUILD, "Scholastic", "crosstable", separator=",")
    assert csv.splitlines()[0].endswith(",Rd 4,Tot,TBrk[M],TBrk[S],TBrk[C],TBrk[O]")


async def test_a_trf_file_imports_and_exports_with_its_header_records(store: Store, examples: Path):
    text = (examples / "club-swiss.trf").read_text()
    original = read_trf(text)
    info = await store.import_tournament(
        GUILD,
        "Autumn Swiss",
        text,
        actor=TD,
        filename="club-swiss.trf",
        status=TournamentStatus.FINISHED,
    )
    assert info.start_date == original.start_date and info.records == original.records
    back = read_trf(await store.export(GUILD, "Autumn Swiss", "trf"))
    assert same_section(back, original)
    assert back.records == original.records


async def test_a_generated_swiss_with_byes_forfeits_and_withdrawals_round_trips(store: Store):
    text = write_trf(random_swiss(60, 7, seed=11))
    original = read_trf(text)  # what the file says (TRF writes a withdrawal as Z)
    await store.import_tournament(
        GUILD, "Big Swiss", text, actor=TD, filename="big.trf", status=TournamentStatus.FINISHED
    )
    back = read_trf(await store.export(GUILD, "Big Swiss", "trf", with_standings=False))
    assert same_section(back, original)
    history = await store.history(GUILD, "Big Swiss", limit=None)
    assert {h.event.source.value for h in history} == {"import"}


async def test_withdrawals_in_a_crosstable_import_as_withdrawal_events(store: Store):
    text = write_crosstable(random_swiss(60, 7, seed=11))
    original = read_crosstable(text)
    assert any(p.withdrawn_after for p in original.players)
    await store.import_tournament(GUILD, "Swiss", text, actor=TD, status=TournamentStatus.FINISHED)
    back = read_crosstable(await store.export(GUILD, "Swiss", "crosstable"))
    assert same_section(back, original)
    kinds = {h.event.kind.value for h in await store.history(GUILD, "Swiss", limit=None)}
    assert kinds == {"set", "bye", "withdraw"}


async def test_an_imported_tournament_goes_on_in_the_store(store: Store, examples: Path):
    text = (examples / "mdchess-scholastic.txt").read_text()
    await store.import_tournament(GUILD, "Scholastic", text, actor=TD, rounds=5)
    said = await store.set_result(
        GUILD, "Scholastic", TD, round=5, player=1, opponent=2, result="win"
    )
    assert said.changed
    assert (await store.state(GUILD, "Scholastic")).tournament.rounds == 5


async def test_a_broken_file_is_refused_with_where_it_is_broken(store: Store):
    text = "#\tName\tRd 1\n1\tAnn\tW2\n2\tBob\tW1\n"
    with pytest.raises(StoreError) as error:
        await store.import_tournament(GUILD, "Broken", text, actor=TD, filename="club.txt")
    assert error.value.code == "bad-file"
    assert str(error.value).startswith("club.txt cannot be imported:\nclub.txt:2:")
    assert await store.tournaments(GUILD) == []  # nothing half-imported


async def test_only_a_td_imports_and_the_name_must_be_free(club: Club, examples: Path):
    text = (examples / "mdchess-scholastic.txt").read_text()
    with pytest.raises(StoreError) as member:
        await club.store.import_tournament(GUILD, "Other", text, actor=ANN)
    with pytest.raises(StoreError) as taken:
        await club.store.import_tournament(GUILD, "club night", text, actor=TD)
    assert member.value.code == "not-td" and taken.value.code == "name-taken"
    assert (await club.store.import_tournament(OTHER_GUILD, "Club Night", text, actor=TD)).id


async def test_an_export_has_provisional_results_but_not_disputed_ones(club: Club):
    from tests.store.conftest import BOB, CAT, DAN

    await club.report(ANN, 1, BOB, "win")
    await club.report(CAT, 1, DAN, "win")
    await club.report(DAN, 1, CAT, "win")
    exported = read_crosstable(await club.store.export(GUILD, club.name, "crosstable"))
    assert [str(p.entries[0]) for p in exported.players] == ["W2", "L1", "", ""]
    with pytest.raises(StoreError) as error:
        await club.store.export(GUILD, club.name, "pgn")
    assert str(error.value) == "export as trf or crosstable, not 'pgn'"
