"""The loopback fake of the Google Sheets API v4; import it from ``tests.fakes.sheets_api``."""
