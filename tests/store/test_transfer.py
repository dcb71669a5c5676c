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


# Round 2: Ann and Cy both stayed away (TRF-16 '-' on both lines); Ann's points column says 2.0.
DOUBLE = (
    "012 Double\nXXR 2\n"
    "001    1      Ann                                                                2.0    1"
    "     2 w 1     3 b -\n"
    "001    2      Bob                                                                0.0    2"
    "     1 b 0     0 - F\n"
    "001    3      Cy                                                                 0.0    3"
    "     0 - H     1 w -\n"
)


async def test_a_double_forfeit_imports_exports_and_warns_about_the_points(store: Store):
    original = read_trf(DOUBLE)
    warnings: list = []
    await store.import_tournament(
        GUILD, "Double", DOUBLE, actor=TD, filename="double.trf", warnings=warnings
    )
    assert [(w.player, w.line) for w in warnings] == [(1, 3), (2, 4), (3, 5)]
    assert "Ann" in warnings[0].message
    state = await store.state(GUILD, "Double")
    assert same_section(state.tournament, original)
    assert state.tournament.player(3).entries[1].kind.value == "forfeit loss"
    back = read_trf(await store.export(GUILD, "Double", "trf", with_standings=False))
    assert same_section(back, original)
    (game,) = [g for g in state.games if g.round == 2]
    assert game.double and game.score == "-/-"


async def test_a_td_sets_a_double_forfeit_and_can_change_it(club: Club):
    said = await club.store.set_result(
        GUILD, club.name, TD, round=1, player=1, opponent=2, result="double forfeit"
    )
    assert said.changed and "#1 Ann -/- #2 Bob (confirmed)" in said.message
    assert (await club.entries(1))[0] == "F2" and (await club.entries(2))[0] == "F1"
    again = await club.store.set_result(
        GUILD, club.name, TD, round=1, player=2, opponent=1, result="0F-0F"
    )
    assert not again.changed
    single = await club.store.set_result(
        GUILD, club.name, TD, round=1, player=1, opponent=2, result="forfeit loss"
    )
    assert single.changed
    assert (await club.entries(1))[0] == "F2" and (await club.entries(2))[0] == "X1"
    history = await club.store.history(GUILD, club.name, limit=None)
    assert any("-/-" in h.describe() for h in history)


def _real_files() -> list[Path]:
    from tests.shared_data import SHARED

    real = SHARED / "data" / "real"
    return sorted(p for p in real.rglob("*") if p.suffix in {".trf", ".tab", ".txt"})


async def test_every_real_file_imports_as_the_same_tournament(store: Store):
    """``/tournament import`` of every file real software wrote: the store holds what core
    reads (double forfeits included), and the reader's warnings reach the caller."""
    from core.formats import read_tournament
    from tests.shared_data import shared_path

    shared_path("data", "real")
    for n, path in enumerate(_real_files()):
        original = read_tournament(path)
        warnings: list = []
        guild = f"club-{n}"  # a server of its own each: one server's imports an hour are limited
        await store.import_tournament(  # the attachment's bytes, as the bot passes them
            guild, f"Real {n}", path.read_bytes(), actor=TD, filename=path.name, warnings=warnings
        )
        assert [w.player for w in warnings] == [w.player for w in original.warnings], path
        held = (await store.state(guild, f"Real {n}")).tournament
        played = max(
            (r + 1 for p in original for r, e in enumerate(p.entries) if e.kind.value != "absent"),
            default=0,
        )
        assert [p.entries[:played] for p in held] == [
            p.entries[:played] for p in sorted(original, key=lambda p: p.id)
        ], path


def test_an_uploaded_name_that_breaks_the_name_rules_is_refused_at_its_player() -> None:
    from bot.store.transfer import read_upload

    with pytest.raises(StoreError) as error:
        read_upload("#\tName\tRd 1\n1\tAnn\u202e\tH\n", "club.txt")
    assert str(error.value) == (
        "club.txt cannot be imported:\n"
        "player 1: a name cannot hold control characters (U+202E at character 4)"
    )
