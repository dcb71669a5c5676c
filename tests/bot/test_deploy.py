"""The deployment files: compose (bot + PostgreSQL 16, and the Sheets worker, the add-on's
endpoint and its TLS proxy as profiles), the bot's Dockerfile, the Caddyfile and the systemd
units. No Docker engine or systemd runs here, so these check structure: the compose file is
read with PyYAML, the units line by line."""

from __future__ import annotations

import ipaddress
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
    assert {name for name, s in services.items() if "profiles" not in s} == {"bot", "db"}
    assert services["db"]["image"].startswith("postgres:16.")  # exact: tests/deploy/test_images.py
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


def test_every_service_has_a_healthcheck_and_a_restart_policy(compose: dict[str, Any]) -> None:
    for name, service in compose["services"].items():
        assert service["restart"] in ("unless-stopped", "on-failure:5"), name
        check = service["healthcheck"]
        assert check == {"disable": True} or check["test"][0] in ("CMD", "CMD-SHELL"), name
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
    for name, service in compose["services"].items():
        if name != "proxy":
            assert "ports" not in service, name  # only the TLS proxy is published
        if name in ("sheets", "addon"):
            assert "env_file" not in service, name  # the bot's token stays with the bot


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
    assert all(f.startswith("python:3.11.") for f in froms)  # exact: tests/deploy/test_images.py
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
    return _units("harkness-bot.service")


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


def test_a_wrong_token_or_setting_does_not_restart_the_bot_forever(
    compose: dict[str, Any],
) -> None:
    # Exit 1 (token refused) and 2 (bad settings) cannot be told apart from a crash by
    # Docker: the restarts are bounded, and systemd does not restart them at all.
    assert compose["services"]["bot"]["restart"] == "on-failure:5"
    assert dict(_unit()["Service"])["RestartPreventExitStatus"] == "1 2"


def test_compose_runs_the_sheets_worker_and_the_add_on_endpoint_from_the_bot_image(
    compose: dict[str, Any],
) -> None:
    services = compose["services"]
    for name, mode in (("sheets", "watch"), ("addon", "serve")):
        service = services[name]
        assert service["image"] == services["bot"]["image"], name
        assert service["build"] == services["bot"]["build"], name
        assert service["entrypoint"] == ["harkness-sheets"], name
        assert service["command"] == [mode, "--config", "/config/sheets.toml"], name
        key = service["environment"]["GOOGLE_APPLICATION_CREDENTIALS"]
        assert f"./google-key.json:{key}:ro" in service["volumes"], name
        assert "./sheets.toml:/config/sheets.toml:ro" in service["volumes"], name
        assert service["restart"] == "on-failure:5", name
    assert services["sheets"]["profiles"] == ["sheets"]
    assert services["addon"]["profiles"] == services["proxy"]["profiles"] == ["addon"]
    assert services["addon"]["environment"]["HARKNESS_SHEETS_HOST"] == "0.0.0.0"
    assert "/healthz" in services["addon"]["healthcheck"]["test"][-1]


def test_the_tls_proxy_serves_the_add_on_endpoint_and_nothing_else(
    compose: dict[str, Any],
) -> None:
    """Caddy passes every route the add-on calls, and the health check, to serve's port,
    and answers 404 to anything else (the real Caddy runs this file in
    tests/sheets/test_addon_through_caddy.py)."""
    proxy, addon = compose["services"]["proxy"], compose["services"]["addon"]
    assert proxy["image"].startswith("caddy:")
    assert sorted(proxy["ports"]) == ["443:443", "80:80"]
    assert "./Caddyfile:/etc/caddy/Caddyfile:ro" in proxy["volumes"]
    caddyfile = (DEPLOY / "Caddyfile").read_text()
    site = [line for line in caddyfile.splitlines() if line.startswith("{$")]
    assert site == ["{$HARKNESS_DOMAIN} {"]
    upstream = (
        f"reverse_proxy {{$HARKNESS_UPSTREAM:addon:{addon['environment']['HARKNESS_SHEETS_PORT']}}}"
    )
    assert upstream in caddyfile
    called = set(re.findall(r"'(/[a-z]+)'", (DEPLOY / "apps-script" / "Code.js").read_text()))
    (matcher,) = [line.split() for line in caddyfile.splitlines() if "@harkness path" in line]
    assert set(matcher[2:]) == called | {"/healthz"}
    assert "respond 404" in caddyfile


def test_serve_believes_x_forwarded_for_from_the_shipped_proxy_only(
    compose: dict[str, Any],
) -> None:
    """Caddy replaces the caller's X-Forwarded-For with the caller's address (it trusts no
    proxy in front of it); serve believes that header from Caddy's address only: in compose
    the proxy's fixed address on its own network, under systemd loopback."""
    proxy, addon = compose["services"]["proxy"], compose["services"]["addon"]
    caddyfile = (DEPLOY / "Caddyfile").read_text()
    directives = [line.split("#")[0] for line in caddyfile.splitlines()]
    assert not any("trusted_proxies" in line or "X-Forwarded-For" in line for line in directives)
    address = proxy["networks"]["edge"]["ipv4_address"]
    assert addon["environment"]["HARKNESS_SHEETS_TRUSTED_PROXIES"] == address
    assert list(proxy["networks"]) == ["edge"]  # Caddy reaches the endpoint from there only
    assert sorted(addon["networks"]) == ["default", "edge"]
    (subnet,) = [pool["subnet"] for pool in compose["networks"]["edge"]["ipam"]["config"]]
    assert ipaddress.ip_address(address) in ipaddress.ip_network(subnet)
    unit = _units("harkness-sheets@.service")
    environment = dict(
        value.split("=", 1) for key, value in unit["Service"] if key == "Environment"
    )
    assert environment["HARKNESS_SHEETS_TRUSTED_PROXIES"] == "127.0.0.1,::1"
    assert "HARKNESS_UPSTREAM=127.0.0.1:8080" in caddyfile  # the systemd recipe's, on loopback


def _units(name: str) -> dict[str, list[tuple[str, str]]]:
    sections: dict[str, list[tuple[str, str]]] = {}
    current = None
    for line in (DEPLOY / name).read_text().splitlines():
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


def test_the_sheets_worker_unit_runs_watch_or_serve_and_can_read_its_key() -> None:
    unit = _units("harkness-sheets@.service")
    service = dict(unit["Service"])
    assert service["ExecStart"] == "/opt/harkness/bin/harkness-sheets %i"
    assert service["User"] == "harkness"
    assert service["Restart"] == "on-failure"
    assert service["RestartPreventExitStatus"] == "2"  # a bad setting or config file
    environment = dict(
        value.split("=", 1) for key, value in unit["Service"] if key == "Environment"
    )
    # ProtectHome=true hides /home from the service: the key and config live in /etc.
    assert service["ProtectHome"] == "true"
    for path in environment.values():
        assert not path.startswith("/home"), path
    assert environment["GOOGLE_APPLICATION_CREDENTIALS"] == "/etc/harkness/google-key.json"
    text = (DEPLOY / "harkness-sheets@.service").read_text()
    assert "harkness-sheets@watch" in text and "harkness-sheets@serve" in text
    assert "-m 640 -o root -g harkness key.json /etc/harkness/google-key.json" in text


def test_the_bot_unit_installs_the_sheets_extra_and_keeps_the_key_out_of_home() -> None:
    text = (DEPLOY / "harkness-bot.service").read_text()
    install = next(line for line in text.splitlines() if "pip install '/path/to/harkness[" in line)
    assert "[bot,sheets,pairing]" in install  # results in sheets, rounds paired
    assert "GOOGLE_APPLICATION_CREDENTIALS=/etc/harkness/google-key.json" in text
    assert dict(_unit()["Service"])["ProtectHome"] == "true"


def test_the_scale_recipe_runs_two_shards_and_two_workers_on_postgresql() -> None:
    base = yaml.safe_load((DEPLOY / "compose.yaml").read_text())["services"]
    scale = yaml.safe_load((DEPLOY / "compose.scale.yaml").read_text())["services"]
    shards = [
        {**base.get(n, {}).get("environment", {}), **scale[n]["environment"]}
        for n in ("bot", "bot-1")
    ]
    assert [s["HARKNESS_SHARD_ID"] for s in shards] == ["0", "1"]
    assert {s["HARKNESS_SHARD_COUNT"] for s in shards} == {"2"}
    for env in shards:
        assert env["HARKNESS_DATABASE_URL"].startswith("postgresql://harkness:")
        assert env["HARKNESS_SHEETS_SYNC_JOBS"] == "1"
    assert scale["bot-1"]["healthcheck"]["test"] == base["bot"]["healthcheck"]["test"]
    assert scale["addon"]["deploy"]["replicas"] == 2
    assert scale["addon"]["environment"]["HARKNESS_DATABASE_URL"].startswith("postgresql://")


def test_the_shard_template_takes_its_shard_from_the_instance_name() -> None:
    unit = _units("harkness-bot@.service")
    service = dict(unit["Service"])
    assert (
        service["ExecStart"] == "/usr/bin/env HARKNESS_SHARD_ID=%i /opt/harkness/bin/harkness-bot"
    )
    assert service["EnvironmentFile"] == "/etc/harkness/bot.env"
    assert service["RestartPreventExitStatus"] == "1 2"


def test_the_scale_recipe_scrapes_every_shard_and_worker_with_prometheus() -> None:
    base = yaml.safe_load((DEPLOY / "compose.yaml").read_text())["services"]
    document = yaml.safe_load((DEPLOY / "compose.scale.yaml").read_text())
    scale = document["services"]
    prometheus = scale["prometheus"]
    assert prometheus["image"].startswith("prom/prometheus:v")
    assert "./prometheus.yml:/etc/prometheus/prometheus.yml:ro" in prometheus["volumes"]
    assert "prometheus-data" in document["volumes"]
    assert prometheus["ports"] == ["127.0.0.1:9090:9090"]  # the UI on this host only
    assert prometheus["restart"].startswith("on-failure") and "healthcheck" in prometheus
    assert set(prometheus["depends_on"]) == {"bot", "bot-1", "addon"}
    assert prometheus["profiles"] == base["addon"]["profiles"]  # it starts with the workers
    config = yaml.safe_load((DEPLOY / "prometheus.yml").read_text())
    jobs = {job["job_name"]: job for job in config["scrape_configs"]}
    targets = [t for c in jobs["harkness-bot"]["static_configs"] for t in c["targets"]]
    targets += [
        f"{name}:{c['port']}"
        for c in jobs["harkness-sheets"]["dns_sd_configs"]
        for name in c["names"]
    ]
    assert sorted(targets) == ["addon:9464", "bot-1:9464", "bot:9464"]
    for target in targets:
        # Each target's service serves its metrics on that port, on every interface of its
        # container (the compose network), and publishes none of it.
        name, port = target.split(":")
        service = {**base.get(name, {}), **scale[name]}
        env = {**base.get(name, {}).get("environment", {}), **scale[name]["environment"]}
        assert env["HARKNESS_METRICS_PORT"] == port
        assert env["HARKNESS_METRICS_ADDR"] == "0.0.0.0"
        assert "ports" not in service
    assert float(config["global"]["scrape_timeout"].rstrip("s")) < float(
        config["global"]["scrape_interval"].rstrip("s")
    )
