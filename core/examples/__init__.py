"""Example tournaments shipped with Harkness (package data).

- ``mdchess-scholastic.txt``: MD Chess's 10-player, 4-round scholastic crosstable.
- ``club-swiss.trf``: a 12-player, 5-round club Swiss in TRF-16 with byes of every kind,
  forfeits and a withdrawal.
"""

from __future__ import annotations

from importlib import resources

from core.model import Tournament

DEFAULT = "mdchess-scholastic.txt"


def example_path(name: str = DEFAULT) -> str:
    """The file system path of a bundled example."""
    return str(resources.files(__package__).joinpath(name))


def load_example(name: str = DEFAULT) -> Tournament:
    """Read a bundled example tournament by file name."""
    from core.formats import read_tournament

    return read_tournament(example_path(name))
