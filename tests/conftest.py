"""Fixtures shared by the whole test suite: the loopback fakes of Discord and Google Sheets."""

pytest_plugins = ["tests.fakes.discord_fixtures", "tests.fakes.sheets_fixtures"]
