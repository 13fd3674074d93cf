"""The read models as plain SQL tables in the campaign's own database, kept current with tracking.

After every command, `update` (through `on_commit`, the ledger's commit hook) brings one
campaign's tables up to date inside ONE SQL transaction together with its row in `rm_tracking`,
which records the position and head hash the tables reflect. That makes updates exactly-once:
- tracking already at (or past) the new records: nothing to do;
- no void among the records since the tracked head (the usual command, or tables that fell
  behind because another writer committed first or an earlier update failed): the rows of every
  transaction since the head are appended, each computed with the state after it (from the
  state at the head, loaded from a snapshot), and the current tables (campaign, warbands,
  fighters) brought in line with the state, writing only the rows that changed. The cost follows
  what is missing, not the length of the history;
- a void or reroll changed the past (or the tracked head is not in the history): the campaign's
  rows are computed again from its events, outside the SQL transaction, and replace the old ones.
`rebuild` drops the tables and computes them from the events; both paths compute rows with
`projections.tables`, so a rebuild gives exactly the rows that the updates kept.

The tables live in the same database as the events (for PostgreSQL, in the store's schema).
A memory:// store has no SQL: nothing is persisted. Dialect differences (parameter style,
integer type, row locking) are kept in `Dialect`.
"""

from __future__ import annotations

import contextlib
import uuid
import weakref
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ledger import events as ev
from ledger.campaigns import History, Ledger, fold, transactions
from ledger.errors import BadInput, IntegrityFailure
from ledger.records import GENESIS, Record
from ledger.state import CampaignState
from ledger.store import Store, lock_schema
from projections.tables import (
    CURRENT_TABLES,
    READ_MODELS,
    TABLES,
    TRACKING,
    WARBANDS,
    Row,
    Rows,
    Table,
    all_rows,
    current_rows,
    empty_rows,
    rows_in_pages,
    transaction_rows,
)

# What `update` did.
REFLECTED = "reflected"  # the tables already reflected these records
APPENDED = "appended"  # the new transaction's rows were added
RECOMPUTED = "recomputed"  # the campaign's rows were computed again from its events
NO_SQL = "no SQL"  # a memory:// store


@dataclass(frozen=True)
class Dialect:
    kind: str  # the store's kind: "sqlite" or "postgres"
    placeholder: str  # DB-API paramstyle: "?" (sqlite3) or "%s" (psycopg)
    integer: str
    lock: str  # appended to reading the tracking row, so that one campaign's updates take turns
    schema: str | None  # PostgreSQL schema of the store's tables
    script: bool  # several statements can be sent in one execute (one round trip to a server)

    def table(self, table: Table) -> str:
        return f'"{self.schema}".{table.name}' if self.schema else table.name

    def execute(self, cursor: Any, sql: str, *params: Any) -> None:
        cursor.execute(sql.replace("?", self.placeholder), params)

    def select(self, cursor: Any, sql: str, *params: Any) -> list[Row]:
        self.execute(cursor, sql, *params)
        # psycopg's cursor here gives dicts (in column order), sqlite3's gives sqlite3.Row.
        return [tuple(row.values()) if isinstance(row, dict) else tuple(row) for row in cursor.fetchall()]

    def executemany(self, cursor: Any, sql: str, rows: Sequence[Row]) -> None:
        cursor.executemany(sql.replace("?", self.placeholder), rows)


def dialect(store: Store) -> Dialect | None:
    if store.kind == "sqlite":
        return Dialect(kind="sqlite", placeholder="?", integer="INTEGER", lock="", schema=None, script=False)
    if store.kind == "postgres":
        schema = store.app.recorder.datastore.schema  # type: ignore[attr-defined]
        return Dialect(kind="postgres", placeholder="%s", integer="BIGINT", lock=" FOR UPDATE", schema=schema, script=True)
    return None


def require_sql(store: Store) -> Dialect:
    d = dialect(store)
    if d is None:
        raise BadInput(f"{store.url} keeps no SQL tables: read models are stored in SQLite and PostgreSQL stores only")
    return d


# --- the tables ------------------------------------------------------------------------------------


def create_tables(cursor: Any, d: Dialect) -> None:
    if tables_exist(cursor, d):  # a league player's role may not create tables, only fill them
        return
    lock_schema(cursor, d.kind)  # two processes creating one table at once would collide
    statements = []
    for table in TABLES:
        columns = ", ".join(
            f"{name} {d.integer if kind == 'int' else 'TEXT'}{'' if name in table.nullable else ' NOT NULL'}"
            for name, kind in table.columns
        )
        statements.append(f"CREATE TABLE IF NOT EXISTS {d.table(table)} ({columns}, PRIMARY KEY ({', '.join(table.key)}))")
    if d.script:
        cursor.execute("; ".join(statements))  # no parameters: a server takes it as one simple query
    else:
        for statement in statements:
            cursor.execute(statement)


def tables_exist(cursor: Any, d: Dialect) -> bool:
    names = [table.name for table in TABLES]
    if d.schema is None:
        found = d.select(cursor, f"SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN "
                                 f"({', '.join('?' for _ in names)})", *names)
    else:
        found = d.select(cursor, "SELECT count(*) FROM pg_tables WHERE schemaname = ? AND tablename = ANY(?)",
                         d.schema, names)
    return found[0][0] == len(names)


def drop_tables(cursor: Any, d: Dialect) -> None:
    for table in TABLES:
        d.execute(cursor, f"DROP TABLE IF EXISTS {d.table(table)}")


def _insert(cursor: Any, d: Dialect, rows: Rows) -> None:
    for table in READ_MODELS:
        if rows.get(table.name):
            marks = ", ".join("?" for _ in table.columns)
            d.executemany(
                cursor, f"INSERT INTO {d.table(table)} ({', '.join(table.column_names)}) VALUES ({marks})", rows[table.name]
            )


def _stored(cursor: Any, d: Dialect, campaign_id: str, table: Table) -> set[Row]:
    return set(d.select(cursor, f"SELECT {', '.join(table.column_names)} FROM {d.table(table)} WHERE campaign_id = ?", campaign_id))


def _sync(cursor: Any, d: Dialect, table: Table, stored: set[Row], rows: list[Row]) -> None:
    """Make a campaign's rows of a current table `rows`, writing only those that changed."""
    key = [table.column_names.index(name) for name in table.key]
    stale = [tuple(row[i] for i in key) for row in stored.difference(rows)]
    if stale:
        where = " AND ".join(f"{name} = ?" for name in table.key)
        d.executemany(cursor, f"DELETE FROM {d.table(table)} WHERE {where}", stale)
    _insert(cursor, d, {table.name: [row for row in rows if row not in stored]})


def _lock_tracking(cursor: Any, d: Dialect, campaign_id: str) -> tuple[int, str]:
    """The (position, head) the campaign's tables reflect, locked until the transaction ends."""
    # Inserting first makes the row exist to be locked (and takes SQLite's write lock at once).
    d.execute(
        cursor,
        f"INSERT INTO {d.table(TRACKING)} (campaign_id, position, head) VALUES (?, 0, ?) ON CONFLICT (campaign_id) DO NOTHING",
        campaign_id,
        GENESIS,
    )
    [(position, head)] = d.select(
        cursor, f"SELECT position, head FROM {d.table(TRACKING)} WHERE campaign_id = ?{d.lock}", campaign_id
    )
    return position, head


def _track(cursor: Any, d: Dialect, campaign_id: str, position: int, head: str) -> None:
    d.execute(
        cursor, f"UPDATE {d.table(TRACKING)} SET position = ?, head = ? WHERE campaign_id = ?",
        position, head, campaign_id,
    )


def _replace(cursor: Any, d: Dialect, campaign_id: str, pages: Iterable[tuple[CampaignState, Rows]]) -> None:
    """Put a campaign's freshly computed rows (pages of them, each with the state after it) in place
    of its old ones, and track the head the last page reaches."""
    _lock_tracking(cursor, d, campaign_id)
    for table in READ_MODELS:
        d.execute(cursor, f"DELETE FROM {d.table(table)} WHERE campaign_id = ?", campaign_id)
    state = CampaignState()
    for state, rows in pages:
        _insert(cursor, d, rows)
    _track(cursor, d, campaign_id, state.position, state.head)


# --- keeping them current ------------------------------------------------------------------------


def _missing_records(store: Store, campaign_id: uuid.UUID, records: Sequence[Record], position: int) -> list[Record]:
    """The records after the tracked position, up to the last one just committed."""
    if records[0].position == position + 1:
        return list(records)
    # The store reads on its own connection: it does not wait for this transaction's lock.
    return list(store.records(campaign_id, after=position, upto=records[-1].position))


def _appendable(missing: Sequence[Record], position: int, head: str) -> bool:
    """Transactions right after the tracked head (always the end of a transaction: tracking moves
    only to the last record of a commit), none a void: their rows can simply be appended."""
    first = missing[0]
    return (
        first.position == position + 1
        and first.prev_hash == head
        and not any(isinstance(r.event, ev.TransactionVoided) for r in missing)
    )


def _append(
    cursor: Any, d: Dialect, ledger: Ledger, campaign_id: uuid.UUID, state: CampaignState, missing: Sequence[Record], position: int
) -> None:
    """Add the missing transactions' rows and bring the current tables in line with the state after them."""
    cid = str(campaign_id)
    stored = {table.name: _stored(cursor, d, cid, table) for table in CURRENT_TABLES}
    warband, rating = (WARBANDS.column_names.index(name) for name in ("warband", "rating"))
    ratings = {row[warband]: row[rating] for row in stored[WARBANDS.name]}
    groups = transactions(missing)
    if len(groups) > 1:
        # The state after each transaction: from the state at the tracked position, as it was then.
        state = ledger.load(campaign_id, upto=position) if position else CampaignState()
    for group in groups:
        if len(groups) > 1:
            fold(group, state)
        _insert(cursor, d, transaction_rows(group, state, {}, ratings))
    current = current_rows(state)
    for table in CURRENT_TABLES:
        _sync(cursor, d, table, stored[table.name], current[table.name])
    _track(cursor, d, cid, missing[-1].position, missing[-1].hash)


def update(store: Store, campaign_id: uuid.UUID, state: CampaignState, records: Sequence[Record] | History) -> str:
    """Bring one campaign's tables up to `records` (just committed; `state` is the state after them;
    a History: the whole history, just adopted)."""
    d = dialect(store)
    if d is None or not records:
        return NO_SQL
    cid = str(campaign_id)
    _create_once(store, d)
    if isinstance(records, History):
        return _write_history(store, d, cid, records)
    # The update's transaction starts with a write (see _lock_tracking): a SQLite transaction that
    # has read cannot wait for another writer to finish, it fails at once with "database is locked".
    with store.sql() as cursor:
        position, head = _lock_tracking(cursor, d, cid)
        if position >= records[-1].position:
            return REFLECTED
        missing = _missing_records(store, campaign_id, records, position)
        if missing and _appendable(missing, position, head):
            _append(cursor, d, Ledger(store), campaign_id, state, missing, position)
            return APPENDED
    # A void or reroll changed the past (or the tracked head is not in the history): recompute.
    # The events are read outside the SQL transaction, so the tracking row is not held meanwhile
    # (and not at all when the records committed are the whole history).
    history = list(records) if records[0].position == 1 else list(store.records(campaign_id))
    rebuilt, rows = all_rows(history)
    newest = history[-1]
    with store.sql() as cursor:
        position, head = _lock_tracking(cursor, d, cid)
        if position > newest.position or (position, head) == (newest.position, newest.hash):
            return REFLECTED  # another process got there first
        _replace(cursor, d, cid, [(rebuilt, rows)])
    return RECOMPUTED


def _write_history(store: Store, d: Dialect, campaign_id: str, history: History) -> str:
    """A whole history just stored (an import): its rows written as they are computed, a page at a
    time, in one SQL transaction (no other writer knows the campaign yet)."""
    with store.sql() as cursor:
        position, _head = _lock_tracking(cursor, d, campaign_id)
        if position >= history.count:
            return REFLECTED
        _replace(cursor, d, campaign_id, rows_in_pages(history, history.voids))
    return RECOMPUTED


_tables_created: weakref.WeakSet[Store] = weakref.WeakSet()


def _create_once(store: Store, d: Dialect) -> None:
    """Create the tables if need be, once per open store (not once per command)."""
    if store not in _tables_created:
        with store.sql() as cursor:
            create_tables(cursor, d)
        _tables_created.add(store)


def catch_up(store: Store, campaign_id: uuid.UUID, state: CampaignState) -> str:
    """Bring a campaign's tables up to `state` if they fell behind it (an update that failed, or a
    process killed between its commit and the update): one read of the tracking row otherwise."""
    d = dialect(store)
    if d is None or state.position == 0:
        return NO_SQL
    cid = str(campaign_id)
    _create_once(store, d)
    with store.sql() as cursor:
        tracked = d.select(cursor, f"SELECT position, head FROM {d.table(TRACKING)} WHERE campaign_id = ?", cid)
    position, head = tracked[0] if tracked else (0, GENESIS)
    if position > state.position:  # another writer committed since `state` was loaded, or events were lost
        since = list(store.records(campaign_id, after=state.position, upto=position))
        if since and (since[-1].position, since[-1].hash) == (position, head):
            return REFLECTED
    # The tables once reflected more than the stream now holds, or another history: events were lost.
    if position > state.position or (position == state.position and head != state.head):
        raise IntegrityFailure(
            f"the read models reflect position {position} (head {head[:16]}), but the stored events end at "
            f"{state.position} (head {state.head[:16]}): events were lost (a damaged file, or a copy taken "
            "without its -wal file); restore a copy made by `campaign backup`")
    if position == state.position:
        return REFLECTED
    return update(store, campaign_id, state, list(store.records(campaign_id, after=position)))


def on_commit(ledger: Any, campaign_id: uuid.UUID, state: CampaignState, records: Sequence[Record]) -> None:
    """The `Ledger.on_commit` hook."""
    update(ledger.store, campaign_id, state, records)


def rebuild(
    store: Store, campaign_ids: Sequence[uuid.UUID], *, drop: bool, advance: Callable[[int], None] | None = None
) -> list[CampaignState]:
    """Compute the campaigns' tables from their events, in one SQL transaction.

    With `drop`, every read-model table (tracking included) is dropped and created first, so only
    these campaigns are in it afterwards; without, only these campaigns' rows are replaced.
    `advance(n)` is told how many records have been folded, for a progress bar."""
    d = require_sql(store)
    computed = []
    for campaign_id in campaign_ids:
        history = list(store.records(campaign_id))
        state, rows = all_rows(history, advance)
        computed.append((str(campaign_id), state, rows))
    with store.sql() as cursor:
        if drop:
            drop_tables(cursor, d)
        create_tables(cursor, d)
        for cid, state, rows in computed:
            _replace(cursor, d, cid, [(state, rows)])
    return [state for _cid, state, _rows in computed]


# --- checking them -----------------------------------------------------------------------------------


def _sort_key(row: Row) -> tuple[tuple[bool, Any], ...]:
    return tuple((value is None, value if value is not None else 0) for value in row)


def _row_difference(table: Table, key: Row, stored: Row | None, expected: Row | None) -> str:
    named = ", ".join(f"{name}={value}" for name, value in zip(table.key, key))
    if stored is None:
        return f"{table.name}: row ({named}) is missing (the events give one)"
    if expected is None:
        return f"{table.name}: row ({named}) is not given by the events"
    for name, found, wanted in zip(table.column_names, stored, expected):
        if found != wanted:
            return f"{table.name}: row ({named}) holds {name}={found!r}, the events give {name}={wanted!r}"
    return f"{table.name}: row ({named}) differs"


def check(store: Store, campaign_id: uuid.UUID, records: Iterable[Record], voids: Sequence[Record]) -> ReadModelCheck | None:
    """Compare a campaign's read-model rows with a rebuild from its events (`records`, its verified
    history in order, read once up to the position the tracking row names; `voids`, its
    transaction.voided records), holding neither: each table's rows are summed up (their count and
    the sum of their SHA-256 digests) as they are read from the table and as the rebuild computes
    them. None for a store without SQL or a campaign whose tables were never written; a tracking
    row the chain does not hold raises IntegrityFailure. Which row differs, when a table's sums
    do, is named by `name_difference` (it holds both tables)."""
    d = dialect(store)
    if d is None:
        return None
    cid = str(campaign_id)
    with _readable_tables(), store.sql() as cursor:
        if not tables_exist(cursor, d):
            return None  # never written: nothing to compare
        tracked = d.select(cursor, f"SELECT position, head FROM {d.table(TRACKING)} WHERE campaign_id = ?", cid)
        stored = {table.name: _RowSums.of(_rows_of(cursor, d, table, cid)) for table in READ_MODELS}
    if not tracked:
        if any(sums.count for sums in stored.values()):
            raise IntegrityFailure(f"{TRACKING.name}: no row for campaign {cid}, yet its read-model rows exist")
        return None
    [(position, head)] = tracked
    reached: list[Record] = []  # the record at the tracked position, once read

    def reflected() -> Iterator[Record]:
        for record in records:
            if record.position > position:
                return
            if record.position == position:
                reached.append(record)
            yield record

    expected = {table.name: _RowSums() for table in READ_MODELS}
    for _state, page in rows_in_pages(reflected(), [v for v in voids if v.position <= position]):
        for name, rows in page.items():
            expected[name].add(rows)
    if position < 0 or (position and [r.hash for r in reached] != [head]):
        raise IntegrityFailure(f"{TRACKING.name}: row (campaign_id={cid}) says the tables reflect position {position} "
                               f"with head {head[:16]}, which is not in the chain")
    if not position:
        expected = {table.name: _RowSums() for table in READ_MODELS}  # tables at position 0 hold no row
    differ = [table.name for table in READ_MODELS if stored[table.name] != expected[table.name]]
    return ReadModelCheck(position, len(READ_MODELS), differ)


@dataclass(frozen=True)
class ReadModelCheck:
    position: int  # the position the tables reflect, as their tracking row says
    tables: int  # tables compared
    differ: list[str]  # the tables whose rows are not what a rebuild gives: see name_difference


@dataclass
class _RowSums:
    """A table's rows summed up in any order: their count and the sum of their hashes (Python's, as
    keyed for this process: a forger cannot foresee them). Equal for equal sets of rows (a table's
    rows differ in their keys; rows equal as tuples are, and hash alike), different but for a
    collision of 64-bit sums for any others."""

    count: int = 0
    total: int = 0

    @classmethod
    def of(cls, rows: Iterable[Row]) -> _RowSums:
        sums = cls()
        sums.add(rows)
        return sums

    def add(self, rows: Iterable[Row]) -> None:
        for row in rows:
            self.count += 1
            self.total += hash(row)
        self.total %= 1 << 64


def _rows_of(cursor: Any, d: Dialect, table: Table, campaign_id: str) -> Iterator[Row]:
    """A campaign's rows of a table, fetched a page at a time (on PostgreSQL through a cursor on the
    server: the client's own would fetch them all at once)."""
    sql = f"SELECT {', '.join(table.column_names)} FROM {d.table(table)} WHERE campaign_id = ?".replace("?", d.placeholder)
    # psycopg's own cursor (eventsourcing hands it out as it is); sqlite3's inside the library's wrapper
    reading = cursor.connection.cursor(name=f"rm_check_{table.name}") if d.kind == "postgres" else cursor.sqlite_cursor
    try:
        reading.execute(sql, (campaign_id,))
        while page := reading.fetchmany(PAGE_ROWS):
            yield from (tuple(row.values()) if isinstance(row, dict) else tuple(row) for row in page)
    finally:
        if d.kind == "postgres":
            reading.close()


PAGE_ROWS = 1000


@contextlib.contextmanager
def _readable_tables() -> Iterator[None]:
    try:
        yield
    except Exception as error:  # noqa: BLE001 - the driver's error types vary: a damaged table, a dropped column
        raise IntegrityFailure(f"the read-model tables cannot be read ({' '.join(str(error).split())}): "
                               "`campaign rebuild` makes them again from the events") from None


def name_difference(store: Store, campaign_id: uuid.UUID, checked: ReadModelCheck, records: Iterable[Record],
                    voids: Sequence[Record]) -> None:
    """Raise IntegrityFailure naming the first row that differs (tables in the order of
    docs/read-models.md, rows by key) among the tables `check` found to differ; both tables are held."""
    d = require_sql(store)
    cid = str(campaign_id)
    tables = [table for table in READ_MODELS if table.name in checked.differ]
    with _readable_tables(), store.sql() as cursor:
        stored = {table.name: list(_rows_of(cursor, d, table, cid)) for table in tables}
    reflected = [record for record in records if record.position <= checked.position]
    _state, expected = all_rows(reflected) if checked.position else (None, empty_rows())
    for table in tables:
        key = [table.column_names.index(name) for name in table.key]
        found = {tuple(row[i] for i in key): row for row in stored[table.name]}
        wanted = {tuple(row[i] for i in key): row for row in expected[table.name]}
        for row_key in sorted(set(found) | set(wanted), key=_sort_key):
            if found.get(row_key) != wanted.get(row_key):
                raise IntegrityFailure(_row_difference(table, row_key, found.get(row_key), wanted.get(row_key)))
