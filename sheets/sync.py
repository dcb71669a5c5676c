"""One sync of one spreadsheet: one read, ``core``, at most one write.

1. **Read** everything in one ``spreadsheets.get`` (:mod:`sheets.snapshot`).
2. **Decide** (:func:`decide`, no I/O): read the settings and the results (merged with the
   Discord bot's reports, :mod:`sheets.discord_tabs`) into a ``core`` tournament, hash the
   input, and stop there if the hash stored in the sheet is the same, every output tab is
   in place and shows what was written (:mod:`sheets.output`: a TD's edit inside one is
   replaced), writing at most the Errors tab's "Last checked" cell, every
   :data:`CHECK_STAMP_EVERY`. Otherwise rank with ``core``, lay out the Standings,
   Breakdown and Errors tabs, and plan the write.
3. **Write** everything in one ``spreadsheets.batchUpdate`` (:mod:`sheets.write`), with the
   new hash in it, atomically; a write over 2 MB in as few as needed, the Standings tab
   last and whole (:mod:`sheets.batches`).

Only the worker's own tabs are written, so a TD edit made between the read and the write
is never overwritten. It is not missed either: the hash stored is the hash of what was
*read*, so the next sync sees the edit as a change and ranks again.

With problems in the input, the Errors tab lists each with the A1 reference of its cell;
the Standings and Breakdown tabs are updated only if the TD's "Publish partial standings"
setting is Yes (from the cells without problems), and otherwise keep the last good standings
(or, before there were any, say on the Standings tab why there are none yet).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta

from gspread.http_client import ParamsType

from core.collector import COLLECTOR
from core.model import Tournament
from core.problems import HarknessError
from core.profiles import Profile
from core.standings import Standings, standings_after
from sheets.batches import MAX_REQUEST_BYTES, batches
from sheets.client import SheetsClient, SheetsRequestError, spreadsheet_id
from sheets.discord_tabs import REPORTS_MARKER, REPORTS_TAB, bot_rows, bot_tab, merge_reports
from sheets.layout import CROSSTABLE_PAIRINGS, SETTINGS_TAB, Role
from sheets.output import HEALED, SEEN, Stored, read_digest, verdict, written_digest
from sheets.prizes_tab import PrizesFound, read_prizes_tab
from sheets.problems import SheetProblem
from sheets.read import (
    PlayerRow,
    ResultGrid,
    Rows,
    build_tournament,
    find_tab,
    points_notices,
    read_results,
)
from sheets.settings_tab import SheetSettings, default_rows, read_settings
from sheets.snapshot import READ_PARAMS, Snapshot, Tab, parse_snapshot
from sheets.tabs import (
    TabContent,
    awards_notice,
    awards_tab,
    checked_at,
    describe,
    errors_tab,
    ranked_tabs,
    standings_notice,
    synced_at,
)
from sheets.write import Plan, check_plan, foreign, looks_of, output_request, plan, refusal

logger = logging.getLogger(__name__)
report = logging.getLogger(f"{__name__}.report")
"""What each sync found (its summary and the sheet's problems), for the logs of ``watch``
and ``serve``; ``harkness-sheets sync`` prints the same itself and silences this logger."""

FORMAT_VERSION = "harkness-sheets/1"
"""Part of the input hash: a new version of the output tabs' layout makes every sheet sync."""


@dataclass(frozen=True)
class SyncResult:
    """What one sync found and did."""

    spreadsheet_id: str
    title: str
    changed: bool
    """The input (or the output tabs) differed from the last sync, so the worker wrote."""
    published: bool
    """The Standings and Breakdown tabs were written."""
    problems: tuple[SheetProblem, ...] = ()
    summary: str = ""

    def __str__(self) -> str:
        return self.summary


@dataclass
class Decision:
    """What to write (None: nothing, the input is unchanged), and why."""

    plan: Plan | None
    problems: list[SheetProblem] = field(default_factory=list)
    published: bool = False
    summary: str = ""
    stamp_only: bool = False
    """The plan only brings the "Last checked" time up to date: nothing changed."""


def _trimmed(rows: Rows | None) -> list[list[str]] | None:
    """Rows without trailing empty cells and rows, so equal contents hash equally."""
    if rows is None:
        return None
    result = []
    for row in rows:
        cells = list(row)
        while cells and not cells[-1].strip():
            cells.pop()
        result.append(cells)
    while result and not result[-1]:
        result.pop()
    return result


def input_hash(snapshot: Snapshot, settings: SheetSettings, foreign: Sequence[str]) -> str:
    """The hash of everything a sync's output depends on.

    That is the settings tab (as it will be once created), the results and players tabs,
    which output tabs belong to someone else, :data:`FORMAT_VERSION`, and the Discord bot's
    reports tab when there is one.
    """
    values = snapshot.values
    settings_tab = find_tab(values, SETTINGS_TAB)
    inputs = [
        FORMAT_VERSION,
        _trimmed(settings_tab[1] if settings_tab else default_rows()),
        *[
            [found[0], _trimmed(found[1])] if (found := find_tab(values, title)) else [title]
            for title in (settings.results_tab, settings.players_tab)
        ],
        sorted(foreign),
    ]
    reports = bot_tab(snapshot, REPORTS_TAB, REPORTS_MARKER)
    if reports is not None:  # only then, so that the hash of a sheet without one stays put
        inputs.append([REPORTS_TAB, _trimmed(reports.rows)])
    prizes = find_tab(values, settings.prizes_tab)
    if prizes is not None:  # likewise
        inputs.append([prizes[0], _trimmed(prizes[1])])
    text = json.dumps(inputs, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


@dataclass(frozen=True)
class SheetInput:
    """What a spreadsheet's input says, read and checked, before anything is written.

    ``problems`` are the TD's to fix (settings, cells, ``core``'s checks); ``notices`` are the
    Discord reports that were not applied (:mod:`sheets.discord_tabs`): they are listed on the
    Errors tab but do not hold the standings back, since the TD's cells stand. ``warnings``
    are points cells (``Tot``) that disagree with the results: listed too, never blocking.
    """

    settings: SheetSettings
    titles: dict[Role, str]
    setting_cells: dict[str, str]
    others: dict[Role, Tab]
    digest: str
    profile: Profile | None
    tournament: Tournament | None
    problems: list[SheetProblem]
    notices: list[SheetProblem]
    players: dict[int, PlayerRow]
    warnings: list[SheetProblem] = field(default_factory=list)
    #: What the TD's tabs said, cell by cell, merged with the reports (None: not read).
    grid: ResultGrid | None = None
    #: The TD's prizes (:mod:`sheets.prizes_tab`; None: the sheet has no Prizes tab). Their
    #: problems are the Awards tab's: they never hold the standings back.
    prizes: PrizesFound | None = None


def read_input(snapshot: Snapshot) -> SheetInput:
    """Read a snapshot's settings and results, merged with the Discord reports (no I/O)."""
    settings_tab = snapshot.tab(SETTINGS_TAB)
    settings, problems = read_settings(settings_tab.rows if settings_tab else None)
    titles = {
        Role.STANDINGS: settings.standings_tab,
        Role.BREAKDOWN: settings.breakdown_tab,
        Role.ERRORS: settings.errors_tab,
        Role.AWARDS: settings.awards_tab,
    }
    setting_cells = {role.value: settings.where(f"{role.value}_tab") for role in titles}
    others = {
        role: tab
        for role, title in titles.items()
        if (tab := foreign(snapshot, title, role)) is not None
    }
    digest = input_hash(snapshot, settings, [tab.title for tab in others.values()])
    try:
        profile: Profile | None = settings.profile()
    except HarknessError:
        profile = None  # read_settings reported it, with its cell
    notices: list[SheetProblem] = []
    warnings: list[SheetProblem] = []
    players: dict[int, PlayerRow] = {}
    grid: ResultGrid | None = None
    try:
        grid = read_results(snapshot.values, settings)
        reports, discord_players = bot_rows(snapshot)
        notices = merge_reports(grid, reports, discord_players, rounds=settings.rounds)
        if settings.write_pairings and grid.layout == "crosstable":
            where = settings.where("write_pairings")
            notices.append(SheetProblem(CROSSTABLE_PAIRINGS, where, "Yes"))
        players = dict(grid.players)
        tournament, read_problems = build_tournament(
            grid, snapshot.title, partial=settings.publish_partial
        )
        warnings = points_notices(grid, tournament) if tournament is not None else []
    except Exception as crash:  # a bug in Harkness must not cost the TD the Errors tab
        logger.exception("reading spreadsheet %s failed", snapshot.spreadsheet_id)
        tournament, read_problems = None, [_crash_problem(crash)]
    problems += read_problems
    prizes = None
    if grid is not None:
        try:
            prizes = read_prizes_tab(snapshot.values, settings, grid.players)
        except Exception as crash:  # as above: the prizes' problem, not the standings'
            logger.exception("reading the prizes of spreadsheet %s failed", snapshot.spreadsheet_id)
            prizes = PrizesFound(None, [_crash_problem(crash)])
    return SheetInput(
        settings,
        titles,
        setting_cells,
        others,
        digest,
        profile,
        tournament,
        problems,
        notices,
        players,
        warnings,
        grid,
        prizes,
    )


def decide(
    snapshot: Snapshot, *, now: datetime | None = None, rng: random.Random | None = None
) -> Decision:
    """Everything a sync does between its read and its write (no I/O)."""
    now = now or datetime.now(UTC)
    zone = snapshot.time_zone
    found = read_input(snapshot)
    settings, titles, others = found.settings, found.titles, found.others
    setting_cells, digest, profile = found.setting_cells, found.digest, found.profile
    tournament, problems = found.tournament, found.problems
    notices = [*found.notices, *found.warnings]
    prizes = found.prizes
    prize_problems = list(prizes.problems) if prizes is not None else []
    settings_tab = snapshot.tab(SETTINGS_TAB)
    publish = (
        tournament is not None
        and profile is not None
        and (not problems or settings.publish_partial)
    )
    expected = [Role.ERRORS, Role.STANDINGS, *([Role.BREAKDOWN] if publish else [])]
    if publish and prizes is not None:
        expected.append(Role.AWARDS)
    in_place = settings_tab is not None and all(
        snapshot.tab(titles[role]) is not None for role in expected
    )
    healing = False
    if snapshot.input_hash == digest and in_place:
        stored = Stored.parse(snapshot.output_hash)
        roles = stored.roles if stored is not None else tuple(expected)
        seen = read_digest(snapshot, titles, roles)
        action = verdict(stored, seen)
        if action != "heal":
            record = str(Stored(SEEN, roles, seen)) if action == "record" else None
            listed = [*problems, *prize_problems, *notices]
            return _unchanged(snapshot, titles[Role.ERRORS], listed, now, record)
        healing = True  # someone edited the worker's tabs: they are written again
        logger.info("%s: a Harkness tab was edited; writing it again", snapshot.spreadsheet_id)
    contents: list[TabContent] = []
    footer: list[str] = []
    stamp = f"{synced_at(now, zone)}, when something last changed"
    ranked: Standings | None = None
    if publish and tournament is not None and profile is not None:
        try:
            standings = standings_after(tournament, profile)
            ranked = standings
            footer = [describe(standings, settings.rounds)]
            if problems:
                footer.append(
                    f"Partial standings: {_plural(len(problems), 'problem')} (see "
                    f"the {settings.errors_tab} tab); those cells were left out."
                )
            last = f"{stamp}; the {settings.errors_tab} tab shows when Harkness last checked."
            contents = list(
                ranked_tabs(
                    settings.standings_tab, settings.breakdown_tab, standings, [*footer, last]
                )
            )
        except Exception as crash:  # as above: report it on the Errors tab
            logger.exception("ranking spreadsheet %s failed", snapshot.spreadsheet_id)
            problems.append(_crash_problem(crash))
            publish, contents, footer = False, [], []
    if publish and prizes is not None and ranked is not None:
        awards, failed = _awards_content(snapshot, settings, ranked, prizes, footer, stamp)
        contents += awards
        prize_problems += failed
    if not publish and snapshot.tab(titles[Role.STANDINGS]) is None:
        # A first sync with problems: say so where the TD looks for the standings.
        contents.append(
            standings_notice(
                settings.standings_tab,
                [
                    *_status(
                        len(problems), [], False, settings, [], f"on the {settings.errors_tab} tab"
                    ),
                    stamp + ".",
                ],
            )
        )
    written = [c.role for c in contents]
    refused = [role for role in (Role.ERRORS, *written) if role in others]
    problems += [refusal(others[role].title, role, setting_cells[role.value]) for role in refused]
    cells = len(problems) - len(refused)
    status = [*_status(cells, refused, publish, settings, footer, "listed above")]
    if found.warnings:
        status.insert(
            1,
            f"{_plural(len(found.warnings), 'points cell')} "
            f"{'disagrees' if len(found.warnings) == 1 else 'disagree'} with the results "
            "(listed above): the results are used.",
        )
    if found.notices:
        status.insert(
            1,
            f"{_plural(len(found.notices), 'Discord report')} not applied (listed above): what "
            "you typed stands.",
        )
    status.append(f"{stamp}; the last check is at the top right of this tab.")
    if prize_problems:
        status.insert(
            1,
            f"{_plural(len(prize_problems), 'problem')} with the prizes (listed above): the "
            f"{settings.awards_tab} tab was not updated.",
        )
    contents.append(
        errors_tab(
            settings.errors_tab,
            [*problems, *prize_problems, *notices],
            status,
            checked_at(now, zone),
        )
    )
    ours = [c for c in contents if c.role not in others]
    looks = {c.title: looks_of(c) for c in ours}
    output = written_digest(ours, looks)
    write = plan(
        snapshot,
        ours,
        digest,
        setting_cells,
        create_settings=settings_tab is None,
        rng=rng,
        checked=now,
        output=str(replace(output, state=HEALED) if healing else output),
        looks=looks,
    )
    summary = _status(
        cells, refused, publish, settings, [], f"listed below and on the {settings.errors_tab} tab"
    )[0]
    published = publish and Role.STANDINGS not in others
    return Decision(write, [*problems, *prize_problems, *notices], published, summary)


def _awards_content(
    snapshot: Snapshot,
    settings: SheetSettings,
    standings: Standings,
    prizes: PrizesFound,
    footer: Sequence[str],
    stamp: str,
) -> tuple[list[TabContent], list[SheetProblem]]:
    """The Awards tab: the award list of the standings under the TD's prizes; while the
    prizes have problems, the last good list stays (or, before there was one, a word on
    why there is none). A failure here is the prizes' problem, never the standings'."""
    if prizes.prizes is None:
        if snapshot.tab(settings.awards_tab) is not None:
            return [], []
        lines = [
            f"{_plural(len(prizes.problems), 'problem')} with the prizes, listed on the "
            f"{settings.errors_tab} tab: fix them and the award list appears here.",
            stamp + ".",
        ]
        return [awards_notice(settings.awards_tab, lines)], []
    from core.awards import compute_awards

    try:
        awards = compute_awards(standings, prizes.prizes)
    except Exception as crash:
        logger.exception("the awards of spreadsheet %s failed", snapshot.spreadsheet_id)
        return [], [_crash_problem(crash)]
    return [awards_tab(settings.awards_tab, awards, [*footer[:1], f"{stamp}."])], []


CHECK_STAMP_EVERY = timedelta(minutes=10)
"""A sync that finds nothing changed updates the Errors tab's "Last checked" cell when the
time it shows is this old (or unknown): a TD sees within minutes that an idle worker is
alive, for at most one small write per sheet per interval (Google allows 60 writes a
minute), and a sheet polled often is not written at every poll."""


def _unchanged(
    snapshot: Snapshot,
    errors_title: str,
    problems: list[SheetProblem],
    now: datetime,
    record: str | None = None,
) -> Decision:
    """Nothing to rank again; at most the "Last checked" cell to bring up to date, and what
    the worker's tabs show to ``record`` (:mod:`sheets.output`)."""
    summary = "unchanged since the last sync"
    if problems:
        summary += (
            f"; {_plural(len(problems), 'problem')}, listed below and on the {errors_title} tab"
        )
    checked = snapshot.checked_at
    errors = snapshot.tab(errors_title)
    due = checked is None or not now - CHECK_STAMP_EVERY < checked <= now
    if not due or errors is None or errors.role is not Role.ERRORS:
        if record is None:
            return Decision(None, problems, False, summary)
        return Decision(Plan([output_request(snapshot, record)]), problems, False, summary, True)
    stamp = check_plan(snapshot, errors, checked_at(now, snapshot.time_zone), now, record)
    return Decision(stamp, problems, False, summary, stamp_only=True)


def _crash_problem(crash: BaseException) -> SheetProblem:
    return SheetProblem(
        f"Harkness failed while ranking this sheet ({type(crash).__name__}: "
        f"{crash}); this is a bug in Harkness, please report it"
    )


def _crash_decision(snapshot: Snapshot, crash: BaseException, now: datetime | None) -> Decision:
    """Write only the Errors tab, saying what failed (if that tab is the worker's or absent).

    No hash is stored, so the next sync tries again.
    """
    problem = _crash_problem(crash)
    title = SheetSettings().errors_tab
    settings_tab = snapshot.tab(SETTINGS_TAB)
    if settings_tab is not None:
        with contextlib.suppress(Exception):
            title = read_settings(settings_tab.rows)[0].errors_tab
    status = ["The standings were not updated.", synced_at(now, snapshot.time_zone)]
    write = plan(snapshot, [errors_tab(title, [problem], status)], None, {})
    if write.refused:
        return Decision(None, [problem, *write.refused], False, str(problem))
    return Decision(write, [problem], False, str(problem))


def _status(
    problems: int,
    refused: Sequence[Role],
    publish: bool,
    settings: SheetSettings,
    footer: Sequence[str],
    listed: str,
) -> list[str]:
    """What the sync did, first line first: ``problems`` in the input (listed ``listed``),
    output tabs ``refused`` (a tab of that name is not the worker's), whether the standings
    were computed for publishing."""
    total = problems + len(refused)
    if not total:
        return ["No problems found.", *footer]
    count = f"{_plural(total, 'problem')}, {listed}"
    partial = settings.where("publish_partial")
    if publish and Role.STANDINGS in refused:
        first = (
            f"{count}: the standings were not written, because a tab named "
            f"{settings.standings_tab!r} that Harkness did not make is in the way."
        )
        return [first]
    if publish:
        if problems:
            first = (
                f'{count}: standings were published from the other cells ("Publish partial '
                f'standings" is Yes in {partial}); the cells with problems were left out.'
            )
        else:
            first = f"{count}: the standings were published."
        if Role.BREAKDOWN in refused:
            first += (
                f" The breakdown was not written: a tab named {settings.breakdown_tab!r} that "
                "Harkness did not make is in the way."
            )
        return [first, *footer[:1]]
    return [
        f"{count}: the standings were not updated. Fix those cells, or write Yes in {partial} "
        "to publish standings from the other cells."
    ]


def read_snapshot(client: SheetsClient, key: str) -> Snapshot:
    """The one read of a sync (``spreadsheets.get`` with grid values)."""
    params: ParamsType = dict(READ_PARAMS)
    return parse_snapshot(client.http_client.fetch_sheet_metadata(key, params=params))


def sync(
    client: SheetsClient,
    key_or_url: str,
    *,
    now: datetime | None = None,
    rng: random.Random | None = None,
    snapshot: Snapshot | None = None,
    request_limit: int = MAX_REQUEST_BYTES,
) -> SyncResult:
    """Sync one spreadsheet: read it, rank it with ``core``, write its output tabs.

    ``snapshot`` is a read the caller has just made (the Discord bot reads the sheet for its
    own answers): the sync then starts from it instead of reading again. The write is one
    ``batchUpdate`` when it fits in ``request_limit`` bytes, else as few as needed, the
    Standings tab last and whole (:mod:`sheets.batches`).

    Raises :class:`~sheets.client.SheetsError` when Google cannot be reached, refuses the
    service account, or rejects the write; problems *in* the sheet are not errors: they are
    written to its Errors tab and returned in :attr:`SyncResult.problems`.
    """
    key = spreadsheet_id(key_or_url)
    for attempt in (1, 2):
        with COLLECTOR.building():  # tens of MB read and laid out: see core.collector
            seen = snapshot if attempt == 1 and snapshot is not None else read_snapshot(client, key)
            label = f"{seen.title!r} ({key})"
            try:
                decision = decide(seen, now=now, rng=rng)
            except Exception as crash:  # a bug in Harkness: say so on the sheet, not only here
                logger.exception("%s: the sync failed", label)
                decision = _crash_decision(seen, crash, now)
        if decision.plan is None:
            report.info("%s: %s", label, decision.summary)
            return SyncResult(
                key,
                seen.title,
                False,
                False,
                tuple(decision.problems),
                f"{label}: {decision.summary}",
            )
        try:
            for requests in batches(decision.plan, request_limit):
                client.http_client.batch_update(key, {"requests": requests})
        except SheetsRequestError as error:
            # Google applies a batchUpdate atomically: nothing was written. The usual cause is
            # the sheet changing meanwhile (a tab of the same name added); read it again once.
            if attempt == 2:
                raise
            logger.warning("%s: the write was refused (%s); reading the sheet again", label, error)
            continue
        break
    summary = f"{label}: {decision.summary}"
    if decision.problems and not decision.stamp_only:
        report.warning("%s", summary)
        for p in decision.problems:
            report.warning("%s: %s", label, p)
    else:
        report.info("%s", summary)
    changed = not decision.stamp_only
    return SyncResult(
        key, seen.title, changed, decision.published, tuple(decision.problems), summary
    )
