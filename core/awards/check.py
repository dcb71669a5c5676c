"""A prize list against the section it is for: every starting number it names must be a
player of the section, and a player is in one team at most. Each problem is located at the
prize file's line (or names the team record of the tournament file).

>>> from core.awards.model import PrizeList
>>> from core.examples import load_example
>>> prizes = PrizeList(categories={"youth": (4, 99)}, path="p.toml", lines={"categories.youth": 7})
>>> print(*section_problems(prizes, load_example()))
p.toml:7: [categories] youth: there is no player 99 in the section (players 1–10)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from core.awards.model import PrizeList
from core.model import Tournament
from core.problems import Problem

__all__ = ["section_problems"]


def section_problems(
    prizes: PrizeList,
    tournament: Tournament,
    teams: Mapping[str, Sequence[int]] | None = None,
    teams_from: str = "",
) -> list[Problem]:
    """What ``prizes`` names that ``tournament`` does not have; ``teams`` are the teams read
    from the tournament file (``teams_from`` says from where: ``013`` or ``Team``), checked
    when the prize list has no ``[teams]`` of its own."""
    known = {p.id for p in tournament.players}
    numbers = sorted(known)
    players = f"players {numbers[0]}–{numbers[-1]}" if numbers else "no players"
    problems: list[Problem] = []

    def check(ids: Iterable[int], field: str, key: str, where: str) -> None:
        for player_id in ids:
            if player_id not in known:
                detail = f"there is no player {player_id} in the section ({players})"
                problems.append(
                    Problem(
                        f"{where}: {detail}",
                        path=prizes.path,
                        line=prizes.line(key, key.split(".")[0]),
                        code="not-in-section",
                        field=field,
                        value=str(player_id),
                        detail=detail,
                    )
                )

    for name, ids in prizes.categories.items():
        check(ids, "categories", f"categories.{name}", f"[categories] {name}")
    for player_id in prizes.limits:
        check([player_id], "limits", f"limits.{player_id}", "[limits]")
    check(prizes.playoff, "playoff", "playoff", "playoff")
    if prizes.teams:
        for name, ids in prizes.teams.items():
            check(ids, "teams", f"teams.{name}", f"[teams] {name}")
        problems += _two_teams(prizes)
    elif teams:
        for name, members in teams.items():
            for player_id in members:
                if player_id not in known:
                    detail = f"team {name!r} names player {player_id}, who is not in the section"
                    problems.append(
                        Problem(
                            detail,
                            code="not-in-section",
                            field=teams_from or "teams",
                            value=str(player_id),
                            detail=detail,
                        )
                    )
    return problems


def _two_teams(prizes: PrizeList) -> list[Problem]:
    first: dict[int, str] = {}
    problems = []
    for name, ids in prizes.teams.items():
        for player_id in ids:
            other = first.setdefault(player_id, name)
            if other != name:
                detail = f"player {player_id} is in team {other!r} and in team {name!r}"
                problems.append(
                    Problem(
                        f"[teams] {name}: {detail}",
                        path=prizes.path,
                        line=prizes.line(f"teams.{name}", "teams"),
                        player=player_id,
                        code="in-two-teams",
                        field="teams",
                        value=name,
                        detail=detail,
                    )
                )
    return problems
