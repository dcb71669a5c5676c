"""The merge of the Discord reports into what the TD's tabs say (:func:`merge_reports`),
between reading the cells and building the tournament:

- what the TD typed always wins: a report never changes a cell the TD filled in;
- a cell the TD left empty takes the report (both cells of the game empty, or one empty and
  the other agreeing);
- a report that disagrees with what the TD typed is not applied: it becomes a
  :class:`ReportConflict` on the Errors tab, at the TD's cell. It is listed, never applied
  silently, and it does not hold back the standings (the TD's cell stands).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from core.log import Replay, replay
from core.model import Colour, EntryKind, RoundEntry
from core.results import bye_result, score_result, score_text
from sheets.discord_tabs.players_tab import label, merge_discord_ids, number_of_label
from sheets.discord_tabs.reports_tab import (
    ACTION_WORDS,
    ReportRow,
    read_report_rows,
    row_key,
    row_undoes,
)
from sheets.problems import SheetProblem
from sheets.read import ResultGrid, Rows, Sourced, with_entry

_GAME_ACTIONS = frozenset({"confirm", "report", "set"})


@dataclass(frozen=True, slots=True)
class ReportConflict(SheetProblem):
    """A Discord report that disagrees with what the TD typed: not applied, the TD's cell
    stands. ``cell`` and ``text`` are the TD's; ``key`` is the report's."""

    key: str = ""
    report: str = ""
    """The report in words: ``round 1: #1 Ann 1-0 #2 Bob (confirmed by Bob)``."""


@dataclass(frozen=True, slots=True)
class _Claim:
    entry: RoundEntry
    row: ReportRow


def _how(row: ReportRow) -> str:
    """How a result became final in Discord: ``confirmed by Bob``, ``set by Tess (TD)``."""
    by = row.confirmed_by
    if row.action == "confirm":
        return f"confirmed by {by}" if by else "confirmed"
    if row.action == "report":
        return "reported alike by both players"
    if row.action == "set":
        return f"set by {by} (TD)" if by else "set by a TD"
    return f"{ACTION_WORDS[row.action]} by {by}" if by else ACTION_WORDS[row.action]


def _words(grid: ResultGrid, r: int, p: int, claim: _Claim) -> str:
    entry = claim.entry
    who = label(grid.players[p])
    if entry.opponent is None:
        what = f"{who}: {entry.kind.value}"
    else:
        score = score_result(claim.row.result or "")
        double = score is not None and score.double
        what = f"{who} {score_text(entry.kind, double)} {label(grid.players[entry.opponent])}"
    return f"round {r}: {what} ({_how(claim.row)})"


#: The two sides of a reported game: the reporter's first.
_Sides = tuple[tuple[int, _Claim], tuple[int, _Claim]]


def _fold(
    rows: Sequence[ReportRow], grid: ResultGrid, rounds: int | None, notices: list[SheetProblem]
) -> tuple[dict[tuple[int, int], _Claim], dict[int, _Claim]]:
    """What the reports in force say, per (player, round); and withdrawals, by player
    (the replay is :func:`core.log.replay`'s; this reads the rows and skips what it cannot)."""

    def skip(row: ReportRow, why: str) -> None:
        notices.append(
            SheetProblem(
                f"{why}; this Discord report was not applied", row.cell, row.result or None
            )
        )

    def step(state: Replay[_Sides, _Claim, _Claim], row: ReportRow) -> None:
        r = row.round
        if r is None or r < 1:
            skip(row, "the round is missing")
            return
        if rounds is not None and r > rounds:
            skip(row, f"round {r} is beyond the {rounds} rounds of the Harkness tab")
            return
        p = number_of_label(row.player, grid.players)
        if isinstance(p, str):
            skip(row, p)
            return
        if row.action in _GAME_ACTIONS:
            score = score_result(row.result)
            q = number_of_label(row.opponent, grid.players)
            if score is None:
                skip(row, "not a game result")
            elif isinstance(q, str):
                skip(row, q)
            elif q == p:
                skip(row, "a player cannot play themselves")
            else:
                colour = Colour.parse(row.colour)
                mine = RoundEntry(score.first, q, colour if score.first.played else None)
                theirs = mine.mirror(p, double=score.double)
                state.set(r, p, q, ((p, _Claim(mine, row)), (q, _Claim(theirs, row))))
        elif row.action == "bye":
            kind = bye_result(row.result)
            if kind is None:
                skip(row, "not a bye")
            else:
                state.bye(r, p, _Claim(RoundEntry(kind), row))
        elif row.action == "clear":
            state.clear(r, p)
        elif row.action == "withdraw":
            state.withdraw(p, _Claim(RoundEntry(EntryKind.WITHDRAWN), row))

    replayed = replay(rows, step, key=row_key, undoes=row_undoes)
    out: dict[tuple[int, int], _Claim] = {}
    for r, board in replayed.rounds.items():
        for sides in board.games.values():
            for p, claim in sides:
                out[(p, r)] = claim
        for p, claim in board.byes.items():
            out[(p, r)] = claim
    return out, replayed.withdrawn


def _typed_by_opponent(grid: ResultGrid) -> dict[tuple[int, int], list[tuple[int, Sourced]]]:
    """(player, round) → the TD's cells of *other* players that name them as opponent."""
    index: dict[tuple[int, int], list[tuple[int, Sourced]]] = {}
    for (player, r), sourced in grid.entries.items():
        if sourced.entry.opponent is not None:
            index.setdefault((sourced.entry.opponent, r), []).append((player, sourced))
    return index


def _implied(other: int, sourced: Sourced) -> RoundEntry:
    """What ``other``'s cell says of the round of the player it names (the mirror of the
    game, against ``other``)."""
    return sourced.entry.mirror(other)


def merge_reports(
    grid: ResultGrid,
    reports: Rows | None,
    players: Rows | None = None,
    *,
    rounds: int | None = None,
) -> list[SheetProblem]:
    """Merge the bot's tabs into ``grid`` (what the TD's tabs say); answer the notices:
    reports that disagree with the TD (:class:`ReportConflict`) or cannot be read.

    ``reports`` and ``players`` are the rows of the reports and players tabs (None when the
    sheet has none); ``rounds`` is the Harkness tab's number of rounds, if set.
    """
    notices: list[SheetProblem] = []
    if players:
        merge_discord_ids(grid, players)
    if not reports or not grid.players:
        return notices
    rows, problems = read_report_rows(reports)
    notices += problems
    state, withdrawn = _fold(rows, grid, rounds, notices)
    typed = dict(grid.entries)
    unreadable = set(grid.unreadable)
    by_opponent = _typed_by_opponent(grid)
    done: set[tuple[int, int]] = set()
    for (p, r), claim in sorted(state.items(), key=lambda item: item[1].row.row):
        if (p, r) in done:
            continue
        sides = [(p, claim)]
        q = claim.entry.opponent
        if q is not None:
            sides.append((q, state[(q, r)]))
        done.update((x, r) for x, _ in sides)
        if any((x, r) in unreadable for x, _ in sides):
            continue  # the TD typed something there (with a problem of its own): it stands
        clash = _clash(sides, r, typed, by_opponent)
        if clash is not None:
            where, text = clash
            words = _words(grid, r, p, claim)
            notices.append(
                ReportConflict(
                    f"Discord has {words}, but this cell says otherwise. What you typed "
                    "stands; the report was not applied: correct this cell if Discord is "
                    "right, or have a TD correct Discord with /result set",
                    where,
                    text,
                    claim.row.key,
                    words,
                )
            )
            continue
        for x, side in sides:
            if (x, r) not in typed:
                entry = _with_colour(side.entry, r, typed)
                with_entry(grid, x, r, Sourced(entry, side.row.cell, side.row.result))
    for p, claim in withdrawn.items():
        for r in range(claim.row.round or 1, grid.rounds + 1):
            if (
                (p, r) not in grid.entries
                and (p, r) not in unreadable
                and not by_opponent.get((p, r))
            ):
                with_entry(grid, p, r, Sourced(claim.entry, claim.row.cell, claim.row.result))
    return notices


def _clash(
    sides: Sequence[tuple[int, _Claim]],
    r: int,
    typed: Mapping[tuple[int, int], Sourced],
    by_opponent: Mapping[tuple[int, int], Sequence[tuple[int, Sourced]]],
) -> tuple[str, str] | None:
    """The TD's cell (and its text) that disagrees with the report, if any."""
    for x, side in sides:
        own = typed.get((x, r))
        if own is not None and not own.entry.agrees(side.entry):
            return own.cell, own.text
        for other, sourced in by_opponent.get((x, r), ()):
            if not _implied(other, sourced).agrees(side.entry):
                return sourced.cell, sourced.text
    return None


def _with_colour(entry: RoundEntry, r: int, typed: Mapping[tuple[int, int], Sourced]) -> RoundEntry:
    """A reported game without colours takes them from the TD's cell of the other side."""
    if entry.colour is not None or not entry.kind.played or entry.opponent is None:
        return entry
    other = typed.get((entry.opponent, r))
    if other is None or other.entry.colour is None:
        return entry
    return entry._replace(colour=other.entry.colour.opposite)
