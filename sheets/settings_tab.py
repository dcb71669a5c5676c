"""The ``Harkness`` settings tab: what the TD chooses, in the spreadsheet itself.

The worker creates the tab with every setting at its default the first time it syncs a
spreadsheet, and never writes to it again: from then on it is the TD's. One setting a row:
the label in column A, the value in column B, a hint in column C. Labels are matched without
regard to case; an empty value means the default.

>>> settings, problems = read_settings(default_rows())
>>> settings.rules, settings.results_tab, settings.publish_partial, problems
('uscf', 'Results', False, [])
>>> rows = default_rows()
>>> rows[1][1] = "fide-2024"; rows[9][1] = "yes"
>>> read_settings(rows)[0].rules, read_settings(rows)[0].publish_partial
('fide-2024', True)
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any

from core.problems import HarknessError
from core.profiles import OPTIONS, Profile, names, resolve_for, yes_no
from sheets.layout import SETTINGS_TAB, a1, clean
from sheets.problems import SheetProblem


@dataclass(frozen=True, slots=True)
class SheetSettings:
    """The settings of one spreadsheet (defaults where the tab is missing or a cell empty).

    ``cells`` maps each field name to the A1 reference of its value cell, so that messages
    can say where to change it (``Harkness!B10``).
    """

    rules: str = "uscf"
    tiebreaks: str | None = None
    rounds: int | None = None
    results_tab: str = "Results"
    players_tab: str = "Players"
    standings_tab: str = "Standings"
    breakdown_tab: str = "Breakdown"
    errors_tab: str = "Errors"
    publish_partial: bool = False
    cumulative_half_bye: bool | None = None
    unplayed_rule: bool | None = None
    discord_servers: tuple[str, ...] = ()
    """The Discord servers whose Harkness bot may use the sheet, as its editors named them:
    a server's id, or the link code (:func:`new_link_code`) the bot gave that server's TD
    (normalized: ``HK-ABCD-EFGH``). Only the sheet's editors can write them."""
    write_pairings: bool = False
    """"Pair next round" also adds the round's games to a game-list results tab."""
    prizes_tab: str = "Prizes"
    """The TD's prize list (:mod:`sheets.prizes_tab`); with one, the worker writes awards."""
    awards_tab: str = "Awards"
    prize_method: str = "us-chess"
    """How cash is divided (:class:`core.awards.Method`); the prize settings are read as
    text and checked with the prizes, so that a mistake in them never holds the standings
    back."""
    currency: str = ""
    trophy_follows_money: str = "No"
    team_size: str = "4"
    keep_apart: tuple[tuple[int, ...], ...] = ()
    """Groups of players (starting numbers) that "Pair next round" never pairs together."""
    accelerated: bool = False
    """Rounds are paired with FIDE's Baku Acceleration (C.04.5.1), announced before round 1."""
    cells: dict[str, str] = field(default_factory=dict, compare=False)

    @property
    def output_tabs(self) -> tuple[str, str, str]:
        """The titles of the standings, breakdown and errors tabs."""
        return (self.standings_tab, self.breakdown_tab, self.errors_tab)

    def where(self, name: str) -> str:
        """The A1 reference of a setting's value cell (``Harkness!B2``)."""
        return self.cells.get(name) or a1(SETTINGS_TAB, _ROW_OF[name], 1)

    @property
    def options(self) -> dict[str, bool]:
        """The profile options set in the tab, by core's keys (empty cells left out)."""
        values = {o.key: getattr(self, _OPTION_FIELD[o.key]) for o in OPTIONS}
        return {key: on for key, on in values.items() if on is not None}

    def profile(self) -> Profile:
        """The rule profile these settings name, with the options set in the tab (raises
        :class:`HarknessError` if unknown or not allowed)."""
        return resolve_for("", self.rules, self.tiebreaks, self.options)


@dataclass(frozen=True, slots=True)
class _Row:
    name: str
    label: str
    aliases: tuple[str, ...]
    hint: str


_PROFILE_NAMES = ", ".join(names())
#: Each profile option's setting (field of :class:`SheetSettings`), by core's key.
_OPTION_FIELD = {o.key: o.key.replace("-", "_") for o in OPTIONS}
_ROWS = (
    _Row("rules", "Rules", ("rule profile", "profile"), f"Rule profile: {_PROFILE_NAMES}."),
    _Row(
        "tiebreaks",
        "Tiebreaks",
        ("tiebreak order", "tie-breaks"),
        "Your own order of tiebreak codes, e.g. MM, SOLK, CUM, OCUM. Empty: the profile's.",
    ),
    _Row(
        "rounds",
        "Rounds",
        ("number of rounds",),
        "Rounds in the section. Empty: as many as the results show. Standings are always "
        "after the last round with a result.",
    ),
    _Row(
        "results_tab",
        "Results tab",
        (),
        "The tab with the results: a crosstable (#, Name, Rd 1, Rd 2, …) or a game list "
        "(Round, White, Black, Result).",
    ),
    _Row(
        "players_tab",
        "Players tab",
        (),
        "For a game list: the tab with the players (#, Name, Rating).",
    ),
    _Row("standings_tab", "Standings tab", (), "Harkness writes the standings here."),
    _Row(
        "breakdown_tab",
        "Breakdown tab",
        (),
        "Harkness writes each player's tiebreaks, round by round, here.",
    ),
    _Row("errors_tab", "Errors tab", (), "Harkness lists every problem it finds here."),
    _Row(
        "publish_partial",
        "Publish partial standings",
        ("partial standings",),
        "Yes: when some cells have problems, publish standings from the other cells. "
        "No: keep the last good standings until the problems are fixed.",
    ),
    *(
        _Row(
            _OPTION_FIELD[o.key],
            o.label,
            (o.key,),
            f"{o.question} Yes or No (US Chess profiles only). Empty: the profile's own.",
        )
        for o in OPTIONS
    ),
    _Row(
        "discord_servers",
        "Discord servers",
        ("discord server", "discord guilds"),
        "The Discord servers whose Harkness bot may use this sheet: the code /tournament "
        "link-sheet gave their TD (HK-…), or a server's id typed as text "
        "('80351110224678912), separated by commas. Delete an entry to take that server's "
        "access away. Empty: none.",
    ),
    _Row(
        "write_pairings",
        "Write pairings into results tab",
        ("write pairings into results", "write pairings"),
        'Yes: "Pair next round" also adds the round\'s games below your game list (Round, '
        "White, Black, an empty Result for you to fill; the pairing-allocated bye as B), "
        "never over a cell you typed. Not for a crosstable, which has no notation for a game "
        "not yet played. No: only the Pairings Rd N tab.",
    ),
    _Row(
        "prizes_tab",
        "Prizes tab",
        (),
        "The tab with your prizes, one a row: Name, Amount, Trophy, Kind (place, class, "
        "under, unrated, category), Value (3; 1800-1999; 2000; youth), Rank, Additive, Team. "
        "With it, Harkness writes the awards; players' Categories, Team and Limit are "
        "columns of their rows.",
    ),
    _Row("awards_tab", "Awards tab", (), "Harkness writes who wins which prize, and why, here."),
    _Row(
        "prize_method",
        "Prize method",
        ("award method", "method"),
        "How cash is divided: us-chess (US Chess 32B: ties pool and split), us-chess-2003 "
        "(without the cap on the largest prize), fide-none, fide-equal or fide-hort.",
    ),
    _Row("currency", "Currency", (), "Shown with amounts: $, EUR… Empty: none."),
    _Row(
        "trophy_follows_money",
        "Trophy follows the money",
        ("trophy follows money",),
        "Yes: a cash prize's trophy goes to the winner of its cash (the best placed sharer). "
        "No: trophies go by the standings order.",
    ),
    _Row(
        "team_size",
        "Team size",
        ("team count", "players counting"),
        "How many of a team's players count for its score (2 to 100).",
    ),
    _Row(
        "keep_apart",
        "Keep apart",
        ("keep players apart", "avoid"),
        "Players who must never be paired together (team-mates, family): their starting "
        "numbers (# column), a group of two or more, groups separated by semicolons, e.g. "
        "3, 17; 40, 41, 42. Empty: none.",
    ),
    _Row(
        "accelerated",
        "Accelerated pairings",
        ("acceleration", "baku acceleration"),
        "Yes: pair with FIDE's Baku Acceleration (C.04.5.1): the top half of round 1's "
        "players get virtual points in the first rounds. Announce it before round 1. No: "
        "the Dutch system alone.",
    ),
)
HEADER = ["Setting", "Value", "What it means"]
_ROW_OF = {row.name: position for position, row in enumerate(_ROWS, start=1)}
_BY_LABEL = {key: row for row in _ROWS for key in (row.label.lower(), *row.aliases)}
_DEFAULTS = SheetSettings()
_YES_NO = ("publish_partial", "write_pairings", "accelerated", *_OPTION_FIELD.values())
_TAB_FIELDS = (
    "results_tab",
    "players_tab",
    "standings_tab",
    "breakdown_tab",
    "errors_tab",
    "prizes_tab",
    "awards_tab",
)


def _default_text(name: str) -> str:
    value = getattr(_DEFAULTS, name)
    if isinstance(value, bool):
        return "Yes" if value else "No"
    if isinstance(value, tuple):
        return ", ".join(map(str, value))
    return "" if value is None else str(value)


def default_rows() -> list[list[str]]:
    """The settings tab as the worker creates it: a header and every setting's default."""
    return [list(HEADER)] + [[row.label, _default_text(row.name), row.hint] for row in _ROWS]


def read_settings(
    rows: Sequence[Sequence[str]] | None, tab: str = SETTINGS_TAB
) -> tuple[SheetSettings, list[SheetProblem]]:
    """The settings a tab's values give, and every problem with them (with its cell).

    ``rows`` are the tab's values from A1 (None when the tab does not exist yet: defaults).
    """
    if rows is None:
        return _DEFAULTS, []
    values: dict[str, str] = {}
    cells: dict[str, str] = {}
    problems: list[SheetProblem] = []
    for r, row in enumerate(rows):
        label = clean(row[0]) if row else ""
        value = clean(row[1]) if len(row) > 1 else ""
        if not label or (r == 0 and label.lower() == HEADER[0].lower()):
            continue
        known = _BY_LABEL.get(" ".join(label.lower().split()))
        if known is None:
            problems.append(
                SheetProblem(
                    f"not a setting; the settings are {', '.join(x.label for x in _ROWS)}",
                    a1(tab, r, 0),
                    label,
                )
            )
            continue
        if known.name in values:
            problems.append(
                SheetProblem(
                    f"{known.label} is set twice (first in {cells[known.name]})",
                    a1(tab, r, 0),
                    label,
                )
            )
            continue
        values[known.name] = value
        cells[known.name] = a1(tab, r, 1)
    settings = replace(_DEFAULTS, cells=cells)
    for f in fields(SheetSettings):
        text = values.get(f.name, "")
        if f.name == "cells" or not text:
            continue
        where = cells[f.name]
        if f.name in _YES_NO:
            on = yes_no(text)
            if on is None:
                problems.append(SheetProblem("answer Yes or No", where, text))
                continue
            answer: dict[str, Any] = {f.name: on}
            settings = replace(settings, **answer)
        elif f.name == "rounds":
            if not text.isdigit() or int(text) < 1:
                problems.append(
                    SheetProblem(
                        "the number of rounds must be a whole number of 1 or more, or empty",
                        where,
                        text,
                    )
                )
                continue
            settings = replace(settings, rounds=int(text))
        elif f.name == "discord_servers":
            entries = [server_entry(part) for part in re.split(r"[\s,;]+", text) if part]
            if len(entries) > MAX_SERVERS:
                problems.append(
                    SheetProblem(
                        f"a sheet names at most {MAX_SERVERS} Discord servers", where, text
                    )
                )
                continue
            if not all(entries):
                problems.append(
                    SheetProblem(
                        "name each Discord server by the code /tournament link-sheet gave "
                        "its TD (HK-…) or by its id, a number of 17 to 20 digits, separated "
                        "by commas (type one id alone as text, '80351110224678912: Google "
                        "rounds long numbers)",
                        where,
                        text,
                    )
                )
                continue
            settings = replace(settings, discord_servers=tuple(e for e in entries if e))
        elif f.name == "keep_apart":
            groups = _groups(text)
            if groups is None:
                problems.append(
                    SheetProblem(
                        "name the players to keep apart by starting number, two or more to "
                        "a group, groups separated by semicolons (3, 17; 40, 41, 42)",
                        where,
                        text,
                    )
                )
                continue
            settings = replace(settings, keep_apart=groups)
        else:
            text_settings: dict[str, Any] = {f.name: text}
            settings = replace(settings, **text_settings)
    problems += _check_profile(settings)
    problems += _check_tab_names(settings)
    return settings, problems


_SERVER_ID = re.compile(r"\d{17,20}")
#: The most Discord servers one sheet may name.
MAX_SERVERS = 100
#: The letters of a link code: no 0, 1, I, L or O, which look alike.
LINK_CODE_LETTERS = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
_LINK_CODE = re.compile(r"HK-?([A-HJKMNP-Z2-9]{4})-?([A-HJKMNP-Z2-9]{4})")


def new_link_code() -> str:
    """A new link code, unguessable (8 random letters of 31: about 40 bits), for a TD to
    have typed into the Discord servers row by an editor of the sheet.

    >>> code = new_link_code()
    >>> server_entry(code.lower()) == code and len(code) == 12
    True
    """
    letters = "".join(secrets.choice(LINK_CODE_LETTERS) for _ in range(8))
    return f"HK-{letters[:4]}-{letters[4:]}"


def server_entry(text: str) -> str | None:
    """One entry of the Discord servers row as Harkness compares it: a server's id, or a
    link code in capitals with its dashes; None when it is neither.

    >>> server_entry("'80351110224678912"), server_entry(" hk-abcd-efgh ")
    ('80351110224678912', 'HK-ABCD-EFGH')
    >>> server_entry("HKABCDEFGH"), server_entry("8.03511E+16"), server_entry("HK-ABCD-EFG0")
    ('HK-ABCD-EFGH', None, None)
    """
    entry = text.strip().lstrip("'").upper()
    if _SERVER_ID.fullmatch(entry):
        return entry
    code = _LINK_CODE.fullmatch(entry)
    return f"HK-{code[1]}-{code[2]}" if code else None


def _groups(text: str) -> tuple[tuple[int, ...], ...] | None:
    """The groups of a "Keep apart" cell, or None when it does not read as groups.

    >>> _groups("3, 17; 40 41 42;")
    ((3, 17), (40, 41, 42))
    >>> _groups("3"), _groups("3, 3"), _groups("Ann, Bob")
    (None, None, None)
    """
    groups = []
    for part in text.split(";"):
        numbers = [n for n in re.split(r"[\s,]+", part) if n]
        if not numbers:
            continue
        if not all(n.isdigit() and int(n) >= 1 for n in numbers):
            return None
        group = tuple(dict.fromkeys(int(n) for n in numbers))
        if len(group) < 2:
            return None
        groups.append(group)
    return tuple(groups)


def _check_profile(settings: SheetSettings) -> list[SheetProblem]:
    try:
        settings.profile()
    except HarknessError as error:
        problems = []
        for p in error.problems:
            name = "tiebreaks" if p.field == "tiebreaks" else "rules"
            if p.field == "options" and p.value in _OPTION_FIELD:
                name = _OPTION_FIELD[p.value]
            value = getattr(settings, name)
            text = ("Yes" if value else "No") if isinstance(value, bool) else value
            problems.append(SheetProblem(p.detail or p.message, settings.where(name), text))
        return problems
    return []


def _check_tab_names(settings: SheetSettings) -> list[SheetProblem]:
    problems = []
    seen: dict[str, str] = {SETTINGS_TAB.casefold(): "the settings tab"}
    for name in _TAB_FIELDS:
        title = getattr(settings, name)
        label = _ROWS[_ROW_OF[name] - 1].label
        if name == "players_tab" and title.casefold() == settings.results_tab.casefold():
            continue  # only used by a game list, where it is checked by the reader
        other = seen.get(title.casefold())
        if other is not None:
            problems.append(
                SheetProblem(f"{label} must differ from {other}", settings.where(name), title)
            )
        seen.setdefault(title.casefold(), f"the {label.lower()}")
    return problems
