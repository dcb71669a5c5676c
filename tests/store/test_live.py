"""The store keeps each tournament's fold and brings it up to date at the cost of what
changed: a write folds its own event (an undo replays its round), never the log again; what
another process wrote is read as the next events; a write that does not commit leaves no
trace; what is kept stays within its byte bound, with a share a server; and the server's
limits refuse in words before any work."""

from __future__ import annotations

import pytest

from bot.store import Store, StoreError, limits, queries
from bot.store.fold import fold
from bot.store.model import EventKind
from bot.store.results import Change
from core.formats.trf import write_trf
from core.model import EntryKind
from tests.generate import random_swiss
from tests.store.conftest import GUILD, OTHER_GUILD, TD

#: A section's file: 40 players × 7 rounds (about 150 events once imported).
OPEN = write_trf(random_swiss(40, 7, seed=11))


async def _imported(store: Store, name: str = "Open", guild: str = GUILD) -> int:
    info = await store.import_tournament(guild, name, OPEN, actor=TD, filename="open.trf")
    return info.id


async def _as_the_log_says(store: Store, guild: str, name: str) -> None:
    """The store's state is the fold of the whole log as the database has it."""
    state = await store.state(guild, name)
    async with store.engine.connect() as conn:
        info = await queries.find_tournament(conn, guild, name)
        players = await queries.load_players(conn, guild, info.id)
        events = await queries.load_events(conn, guild, info.id)
    whole = fold(players, events, info)
    assert state.tournament == whole.tournament
    assert state.marks == whole.marks
    assert [g.status for g in state.games] == [g.status for g in whole.games]


async def test_a_write_folds_its_own_event_and_never_reads_the_log_again(store: Store):
    tid = await _imported(store)
    await store.standings(GUILD, "Open")
    kept = store.folds.fold_of(GUILD, tid)
    assert kept is not None
    read, stepped, size = store.folds.events_read, kept.stepped, kept.size
    assert read == size > 100  # the first read folded the log once

    await store.set_result(GUILD, "Open", TD, round=7, player="#1", opponent="#2", result="draw")
    await store.set_bye(GUILD, "Open", TD, round=7, player="#3", kind="half")
    assert store.folds.events_read == read  # nothing read whole again
    assert store.folds.fold_of(GUILD, tid) is kept
    assert (kept.stepped, kept.size) == (stepped + 2, size + 2)

    # An undo replays the events of its round, not the log.
    round_7 = kept.stepped
    await store.undo(GUILD, "Open", TD)
    replayed = kept.stepped - round_7
    assert 0 < replayed < size / 3
    assert store.folds.events_read == read
    await _as_the_log_says(store, GUILD, "Open")


async def test_what_another_process_writes_is_read_as_the_next_events(store: Store, db_url: str):
    tid = await _imported(store)
    await store.standings(GUILD, "Open")
    read = store.folds.events_read
    other = await Store.open(db_url, migrate=False)  # another bot shard on the database
    try:
        await other.set_result(
            GUILD, "Open", TD, round=1, player="#1", opponent="#2", result="loss"
        )
        await other.add_player(GUILD, "Open", "Late Comer", actor=TD)
        await other.set_bye(GUILD, "Open", TD, round=2, player="#3", kind="zero")
    finally:
        await other.close()
    state = await store.state(GUILD, "Open")
    assert [p.name for p in state.players][-1] == "Late Comer"
    assert str(state.tournament.player(1).entries[0]).startswith("L")
    assert str(state.tournament.player(3).entries[1]) == "U"
    other = await Store.open(db_url, migrate=False)
    try:
        await other.undo(GUILD, "Open", TD)  # the zero-point bye: round 2 as it was
    finally:
        await other.close()
    state = await store.state(GUILD, "Open")
    assert str(state.tournament.player(3).entries[1]) != "U"
    assert store.folds.events_read == read
    assert store.folds.fold_of(GUILD, tid) is not None
    await _as_the_log_says(store, GUILD, "Open")


async def test_a_write_that_does_not_commit_leaves_the_fold_as_the_database_has_it(
    store: Store,
):
    tid = await _imported(store)
    before = await store.state(GUILD, "Open")

    async def append_then_fail(change: Change) -> None:
        player = change.player("#5").id
        await change.append(EventKind.BYE, round=7, player=player, result=EntryKind.HALF_BYE)
        raise StoreError("changed my mind", "test")

    with pytest.raises(StoreError, match="changed my mind"):
        await store._change(GUILD, "Open", TD, append_then_fail)
    assert store.folds.fold_of(GUILD, tid) is None  # let go: read again when needed
    after = await store.state(GUILD, "Open")
    assert after.tournament == before.tournament and after.last_seq == before.last_seq


async def test_what_is_kept_stays_within_its_bytes_and_a_server_within_its_share(db_url: str):
    store = await Store.open(db_url, cache_bytes=700_000, guild_cache_bytes=450_000)
    try:
        await _imported(store, "Night", guild=OTHER_GUILD)
        night = await store.standings(OTHER_GUILD, "Night")
        for n in range(4):  # one server's sections, and their standings after each round
            await _imported(store, f"Open {n}")
            for k in (None, 3, 5):
                await store.standings(GUILD, f"Open {n}", after_round=k)
                assert store.kept.size() <= 700_000
                assert store.kept.size(GUILD) <= 450_000
        assert store.kept.size(OTHER_GUILD) > 0  # the other server's were not pushed out
        assert await store.standings(OTHER_GUILD, "Night") is night
    finally:
        await store.close()


async def test_a_servers_limits_refuse_in_words_before_any_work(
    store: Store, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setattr(limits, "MAX_TOURNAMENTS", 2)
    store.imports = limits.ImportWindow(per_hour=1)
    await _imported(store, "First")
    await store.create_tournament(GUILD, "Second", rounds=3, actor=TD)
    with pytest.raises(StoreError, match="already has 2 tournaments, the most") as refused:
        await store.create_tournament(GUILD, "Third", rounds=3, actor=TD)
    assert refused.value.code == "too-many-tournaments"
    await store.create_tournament(OTHER_GUILD, "Theirs", rounds=3, actor=TD)  # per server

    monkeypatch.setattr(limits, "MAX_TOURNAMENTS", 100)
    with pytest.raises(StoreError, match="started 1 imports in the last hour") as refused:
        await store.import_tournament(GUILD, "Again", b"not even read", actor=TD)  # after "First"
    assert refused.value.code == "too-many-imports"

    store.imports = limits.ImportWindow()
    monkeypatch.setattr(limits, "MAX_GUILD_EVENTS", 200)  # "First" keeps about 150
    with pytest.raises(StoreError, match="keeps at most 200") as refused:
        await _imported(store, "Big")
    assert refused.value.code == "too-many-events"
    assert [t.name for t in await store.tournaments(GUILD)] == ["Second", "First"]

    monkeypatch.setattr(limits, "MAX_EVENTS", (await store.state(GUILD, "First")).last_seq)
    with pytest.raises(StoreError, match="the most one tournament keeps") as refused:
        await store.set_bye(GUILD, "First", TD, round=7, player="#1", kind="half")
    assert refused.value.code == "log-full"
