"""End-to-end tests of the Discord bot: the real bot against the loopback fake of Discord."""
