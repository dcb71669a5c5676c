"""What ``convert`` checks before it writes: its own output, read back as ``harkness`` would
read it, decides the standings exactly as the source did (core/DECISIONS.md, T11).

Standings depend on the tournament model alone, given the profile: the rounds that count,
every player's entries (result, opponent, colour) and rating, the kind of event (a round
robin or a Swiss, FIDE C.07 5 / 6: :func:`core.model.is_round_robin`) and the profile the
rules in use resolve to (under ``--rules fide``, the C.07 text the start date picks:
:func:`core.profiles.resolve_for`). Comparing those is cheap; the names, other TRF-16
fields and the order of the file do not decide a place or a tiebreak.

A crosstable records neither planned rounds without a result (a round column with no
game result is not counted, where TRF-16's ``XXR`` rounds are rounds of absence for
everyone), nor TRF-16 record 092 (type of tournament): what differs is refused, located at
the source's record or column, naming what the target cannot hold. It records the start
date (its ``Start date`` line), so the C.07 text ``fide`` picks reads back the same.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from core.model import EntryKind, RoundEntry, Tournament, is_round_robin, rounds_played
from core.problems import Problem
from core.profiles import resolve_for

#: Players whose entries differ that are named one by one; the rest are counted.
_SHOWN = 10


def read_back_problems(
    source: Tournament, back: Tournament, target: str, rules: str = "fide"
) -> list[Problem]:
    """What ``back`` (the converted file read back and cut to the rounds played, as it is
    ranked) decides differently from ``source`` (the source as it is ranked) under the
    rules in use (``rules``, a profile name: the profile each start date resolves it to);
    ``target`` names the target format ("a crosstable", "TRF-16"). Each problem names the
    source's record (``field``: ``XXR``, ``092``, ``042``, ``Rd N``) or player and round."""
    problems = list(_rounds(source, back, target))
    if problems:  # the entries of the rounds that differ would only repeat it
        return problems
    if is_round_robin(source) is not is_round_robin(back):
        was, would = ("a round robin", "a Swiss") if is_round_robin(source) else ("a Swiss", "")
        would = would or "a round robin (everyone met everyone)"
        declared = next((text for code, text in source.records if code == "092"), "")
        declared = declared or ("Round Robin" if source.round_robin else "")
        record = f" (092 {declared.strip()})" if declared.strip() else ""
        problems.append(
            Problem(
                f"{target} cannot record the type of tournament{record}: read back, it "
                f"would be ranked as {would}, not as {was}",
                code="convert-would-change",
                field="092",
            )
        )
    edition, back_edition = (resolve_for(t.start_date, rules).name for t in (source, back))
    if edition != back_edition:
        problems.append(
            Problem(
                f"{target} cannot record the start date (042 {source.start_date.strip()}): "
                f"read back, --rules {rules} would rank it under {back_edition}, not {edition}",
                code="convert-would-change",
                field="042",
            )
        )
    problems += _players(source, back, target)
    return problems


def _rounds(source: Tournament, back: Tournament, target: str) -> Iterator[Problem]:
    if source.rounds == back.rounds:
        return
    played = rounds_played(source)
    if back.rounds < source.rounds:  # planned rounds without a result (TRF-16 → crosstable)
        yield Problem(
            f"{target} cannot record the {source.rounds} planned rounds (XXR "
            f"{source.rounds}; {played} have results): read back, it would be ranked after "
            f"round {back.rounds}",
            code="convert-would-change",
            field="XXR",
        )
        return
    # Entries in advance for rounds not yet played (crosstable → TRF-16).
    first = source.rounds + 1
    rounds = f"round {first}" if first == back.rounds else f"rounds {first}–{back.rounds}"
    yield Problem(
        f"{target} cannot record what is entered for {rounds} before any game result (byes "
        f"or withdrawals entered in advance): read back, it would be ranked after round "
        f"{back.rounds}, the other players absent",
        code="convert-would-change",
        field=f"Rd {first}",
    )


def _players(source: Tournament, back: Tournament, target: str) -> list[Problem]:
    others = {p.id: p for p in back.players}
    problems: list[Problem] = []
    differing = 0
    for p in source.players:
        q = others.pop(p.id, None)
        if q is not None and q.rating == p.rating and _ranked(q.entries) == _ranked(p.entries):
            continue
        differing += 1
        if differing > _SHOWN:
            continue
        if q is None:
            message = f"{target} would lose the player"
            problems.append(Problem(message, player=p.id, code="convert-would-change"))
        elif q.rating != p.rating:
            message = f"{target} cannot record the rating {p.rating}: it would read {q.rating}"
            problems.append(
                Problem(message, player=p.id, code="convert-would-change", field="Rating")
            )
        else:
            pairs = zip(_ranked(p.entries), _ranked(q.entries), strict=True)
            r = next(r for r, (a, b) in enumerate(pairs, 1) if a != b)
            was, would = (str(e[r - 1]) or "empty" for e in (p.entries, q.entries))
            message = f"{target} cannot record the entry {was}: read back, it would be {would}"
            problems.append(
                Problem(message, player=p.id, round=r, code="convert-would-change", field=f"Rd {r}")
            )
    differing += len(others)
    if differing > _SHOWN:
        message = f"and {differing - _SHOWN} more players would read back differently"
        problems.append(Problem(message, code="convert-would-change"))
    return problems


def _ranked(entries: Sequence[RoundEntry]) -> list[RoundEntry]:
    """The entries as scores and tiebreaks see them: a colour counts only in a game played
    over the board (C.07 7.3, 7.4), a pairing-allocated bye as any full-point bye (C.07
    16.2.1), and a zero-point bye, an absence and a round after withdrawal alike (a
    zero-point unplayed round, C.07 16.1.2 and US Chess 34E alike: TRF-16 writes a
    withdrawal as a zero-point bye, a crosstable's empty cells after a player's last entry
    read as a withdrawal). Pairing and the explanation's words tell them apart; no place or
    tiebreak does.
    """
    return [
        RoundEntry(_SAME.get(e.kind, e.kind), e.opponent, e.colour if e.kind.played else None)
        for e in entries
    ]


_SAME = {
    EntryKind.PAIRING_BYE: EntryKind.FULL_BYE,
    EntryKind.WITHDRAWN: EntryKind.ABSENT,
    EntryKind.ZERO_BYE: EntryKind.ABSENT,
}


def record_line(text: str, field: str | None) -> int | None:
    """The line of ``text`` (the source) that holds ``field``: a TRF-16 record (``XXR``,
    ``092``, ``042``) or, for a crosstable's round column (``Rd 3``), its heading's line."""
    if field is None or field == "Rating":
        return None
    lines = text.splitlines()
    if field.startswith("Rd "):
        return next((n for n, line in enumerate(lines, 1) if line.strip()), 1)
    return next((n for n, line in enumerate(lines, 1) if line.startswith(field + " ")), None)
