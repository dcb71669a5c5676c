"""The deployment files: compose (bot + PostgreSQL 16), the bot's Dockerfile and the systemd
unit. No Docker engine runs here, so these check structure: the compose file is read with
PyYAML."""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).parents[2]
DEPLOY = ROOT / "deploy"


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    document = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    assert isinstance(document, dict)
    return document


def test_compose_runs_the_bot_next_to_postgresql_16(compose: dict[str, Any]) -> None:
    services = compose["services"]
    assert set(services) == {"bot", "db"}
    assert services["db"]["image"] == "postgres:16"
    assert services["bot"]["build"] == {"context": "..", "dockerfile": "deploy/bot.Dockerfile"}
    assert (DEPLOY / ".." / services["bot"]["build"]["dockerfile"]).resolve().is_file()
    assert "db-data:/var/lib/postgresql/data" in services["db"]["volumes"]
    assert "db-data" in compose["volumes"]


def test_the_bot_reaches_the_db_service_by_url(compose: dict[str, Any]) -> None:
    bot, db = compose["services"]["bot"], compose["services"]["db"]
    url = bot["environment"]["HARKNESS_DATABASE_URL"]
    assert re.fullmatch(r"postgresql://harkness:\$\{POSTGRES_PASSWORD[^}]*\}@db:5432/harkness", url)
    assert db["environment"]["POSTGRES_USER"] == "harkness"
    assert db["environment"]["POSTGRES_DB"] == "harkness"
    assert bot["depends_on"] == {"db": {"condition": "service_healthy"}}


def test_both_services_have_a_healthcheck_and_restart_policy(compose: dict[str, Any]) -> None:
    for name, service in compose["services"].items():
        assert service["restart"] == "unless-stopped", name
        assert service["healthcheck"]["test"][0] in ("CMD", "CMD-SHELL"), name
    assert compose["services"]["bot"]["healthcheck"]["test"] == [
        "CMD",
        "python",
        "-m",
        "bot.health",
    ]
    assert "pg_isready" in compose["services"]["db"]["healthcheck"]["test"][1]


def test_the_token_comes_from_an_env_file_that_is_not_committed(compose: dict[str, Any]) -> None:
    bot = compose["services"]["bot"]
    assert bot["env_file"] == [".env"]
    assert "DISCORD_TOKEN" not in bot["environment"]
    example = (DEPLOY / "env.example").read_text().splitlines()
    assert "DISCORD_TOKEN=" in example  # the example holds no token
    for service in compose["services"].values():
        assert "ports" not in service  # nothing is published to the host


def _dockerfile() -> list[tuple[str, str]]:
    text = (DEPLOY / "bot.Dockerfile").read_text().replace("\\\n", " ")
    instructions = []
    for line in text.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            keyword, _, rest = line.strip().partition(" ")
            instructions.append((keyword.upper(), rest.strip()))
    return instructions


def test_the_dockerfile_builds_the_bot_and_runs_it_unprivileged() -> None:
    instructions = _dockerfile()
    froms = [rest for keyword, rest in instructions if keyword == "FROM"]
    assert all(f.startswith("python:3.11-slim") for f in froms)
    for keyword, rest in instructions:
        if keyword == "COPY" and not rest.startswith("--from"):
            for source in shlex.split(rest)[:-1]:
                assert (ROOT / source).exists(), source
    assert ("USER", "harkness") in instructions
    assert ("ENTRYPOINT", '["harkness-bot"]') in instructions
    assert ("STOPSIGNAL", "SIGTERM") in instructions
    healthcheck = next(rest for keyword, rest in instructions if keyword == "HEALTHCHECK")
    assert healthcheck.endswith('CMD ["python", "-m", "bot.health"]')
    assert not any("DISCORD_TOKEN" in rest for _, rest in instructions)


def _unit() -> dict[str, list[tuple[str, str]]]:
    sections: dict[str, list[tuple[str, str]]] = {}
    current = None
    for line in (DEPLOY / "harkness-bot.service").read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            current = line.strip("[]")
            sections[current] = []
        else:
            assert current is not None, line
            key, _, value = line.partition("=")
            sections[current].append((key, value))
    return sections


def test_the_systemd_unit_reads_the_token_from_an_environment_file() -> None:
    unit = _unit()
    assert set(unit) == {"Unit", "Service", "Install"}
    service = dict(unit["Service"])
    assert service["EnvironmentFile"] == "/etc/harkness/bot.env"
    assert service["ExecStart"].endswith("/harkness-bot")
    assert service["User"] == "harkness"
    assert service["KillSignal"] == "SIGTERM"
    assert service["Restart"] == "on-failure"
    assert service["RestartPreventExitStatus"] == "1 2"
    assert not any(k == "Environment" and "DISCORD_TOKEN" in v for k, v in unit["Service"])
    assert dict(unit["Install"])["WantedBy"] == "multi-user.target"
