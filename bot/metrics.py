"""The bot's own metrics, in the Prometheus text format: interactions, their acknowledgement,
and the results waiting for their sheets.

Each is defined here, once, and incremented at its choke point (:mod:`bot.errors`,
:mod:`bot.sheetlink.outbox`). They register in the process's one registry, beside the
metrics the bot shares with the Sheets workers (:mod:`sheets.metrics`: sync jobs, Google's
429s), and are served with them by :func:`sheets.metrics.expose`.
"""

from __future__ import annotations

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
