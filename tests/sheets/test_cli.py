"""The ``harkness-sheets`` command: exit statuses, messages, and no secret in any of them."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from sheets.cli import main
from tests.fakes.sheets_api import ServiceAccountKey, SheetsFake, generate_service_account
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


def test_watch_needs_a_config_and_serve_needs_a_secret(
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
    monkeypatch.delenv("HARKNESS_SHEETS_WEBHOOK_SECRET", raising=False)
    assert main(["serve"]) == 2
    assert "set HARKNESS_SHEETS_WEBHOOK_SECRET" in capsys.readouterr().err
    for weak in ("x", "correct horse battery", "a" * 40):
        monkeypatch.setenv("HARKNESS_SHEETS_WEBHOOK_SECRET", weak)
        assert main(["serve"]) == 2
        err = capsys.readouterr().err
        assert "HARKNESS_SHEETS_WEBHOOK_SECRET is too weak" in err and weak not in err


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
