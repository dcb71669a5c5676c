"""Loopback fakes of the external services Harkness talks to (Google Sheets, Discord)."""
