"""Structured logs: one JSON object a line (or plain text), on standard error.

Every record carries its time, level, logger and message, the extra fields the bot adds
(``guild_id``, ``user_id``, ``reference``...) and, for errors, the traceback. The bot's
token is never logged: it lives in a ``SecretStr`` and is only handed to discord.py. Nor is
any other token, at any level: :class:`Redactor` takes interaction tokens (which let anyone
answer as the bot for 15 minutes) out of every record, discord.py's DEBUG lines included
(the gateway's ``INTERACTION_CREATE`` payloads, the callback and webhook URLs).

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
import re
import sys
from datetime import UTC, datetime
from typing import Any

#: Attributes every LogRecord has; anything else on a record is an extra field.
_STANDARD = set(logging.LogRecord("", 0, "", 0, "", (), None).__dict__) | {"message", "asctime"}


REDACTED = "[redacted]"
_SECRETS = re.compile(
    # "token": "…" in a payload (JSON or a Python dict's repr)
    r"""(?P<key>["']token["']\s*:\s*["'])[^"']+"""
    # the token in an interaction callback or webhook URL
    r"|(?P<url>/(?:interactions|webhooks)/\d+/)[^/\s\"'?]+"
    # a bot token: three base64url parts
    r"|(?P<bot>)[\w-]{23,28}\.[\w-]{6}\.[\w-]{27,}"
)


def redact(text: str) -> str:
    """``text`` without tokens.

    >>> redact("{'token': 'aW50ZXJhY3Rpb24', 'id': '1'}")
    "{'token': '[redacted]', 'id': '1'}"
    >>> redact("PATCH https://discord.com/api/v10/webhooks/42/aW50ZXJhY3Rpb24/messages/@original")
    'PATCH https://discord.com/api/v10/webhooks/42/[redacted]/messages/@original'
    """
    return _SECRETS.sub(lambda m: (m["key"] or m["url"] or "") + REDACTED, text)


class Redactor(logging.Filter):
    """Takes tokens out of a record's message and traceback before any handler formats it."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        clean = redact(message)
        if clean != message:
            record.msg, record.args = clean, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        return True


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
        if record.exc_text:
            data["traceback"] = record.exc_text
        elif record.exc_info:
            data["traceback"] = self.formatException(record.exc_info)
        return json.dumps(data, ensure_ascii=False)


def configure(fmt: str = "json", level: str = "INFO") -> None:
    """Send the bot's and discord.py's logs to standard error, as JSON or text."""
    handler = logging.StreamHandler(sys.stderr)
    handler.addFilter(Redactor())
    if fmt == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    # discord.py's HTTP layer is chatty at DEBUG; INFO tells of connects and reconnects.
    logging.getLogger("discord.http").setLevel(max(logging.INFO, root.level))
