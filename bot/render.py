"""What members see: messages, embeds and files, always within Discord's limits.

Nothing here computes a tiebreak or talks to Discord or the database: functions take what
the store and core returned and lay it out. Discord refuses a message over 2,000
characters, an embed description over 4,096, an embed over 6,000 characters in all, more
than 25 fields or 10 embeds; so long tables are split into pages (:func:`standings_pages`),
long lists are cut with "… and N more", and whole tables go out as attachments.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import discord

from bot.store import (
    EventView,
    GameView,
    Outcome,
    PlayerInfo,
    ResultStatus,
    StandingsView,
    TournamentInfo,
    TournamentState,
    TournamentStatus,
)
from core.explain_render import EMBED_DESCRIPTION_LIMIT, MESSAGE_LIMIT, MarkdownExplanation
from core.limits import shorten
from core.names import markdown_safe
from core.problems import Problem
from core.render import cells, names_of_tiebreaks, played_text

# A message's and an embed description's limits are defined once, in core.explain_render
# (which sizes the explanations' Markdown for Discord); the others are Discord's embed limits.
MESSAGE_MAX = MESSAGE_LIMIT
EMBED_DESCRIPTION_MAX = EMBED_DESCRIPTION_LIMIT
EMBED_TITLE_MAX = 256
EMBED_FIELD_VALUE_MAX = 1024
EMBED_FOOTER_MAX = 2048
EMBED_TOTAL_MAX = 6000
EMBED_FIELDS_MAX = 25
EMBEDS_PER_MESSAGE = 10

#: Rows of a standings page: a phone screen's worth.
ROWS_PER_PAGE = 15
#: Longest name shown in a standings table (the full name is in the crosstable).
NAME_WIDTH = 22
#: Longest line of a standings table (a dozen tiebreak columns fit).
LINE_MAX = 200
#: What a standings page's code block may hold (its description, less the fence).
PAGE_BUDGET = EMBED_DESCRIPTION_MAX - 16

COLOUR_OK = discord.Colour.dark_green()
COLOUR_INFO = discord.Colour.blurple()
COLOUR_WAIT = discord.Colour.gold()
COLOUR_BAD = discord.Colour.red()

MARKS = {ResultStatus.PROVISIONAL: "*", ResultStatus.DISPUTED: "?"}
STATUS_WORDS = {
    TournamentStatus.REGISTERING: "registering players",
    TournamentStatus.RUNNING: "running",
    TournamentStatus.FINISHED: "finished",
}


def plain(text: str) -> str:
    r"""``text`` (a name, or a sentence holding names) shown as typed: the bot's one way of
    showing what someone typed, :func:`core.names.markdown_safe` (Markdown, mentions, code
    fences and masked links escaped; ``#3`` inside a line is left alone).

    >>> plain("**Bob** the_great #3 <@1>")
    '\\*\\*Bob\\*\\* the\\_great #3 \\<\\@1\\>'
    """
    return markdown_safe(text)


def message_text(text: str | None) -> str | None:
    """A message's text cut to Discord's 2,000 characters (``…`` at the end when cut): every
    answer goes through this, so a refusal quoting a long input is still delivered.

    >>> len(message_text("x" * 5000) or ""), message_text(None)
    (2000, None)
    """
    return None if text is None else shorten(text, MESSAGE_MAX)


def lines_within(lines: Sequence[str], limit: int, more: str = "… and {n} more") -> str:
    """As many whole lines as fit in ``limit`` characters, then how many were left out.

    >>> lines_within(["a", "b", "c"], 5)
    'a\\nb\\nc'
    >>> lines_within(["aaaaaa", "bbbbbb", "cccccc"], 19)
    'aaaaaa\\n… and 2 more'
    """
    text = "\n".join(lines)
    if len(text) <= limit:
        return text
    kept: list[str] = []
    for i, line in enumerate(lines):
        tail = more.format(n=len(lines) - i)
        if len("\n".join([*kept, line, tail])) > limit:
            return "\n".join([*kept, shorten(tail, limit)])
        kept.append(line)
    return "\n".join(kept)  # pragma: no cover - the loop always returns


def embed_size(embed: discord.Embed) -> int:
    """The characters Discord counts towards an embed's 6,000 (title, description, fields,
    footer, author)."""
    return len(embed)


def check_embed(embed: discord.Embed) -> discord.Embed:
    """``embed`` unchanged, or AssertionError if it breaks one of Discord's embed limits."""
    assert len(embed.title or "") <= EMBED_TITLE_MAX, "embed title too long"
    assert len(embed.description or "") <= EMBED_DESCRIPTION_MAX, "embed description too long"
    assert len(embed.fields) <= EMBED_FIELDS_MAX, "too many embed fields"
    assert all(len(f.value or "") <= EMBED_FIELD_VALUE_MAX for f in embed.fields)
    assert len(embed.footer.text or "") <= EMBED_FOOTER_MAX, "embed footer too long"
    assert embed_size(embed) <= EMBED_TOTAL_MAX, "embed longer than 6,000 characters"
    return embed


def text_file(filename: str, text: str, description: str | None = None) -> discord.File:
    """A UTF-8 text attachment."""
    return discord.File(
        io.BytesIO(text.encode("utf-8")), filename=filename, description=description
    )


def slug(name: str) -> str:
    """A file-name-safe form of a tournament name.

    >>> slug("Spring Open 2026 — U1600!")
    'spring-open-2026-u1600'
    """
    return re.sub(r"[^a-z0-9]+", "-", name.casefold()).strip("-")[:60] or "tournament"


def status_line(info: TournamentInfo) -> str:
    """``running · 5 rounds · uscf``; the TD's own order and options in brackets."""
    own = [t for t in (info.tiebreaks, info.options) if t]
    rules = info.profile + (f" ({'; '.join(own)})" if own else "")
    return f"{STATUS_WORDS[info.status]} · {info.rounds} rounds · {rules}"


# -- tournaments ------------------------------------------------------------------------


def tournament_list(found: Sequence[TournamentInfo]) -> discord.Embed:
    """The server's tournaments, newest first."""
    embed = discord.Embed(title="Tournaments", colour=COLOUR_INFO)
    if not found:
        embed.description = "No tournaments yet. A TD starts one with `/tournament create`."
        return embed
    lines = [f"**{plain(t.name)}** — {status_line(t)}" for t in found]
    embed.description = lines_within(lines, EMBED_DESCRIPTION_MAX)
    return check_embed(embed)


def tournament_info(state: TournamentState, td_role: str | None = None) -> discord.Embed:
    """A tournament at a glance: stage, rules, rounds played, players, open games."""
    info = state.info
    embed = discord.Embed(
        title=shorten(plain(info.name), EMBED_TITLE_MAX),
        colour=COLOUR_INFO,
        description=status_line(info),
    )
    played = state.rounds_played
    embed.add_field(name="Rounds with results", value=f"{played} of {info.rounds}")
    embed.add_field(name="Players", value=str(len(state.players)))
    disputed = sum(1 for g in state.open_games if g.status is ResultStatus.DISPUTED)
    waiting = len(state.open_games) - disputed
    embed.add_field(name="Open games", value=f"{waiting} to confirm, {disputed} disputed")
    if info.start_date or info.end_date:
        embed.add_field(name="Dates", value=f"{info.start_date or '?'} – {info.end_date or ''}")
    if info.sheet is not None:
        embed.add_field(
            name="Google Sheet", value=shorten(info.sheet.url or info.sheet.spreadsheet_id, 1024)
        )
    if state.players:
        embed.add_field(
            name="Starting list",
            value=lines_within([player_line(p) for p in state.players], EMBED_FIELD_VALUE_MAX),
            inline=False,
        )
    embed.set_footer(text=f"TD role: {'set' if td_role else 'not set (Manage Server only)'}")
    return check_embed(embed)


def player_line(p: PlayerInfo) -> str:
    """``#3 Carol (1650) <@id>``."""
    rating = f" ({p.rating})" if p.rating else ""
    member = f" <@{p.discord_id}>" if p.discord_id else ""
    return f"#{p.number} {plain(p.name)}{rating}{member}"


def tiebreak_order(
    info: TournamentInfo,
    description: str,
    order: Sequence[tuple[str, str, str]],
    rules: str | None = None,
    variants: Sequence[str] = (),
) -> discord.Embed:
    """The tiebreak order in words: ``1. Modified Median (MM) — US Chess 34E1``, then how
    unplayed rounds count under these rules (``variants``, core's words)."""
    embed = discord.Embed(
        title=shorten(f"Tiebreaks of {plain(info.name)}", EMBED_TITLE_MAX), colour=COLOUR_INFO
    )
    lines = [
        f"Players with the same score are ranked by these tiebreaks, in this order "
        f"(rules: **{rules or info.profile}**):",
        "",
    ]
    lines += [
        f"{i}. **{name}** (`{code}`) — {rule}"
        for i, (code, name, rule) in enumerate(order, start=1)
    ]
    if variants:
        lines += ["", "Unplayed rounds: " + "; ".join(variants) + "."]
    lines += ["", f"_{description}_", "Use `/why` to see how yours were worked out."]
    embed.description = lines_within(lines, EMBED_DESCRIPTION_MAX)
    return check_embed(embed)


# -- results ----------------------------------------------------------------------------


def report_message(outcome: Outcome, reporter: str) -> str:
    """The public message after a member's report: the result, and who must act next."""
    game = outcome.game
    text = plain(outcome.message)
    if game is not None and outcome.status is ResultStatus.PROVISIONAL:
        opponent = game.opponent
        asked = (
            f"<@{opponent.discord_id}>, please confirm or dispute it with the buttons below."
            if opponent.discord_id
            else f"{plain(opponent.name)} has no Discord account linked: a TD can confirm it below."
        )
        text = f"**{plain(reporter)}** reported {plain(game.describe())}.\n{asked}"
    elif outcome.status is ResultStatus.DISPUTED:
        text += "\nA TD decides with `/result set`; `/result open` lists the open games."
    return shorten(text, MESSAGE_MAX)


#: How :func:`report_message` ends its first line while the report waits for an answer.
WAITING = f" ({ResultStatus.PROVISIONAL.value})."


def answered_report(original: str, verdict: str) -> str:
    """The report message once answered: the report line (no longer saying it is
    provisional: the verdict says what it is now), then the verdict."""
    first = original.split("\n", 1)[0]
    if first.endswith(WAITING):
        first = first.removesuffix(WAITING) + "."
    return shorten(f"{first}\n{verdict}", MESSAGE_MAX)


def open_games(
    info: TournamentInfo, games: Sequence[GameView], sheet_conflicts: Sequence[str] = ()
) -> discord.Embed:
    """Games waiting for a confirmation or a TD, disputed first, with their report numbers;
    and, for a tournament kept in a Google Sheet, the Discord reports the sheet disagrees
    with (the sheet's cell stands)."""
    embed = discord.Embed(
        title=shorten(f"Open games of {plain(info.name)}", EMBED_TITLE_MAX), colour=COLOUR_WAIT
    )
    if sheet_conflicts:
        embed.add_field(
            name="The Google Sheet says otherwise (the sheet stands)",
            value=lines_within([f"⚠️ {plain(c)}" for c in sheet_conflicts], EMBED_FIELD_VALUE_MAX),
            inline=False,
        )
    if not games:
        embed.description = "Every result is confirmed."
        return check_embed(embed)
    ordered = sorted(games, key=lambda g: (g.status is not ResultStatus.DISPUTED, g.round))
    lines = []
    for g in ordered:
        reports = ", ".join(f"#{c.seq} by {plain(c.by.name)}" for c in g.claims)
        lines.append(
            f"{'⚠️' if g.status is ResultStatus.DISPUTED else '⏳'} "
            f"{plain(g.describe())}" + (f" — reports {reports}" if reports else "")
        )
    embed.description = lines_within(lines, EMBED_DESCRIPTION_MAX)
    embed.set_footer(text="TDs decide disputed games with /result set.")
    return check_embed(embed)


def history(info: TournamentInfo, events: Sequence[EventView]) -> discord.Embed:
    """The audit trail, newest first."""
    embed = discord.Embed(
        title=shorten(f"History of {plain(info.name)}", EMBED_TITLE_MAX), colour=COLOUR_INFO
    )
    lines = [plain(e.describe()) for e in events]
    embed.description = lines_within(lines, EMBED_DESCRIPTION_MAX) or "Nothing happened yet."
    embed.set_footer(text="/result undo event:<number> undoes one of these.")
    return check_embed(embed)


# -- standings --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StandingsPages:
    """A standings table split into code-block pages that each fit an embed description."""

    title: str
    pages: tuple[str, ...]
    footer: str

    def embed(self, page: int, picture: discord.File | None = None) -> discord.Embed:
        """Page ``page`` (0-based, clamped) as an embed, showing ``picture`` (an attachment
        of the same message) under the table."""
        page = max(0, min(page, len(self.pages) - 1))
        embed = discord.Embed(
            title=self.title, colour=COLOUR_INFO, description=f"```\n{self.pages[page]}\n```"
        )
        if picture is not None:
            embed.set_image(url=f"attachment://{picture.filename}")
        numbered = f"Page {page + 1} of {len(self.pages)} · " if len(self.pages) > 1 else ""
        embed.set_footer(text=shorten(numbered + self.footer, EMBED_FOOTER_MAX))
        return check_embed(embed)


def _table_lines(view: StandingsView) -> tuple[str, list[str]]:
    table = cells(view.standings)
    marks: list[str] = []
    for row in view.standings.rows:
        status = view.marked(row.player.id)
        marks.append(MARKS[status] if status is not None else "")
    header, body = table[0], table[1:]
    for line, sign in zip(body, marks, strict=True):
        line[2] = markdown_safe(shorten(line[2], NAME_WIDTH), in_code=True)
        line[3] = line[3] + sign
    rows = [header, *body]
    widths = [max(len(r[j]) for r in rows) for j in range(len(header))]

    def render(row: Sequence[str]) -> str:
        return "  ".join(
            c.ljust(w) if j in (2, 3) else c.rjust(w)
            for j, (c, w) in enumerate(zip(row, widths, strict=True))
        ).rstrip()

    return render(header), [render(r) for r in body]


def standings_pages(view: StandingsView) -> StandingsPages:
    """The standings as pages of at most :data:`ROWS_PER_PAGE` rows (fewer if wide)."""
    info = view.state.info
    header, lines = _table_lines(view)
    pages: list[str] = []
    page: list[str] = []
    for line in lines:
        line = shorten(line, LINE_MAX)
        candidate = "\n".join([header, *page, line])
        if page and (len(page) >= ROWS_PER_PAGE or len(candidate) > PAGE_BUDGET):
            pages.append("\n".join([header, *page]))
            page = []
        page.append(line)
    pages.append("\n".join([header, *page]))
    title = shorten(
        f"{plain(info.name)} — standings {played_text(view.after_round, info.rounds)}",
        EMBED_TITLE_MAX,
    )
    _, legend = mark_signs(view)
    footer = " · ".join([names_of_tiebreaks(view.standings), *legend])
    return StandingsPages(title, tuple(pages), footer)


def mark_signs(view: StandingsView) -> tuple[dict[int, str], list[str]]:
    """The sign after each marked player's score (by starting number) and the legend of the
    signs used: ``*`` provisional, ``?`` disputed."""
    signs: dict[int, str] = {}
    for row in view.standings.rows:
        status = view.marked(row.player.id)
        if status is not None:
            signs[row.player.id] = MARKS[status]
    used = set(signs.values())
    legend = []
    if MARKS[ResultStatus.PROVISIONAL] in used:
        legend.append("* provisional result (not yet confirmed)")
    if MARKS[ResultStatus.DISPUTED] in used:
        legend.append("? disputed game (not counted until a TD decides)")
    return signs, legend


# -- explanations -----------------------------------------------------------------------


def why_summary(md: MarkdownExplanation, marked: ResultStatus | None) -> str:
    """The summary of ``/why`` (it fits a message), with a word on unconfirmed results."""
    note = (
        {
            ResultStatus.PROVISIONAL: "\n_Some of your results are provisional until confirmed._",
            ResultStatus.DISPUTED: "\n_One of your games is disputed and not counted yet._",
        }.get(marked, "")
        if marked
        else ""
    )
    if len(md.summary) + len(note) <= MESSAGE_MAX:
        return md.summary + note
    return md.summary


def why_details(title: str, details: Sequence[str]) -> list[list[discord.Embed]]:
    """The detail parts as embeds, grouped into messages of at most 10 embeds and 6,000
    characters each."""
    messages: list[list[discord.Embed]] = []
    current: list[discord.Embed] = []
    size = 0
    for i, part in enumerate(details):
        embed = discord.Embed(description=shorten(part, EMBED_DESCRIPTION_MAX), colour=COLOUR_INFO)
        if i == 0:
            embed.title = shorten(title, EMBED_TITLE_MAX)
        check_embed(embed)
        if current and (
            len(current) >= EMBEDS_PER_MESSAGE or size + embed_size(embed) > EMBED_TOTAL_MAX
        ):
            messages.append(current)
            current, size = [], 0
        current.append(embed)
        size += embed_size(embed)
    if current:
        messages.append(current)
    return messages


#: How many of a file's warnings an answer lists before "… and N more".
SHOWN_WARNINGS = 5


def warning_lines(warnings: Sequence[Problem]) -> list[str]:
    r"""What a file's reader accepted but reports (a TRF points column that disagrees with
    the results), one line each, names shown as typed; the first few, then how many more.

    >>> from core.problems import Problem
    >>> warning_lines([Problem("*Ann*: the points column says 2.0", "a.trf", 3, 81, 1)])
    ['⚠️ a.trf:3:81 player 1: \\*Ann\\*: the points column says 2.0']
    """
    lines = [f"⚠️ {plain(str(w))}" for w in warnings[:SHOWN_WARNINGS]]
    if len(warnings) > SHOWN_WARNINGS:
        lines.append(f"⚠️ … and {len(warnings) - SHOWN_WARNINGS} more warnings like these.")
    return lines


def with_line(text: str, line: str) -> str:
    r"""``text`` and, when there is one, ``line`` below it, within Discord's 2,000.

    >>> with_line("Saved.", ""), with_line("Saved.", "Written.")
    ('Saved.', 'Saved.\nWritten.')
    """
    return shorten(f"{text}\n{line}" if line else text, MESSAGE_MAX)


def joined(lines: Iterable[str]) -> str:
    """Lines joined for a message, cut to Discord's 2,000 characters."""
    return shorten("\n".join(lines), MESSAGE_MAX)
