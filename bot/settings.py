"""Settings of the Discord bot, read from the environment (pydantic-settings).

========================  =====================================================================
``DISCORD_TOKEN``          the bot's token (Discord Developer Portal → your application → Bot →
                           Reset Token); never logged
``HARKNESS_DATABASE_URL``  the store's database (default: the SQLite file ``./harkness.db``;
                           ``postgresql://user:password@host/db`` for PostgreSQL)
``HARKNESS_DEV_GUILD``     a server id: commands are synced to that server only, instantly
                           (for development); without it they are synced globally
``DISCORD_API_BASE``       Discord's REST API base, version included (default
                           ``https://discord.com/api/v10``; tests and REST proxies change it)
``DISCORD_GATEWAY_URL``    Discord's gateway websocket (default ``wss://gateway.discord.gg/``)
``HARKNESS_LOG_FORMAT``    ``json`` (one JSON object a line, the default) or ``text``
``HARKNESS_LOG_LEVEL``     ``INFO`` by default
``HARKNESS_HEALTH_FILE``   a file the bot touches every 30 s while connected (for
                           ``python -m bot.health``, the container healthcheck)
``HARKNESS_METRICS_PORT``  serve Prometheus metrics on this port (read by
                           :func:`sheets.metrics.expose`, which the Sheets workers share;
                           ``HARKNESS_METRICS_ADDR``, default ``127.0.0.1``, the address)
``HARKNESS_SHARD_ID``      with ``HARKNESS_SHARD_COUNT``: run as Discord shard ``ID`` of
``HARKNESS_SHARD_COUNT``   ``COUNT`` (one process per shard, ``0`` … ``COUNT - 1``, every one on
                           the same PostgreSQL database; Discord requires sharding from 2,500
                           servers). Unset: one process, every server
========================  =====================================================================

Tournaments linked to a Google Sheet also use the Sheets worker's settings
(``GOOGLE_APPLICATION_CREDENTIALS``, ``HARKNESS_SHEETS_API_BASE``, …: :mod:`sheets.settings`)
and these:

================================  ==============================================================
``HARKNESS_SHEETS_REFRESH``        seconds the bot reuses what it read from a linked sheet before
                                   reading it again, however many members ask (default 5)
``HARKNESS_SHEETS_OUTBOX_RETRY``   seconds before a result that could not be written to its sheet
                                   is tried again, doubled after each failure (default 10) …
``HARKNESS_SHEETS_OUTBOX_MAX``     … up to this many (default 600)
``HARKNESS_SHEETS_OUTBOX_POLL``    seconds between two looks for results due to be written
                                   (default 30; a new result is written at once)
``HARKNESS_SHEETS_ANSWER_WAIT``    seconds a command waits for its result to reach the sheet
                                   before telling the member it is pending (default 8)
``HARKNESS_SHEETS_SYNC_JOBS``      ``1``: after writing results to a sheet, leave its sync (the
                                   Standings tab) to the ``harkness-sheets serve`` workers on
                                   the same PostgreSQL database, as a job (coalesced: a burst of
                                   results is one sync); default: the bot syncs it itself
``HARKNESS_SHEETS_LEASE``          seconds a bot process holds the results and the spreadsheet it
                                   is writing, renewed while it writes: a process that dies
                                   mid-write frees them within this time (default 60)
================================  ==============================================================

>>> s = BotSettings(discord_token="abc", discord_api_base="http://127.0.0.1:9/api/v10/")
>>> s.discord_api_base, s.discord_token
('http://127.0.0.1:9/api/v10', SecretStr('**********'))
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from pydantic import (
    AliasChoices,
    Field,
    SecretStr,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_settings import BaseSettings, SettingsConfigDict

from sheets.database.engine import database_url
from sheets.database.errors import DatabaseError

DISCORD_API_BASE = "https://discord.com/api/v10"
DISCORD_GATEWAY_URL = "wss://gateway.discord.gg/"

HOW_TO_GET_A_TOKEN = """\
harkness-bot needs a Discord bot token in the DISCORD_TOKEN environment variable.

To get one:
  1. Open https://discord.com/developers/applications and choose "New Application".
  2. Under "Bot", choose "Reset Token" and copy the token (it is shown once).
  3. Start the bot with the token in its environment, e.g.
       export DISCORD_TOKEN='paste-the-token-here'   # or put it in an env file
       harkness-bot
Keep the token secret: anyone holding it controls the bot. See bot/README.md.
"""


class BotSettings(BaseSettings):
    """Everything the bot process is told by its environment.

    Fields can also be given by name, which is how tests build settings for the fake
    Discord: ``BotSettings(discord_token=fake.token, discord_api_base=fake.api_base, ...)``.
    """

    model_config = SettingsConfigDict(populate_by_name=True, extra="ignore", frozen=True)

    discord_token: SecretStr | None = Field(
        default=None,
        validation_alias=AliasChoices("DISCORD_TOKEN", "discord_token"),
        description="The bot's token.",
    )
    database_url: str | None = Field(
        default=None,
        validation_alias=AliasChoices("HARKNESS_DATABASE_URL", "database_url"),
        description="The store's database URL (default: SQLite file ./harkness.db).",
    )
    dev_guild: int | None = Field(
        default=None,
        validation_alias=AliasChoices("HARKNESS_DEV_GUILD", "dev_guild"),
        description="Sync commands to this one server instead of globally.",
    )
    discord_api_base: str = Field(
        default=DISCORD_API_BASE,
        validation_alias=AliasChoices("DISCORD_API_BASE", "discord_api_base"),
        description="Discord's REST API base URL, version included.",
    )
    discord_gateway_url: str = Field(
        default=DISCORD_GATEWAY_URL,
        validation_alias=AliasChoices("DISCORD_GATEWAY_URL", "discord_gateway_url"),
        description="Discord's gateway websocket URL.",
    )
    log_format: str = Field(
        default="json",
        validation_alias=AliasChoices("HARKNESS_LOG_FORMAT", "log_format"),
        pattern="^(json|text)$",
        description="json or text",
    )
    health_file: Path | None = Field(
        default=None,
        validation_alias=AliasChoices("HARKNESS_HEALTH_FILE", "health_file"),
        description="Heartbeat file for healthchecks.",
    )
    log_level: str = Field(
        default="INFO",
        validation_alias=AliasChoices("HARKNESS_LOG_LEVEL", "log_level"),
        description="Python logging level name.",
    )
    shard_id: int | None = Field(
        default=None,
        ge=0,
        validation_alias=AliasChoices("HARKNESS_SHARD_ID", "shard_id"),
        description="This process's Discord shard (with HARKNESS_SHARD_COUNT).",
    )
    shard_count: int | None = Field(
        default=None,
        ge=1,
        le=10_000,
        validation_alias=AliasChoices("HARKNESS_SHARD_COUNT", "shard_count"),
        description="How many shards the bot runs as, one process each.",
    )
    sheets_refresh: float = Field(
        default=5.0,
        ge=0,
        validation_alias=AliasChoices("HARKNESS_SHEETS_REFRESH", "sheets_refresh"),
        description="Seconds a linked sheet's data is reused before it is read again.",
    )
    sheets_outbox_retry: float = Field(
        default=10.0,
        gt=0,
        validation_alias=AliasChoices("HARKNESS_SHEETS_OUTBOX_RETRY", "sheets_outbox_retry"),
        description="First wait before a failed sheet write is tried again (doubled).",
    )
    sheets_outbox_max: float = Field(
        default=600.0,
        gt=0,
        validation_alias=AliasChoices("HARKNESS_SHEETS_OUTBOX_MAX", "sheets_outbox_max"),
        description="Longest wait before a failed sheet write is tried again.",
    )
    sheets_outbox_poll: float = Field(
        default=30.0,
        gt=0,
        validation_alias=AliasChoices("HARKNESS_SHEETS_OUTBOX_POLL", "sheets_outbox_poll"),
        description="Seconds between two looks for sheet writes that are due.",
    )
    sheets_lease: float = Field(
        default=60.0,
        ge=1,
        validation_alias=AliasChoices("HARKNESS_SHEETS_LEASE", "sheets_lease"),
        description="Seconds a process holds results or a sheet it is writing (renewed).",
    )
    sheets_sync_jobs: bool = Field(
        default=False,
        validation_alias=AliasChoices("HARKNESS_SHEETS_SYNC_JOBS", "sheets_sync_jobs"),
        description="Leave the sync after a result to harkness-sheets serve workers.",
    )
    sheets_answer_wait: float = Field(
        default=8.0,
        ge=0,
        validation_alias=AliasChoices("HARKNESS_SHEETS_ANSWER_WAIT", "sheets_answer_wait"),
        description="Seconds a command waits for its result to reach the sheet.",
    )

    @model_validator(mode="after")
    def _one_shard_of_many(self) -> BotSettings:
        if (self.shard_id is None) != (self.shard_count is None):
            raise ValueError(
                "HARKNESS_SHARD_ID and HARKNESS_SHARD_COUNT go together: set both or neither"
            )
        if self.shard_id is not None and self.shard_count is not None:
            if self.shard_id >= self.shard_count:
                raise ValueError(
                    f"HARKNESS_SHARD_ID must be below HARKNESS_SHARD_COUNT ({self.shard_count}): "
                    f"shards are numbered from 0, not {self.shard_id}"
                )
            if not self._on_postgresql():
                raise ValueError(
                    "several shards share their work through PostgreSQL: set "
                    "HARKNESS_DATABASE_URL=postgresql://user@host/database"
                )
        if self.sheets_sync_jobs and not self._on_postgresql():
            raise ValueError(
                "HARKNESS_SHEETS_SYNC_JOBS needs the workers' PostgreSQL database in "
                "HARKNESS_DATABASE_URL"
            )
        return self

    def _on_postgresql(self) -> bool:
        url = self.database_url
        return url is not None and database_url(url).get_backend_name() == "postgresql"

    @field_validator("discord_token", mode="before")
    @classmethod
    def _blank_token_is_no_token(cls, value: object) -> object:
        """An empty ``DISCORD_TOKEN=`` line in an env file means "no token"."""
        if isinstance(value, str) and not value.strip():
            return None
        return value.strip() if isinstance(value, str) else value

    @field_validator("dev_guild", "database_url", "health_file", mode="before")
    @classmethod
    def _blank_is_unset(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("discord_api_base")
    @classmethod
    def _api_base_is_http(cls, value: str) -> str:
        parts = urlsplit(value)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ValueError(f"DISCORD_API_BASE must be an http(s) URL, not {value!r}")
        return value.rstrip("/")

    @field_validator("discord_gateway_url")
    @classmethod
    def _gateway_is_websocket(cls, value: str) -> str:
        parts = urlsplit(value)
        if parts.scheme not in ("ws", "wss") or not parts.netloc:
            raise ValueError(f"DISCORD_GATEWAY_URL must be a ws(s) URL, not {value!r}")
        return value

    @field_validator("log_level")
    @classmethod
    def _level_is_known(cls, value: str) -> str:
        level = value.strip().upper() or "INFO"
        if level not in LOG_LEVELS:
            raise ValueError(f"must be one of {', '.join(LOG_LEVELS)}, not {value!r}")
        return level

    @field_validator("database_url")
    @classmethod
    def _database_is_supported(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                database_url(value)
            except DatabaseError as error:
                raise ValueError(error.message) from None
        return value


#: The log levels ``HARKNESS_LOG_LEVEL`` accepts (Python's logging levels, by name).
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


def settings_problem(error: ValidationError) -> str:
    """One line naming each setting that is wrong and why (never its secret value).

    >>> try:
    ...     BotSettings(log_level="loud")
    ... except ValidationError as error:
    ...     print(settings_problem(error))
    HARKNESS_LOG_LEVEL: must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL, not 'loud'
    """
    parts = []
    for problem in error.errors(include_url=False, include_input=False):
        field = str(problem["loc"][0]) if problem["loc"] else ""
        info = BotSettings.model_fields.get(field)
        alias = info.validation_alias if info is not None else None
        name = str(alias.choices[0]) if isinstance(alias, AliasChoices) else field
        message = str(problem["msg"]).removeprefix("Value error, ")
        parts.append(message if message.startswith(name) else f"{name}: {message}")
    return "; ".join(parts)
