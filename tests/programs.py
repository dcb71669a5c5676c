"""Programs some tests run beside ours (Caddy, Node.js): found on the PATH, or the test is
skipped with a one-line reason; in CI (``CI`` set), where ``.ci/run`` installs them, a
missing program fails the test instead, like the PostgreSQL leg (``tests/store/conftest.py``):
those tests must never vanish silently."""

from __future__ import annotations

import os
import shutil

import pytest


def program(name: str, install: str) -> str:
    """The path of the program ``name``; skips (locally) or fails (in CI) without it.
    ``install`` says how to get it."""
    found = shutil.which(name)
    if found is not None:
        return found
    if os.environ.get("CI"):
        pytest.fail(f"CI is set but {name} is not installed ({install}; .ci/run does)", False)
    pytest.skip(f"needs {name} on the PATH ({install})")
