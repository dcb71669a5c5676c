"""Pytest fixtures for the Sheets fake: the server, a service-account key, worker settings.

Enable them with ``pytest_plugins = ["tests.fakes.sheets_fixtures"]`` in ``tests/conftest.py``
(or in a test module). Import helpers such as ``generate_service_account`` from
``tests.fakes.sheets_api``, not from here, so that pytest can still rewrite this plugin's
assertions.

- ``sheets_fake``: a started ``SheetsFake``, stopped after the test. The test fails if the
  fake itself crashed while answering.
- ``service_account_file``: a fresh RSA key (``cryptography``) written as a service-account
  JSON key file whose ``token_uri`` is the fake's token endpoint, registered with the fake.
  It is a path (``os.PathLike``) that also knows the account's ``email``.
- ``sheets_settings``: ``SheetsSettings`` for the worker pointed at the fake, with a short
  timeout and millisecond backoffs so retry tests run fast.
- ``sheets_env``: the same settings as environment variables (``GOOGLE_APPLICATION_CREDENTIALS``,
  ``HARKNESS_SHEETS_*``), for code that builds ``SheetsSettings()`` itself, such as the CLI.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from sheets.settings import SheetsSettings
from tests.fakes.sheets_api import ServiceAccountKey, SheetsFake, generate_service_account


@pytest.fixture
def sheets_fake() -> Iterator[SheetsFake]:
    """A running Sheets fake on 127.0.0.1, stopped after the test."""
    with SheetsFake() as fake:
        yield fake
        assert not fake.internal_errors, f"the Sheets fake crashed: {fake.internal_errors!r}"


@pytest.fixture
def service_account_file(tmp_path: Path, sheets_fake: SheetsFake) -> ServiceAccountKey:
    """A service-account key file whose token URI is the fake's, known to the fake."""
    return generate_service_account(sheets_fake, tmp_path)


FAST_RETRIES: dict[str, str] = {
    "HARKNESS_SHEETS_TIMEOUT": "2",
    "HARKNESS_SHEETS_RETRIES": "3",
    "HARKNESS_SHEETS_BACKOFF_INITIAL": "0.001",
    "HARKNESS_SHEETS_BACKOFF_MAX": "0.01",
}
"""Timeout and backoff for tests (2 s, 3 retries, millisecond waits), as the environment says."""


@pytest.fixture
def sheets_settings(
    sheets_fake: SheetsFake, service_account_file: ServiceAccountKey
) -> SheetsSettings:
    """Worker settings pointed at the fake: 2 s timeout, 3 retries, millisecond backoffs."""
    return SheetsSettings(
        google_application_credentials=service_account_file.path,
        api_base=sheets_fake.base_url,
        timeout=float(FAST_RETRIES["HARKNESS_SHEETS_TIMEOUT"]),
        retries=int(FAST_RETRIES["HARKNESS_SHEETS_RETRIES"]),
        backoff_initial=float(FAST_RETRIES["HARKNESS_SHEETS_BACKOFF_INITIAL"]),
        backoff_max=float(FAST_RETRIES["HARKNESS_SHEETS_BACKOFF_MAX"]),
    )


@pytest.fixture
def sheets_env(
    monkeypatch: pytest.MonkeyPatch,
    sheets_fake: SheetsFake,
    service_account_file: ServiceAccountKey,
) -> dict[str, str]:
    """Set the worker's environment variables for the fake; answer them."""
    variables = {
        "GOOGLE_APPLICATION_CREDENTIALS": str(service_account_file.path),
        "HARKNESS_SHEETS_API_BASE": sheets_fake.base_url,
        **FAST_RETRIES,
    }
    for name, value in variables.items():
        monkeypatch.setenv(name, value)
    return variables
