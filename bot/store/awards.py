"""A tournament's prize list as its TDs set it in Discord (``store.prizes``,
:class:`PrizeLists`): from a prize file, one prize at a time, the method and currency, and
each player's categories, team and personal cash limit.

What is stored is read back as a prize file is: the list is handed to
:func:`core.awards.read_prize_data` (the prize file's rules: names once, a ladder's ranks
once, amounts in cents, the limits of :mod:`core.limits`) on every read and before every
change is written, so a change that would make the list one the prize file refuses is
refused with what is wrong, and nothing is written. Players are named by starting number
in the list, as in a prize file; the store keeps them by player, so a list follows its
players. Categories and teams compare as names do (:func:`core.names.name_key`): the first
spelling stands.

Each method is one transaction on the tournament's row (locked while writing, as results
are), guild-scoped like the rest of the store.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from typing import Any, TypeVar

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.store import queries, schema
from bot.store.base import StorePart
from bot.store.errors import StoreError
from bot.store.model import Actor, PlayerInfo, TournamentInfo
from bot.store.players import PlayerRef, resolve
from core.awards import Prize, PrizeList, read_prize_data, read_prizes, section_problems
from core.awards.cells import COLUMN_OF, amount_text, category_names, prize_fields
from core.awards.fields import amount_value
from core.awards.model import Method
from core.awards.writer import prize_keys, written_amount
from core.formats.text import decode, too_big
from core.limits import MAX_PRIZE_FILE_BYTES, MAX_TEAM_COUNT, shorten
from core.model import Player, Tournament
from core.names import name_key, name_problem, tidy
from core.problems import HarknessError, Problem
from sheets.database.transactions import Conflict

T = TypeVar("T")

#: How many of a prize file's problems a refusal lists.
SHOWN_PROBLEMS = 8
#: A mark's words for "none" (``/prizes player team:none`` takes the team away).
NONE_WORDS = frozenset({"none", "-", "no", "clear"})


@dataclass(frozen=True, slots=True)
class PrizeChange:
    """What a change left: the list as it is now, and the prize added or removed (if any)."""

    prizes: PrizeList
    prize: Prize | None = None
    player: PlayerInfo | None = None


@dataclass
class _Draft:
    """A tournament's prize list as stored, to change and check before it is written."""

    info: TournamentInfo
    players: tuple[PlayerInfo, ...]
    settings: dict[str, Any] | None
    prizes: list[dict[str, Any]] = field(default_factory=list)
    marks: dict[int, dict[str, Any]] = field(default_factory=dict)

    def number(self, player_id: int) -> int:
        return next(p.number for p in self.players if p.id == player_id)

    def data(self) -> dict[str, Any]:
        """The list as a parsed prize file has it (:func:`core.awards.read_prize_data`)."""
        settings = self.settings or {}
        categories: dict[str, list[int]] = {}
        teams: dict[str, list[int]] = {}
        limits: dict[str, Decimal] = {}
        spelled: dict[str, str] = {}
        for player_id, mark in sorted(self.marks.items(), key=lambda m: self.number(m[0])):
            number = self.number(player_id)
            for name in mark["categories"]:
                shown = spelled.setdefault("c" + name_key(name), name)
                categories.setdefault(shown, []).append(number)
            if mark["team"]:
                shown = spelled.setdefault("t" + name_key(mark["team"]), mark["team"])
                teams.setdefault(shown, []).append(number)
            if mark["limit"] is not None:
                limits[str(number)] = Decimal(mark["limit"])
        for fields in self.prizes:  # a category prize's category is listed, maybe empty
            category = fields.get("category")
            if isinstance(category, str) and "c" + name_key(category) not in spelled:
                spelled["c" + name_key(category)] = category
                categories[category] = []
        data: dict[str, Any] = {
            "method": settings.get("method", Method.US_CHESS.value),
            "currency": settings.get("currency", ""),
            "trophy_follows_money": settings.get("trophy_follows_money", False),
            "prize": [dict(fields) for fields in self.prizes],
            "categories": categories,
            "limits": limits,
            "teams": teams,
            "team": {"count": settings.get("team_count", 4)},
        }
        return data

    def read(self, words: Callable[[Problem], str]) -> PrizeList:
        """The list, checked by the prize file's rules; a :class:`StoreError` in ``words``."""
        try:
            return read_prize_data(self.data(), f"the prizes of {self.info.name}")
        except HarknessError as error:
            raise refused(error, words) from None


def refused(error: HarknessError, words: Callable[[Problem], str]) -> StoreError:
    """A prize list's problems as the store's refusal: the first few, then how many more."""
    lines = [words(p) for p in error.problems[:SHOWN_PROBLEMS]]
    more = len(error.problems) - SHOWN_PROBLEMS
    if more > 0:
        lines.append(f"… and {more} more")
    return StoreError("\n".join(lines), "bad-prizes")


def option_words(problem: Problem) -> str:
    """A problem of a prize typed in options (``/prizes add``), at its option: ``amount:
    amount must be a number above 0…``."""
    option = COLUMN_OF.get(problem.field or "", "").lower()
    detail = problem.detail or problem.message
    return f"{option}: {detail}" if option else detail


def _file_words(problem: Problem) -> str:
    return str(problem)


def _list_words(problem: Problem) -> str:
    return problem.detail or problem.message


def _fields_json(fields: Mapping[str, Any]) -> str:
    """A prize's keys as stored: JSON, an amount as exact decimal text."""
    return json.dumps(
        {k: str(v) if isinstance(v, Decimal) else v for k, v in fields.items()},
        ensure_ascii=False,
    )


def _fields_of(text: str) -> dict[str, Any]:
    fields: dict[str, Any] = json.loads(text)
    if isinstance(fields.get("amount"), str):
        fields["amount"] = Decimal(fields["amount"])
    return fields


async def _draft(conn: AsyncConnection, guild: str, tournament: str, lock: bool) -> _Draft:
    info = await queries.find_tournament(conn, guild, tournament, lock=lock)
    players = tuple(await queries.load_players(conn, guild, info.id))
    s, p, m = schema.prize_lists, schema.prizes, schema.player_awards
    mine = (s.c.guild_id == guild, s.c.tournament_id == info.id)
    row = (await conn.execute(select(s).where(*mine))).first()
    settings = (
        None
        if row is None
        else {
            "method": row.method,
            "currency": row.currency,
            "trophy_follows_money": bool(row.trophy_follows_money),
            "team_count": int(row.team_count),
        }
    )
    prize_rows = await conn.execute(
        select(p.c.fields)
        .where(p.c.guild_id == guild, p.c.tournament_id == info.id)
        .order_by(p.c.position)
    )
    marks = {
        int(r.player_id): {
            "categories": list(json.loads(r.categories)),
            "team": r.team,
            "limit": r.cash_limit,
        }
        for r in await conn.execute(
            select(m).where(m.c.guild_id == guild, m.c.tournament_id == info.id)
        )
    }
    prizes = [_fields_of(text) for (text,) in prize_rows]
    return _Draft(info, players, settings, prizes, marks)


def _section(players: Sequence[PlayerInfo], name: str) -> Tournament:
    """The players of a tournament as a section without rounds, for the prize list's check
    against the section (:func:`core.awards.section_problems`)."""
    return Tournament(tuple(Player(p.number, p.name, (), p.rating) for p in players), 0, name=name)


def _read_file(upload: str | bytes, filename: str) -> PrizeList:
    """A prize file's bytes (in any encoding core reads) or text to a prize list; its size
    checked before it is decoded."""
    if isinstance(upload, bytes):
        if len(upload) > MAX_PRIZE_FILE_BYTES:
            raise too_big(len(upload), filename, limit=MAX_PRIZE_FILE_BYTES)
        upload = decode(upload, filename)
    return read_prizes(upload, filename)


class PrizeLists(StorePart):
    """The tournaments' prize lists (see the module)."""

    async def get(self, guild: str, tournament: str) -> PrizeList | None:
        """The tournament's prize list (None: no TD has set one)."""

        async def work(conn: AsyncConnection) -> PrizeList | None:
            draft = await _draft(conn, guild, tournament, lock=False)
            return None if draft.settings is None else draft.read(_list_words)

        return await self._read(work)

    async def _change(
        self,
        guild: str,
        tournament: str,
        actor: Actor,
        what: str,
        change: Callable[[AsyncConnection, _Draft], Awaitable[T]],
    ) -> T:
        if not actor.td:
            raise StoreError(f"only a tournament director can {what}", "not-td")
        now = self.clock()

        async def work(conn: AsyncConnection) -> T:
            draft = await _draft(conn, guild, tournament, lock=True)
            done = await change(conn, draft)
            await self._save_settings(conn, draft, actor, now)
            return done

        return await self._write(work)

    async def _save_settings(
        self, conn: AsyncConnection, draft: _Draft, actor: Actor, now: datetime
    ) -> None:
        s = schema.prize_lists
        values = {
            "method": Method.US_CHESS.value,
            "currency": "",
            "trophy_follows_money": False,
            "team_count": 4,
            **(draft.settings or {}),
            "updated_by": actor.user,
            "updated_at": now,
        }
        info = draft.info
        changed = await conn.execute(
            update(s).where(s.c.guild_id == info.guild, s.c.tournament_id == info.id).values(values)
        )
        if changed.rowcount == 0:
            try:
                await conn.execute(
                    insert(s).values(guild_id=info.guild, tournament_id=info.id, **values)
                )
            except IntegrityError as error:
                raise Conflict from error

    async def load(
        self, guild: str, tournament: str, actor: Actor, upload: str | bytes, filename: str
    ) -> PrizeList:
        """Replace the tournament's prize list with a prize file's (TD): its prizes, method,
        currency, categories, limits and teams. The file is read off the event loop; every
        starting number it names must be a player of the tournament."""
        filename = shorten(filename, 100)
        try:
            read = await self.folds.jobs.run(
                guild,
                lambda: _read_file(upload, filename),
                size=0,  # a prize file is at most a few hundred kilobytes
                what=f"reading {filename}",
            )
        except HarknessError as error:
            raise refused(error, _file_words) from None

        async def change(conn: AsyncConnection, draft: _Draft) -> PrizeList:
            problems = section_problems(read, _section(draft.players, draft.info.name))
            if problems:
                raise refused(HarknessError(problems), _file_words)
            by_number = {p.number: p.id for p in draft.players}
            draft.settings = {
                "method": read.method.value,
                "currency": read.currency,
                "trophy_follows_money": read.trophy_follows_money,
                "team_count": read.team_count,
            }
            draft.prizes = [prize_keys(prize) for prize in read.prizes]
            marks: dict[int, dict[str, Any]] = {}

            def mark(number: int) -> dict[str, Any]:
                blank: dict[str, Any] = {"categories": [], "team": None, "limit": None}
                return marks.setdefault(by_number[number], blank)

            for name, numbers in read.categories.items():
                for number in numbers:
                    mark(number)["categories"].append(name)
            for name, numbers in read.teams.items():
                for number in numbers:
                    mark(number)["team"] = name
            for number, limit in read.limits.items():
                mark(number)["limit"] = written_amount(limit)
            draft.marks = marks
            stored = draft.read(_file_words)
            await self._rewrite(conn, draft, actor)
            return stored

        return await self._change(guild, tournament, actor, "set the prizes", change)

    async def _rewrite(self, conn: AsyncConnection, draft: _Draft, actor: Actor) -> None:
        """Replace every stored prize and mark of the tournament with the draft's."""
        info, p, m = draft.info, schema.prizes, schema.player_awards
        await conn.execute(
            delete(p).where(p.c.guild_id == info.guild, p.c.tournament_id == info.id)
        )
        await conn.execute(
            delete(m).where(m.c.guild_id == info.guild, m.c.tournament_id == info.id)
        )
        if draft.prizes:
            rows = [_prize_row(info, n, fields) for n, fields in enumerate(draft.prizes)]
            await conn.execute(insert(p), rows)
        if draft.marks:
            now = self.clock()
            rows = [_mark_row(info, i, mark, now, actor) for i, mark in draft.marks.items()]
            await conn.execute(insert(m), rows)

    async def add(
        self, guild: str, tournament: str, actor: Actor, cells: Mapping[str, str]
    ) -> PrizeChange:
        """Add one prize at the end of the list (TD), from its text: the columns of
        :data:`core.awards.cells.PRIZE_COLUMNS` (``name``, ``amount``, ``kind``, ``value``…)."""

        async def change(conn: AsyncConnection, draft: _Draft) -> PrizeChange:
            fields, problems = prize_fields(cells)
            if problems:
                raise refused(HarknessError(problems), option_words)
            draft.prizes.append(fields)
            stored = draft.read(option_words)
            prize = stored.prizes[-1]
            p = schema.prizes
            last = await conn.scalar(
                select(func.max(p.c.position)).where(
                    p.c.guild_id == draft.info.guild, p.c.tournament_id == draft.info.id
                )
            )
            row = _prize_row(draft.info, -1 if last is None else int(last) + 1, prize_keys(prize))
            try:
                await conn.execute(insert(p).values(**row))
            except IntegrityError as error:
                raise Conflict from error
            return PrizeChange(stored, prize)

        return await self._change(guild, tournament, actor, "add a prize", change)

    async def remove(self, guild: str, tournament: str, actor: Actor, name: str) -> PrizeChange:
        """Take the prize called ``name`` (as names compare) off the list (TD)."""

        async def change(conn: AsyncConnection, draft: _Draft) -> PrizeChange:
            key = name_key(name)
            names = [str(f["name"]) for f in draft.prizes]
            found = next((n for n in names if name_key(n) == key), None)
            if found is None:
                raise StoreError(_no_prize(draft.info.name, name, names), "unknown-prize")
            before = draft.read(_list_words)
            prize = next(p for p in before.prizes if name_key(p.name) == key)
            draft.prizes = [f for f in draft.prizes if name_key(str(f["name"])) != key]
            stored = draft.read(_list_words)
            p = schema.prizes
            await conn.execute(
                delete(p).where(
                    p.c.guild_id == draft.info.guild,
                    p.c.tournament_id == draft.info.id,
                    p.c.name_key == key[:100],
                )
            )
            return PrizeChange(stored, prize)

        return await self._change(guild, tournament, actor, "remove a prize", change)

    async def set_options(
        self,
        guild: str,
        tournament: str,
        actor: Actor,
        *,
        method: str | None = None,
        currency: str | None = None,
        trophy_follows_money: bool | None = None,
        team_count: int | None = None,
    ) -> PrizeList:
        """Change how the list divides cash (``method``), the currency shown, whether a
        trophy follows its money, and how many of a team's players count (TD); what is left
        out stays as it is."""

        async def change(conn: AsyncConnection, draft: _Draft) -> PrizeList:
            given = {
                "method": method.strip().lower() if method is not None else None,
                "currency": currency.strip() if currency is not None else None,
                "trophy_follows_money": trophy_follows_money,
                "team_count": team_count,
            }
            draft.settings = {
                **(draft.settings or {}),
                **{k: v for k, v in given.items() if v is not None},
            }
            if team_count is not None and not 2 <= team_count <= MAX_TEAM_COUNT:
                raise StoreError(
                    f"team-size: from 2 to {MAX_TEAM_COUNT} players of a team count", "bad-prizes"
                )
            return draft.read(_list_words)

        return await self._change(guild, tournament, actor, "change the prizes", change)

    async def mark(
        self,
        guild: str,
        tournament: str,
        actor: Actor,
        player: PlayerRef,
        *,
        categories: str | None = None,
        team: str | None = None,
        limit: str | None = None,
    ) -> PrizeChange:
        """Mark a player's categories (``youth, senior``), team and personal cash limit
        (``0``: not prize-eligible) for the awards (TD); ``none`` takes one away, what is
        left out stays as it is."""

        async def change(conn: AsyncConnection, draft: _Draft) -> PrizeChange:
            who = resolve(draft.players, player, draft.info.name)
            mark = dict(draft.marks.get(who.id) or {"categories": [], "team": None, "limit": None})
            if categories is not None:
                mark["categories"] = _categories(categories)
            if team is not None:
                mark["team"] = _team(team)
            if limit is not None:
                mark["limit"] = _limit(limit)
            draft.marks[who.id] = mark
            stored = draft.read(_list_words)
            m = schema.player_awards
            info = draft.info
            await conn.execute(
                delete(m).where(
                    m.c.guild_id == info.guild,
                    m.c.tournament_id == info.id,
                    m.c.player_id == who.id,
                )
            )
            if mark["categories"] or mark["team"] or mark["limit"] is not None:
                await conn.execute(
                    insert(m).values(**_mark_row(info, who.id, mark, self.clock(), actor))
                )
            return PrizeChange(stored, player=who)

        return await self._change(guild, tournament, actor, "mark players for the prizes", change)

    async def prize_names(self, guild: str, tournament: str, typed: str = "") -> list[str]:
        """The names of the tournament's prizes that contain ``typed`` (for autocomplete)."""
        key = name_key(typed)

        async def work(conn: AsyncConnection) -> list[str]:
            draft = await _draft(conn, guild, tournament, lock=False)
            return [str(f["name"]) for f in draft.prizes if key in name_key(str(f["name"]))]

        return await self._read(work)


def _prize_row(info: TournamentInfo, position: int, fields: Mapping[str, Any]) -> dict[str, Any]:
    name = str(fields["name"])
    return {
        "guild_id": info.guild,
        "tournament_id": info.id,
        "position": position,
        "name": name,
        "name_key": name_key(name)[:100],
        "fields": _fields_json(fields),
    }


def _mark_row(
    info: TournamentInfo, player_id: int, mark: Mapping[str, Any], now: datetime, actor: Actor
) -> dict[str, Any]:
    return {
        "guild_id": info.guild,
        "tournament_id": info.id,
        "player_id": player_id,
        "categories": json.dumps(mark["categories"], ensure_ascii=False),
        "team": mark["team"],
        "cash_limit": mark["limit"],
        "updated_by": actor.user,
        "updated_at": now,
    }


def _none(text: str) -> bool:
    return text.strip().lower() in NONE_WORDS


def _categories(text: str) -> list[str]:
    if _none(text):
        return []
    names, bad = category_names(text)
    if bad:
        part, detail = bad[0]
        raise StoreError(
            f"categories: {shorten(part, 100)!r}: a category name {detail}", "bad-name"
        )
    return names


def _team(text: str) -> str | None:
    if _none(text):
        return None
    problem = name_problem(text, "team name")
    if problem is not None:
        raise StoreError(f"team: {problem.message}", "bad-name")
    return tidy(text)


def _limit(text: str) -> str | None:
    if _none(text):
        return None
    try:
        return written_amount(amount_value(amount_text(text), zero=True))
    except ValueError as bad:
        raise StoreError(
            f"limit: the limit must be {bad}, got {shorten(text, 50)!r}", "bad-prizes"
        ) from None


def _no_prize(tournament: str, typed: str, names: Sequence[str]) -> str:
    if not names:
        return f"{tournament} has no prizes yet"
    from core.awards.fields import did_you_mean

    hint = did_you_mean(typed, names) or f"; its prizes are {', '.join(names[:10])}"
    return f"{tournament} has no prize called {shorten(typed, 100)!r}{hint}"
