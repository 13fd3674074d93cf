"""eventsourcing's SQLite persistence, with one change: its connections keep sqlite3's usual cache
of prepared statements.

The library connects with `cached_statements=True`, which is a cache of one statement, so every
statement of a command (a dozen with its read-model rows) was prepared again each time: about a
fifth of an in-process command. Imported only for a SQLite store (`settings_for` names `Factory`).
"""

from __future__ import annotations

import sqlite3

from eventsourcing.persistence import InterfaceError
from eventsourcing.sqlite import SQLITE3_DEFAULT_LOCK_TIMEOUT, SQLiteConnection, SQLiteConnectionPool, SQLiteFactory
from eventsourcing.utils import Environment, EnvType

PREPARED_STATEMENTS = 128  # sqlite3's own default


class _Pool(SQLiteConnectionPool):
    def _create_connection(self) -> SQLiteConnection:
        """The library's own (eventsourcing 9.5), but for the size of the statement cache."""
        try:
            c = sqlite3.connect(database=self.db_name, uri=True, check_same_thread=False, isolation_level=None,
                                cached_statements=PREPARED_STATEMENTS,
                                timeout=self.lock_timeout or SQLITE3_DEFAULT_LOCK_TIMEOUT)
        except (sqlite3.Error, TypeError) as e:
            raise InterfaceError(e) from e
        if not self.is_sqlite_memory_mode and not self.is_journal_mode_wal:
            cursor = c.cursor()
            cursor.execute("PRAGMA journal_mode;")
            if cursor.fetchone()[0].lower() != "wal":
                cursor.execute("PRAGMA journal_mode=WAL;")
                self.journal_mode_was_changed_to_wal = True
            self.is_journal_mode_wal = True
        c.row_factory = sqlite3.Row
        return SQLiteConnection(sqlite_conn=c, max_age=self.max_age)


class Factory(SQLiteFactory):
    def __init__(self, env: Environment | EnvType | None):
        super().__init__(env)
        made = self.datastore.pool  # no connection made yet: they are made on first use
        self.datastore.pool = _Pool(db_name=made.db_name, lock_timeout=made.lock_timeout)
