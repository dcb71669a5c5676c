"""The ``harkness-bot`` process: settings from the environment, a helpful exit without a
token, JSON logs without secrets, and a clean stop on SIGTERM or SIGINT."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import sys
import time
from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.app import EXIT_BAD_SETTINGS, main
from bot.settings import BotSettings, settings_problem
from bot.sole import sole_bot
from sheets.database.engine import database_url
from tests.fakes.discord_api import DiscordFake
from tests.scrape import free_port, scrape

ROOT = Path(__file__).parents[2]
STOP_SECONDS = 8.0
"""How long a stop on SIGTERM may take: well inside the 10 s Docker waits before it kills."""


def _clear(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in (
        "DISCORD_TOKEN",
        "HARKNESS_DATABASE_URL",
        "HARKNESS_DEV_GUILD",
        "DISCORD_API_BASE",
        "DISCORD_GATEWAY_URL",
        "HARKNESS_SHARD_ID",
        "HARKNESS_SHARD_COUNT",
        "HARKNESS_SHEETS_SYNC_JOBS",
    ):
        monkeypatch.delenv(name, raising=False)


@pytest.mark.parametrize("token", [None, "", "   "])
def test_without_a_token_the_bot_says_how_to_get_one(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], token: str | None
) -> None:
    _clear(monkeypatch)
    if token is not None:
        monkeypatch.setenv("DISCORD_TOKEN", token)
    assert main([]) == EXIT_BAD_SETTINGS
    err = capsys.readouterr().err
    assert "DISCORD_TOKEN" in err
    assert "https://discord.com/developers/applications" in err
    assert "Reset Token" in err


def test_settings_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    _clear(monkeypatch)
    monkeypatch.setenv("DISCORD_TOKEN", "a.secret.token")
    monkeypatch.setenv("HARKNESS_DATABASE_URL", "postgresql://harkness@db/harkness")
    monkeypatch.setenv("HARKNESS_DEV_GUILD", "1234")
    monkeypatch.setenv("DISCORD_API_BASE", "http://127.0.0.1:8080/api/v10/")
    monkeypatch.setenv("DISCORD_GATEWAY_URL", "ws://127.0.0.1:8080/gateway")
    settings = BotSettings()
    assert settings.discord_token is not None
    assert settings.discord_token.get_secret_value() == "a.secret.token"
    assert "a.secret.token" not in repr(settings)
    assert settings.database_url == "postgresql://harkness@db/harkness"
    assert settings.dev_guild == 1234
    assert settings.discord_api_base == "http://127.0.0.1:8080/api/v10"
    assert settings.discord_gateway_url == "ws://127.0.0.1:8080/gateway"


def test_defaults_are_discords_own_endpoints(monkeypatch: pytest.MonkeyPatch) -> None:
    _clear(monkeypatch)
    settings = BotSettings()
    assert settings.discord_api_base == "https://discord.com/api/v10"
    assert settings.discord_gateway_url == "wss://gateway.discord.gg/"
    assert settings.dev_guild is None and settings.database_url is None


def test_a_wrong_endpoint_is_refused_before_starting(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _clear(monkeypatch)
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.setenv("DISCORD_GATEWAY_URL", "http://127.0.0.1:1/not-a-websocket")
    assert main([]) == EXIT_BAD_SETTINGS
    assert "DISCORD_GATEWAY_URL must be a ws(s) URL" in capsys.readouterr().err


async def _start(env: dict[str, str], *args: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        *args,
        cwd=ROOT,
        env={**os.environ, **env},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
async def test_the_process_serves_commands_then_stops_cleanly_on_a_signal(
    discord_fake: DiscordFake, tmp_path: Path, sig: signal.Signals
) -> None:
    heartbeat = tmp_path / "alive"
    env = {
        **discord_fake.env,
        "HARKNESS_DATABASE_URL": f"sqlite:///{tmp_path / 'club.db'}",
        "HARKNESS_LOG_FORMAT": "json",
        "HARKNESS_HEALTH_FILE": str(heartbeat),
    }
    process = await _start(env)
    try:
        await discord_fake.wait_until_ready(timeout=30)
        record = await discord_fake.command(discord_fake.member("alice"), "tournament list")
        reply = await record.reply()
        assert "No tournaments yet" in reply.text
        await discord_fake.wait_for(
            lambda: True if heartbeat.exists() else None, 10, "the heartbeat file"
        )
        check = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot.health", cwd=ROOT, env={**os.environ, **env}
        )
        assert await check.wait() == 0
        process.send_signal(sig)
        _, stderr = await asyncio.wait_for(process.communicate(), 20)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    assert process.returncode == 0
    logs = [json.loads(line) for line in stderr.decode().splitlines() if line.startswith("{")]
    messages = [entry["message"] for entry in logs]
    assert "synced 14 commands" in messages
    assert f"received {sig.name}: shutting down" in messages
    assert messages[-1] == "stopped"
    assert all({"level", "logger", "message", "time"} <= set(entry) for entry in logs)
    assert discord_fake.token not in stderr.decode()
    assert (tmp_path / "club.db").exists()


async def test_sigterm_during_a_gateway_outage_stops_within_seconds(
    discord_fake: DiscordFake, tmp_path: Path
) -> None:
    """discord.py waits out its reconnect backoff (seconds, growing to minutes) before it
    looks again; a stop must not wait for it, or Docker and systemd kill the bot."""
    env = {
        **discord_fake.env,
        "HARKNESS_DATABASE_URL": f"sqlite:///{tmp_path / 'club.db'}",
        "HARKNESS_LOG_FORMAT": "json",
    }
    process = await _start(env)
    try:
        await discord_fake.wait_until_ready(timeout=30)
        await discord_fake.gateway_outage()
        # Four refused reconnects: the next backoff is up to 32 s (discord.py draws it
        # between 0 and 2^5 s), so a bot that waits it out is almost always caught.
        await discord_fake.wait_for(
            lambda: True if discord_fake.gateway.refused >= 4 else None, 40, "reconnects"
        )
        process.send_signal(signal.SIGTERM)
        began = time.monotonic()
        _, stderr = await asyncio.wait_for(process.communicate(), 20)
        took = time.monotonic() - began
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    # The requirement is Docker's default grace of 10 s before it kills (systemd's is longer).
    # About a second idle, up to 4 s measured on a loaded 2-core machine; a bot that waited out
    # a backoff drawn up to 32 s would take over 8 s three times in four.
    assert took < STOP_SECONDS, f"the bot took {took:.1f} s to stop"
    assert process.returncode == 0
    messages = [json.loads(line)["message"] for line in stderr.decode().splitlines()]
    assert "received SIGTERM: shutting down" in messages and messages[-1] == "stopped"


async def test_a_refused_token_ends_the_process_with_a_message(
    discord_fake: DiscordFake, tmp_path: Path
) -> None:
    env = {
        **discord_fake.env,
        "DISCORD_TOKEN": "not.the.right.token",
        "HARKNESS_DATABASE_URL": f"sqlite:///{tmp_path / 'club.db'}",
    }
    process = await _start(env)
    _, stderr = await asyncio.wait_for(process.communicate(), 30)
    assert process.returncode == 1
    assert "Discord refused the token" in stderr.decode()
    assert "not.the.right.token" not in stderr.decode()


def test_the_healthcheck_fails_without_a_fresh_heartbeat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot import health

    path = tmp_path / "alive"
    monkeypatch.setenv(health.ENVIRONMENT_VARIABLE, str(path))
    assert health.main() == 1  # never started
    health.touch(path)
    assert health.main() == 0
    old = path.stat().st_mtime - health.STALE_SECONDS - 1
    os.utime(path, (old, old))
    assert health.main() == 1  # disconnected or hung for two minutes
    monkeypatch.delenv(health.ENVIRONMENT_VARIABLE)
    assert health.main() == 1


async def test_an_unreachable_discord_ends_the_process_for_a_restart(tmp_path: Path) -> None:
    import socket

    with socket.socket() as probe:  # a loopback port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {
        "DISCORD_TOKEN": "fake.token",
        "DISCORD_API_BASE": f"http://127.0.0.1:{port}/api/v10",
        "DISCORD_GATEWAY_URL": f"ws://127.0.0.1:{port}/gateway",
        "HARKNESS_DATABASE_URL": f"sqlite:///{tmp_path / 'club.db'}",
    }
    env["HARKNESS_LOG_FORMAT"] = "text"
    process = await _start(env)
    _, stderr = await asyncio.wait_for(process.communicate(), 30)
    assert process.returncode == 3  # not 1 or 2: systemd and compose restart it
    lines = stderr.decode().splitlines()
    errors = [line for line in lines if " ERROR " in line]
    assert len(errors) == 1, lines
    assert f"cannot reach Discord at 127.0.0.1:{port}" in errors[0]
    assert "Traceback" not in stderr.decode()


async def test_a_second_bot_on_the_same_sqlite_file_says_so_and_stops(
    discord_fake: DiscordFake, tmp_path: Path
) -> None:
    env = {
        **discord_fake.env,
        "HARKNESS_DATABASE_URL": f"sqlite:///{tmp_path / 'club.db'}",
        "HARKNESS_LOG_FORMAT": "text",
    }
    first = await _start(env)
    try:
        await discord_fake.wait_until_ready(timeout=30)
        status, _, stderr = await _exit_of(env)
        assert status == EXIT_BAD_SETTINGS
        assert "SQLite serves one bot process" in stderr and "PostgreSQL" in stderr
        first.send_signal(signal.SIGTERM)
        await asyncio.wait_for(first.communicate(), 20)
    finally:
        if first.returncode is None:
            first.kill()
            await first.wait()
    assert first.returncode == 0
    with sole_bot(database_url(env["HARKNESS_DATABASE_URL"])):  # it went with the process
        pass


async def _exit_of(env: dict[str, str], *args: str) -> tuple[int, str, str]:
    process = await _start(env, *args)
    stdout, stderr = await asyncio.wait_for(process.communicate(), 30)
    assert process.returncode is not None
    return process.returncode, stdout.decode(), stderr.decode()


@pytest.mark.parametrize(
    ("name", "value", "said"),
    [
        ("HARKNESS_DATABASE_URL", "mysql://club@db/harkness", "'mysql' is not supported"),
        ("HARKNESS_DATABASE_URL", "::not a url::", "is not a database URL"),
        ("HARKNESS_LOG_LEVEL", "chatty", "must be one of DEBUG, INFO"),
    ],
)
async def test_a_bad_setting_is_one_line_and_exit_2_before_logging_in(
    discord_fake: DiscordFake, tmp_path: Path, name: str, value: str, said: str
) -> None:
    env = {**discord_fake.env, "HARKNESS_DATABASE_URL": f"sqlite:///{tmp_path / 'club.db'}"}
    status, _, stderr = await _exit_of({**env, name: value})
    assert status == 2  # systemd's RestartPreventExitStatus: fix it, then start it
    assert stderr.splitlines() == [stderr.strip()]
    assert stderr.startswith(f"harkness-bot: bad settings: {name}")
    assert said in stderr
    assert discord_fake.requests == []  # never logged in
    assert discord_fake.token not in stderr


async def test_a_database_file_that_cannot_be_opened_is_one_line_and_exit_2(
    discord_fake: DiscordFake, tmp_path: Path
) -> None:
    missing = tmp_path / "no such folder" / "club.db"
    env = {
        **discord_fake.env,
        "HARKNESS_DATABASE_URL": f"sqlite:///{missing}",
        "HARKNESS_LOG_FORMAT": "text",
    }
    status, _, stderr = await _exit_of(env)
    assert status == 2
    assert len(stderr.strip().splitlines()) == 1, stderr
    assert f"cannot open the database sqlite+aiosqlite:///{missing}" in stderr
    assert discord_fake.requests == []


async def test_help_prints_the_usage_and_does_not_start_the_bot(
    discord_fake: DiscordFake, tmp_path: Path
) -> None:
    env = {**discord_fake.env, "HARKNESS_DATABASE_URL": f"sqlite:///{tmp_path / 'club.db'}"}
    status, stdout, stderr = await _exit_of(env, "--help")
    assert status == 0 and stderr == ""
    assert stdout.startswith("usage: harkness-bot")
    assert "DISCORD_TOKEN" in stdout and "exit status" in stdout
    assert discord_fake.requests == []
    assert not (tmp_path / "club.db").exists()
    status, _, stderr = await _exit_of(env, "--no-such-option")
    assert status == 2 and "unrecognized arguments: --no-such-option" in stderr
    assert discord_fake.requests == []


def test_shards_are_configured_by_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    _clear(monkeypatch)
    monkeypatch.setenv("DISCORD_TOKEN", "a.secret.token")
    monkeypatch.setenv("HARKNESS_DATABASE_URL", "postgresql://harkness@db/harkness")
    monkeypatch.setenv("HARKNESS_SHARD_ID", "1")
    monkeypatch.setenv("HARKNESS_SHARD_COUNT", "2")
    settings = BotSettings()
    assert (settings.shard_id, settings.shard_count) == (1, 2)
    from bot.app import HarknessBot

    bot = HarknessBot(settings)
    assert (bot.shard_id, bot.shard_count) == (1, 2)


@pytest.mark.parametrize(
    ("env", "said"),
    [
        ({"HARKNESS_SHARD_ID": "0"}, "go together"),
        ({"HARKNESS_SHARD_ID": "2", "HARKNESS_SHARD_COUNT": "2"}, "numbered from 0"),
        (
            {"HARKNESS_SHARD_ID": "0", "HARKNESS_SHARD_COUNT": "2", "HARKNESS_DATABASE_URL": ""},
            "through PostgreSQL",
        ),
        (
            {"HARKNESS_SHEETS_SYNC_JOBS": "1", "HARKNESS_DATABASE_URL": "sqlite:///x.db"},
            "PostgreSQL database",
        ),
    ],
)
def test_shards_without_their_partner_or_postgresql_are_refused(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], said: str
) -> None:
    _clear(monkeypatch)
    monkeypatch.setenv("HARKNESS_DATABASE_URL", "postgresql://harkness@db/harkness")
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(ValidationError) as refused:
        BotSettings()
    assert said in settings_problem(refused.value)


async def test_the_process_serves_metrics_that_count_commands_and_their_ack(
    discord_fake: DiscordFake, tmp_path: Path
) -> None:
    port = free_port()
    env = {
        **discord_fake.env,
        "HARKNESS_DATABASE_URL": f"sqlite:///{tmp_path / 'club.db'}",
        "HARKNESS_METRICS_PORT": str(port),
    }
    process = await _start(env)
    try:
        await discord_fake.wait_until_ready(timeout=30)
        samples = await asyncio.to_thread(scrape, port)
        command = ("harkness_interactions_total", (("command", "tournament list"),))
        assert command not in samples
        assert samples[("harkness_ack_seconds_count", ())] == 0
        for _ in range(2):
            record = await discord_fake.command(discord_fake.member("alice"), "tournament list")
            assert "No tournaments yet" in (await record.reply()).text
        samples = await asyncio.to_thread(scrape, port)
        assert samples[command] == 2
        assert samples[("harkness_ack_seconds_count", ())] == 2
        assert samples[("harkness_ack_seconds_bucket", (("le", "3.0"),))] == 2
        process.send_signal(signal.SIGTERM)
        await asyncio.wait_for(process.communicate(), 20)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    assert process.returncode == 0


async def test_a_metrics_port_in_use_is_refused_at_start(
    discord_fake: DiscordFake, tmp_path: Path
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        env = {
            **discord_fake.env,
            "HARKNESS_DATABASE_URL": f"sqlite:///{tmp_path / 'club.db'}",
            "HARKNESS_METRICS_PORT": str(taken.getsockname()[1]),
        }
        process = await _start(env)
        _, stderr = await asyncio.wait_for(process.communicate(), 30)
    assert process.returncode == EXIT_BAD_SETTINGS
    assert "HARKNESS_METRICS_PORT: cannot serve metrics on 127.0.0.1" in stderr.decode()
