"""``python -m bot`` is the ``harkness-bot`` command."""

import sys

from bot.app import main

sys.exit(main())
