"""Harkness in Discord: slash commands to run a tournament, report results, and read
standings, crosstables and explanations (see :mod:`bot.app`; the store is :mod:`bot.store`).
"""
