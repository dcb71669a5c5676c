"""Everything a pairing engine must be told about the round it pairs, decided once here.

- **The round**: the one after the last round with a game, forfeit or pairing-allocated bye
  (requested byes recorded ahead of time do not make a round "played").
- **The planned number of rounds** (TRF ``XXR``), kept apart from the rounds played: the
  Dutch system treats the final round differently (C.04.3 A.7, topscorers).
- **Who is paired** (C.04.2 general handling rules): everyone, except players with a
  requested half-, full- or zero-point bye for the round, and players who withdrew. A bye
  already recorded in the round's column of the file is a request; so is a withdrawal
  recorded in the round before (it stays in force).
- **The initial colour** (C.04.2: drawn by lot before round 1): once round 1 is in the
  file, the colour its top seed had there (the highest-ranked player who played in round 1
  had the initial colour, C.04.3 E.5); before that the TD's option, else TRF record ``152``
  (``W``/``B``) or a ``XXC`` ``white1``/``black1`` configuration record, else white, so
  that the same file always gives the same pairings. The request says which it was.
- **The pairing numbers** (C.04.2, initial ranking list): the starting numbers of the file,
  as the event was paired with them (a TRF's starting ranks, a crosstable's ``#``; the
  arbiter may have seeded unrated players by estimate, and C.04.2 freezes the numbers).
  Only a source without pairing numbers (a Discord event, whose numbers are the order of
  registration) gets C.04.2's initial order: rating, highest first (unrated last), then
  FIDE title, then name; late entries take their place in it while pairing numbers may
  still change (rounds 1 to 3), and after that follow everyone, in the order they entered.
- **Players to keep apart** (team-mates, family): groups the TD names, and the prohibited
  pairings (TRF record 260) of the file for this round; the engine is told (as record 260)
  and core's check refuses any pairing that breaks them.
- **A colour for every game played**: the colour rules need it, and a missing colour is an
  error naming the game, not a guess.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import Enum

from core.model import Colour, EntryKind, Player, RoundEntry, Tournament
from core.names import name_key
from core.pairing.acceleration import Acceleration, virtual_points
from core.pairing.model import NOT_PAIRED
from core.problems import HarknessError, Problem

__all__ = [
    "ColourSource",
    "Numbering",
    "PairingRequest",
    "initial_colour",
    "initial_order",
    "next_round",
    "pairing_numbers",
    "prepare",
    "prohibited_pairings",
]

#: FIDE titles in the order C.04.2's initial ranking list takes them.
TITLE_ORDER = ("GM", "IM", "WGM", "FM", "WIM", "CM", "WFM", "WCM")

#: The last round whose pairing may still change pairing numbers (late entries, corrected
#: ratings): from the fourth round on, C.04.2 keeps them as they are.
LAST_RENUMBERED_ROUND = 3


class Numbering(Enum):
    """Where the pairing numbers come from."""

    #: The starting numbers are the pairing numbers (a TRF's starting ranks, a crosstable's
    #: ``#``): the order the event was paired with.
    STARTING = "starting numbers"
    #: C.04.2's initial ranking list (rating, title, name), for a source without pairing
    #: numbers (players numbered in the order they registered).
    INITIAL_ORDER = "initial order"


class ColourSource(Enum):
    """Where round 1's colour for the top player (the initial colour) came from."""

    ROUND_ONE = "round 1"
    OPTION = "option"
    RECORD = "file record"
    DEFAULT = "default"


@dataclass(frozen=True, slots=True)
class PairingRequest:
    """The round to pair and what it is paired from.

    ``history`` holds every player with their entries of rounds 1 to ``round − 1`` only;
    ``rounds`` is the planned number of rounds; ``not_paired`` maps a player to the entry
    they have instead of a game this round (a bye of a kind, or withdrawal).
    """

    history: Tournament
    round: int
    rounds: int
    initial_colour: Colour = Colour.WHITE
    not_paired: Mapping[int, EntryKind] = field(default_factory=dict)
    #: Groups of players none of whom may meet this round (team-mates, family), by the TD.
    avoid: tuple[frozenset[int], ...] = ()
    #: Starting numbers in pairing-number order (pairing number 1 first); empty: the
    #: starting numbers' own order.
    order: tuple[int, ...] = ()
    #: Where :attr:`initial_colour` came from.
    colour_source: ColourSource = ColourSource.DEFAULT
    #: Virtual points of an accelerated method (round → starting number → half-points) for
    #: rounds 1 to :attr:`round`, added to the scores for pairing only
    #: (:mod:`core.pairing.acceleration`).
    virtual_points: Mapping[int, Mapping[int, int]] = field(default_factory=dict)
    #: The accelerated method announced, or None (then any virtual points are the file's).
    acceleration: Acceleration | None = None

    @property
    def pairing_order(self) -> tuple[int, ...]:
        """Starting numbers, pairing number 1 first."""
        return self.order or tuple(sorted(p.id for p in self.history.players))

    def pairing_numbers(self) -> dict[int, int]:
        """Each player's pairing number, by starting number."""
        return {pid: n for n, pid in enumerate(self.pairing_order, start=1)}

    @property
    def to_pair(self) -> list[Player]:
        """The players to be paired (or given the pairing-allocated bye), in file order."""
        return [p for p in self.history.players if p.id not in self.not_paired]


def next_round(tournament: Tournament) -> int:
    """The round to pair next: one after the last round in which anyone was paired.

    >>> from core.formats.crosstable import read_crosstable
    >>> t = read_crosstable('''#  Name  Rd 1  Rd 2  Rd 3
    ... 1  Ann  W2  H  H
    ... 2  Bob  L1  U  U
    ... 3  Cy   B   U  U''')
    >>> next_round(t)
    2
    """
    last = 0
    for p in tournament.players:
        for r, e in enumerate(p.entries, start=1):
            if r > last and (e.kind.has_opponent or e.kind is EntryKind.PAIRING_BYE):
                last = r
    return last + 1


def initial_colour(tournament: Tournament) -> Colour | None:
    """The colour drawn for the top player of round 1, if the file records it: TRF record
    ``152`` (``W`` or ``B``), or ``XXC white1`` / ``XXC black1`` (bbpPairings, JaVaFo).

    >>> from core.formats.trf import read_trf
    >>> line = "001    1      Ann" + " " * 64 + "0.0"
    >>> initial_colour(read_trf("XXC black1\\n" + line)), initial_colour(read_trf(line))
    (<Colour.BLACK: 'b'>, None)
    """
    for code, text in tournament.records:
        words = text.split()
        if code == "152" and words and words[0][:1].upper() in "WB":
            return Colour.WHITE if words[0][:1].upper() == "W" else Colour.BLACK
        if code == "XXC":
            lowered = [w.lower() for w in words]
            if "white1" in lowered:
                return Colour.WHITE
            if "black1" in lowered:
                return Colour.BLACK
    return None


def round_one_colour(tournament: Tournament, order: tuple[int, ...]) -> Colour | None:
    """The initial colour as round 1 of the file shows it: the colour of the
    highest-ranked player who played a game in round 1 (board 1's top seed, who had the
    initial colour, C.04.3 E.5), or None when nobody played in round 1 with a colour.

    >>> from core.formats.crosstable import read_crosstable
    >>> t = read_crosstable('''#  Name  Rd 1
    ... 1  Ann  H
    ... 2  Bob  L4 (w)
    ... 3  Cy   B
    ... 4  Dee  W2 (b)''')
    >>> round_one_colour(t, (1, 2, 3, 4)), round_one_colour(t, (4, 3, 2, 1))
    (<Colour.WHITE: 'w'>, <Colour.BLACK: 'b'>)
    """
    for pid in order:
        entries = tournament.player(pid).entries
        if entries and entries[0].kind.played and entries[0].colour is not None:
            return entries[0].colour
    return None


def initial_order(players: list[Player]) -> list[Player]:
    """C.04.2's initial ranking list: rating (unrated last), FIDE title, then name
    (alphabetically; the starting number last, so that equal names keep one order).

    >>> order = initial_order([Player(1, "Zed", rating=1800), Player(2, "Amy", rating=1800),
    ...                        Player(3, "Bo"), Player(4, "Cy", rating=1800, title="FM")])
    >>> [p.id for p in order]
    [4, 2, 1, 3]
    """

    def key(p: Player) -> tuple[int, int, str, int]:
        title = p.title.upper()
        rank = TITLE_ORDER.index(title) if title in TITLE_ORDER else len(TITLE_ORDER)
        return (-(p.rating or 0), rank, name_key(p.name), p.id)

    return sorted(players, key=key)


def _entered(p: Player, played: int) -> int:
    """The first round a player took part in, of the first ``played`` (a game, a forfeit or
    a bye other than a zero-point one: a late entry's rounds before are zero-point byes or
    nothing); ``played + 1`` when none."""
    for r, e in enumerate(p.entries[:played], start=1):
        if e.kind not in (EntryKind.ZERO_BYE, EntryKind.ABSENT):
            return r
    return played + 1


def pairing_numbers(tournament: Tournament, round: int, numbering: Numbering) -> tuple[int, ...]:
    """Starting numbers in pairing-number order for pairing ``round``.

    :attr:`Numbering.STARTING` keeps the starting numbers' order. :attr:`Numbering.INITIAL_ORDER`
    ranks by C.04.2's initial order; while pairing numbers may still change (rounds 1 to 3)
    late entries take their place in it, and from round 4 on the players who entered after
    round 3 follow the others, in the order they entered (then by the initial order).

    >>> zero, half = RoundEntry(EntryKind.ZERO_BYE), RoundEntry(EntryKind.HALF_BYE)
    >>> t = Tournament((Player(1, "Ann", (zero,) * 4, 1500), Player(2, "Bob", (half,) * 4, 1400)), 4)
    >>> [pairing_numbers(t, r, Numbering.INITIAL_ORDER) for r in (3, 4)]
    [(1, 2), (2, 1)]
    >>> pairing_numbers(t, 4, Numbering.STARTING)
    (1, 2)
    """  # noqa: E501
    players = list(tournament.players)
    if numbering is Numbering.STARTING:
        return tuple(sorted(p.id for p in players))
    ranked = initial_order(players)
    if round <= LAST_RENUMBERED_ROUND:
        return tuple(p.id for p in ranked)
    frozen = LAST_RENUMBERED_ROUND
    return tuple(p.id for p in sorted(ranked, key=lambda p: max(_entered(p, round - 1), frozen)))


def prepare(
    tournament: Tournament,
    round: int | None = None,
    *,
    rounds: int | None = None,
    colour: Colour | None = None,
    requests: Mapping[int, EntryKind] | None = None,
    avoid: Iterable[Iterable[int]] = (),
    numbering: Numbering = Numbering.STARTING,
    acceleration: Acceleration | None = None,
) -> PairingRequest:
    """The request to pair ``round`` (default: :func:`next_round`) of ``tournament``.

    ``rounds`` declares the planned number of rounds (default: the file's); ``colour`` the
    initial colour before round 1 is played (default: the file's record, else white);
    ``requests`` adds byes and withdrawals for the round to those recorded in the file (a
    player's request here wins); ``avoid`` lists groups of players (two or more, by
    starting number) who must not meet this round; ``numbering`` says whether the starting
    numbers are the pairing numbers (a file's) or C.04.2's initial order gives them (a
    source without pairing numbers); ``acceleration`` an accelerated method the TD
    announced (else the file's own virtual points, TRF record 250 or ``XXA``, if any).

    Raises :class:`HarknessError` naming the option or the game that is wrong: a round
    out of range, more rounds than planned, a request for a player who does not exist or
    of a kind that is not a bye or withdrawal, a game played without a recorded colour,
    an initial colour other than the one round 1 was played with.
    """
    problems: list[Problem] = []
    latest = next_round(tournament)
    number = latest if round is None else round
    planned = tournament.rounds if rounds is None else rounds
    if number < 1:
        problems.append(
            Problem(
                f"--round must be 1 or more (got {number})",
                code="bad-round",
                field="round",
                value=str(number),
                detail=f"must be 1 or more (got {number})",
            )
        )
    elif number > latest:
        problems.append(
            Problem(
                f"round {latest} is not paired yet: pair round {latest} before round {number}",
                round=number,
                code="round-not-next",
                field="round",
                value=str(number),
            )
        )
    if number > planned:
        problems.append(
            Problem(
                f"the section has {planned} rounds, so there is no round {number} to pair; "
                "declare the number of rounds (--rounds, TRF record XXR)",
                round=number,
                code="beyond-planned-rounds",
                field="rounds",
                value=str(planned),
                detail=f"the section has {planned} rounds, so there is no round {number} to pair",
            )
        )
    if problems:
        raise HarknessError(problems)
    wanted: dict[int, EntryKind] = {}
    for p in tournament.players:
        if len(p.entries) >= number and p.entries[number - 1].kind in NOT_PAIRED:
            wanted[p.id] = p.entries[number - 1].kind
        elif number > 1 and p.entries[number - 2].kind is EntryKind.WITHDRAWN:
            wanted[p.id] = EntryKind.WITHDRAWN
    ids = {p.id for p in tournament.players}
    for player, kind in (requests or {}).items():
        if player not in ids:
            problems.append(
                Problem(
                    f"there is no player {player}",
                    player=player,
                    round=number,
                    code="no-such-player",
                    value=str(player),
                )
            )
        elif kind not in NOT_PAIRED:
            problems.append(
                Problem(
                    f"a player is kept out of a pairing with a bye or withdrawal, not "
                    f"a {kind.value}",
                    player=player,
                    round=number,
                    code="not-a-bye",
                    value=kind.value,
                )
            )
        else:
            wanted[player] = kind
    groups = tuple(frozenset(group) for group in avoid)
    recorded, record_problems = prohibited_pairings(tournament, number)
    problems += record_problems
    groups += tuple(group for group in recorded if group not in groups)
    for group in groups:
        unknown = sorted(group - ids)
        if unknown:
            problems.append(
                Problem(
                    f"--avoid: there is no player {unknown[0]}",
                    player=unknown[0],
                    code="no-such-player",
                    field="avoid",
                    value=str(unknown[0]),
                    detail=f"there is no player {unknown[0]}",
                )
            )
        elif len(group) < 2:
            detail = "a group of players to keep apart needs two or more"
            problems.append(
                Problem(f"--avoid: {detail}", code="bad-avoid", field="avoid", detail=detail)
            )
    history = _history(tournament, number - 1)
    problems += _missing_colours(history)
    order = pairing_numbers(history, number, numbering)
    initial, source = _initial_colour(history, order, colour)
    if colour is not None and initial is not colour:
        problems.append(
            Problem(
                f"--initial-colour {colour.name.lower()}: round 1 was played with "
                f"{initial.name.lower()} for the top player, so the initial colour is "
                f"{initial.name.lower()}",
                code="initial-colour-conflict",
                field="initial-colour",
                value=colour.name.lower(),
                detail=f"round 1 was played with {initial.name.lower()} for the top player",
            )
        )
    to_pair = {p.id for p in tournament.players if p.id not in wanted}
    virtual, found = virtual_points(
        tournament, history, number, planned, order, to_pair, acceleration
    )
    problems += found
    if problems:
        raise HarknessError(problems)
    return PairingRequest(
        history,
        number,
        planned,
        initial,
        dict(sorted(wanted.items())),
        groups,
        order,
        source,
        virtual,
        acceleration,
    )


def _initial_colour(
    history: Tournament, order: tuple[int, ...], option: Colour | None
) -> tuple[Colour, ColourSource]:
    """Round 1's colour for the top player, and where it came from: round 1 when it is in
    the history, else the option, else the file's record, else white."""
    played = round_one_colour(history, order) if history.rounds >= 1 else None
    if played is not None:
        return played, ColourSource.ROUND_ONE
    if option is not None:
        return option, ColourSource.OPTION
    recorded = initial_colour(history)
    if recorded is not None:
        return recorded, ColourSource.RECORD
    return Colour.WHITE, ColourSource.DEFAULT


def prohibited_pairings(
    tournament: Tournament, round: int
) -> tuple[list[frozenset[int]], list[Problem]]:
    """The groups that TRF record 260 (prohibited pairings, as gacrux and the TRF-2026
    draft read it) keeps apart in ``round``, and what is wrong with any such record.

    The record's columns 5–7 hold the first round, 9–11 the last (blank: the first alone),
    then the starting numbers, four columns each, a blank between; every player of a group
    is kept from meeting every other.

    >>> from core.formats.trf import read_trf
    >>> t = read_trf("260   2   3    1    2\\n" + "001    1      Ann" + " " * 64 + "0.0\\n"
    ...              + "001    2      Bob" + " " * 64 + "0.0")
    >>> prohibited_pairings(t, 2), prohibited_pairings(t, 4)
    (([frozenset({1, 2})], []), ([], []))
    """
    groups: list[frozenset[int]] = []
    problems: list[Problem] = []
    ids = {p.id for p in tournament.players}
    for code, text in tournament.records:
        if code != "260":
            continue
        where = f"TRF record 260 {text!r}"
        first, last, names = text[0:3].strip(), text[4:7].strip(), text[8:].split()
        if not first.isdigit() or not (last.isdigit() or not last):
            problems.append(
                Problem(
                    f"{where}: expected the first round in columns 5–7 and the last in 9–11",
                    code="bad-avoid",
                    field="260",
                    value=text,
                )
            )
            continue
        if not all(n.isdigit() for n in names) or len(names) < 2:
            problems.append(
                Problem(
                    f"{where}: name two or more players by starting number",
                    code="bad-avoid",
                    field="260",
                    value=text,
                )
            )
            continue
        group = frozenset(int(n) for n in names)
        unknown = sorted(group - ids)
        if unknown:
            problems.append(
                Problem(
                    f"{where}: there is no player {unknown[0]}",
                    code="no-such-player",
                    field="260",
                    value=str(unknown[0]),
                )
            )
        elif int(first) <= round <= int(last or first):
            groups.append(group)
    return groups, problems


def _history(tournament: Tournament, played: int) -> Tournament:
    """The players with their entries of rounds 1 to ``played``, the header kept; a game
    whose colour is recorded on one side only gets it on both."""
    players = []
    for p in tournament.players:
        entries = p.entries[:played]
        if any(e.kind.played and e.colour is None for e in entries):
            entries = tuple(
                _colour_from_opponent(tournament, e, r) if e.kind.played and e.colour is None else e
                for r, e in enumerate(entries)
            )
        players.append(replace(p, entries=entries))
    return replace(tournament, players=tuple(players), rounds=played)


def _colour_from_opponent(tournament: Tournament, e: RoundEntry, index: int) -> RoundEntry:
    other = tournament.player(e.opponent).entries[index].colour  # type: ignore[arg-type]
    return e._replace(colour=other.opposite) if other is not None else e


def _missing_colours(history: Tournament) -> list[Problem]:
    """Games played without a colour: the colour rules cannot be applied to them."""
    problems = []
    for p in history.players:
        for r, e in enumerate(p.entries, start=1):
            if e.kind.played and e.colour is None and p.id < (e.opponent or 0):
                problems.append(
                    Problem(
                        f"the game against {e.opponent} has no colour; pairing by the "
                        "colour rules needs the colour of every game played",
                        player=p.id,
                        round=r,
                        code="no-colour",
                    )
                )
    return problems
