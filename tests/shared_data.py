"""Where the tests find the data that is not part of the repository.

Some tests also run against files kept beside a checkout, in ``../shared/`` (FIDE's exercise
files, real tournament files from other programs). Those files are not ours to ship, so a
clone with nothing beside it skips those tests, each with a one-line reason; CI, which has
the folder, runs them. Every test that reads it goes through :func:`shared_path`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

#: The folder beside the checkout that holds the data the repository does not ship.
SHARED = Path(__file__).resolve().parents[2] / "shared"


def shared_path(*parts: str) -> Path:
    """The path of ``../shared/<parts>``; skips the calling test when it is absent."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"needs ../shared/{'/'.join(parts)} beside the checkout (not present)")
    return path
