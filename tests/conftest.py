"""Fixtures shared by the whole test suite: the loopback fakes of Discord and Google Sheets;
the garbage collector as a long-running process has it; and the property tests' settings."""

import gc
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

pytest_plugins = ["tests.fakes.discord_fixtures", "tests.fakes.sheets_fixtures"]

# Property tests prove properties, not speed (speed is measured in tests/bench): no deadline
# per example and no "too slow" health check, both of which a loaded machine trips.
settings.register_profile("harkness", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("harkness")


@pytest.fixture
def collector_on() -> Iterator[None]:
    """The garbage collector enabled, as in the bot (the ``harkness`` command turns it off
    for its one short run, and tests call that command in this process), and as it was
    afterwards."""
    was = gc.isenabled()
    gc.enable()
    try:
        yield
    finally:
        if not was:
            gc.disable()
