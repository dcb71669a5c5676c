"""Which database: a URL given, else HARKNESS_DATABASE_URL, else ./harkness.db; plain
URLs get their async driver."""

from __future__ import annotations

import pytest

from bot.store import StoreError
from bot.store.engine import DEFAULT_URL, database_url


@pytest.mark.parametrize(
    ("given", "used"),
    [
        ("sqlite:///club.db", "sqlite+aiosqlite:///club.db"),
        ("sqlite+aiosqlite:////srv/harkness.db", "sqlite+aiosqlite:////srv/harkness.db"),
        (
            "postgresql://td:secret@127.0.0.1:5432/harkness",
            "postgresql+asyncpg://td:secret@127.0.0.1:5432/harkness",
        ),
        ("postgres://td@127.0.0.1/harkness", "postgresql+asyncpg://td@127.0.0.1/harkness"),
    ],
)
def test_plain_urls_get_their_async_driver(given: str, used: str):
    assert database_url(given).render_as_string(hide_password=False) == used


def test_the_environment_names_the_database_else_the_sqlite_file(monkeypatch):
    monkeypatch.delenv("HARKNESS_DATABASE_URL", raising=False)
    assert database_url().render_as_string() == DEFAULT_URL == "sqlite+aiosqlite:///./harkness.db"
    monkeypatch.setenv("HARKNESS_DATABASE_URL", "postgresql://bot@127.0.0.1/league")
    assert database_url().render_as_string() == "postgresql+asyncpg://bot@127.0.0.1/league"


@pytest.mark.parametrize(
    ("given", "words"),
    [
        ("mysql://root@127.0.0.1/chess", "the database 'mysql' is not supported"),
        ("not a url", "HARKNESS_DATABASE_URL is not a database URL"),
    ],
)
def test_other_databases_are_refused_in_words(given: str, words: str):
    with pytest.raises(StoreError) as error:
        database_url(given)
    assert str(error.value).startswith(words) and error.value.code == "bad-database-url"
