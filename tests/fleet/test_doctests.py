"""The examples in the docstrings of the fleet and the database plumbing under it run
(pytest's own doctest collection covers ``tests`` and ``core`` only)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import sheets.database
import sheets.fleet

PACKAGES = (sheets.database, sheets.fleet)
MODULES = sorted(
    {package.__name__ for package in PACKAGES}
    | {
        name
        for package in PACKAGES
        for _, name, _ in pkgutil.walk_packages(package.__path__, f"{package.__name__}.")
        if ".migrations" not in name
    }
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE, verbose=False)
    assert result.failed == 0, f"{result.failed} example(s) failed in {name}"


def test_the_examples_are_found() -> None:
    """The tour in :mod:`sheets.fleet`, the names of processes and database URLs have some."""
    tried = {
        name: doctest.testmod(importlib.import_module(name), verbose=False).attempted
        for name in ("sheets.fleet", "sheets.fleet.hold", "sheets.database.engine")
    }
    assert all(tried.values()), tried
