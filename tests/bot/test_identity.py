"""Nobody can act or appear as someone else: a member registers only as themselves, and a
name already in the tournament is not theirs to take (a TD links a player to a member)."""

from __future__ import annotations

from tests.bot.support import Club, appoint_tds


async def test_join_with_a_taken_name_registers_nobody_and_says_why(club: Club) -> None:
    await appoint_tds(club)
    await club.ok("td", "tournament create", {"name": "Club Night", "rounds": 3})
    await club.ok("td", "player add", {"name": "Carol Smith", "rating": 1700})
    await club.ok("alice", "join")
    for name in ("Carol Smith", "  carol   SMITH", "Alice"):
        error = await club.refused("erin", "join", {"name": name})
        taken = "#1 Carol Smith" if "carol" in name.casefold() else "#2 Alice"
        number = taken.split()[0]
        assert error.text == (
            f"Club Night already has a player called {taken.split(' ', 1)[1]} ({number}). If "
            f"that is you, ask a TD to link you (/player link player:{number}); otherwise "
            "join under another name (the name option)."
        )
    players = await club.store.players(club.guild, "Club Night")
    assert [(p.name, p.discord_id) for p in players] == [
        ("Carol Smith", None),
        ("Alice", str(club.member("alice").id)),
    ]
    # The TD links the real Carol; Erin joins under her own name.
    carol = club.member("carol")
    await club.ok("td", "player link", {"player": "#1", "member": carol})
    await club.ok("erin", "join")
    players = await club.store.players(club.guild, "Club Night")
    assert [(p.number, p.name, p.discord_id) for p in players][::2] == [
        (1, "Carol Smith", str(carol.id)),
        (3, "Erin", str(club.member("erin").id)),
    ]


async def test_a_refusal_never_appears_to_the_channel_first(club: Club) -> None:
    """Refused public commands answer privately as their very first response: no public
    "thinking…" that everyone sees and that is then deleted."""
    await appoint_tds(club)
    await club.ok("td", "tournament create", {"name": "Club Night", "rounds": 3})
    await club.ok("alice", "join")
    for member, command, options in (
        ("alice", "tournament start", {}),
        ("alice", "player add", {"name": "Mallory"}),
        ("alice", "report", {"round": 1, "opponent": "#9", "result": "win"}),
        ("erin", "join", {"name": "Alice"}),
    ):
        record = await club.run(member, command, options)
        first = await record.response()
        assert (first.type, first.ephemeral) == (4, True), f"/{command}: {first.type}"
        await club.failed(record)
    # An answer for everyone is public as its first response too.
    record = await club.run("bob", "join")
    first = await record.response()
    assert first.type == 4 and not first.ephemeral
    assert "joined **Club Night**" in (await club.succeeded(record)).text
