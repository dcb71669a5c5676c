"""The numbered migrations, oldest first."""
