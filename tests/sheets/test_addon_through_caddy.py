"""The add-on, the shipped proxy and the endpoint together, as deployed: the real Caddy runs
``deploy/Caddyfile`` (as shipped, set only by its environment: a loopback site with Caddy's
local CA instead of a public certificate, serve's loopback address as upstream) in front of
the real ``harkness-sheets serve``, and the add-on's own ``Code.js`` (run by Node,
``tests/sheets/addon_world.js``) calls it over HTTPS for a TD whose account writes the sheet
in the Sheets fake. Every route the add-on calls goes through the proxy."""

from __future__ import annotations

import hashlib
import json
import os
import re
import signal
import socket
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import google.auth.transport.requests
import pytest
from google.oauth2 import service_account

from sheets.addon_keys import KEY_HEADER
from sheets.client import SHEETS_SCOPE
from tests.fakes.sheets_api import SheetsFake, generate_service_account
from tests.programs import program
from tests.scrape import free_port
from tests.sheets.addon import new_key
from tests.sheets.conftest import settings_rows

ROOT = Path(__file__).parents[2]
WORLD = Path(__file__).with_name("addon_world.js")
HEADER = ["Round", "White", "Black", "Result"]
PLAYERS = [["#", "Name", "Rating"]] + [[n, f"Player {n}", 2000 - 10 * n] for n in range(1, 7)]
#: How late a cut may come on a loaded machine, beyond Caddy's read_header timeout (5 s).
SLACK = 4.0


def _wait_for(what: str, ready: Callable[[], bool], process: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 30
    while not ready():
        assert process.poll() is None, f"{what} stopped: {process.communicate()[1][-2000:]}"
        assert time.monotonic() < deadline, f"{what} did not start"
        time.sleep(0.1)


def _answers(url: str, context: ssl.SSLContext | None = None) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2, context=context):
            return True
    except urllib.error.HTTPError:
        return True
    except OSError:
        return False


@dataclass
class Deployment:
    base: str
    """https://127.0.0.1:PORT, Caddy's site."""
    tls: ssl.SSLContext
    """Trusts Caddy's local CA."""
    ca_file: Path
    serve: subprocess.Popen[str]

    def request(
        self, route: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, dict[str, str], bytes]:
        """A request through Caddy: status, headers, body."""
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(
            self.base + route,
            data=data,
            headers={"Content-Type": "application/json", **(headers or {})},
        )
        try:
            with urllib.request.urlopen(request, timeout=10, context=self.tls) as answer:
                return answer.status, dict(answer.headers), answer.read()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read()


@pytest.fixture
def deployment(sheets_env: dict[str, str], tmp_path: Path) -> Iterator[Deployment]:
    caddy = program("caddy", "apt-get install caddy")
    serve_port, caddy_port, redirect_port = free_port(), free_port(), free_port()
    serve = subprocess.Popen(
        [sys.executable, "-m", "sheets", "serve"],
        env={
            **{k: v for k, v in os.environ.items() if k != "HARKNESS_DATABASE_URL"},
            **sheets_env,
            "HARKNESS_SHEETS_PORT": str(serve_port),
            "HARKNESS_SHEETS_TRUSTED_PROXIES": "127.0.0.1",  # Caddy, as under systemd
            "HARKNESS_SHEETS_DEBOUNCE": "0.3",
        },
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    home = tmp_path / "caddy"
    options = [
        "admin off",
        "local_certs",  # Caddy's own CA, no ACME
        "skip_install_trust",  # ... and never into this machine's trust store
        "default_bind 127.0.0.1",
        f"http_port {redirect_port}",
    ]
    proxy = subprocess.Popen(
        [caddy, "run", "--config", str(ROOT / "deploy" / "Caddyfile"), "--adapter", "caddyfile"],
        env={
            "PATH": os.environ.get("PATH", ""),
            "HOME": str(home),
            "XDG_DATA_HOME": str(home / "data"),
            "XDG_CONFIG_HOME": str(home / "config"),
            "HARKNESS_DOMAIN": f"https://127.0.0.1:{caddy_port}",
            "HARKNESS_UPSTREAM": f"127.0.0.1:{serve_port}",
            "HARKNESS_CADDY_OPTIONS": "\n".join(options),
        },
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        _wait_for("serve", lambda: _answers(f"http://127.0.0.1:{serve_port}/healthz"), serve)
        ca_file = home / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
        _wait_for("Caddy's local CA", ca_file.exists, proxy)
        tls = ssl.create_default_context(cafile=str(ca_file))
        base = f"https://127.0.0.1:{caddy_port}"
        _wait_for("Caddy", lambda: _answers(base + "/healthz", tls), proxy)
        yield Deployment(base, tls, ca_file, serve)
    finally:
        for process in (proxy, serve):
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in (proxy, serve):
            try:
                process.communicate(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.communicate()


@dataclass
class AddOn:
    """The add-on bound to one spreadsheet, run for one person (their account's token)."""

    state_file: Path
    ca_file: Path

    def run(self, action: str) -> dict[str, Any]:
        """Run a menu action of Code.js; what it answered and showed."""
        node = program("node", "apt-get install nodejs")
        done = subprocess.run(
            [node, str(WORLD), action, str(self.state_file)],
            env={**os.environ, "NODE_EXTRA_CA_CERTS": str(self.ca_file)},
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stderr[-3000:]
        state: dict[str, Any] = json.loads(self.state_file.read_text())
        return state

    @property
    def key(self) -> str | None:
        state: dict[str, Any] = json.loads(self.state_file.read_text())
        key = state["user"].get("HARKNESS_KEY")
        return None if key is None else str(key)


def _token(sheets_fake: SheetsFake, tmp_path: Path, name: str, sheet: str, role: str) -> str:
    """A person's account, given ``role`` on ``sheet``: an access token from the fake."""
    key = generate_service_account(
        sheets_fake, tmp_path, email=f"{name}@club.example", project_id=f"{name}-project"
    )
    load = service_account.Credentials.from_service_account_file
    credentials = load(str(key.path), scopes=[SHEETS_SCOPE])  # type: ignore[no-untyped-call]
    credentials.refresh(google.auth.transport.requests.Request())
    sheets_fake.share(sheet, key.email, role)
    return str(credentials.token)


def _add_on(
    deployment: Deployment,
    sheets_fake: SheetsFake,
    tmp_path: Path,
    sheet: str,
    name: str,
    role: str = "writer",
) -> AddOn:
    """The add-on in ``sheet``, run by ``name`` (an editor, or ``role``)."""
    token = _token(sheets_fake, tmp_path, name, sheet, role)
    state = tmp_path / f"{name}.json"
    state.write_text(
        json.dumps(
            {
                "sheetsApi": sheets_fake.base_url,
                "token": token,
                "spreadsheetId": sheet,
                "script": {"HARKNESS_ENDPOINT": deployment.base},
                "user": {},
            }
        )
    )
    return AddOn(state, deployment.ca_file)


def test_the_add_on_works_through_the_shipped_proxy(
    deployment: Deployment,
    sheets_fake: SheetsFake,
    make_sheet: Callable[..., str],
    tmp_path: Path,
) -> None:
    sheet = make_sheet(
        {"Results": [HEADER], "Players": PLAYERS, "Harkness": settings_rows(Rounds="3")}
    )
    td = _add_on(deployment, sheets_fake, tmp_path, sheet, "td")
    deputy = _add_on(deployment, sheets_fake, tmp_path, sheet, "deputy")
    viewer = _add_on(deployment, sheets_fake, tmp_path, sheet, "viewer", role="reader")

    # A viewer's add-on cannot write the key's hash: nothing is connected, nothing sent.
    refused = viewer.run("connectSheet")
    assert refused["result"]["ok"] is False and "Only an editor" in refused["result"]["message"]
    assert refused["fetches"] == []

    connected = td.run("connectSheet")
    assert connected["result"] == {
        "ok": True,
        "message": "This sheet is connected to Harkness (with a new key).",
    }
    key = td.key
    assert key is not None
    (entry,) = sheets_fake.developer_metadata(sheet, "harkness.addonKey")
    assert entry["metadataValue"] == "sha256:" + hashlib.sha256(key.encode()).hexdigest()

    synced = td.run("recomputeStandings")
    assert synced["result"]["ok"] is True, synced
    deadline = time.monotonic() + 30
    while "Standings" not in sheets_fake.sheet_titles(sheet):
        assert time.monotonic() < deadline, "the sync did not run"
        time.sleep(0.2)

    assert deputy.run("connectSheet")["result"]["ok"] is True  # a key of the deputy's own
    assert len(sheets_fake.developer_metadata(sheet, "harkness.addonKey")) == 2

    paired = td.run("pairNextRound")
    assert paired["result"] == {
        "ok": True,
        "message": "Round 1 is paired: see the Pairings Rd 1 tab.",
    }
    assert "Pairings Rd 1" in sheets_fake.sheet_titles(sheet)
    assert [f["url"] for f in td.run("disconnectSheet")["fetches"]] == [
        deployment.base + "/disconnect"
    ]
    assert sheets_fake.developer_metadata(sheet, "harkness.addonKey") == []

    # The old key, through the proxy, opens nothing now.
    for route in ("/sync", "/pair", "/connect"):
        status, _, _ = deployment.request(route, {"spreadsheetId": sheet}, {KEY_HEADER: key})
        assert status == 401, route
    assert "not connected" in td.run("recomputeStandings")["result"]["message"]
    # The deputy's key went too: their add-on tries to connect again, and is refused.
    after = deputy.run("recomputeStandings")
    assert "refused this sheet's key" in after["result"]["message"]
    assert [f["url"].removeprefix(deployment.base) for f in after["fetches"]] == [
        "/sync",
        "/connect",
    ]


def test_the_proxy_passes_the_add_ons_routes_only_and_names_the_caller(
    deployment: Deployment, make_sheet: Callable[..., str]
) -> None:
    """Every route Code.js calls reaches serve (a 401 from serve, not Caddy's 404), the
    health check too, nothing else does; a caller cannot name its own address through
    Caddy; no answer names a version."""
    called = set(re.findall(r"'(/[a-z]+)'", (ROOT / "deploy/apps-script/Code.js").read_text()))
    assert called == {"/sync", "/pair", "/connect", "/disconnect"}
    sheet = make_sheet({"Results": [HEADER]})
    answers = {}
    for route in sorted(called):
        answers[route] = deployment.request(
            route,
            {"spreadsheetId": sheet},
            {KEY_HEADER: new_key(), "X-Forwarded-For": "203.0.113.9"},
        )
    answers["/healthz"] = deployment.request("/healthz")
    for route in ("/", "/metrics", "/sync/../metrics", "/healthz/x"):
        answers[route] = deployment.request(route)
    statuses = {route: status for route, (status, _, _) in answers.items()}
    assert statuses == {
        "/connect": 401,
        "/disconnect": 401,
        "/pair": 401,
        "/sync": 401,
        "/healthz": 200,
        "/": 404,
        "/metrics": 404,
        "/sync/../metrics": 404,
        "/healthz/x": 404,
    }
    for route, (_, headers, _) in answers.items():
        servers = [v for k, v in headers.items() if k.lower() == "server"]
        assert all(not re.search(r"\d", value) for value in servers), (route, servers)
    deployment.serve.send_signal(signal.SIGTERM)
    _, log = deployment.serve.communicate(timeout=15)
    assert "from 127.0.0.1:" in log and "203.0.113.9" not in log


def test_the_proxy_cuts_a_half_sent_request_within_seconds(deployment: Deployment) -> None:
    port = int(deployment.base.rsplit(":", 1)[1])
    with (
        socket.create_connection(("127.0.0.1", port)) as raw,
        deployment.tls.wrap_socket(raw, server_hostname="127.0.0.1") as tls,
    ):
        tls.sendall(b"POST /sync HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Le")
        tls.settimeout(5 + SLACK + 10)
        began = time.monotonic()
        try:
            while tls.recv(1024):
                pass
        except (ConnectionError, ssl.SSLError):
            pass
        assert time.monotonic() - began <= 5 + SLACK
