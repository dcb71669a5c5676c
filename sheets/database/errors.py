"""What goes wrong with the database itself, in words an operator can act on."""

from __future__ import annotations


class DatabaseError(Exception):
    """The database cannot be used as asked: its URL names no database Harkness supports,
    or it stayed busy through every retry. ``code`` is a short, stable key
    (``"bad-database-url"``, ``"busy"``); ``message`` the words to show."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
