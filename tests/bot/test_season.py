"""A whole four-round event played through Discord: six members join, report their games,
their opponents confirm (one disputes, a TD decides), the standings after every round are
the engine's, and ``/why`` tells each player what the engine says."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

from core.cli import main
from core.explain import explain
from core.explain_render import to_markdown
from core.profiles import names
from core.render import cells
from core.standings import compute_standings
from tests.bot.support import Club, clicked, reported, running_tournament
from tests.builders import crosstable

PLAYERS = ("alice", "bob", "carol", "dave", "erin", "frank")
# The event as a crosstable (colours are the first-named player's): what must come out.
EXPECTED = crosstable(
    "Alice: W2w D3w W4w L5w",
    "Bob: L1b W5w L6w D4w",
    "Carol: D4w D1b W5w W6w",
    "Dave: D3b L6w L1b D2b",
    "Erin: L6w L2b L3b W1b",
    "Frank: W5b W4b W2b L3b",
)
# Each round: (reporter, opponent's number, result from the reporter's side, colour).
ROUNDS = {
    1: [
        ("bob", "#1", "loss", "black"),
        ("carol", "#4", "draw", "white"),
        ("erin", "#6", "loss", "white"),
    ],
    2: [
        ("carol", "#1", "draw", "black"),
        ("bob", "#5", "win", "white"),
        ("frank", "#4", "win", "black"),
    ],
    3: [
        ("alice", "#4", "win", "white"),
        ("frank", "#2", "win", "black"),
        ("erin", "#3", "loss", "black"),
    ],
    4: [("erin", "#1", "win", "black"), ("dave", "#2", "draw", "black")],
}
NAMES = {f"#{i}": name for i, name in enumerate(PLAYERS, start=1)}


def _rows(description: str) -> list[list[str]]:
    return [line.split() for line in description.strip("`\n").splitlines()[1:]]


async def test_a_four_round_event_played_through_discord(club: Club, tmp_path: Path) -> None:
    await running_tournament(club, "Club Night", rounds=4, players=PLAYERS)
    for round_number, games in ROUNDS.items():
        for reporter, opponent, result, colour in games:
            message = await club.ok(
                reporter,
                "report",
                {"round": round_number, "opponent": opponent, "result": result, "colour": colour},
            )
            after = await clicked(club, NAMES[opponent], message, "Confirm")
            assert "✅ Confirmed" in after.text
        if round_number == 4:
            # Carol says she beat Frank; Frank disputes; the TD decides for Carol.
            claim = await reported(club, "carol", 4, "#6", "win")
            disputed = await clicked(club, "frank", claim, "Dispute")
            assert "⚠️ Disputed" in disputed.text
            open_games = await club.ok("td", "result open")
            assert "(disputed)" in open_games.text
            await club.ok(
                "td",
                "result set",
                {"round": 4, "player": "#3", "opponent": "#6", "result": "win", "colour": "white"},
            )
        expected = cells(compute_standings(EXPECTED.after_round(round_number), "uscf"))
        shown = await club.ok("td", "standings", {"after_round": round_number})
        assert shown.embeds[0]["title"] == (
            f"Club Night — standings after round {round_number} of 4"
        )
        assert _rows(shown.embeds[0]["description"]) == expected[1:]

    final = compute_standings(EXPECTED, "uscf")
    for number, member in enumerate(PLAYERS, start=1):
        why = await club.ok(member, "why")
        markdown = to_markdown(explain(final, number))
        assert why.text == markdown.summary
    details = await club.succeeded(
        await club.click("carol", await club.ok("carol", "why"), "Show details")
    )
    parts = to_markdown(explain(final, 3, 4)).details
    assert [e["description"] for e in details.embeds] == list(parts[: len(details.embeds)])

    finished = await club.ok("td", "tournament finish")
    assert "is finished after 4 rounds" in finished.text
    exported = await club.ok("alice", "tournament export")
    trf = exported.attachment("club-night.trf").text()
    assert sum(line.startswith("001") for line in trf.splitlines()) == 6
    assert_converts_to_crosstables(trf, tmp_path)


def assert_converts_to_crosstables(trf: str, folder: Path) -> None:
    """The bot's TRF-16 export (dated the day the tournament started) becomes a crosstable
    as text and CSV, each ranking as the export does under every profile."""
    source = folder / "club-night.trf"
    source.write_text(trf, encoding="utf-8")
    assert "\n042 " in trf
    for name in ("club-night.txt", "club-night.csv"):
        target = folder / name
        assert harkness("convert", str(source), str(target))[0] == 0
        for rules in names():
            ranked = [
                harkness("standings", str(path), "--rules", rules, "--format", "json")
                for path in (source, target)
            ]
            assert ranked[0] == ranked[1] and ranked[0][0] == 0, (name, rules)


def harkness(*argv: str) -> tuple[int, str]:
    """Run the ``harkness`` command line: its status and what it printed."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        status = main(list(argv))
    return status, out.getvalue()
