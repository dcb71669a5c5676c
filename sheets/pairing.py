"""Pair the next round of a tournament kept in a spreadsheet ("Harkness → Pair next round").

One read, ``core``, at most one write, as a sync (:mod:`sheets.sync`):

1. **Read** the spreadsheet (the TD's results, players and settings, merged with the Discord
   reports) into a ``core`` tournament, exactly as a sync reads it.
2. **Pair** the round after the last one with results by the FIDE Dutch system
   (:mod:`core.pairing`: the engine, then core's check of the absolute criteria), with the
   number of rounds from the settings tab; byes typed in the round's column (``H``, ``U``)
   and withdrawals keep players out.
3. **Write** a ``Pairings Rd N`` tab (the worker's own, marked and protected like the
   Standings tab): board, white, black, then the bye and the players not paired. Nothing
   the TD typed is touched; a tab of that name that is not the worker's is left alone and
   reported.
4. **Only if the TD asks** ("Write pairings into results tab" is Yes in the ``Harkness``
   tab) and the results tab is a game list: add the round's games below it, one row a
   board (Round, Board if the list has one, White, Black, an empty Result: a game paired,
   not yet played), and the pairing-allocated bye (``BYE``, result ``B``). The rows are
   appended with ``values.append`` and ``INSERT_ROWS``: Google finds the end of the list
   and inserts new rows there, so no cell that holds anything is ever written, even if the
   TD types meanwhile. A crosstable has no notation for a game not yet played, so it is
   never written; the sync lists that on the Errors tab (:data:`CROSSTABLE_PAIRINGS`).

Nothing is paired while the sheet has problems (fix them first: a sync lists them on the
Errors tab), without the number of rounds (the final round is paired differently), or
while a game of the list still waits for its result (that round is paired already). A
round whose ``Pairings Rd N`` tab the worker has written is **already paired**: "Pair next
round" pressed twice pairs once and says so the second time (to pair a round again, the TD
deletes its tab first).
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass, field
from datetime import datetime

from gspread.http_client import ParamsType

from core.pairing import PairingRequest, RoundPairing, prepare
from core.pairing.acceleration import Acceleration
from core.pairing.engine import engine_version
from core.pairing.isolated import pair_isolated
from core.pairing.render import SYSTEM, board_rows
from core.players import Roster
from core.problems import HarknessError, Problem
from sheets.addon_keys import KeyWithdrawn
from sheets.client import SheetsClient, spreadsheet_id
from sheets.layout import (
    BYE_OPPONENT_WORDS,
    CROSSTABLE_PAIRINGS,
    GameListColumns,
    Role,
    column_letters,
    quote_tab,
)
from sheets.problems import SheetProblem
from sheets.read import ResultGrid, locate
from sheets.snapshot import Snapshot
from sheets.sync import SheetInput, read_input, read_snapshot
from sheets.tabs import OutCell, TabContent, synced_at
from sheets.write import Plan, foreign, plan

logger = logging.getLogger(__name__)

#: The title of the tab a round's pairing is written to.
PAIRINGS_TAB = "Pairings Rd {round}"


@dataclass(frozen=True)
class PairResult:
    """What "Pair next round" found and did: the round and tab written, or the problems."""

    spreadsheet_id: str
    title: str
    round: int | None
    tab: str | None
    problems: tuple[SheetProblem, ...] = ()
    summary: str = ""
    #: The rows added to the TD's game list (0: none), and what was not written there.
    added: int = 0
    notices: tuple[SheetProblem, ...] = ()
    #: The round was paired before (its tab is the worker's): nothing was done.
    already: bool = False


@dataclass(frozen=True)
class Append:
    """Rows to add after the TD's game list: the range its table is found from, the rows."""

    range: str
    rows: list[list[str | int]]


@dataclass(frozen=True)
class PairDecision:
    """What to write (None: nothing, see ``problems``)."""

    plan: Plan | None
    round: int | None
    tab: str | None
    problems: list[SheetProblem]
    summary: str
    append: Append | None = None
    notices: list[SheetProblem] = field(default_factory=list)
    already: bool = False


def game_list_rows(grid: ResultGrid, pairing: RoundPairing) -> Append | None:
    """The rows that add ``pairing`` to the game list ``grid`` was read from (None when the
    results tab is not a game list): a player is written by name when the name finds them
    alone (:class:`~core.players.Roster`), else by starting number."""
    if grid.header is None or not isinstance(grid.header[2], GameListColumns):
        return None
    title, header_row, _ = grid.header
    columns: GameListColumns = grid.header[2]
    roster = Roster(grid.players.values(), number=lambda p: p.id, name=lambda p: p.name)

    def cell(player: int) -> str | int:
        name = grid.players[player].name
        found = roster.find(name, partial=False).match
        alone = found is not None and found.id == player and name.lower() not in BYE_OPPONENT_WORDS
        return name if alone else player

    used = [columns.round, columns.white, columns.black, columns.result]
    if columns.board is not None:
        used.append(columns.board)
    first, last = min(used), max(used)

    def row(white: str | int, black: str | int, result: str, board: int | None) -> list[str | int]:
        values: list[str | int] = [""] * (last - first + 1)
        values[columns.round - first] = pairing.round
        values[columns.white - first] = white
        values[columns.black - first] = black
        values[columns.result - first] = result
        if columns.board is not None and board is not None:
            values[columns.board - first] = board
        return values

    rows = [row(cell(b.white), cell(b.black), "", b.number) for b in pairing.boards]
    if pairing.bye is not None:
        rows.append(row(cell(pairing.bye), "BYE", "B", None))
    where = f"{quote_tab(title)}!{column_letters(first)}{header_row + 1}:"
    return Append(where + f"{column_letters(last)}{header_row + 1}", rows)


def pairing_tab(
    request: PairingRequest, pairing: RoundPairing, now: datetime | None = None
) -> TabContent:
    """The ``Pairings Rd N`` tab: a header, a row a board (white first), the bye and the
    players not paired, and what paired it."""
    rows = [
        [
            OutCell("Board", header=True),
            OutCell("White", header=True),
            OutCell("Black", header=True),
        ]
    ]
    for board, white, black in board_rows(request, pairing):
        rows.append([OutCell(board), OutCell(white), OutCell(black)])
    rows.append([])
    rows.append(
        [OutCell(f"Round {pairing.round} of {pairing.rounds}, {SYSTEM}, by {engine_version()}")]
    )
    rows.append(
        [OutCell("Type the results in your results tab as usual; this tab is the worker's.")]
    )
    rows.append([OutCell(synced_at(now))])
    return TabContent(Role.PAIRINGS, PAIRINGS_TAB.format(round=pairing.round), rows)


def _sheet_problem(problem: Problem, found: SheetInput) -> SheetProblem:
    """Core's problem with pairing the sheet's next round, at the cell that fixes it: the
    rounds setting when every planned round is paired, the result's cell for a game (decided
    by the problem's code and place, never its words)."""
    if problem.field == "avoid":  # a group of the "Keep apart" setting
        return SheetProblem(
            f"{problem.detail or problem.message}: name players of the results by their "
            "starting numbers",
            found.settings.where("keep_apart"),
            problem.value,
        )
    if problem.code == "beyond-planned-rounds" and problem.detail:
        return SheetProblem(
            f"{problem.detail}: set more rounds here to pair another",
            found.settings.where("rounds"),
            problem.value,
        )
    if found.grid is not None and problem.player is not None and problem.round is not None:
        return locate(problem, found.grid)
    return SheetProblem(str(problem))


def _paired_before(snapshot: Snapshot, round_: int) -> PairDecision | None:
    """The answer for a round whose ``Pairings Rd N`` tab the worker wrote already."""
    title = PAIRINGS_TAB.format(round=round_)
    tab = snapshot.tab(title)
    if tab is None or tab.role is not Role.PAIRINGS:
        return None
    summary = f"round {round_} is already paired: see the {tab.title} tab"
    return PairDecision(None, round_, tab.title, [], summary, already=True)


def decide_pairing(
    snapshot: Snapshot, *, now: datetime | None = None, rng: random.Random | None = None
) -> PairDecision:
    """Everything "Pair next round" does between its read and its write (no I/O but the
    engine)."""
    found = read_input(snapshot)
    if found.problems or found.tournament is None:
        return PairDecision(
            None,
            None,
            None,
            found.problems,
            "the sheet has problems: fix them (a sync lists them on the Errors tab) and pair again",
        )
    waiting = found.grid.waiting() if found.grid is not None else {}
    if waiting:
        before = _paired_before(snapshot, max(waiting.values()))
        if before is not None:
            return before
        problems = [
            SheetProblem(
                f"round {r} is paired and this game has no result yet: type the round's "
                "results before pairing the next round",
                cell,
            )
            for cell, r in waiting.items()
        ]
        return PairDecision(None, None, None, problems, str(problems[0]))
    rounds = found.settings.rounds
    if rounds is None:
        cell = found.settings.where("rounds")
        problem = SheetProblem("set the number of rounds here to pair rounds", cell)
        return PairDecision(None, None, None, [problem], str(problem))
    try:
        settings = found.settings
        request = prepare(
            found.tournament,
            rounds=rounds,
            avoid=settings.keep_apart,
            acceleration=Acceleration.BAKU if settings.accelerated else None,
        )
        before = _paired_before(snapshot, request.round)
        if before is not None:
            return before
        # Within the pairing ceiling, in a child process, one at a time per spreadsheet.
        pairing = pair_isolated(request, key=("sheet", snapshot.spreadsheet_id))
    except HarknessError as error:
        problems = [_sheet_problem(p, found) for p in error.problems]
        return PairDecision(None, None, None, problems, "; ".join(str(p) for p in problems))
    content = pairing_tab(request, pairing, now)
    if foreign(snapshot, content.title, Role.PAIRINGS) is not None:
        problem = SheetProblem(
            f"a tab named {content.title!r} already exists and was not made by Harkness, so "
            "the pairing was not written: rename or delete that tab and pair again",
            content.title,
        )
        return PairDecision(None, pairing.round, None, [problem], str(problem))
    write = plan(snapshot, [content], None, {}, rng=rng)
    summary = (
        f"round {pairing.round} paired: {len(pairing.boards)} boards on the {content.title} tab"
    )
    settings, notices = found.settings, []
    append = None
    if settings.write_pairings and found.grid is not None:
        append = game_list_rows(found.grid, pairing)
        if append is None:
            where = settings.where("write_pairings")
            notices.append(SheetProblem(CROSSTABLE_PAIRINGS, where, "Yes"))
        else:
            summary += f", and {len(append.rows)} rows added to the {settings.results_tab} tab"
    return PairDecision(write, pairing.round, content.title, [], summary, append, notices)


def pair_sheet(
    client: SheetsClient,
    key_or_url: str,
    *,
    now: datetime | None = None,
    rng: random.Random | None = None,
    vouched: str | None = None,
) -> PairResult:
    """Pair the next round of a spreadsheet and write its ``Pairings Rd N`` tab.

    ``vouched`` (the add-on's call) is the key hash the caller was let in with: unless the
    sheet, as read, still holds it (:mod:`sheets.addon_keys`), nothing is written and
    :class:`~sheets.addon_keys.KeyWithdrawn` says what it holds. Raises
    :class:`~sheets.client.SheetsError` when Google cannot be reached or refuses; problems
    in the sheet are in :attr:`PairResult.problems` (nothing is written then).
    """
    key = spreadsheet_id(key_or_url)
    snapshot = read_snapshot(client, key)
    if vouched is not None and vouched not in snapshot.addon_keys:
        raise KeyWithdrawn(key, snapshot.addon_keys)
    label = f"{snapshot.title!r} ({key})"
    decision = decide_pairing(snapshot, now=now, rng=rng)
    added = 0
    if decision.plan is not None:
        if decision.plan.requests:  # none when the tab already shows this pairing
            client.http_client.batch_update(key, {"requests": decision.plan.requests})
        if decision.append is not None:
            params: ParamsType = {"valueInputOption": "RAW", "insertDataOption": "INSERT_ROWS"}
            body = {"majorDimension": "ROWS", "values": decision.append.rows}
            client.http_client.values_append(key, decision.append.range, params, body)
            added = len(decision.append.rows)
        logger.info("%s: %s", label, decision.summary)
    elif decision.already:
        logger.info("%s: %s", label, decision.summary)
    else:
        logger.warning("%s: not paired: %s", label, decision.summary)
    return PairResult(
        key,
        snapshot.title,
        decision.round,
        decision.tab,
        tuple(decision.problems),
        f"{label}: {decision.summary}",
        added,
        tuple(decision.notices),
        decision.already,
    )


def pair_answer(client: SheetsClient, key: str, vouched: str | None = None) -> tuple[bool, str]:
    """Pair a spreadsheet's next round for the add-on's menu (``vouched``: see
    :func:`pair_sheet`): whether it was paired, and what to tell the TD."""
    result = pair_sheet(client, key, vouched=vouched)
    if result.already:
        return False, (
            f"Round {result.round} is already paired: see the {result.tab} tab. To pair it "
            "again, delete that tab first."
        )
    if result.problems:
        more = f" (and {len(result.problems) - 3} more)" if len(result.problems) > 3 else ""
        return False, "Not paired: " + "; ".join(str(p) for p in result.problems[:3]) + more
    answer = f"Round {result.round} is paired: see the {result.tab} tab."
    if result.added:
        answer += f" Its games were added below your game list ({result.added} rows)."
    if result.notices:
        answer += " Not written into your results tab: " + str(result.notices[0])
    return True, answer
