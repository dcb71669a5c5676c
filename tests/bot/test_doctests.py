"""The examples in the bot's docstrings run (pytest's own doctest collection covers
``tests`` and ``core`` only)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import bot

MODULES = sorted(
    name
    for _, name, _ in pkgutil.walk_packages(bot.__path__, "bot.")
    if not name.startswith("bot.store") and name != "bot.__main__"
)


def test_every_bot_module_is_found() -> None:
    assert {"bot.app", "bot.render", "bot.buttons", "bot.cogs.results"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE, verbose=False)
    assert result.failed == 0, f"{result.failed} example(s) failed in {name}"
