"""``python -m bot.store``: migrations, backups and restores (see :mod:`bot.store.cli`)."""

import sys

from bot.store.cli import main

sys.exit(main())
