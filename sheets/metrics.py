"""The process's metrics, in the Prometheus text format, for a host to scrape.

Every metric is defined here, once; the bot and the Sheets workers increment them at their
choke points. :func:`expose` serves them (``prometheus_client``'s own exposition, in a
thread, off the event loop) when ``HARKNESS_METRICS_PORT`` is set, on
``HARKNESS_METRICS_ADDR`` (``127.0.0.1`` by default). Nothing is served otherwise.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from wsgiref.simple_server import WSGIServer

from prometheus_client import Counter, Gauge, Histogram, start_http_server

log = logging.getLogger(__name__)

#: Whether this process serves its metrics (so work done only for them can be skipped).
serving = False

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
#: Sync jobs, by what happened: queued, run, failed, set_aside (no running worker's service
#: account can open the sheet: reported, not retried).
SYNC_JOBS = Counter("harkness_sync_jobs", "Sheet sync jobs, by event.", ["event"])


def acknowledged(started: float | None, now: float) -> None:
    """Record an acknowledgement ``now`` of an interaction received at ``started``
    (monotonic seconds; nothing when the arrival was not noted)."""
    if started is not None:
        ACK_SECONDS.observe(max(0.0, now - started))


#: Results waiting to be written to their sheets (every guild), set by the bot's writer.
OUTBOX_DEPTH = Gauge("harkness_outbox_depth", "Results not yet written to their sheets.")
#: Seconds the oldest due result has waited to be written (0 when none is due).
OUTBOX_OLDEST_DUE = Gauge(
    "harkness_outbox_oldest_due_seconds", "Seconds the oldest due result has been waiting."
)
#: 429 answers from Google (each one, retried or not).
GOOGLE_429 = Counter("harkness_google_429", "429 RESOURCE_EXHAUSTED answers from Google.")


def expose(environ: Mapping[str, str] | None = None) -> WSGIServer | None:
    """Serve ``/metrics`` on ``HARKNESS_METRICS_PORT`` if set; answer the server (its
    ``server_address``, ``shutdown()``), or None when the variable is not set.

    A port that is not a number in 1..65535, or that cannot be bound, raises
    :class:`ValueError` naming the variable.
    """
    env = os.environ if environ is None else environ
    raw = env.get("HARKNESS_METRICS_PORT", "").strip()
    if not raw:
        return None
    if not raw.isdigit() or not 0 < int(raw) < 65536:
        raise ValueError(f"HARKNESS_METRICS_PORT must be a port number (1-65535), not {raw!r}")
    addr = env.get("HARKNESS_METRICS_ADDR", "").strip() or "127.0.0.1"
    try:
        server, _ = start_http_server(int(raw), addr=addr)
        global serving
        serving = True
    except OSError as error:
        raise ValueError(
            f"HARKNESS_METRICS_PORT: cannot serve metrics on {addr}:{raw}: {error.strerror}"
        ) from error
    log.info("metrics on http://%s:%s/metrics", addr, raw)
    return server
