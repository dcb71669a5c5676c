"""Core's own check of a round's pairing against the absolute criteria of the Dutch system.

Whatever paired the round (the engine, or a TD's swap), nothing is shown before it passes:

- **Completeness** (C.04.1): every player to be paired is on exactly one board or has
  the pairing-allocated bye, which exists only when their number is odd; no one who
  asked for a bye or withdrew is paired; every player exists.
- **[C1]** (C.04.3 absolute criteria; C.04.1 b): two players do not play each other more
  than once. A forfeited game was not played, so its players may still meet.
- **[C2]**: no pairing-allocated bye for a player who already had one, or who already
  scored a win's points in a round without playing (a forfeit win or a full-point bye).
- **Players kept apart** by the TD (team-mates, family) are not paired together.
- **[C3]** and C.04.1's colour rules: no player gets the same colour three times in a row
  (in the games they played), and no colour difference goes beyond +2 or −2; in the
  final round, a pair with a topscorer (C.04.3 A.7: more than half the maximum possible
  score) is exempt, as C.04.3 exempts them.

>>> from core.pairing.model import Board, RoundPairing
>>> from core.pairing.prepare import prepare
>>> from core.formats.crosstable import read_crosstable
>>> t = read_crosstable('''#  Name  Rd 1
... 1  Ann  W2 (w)
... 2  Bob  L1 (b)
... 3  Cy   B''')
>>> request = prepare(t, 2, rounds=3)
>>> check_pairing(request, RoundPairing(2, 3, (Board(1, 1, 2),), bye=3))
Traceback (most recent call last):
...
core.problems.HarknessError: player 3, round 2: already had a win's points without playing (a full-point bye in round 1): no pairing-allocated bye (C.04.3 [C2])
player 1, round 2: players 1 and 2 already met in round 1 (C.04.3 [C1]: no two players meet twice)
>>> check_pairing(request, RoundPairing(2, 3, (Board(1, 3, 1),), bye=2))
"""  # noqa: E501

from __future__ import annotations

from collections import Counter

from core.model import UNPLAYED_WINS, Colour, Player
from core.pairing.model import RoundPairing
from core.pairing.prepare import PairingRequest
from core.problems import HarknessError, Problem

__all__ = ["check_pairing", "pairing_problems"]


def check_pairing(request: PairingRequest, pairing: RoundPairing) -> None:
    """Raise :class:`HarknessError` with every broken criterion; return if none is."""
    problems = pairing_problems(request, pairing)
    if problems:
        raise HarknessError(problems)


def pairing_problems(request: PairingRequest, pairing: RoundPairing) -> list[Problem]:
    """Every absolute criterion the pairing breaks, each at its player and round."""
    r = pairing.round
    history = request.history
    ids = {p.id for p in history.players}
    problems: list[Problem] = []
    if r != request.round:
        problems.append(
            Problem(
                f"the pairing is of round {r}, not {request.round}",
                round=r,
                code="wrong-round",
                value=str(r),
            )
        )
    seats = Counter(p for b in pairing.boards for p in (b.white, b.black))
    if pairing.bye is not None:
        seats[pairing.bye] += 1
    for player, count in sorted(seats.items()):
        if player not in ids:
            problems.append(
                Problem(
                    f"there is no player {player}",
                    player=player,
                    round=r,
                    code="no-such-player",
                    value=str(player),
                )
            )
        elif count > 1:
            problems.append(
                Problem(f"paired {count} times", player=player, round=r, code="paired-twice")
            )
        elif player in request.not_paired:
            kind = request.not_paired[player].value
            problems.append(
                Problem(
                    f"is paired, but has a {kind}",
                    player=player,
                    round=r,
                    code="paired-but-out",
                    value=kind,
                )
            )
    to_pair = request.to_pair
    for p in to_pair:
        if p.id not in seats:
            problems.append(
                Problem(
                    "is neither on a board nor given the bye",
                    player=p.id,
                    round=r,
                    code="not-paired",
                )
            )
    if pairing.bye is not None and len(to_pair) % 2 == 0:
        problems.append(
            Problem(
                "a pairing-allocated bye with an even number of players to pair",
                player=pairing.bye,
                round=r,
                code="bye-with-even-players",
            )
        )
    if problems:
        return problems
    if pairing.bye is not None:
        problems += _bye_problems(history.player(pairing.bye), r)
    final = r == request.rounds
    for board in pairing.boards:
        white, black = history.player(board.white), history.player(board.black)
        problems += _rematch(white, board.black, r)
        problems += [
            Problem(
                f"players {board.white} and {board.black} are to be kept apart "
                "(--avoid, TRF record 260)",
                player=board.white,
                round=r,
                code="kept-apart",
                field="avoid",
                value=str(board.black),
                detail=f"players {board.white} and {board.black} are to be kept apart",
            )
            for group in request.avoid
            if board.white in group and board.black in group
        ]
        exempt = final and (_topscorer(white, r) or _topscorer(black, r))
        if not exempt:
            problems += _colour_problems(white, Colour.WHITE, r)
            problems += _colour_problems(black, Colour.BLACK, r)
    return problems


def _rematch(p: Player, opponent: int, r: int) -> list[Problem]:
    for earlier, e in enumerate(p.entries, start=1):
        if e.kind.played and e.opponent == opponent:
            return [
                Problem(
                    f"players {p.id} and {opponent} already met in round {earlier} "
                    "(C.04.3 [C1]: no two players meet twice)",
                    player=p.id,
                    round=r,
                    code="rematch",
                    value=str(opponent),
                )
            ]
    return []


def _bye_problems(p: Player, r: int) -> list[Problem]:
    for earlier, e in enumerate(p.entries, start=1):
        if e.kind in UNPLAYED_WINS:  # unplayed rounds worth a win rule out a PAB ([C2])
            return [
                Problem(
                    f"already had a win's points without playing (a {e.kind.value} in round "
                    f"{earlier}): no pairing-allocated bye (C.04.3 [C2])",
                    player=p.id,
                    round=r,
                    code="second-unplayed-win",
                )
            ]
    return []


def _topscorer(p: Player, r: int) -> bool:
    """C.04.3 A.7: more than 50% of the maximum possible score when the final round is
    paired (the maximum is a win in each of the r − 1 rounds before)."""
    return p.half_points > r - 1


def _colour_problems(p: Player, colour: Colour, r: int) -> list[Problem]:
    played = [e.colour for e in p.entries if e.kind.played]
    problems = []
    if len(played) >= 2 and played[-1] is colour and played[-2] is colour:
        problems.append(
            Problem(
                f"would have {colour.name.lower()} three times in a row (C.04.3 [C3], C.04.1)",
                player=p.id,
                round=r,
                code="colour-three-in-a-row",
                value=colour.name.lower(),
            )
        )
    difference = sum(1 if c is Colour.WHITE else -1 for c in played)
    difference += 1 if colour is Colour.WHITE else -1
    if abs(difference) > 2:
        problems.append(
            Problem(
                f"would have a colour difference of {difference:+d} (C.04.3 [C3], C.04.1: "
                "at most +2 or −2)",
                player=p.id,
                round=r,
                code="colour-difference",
                value=f"{difference:+d}",
            )
        )
    return problems
