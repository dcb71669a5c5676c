"""The API descriptions the fakes are held to are the providers' own, byte for byte.

The repository carries its own copies (Discord's OpenAPI file in ``tests/fakes/specs/``, the
Sheets discovery document inside the pinned ``google-api-python-client``). Where the
reference copies are kept beside the checkout (see ``tests/shared_data.py``), these tests
prove ours are the same; a clone with nothing beside it skips them by name.
"""

from __future__ import annotations

import importlib.resources

from tests.fakes.discord_fake.spec import SPEC_FILE
from tests.fakes.sheets.spec import DISCOVERY_FILE, DISCOVERY_PACKAGE
from tests.shared_data import shared_path


def test_the_vendored_discord_description_is_the_reference_copy() -> None:
    reference = shared_path("specs", "discord-openapi.json")
    assert SPEC_FILE.read_bytes() == reference.read_bytes()


def test_the_pinned_sheets_discovery_document_is_the_reference_copy() -> None:
    reference = shared_path("specs", "sheets.v4.json")
    ours = importlib.resources.files(DISCOVERY_PACKAGE).joinpath(*DISCOVERY_FILE)
    assert ours.read_bytes() == reference.read_bytes()
