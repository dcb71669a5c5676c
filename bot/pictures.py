"""Pictures attached to answers: the standings page, the "why" picture, the crosstable, a
round's board list, the prize list.

Drawing is :mod:`core.pictures`' (Pillow, a few tens of milliseconds a picture): it runs in a
worker thread, never on the event loop, in its server's turn among the small jobs
(:data:`bot.store.offload.JOBS`): one server's members asking for pictures at once wait for
each other, not for another server's. A picture that cannot be drawn now (the server has too
many waiting) is left out like any other. The text answer always stays (screen readers,
search, copy and paste); a picture is an attachment with an alt text (Discord's
``description``) and is simply left out when it cannot be made: Pillow missing, a section
too large for a crosstable picture, or a file over :data:`PICTURE_MAX_BYTES`.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Callable, Hashable
from typing import Literal

import discord

from bot.render import mark_signs
from bot.store import StandingsView, StoreError
from bot.store.cache import MB, Kept
from bot.store.offload import JOBS
from core.awards import Awards
from core.explain import Explanation
from core.pairing import PairingRequest, RoundPairing
from core.pictures import Picture
from core.problems import HarknessError
from core.standings import Standings

log = logging.getLogger(__name__)

Theme = Literal["dark", "light"]
#: Discord's own default theme.
DEFAULT_THEME: Theme = "dark"
#: A picture larger than this is not sent (Discord refuses uploads over 10 MiB on a server
#: without boosts; ours are a few hundred KB).
PICTURE_MAX_BYTES = 8 * 1024 * 1024


def theme_of(message: discord.Message | None) -> Theme:
    """The theme of the picture a message already shows (a page keeps it when turned)."""
    if message is not None:
        for attachment in message.attachments:
            if attachment.filename.endswith("-light.png"):
                return "light"
    return DEFAULT_THEME


#: Pictures drawn lately, by what they show (a page of standings many members ask for is
#: drawn once): bounded in bytes, with a share a server.
PICTURES_BYTES = 48 * MB
GUILD_PICTURES_BYTES = 16 * MB
_DRAWN: Kept[Hashable, Picture] = Kept(PICTURES_BYTES, GUILD_PICTURES_BYTES)


async def _drawn(
    filename: str, draw: Callable[[], Picture], guild: str | None, key: Hashable | None = None
) -> discord.File | None:
    """``draw`` run in a worker thread in ``guild``'s turn, as an attachment (drawn once for
    a ``key``); None when it cannot be made."""
    picture = _DRAWN.get(key) if key is not None else None
    try:
        if picture is None:
            picture = await JOBS.run(guild or "", draw, size=0, what="drawing a picture")
            if key is not None:
                _DRAWN.put(key, guild or "", picture, len(picture.data) + 1024)
    except (HarknessError, StoreError) as error:  # Pillow missing, too large, too many
        log.info("no picture %s: %s", filename, error)
        return None
    except Exception:  # a picture is an extra: the text answer goes out regardless
        log.exception("no picture %s: drawing failed", filename)
        return None
    if len(picture.data) > PICTURE_MAX_BYTES:
        log.info("no picture %s: %d bytes", filename, len(picture.data))
        return None
    return discord.File(
        io.BytesIO(picture.data), filename=filename, description=picture.description
    )


def page_rows(pages: tuple[str, ...], page: int) -> tuple[int, int]:
    """The first row and the number of rows of text page ``page`` (each page is a header
    line and one line a row), so that the picture shows the same rows.

    >>> page_rows(("h\\na\\nb", "h\\nc"), 1)
    (2, 1)
    """
    counts = [text.count("\n") for text in pages]
    return sum(counts[:page]), counts[page]


async def standings_page(
    view: StandingsView, pages: tuple[str, ...], page: int, theme: Theme
) -> discord.File | None:
    """The rows of text page ``page`` as a picture fitted to a phone screen."""
    from core.pictures.standings import StandingsPage, standings_picture

    first, count = page_rows(pages, page)

    def draw() -> Picture:
        signs, legend = mark_signs(view)
        content = StandingsPage(
            view.standings,
            first,
            count,
            marks=signs,
            legend=legend,
            after_round=view.after_round,
            planned=view.state.info.rounds,
        )
        return standings_picture(content, theme, narrow=True)

    key = None if view.stamp is None else ("standings", view.stamp, page, theme)
    return await _drawn(f"standings-p{page + 1}-{theme}.png", draw, view.state.info.guild, key)


async def why(
    standings: Standings,
    explanation: Explanation,
    theme: Theme,
    guild: str | None = None,
    stamp: Hashable | None = None,
) -> discord.File | None:
    """The "why" picture of an explanation (drawn in ``guild``'s turn; once for the
    standings' ``stamp``, when they have one)."""
    from core.pictures.why import why_picture

    number = explanation.player.id
    return await _drawn(
        f"why-{number}-{theme}.png",
        lambda: why_picture(standings, explanation, theme),
        guild,
        None if stamp is None else ("why", stamp, number, theme),
    )


async def crosstable(
    standings: Standings, base: str, theme: Theme, guild: str | None = None
) -> discord.File | None:
    """The crosstable picture, for a section small enough to read as one (drawn in
    ``guild``'s turn)."""
    from core.pictures.crosstable import crosstable_picture

    return await _drawn(f"{base}-{theme}.png", lambda: crosstable_picture(standings, theme), guild)


async def pairing(
    request: PairingRequest, round_pairing: RoundPairing, theme: Theme
) -> discord.File | None:
    """A round's board list as a picture, for a round small enough to read as one."""
    from core.pictures.pairing import pairing_picture

    return await _drawn(
        f"round-{round_pairing.round}-pairings-{theme}.png",
        lambda: pairing_picture(request, round_pairing, theme),
        None,
    )


async def awards(award_list: Awards, base: str, theme: Theme, guild: str) -> discord.File | None:
    """The prize list as a picture fitted to a phone screen (who won what), drawn in
    ``guild``'s turn."""
    from core.pictures.awards import awards_picture

    return await _drawn(f"{base}-{theme}.png", lambda: awards_picture(award_list, theme), guild)
