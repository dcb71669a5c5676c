"""Settings of the Sheets worker, read from the environment (pydantic-settings).

=================================  ==========================================================
``GOOGLE_APPLICATION_CREDENTIALS``  path of the service-account key file (JSON); its
                                    ``token_uri`` is where access tokens are fetched
``HARKNESS_SHEETS_API_BASE``        Sheets API base URL (default ``https://sheets.googleapis.com``;
                                    tests point it at the loopback fake, deployments at a proxy)
``HARKNESS_SHEETS_TIMEOUT``         seconds to wait for each HTTP answer (default 30)
``HARKNESS_SHEETS_RETRIES``         extra tries after a 429, a 5xx or a timeout (default 8)
``HARKNESS_SHEETS_BACKOFF_INITIAL`` first backoff in seconds, doubled per try (default 1)
``HARKNESS_SHEETS_BACKOFF_MAX``     longest single backoff in seconds (default 32)
``HARKNESS_SHEETS_RETRY_TOTAL``     longest total of the waits of one request, in seconds
                                    (default 120; the defaults wait at least 63.5 s in all,
                                    outlasting Google's one-minute quota window)
``HARKNESS_SHEETS_POLL_INTERVAL``   seconds between polls in ``harkness-sheets watch`` (default 60)
``HARKNESS_SHEETS_CONFIG``          TOML file listing the spreadsheets of ``watch`` (and the
                                    only ones ``serve`` accepts, when set)
``HARKNESS_SHEETS_HOST``            address ``serve`` listens on (default 127.0.0.1)
``HARKNESS_SHEETS_PORT``            port ``serve`` listens on (default 8080)
``HARKNESS_SHEETS_TRUSTED_PROXIES`` the reverse proxies in front of ``serve`` (addresses or
                                    networks, separated by commas; default: none): from them,
                                    ``X-Forwarded-For`` names the caller
                                    (:mod:`sheets.forwarded`)
``HARKNESS_SHEETS_DEBOUNCE``        ``serve`` syncs a sheet this many seconds after its last
                                    edit (default 5) …
``HARKNESS_SHEETS_MAX_WAIT``        … but no later than this after the first (default 30)
``HARKNESS_DATABASE_URL``           with a PostgreSQL URL, ``serve`` keeps its sync queue in that
                                    database (the bot's): any number of ``serve`` processes
                                    share it, and a restart loses nothing (:mod:`sheets.jobs`);
                                    ``watch`` spends from the budget shared there, once per
                                    service account (:mod:`sheets.shared_watch`);
                                    unset or SQLite: in memory, one process
=================================  ==========================================================

``HARKNESS_SHEETS_READS_PER_MINUTE`` and ``HARKNESS_SHEETS_WRITES_PER_MINUTE`` are the service
account's requests a minute (default 60 each, Google's): with a database, every process (bot
shards, ``serve`` workers) spends from one budget per account (:mod:`sheets.budget`).
``HARKNESS_SHEETS_QUOTA_WINDOW`` shortens the quota's minute, for tests only.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from sheets.budget import Quota
from sheets.forwarded import DEFAULT_TRUSTED_PROXIES, Network, trusted_networks

GOOGLE_SHEETS_API_BASE = "https://sheets.googleapis.com"
"""Where gspread sends its requests unless told otherwise."""


class SheetsSettings(BaseSettings):
    """How the worker reaches Google Sheets, and how patiently.

    Fields can also be given by name, which is how tests build settings for the fake:
    ``SheetsSettings(google_application_credentials=key_path, api_base=fake.base_url)``.
    """

    model_config = SettingsConfigDict(
        env_prefix="HARKNESS_SHEETS_",
        populate_by_name=True,
        extra="ignore",
        frozen=True,
    )

    google_application_credentials: Path | None = Field(
        default=None,
        validation_alias="GOOGLE_APPLICATION_CREDENTIALS",
        description="Path of the service-account key file (JSON).",
    )
    api_base: str = Field(
        default=GOOGLE_SHEETS_API_BASE,
        description="Base URL of the Sheets API, without the /v4 path.",
    )
    timeout: float = Field(default=30.0, gt=0, description="Seconds to wait for each answer.")
    retries: int = Field(
        default=8, ge=0, le=10, description="Extra tries after a 429, a 5xx or a timeout."
    )
    backoff_initial: float = Field(default=1.0, gt=0, description="First backoff, in seconds.")
    backoff_max: float = Field(default=32.0, gt=0, description="Longest backoff, in seconds.")
    retry_total: float = Field(
        default=120.0, gt=0, description="Longest total of one request's waits, in seconds."
    )
    poll_interval: float = Field(default=60.0, gt=0, description="Seconds between polls.")
    config: Path | None = Field(
        default=None, description="TOML file listing the spreadsheets to watch or serve."
    )
    host: str = Field(default="127.0.0.1", description="Address the endpoint listens on.")
    port: int = Field(default=8080, ge=0, le=65535, description="Port the endpoint listens on.")
    trusted_proxies: str = Field(
        default=DEFAULT_TRUSTED_PROXIES,
        description="Reverse proxies whose X-Forwarded-For names the endpoint's caller.",
    )
    reads_per_minute: int = Field(
        default=60, ge=1, le=100_000, description="The service account's reads a minute."
    )
    writes_per_minute: int = Field(
        default=60, ge=1, le=100_000, description="The service account's writes a minute."
    )
    quota_window: float = Field(
        default=60.0, gt=0, le=60.0, description="The quota's window in seconds (tests only)."
    )
    database_url: str | None = Field(
        default=None,
        validation_alias="HARKNESS_DATABASE_URL",
        description="PostgreSQL database of the durable sync queue (the bot's).",
    )
    debounce: float = Field(
        default=5.0, ge=0, description="Seconds after a sheet's last edit before it syncs."
    )
    max_wait: float = Field(
        default=30.0, ge=0, description="Longest wait after a sheet's first edit before it syncs."
    )

    @property
    def quota(self) -> Quota:
        """The service account's per-minute limits, spent by every process through the
        database (:mod:`sheets.budget`)."""
        return Quota(self.reads_per_minute, self.writes_per_minute, self.quota_window)

    @property
    def proxies(self) -> tuple[Network, ...]:
        """The trusted reverse proxies in front of ``serve``."""
        return trusted_networks(self.trusted_proxies)

    @field_validator("trusted_proxies")
    @classmethod
    def _trusted_proxies_are_addresses(cls, value: str) -> str:
        trusted_networks(value)
        return value

    @field_validator("api_base")
    @classmethod
    def _api_base_is_a_base_url(cls, value: str) -> str:
        """Accept ``http(s)://host[:port][/prefix]``; drop a trailing slash."""
        parts = urlsplit(value)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ValueError(f"HARKNESS_SHEETS_API_BASE must be an http(s) URL, not {value!r}")
        if parts.query or parts.fragment:
            raise ValueError("HARKNESS_SHEETS_API_BASE takes no query or fragment")
        return value.rstrip("/")
