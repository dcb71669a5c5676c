"""The ``harkness-sheets`` command: exit statuses, messages, and no secret in any of them."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest

from sheets.addon_keys import KEY_HEADER
from sheets.cli import main
from tests.fakes.sheets_api import ServiceAccountKey, SheetsFake, generate_service_account
from tests.scrape import free_port, scrape
from tests.sheets.addon import Editor, new_key
from tests.sheets.conftest import seed_crosstable

MakeSheet = Callable[..., str]


def test_sync_of_a_clean_sheet_by_url_exits_0(
    sheets_env: dict[str, str],
    sheets_fake: SheetsFake,
    make_sheet: MakeSheet,
    capsys: pytest.CaptureFixture[str],
) -> None:
    sheet_id = make_sheet({"Results": seed_crosstable()})
    url = f"https://docs.google.com/spreadsheets/d/{sheet_id}/edit#gid=0"
    assert main(["sync", url]) == 0
    out = capsys.readouterr().out
    assert f"'Spring Swiss' ({sheet_id}): No problems found." in out
    assert sheets_fake.values(sheet_id, "Standings!C2") == [["Player A"]]


def test_sync_of_a_sheet_with_problems_exits_2_and_prints_them(
    sheets_env: dict[str, str], make_sheet: MakeSheet, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = seed_crosstable()
    rows[1][2] = "W99"
    sheet_id = make_sheet({"Results": rows})
    assert main(["sync", sheet_id]) == 2
    assert 'Results!C2: "W99": there is no player 99' in capsys.readouterr().err


def test_a_sheet_that_cannot_be_synced_exits_1_and_the_others_still_sync(
    sheets_env: dict[str, str],
    sheets_fake: SheetsFake,
    make_sheet: MakeSheet,
    service_account_file: ServiceAccountKey,
    capsys: pytest.CaptureFixture[str],
) -> None:
    private = sheets_fake.create_spreadsheet("Private", {"Results": seed_crosstable()})
    shared = make_sheet({"Results": seed_crosstable()})
    assert main(["sync", private, shared]) == 1
    err = capsys.readouterr().err
    assert f"share the spreadsheet with {service_account_file.email}" in err
    assert sheets_fake.values(shared, "Standings!C2") == [["Player A"]]


def test_no_key_file_is_a_clear_setup_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("GOOGLE_APPLICATION_CREDENTIALS", raising=False)
    assert main(["sync", "1AbCdEfGhIjKlMnOp"]) == 2
    assert "GOOGLE_APPLICATION_CREDENTIALS is not set" in capsys.readouterr().err


def test_a_refused_key_is_reported_without_the_key_or_any_token(
    sheets_env: dict[str, str],
    sheets_fake: SheetsFake,
    make_sheet: MakeSheet,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    (tmp_path / "other").mkdir()
    unknown = generate_service_account(
        sheets_fake,
        tmp_path / "other",
        email="deleted@harkness-test.iam.gserviceaccount.com",
        register=False,
    )
    monkeypatch.setenv("GOOGLE_APPLICATION_CREDENTIALS", str(unknown.path))
    sheet_id = make_sheet({"Results": seed_crosstable()})
    with caplog.at_level("DEBUG"):
        status = main(["-vv", "sync", sheet_id])
    captured = capsys.readouterr()
    everything = captured.out + captured.err + caplog.text
    assert status == 1
    assert "could not get an access token" in captured.err
    key_body = unknown.private_key_pem.decode().splitlines()[1]
    assert key_body not in everything and "PRIVATE KEY" not in everything
    assert "eyJ" not in everything  # no signed assertion (JWT)


def test_watch_needs_a_config(
    sheets_env: dict[str, str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.delenv("HARKNESS_SHEETS_CONFIG", raising=False)
    assert main(["watch"]) == 2
    assert "give --config PATH" in capsys.readouterr().err
    bad = tmp_path / "sheets.toml"
    bad.write_text("sheets = []\n", encoding="utf-8")
    assert main(["watch", "--config", str(bad)]) == 2
    assert "'sheets' must list at least one spreadsheet" in capsys.readouterr().err
    # A bad setting stops every command at start-up (sync: a regression fails, never serves).
    monkeypatch.setenv("HARKNESS_SHEETS_TRUSTED_PROXIES", "127.0.0.1, caddy")
    assert main(["sync", "1AbCdEfGhIjKlMnOp"]) == 2
    err = capsys.readouterr().err
    assert "trusted_proxies" in err and "'caddy' is not an IP address or network" in err


def _post(url: str, sheet: str, key: str, forwarded_for: str) -> int:
    request = urllib.request.Request(
        url,
        data=json.dumps({"spreadsheetId": sheet}).encode(),
        headers={
            "Content-Type": "application/json",
            KEY_HEADER: key,
            "X-Forwarded-For": forwarded_for,
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return error.code


def test_serve_believes_x_forwarded_for_from_the_proxies_in_its_setting(
    sheets_env: dict[str, str], make_sheet: MakeSheet, make_editor: Callable[..., Editor]
) -> None:
    """The real command, over HTTP on loopback: HARKNESS_SHEETS_TRUSTED_PROXIES names the
    proxy (here the test, on 127.0.0.1), so wrong keys are counted, and logged, per caller,
    and the sheet's key passes even from a caller answered 429."""
    sheet = make_sheet({"Results": seed_crosstable()})
    key = new_key()
    make_editor("td", sheet).vouch(sheet, key)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {
        **{k: v for k, v in os.environ.items() if k != "HARKNESS_DATABASE_URL"},
        **sheets_env,
        "HARKNESS_SHEETS_PORT": str(port),
        "HARKNESS_SHEETS_TRUSTED_PROXIES": "10.9.8.7, 127.0.0.0/8",
        "HARKNESS_METRICS_PORT": str(metrics_port := free_port()),
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "sheets", "serve"],
        env=env,
        stderr=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).parents[2],
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(f"{base}/healthz", timeout=1):
                    break
            except OSError:
                assert process.poll() is None and time.monotonic() < deadline, "serve did not start"
                time.sleep(0.1)
        connected = _post(f"{base}/connect", sheet, key, "198.51.100.20")
        attacker = [_post(f"{base}/sync", sheet, new_key(), "203.0.113.7") for _ in range(6)]
        other = _post(f"{base}/sync", sheet, "typo", "198.51.100.20")
        right = _post(f"{base}/sync", sheet, key, "203.0.113.7")
        samples = scrape(metrics_port)
    finally:
        process.send_signal(signal.SIGTERM)
        _, log = process.communicate(timeout=15)
    assert connected == 200
    assert attacker == [401] * 5 + [429]
    assert (other, right) == (401, 202)
    assert samples[("harkness_sync_jobs_total", (("event", "queued"),))] == 1  # the right one
    assert f"refused a sync of {sheet} from 203.0.113.7:" in log
    assert f"refused a sync of {sheet} from 198.51.100.20:" in log
    assert "from 127.0.0.1" not in log and key not in log
    assert process.returncode == 0


def test_python_dash_m_sheets_is_the_same_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "sheets", "--help"],
        capture_output=True,
        text=True,
        check=False,
        cwd=Path(__file__).parents[2],
    )
    assert done.returncode == 0
    for command in ("sync", "watch", "serve"):
        assert command in done.stdout
