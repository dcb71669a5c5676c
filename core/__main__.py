"""``python -m core`` is the ``harkness`` command."""

import sys

from core.cli import main

sys.exit(main())
