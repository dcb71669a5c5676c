"""Each server's share of the bot: how many of its commands are worked on at once.

Every slash command and button is acknowledged first (within Discord's 3 seconds), then
takes one of its server's turns (:class:`Turns`): a server has at most :data:`GUILD_ACTIVE`
commands being worked on at once and :data:`GUILD_WAITING` waiting for a turn, in the order
they came; one more is refused at once, in words. Servers never wait for each other's
turns: thirty members of one club pressing commands twice a second fill that club's turns,
and the event loop serves every other club's commands between theirs. The slow work a
command asks for is shared the same way, a server's queue beside another's
(:mod:`bot.store.offload`).

>>> import asyncio
>>> async def club() -> list[str]:
...     turns, said = Turns(active=1, waiting=1), []
...     first = await turns.enter("a")
...     second = asyncio.ensure_future(turns.enter("a"))  # waits for the first
...     await asyncio.sleep(0)
...     try:
...         await turns.enter("a")
...     except Busy as busy:
...         said.append(busy.message)
...     other = await turns.enter("b")  # another server: at once
...     first(); (await second)(); other()
...     return said
>>> asyncio.run(club())
['this server has many requests in progress: please try again in a few seconds']
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

import discord
from discord import app_commands

from bot.errors import UserError

#: Commands of one server worked on at once, and waiting for a turn (a club's burst, fifty
#: members reporting at the same moment, waits and is answered; a flood beyond is refused).
GUILD_ACTIVE = 4
GUILD_WAITING = 200


class Busy(UserError, app_commands.CheckFailure):
    """The server has as many commands waiting as it may."""


@dataclass(slots=True)
class _Guild:
    active: int = 0
    waiting: deque[asyncio.Future[None]] = field(default_factory=deque)


class Turns:
    """The servers' turns (see the module): ``active`` commands of a server at once,
    ``waiting`` more waiting."""

    def __init__(self, active: int = GUILD_ACTIVE, waiting: int = GUILD_WAITING) -> None:
        self.active = active
        self.waiting = waiting
        self._guilds: dict[str, _Guild] = {}
        #: Commands refused because their server had too many waiting.
        self.refused = 0

    def busy(self, guild: str) -> tuple[int, int]:
        """The server's commands worked on, and waiting."""
        found = self._guilds.get(guild)
        return (found.active, len(found.waiting)) if found is not None else (0, 0)

    async def enter(self, guild: str) -> Callable[[], None]:
        """Wait for one of ``guild``'s turns; what ends it (call it once). A :class:`Busy`
        when the server already has :attr:`waiting` commands waiting."""
        state = self._guilds.setdefault(guild, _Guild())
        if state.active < self.active:
            state.active += 1
            return self._ender(guild)
        if len(state.waiting) >= self.waiting:
            self.refused += 1
            raise Busy(
                "this server has many requests in progress: please try again in a few seconds"
            )
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        state.waiting.append(turn)
        try:
            await turn
        except asyncio.CancelledError:
            if turn in state.waiting:
                state.waiting.remove(turn)
            elif not turn.cancelled():  # the turn was handed over as it was cancelled
                self._end(guild)
            raise
        return self._ender(guild)

    def _ender(self, guild: str) -> Callable[[], None]:
        done = False

        def end() -> None:
            nonlocal done
            if not done:
                done = True
                self._end(guild)

        return end

    def _end(self, guild: str) -> None:
        """A turn of ``guild`` ends: the next waiting command takes it."""
        state = self._guilds[guild]
        while state.waiting:
            turn = state.waiting.popleft()
            if not turn.done():
                turn.set_result(None)
                return
        state.active -= 1
        if not state.active:
            del self._guilds[guild]


async def taking_turn(interaction: discord.Interaction[discord.Client]) -> None:
    """Take one of the interaction's server's turns (the bot's :class:`Turns`) for as long
    as the task that answers it runs (a command's, or a button's)."""
    turns = getattr(interaction.client, "turns", None)
    if not isinstance(turns, Turns) or interaction.guild_id is None:
        return
    end = await turns.enter(str(interaction.guild_id))
    task = asyncio.current_task()
    if task is None:  # pragma: no cover - always inside discord.py's task
        end()
        return
    task.add_done_callback(lambda _: end())
