"""Database backends of our own: SQLite with a writers' queue (:mod:`league.backends.sqlite`)."""
