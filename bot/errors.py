"""The one place where anything that went wrong is answered: once, ephemerally, in words.

Slash commands reach :func:`answer_error` through the command tree's ``on_error``; buttons
reach it through :class:`bot.buttons.HarknessButton`. A mistake the member can fix (a
:class:`~bot.store.StoreError` from the store, a :class:`UserError` from the bot) is shown
in its words, escaped (it may quote names: :func:`core.names.markdown_safe`). Anything
else is a bug: the member is told that something went wrong on our side, with a
reference, and the log gets the traceback under the same reference.

A public command is deferred only when it is slow (:class:`PendingDeferral`), so a refusal
is almost always the first, ephemeral, response. A command that did defer *publicly* cannot
turn its "thinking…" message into an ephemeral one, because Discord fixes that at the
deferral; so the public placeholder is deleted and the error is sent as an ephemeral
follow-up.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Iterator

import discord
from discord import app_commands

from bot import metrics
from bot.render import message_text
from bot.store import StoreError
from core.names import markdown_safe

log = logging.getLogger("harkness.bot")

#: ``interaction.extras`` key: True when the interaction was deferred publicly.
PUBLIC_DEFERRAL = "harkness_public_deferral"
#: ``interaction.extras`` key: True once the member has been answered (no second answer).
ANSWERED = "harkness_answered"
#: ``interaction.extras`` key: the :class:`PendingDeferral` of a public command.
PENDING_DEFERRAL = "harkness_pending_deferral"
#: ``interaction.extras`` key: when (monotonic) the command arrived, for the ack metric.
ARRIVED = "harkness_arrived"


def arrived(interaction: discord.Interaction[discord.Client], name: str | None = None) -> None:
    """Count an interaction by ``name`` (default: its slash command's) and note when it
    arrived, for :func:`acknowledged`."""
    if name is None:
        name = interaction.command.qualified_name if interaction.command else "unknown"
    metrics.INTERACTIONS.labels(name).inc()
    interaction.extras[ARRIVED] = time.monotonic()


def acknowledged(interaction: discord.Interaction[discord.Client]) -> None:
    """Record the time to its first response once the interaction has been acknowledged."""
    metrics.acknowledged(interaction.extras.pop(ARRIVED, None), time.monotonic())


class PendingDeferral:
    """A public command's "thinking…", shown only if its answer is slow.

    A refusal must never appear to the channel, even for a moment; so a public command does
    not defer at once: if it answers within ``after`` seconds (most do, refusals included)
    the answer is the first response, public or ephemeral as it should be. Only a slow one
    is deferred publicly at ``after`` seconds (Discord allows 3). The lock makes the
    deferral and the answer take turns, so exactly one of them goes first."""

    def __init__(self, interaction: discord.Interaction[discord.Client], after: float) -> None:
        self.lock = asyncio.Lock()
        self._interaction = interaction
        self._timer = asyncio.get_running_loop().create_task(self._defer_later(after))

    async def _defer_later(self, after: float) -> None:
        await asyncio.sleep(after)
        async with self.lock:
            if not self._interaction.response.is_done():
                self._interaction.extras[PUBLIC_DEFERRAL] = True
                await self._interaction.response.defer(thinking=True)
                acknowledged(self._interaction)

    @contextlib.asynccontextmanager
    async def answering(self) -> AsyncIterator[None]:
        """Hold off the deferral while the answer is given (and for good after)."""
        async with self.lock:
            self._timer.cancel()
            yield


@contextlib.asynccontextmanager
async def answering(interaction: discord.Interaction[discord.Client]) -> AsyncIterator[None]:
    """Give the answer with no deferral starting meanwhile (see :class:`PendingDeferral`)."""
    pending = interaction.extras.get(PENDING_DEFERRAL)
    if isinstance(pending, PendingDeferral):
        async with pending.answering():
            yield
    else:
        yield


class UserError(Exception):
    """A request the bot refuses, with a message written for the member. The message is
    shown escaped (it may quote names and what the member typed), unless ``markup`` says
    the bot wrote every character of it (a role mention, say)."""

    def __init__(self, message: str, *, markup: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.markup = markup


def sentence(text: str) -> str:
    """``text`` as a sentence: capital first letter, full stop at the end (a file name or
    mention at the start is left as it is).

    >>> sentence("there is no tournament called 'X' here")
    "There is no tournament called 'X' here."
    >>> sentence("Done!"), sentence("club.trf cannot be imported")
    ('Done!', 'club.trf cannot be imported.')
    """
    text = text.strip()
    if not text:
        return text
    if text.split(maxsplit=1)[0].isalpha():
        text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?…" or text.endswith("```") else text + "."


@contextlib.contextmanager
def to_the_handler(interaction: discord.Interaction[discord.Client]) -> Iterator[None]:
    """Whatever goes wrong before a command's body (its acknowledgement, its checks) reaches
    :func:`answer_error` as it would from the body: discord.py hands the tree's ``on_error``
    only its own errors, so any other is wrapped in a ``CommandInvokeError``."""
    try:
        yield
    except app_commands.AppCommandError:
        raise
    except Exception as error:
        command = interaction.command
        if command is None:
            raise
        raise app_commands.CommandInvokeError(command, error) from error


def _unwrap(error: BaseException) -> BaseException:
    while isinstance(error, app_commands.CommandInvokeError | app_commands.TransformerError):
        inner = error.__cause__ or getattr(error, "original", None)
        if inner is None or inner is error:
            break
        error = inner
    return error


def message_for(error: BaseException, reference: str) -> tuple[str, bool]:
    """The words for the member, and whether the error is a bug that the log must explain."""
    error = _unwrap(error)
    if isinstance(error, StoreError):
        return sentence(markdown_safe(error.message)), False
    if isinstance(error, UserError):
        return sentence(error.message if error.markup else markdown_safe(error.message)), False
    if isinstance(error, app_commands.NoPrivateMessage):
        return "Harkness commands work in a server, not in direct messages.", False
    if isinstance(error, app_commands.MissingPermissions):
        return "You need the Manage Server permission for that.", False
    if isinstance(error, app_commands.CheckFailure):
        return sentence(str(error) or "You may not use this command here"), False
    if isinstance(error, app_commands.TransformerError):
        return sentence(
            markdown_safe(f"{error.value!r} is not a valid value for this option")
        ), False
    return (
        f"Something went wrong on our side and nothing was changed. Please try again; if "
        f"it keeps happening, tell a server admin (reference {reference})."
    ), True


async def answer_error(
    interaction: discord.Interaction[discord.Client], error: BaseException
) -> None:
    """Answer ``error`` to the member once, ephemerally, and log it (bugs with traceback)."""
    reference = f"E{interaction.id}"
    text, is_bug = message_for(error, reference)
    text = message_text(text) or ""
    where = _where(interaction)
    context = {
        "interaction_id": interaction.id,
        "guild_id": interaction.guild_id,
        "user_id": interaction.user.id,
    }
    if is_bug:
        log.error(
            "unexpected error in %s (reference %s)",
            where,
            reference,
            exc_info=_unwrap(error),
            extra={"reference": reference, **context},
        )
    else:
        log.info("refused %s: %s", where, text, extra={"refused": True, **context})
    if interaction.extras.get(ANSWERED):
        return
    interaction.extras[ANSWERED] = True
    try:
        async with answering(interaction):
            if not interaction.response.is_done():
                await interaction.response.send_message(text, ephemeral=True)
                return
            if interaction.extras.get(PUBLIC_DEFERRAL):
                await interaction.delete_original_response()
            await interaction.followup.send(text, ephemeral=True)
    except discord.HTTPException:
        log.exception("could not answer the error in %s (reference %s)", where, reference)


def _where(interaction: discord.Interaction[discord.Client]) -> str:
    if interaction.command is not None:
        return f"/{interaction.command.qualified_name}"
    custom_id = interaction.data.get("custom_id") if interaction.data else None
    return f"component {custom_id}" if custom_id else f"interaction {interaction.type.name}"
