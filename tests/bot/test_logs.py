"""What the bot logs never lets anyone act as the bot or answer for it: at every level,
discord.py's own DEBUG lines included, interaction tokens and the bot's token are redacted."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

from bot.logs import configure
from tests.bot.support import Club, clicked, reported, running_tournament


@pytest.fixture
def debug_logs() -> Iterator[None]:
    """The bot's logging set up at DEBUG, as ``HARKNESS_LOG_LEVEL=DEBUG`` does, then put back."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    levels = {name: logging.getLogger(name).level for name in ("discord", "discord.http")}
    try:
        yield
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)
        for name, old in levels.items():
            logging.getLogger(name).setLevel(old)


@pytest.mark.parametrize("fmt", ["text", "json"])
async def test_debug_logs_hold_no_token(
    club: Club,
    debug_logs: None,
    capsys: pytest.CaptureFixture[str],
    discord_env: dict[str, str],
    fmt: str,
) -> None:
    configure(fmt, "DEBUG")
    logging.getLogger("discord.http").setLevel(logging.DEBUG)  # the chattiest, on purpose
    await running_tournament(club)
    message = await reported(club, "alice", 1, "#2", "win")
    await clicked(club, "bob", message, "Confirm")
    await club.refused(
        "carol", "result set", {"round": 1, "player": "#1", "opponent": "#2", "result": "win"}
    )
    logged = capsys.readouterr().err
    assert "INTERACTION_CREATE" in logged and "/interactions/" in logged  # logged, redacted
    assert "[redacted]" in logged
    tokens = list(club.fake.interactions_by_token)
    assert len(tokens) >= 8
    leaked = [token for token in tokens if token in logged]
    assert leaked == []
    assert discord_env["DISCORD_TOKEN"] not in logged
