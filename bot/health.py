"""Is the bot alive? A heartbeat file, and ``python -m bot.health`` to check it.

A bot has no port to probe, so while it is connected to Discord it touches
``HARKNESS_HEALTH_FILE`` every :data:`BEAT_SECONDS`; container healthchecks run
``python -m bot.health``, which exits 0 when the file is fresher than :data:`STALE_SECONDS`
and 1 otherwise (never started, disconnected for long, or hung).

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "alive"
>>> alive(path), touch(path), alive(path)
(False, None, True)
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

BEAT_SECONDS = 30.0
STALE_SECONDS = 120.0
ENVIRONMENT_VARIABLE = "HARKNESS_HEALTH_FILE"


def touch(path: Path) -> None:
    """Record a heartbeat now."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.touch()
    os.utime(path)


def alive(path: Path, stale_after: float = STALE_SECONDS, now: float | None = None) -> bool:
    """Whether the last heartbeat is recent."""
    try:
        beat = path.stat().st_mtime
    except OSError:
        return False
    return (time.time() if now is None else now) - beat <= stale_after


def main() -> int:
    """Exit 0 if the bot's heartbeat file is fresh, else 1 (with the reason)."""
    name = os.environ.get(ENVIRONMENT_VARIABLE)
    if not name:
        print(f"{ENVIRONMENT_VARIABLE} is not set: no heartbeat to check", file=sys.stderr)
        return 1
    if alive(Path(name)):
        return 0
    print(f"no heartbeat in {name} for {STALE_SECONDS:g} seconds", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
