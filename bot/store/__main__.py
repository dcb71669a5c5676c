"""``python -m bot.store upgrade|current|revision "message"``: the store's migrations."""

from bot.store.migrate import main

main()
