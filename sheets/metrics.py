"""The Sheets workers' metrics, in the Prometheus text format, and the server of a process's
metrics, for a host to scrape.

The metrics of sync jobs and of Google's 429s are defined here, once; the workers and the
bot (which syncs, asks for syncs and calls Google too) increment them at their choke points.
The bot's own metrics are :mod:`bot.metrics`. :func:`expose` serves every metric of the
process (``prometheus_client``'s one registry and its own exposition, in a thread, off the
event loop) when ``HARKNESS_METRICS_PORT`` is set, on ``HARKNESS_METRICS_ADDR``
(``127.0.0.1`` by default). Nothing is served otherwise.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from wsgiref.simple_server import WSGIServer

from prometheus_client import Counter, start_http_server

log = logging.getLogger(__name__)

#: Whether this process serves its metrics (so work done only for them can be skipped).
serving = False

#: Sync jobs, by what happened: queued, run, failed, set_aside (no running worker's service
#: account can open the sheet: reported, not retried).
SYNC_JOBS = Counter("harkness_sync_jobs", "Sheet sync jobs, by event.", ["event"])
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
