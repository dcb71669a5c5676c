"""The Discord ↔ Google Sheets link end to end, with both loopback fakes at once: a
tournament reported in Discord and kept in the TD's Google Sheet, which stays the record.

A TD links the sheet; two members report and confirm a game in Discord; the report lands in
the sheet's Discord reports tab and its Standings tab is rewritten with the same places as
Discord's; ``/why`` answers with the sheet's numbers; the TD types a different result into
the results tab and the conflict is shown (Errors tab, a direct message to the TD,
``/result open``), never applied over what the TD typed; Google answers 429 and then 500
for a while, and the next report is pending, then lands once, exactly once.
"""

from __future__ import annotations

import re

import pytest

from sheets.discord_tabs import REPORT_HEADER
from tests.bot.support import clicked, reported, running_tournament
from tests.fakes.discord_api import MessageRecord
from tests.link.conftest import RESULTS, LinkedClub, as_shown

KEY = REPORT_HEADER.index("Key")


def places_in_discord(message: MessageRecord) -> dict[str, tuple[str, str]]:
    """Name → (place, score) from a /standings answer (a code block of aligned columns)."""
    table = re.search(r"```\n(.*?)\n```", message.embeds[0]["description"], re.S)
    assert table is not None
    rows = [line.split() for line in table.group(1).splitlines()[1:]]
    return {row[2]: (row[0], row[3].rstrip("*?")) for row in rows}


def places_on_the_sheet(club: LinkedClub) -> dict[str, tuple[str, str]]:
    """Name → (place, score) from the sheet's Standings tab (as the TD sees it)."""
    rows = club.tab("Standings")
    header = rows[0]
    place, name, score = header.index("Place"), header.index("Name"), header.index("Score")
    return {row[name]: (row[place], row[score]) for row in rows[1:] if len(row) > score}


async def test_a_result_confirmed_in_discord_lands_in_the_sheet_which_stays_the_record(
    club: LinkedClub,
) -> None:
    await running_tournament(club, rounds=3)
    club.make_sheet()

    # The TD links the sheet: the bot opens it at once and adds its own tabs.
    linked = await club.link()
    assert "Club Night** is kept in the Google Sheet “Club Night 2026”" in linked.text
    assert club.tab("Discord reports") == [REPORT_HEADER]

    # Alice reports her round-1 win over Bob, and Bob confirms it.
    message = await reported(club, "alice", 1, "#2", "win")
    confirmed = await clicked(club, "bob", message, "Confirm")
    assert confirmed.text.splitlines()[1:] == [
        "✅ Confirmed: round 1, #1 Alice 1-0 #2 Bob. — Bob",
        "📗 Written to the Google Sheet (its Discord reports tab); its Standings tab is updated.",
    ]

    # The report is in the bot's tab, once, with who reported and who confirmed it.
    header, row = club.tab("Discord reports")
    assert header == REPORT_HEADER
    cells = dict(zip(header, row, strict=False))
    assert cells | {"Time": "…", "Key": "…"} == {
        "Time": "…",
        "Round": "1",
        "Player": "#1 Alice",
        "Result": "1-0",
        "Opponent": "#2 Bob",
        "Colour": "",
        "Action": "confirmed",
        "Reported by": "Alice",
        "Confirmed by": "Bob",
        "Key": "…",
    }
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC", cells["Time"])
    first_key = row[KEY]
    assert first_key.startswith(f"harkness:{club.guild}:")
    # Nothing the TD typed was changed: their cells for Alice and Bob are still empty.
    assert club.values("Results!A1:G5") == as_shown(RESULTS)

    # The Standings tab was rewritten, and Discord shows the same places.
    on_sheet = places_on_the_sheet(club)
    assert on_sheet["Alice"][1] == on_sheet["Carol"][1] == "1"
    assert on_sheet["Bob"][1] == on_sheet["Dave"][1] == "0"
    assert places_in_discord(await club.ok("erin", "standings")) == on_sheet

    # /why answers with the sheet's numbers: Carol's win over Dave was typed by the TD in
    # the sheet only (Discord never heard of it), and the sentence is the Standings tab's.
    why = await club.ok("carol", "why")
    assert "Carol:" in why.text and "1 point of 1" in why.text
    standings = club.tab("Standings")
    carol = next(r for r in standings if len(r) > 2 and r[2] == "Carol")
    assert carol[-1] in why.text
    assert "from the Google Sheet “Club Night 2026”" in why.text

    # The TD types a different result: Bob beat Alice. What the TD typed stands.
    club.sheets.set_values(club.sheet_id, "Results!E2:E3", [["L2 (b)"], ["W1 (w)"]])
    club.refresh()
    after = places_in_discord(await club.ok("erin", "standings"))
    assert club.values("Results!E2:E3") == [["L2 (b)"], ["W1 (w)"]]
    assert after["Bob"][1] == "1" and after["Alice"][1] == "0"
    assert places_on_the_sheet(club) == after
    # The conflict is on the Errors tab, at the TD's cell, with the report it disagrees with.
    errors = {row[0]: row for row in club.tab("Errors")[1:] if row}
    conflict = errors["Results!E2"]
    assert conflict[1] == "L2 (b)"
    assert "Discord has round 1: #1 Alice 1-0 #2 Bob (confirmed by Bob)" in conflict[2]
    assert "What you typed stands" in conflict[2]
    # ... and told to the TD who linked the sheet, once, in a direct message ...
    told = club.fake.messages_in(club.fake.dm_channel(club.member("td")))
    assert len(told) == 1
    assert told[0].text.startswith(
        "⚠️ **Club Night**: 1 result reported in Discord disagrees with your Google Sheet."
    )
    assert (
        "• Results!E2 says “L2 (b)”, but Discord has round 1: #1 Alice 1-0 #2 Bob" in told[0].text
    )
    # ... and listed for the TDs with the open games.
    assert "Results!E2 says “L2 (b)”" in (await club.ok("td", "result open")).text
    club.refresh()
    await club.ok("erin", "standings")
    assert len(club.fake.messages_in(club.fake.dm_channel(club.member("td")))) == 1

    # Google is over quota, then failing, for a while: Dave and Carol's round-2 draw is
    # kept, the members are told it is pending and why (Google's own quota), and it lands
    # later, once.
    club.sheets.fail_for(1.5, 429)
    club.sheets.fail_next(8, 500)
    message = await reported(club, "dave", 2, "#3", "draw")
    confirmed = await clicked(club, "carol", message, "Confirm")
    assert confirmed.text.splitlines()[-1] == (
        "⏳ Saved. Google Sheets refused more requests this minute (its quota), so it will be "
        "written to the sheet as soon as Google allows (pending); nothing is lost."
    )
    [pending] = await club.store.linked.pending_writes(club.guild, "Club Night")
    await club.settled()
    assert club.sheets.call_count(club.sheet_id, status=429) > 0
    assert club.sheets.call_count(club.sheet_id, status=500) > 0
    keys = [row[KEY] for row in club.tab("Discord reports")[1:]]
    assert keys == [first_key, pending.payload["key"]]
    assert club.tab("Discord reports")[2][1:5] == ["2", "#4 Dave", "½-½", "#3 Carol"]
    club.refresh()
    final = places_in_discord(await club.ok("erin", "standings"))
    assert final["Carol"][1] == "1.5" and final == places_on_the_sheet(club)


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
async def test_the_same_on_postgresql(club: LinkedClub) -> None:
    await test_a_result_confirmed_in_discord_lands_in_the_sheet_which_stays_the_record(club)
