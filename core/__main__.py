"""``python -m core`` is the ``harkness`` command."""

from core.cli import console

console()
