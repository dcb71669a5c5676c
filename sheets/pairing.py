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

Nothing is paired while the sheet has problems (fix them first: a sync lists them on the
Errors tab), or without the number of rounds (the final round is paired differently).
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass
from datetime import datetime

from core.pairing import PairingRequest, RoundPairing, pair_round, prepare
from core.pairing.engine import engine_version
from core.pairing.render import SYSTEM, board_rows
from core.problems import HarknessError
from sheets.client import SheetsClient, spreadsheet_id
from sheets.layout import Role
from sheets.problems import SheetProblem
from sheets.snapshot import Snapshot
from sheets.sync import read_input, read_snapshot
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


@dataclass(frozen=True)
class PairDecision:
    """What to write (None: nothing, see ``problems``)."""

    plan: Plan | None
    round: int | None
    tab: str | None
    problems: list[SheetProblem]
    summary: str


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
    rounds = found.settings.rounds
    if rounds is None:
        cell = found.settings.where("rounds")
        problem = SheetProblem("set the number of rounds here to pair rounds", cell)
        return PairDecision(None, None, None, [problem], str(problem))
    try:
        request = prepare(found.tournament, rounds=rounds)
        pairing = pair_round(request)
    except HarknessError as error:
        problems = [SheetProblem(str(p)) for p in error.problems]
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
    return PairDecision(write, pairing.round, content.title, [], summary)


def pair_sheet(
    client: SheetsClient,
    key_or_url: str,
    *,
    now: datetime | None = None,
    rng: random.Random | None = None,
) -> PairResult:
    """Pair the next round of a spreadsheet and write its ``Pairings Rd N`` tab.

    Raises :class:`~sheets.client.SheetsError` when Google cannot be reached or refuses;
    problems in the sheet are in :attr:`PairResult.problems` (nothing is written then).
    """
    key = spreadsheet_id(key_or_url)
    snapshot = read_snapshot(client, key)
    label = f"{snapshot.title!r} ({key})"
    decision = decide_pairing(snapshot, now=now, rng=rng)
    if decision.plan is not None:
        client.http_client.batch_update(key, {"requests": decision.plan.requests})
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
    )


def pair_answer(client: SheetsClient, key: str) -> tuple[bool, str]:
    """Pair a spreadsheet's next round for the add-on's menu: whether it was paired, and
    what to tell the TD."""
    result = pair_sheet(client, key)
    if result.problems:
        more = f" (and {len(result.problems) - 3} more)" if len(result.problems) > 3 else ""
        return False, "Not paired: " + "; ".join(str(p) for p in result.problems[:3]) + more
    return True, f"Round {result.round} is paired: see the {result.tab} tab."
