"""``python -m core`` is the ``harkness`` command; :func:`main` is its console script."""

import gc
from typing import NoReturn


def main() -> NoReturn:
    """Run the ``harkness`` command (:func:`core.cli.console`) with the cyclic garbage
    collector off from the start: a short-lived process that makes no garbage cycles, whose
    imports alone would set off collections worth ~2 ms (``core.cli.main`` keeps it off
    for the work itself)."""
    gc.disable()
    from core.cli import console

    console()


if __name__ == "__main__":
    main()
