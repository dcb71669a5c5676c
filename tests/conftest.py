"""Fixtures shared by the whole test suite: the loopback fakes of Discord and Google Sheets;
and the property tests' settings."""

from hypothesis import HealthCheck, settings

pytest_plugins = ["tests.fakes.discord_fixtures", "tests.fakes.sheets_fixtures"]

# Property tests prove properties, not speed (speed is measured in tests/bench): no deadline
# per example and no "too slow" health check, both of which a loaded machine trips.
settings.register_profile("harkness", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("harkness")
