"""Rule profiles: which tiebreaks, in which order, under which options (core/RULEBOOK.md).

A profile is data, not branches in the code. Every option that sources disagree on is a
named field, so a club whose bulletin says otherwise can switch it.

>>> PROFILES["uscf"].order(rounds=5)
('MM', 'SOLK', 'CUM', 'OCUM')
>>> PROFILES["mdchess"].order(rounds=2)
('SOLK', 'CUM', 'OCUM', 'MM')
>>> resolve("uscf", "mm, solk, h2h").tiebreaks
('MM', 'SOLK', 'H2H')
>>> resolve("swisssys", "solk,mm").cumulative_half_bye  # codes keep the profile's options
True
>>> resolve("uscf", options={"cumulative-half-bye": True}).label
'uscf, Cumulative −½ per half-point bye'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from core.dates import read_date
from core.problems import HarknessError, Problem


class Family(StrEnum):
    """A rule family: which treatment of unplayed rounds applies, and which tiebreak codes
    mean what (:func:`core.tiebreaks.tiebreaks_of`)."""

    USCF = "uscf"
    """US Chess Rule 34E and the US programs' variants."""
    FIDE = "fide"
    """FIDE Handbook C.07."""


@dataclass(frozen=True, slots=True)
class Profile:
    """A rule profile.

    - ``tiebreaks``: codes in order of importance.
    - ``unplayed_points_rule``: a player whose whole (non-zero) score comes from unplayed
      rounds loses a tie to a player who scored in play, before any tiebreak (US Chess 34E,
      MCA; SwissSys has no such pre-check).
    - ``cumulative_half_bye``: Cumulative also subtracts ½ per half-point bye (off in US Chess,
      on in SwissSys).
    - ``sb_doubled``: show Sonneborn-Berger doubled, 2 × beaten + 1 × drawn (WinTD).
    - ``median_last_when_short``: in a section of 1 or 2 rounds Modified Median moves from
      its place to last (MD Chess's published crosstables).
    - ``family``: :class:`Family`: which unplayed-round treatment applies.
    - ``round_robin_tiebreaks``: the order for a round robin, where it differs (FIDE).
    """

    name: str
    description: str
    tiebreaks: tuple[str, ...]
    family: Family = Family.USCF
    unplayed_points_rule: bool = True
    cumulative_half_bye: bool = False
    sb_doubled: bool = False
    median_last_when_short: bool = False
    fide_version: str = ""
    round_robin_tiebreaks: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "family", Family(self.family))  # "fide" is Family.FIDE

    def order(self, rounds: int, round_robin: bool = False) -> tuple[str, ...]:
        """The tiebreak order that applies to a section of ``rounds`` rounds (a round robin
        takes ``round_robin_tiebreaks`` where the profile has them)."""
        if round_robin and self.round_robin_tiebreaks:
            return self.round_robin_tiebreaks
        codes = self.tiebreaks
        if self.median_last_when_short and rounds <= 2 and "MM" in codes:
            codes = (*(c for c in codes if c != "MM"), "MM")
        return codes

    @property
    def label(self) -> str:
        """The profile's name, with the options the TD changed from the named profile
        (``uscf, Cumulative −½ per half-point bye``)."""
        changed = [OPTION_BY_KEY[key].words(on) for key, on in changed_options(self).items()]
        return ", ".join([self.name, *changed])

    def variants(self) -> tuple[str, ...]:
        """In words, how this profile treats what US programs differ on: the Cumulative of
        half-point byes and the all-unplayed pre-check (empty for the FIDE family)."""
        if self.family is not Family.USCF:
            return ()
        return tuple(option.words(getattr(self, option.field)) for option in OPTIONS)


@dataclass(frozen=True, slots=True)
class ProfileOption:
    """A profile option a TD can set per tournament (``--cumulative-half-bye``, the bot's
    ``cumulative-half-bye`` option, the sheet's "Cumulative half-point bye" row).

    ``key`` is its name everywhere (CLI flag, bot option, stored text), ``label`` its row
    in a settings table, ``field`` the :class:`Profile` attribute it sets, ``question`` the
    yes/no question a TD answers, and ``on`` / ``off`` say in words what each answer means.
    """

    key: str
    label: str
    field: str
    question: str
    on: str
    off: str

    def words(self, on: bool) -> str:
        """What the option means when on (or off)."""
        return self.on if on else self.off


#: The options a TD can set per tournament, in the order they are shown. US Chess family
#: only: FIDE C.07 treats unplayed rounds in its own way (art. 16).
OPTIONS = (
    ProfileOption(
        "cumulative-half-bye",
        "Cumulative half-point bye",
        "cumulative_half_bye",
        "Cumulative: subtract ½ for each half-point bye?",
        "Cumulative −½ per half-point bye",
        "Cumulative keeps half-point byes",
    ),
    ProfileOption(
        "unplayed-rule",
        "Unplayed points rule",
        "unplayed_points_rule",
        "A score made only of unplayed rounds loses a tie, before any tiebreak?",
        "a score made only of unplayed rounds loses a tie",
        "no all-unplayed pre-check",
    ),
)
OPTION_BY_KEY = {option.key: option for option in OPTIONS}
_YES = frozenset({"yes", "y", "true", "on", "1"})
_NO = frozenset({"no", "n", "false", "off", "0"})


def yes_no(text: str) -> bool | None:
    """``yes``/``no`` (and ``on``/``off``, ``true``/``false``, ``1``/``0``) as a bool; None
    for anything else.

    >>> yes_no("Yes"), yes_no(" off "), yes_no("maybe")
    (True, False, None)
    """
    word = text.strip().lower()
    return True if word in _YES else False if word in _NO else None


def changed_options(profile: Profile) -> dict[str, bool]:
    """The options on which ``profile`` differs from the named profile it came from."""
    base = PROFILES.get(profile.name)
    if base is None or profile.family is not Family.USCF:
        return {}
    return {
        o.key: getattr(profile, o.field)
        for o in OPTIONS
        if getattr(profile, o.field) != getattr(base, o.field)
    }


def parse_options(text: str | None) -> dict[str, bool]:
    """Options as text (``cumulative-half-bye=yes, unplayed-rule=no``), as stored by the bot
    and typed by a TD; raises :class:`HarknessError` naming what is wrong.

    >>> parse_options("Cumulative-Half-Bye = yes; unplayed-rule=off")
    {'cumulative-half-bye': True, 'unplayed-rule': False}
    >>> parse_options("")
    {}
    """
    options: dict[str, bool] = {}
    problems = []
    for item in (text or "").replace(";", ",").split(","):
        if not item.strip():
            continue
        key, _, value = item.partition("=")
        key = key.strip().lower()
        on = yes_no(value)
        if key not in OPTION_BY_KEY:
            problems.append(_unknown_option(key))
        elif on is None:
            detail = f"answer yes or no (got {value.strip()!r})"
            problems.append(
                Problem(
                    f"option {key}: {detail}",
                    code="not-yes-no",
                    field="options",
                    value=key,
                    detail=detail,
                )
            )
        else:
            options[key] = on
    if problems:
        raise HarknessError(problems)
    return options


#: Why a FIDE profile takes no option.
_FIDE_OPTIONS = "(FIDE C.07 art. 16 decides unplayed rounds)"


def _unknown_option(key: str) -> Problem:
    detail = f"unknown; the options are {', '.join(OPTION_BY_KEY)}"
    return Problem(
        f"option {key!r}: {detail}",
        code="unknown-option",
        field="options",
        value=key,
        detail=detail,
    )


def _order_problem(code: str, detail: str, value: str | None = None) -> Problem:
    """A problem with a TD's tiebreak order (``--tiebreaks`` on the command line)."""
    return Problem(
        f"--tiebreaks: {detail}", code=code, field="tiebreaks", value=value, detail=detail
    )


def format_options(options: Mapping[str, bool]) -> str:
    """Options as text, the inverse of :func:`parse_options` (in :data:`OPTIONS` order).

    >>> format_options({"unplayed-rule": False, "cumulative-half-bye": True})
    'cumulative-half-bye=yes,unplayed-rule=no'
    """
    return ",".join(
        f"{o.key}={'yes' if options[o.key] else 'no'}" for o in OPTIONS if o.key in options
    )


def with_options(profile: Profile, options: Mapping[str, bool] | None) -> Profile:
    """``profile`` with the TD's options set (keys of :data:`OPTIONS`); its tiebreaks and
    every other option kept. Raises :class:`HarknessError` for an unknown key, or for any
    option under a FIDE profile."""
    if not options:
        return profile
    unknown = [k for k in options if k not in OPTION_BY_KEY]
    if unknown:
        raise HarknessError([_unknown_option(k) for k in unknown])
    if profile.family is not Family.USCF:
        raise HarknessError(
            [
                Problem(
                    f"option {k}: only for the US Chess profiles, not --rules {profile.name} "
                    f"{_FIDE_OPTIONS}",
                    code="option-not-for-profile",
                    field="options",
                    value=k,
                    detail=f"only for the US Chess profiles, not {profile.name} {_FIDE_OPTIONS}",
                )
                for k in options
            ]
        )
    changes: dict[str, Any] = {OPTION_BY_KEY[k].field: bool(on) for k, on in options.items()}
    return replace(profile, **changes)


US_DEFAULT = ("MM", "SOLK", "CUM", "OCUM")
#: FIDE's default order for a Swiss. C.07 leaves the list to the organiser (art. 4.1): the
#: cut Buchholz first (it blunts the luck of the last-round pairings), then the full one,
#: Sonneborn-Berger, the direct encounter, games won over the board and games with Black.
FIDE_SWISS_ORDER = ("BH/C1", "BH", "SB", "DE", "WON", "BPG")
#: For a round robin, where every player met every other and opponents' scores tell little:
#: the direct encounter, wins, Sonneborn-Berger, then Koya.
FIDE_ROUND_ROBIN_ORDER = ("DE", "WIN", "SB", "KS")

PROFILES: dict[str, Profile] = {
    p.name: p
    for p in (
        Profile(
            "uscf",
            "US Chess Rule 34E: Modified Median, Solkoff, Cumulative, Opponents' Cumulative",
            US_DEFAULT,
        ),
        Profile(
            "mdchess",
            "MD Chess (M, S, C, O); Modified Median moves last in 1–2 round sections",
            US_DEFAULT,
            median_last_when_short=True,
        ),
        Profile(
            "wintd",
            "WinTD: Modified Median, Solkoff, Cumulative, Opponents' Cumulative; "
            "Sonneborn-Berger shown doubled",
            US_DEFAULT,
            sb_doubled=True,
        ),
        Profile(
            "mca",
            "Michigan Chess Association: Modified Median, Solkoff, Cumulative, result between "
            "tied players, most Blacks, Opponents' Cumulative, Sonneborn-Berger, Kashdan",
            ("MM", "SOLK", "CUM", "H2H", "BLK", "OCUM", "SB", "KASH"),
        ),
        Profile(
            "swisssys",
            "SwissSys: Modified Median, Solkoff, Cumulative (−½ per half-point bye too), "
            "Opponents' Cumulative; no all-unplayed pre-check",
            US_DEFAULT,
            unplayed_points_rule=False,
            cumulative_half_bye=True,
        ),
        Profile(
            "fide-2024",
            "FIDE C.07 as in force from 1 August 2024: Buchholz Cut-1, Buchholz, "
            "Sonneborn-Berger, direct encounter, games won, games with Black; a dummy "
            "opponent with the player's own score for their unplayed rounds",
            FIDE_SWISS_ORDER,
            family=Family.FIDE,
            unplayed_points_rule=False,
            fide_version="2024-08",
            round_robin_tiebreaks=FIDE_ROUND_ROBIN_ORDER,
        ),
        Profile(
            "fide-2026",
            "FIDE C.07 as in force from 1 March 2026: as fide-2024, with the dummy opponent "
            "capped at half the maximum score (at the opponent's score after a forfeit)",
            FIDE_SWISS_ORDER,
            family=Family.FIDE,
            unplayed_points_rule=False,
            fide_version="2026",
            round_robin_tiebreaks=FIDE_ROUND_ROBIN_ORDER,
        ),
    )
}


def names() -> list[str]:
    """Every name ``--rules`` accepts: the profiles, with ``fide`` (see :func:`resolve_for`)
    before the FIDE texts it picks from.

    >>> names()[-3:]
    ['fide', 'fide-2024', 'fide-2026']
    """
    found = list(PROFILES)
    first_fide = next((i for i, n in enumerate(found) if n.startswith("fide-")), len(found))
    return [*found[:first_fide], "fide", *found[first_fide:]]


def resolve(
    name: str = "uscf", codes: str | None = None, options: Mapping[str, bool] | None = None
) -> Profile:
    """The profile called ``name``, with the TD's own tiebreak order if ``codes`` is given
    and the TD's ``options`` (see :func:`with_options`).

    ``codes`` is a comma list (``"MM,SOLK,CUM"``), case-insensitive. Unknown names and codes
    raise :class:`HarknessError` naming the option and what is allowed.
    """
    key = name.strip().lower()
    profile = PROFILES.get(key)
    if profile is None:
        detail = f"unknown profile; choose one of {', '.join(names())}"
        raise HarknessError(
            [
                Problem(
                    f"--rules {name!r}: {detail}",
                    code="unknown-profile",
                    field="rules",
                    value=name,
                    detail=detail,
                )
            ]
        )
    return with_options(with_tiebreaks(profile, codes), options)


def with_tiebreaks(profile: Profile, codes: str | None) -> Profile:
    """``profile`` with the TD's own order of tiebreak codes (a comma list, any case);
    every option of the profile is kept. None keeps the profile's order."""
    # The tiebreaks read profiles (one-way: core.tiebreaks imports this module), so the codes
    # a family knows are looked up when a TD's order is checked, not at import.
    from core.tiebreaks import tiebreaks_of

    if codes is None:
        return profile
    known = tiebreaks_of(profile.family)
    order = tuple(c.strip().upper() for c in codes.split(",") if c.strip())
    problems = [
        Problem(
            f"--tiebreaks: unknown code {c!r} for --rules {profile.name}; "
            f"known codes: {', '.join(known)}",
            code="unknown-code",
            field="tiebreaks",
            value=c,
            detail=f"unknown code {c!r}; the codes of {profile.name} are {', '.join(known)}",
        )
        for c in order
        if c not in known
    ]
    problems += [
        _order_problem("code-twice", f"{c!r} is given twice", c)
        for c in sorted(set(order))
        if order.count(c) > 1
    ]
    if "COIN" in order and order[-1] != "COIN":
        problems.append(
            _order_problem("coin-not-last", "COIN (a coin flip) can only be the last tiebreak")
        )
    if not order:
        problems.append(_order_problem("no-codes", "give at least one code, e.g. MM,SOLK,CUM"))
    if problems:
        raise HarknessError(problems)
    return replace(profile, tiebreaks=order, round_robin_tiebreaks=())


#: ``--rules fide`` picks the C.07 text in force at the tournament's start (core/RULEBOOK.md).
FIDE_2026_FROM = "2026-03-01"


def resolve_for(
    start_date: str,
    name: str = "uscf",
    codes: str | None = None,
    options: Mapping[str, bool] | None = None,
) -> Profile:
    """Like :func:`resolve`, but ``fide`` picks ``fide-2026`` for a section that started on
    or after 2026-03-01 (TRF record 042) and ``fide-2024`` otherwise.

    >>> resolve_for("2026-04-11", "fide").name, resolve_for("2025/10/02", "fide").name
    ('fide-2026', 'fide-2024')
    """
    if name.strip().lower() == "fide":
        started = read_date(start_date)
        name = "fide-2026" if started and started.isoformat() >= FIDE_2026_FROM else "fide-2024"
    return resolve(name, codes, options)
