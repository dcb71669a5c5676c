"""The awards of a section: cash, trophies and team scores, from the standings and the prize
list.

:func:`compute_awards` takes the :class:`~core.standings.Standings` (the order tiebreaks
give) and a :class:`~core.awards.model.PrizeList` and decides everything, keeping every
decision as data (:mod:`core.awards.reasons`): the cash by the list's method
(:mod:`core.awards.uschess` for US Chess 32B, :mod:`core.awards.fide` for the FIDE world),
each additive special separately (one prize per player applies within its ladder only),
the trophies by standings order (:mod:`core.awards.trophies`), the teams
(:mod:`core.awards.teams`). A personal limit of 0 makes a player not prize-eligible: no
cash and no trophy, and the prizes go on as if he were not there.

>>> from core.examples import example_path, load_example
>>> from core.awards.prizefile import read_prize_file
>>> from core.standings import compute_standings
>>> standings = compute_standings(load_example("club-swiss.trf"), "uscf")
>>> awards = compute_awards(standings, read_prize_file(example_path("club-swiss-prizes.toml")))
>>> [(a.name, a.cash, a.paid, a.trophy) for a in awards.rows[:2]]
[('Chen, Wei', Fraction(300, 1), Fraction(300, 1), '1st place'), ('Alvarez, Maria', Fraction(400, 3), Fraction(13333, 100), '2nd place')]
"""  # noqa: E501

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from core.awards.division import Division
from core.awards.fide import by_order, divide_fide
from core.awards.model import Method, Prize, PrizeList
from core.awards.order import Entrant, Separated, compared, player_order
from core.awards.reasons import AwardNote, AwardWhy, Item
from core.awards.result import Awards, PlayerAward, PrizeResult, TeamAward
from core.awards.teams import TeamStanding, rank_teams
from core.awards.trophies import Trophies, give_trophies
from core.awards.uschess import divide_us_chess
from core.numbers import cents_down
from core.standings import Standings

__all__ = ["compute_awards"]

#: Why not: at most this many prizes are named as taken by players above.
TAKEN_SHOWN = 5


def compute_awards(
    standings: Standings,
    prizes: PrizeList,
    teams: Mapping[str, Sequence[int]] | None = None,
) -> Awards:
    """The award list of ``standings`` under ``prizes``. Teams are the prize list's
    ``[teams]`` when it has them, else ``teams`` (a crosstable's ``Team`` column, a TRF-16
    file's team records)."""
    members = dict(prizes.teams) if prizes.teams else dict(teams or {})
    order, decided = player_order(standings, prizes.playoff, prizes.category_index(), prizes.limits)
    eligible = [e for e in order if e.limit != 0]
    board = list(prizes.prizes)
    single = [i for i, p in enumerate(board) if not p.team]
    main = _divide(
        prizes.method,
        eligible,
        board,
        [i for i in single if board[i].cash and not board[i].additive],
    )
    extras = _additive(prizes.method, eligible, board, single)
    money = main.shared if prizes.trophy_follows_money else None
    trophies = give_trophies(eligible, board, single, decided, money)
    ranked, team_order, unranked = rank_teams(
        standings, members, prizes.team_count, prizes.team_playoff
    )
    team_division, team_trophies = _team_prizes(prizes, board, ranked, team_order)
    team_of = {i: name for name, ids in members.items() for i in ids}
    everyone = {e.key: e for e in order}
    taken = _Taken(main, board, everyone)
    rows = [
        _player(
            everyone[row.player.id], main, extras, trophies, board, ranked, team_of, prizes, taken
        )
        for row in standings.rows
    ]
    results = _results(
        board, [main, *extras], team_division, trophies, team_trophies, eligible, ranked
    )
    team_rows = tuple(
        _team(t, team_division, team_trophies, board, ranked, team_order, standings) for t in ranked
    )
    exact = sum((r.cash for r in rows), Fraction(0)) + sum((t.cash for t in team_rows), Fraction(0))
    paid = sum((r.paid for r in rows), Fraction(0)) + sum((t.paid for t in team_rows), Fraction(0))
    tournament = standings.tournament
    return Awards(
        method=prizes.method,
        currency=prizes.currency,
        rows=tuple(rows),
        prizes=results,
        teams=team_rows,
        leftover=exact - paid,
        title=tournament.name,
        rules=standings.profile.label,
        rounds=tournament.rounds,
        team_count=prizes.team_count,
        trophy_follows_money=prizes.trophy_follows_money,
        unranked=tuple(unranked),
        unpaid=main.unpaid + sum((d.unpaid for d in extras), Fraction(0)),
    )


def _divide(
    method: Method, order: Sequence[Entrant], board: list[Prize], indices: Sequence[int]
) -> Division:
    if method.pools:
        return divide_us_chess(order, board, indices, method.capped)
    return divide_fide(order, board, indices, method)


def _additive(
    method: Method, order: Sequence[Entrant], board: list[Prize], single: Sequence[int]
) -> list[Division]:
    """Each additive ladder's cash, divided on its own: one prize per player within it."""
    ladders: dict[tuple[object, ...], list[int]] = {}
    for i in single:
        if board[i].additive and board[i].cash:
            ladders.setdefault(board[i].ladder, []).append(i)
    divisions = []
    for ladder in ladders.values():
        division = (
            _divide(method, order, board, ladder)
            if method.pools
            else by_order(order, board, ladder)
        )
        scores = {e.key: e for e in order}
        for key, amount in division.amounts.items():
            won = division.won[key]
            sharing = {k for i in won for k in division.winners.get(i, [])}
            players = tuple(e.name for e in order if e.key in sharing)
            score = scores[key].score
            division.notes[key] = [
                AwardNote(
                    AwardWhy.ADDITIVE,
                    prize=" + ".join(board[i].name for i in won),
                    amount=amount,
                    players=players,
                    count=len(players),
                    score=score,
                )
            ]
        divisions.append(division)
    return divisions


def _team_prizes(
    prizes: PrizeList, board: list[Prize], ranked: list[TeamStanding], team_order: Separated
) -> tuple[Division, Trophies]:
    entrants = [t.entrant() for t in ranked]
    team = [i for i, p in enumerate(board) if p.team]
    division = _divide(prizes.method, entrants, board, [i for i in team if board[i].cash])
    money = division.shared if prizes.trophy_follows_money else None
    trophies = give_trophies(entrants, board, team, team_order, money)
    return division, trophies


def _player(
    e: Entrant,
    main: Division,
    extras: list[Division],
    trophies: Trophies,
    board: list[Prize],
    ranked: list[TeamStanding],
    team_of: Mapping[int, str],
    prizes: PrizeList,
    taken: _Taken,
) -> PlayerAward:
    cash = main.amounts.get(e.key, Fraction(0))
    won = list(main.won.get(e.key, []))
    reasons = list(main.notes.get(e.key, []))
    for extra in extras:
        if e.key in extra.amounts:
            cash += extra.amounts[e.key]
            won += extra.won[e.key]
            reasons += extra.notes[e.key]
    held = trophies.held.get(e.key, [])
    trophy_notes = trophies.notes.get(e.key, [])
    reasons += [n for n in trophy_notes if n.kind in _TROPHY_GIVEN]
    why_not = [n for n in trophy_notes if n.kind not in _TROPHY_GIVEN]
    if e.limit == 0:
        why_not.insert(0, AwardNote(AwardWhy.NOT_PRIZE_ELIGIBLE))
    elif e.key not in main.amounts:
        why_not.insert(0, taken.note(e))
    team = team_of.get(e.key, "")
    for t in ranked:
        if t.name == team:
            kind = AwardWhy.COUNTS_FOR_TEAM if e.key in t.counting else AwardWhy.NOT_COUNTING
            reasons.append(AwardNote(kind, other=team, count=len(t.counting)))
    return PlayerAward(
        id=e.key,
        name=e.name,
        place=e.place,
        score=e.score,
        cash=cash,
        paid=cents_down(cash),
        prizes=tuple(board[i].name for i in won),
        trophies=tuple(board[i].name for i in held),
        reasons=tuple(reasons),
        why_not=tuple(why_not),
        currency=prizes.currency,
        team=team,
    )


_TROPHY_GIVEN = (AwardWhy.TROPHY, AwardWhy.TROPHY_FOLLOWS_MONEY)


class _Taken:
    """Why players without cash have none, prepared once for the whole list: the cash prizes
    with their winners, nearest (lowest winners' score) first."""

    def __init__(self, main: Division, board: list[Prize], everyone: Mapping[int, Entrant]):
        self.board = board
        self.cash = [i for i, amount in main.paid_out.items() if amount > 0]
        taken = []
        for i in self.cash:
            winners = main.winners.get(i, [])
            if winners:
                names = tuple(everyone[k].name for k in winners)
                item = Item(board[i].name, main.paid_out[i], names, everyone[winners[0]].score)
                taken.append((item.score or Fraction(0), i, item))
        taken.sort(key=lambda t: t[:2])
        self.taken = [(i, item) for _, i, item in taken]

    def note(self, e: Entrant) -> AwardNote:
        """No prize is for him, or every prize he could win went to players above him."""
        board = self.board
        mine = {i for i in self.cash if board[i].eligible(e.rating, e.categories)}
        if not mine:
            rated_only = e.rating is None and any(
                board[i].eligible(1, e.categories) and not board[i].eligible(None, e.categories)
                for i in self.cash
            )
            return AwardNote(AwardWhy.NO_PRIZE_FOR_HIM, text="unrated" if rated_only else "")
        items = [item for i, item in self.taken if i in mine]
        return AwardNote(AwardWhy.PRIZES_TAKEN, items=tuple(items[:TAKEN_SHOWN]), count=len(items))


def _results(
    board: list[Prize],
    divisions: Sequence[Division],
    team_division: Division,
    trophies: Trophies,
    team_trophies: Trophies,
    eligible: Sequence[Entrant],
    ranked: Sequence[TeamStanding],
) -> tuple[PrizeResult, ...]:
    """Each prize as awarded, with the reason one was not."""
    team_name = {t.rank: t.name for t in ranked}
    results = []
    for i, prize in enumerate(board):
        source = (
            team_division
            if prize.team
            else next((d for d in divisions if i in d.paid_out), divisions[0])
        )
        winners = tuple(source.winners.get(i, ()))
        holders = team_trophies if prize.team else trophies
        holder = holders.holder.get(i)
        awarded = bool(winners) or holder is not None
        reasons: tuple[AwardNote, ...] = ()
        if not awarded:
            field = [t.entrant() for t in ranked] if prize.team else eligible
            anyone = any(prize.eligible(e.rating, e.categories) for e in field)
            code = "all-placed" if anyone else "nobody-eligible"
            reasons = (AwardNote(AwardWhy.NOT_AWARDED, prize=prize.name, code=code),)
        results.append(
            PrizeResult(
                prize=prize,
                amount=source.paid_out.get(i, prize.amount)
                if prize.cash or i in source.paid_out
                else None,
                winners=() if prize.team else winners,
                teams=tuple(team_name[k] for k in winners) if prize.team else (),
                trophy_holder=None if prize.team else holder,
                trophy_team=team_name[holder] if prize.team and holder is not None else None,
                awarded=awarded,
                reasons=reasons,
            )
        )
    return tuple(results)


def _team(
    t: TeamStanding,
    division: Division,
    trophies: Trophies,
    board: list[Prize],
    ranked: Sequence[TeamStanding],
    team_order: Separated,
    standings: Standings,
) -> TeamAward:
    """A team's awards and reasons: its counting players, what put it ahead of the next
    team, its cash and trophies."""
    rows = [standings.row_of(i) for i in t.counting]
    reasons = [
        AwardNote(
            AwardWhy.TEAM_SCORE,
            items=tuple(Item("", players=(r.player.name,), score=r.score) for r in rows),
            total=t.score,
            count=len(rows),
        )
    ]
    if t.rank < len(ranked):
        below = ranked[t.rank]
        why = team_order(t.entrant(), below.entrant())
        reasons.append(compared(AwardWhy.TEAM_ORDER, why, other=below.name))
    reasons += division.notes.get(t.rank, [])
    reasons += trophies.notes.get(t.rank, [])
    cash = division.amounts.get(t.rank, Fraction(0))
    return TeamAward(
        name=t.name,
        rank=t.rank,
        score=t.score,
        players=t.players,
        counting=t.counting,
        cash=cash,
        paid=cents_down(cash),
        prizes=tuple(board[i].name for i in division.won.get(t.rank, [])),
        trophies=tuple(board[i].name for i in trophies.held.get(t.rank, [])),
        reasons=tuple(reasons),
    )
