"""The bot's own metrics, in the Prometheus text format: interactions, their acknowledgement,
how late the event loop runs (:func:`watch_the_loop`), and the results waiting for their
sheets.

Each is defined here, once, and incremented at its choke point (:mod:`bot.errors`,
:mod:`bot.sheetlink.outbox`). They register in the process's one registry, beside the
metrics the bot shares with the Sheets workers (:mod:`sheets.metrics`: sync jobs, Google's
429s), and are served with them by :func:`sheets.metrics.expose`.
"""

from __future__ import annotations

import asyncio

from prometheus_client import Counter, Gauge, Histogram

#: Slash commands (by qualified name) and button clicks (``button confirm``, ``button
#: dispute``, ``button standings page``, ``button why details``) received.
INTERACTIONS = Counter(
    "harkness_interactions", "Interactions received by the bot, by command.", ["command"]
)
#: Seconds from receiving an interaction to acknowledging it (Discord allows 3).
ACK_SECONDS = Histogram(
    "harkness_ack_seconds",
    "Seconds from an interaction's arrival to its acknowledgement.",
    buckets=(0.05, 0.1, 0.25, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0),
)
#: Seconds the event loop was late waking a timer: how long nothing was answered.
LOOP_STALL_SECONDS = Histogram(
    "harkness_event_loop_stall_seconds",
    "Seconds the event loop ran late (a timer woken after its time).",
    buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
)
#: Seconds between two looks at the event loop (:func:`watch_the_loop`).
LOOP_WATCH_SECONDS = 0.05
#: Results waiting to be written to their sheets (every guild), set by the bot's writer.
OUTBOX_DEPTH = Gauge("harkness_outbox_depth", "Results not yet written to their sheets.")
#: Seconds the oldest due result has waited to be written (0 when none is due).
OUTBOX_OLDEST_DUE = Gauge(
    "harkness_outbox_oldest_due_seconds", "Seconds the oldest due result has been waiting."
)


def acknowledged(started: float | None, now: float) -> None:
    """Record an acknowledgement ``now`` of an interaction received at ``started``
    (monotonic seconds; nothing when the arrival was not noted)."""
    if started is not None:
        ACK_SECONDS.observe(max(0.0, now - started))


async def watch_the_loop(period: float = LOOP_WATCH_SECONDS) -> None:
    """Sleep ``period`` again and again, recording how late each wake-up comes
    (:data:`LOOP_STALL_SECONDS`): nothing whose cost grows with a section runs on the event
    loop, and this shows it."""
    loop = asyncio.get_running_loop()
    while True:
        asleep = loop.time()
        await asyncio.sleep(period)
        LOOP_STALL_SECONDS.observe(max(0.0, loop.time() - asleep - period))
