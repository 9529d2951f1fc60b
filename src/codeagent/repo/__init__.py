"""repo."""
