"""Files in and out: import a TRF-16 or crosstable file as a new tournament, export any
tournament as TRF-16 or crosstable text.

An import writes one TD event per result (source ``import``): a ``set`` for each game or
forfeit (once per pair), a ``bye`` for each bye, a ``withdraw`` where a player's rounds end
in withdrawal. Exporting the import gives the same tournament back (absent rounds in the
middle of a file stay absent; a non-trailing withdrawn round reads back as absent).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import datetime
from typing import Any

from sqlalchemy import insert
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.store import collector, limits, schema
from bot.store.errors import StoreError, problems_words
from bot.store.model import DOUBLE_FORFEIT, Actor, TournamentInfo
from core.formats import read_bytes, read_text, write_crosstable
from core.limits import shorten
from core.model import BYES, WITH_OPPONENT, EntryKind, Player, Tournament
from core.names import name_problem
from core.problems import HarknessError
from core.standings import Standings

log = logging.getLogger("harkness.bot")
#: Rows of an import inserted by one statement: each is a short step of the event loop.
INSERT_BATCH = 500
#: How many of a file's problems an error message lists.
SHOWN_PROBLEMS = 8


def read_upload(upload: str | bytes, filename: str) -> Tournament:
    """Read an uploaded TRF-16 or crosstable file (its bytes, in any encoding
    :func:`core.formats.decode` reads, or its text), or say (with line numbers) what is
    wrong; every player's name must pass :func:`core.names.name_problem`. Whatever goes
    wrong, the answer is a :class:`StoreError` the TD can read (a failure that is not the
    file's is logged with its traceback)."""
    filename = shorten(filename, 100)
    try:
        tournament = (
            read_bytes(upload, filename)
            if isinstance(upload, bytes)
            else read_text(upload, filename)
        )
        bad = [
            replace(problem, player=p.id)
            for p in tournament.players
            if (problem := name_problem(p.name)) is not None
        ]
        if bad:
            raise HarknessError(bad)
        return tournament
    except HarknessError as error:
        problems = [str(p) for p in error.problems]
        more = len(problems) - SHOWN_PROBLEMS
        listed = "\n".join(problems[:SHOWN_PROBLEMS]) + (f"\n… and {more} more" if more > 0 else "")
        raise StoreError(f"{filename} cannot be imported:\n{listed}", "bad-file") from None
    except Exception:  # not the file's fault as far as core can tell: a bug, said plainly
        log.exception("reading the upload %s failed", filename)
        raise StoreError(
            f"{filename} could not be read, and nothing was imported: Harkness failed on it "
            "(the failure is logged). Check that it is a TRF-16 file or a crosstable as text "
            "or CSV",
            "bad-file",
        ) from None


def player_values(info: TournamentInfo, p: Player, actor: Actor, now: datetime) -> dict[str, Any]:
    ids = dict(p.external_ids)
    return {
        "guild_id": info.guild,
        "tournament_id": info.id,
        "number": p.id,
        "name": " ".join(p.name.split())[:100] or f"Player {p.id}",
        "rating": p.rating,
        "discord_id": ids.get("discord"),
        "uscf_id": ids.get("uscf"),
        "fide_id": p.fide_id or None,
        "title": p.title[:3],
        "sex": p.sex[:1],
        "federation": p.federation[:3],
        "birth_date": p.birth_date[:10],
        "late_entry_round": None,
        "added_by": actor.user,
        "added_at": now,
    }


def result_events(tournament: Tournament) -> list[dict[str, Any]]:
    """The TD events that rebuild ``tournament``, with players by starting number
    (``player``, ``opponent``: :func:`write_import` puts the store's ids in)."""
    out: list[dict[str, Any]] = []
    for r in range(1, tournament.rounds + 1):
        for p in tournament.players:
            entry = p.entries[r - 1]
            if entry.kind in WITH_OPPONENT and entry.opponent is not None:
                if p.id < entry.opponent:
                    theirs = tournament.player(entry.opponent).entries[r - 1]
                    double = entry.kind is theirs.kind is EntryKind.FORFEIT_LOSS
                    out.append(
                        {
                            "kind": "set",
                            "round": r,
                            "player_id": p.id,
                            "opponent_id": entry.opponent,
                            "result": DOUBLE_FORFEIT if double else entry.kind.value,
                            "colour": entry.colour.value if entry.colour else None,
                        }
                    )
            elif entry.kind in BYES:
                out.append(
                    {"kind": "bye", "round": r, "player_id": p.id, "result": entry.kind.value}
                )
    for p in tournament.players:
        after = p.withdrawn_after
        if after is not None:
            out.append({"kind": "withdraw", "round": after + 1, "player_id": p.id})
    return out


def _event_rows(
    events: list[dict[str, Any]], ids: dict[int, int], base: dict[str, Any]
) -> list[dict[str, Any]]:
    """Rows of the events table: the events of :func:`result_events` numbered, with the
    players' ids."""
    rows = []
    for seq, event in enumerate(events, start=1):
        row = {**base, **event, "seq": seq, "player_id": ids[event["player_id"]]}
        if event.get("opponent_id") is not None:
            row["opponent_id"] = ids[event["opponent_id"]]
        rows.append(row)
    return rows


async def write_import(
    conn: AsyncConnection,
    info: TournamentInfo,
    tournament: Tournament,
    actor: Actor,
    now: datetime,
    off_loop: Callable[[Callable[[], Any]], Awaitable[Any]],
    kept_events: int = 0,
) -> None:
    """Insert the players and the result events of an imported tournament, a batch at a
    time (each a short step of the event loop); what costs the section's size is done by
    ``off_loop`` (a worker thread). Refused when its events and the ``kept_events`` of its
    server's other tournaments pass :data:`bot.store.limits.MAX_GUILD_EVENTS`."""
    players = await off_loop(
        lambda: [player_values(info, p, actor, now) for p in tournament.players]
    )
    ids: dict[int, int] = {}
    p = schema.players
    for start in range(0, len(players), INSERT_BATCH):
        batch = players[start : start + INSERT_BATCH]
        rows = await conn.execute(insert(p).returning(p.c.id, p.c.number), batch)
        ids.update((number, id) for id, number in rows)
    base = {
        "guild_id": info.guild,
        "tournament_id": info.id,
        "actor": actor.user,
        "actor_name": actor.label[:100],
        "td": True,
        "source": "import",
        "note": "",
        "created_at": now,
        "round": None,
        "player_id": None,
        "opponent_id": None,
        "result": None,
        "colour": None,
        "refers_to": None,
        "supersedes": None,
    }
    rows = await off_loop(lambda: _event_rows(result_events(tournament), ids, base))
    refusal = limits.too_many_events(kept_events, len(rows))
    if refusal is not None:
        raise refusal
    try:
        for start in range(0, len(rows), INSERT_BATCH):
            await conn.execute(insert(schema.events), rows[start : start + INSERT_BATCH])
    finally:
        collector.let_go(rows)  # half a million rows: freed off the event loop
        collector.let_go(players)
        del rows, players


def export(
    tournament: Tournament, standings: Standings | None, form: str, separator: str = "  "
) -> str:
    """``tournament`` as TRF-16 (``form="trf"``) or crosstable text (``"crosstable"``)."""
    if form == "trf":
        from core.formats.trf import write_trf

        try:
            return write_trf(tournament, standings)
        except HarknessError as error:
            problems = problems_words(error, SHOWN_PROBLEMS)
            raise StoreError(
                f"this tournament cannot be written as TRF-16: {problems}", "bad-format"
            ) from None
    if form == "crosstable":
        return write_crosstable(tournament, standings, separator)
    raise StoreError(f"export as trf or crosstable, not {form!r}", "bad-format")
