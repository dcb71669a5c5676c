"""One server's biggest section never slows another server's answer: its import, its
standings and its members' floods of commands run in its own turns, off the event loop, and
the garbage collector stays on; a server's limits refuse in words, before anything is
downloaded."""

from __future__ import annotations

import asyncio

import pytest

from bot.fairshare import Turns
from bot.store import Actor, limits
from core.formats.trf import write_trf
from tests.bot.support import Club, LoopWatch, appoint_tds, commands_everywhere, general
from tests.fakes.discord_api import FakeGuild, FakeMember, InteractionRecord, Upload
from tests.generate import random_swiss

#: The longest the event loop may run late while a large section is imported and read:
#: generous (a busy machine shares its cores; the bot's own goal is 50 ms), and far below
#: what reading a large section on the loop costs (seconds).
STALL_BOUND = 1.0
#: A section whose fold and standings are heavy work: 3,000 players × 30 rounds.
BIG = write_trf(random_swiss(3000, 30, seed=4)).encode()


async def _the_other_server(club: Club, guild: FakeGuild) -> None:
    commands_everywhere(club.fake, guild)
    small = write_trf(random_swiss(30, 5, seed=1))
    await club.store.import_tournament(
        str(guild.id), "Club Night", small, actor=Actor("1", td=True)
    )


async def _asks(club: Club, visitor: FakeMember, guild: FakeGuild) -> InteractionRecord:
    return await club.fake.command(visitor, "standings", channel=general(guild))


@pytest.mark.usefixtures("collector_on")
async def test_a_large_section_imported_and_read_never_blocks_another_servers_standings(
    other_guild: tuple[FakeGuild, FakeMember], club: Club
) -> None:
    guild, visitor = other_guild
    await _the_other_server(club, guild)
    await appoint_tds(club)
    answered: list[InteractionRecord] = []

    async def the_other_server_asks(done: asyncio.Event) -> None:
        while not done.is_set():
            record = await _asks(club, visitor, guild)
            await club.succeeded(record)  # within Discord's 3 s, or the fake says so
            answered.append(record)

    done = asyncio.Event()
    async with LoopWatch() as watch:
        asking = asyncio.ensure_future(the_other_server_asks(done))
        try:
            upload = Upload("big.trf", BIG, "text/plain")
            imported = await club.ok("td", "tournament import", {"file": upload, "name": "Big"})
            assert "3000 players, 30 rounds" in imported.text
            table = await club.ok("td", "standings", {"tournament": "Big"})
            assert "Big" in str(table.embeds[0])
            await club.ok(
                "td",
                "result set",
                {
                    "tournament": "Big",
                    "round": 30,
                    "player": "#1",
                    "opponent": "#2",
                    "result": "draw",
                },
            )
            await club.ok("td", "standings", {"tournament": "Big", "after_round": 12})
        finally:
            done.set()
            await asking
    assert len(answered) >= 3, "the other server was not asking while the work ran"
    assert watch.worst < STALL_BOUND, f"the event loop stopped for {watch.worst:.2f} s"
    assert not watch.collector_off, "the garbage collector was switched off"


async def test_one_servers_flood_of_commands_waits_its_turns_and_the_rest_is_refused_in_words(
    other_guild: tuple[FakeGuild, FakeMember], club: Club
) -> None:
    guild, visitor = other_guild
    await _the_other_server(club, guild)
    await appoint_tds(club)
    await club.store.import_tournament(
        club.guild, "Open", write_trf(random_swiss(200, 7, seed=2)), actor=Actor("1", td=True)
    )
    assert club.bot is not None
    club.bot.turns = Turns(active=1, waiting=3)
    members = [club.fake.add_member(f"member{n:02d}") for n in range(12)]
    flood = await asyncio.gather(
        *(club.run(m, "standings", {"tournament": "Open"}) for m in members)
    )
    theirs = await _asks(club, visitor, guild)
    await club.succeeded(theirs)  # the other server's turns are its own
    refused = answered = 0
    for record in flood:
        reply = await record.reply()
        if reply.ephemeral:
            assert "many requests in progress: please try again in a few seconds" in reply.text
            refused += 1
        else:
            answered += 1
    assert (
        refused >= 12 - 1 - 3 - 2 and answered >= 4
    )  # one at work, three waiting (and a few done)
    assert club.bot.turns.refused == refused


async def test_an_import_over_the_servers_hourly_limit_is_refused_before_it_is_downloaded(
    club: Club,
) -> None:
    await appoint_tds(club)
    club.store.imports = limits.ImportWindow(per_hour=1)
    small = Upload("night.trf", write_trf(random_swiss(12, 3, seed=5)).encode())
    await club.ok("td", "tournament import", {"file": small, "name": "Night"})
    downloads = sum(r.path.startswith("/attachments/") for r in club.fake.requests)
    again = Upload("again.trf", small.data)
    error = await club.refused("td", "tournament import", {"file": again, "name": "Again"})
    assert "This server has started 1 imports in the last hour" in error.text
    assert "try again in 60 minutes" in error.text
    assert sum(r.path.startswith("/attachments/") for r in club.fake.requests) == downloads
