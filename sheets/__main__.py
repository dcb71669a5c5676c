"""``python -m sheets``: the same as the ``harkness-sheets`` command."""

import sys

from sheets.cli import main

sys.exit(main())
