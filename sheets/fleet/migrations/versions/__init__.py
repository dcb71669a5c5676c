"""The fleet's migration scripts, numbered (see :mod:`sheets.fleet.migrations`)."""
