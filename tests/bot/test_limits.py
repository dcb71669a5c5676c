"""Every answer fits Discord's limits. The fake refuses anything Discord would (so every
end-to-end test checks this); here the renderers are pushed to their limits directly, and
a deliberately impossible rule shows that a breach does fail a test."""

from __future__ import annotations

from pathlib import Path

import discord
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot import render
from bot.app import create_bot
from bot.settings import BotSettings
from bot.store import Actor, Store
from core.explain import explain
from core.explain_render import to_markdown
from core.formats.trf import write_trf
from core.limits import shorten
from core.standings import compute_standings
from tests.fakes.discord_api import DiscordFake, DiscordLimitError, ViolationKind, running_bot
from tests.generate import random_swiss

TD = Actor("1", "TD", td=True)


@given(
    st.lists(st.text(min_size=0, max_size=300), max_size=60),
    st.integers(min_value=20, max_value=4096),
)
def test_lines_within_never_exceeds_the_limit(lines: list[str], limit: int) -> None:
    assert len(render.lines_within(lines, limit)) <= limit


@given(st.text(max_size=5000), st.integers(min_value=1, max_value=4096))
def test_shorten_never_exceeds_the_limit(text: str, limit: int) -> None:
    fitted = shorten(text, limit)
    assert len(fitted) <= limit
    assert fitted == text or fitted.endswith("…")


async def _standings_of(
    tmp_path: Path, players: int, rounds: int, seed: int, profile: str = "uscf"
) -> render.StandingsPages:
    swiss = random_swiss(players, rounds, seed=seed)
    async with await Store.open(f"sqlite:///{tmp_path / f'{seed}-{players}.db'}") as store:
        await store.import_tournament(
            "g", "Open", write_trf(swiss), actor=TD, filename="open.trf", profile=profile
        )
        view = await store.standings("g", "Open")
        return render.standings_pages(view)


@pytest.mark.parametrize(
    ("players", "rounds", "profile"),
    # The smallest section whose round is played (a lone player's only round is a bye:
    # no round played, no standings, see core.model.as_played).
    [(2, 1, "uscf"), (15, 3, "uscf"), (16, 5, "mca"), (500, 9, "mca"), (120, 7, "fide-2024")],
)
async def test_standings_pages_fit_an_embed(
    tmp_path: Path, players: int, rounds: int, profile: str
) -> None:
    pages = await _standings_of(tmp_path, players, rounds, seed=players, profile=profile)
    assert len(pages.pages) == -(-players // render.ROWS_PER_PAGE)
    for page in range(len(pages.pages)):
        embed = pages.embed(page)  # check_embed raises on any breach
        assert len(embed) <= 6000 and len(embed.description or "") <= 4096
    shown = sum(len(p.splitlines()) - 1 for p in pages.pages)
    assert shown == players


@settings(max_examples=15, deadline=None)
@given(
    st.integers(min_value=2, max_value=60),
    st.integers(min_value=1, max_value=11),
    st.integers(min_value=0, max_value=10_000),
)
def test_why_fits_a_message_and_its_details_fit_embeds(
    players: int, rounds: int, seed: int
) -> None:
    swiss = random_swiss(players, rounds, seed=seed)
    standings = compute_standings(swiss, "mca")
    for row in standings.rows[:3]:
        markdown = to_markdown(explain(standings, row.player.id))
        assert len(render.why_summary(markdown, None)) <= 2000
        for message in render.why_details("x" * 300, markdown.details):
            assert len(message) <= 10
            assert sum(len(e) for e in message) <= 6000


def test_a_report_message_fits_even_with_the_longest_names() -> None:
    from bot.store import GameView, Outcome, PlayerInfo, ResultStatus
    from core.model import EntryKind

    long = "N" * 100
    game = GameView(
        3,
        PlayerInfo(1, 1, long),
        PlayerInfo(2, 2, long, discord_id="9" * 20),
        EntryKind.WIN,
        None,
        ResultStatus.PROVISIONAL,
        (),
        None,
        False,
        True,
        False,
    )
    outcome = Outcome(True, "x" * 3000, None, game, ResultStatus.PROVISIONAL)
    assert len(render.report_message(outcome, "R" * 300)) <= 2000


def test_check_embed_refuses_an_embed_over_6000_characters() -> None:
    embed = discord.Embed(title="t", description="d" * 4000)
    for _ in range(3):
        embed.add_field(name="f", value="v" * 1000)
    with pytest.raises(AssertionError):
        render.check_embed(embed)


async def test_an_answer_after_the_deadline_fails_the_test(tmp_path: Path) -> None:
    """With a deadline no bot can meet, the fake refuses the deferral and the test fails:
    the 3-second rule is really enforced in these tests."""
    async with DiscordFake(response_deadline=0.0) as fake:
        settings = BotSettings(
            discord_token=fake.token,
            discord_api_base=fake.api_base,
            discord_gateway_url=fake.gateway_url,
            dev_guild=fake.guild.id,
            database_url=f"sqlite:///{tmp_path / 'late.db'}",
        )
        async with running_bot(fake, create_bot(settings), configure_endpoints=False):
            record = await fake.command(fake.member("alice"), "tournament list")
            with pytest.raises(DiscordLimitError) as caught:
                await record.reply()
            assert ViolationKind.LATE_RESPONSE in caught.value.kinds
