"""Structured logs: one JSON object a line (or plain text), on standard error.

Every record carries its time, level, logger and message, the extra fields the bot adds
(``guild_id``, ``user_id``, ``reference``...) and, for errors, the traceback. The bot's
token is never logged: it lives in a ``SecretStr`` and is only handed to discord.py.

>>> record = logging.LogRecord("harkness.bot", logging.INFO, __file__, 1, "hello %s", ("td",),
...                            None)
>>> record.guild_id = 42
>>> line = json.loads(JsonFormatter().format(record))
>>> line["message"], line["guild_id"], sorted(line)
('hello td', 42, ['guild_id', 'level', 'logger', 'message', 'time'])
"""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime
from typing import Any

#: Attributes every LogRecord has; anything else on a record is an extra field.
_STANDARD = set(logging.LogRecord("", 0, "", 0, "", (), None).__dict__) | {"message", "asctime"}


class JsonFormatter(logging.Formatter):
    """A record as one line of JSON."""

    def format(self, record: logging.LogRecord) -> str:
        data: dict[str, Any] = {
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, value in record.__dict__.items():
            if key not in _STANDARD and not key.startswith("_"):
                data[key] = value if isinstance(value, int | float | bool | None) else str(value)
        when = datetime.fromtimestamp(record.created, UTC)
        data["time"] = when.isoformat(timespec="milliseconds")
        if record.exc_info:
            data["traceback"] = self.formatException(record.exc_info)
        return json.dumps(data, ensure_ascii=False)


def configure(fmt: str = "json", level: str = "INFO") -> None:
    """Send the bot's and discord.py's logs to standard error, as JSON or text."""
    handler = logging.StreamHandler(sys.stderr)
    if fmt == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    # discord.py's HTTP layer is chatty at DEBUG; INFO tells of connects and reconnects.
    logging.getLogger("discord.http").setLevel(max(logging.INFO, root.level))
