"""What every schema in the database shares: fixed constraint names and moments in UTC.

The store's tables (:mod:`bot.store.schema`) and the fleet's (:mod:`sheets.fleet.schema`)
are each described by a :class:`~sqlalchemy.MetaData` made by :func:`new_metadata`, so both
name their constraints the same way on both engines.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import DateTime, MetaData
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator

#: Constraint names are fixed so migrations, error messages and both engines agree.
NAMING = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_N_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def new_metadata() -> MetaData:
    """A schema's metadata, naming its constraints by :data:`NAMING`."""
    return MetaData(naming_convention=NAMING)


class UTCDateTime(TypeDecorator[datetime]):
    """A moment in UTC, stored without a zone and read back as an aware ``datetime``.

    SQLite keeps no time zone, so both engines store naive UTC and the code converts at the
    edge; comparisons in SQL (leases, retry times) then work the same everywhere.
    """

    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("the database keeps aware datetimes only (use datetime.now(UTC))")
        return value.astimezone(UTC).replace(tzinfo=None)

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if isinstance(value, str):  # pragma: no cover - SQLite returns datetime already
            value = datetime.fromisoformat(value)
        assert isinstance(value, datetime)
        return value.replace(tzinfo=UTC)
