"""The ``harkness`` command: standings, explanations, awards, conversions and pairings of
tournament files.

Exit status: 0 on success, 2 when the input or an option is wrong (every problem is printed
on standard error with its file, line and column, or player and round); nothing is written
half-way.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from core.formats import read_file, read_text, read_tournament
from core.model import Colour, EntryKind, Tournament
from core.problems import HarknessError, Problem
from core.profiles import OPTIONS, Profile, names, resolve_for
from core.render import FORMATS, render
from core.standings import Standings, compute_standings

if TYPE_CHECKING:
    from core.awards import Awards
    from core.pictures import Picture

EXIT_INPUT = 2
#: THEMES of core.pictures, repeated so that ``harkness`` starts without importing it.
THEMES = ("light", "dark")
#: FORMATS of core.pictures, likewise.
PICTURES = ("png", "svg")
#: Rows of a standings picture written by the CLI.
PICTURE_PAGE_ROWS = 50
#: FORMATS of core.awards.render, likewise.
AWARD_FORMATS = ("table", "json", "csv", "markdown")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="harkness",
        formatter_class=_formatter,
        description="Chess tiebreaks a club can trust: US Chess Rule 34 and FIDE C.07.",
    )
    parser.add_argument(
        "--version", action=_VersionAction, nargs=0, help="show the version and exit"
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def rules_options(p: argparse.ArgumentParser) -> None:
        p.add_argument("path", metavar="PATH", help="TRF-16 file or crosstable text/CSV")
        p.add_argument(
            "--rules",
            default="uscf",
            metavar="PROFILE",
            help=f"rule profile: {', '.join(names())} (default: uscf)",
        )
        profile_flags(p)
        p.add_argument(
            "--tiebreaks",
            metavar="CODES",
            help="your own order of tiebreak codes, e.g. MM,SOLK,CUM,OCUM",
        )
        p.add_argument(
            "--after-round", type=int, metavar="K", help="standings as they were after round K"
        )

    def picture_options(p: argparse.ArgumentParser) -> None:
        p.add_argument("--output", metavar="FILE", help="write to FILE instead of standard output")
        p.add_argument(
            "--theme",
            choices=THEMES,
            default="light",
            help="png, svg: light or dark (default light)",
        )

    standings = commands.add_parser(
        "standings", help="rank a section by score and tiebreaks", formatter_class=_formatter
    )
    rules_options(standings)
    standings.add_argument("--format", choices=(*FORMATS, *PICTURES), default="table")
    picture_options(standings)
    standings.add_argument(
        "--page",
        type=int,
        default=1,
        metavar="N",
        help=f"png, svg: page N of {PICTURE_PAGE_ROWS} rows each (default 1)",
    )
    standings.add_argument(
        "--narrow",
        action="store_true",
        help="png, svg: fit a phone screen (names cut, up to two tiebreak columns left out)",
    )

    explain = commands.add_parser(
        "explain", help="why a player finished where they did", formatter_class=_formatter
    )
    rules_options(explain)
    explain.add_argument("player", metavar="PLAYER", help="starting number or (part of) a name")
    explain.add_argument(
        "--format", choices=("text", "markdown", "json", *PICTURES), default="text"
    )
    explain.add_argument(
        "--prizes", metavar="FILE", help="a prize file (TOML): the player's award and why"
    )
    picture_options(explain)

    awards = commands.add_parser(
        "awards",
        help="who wins which prize, trophy and team title (US Chess 32B, FIDE-world methods)",
        formatter_class=_formatter,
    )
    rules_options(awards)
    awards.add_argument(
        "--prizes", required=True, metavar="FILE", help="the prize file (TOML) of the section"
    )
    awards.add_argument("--format", choices=(*AWARD_FORMATS, *PICTURES), default="table")
    picture_options(awards)

    convert = commands.add_parser(
        "convert",
        help="convert between TRF-16 and crosstable text",
        formatter_class=_formatter,
    )
    convert.add_argument("source", metavar="IN")
    convert.add_argument(
        "target",
        metavar="OUT",
        help="*.trf writes TRF-16, *.csv a CSV crosstable, else crosstable text",
    )
    convert.add_argument(
        "--rules",
        default="uscf",
        metavar="PROFILE",
        help="the rules the output, read back, must rank the same under; with --standings "
        "also the profile whose tiebreak columns to add",
    )
    convert.add_argument(
        "--standings",
        action="store_true",
        help="crosstables: order by standings and add Tot and tiebreak columns; TRF-16: "
        "write the ranks of --rules in the rank column (else kept as read)",
    )
    profile_flags(convert)
    pair = commands.add_parser(
        "pair",
        formatter_class=_formatter,
        help="pair the next round by the FIDE Dutch system (needs harkness[pairing])",
        description="Pair a round by the FIDE Dutch system (C.04.3), using the gacrux engine; "
        "every pairing is checked against the absolute criteria before it is shown. "
        "US Chess pairing rules (27-29) differ and are not what this pairs by.",
    )
    pair.add_argument("path", metavar="PATH", help="TRF-16 file or crosstable text/CSV")
    pair.add_argument(
        "--round", type=int, metavar="N", help="the round to pair (default: the next one)"
    )
    pair.add_argument(
        "--rounds", type=int, metavar="R", help="the planned number of rounds (default: XXR)"
    )
    pair.add_argument(
        "--initial-colour",
        choices=("white", "black"),
        help="round 1's colour for the top player, before round 1 is played (default: TRF "
        "152/XXC, else white; once round 1 is in the file, the colour it was played with)",
    )
    for option, kind in _REQUESTS.items():
        pair.add_argument(
            f"--{option}",
            metavar="IDS",
            default="",
            help=f"starting numbers (comma-separated) with a {kind.value} this round",
        )
    pair.add_argument(
        "--avoid",
        action="append",
        default=[],
        metavar="IDS",
        help="starting numbers (comma-separated) of players who must not meet, e.g. "
        "team-mates or family; repeat for each group",
    )
    pair.add_argument(
        "--accelerate",
        choices=("baku",),
        help="an accelerated method announced before the event: baku, FIDE's Baku "
        "Acceleration (C.04.5.1); a file's own virtual points (TRF 250, XXA) apply without it",
    )
    pair.add_argument("--format", choices=("text", "json", "trf"), default="text")
    pair.add_argument("--trf", metavar="OUT", help="also write the paired round as TRF-16")
    return parser


def _formatter(prog: str) -> argparse.HelpFormatter:
    """argparse's help formatter, told the terminal's width: left to find it, argparse
    imports shutil (and with it bz2, lzma and zlib) for every option added, whether help
    is asked for or not."""
    return argparse.HelpFormatter(prog, width=_terminal_columns() - 2)


def _terminal_columns() -> int:
    """The width ``shutil.get_terminal_size()`` gives: ``$COLUMNS``, else standard
    output's terminal, else 80."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0 and sys.__stdout__ is not None:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (ValueError, OSError):
            columns = 0
    return columns or 80


#: The requests ``harkness pair`` takes for the round, by option name.
_REQUESTS = {
    "half-bye": EntryKind.HALF_BYE,
    "zero-bye": EntryKind.ZERO_BYE,
    "full-bye": EntryKind.FULL_BYE,
    "withdraw": EntryKind.WITHDRAWN,
}


def profile_flags(parser: argparse.ArgumentParser) -> None:
    """``--cumulative-half-bye`` / ``--no-cumulative-half-bye`` and the like: one pair of
    flags per profile option (:data:`core.profiles.OPTIONS`); left out, the profile's own."""
    for option in OPTIONS:
        parser.add_argument(
            f"--{option.key}",
            dest=option.field,
            action=argparse.BooleanOptionalAction,
            default=None,
            help=f"{option.question} (default: the profile's)",
        )


def _options(args: argparse.Namespace) -> dict[str, bool]:
    """The profile options given as flags."""
    return {o.key: getattr(args, o.field) for o in OPTIONS if getattr(args, o.field) is not None}


class _VersionAction(argparse.Action):
    """``--version``: the installed version, looked up only when asked (importing
    ``importlib.metadata`` costs more than reading a small section)."""

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        parser.exit(message=f"harkness {_version()}\n")


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("harkness")
    except PackageNotFoundError:  # running from a source tree that was never installed
        return "unknown"


def _read(
    path: str, warnings: list[Problem], *, played: bool = False, texts: list[str] | None = None
) -> Tournament:
    """Read a tournament file; what the reader noticed but accepted goes to ``warnings``,
    and the file's text to ``texts`` when given."""
    text = read_file(path)
    if texts is not None:
        texts.append(text)
    tournament = read_text(text, path, played=played)
    warnings.extend(tournament.warnings)
    return tournament


def _load(
    args: argparse.Namespace, warnings: list[Problem], texts: list[str] | None = None
) -> tuple[Tournament, Profile]:
    """The tournament to rank (after ``--after-round``, or after the rounds played) and its
    profile."""
    tournament = _read(args.path, warnings, played=args.after_round is None, texts=texts)
    if args.after_round is not None:
        tournament = tournament.after_round(args.after_round)
    profile = resolve_for(tournament.start_date, args.rules, args.tiebreaks, _options(args))
    return tournament, profile


def _awards(args: argparse.Namespace, warnings: list[Problem]) -> tuple[Standings, Awards]:
    """The standings and the award list of ``args.path`` under the prize file
    ``args.prizes``; the teams are the prize file's, else the tournament file's (a TRF-16
    file's team records, a crosstable's ``Team`` column)."""
    from core.awards import compute_awards, read_prize_file, section_problems
    from core.formats import is_trf, read_teams

    prizes = read_prize_file(args.prizes)
    texts: list[str] = []
    tournament, profile = _load(args, warnings, texts)
    teams = read_teams(texts[0], tournament, args.path)
    where = "013" if is_trf(texts[0]) else "Team"
    problems = section_problems(prizes, tournament, teams, where)
    if problems:
        raise HarknessError(problems)
    standings = compute_standings(tournament, profile)
    return standings, compute_awards(standings, prizes, teams)


def _award_list(args: argparse.Namespace, warnings: list[Problem]) -> str:
    _, awards = _awards(args, warnings)
    if args.format in PICTURES:
        from core.pictures.awards import awards_picture

        return _picture_output(args, awards_picture(awards, args.theme, args.format))
    from core.awards.render import render_awards

    return _output(args, render_awards(awards, args.format), args.format)


def _write_atomically(path: Path, content: str | bytes) -> None:
    """Write the whole file or nothing: a temporary file renamed over the target, with the
    target's permissions (a new file: those of any file the user creates, the umask's, not
    the temporary file's owner-only ones)."""
    import stat
    import tempfile  # here: only a command that writes a file needs it

    data = content.encode("utf-8") if isinstance(content, str) else content
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    handle, temporary = tempfile.mkstemp(dir=path.parent or ".", prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _convert(args: argparse.Namespace, warnings: list[Problem]) -> str:
    """Write the source in the target's format, after reading the output back as
    ``harkness`` would and finding it ranks the same (:mod:`core.formats.readback`).

    A crosstable is ranked after its rounds with a game result: TRF-16 gets those as its
    rounds (``XXR``) when the columns after them are empty; anything entered in them (a bye
    in advance) is written as it is and refused by the read-back check."""
    from core.formats import is_trf, read_file, read_text
    from core.model import as_played

    source_text = read_file(args.source)
    tournament = read_text(source_text, args.source)
    warnings.extend(tournament.warnings)
    ranked = tournament if is_trf(source_text) else as_played(tournament)
    target = Path(args.target)
    to_trf = target.suffix.lower() == ".trf"
    standings = None
    # The rules in use: the output must rank the same under them (and says the start date,
    # which picks the C.07 text under fide, so it ranks the same under every profile).
    profile = resolve_for(ranked.start_date, args.rules, options=_options(args))
    if args.standings:  # else TRF-16 keeps the input's rank column (see write_trf)
        tournament = ranked
        standings = compute_standings(tournament, profile)
    elif to_trf and _only_empty_after(tournament, ranked.rounds):
        tournament = ranked
    try:
        if to_trf:
            from core.formats.trf import write_trf

            text = write_trf(tournament, standings)
        else:
            from core.formats.crosstable import write_crosstable

            separator = "," if target.suffix.lower() == ".csv" else "  "
            text = write_crosstable(tournament, standings if args.standings else None, separator)
        kind = "TRF-16" if to_trf else "a crosstable"
        _check_read_back(ranked, text, args.target, kind, args.rules)
    except HarknessError as error:  # what the target format cannot hold, found in the source
        from core.formats.readback import record_line

        raise HarknessError(
            replace(
                p,
                path=p.path or args.source,
                line=p.line or (None if p.player else record_line(source_text, p.field) or 1),
            )
            for p in error.problems
        ) from None
    _write(target, text)
    return f"wrote {target} ({len(tournament)} players, {tournament.rounds} rounds)\n"


def _only_empty_after(tournament: Tournament, rounds: int) -> bool:
    """Whether every entry after round ``rounds`` is an empty cell (absent)."""
    return all(e.kind is EntryKind.ABSENT for p in tournament for e in p.entries[rounds:])


def _check_read_back(source: Tournament, text: str, target: str, kind: str, rules: str) -> None:
    """Raise what ``text``, read back as ``harkness`` reads ``target``, would rank
    differently from ``source`` (as it is ranked) under ``rules`` (``--rules``)."""
    from core.formats import read_text
    from core.formats.readback import read_back_problems

    try:
        back = read_text(text, target, played=True)
    except HarknessError as error:  # a writer's slip: say so, located in what it wrote
        raise HarknessError(
            replace(p, message=f"the output would not read back: {p.message}")
            for p in error.problems
        ) from None
    problems = read_back_problems(source, back, kind, rules)
    if problems:
        raise HarknessError(problems)


def _write(target: Path, content: str | bytes) -> None:
    try:
        _write_atomically(target, content)
    except OSError as error:
        raise HarknessError(
            [
                Problem(
                    f"cannot write the file: {error.strerror}",
                    path=str(target),
                    code="cannot-write",
                )
            ]
        ) from None


def _output(args: argparse.Namespace, content: str | bytes, what: str) -> str:
    """``content`` for standard output, or written to ``--output`` (a picture must be)."""
    if args.output is None:
        if isinstance(content, bytes):
            raise HarknessError(
                [
                    Problem(
                        "--format png writes a file: give --output FILE",
                        code="needs-output",
                        field="output",
                        detail="a PNG picture is written to a file",
                    )
                ]
            )
        return content
    _write(Path(args.output), content)
    return f"wrote {args.output} ({what})\n"


def _standings_picture(args: argparse.Namespace, standings: Standings) -> str:
    from core.pictures.standings import StandingsPage, standings_picture

    pages = max(1, -(-len(standings.rows) // PICTURE_PAGE_ROWS))
    if not 1 <= args.page <= pages:
        detail = f"pages run 1–{pages}"
        raise HarknessError(
            [
                Problem(
                    f"--page {args.page}: {detail}",
                    code="no-such-page",
                    field="page",
                    value=str(args.page),
                    detail=detail,
                )
            ]
        )
    page = StandingsPage(standings, (args.page - 1) * PICTURE_PAGE_ROWS, PICTURE_PAGE_ROWS)
    picture = standings_picture(page, args.theme, args.narrow, args.format)
    return _picture_output(args, picture, f"page {args.page} of {pages}, ")


def _picture_output(args: argparse.Namespace, picture: Picture, what: str = "") -> str:
    """A PNG goes to ``--output``; an SVG (text) may go to standard output."""
    data = picture.data.decode("utf-8") if picture.format == "svg" else picture.data
    size = f"{what}{picture.width}×{picture.height} px, {len(picture.data):,} bytes"
    return _output(args, data, size)


def _explain(args: argparse.Namespace, warnings: list[Problem]) -> str:
    from core.explain import explain
    from core.explain_render import render_explanation
    from core.players import find, unfound

    awards = None
    if args.prizes is not None:
        standings, awards = _awards(args, warnings)
        tournament = standings.tournament
    else:
        tournament, profile = _load(args, warnings)
        standings = compute_standings(tournament, profile)
    players, typed = tournament.players, args.player
    found = find(players, typed, number=lambda p: p.id, name=lambda p: p.name)
    if found.match is None:
        problem = unfound(found, typed, players, number=lambda p: p.id, name=lambda p: p.name)
        raise HarknessError([problem])
    explanation = explain(standings, found.match.id, args.after_round, awards)
    if args.format in PICTURES:
        from core.pictures.why import why_picture

        return _picture_output(args, why_picture(standings, explanation, args.theme, args.format))
    return _output(args, render_explanation(explanation, args.format), args.format)


def _numbers(option: str, text: str) -> list[int]:
    """Comma-separated starting numbers (``3,8``)."""
    words = [w.strip() for w in text.split(",") if w.strip()]
    bad = [w for w in words if not (w.isdecimal() and w.isascii())]
    if bad:
        detail = f"expected starting numbers, got {bad[0]!r}"
        raise HarknessError(
            [
                Problem(
                    f"{option}: {detail}",
                    code="not-starting-numbers",
                    field=option.removeprefix("--"),
                    value=bad[0],
                    detail=detail,
                )
            ]
        )
    return [int(w) for w in words]


def _requests(args: argparse.Namespace) -> dict[int, EntryKind]:
    requests: dict[int, EntryKind] = {}
    for option, kind in _REQUESTS.items():
        for number in _numbers(f"--{option}", getattr(args, option.replace("-", "_"))):
            requests[number] = kind
    return requests


def _pair(args: argparse.Namespace) -> str:
    from core.pairing import prepare
    from core.pairing.acceleration import Acceleration
    from core.pairing.isolated import pair_isolated
    from core.pairing.render import pairing_json, pairing_text
    from core.pairing.trf import pairing_trf

    tournament = read_tournament(args.path)
    colour = {"white": Colour.WHITE, "black": Colour.BLACK}.get(args.initial_colour or "")
    request = prepare(
        tournament,
        args.round,
        rounds=args.rounds,
        colour=colour,
        requests=_requests(args),
        avoid=[_numbers("--avoid", group) for group in args.avoid],
        acceleration=Acceleration(args.accelerate) if args.accelerate else None,
    )
    pairing = pair_isolated(request)
    trf = pairing_trf(request, pairing) if args.trf or args.format == "trf" else ""
    if args.trf:
        _write(Path(args.trf), trf)
    if args.format == "trf":
        return trf
    if args.format == "json":
        return pairing_json(request, pairing)
    return pairing_text(request, pairing)


def run(
    argv: Sequence[str] | None = None,
    warnings: list[Problem] | None = None,
    keep: list[object] | None = None,
) -> str:
    """Run a command and return what it prints; raises HarknessError on bad input.

    What the input's reader accepted with a warning (a TRF points column that disagrees
    with the results) is appended to ``warnings``; JSON standings also carry it. The
    standings computed are appended to ``keep`` when given (see :func:`console`).
    """
    args = _parser().parse_args(argv)
    found: list[Problem] = [] if warnings is None else warnings
    if args.command == "convert":
        return _convert(args, found)
    if args.command == "explain":
        return _explain(args, found)
    if args.command == "awards":
        return _award_list(args, found)
    if args.command == "pair":
        return _pair(args)
    tournament, profile = _load(args, found)
    standings = compute_standings(tournament, profile)
    if keep is not None:
        keep.append(standings)
    if args.format in PICTURES:
        return _standings_picture(args, standings)
    return _output(args, render(standings, args.format), args.format)


def main(argv: Sequence[str] | None = None, keep: list[object] | None = None) -> int:
    """Run the ``harkness`` command, print what it says and return its exit status
    (``keep``: see :func:`run`)."""
    # A short-lived process that builds ~10^5 acyclic objects: the cyclic garbage collector
    # would only re-scan them (about a tenth of the run time on large sections).
    gc.disable()
    warnings: list[Problem] = []
    try:
        output = run(argv, warnings, keep)
    except HarknessError as error:
        for problem in error.problems:
            print(f"harkness: {problem}", file=sys.stderr)
        return EXIT_INPUT
    for warning in warnings:
        print(f"harkness: warning: {warning}", file=sys.stderr)
    sys.stdout.write(output)
    return 0


def console() -> NoReturn:
    """The ``harkness`` console script and ``python -m core``: :func:`main`, then the
    process ends at once with its exit status, its output flushed. Tearing the interpreter
    down, and freeing the section's objects one by one first (the standings are kept
    until the end), would only cost time: about a tenth of the run of a 5,000-player
    section. A reader that stops early (``harkness standings … | head``) ends the command
    quietly with status 1, as other command-line tools do, not with a traceback."""
    kept: list[object] = []
    try:
        code = main(keep=kept)
        sys.stdout.flush()
    except BrokenPipeError:
        # Python's advice for a closed pipe: point stdout at nothing so that the flush at
        # exit cannot fail again, and say nothing (the reader has gone).
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        os._exit(1)
    try:
        sys.stderr.flush()
    except OSError:
        sys.exit(code)
    os._exit(code)


if __name__ == "__main__":  # pragma: no cover
    console()
