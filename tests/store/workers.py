"""Code that runs in separate processes for the concurrency tests (spawned, so each has
its own interpreter, engine and connections, like two bot shards)."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.store import Store, StoreError


def call(url: str, barrier: Any, results: Any, method: str, arguments: dict[str, Any]) -> None:
    """Open the store, wait until every writer is ready, then call ``method`` at once."""
    asyncio.run(_call(url, barrier, results, method, arguments))


async def _call(
    url: str, barrier: Any, results: Any, method: str, arguments: dict[str, Any]
) -> None:
    if method == "open":
        barrier.wait()
        opened = await Store.open(url)  # migrates, at the same moment as the others
        await opened.close()
        results.put(("ok", None))
        return
    store = await Store.open(url, migrate=False)
    try:
        await store.tournaments("warm-up")  # connect before the start line
        barrier.wait()
        try:
            outcome = await getattr(store, method)(**arguments)
        except StoreError as error:
            results.put(("error", error.code))
            return
        status = getattr(outcome, "status", None)
        results.put(
            (
                "ok",
                (
                    getattr(outcome, "changed", None),
                    status and status.value,
                    getattr(outcome, "number", None),
                ),
            )
        )
    finally:
        await store.close()
