"""Errors the fake answers with, shaped like Google's JSON error bodies.

Google wraps every API error as ``{"error": {"code": 403, "message": "...",
"status": "PERMISSION_DENIED"}}``; gspread's ``APIError`` reads exactly these three fields.
"""

from __future__ import annotations

from typing import Any

_STATUS_NAMES = {
    400: "INVALID_ARGUMENT",
    401: "UNAUTHENTICATED",
    403: "PERMISSION_DENIED",
    404: "NOT_FOUND",
    429: "RESOURCE_EXHAUSTED",
    500: "INTERNAL",
    501: "UNIMPLEMENTED",
    503: "UNAVAILABLE",
}

_DEFAULT_MESSAGES = {
    400: "Request contains an invalid argument.",
    401: (
        "Request had invalid authentication credentials. Expected OAuth 2 access token, "
        "login cookie or other valid authentication credential. "
        "See https://developers.google.com/identity/sign-in/web/devconsole-project."
    ),
    403: "The caller does not have permission",
    404: "Requested entity was not found.",
    429: "Quota exceeded.",
    500: "Internal error encountered.",
    503: "The service is currently unavailable.",
}


def status_name(code: int) -> str:
    """Google's canonical status name for an HTTP status code (``503`` → ``UNAVAILABLE``)."""
    return _STATUS_NAMES.get(code, "UNKNOWN")


def default_message(code: int) -> str:
    """The message Google sends with a bare error of this HTTP status."""
    return _DEFAULT_MESSAGES.get(code, "Error.")


class ApiError(Exception):
    """An error answer of the Sheets API: HTTP code, canonical status and message."""

    def __init__(
        self,
        code: int,
        message: str | None = None,
        *,
        details: list[dict[str, Any]] | None = None,
    ) -> None:
        self.code = code
        self.message = message if message is not None else default_message(code)
        self.details = details or []
        super().__init__(f"{code} {status_name(code)}: {self.message}")

    def body(self) -> dict[str, Any]:
        """The JSON body Google would send."""
        error: dict[str, Any] = {
            "code": self.code,
            "message": self.message,
            "status": status_name(self.code),
        }
        if self.details:
            error["details"] = self.details
        return {"error": error}


def invalid(message: str) -> ApiError:
    """A 400 INVALID_ARGUMENT answer."""
    return ApiError(400, message)


def unparsable_range(text: str) -> ApiError:
    """Google's answer to a range it cannot read."""
    return invalid(f"Unable to parse range: {text}")
