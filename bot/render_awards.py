"""Awards as the bot shows them: the award list (``/awards``, and the list posted when a TD
finishes a tournament), the prize list as set (``/prizes list``), and a player's award in
``/why``; names escaped, within Discord's limits.

Every sentence is core's (:mod:`core.explain_render`: ``award_headline``,
``award_note_text``; :func:`core.awards.render.notes_of`); this module only lays them out.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.awards import AwardList
from bot.render import (
    COLOUR_INFO,
    COLOUR_OK,
    COLOUR_WAIT,
    EMBED_DESCRIPTION_MAX,
    EMBED_FIELD_VALUE_MAX,
    EMBED_FOOTER_MAX,
    EMBED_TITLE_MAX,
    MESSAGE_MAX,
    check_embed,
    lines_within,
    plain,
)
from bot.store import PlayerInfo, TournamentInfo
from core.awards import Kind, PlayerAward, Prize, PrizeList
from core.awards.model import ladder_name
from core.awards.render import notes_of
from core.explain_render import award_headline, award_note_text
from core.limits import shorten
from core.numbers import display, money
from core.render import played_text


def provisional_note(provisional: int, disputed: int) -> str:
    """Why an award list may still change: ``provisional`` results counted but not yet
    confirmed, ``disputed`` games not counted until a TD decides.

    >>> provisional_note(2, 1)
    'Provisional: 2 results not yet confirmed and 1 disputed game not counted until a TD decides; the awards may change.'
    """  # noqa: E501
    parts = []
    if provisional:
        parts.append(f"{provisional} result{'s' if provisional != 1 else ''} not yet confirmed")
    if disputed:
        parts.append(
            f"{disputed} disputed game{'s' if disputed != 1 else ''} not counted until a TD decides"
        )
    return f"Provisional: {' and '.join(parts)}; the awards may change." if parts else ""


def award_embed(answer: AwardList, picture: discord.File | None = None) -> discord.Embed:
    """The award list: each player who takes cash or a trophy, in standings order, in
    core's words (``Alvarez, Maria: $133.33 (2nd place, 3rd place and 1st U1800 pooled);
    trophy 2nd place.``), the teams, the prizes not awarded and the cents left over."""
    awards, info = answer.awards, answer.info
    title = (
        f"🏆 Awards of {plain(info.name)} — "
        f"{played_text(answer.after_round, max(info.rounds, answer.after_round))}"
    )
    embed = discord.Embed(
        title=shorten(title, EMBED_TITLE_MAX),
        colour=COLOUR_OK if answer.final else COLOUR_WAIT,
    )
    winners = [
        f"`{row.place}` {plain(award_headline(row))}"
        for row in awards.rows
        if row.cash or row.trophies
    ]
    lines = winners or ["Nobody takes a prize yet."]
    notes = [f"_{plain(line)}_" for line in notes_of(awards)]
    warning = provisional_note(answer.provisional, answer.disputed)
    if warning:
        lines = [f"⏳ **{warning}**", "", *lines]
    embed.description = lines_within(
        [*lines, *(["", *notes] if notes else [])], EMBED_DESCRIPTION_MAX
    )
    if awards.teams:
        teams = []
        for team in awards.teams:
            what = [money(team.paid, awards.currency)] if team.paid else []
            what += list(team.trophies)
            more = f": {', '.join(what)}" if what else ""
            teams.append(f"{team.rank}. {plain(team.name)}, {display(team.score)}{more}")
        embed.add_field(
            name="Teams", value=lines_within(teams, EMBED_FIELD_VALUE_MAX), inline=False
        )
    if picture is not None:
        embed.set_image(url=f"attachment://{picture.filename}")
    footer = [f"Prizes: {awards.method.value}"]
    if answer.source:
        footer.append(answer.source)
    footer.append("/why explains a player's award")
    embed.set_footer(text=shorten(" · ".join(footer), EMBED_FOOTER_MAX))
    return check_embed(embed)


def prize_line(prize: Prize, currency: str) -> str:
    """``**2nd U1800** — $50 · under 1800, rank 2`` (the name escaped)."""
    what = []
    if prize.amount is not None:
        what.append(money(prize.amount, currency))
    if prize.trophy:
        what.append("trophy")
    kind = f"place {prize.place}" if prize.kind is Kind.PLACE else ladder_name(prize)
    if prize.kind is not Kind.PLACE and prize.rank != 1:
        kind += f", rank {prize.rank}"
    flags = [f for f, on in (("team", prize.team), ("additive", prize.additive)) if on]
    rest = " · ".join([" + ".join(what), kind, *flags])
    return f"**{plain(prize.name)}** — {rest}"


def _players(numbers: Sequence[int], names: dict[int, str]) -> str:
    return ", ".join(f"#{n} {plain(names.get(n, '?'))}" for n in numbers)


def prize_list_embed(
    info: TournamentInfo, prizes: PrizeList, players: Sequence[PlayerInfo]
) -> discord.Embed:
    """The prize list as set: each prize in the order announced, the method, and the
    players marked with categories, teams and personal limits."""
    embed = discord.Embed(
        title=shorten(f"🏅 Prizes of {plain(info.name)}", EMBED_TITLE_MAX), colour=COLOUR_INFO
    )
    lines = [f"{n}. {prize_line(p, prizes.currency)}" for n, p in enumerate(prizes.prizes, 1)]
    head = f"Method: **{prizes.method.value}**" + (
        f" · currency {plain(prizes.currency)}" if prizes.currency else ""
    )
    if prizes.trophy_follows_money:
        head += " · a trophy follows its money"
    embed.description = lines_within(
        [head, "", *(lines or ["No prizes yet: a TD adds them with /prizes add."])],
        EMBED_DESCRIPTION_MAX,
    )
    names = {p.number: p.name for p in players}
    for title, table in (("Categories", prizes.categories), ("Teams", prizes.teams)):
        listed = [
            f"**{plain(name)}**: {_players(ids, names)}" for name, ids in table.items() if ids
        ]
        if listed:
            embed.add_field(
                name=title, value=lines_within(listed, EMBED_FIELD_VALUE_MAX), inline=False
            )
    if prizes.limits:
        limits = [
            f"#{n} {plain(names.get(n, '?'))}: "
            + (money(limit, prizes.currency) if limit else "not prize-eligible")
            for n, limit in sorted(prizes.limits.items())
        ]
        embed.add_field(
            name="Personal limits", value=lines_within(limits, EMBED_FIELD_VALUE_MAX), inline=False
        )
    embed.set_footer(text="The prize file attached is the list as set: /prizes load takes it back.")
    return check_embed(embed)


def award_lines(award: PlayerAward, currency: str, note: str = "", room: int = MESSAGE_MAX) -> str:
    """A player's award in ``/why``: why (core's reasons) and why not, escaped, then
    ``note`` (the list is provisional), within ``room`` characters; the headline is in the
    explanation's summary already."""
    lines = [plain(award_note_text(n, currency)) for n in award.reasons]
    lines += [f"_{plain(award_note_text(n, currency))}_" for n in award.why_not]
    if note:
        lines.append(f"_{note}_")
    return lines_within(lines, room)
