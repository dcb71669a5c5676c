"""One database shared by several processes: the plumbing under the bot's store and the fleet.

The bot's results log (:mod:`bot.store`) and the workers' coordination (:mod:`sheets.fleet`)
keep their tables in one database, SQLite or PostgreSQL, each with its own Alembic history.
What they share lives here, once:

- :mod:`sheets.database.engine`: which database (``HARKNESS_DATABASE_URL``), and an async
  engine set up for several processes (SQLite's write-ahead log and write locks);
- :mod:`sheets.database.schema`: fixed constraint names, and moments stored in UTC;
- :mod:`sheets.database.transactions`: one transaction per call, run again when another
  process wrote first;
- :mod:`sheets.database.migrate`: a history of migrations run from code, once across
  processes, beside the other histories of the same database.

It lives under ``sheets/`` because that is the lowest package that may use a database (core
is pure) and the bot may import ``sheets``, never the other way round.
"""
