"""Fixtures shared by the whole test suite: the loopback fakes of Discord and Google Sheets,
and where the data kept beside a checkout (``../shared/``) is found."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest_plugins = ["tests.fakes.discord_fixtures", "tests.fakes.sheets_fixtures"]

#: The folder beside the checkout that holds data the repository does not ship.
SHARED = Path(__file__).resolve().parents[2] / "shared"


def shared_path(*parts: str) -> Path:
    """The path of ``../shared/<parts>``; skips the calling test when it is absent."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"needs ../shared/{'/'.join(parts)} beside the checkout (not present)")
    return path
