"""The read models as plain SQL tables in the campaign's own database, kept current with tracking.

A command's rows are written inside the database transaction that stores its events (`in_commit`,
the ledger's in-commit hook: computed before that transaction opens, written only if the campaign's
row in `rm_tracking`, which records the position and head hash the tables reflect, is at the head
the command follows, and moved with them), so events and rows are one durable commit. Where that
cannot be done (tables behind, a void, a failure), `update` (through `on_commit`, the hook after
the commit) brings the tables up to date inside ONE SQL transaction together with the tracking
row. Either way updates are exactly-once:
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
import functools
import uuid
import weakref
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ledger import events as ev
from ledger.campaigns import History, Ledger, fold, transactions
from ledger.errors import BadInput, IntegrityFailure
from ledger.records import GENESIS, Record
from ledger.state import CampaignState, warbands_changed
from ledger.store import Store, Writer, lacks_privilege, lock_schema, read_later, tuple_cursor
from projections.tables import (
    CAMPAIGNS,
    CURRENT_TABLES,
    FIGHTERS,
    LOG,
    READ_MODELS,
    RECORD_TABLES,
    ROWS_FORMAT,
    TABLES,
    TRACKING,
    WARBANDS,
    CurrentRows,
    Row,
    Rows,
    Table,
    WarbandRows,
    all_rows,
    current_rows_of,
    empty_rows,
    RowsInPages,
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

    def select_later(self, cursor: Any, sql: str, *params: Any) -> Callable[[], list[Row]]:
        """`select`, its rows given when the callable is called (see `read_later`)."""
        return read_later(cursor, sql.replace("?", self.placeholder), params)

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
        _add_format_column(cursor, d)
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


def has_format_column(cursor: Any, d: Dialect) -> bool:
    """Does rm_tracking say its rows' format (tables made before it did hold rows of format 1)?"""
    if d.schema is None:
        found = d.select(cursor, f"SELECT count(*) FROM pragma_table_info('{TRACKING.name}') WHERE name = 'format'")
    else:
        found = d.select(cursor, "SELECT count(*) FROM information_schema.columns WHERE table_schema = ? "
                                 "AND table_name = ? AND column_name = 'format'", d.schema, TRACKING.name)
    return bool(found[0][0])


def _add_format_column(cursor: Any, d: Dialect) -> None:
    """Tables an older version made get rm_tracking's format column (NULL: format 1), so that each
    campaign's rows are computed again as it is next loaded or written."""
    if has_format_column(cursor, d):
        return
    lock_schema(cursor, d.kind)
    if has_format_column(cursor, d):  # another process added it meanwhile
        return
    try:
        d.execute(cursor, f"ALTER TABLE {d.table(TRACKING)} ADD COLUMN format {d.integer}")
    except Exception as error:
        if lacks_privilege(error):  # a league's player: the tables are the administrator's
            raise TablesOfOlderVersion() from None
        raise


class TablesOfOlderVersion(Exception):
    """Read-model tables an older version made, which this role may not alter: they are left as they
    are (the events are recorded all the same) until the administrator's upgrade."""

    def __str__(self) -> str:
        return ("the read-model tables were made by an older version of campaign-ledger and this role may not "
                "alter them, so they are not kept: the league's administrator runs `campaign admin init-roles` "
                "after an upgrade")


def drop_tables(cursor: Any, d: Dialect) -> None:
    for table in TABLES:
        d.execute(cursor, f"DROP TABLE IF EXISTS {d.table(table)}")


@functools.cache  # a command writes to several tables: their statements are made once
def _statements(d: Dialect, table: Table) -> tuple[str, str, str]:
    """(insert a row, upsert a row by key, delete a row by key) of the table."""
    insert = f"INSERT INTO {d.table(table)} ({', '.join(table.column_names)}) VALUES ({', '.join('?' for _ in table.columns)})"
    values = ", ".join(f"{name} = excluded.{name}" for name in table.column_names if name not in table.key)
    upsert = f"{insert} ON CONFLICT ({', '.join(table.key)}) DO UPDATE SET {values}"
    delete = f"DELETE FROM {d.table(table)} WHERE {' AND '.join(f'{name} = ?' for name in table.key)}"
    return insert, upsert, delete


def _insert(cursor: Any, d: Dialect, rows: Rows) -> None:
    for table in READ_MODELS:
        if rows.get(table.name):
            d.executemany(cursor, _statements(d, table)[0], rows[table.name])


def _stored(cursor: Any, d: Dialect, campaign_id: str, table: Table) -> list[Row]:
    return d.select(cursor, f"SELECT {', '.join(table.column_names)} FROM {d.table(table)} WHERE campaign_id = ?", campaign_id)


def _sync(cursor: Any, d: Dialect, table: Table, stored: frozenset[Row], rows: list[Row]) -> None:
    """Make rows of a current table that were `stored` the `rows`, writing only those that changed:
    the new and changed ones in one statement (an upsert by key), and those no longer there in another."""
    key = table.key_of
    if gone := {key(row) for row in stored} - {key(row) for row in rows}:
        d.executemany(cursor, _statements(d, table)[2], list(gone))
    if changed := [row for row in rows if row not in stored]:
        d.executemany(cursor, _statements(d, table)[1], changed)


def _lock_tracking(cursor: Any, d: Dialect, campaign_id: str) -> tuple[int, str, bool]:
    """The (position, head) the campaign's tables reflect, and whether their rows are of this
    version's format, locked until the transaction ends."""
    # Inserting first makes the row exist to be locked (and takes SQLite's write lock at once).
    d.execute(
        cursor,
        f"INSERT INTO {d.table(TRACKING)} (campaign_id, position, head, format) VALUES (?, 0, ?, ?) "
        "ON CONFLICT (campaign_id) DO NOTHING",
        campaign_id,
        GENESIS,
        ROWS_FORMAT,
    )
    [(position, head, rows_format)] = d.select(
        cursor, f"SELECT position, head, format FROM {d.table(TRACKING)} WHERE campaign_id = ?{d.lock}", campaign_id
    )
    return position, head, rows_format == ROWS_FORMAT


def _track(cursor: Any, d: Dialect, campaign_id: str, position: int, head: str) -> None:
    d.execute(
        cursor, f"UPDATE {d.table(TRACKING)} SET position = ?, head = ?, format = ? WHERE campaign_id = ?",
        position, head, ROWS_FORMAT, campaign_id,
    )


def _move_tracking(
    cursor: Any, d: Dialect, campaign_id: str, reflected: tuple[int, str], last: Record
) -> Callable[[], bool]:
    """Track `last` if the tracking row is at `reflected` (position, head), its rows of this version's
    format: did it move (answered when called, see `read_later`)? One statement, which also locks the
    row until the transaction ends."""
    moved = d.select_later(
        cursor, f"UPDATE {d.table(TRACKING)} SET position = ?, head = ? "
                "WHERE campaign_id = ? AND position = ? AND head = ? AND format = ? RETURNING position",
        last.position, last.hash, campaign_id, *reflected, ROWS_FORMAT,
    )
    return lambda: bool(moved())


def _clear(cursor: Any, d: Dialect, campaign_id: str) -> None:
    """The campaign's rows deleted, its tracking row locked until the transaction ends."""
    _lock_tracking(cursor, d, campaign_id)
    for table in READ_MODELS:
        d.execute(cursor, f"DELETE FROM {d.table(table)} WHERE campaign_id = ?", campaign_id)


def _replace(cursor: Any, d: Dialect, campaign_id: str, pages: Iterable[tuple[CampaignState, Rows]]) -> None:
    """Put a campaign's freshly computed rows (pages of them, each with the state after it) in place
    of its old ones, and track the head the last page reaches."""
    _clear(cursor, d, campaign_id)
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


class TablesMoved(Exception):
    """The tracking row was not where the rows written in a commit follow: they are undone with it."""


@dataclass(frozen=True)
class Tracked:
    """A campaign's rows of the current tables as stored while its tables reflect `position` and `head`."""

    position: int
    head: str
    current: CurrentRows


def _stored_current(cursor: Any, d: Dialect, campaign_id: str, position: int, head: str) -> Tracked:
    """The current tables' rows as stored (read in the transaction whose tracking row says they
    reflect `position` and `head`), each fighter's row with its warband's."""
    fighters_warband, warbands_id = FIGHTERS.column_names.index("warband"), WARBANDS.column_names.index("warband")
    fighters: dict[str, list[Row]] = {}
    for row in _stored(cursor, d, campaign_id, FIGHTERS):
        fighters.setdefault(row[fighters_warband], []).append(row)
    warbands = {row[warbands_id]: WarbandRows(row, tuple(fighters.pop(row[warbands_id], ())))
                for row in _stored(cursor, d, campaign_id, WARBANDS)}
    warbands.update((warband, WarbandRows(None, tuple(rows))) for warband, rows in fighters.items())
    return Tracked(position, head, CurrentRows(tuple(_stored(cursor, d, campaign_id, CAMPAIGNS)), warbands))


def _rows_after(
    missing: Sequence[Record], stored: Tracked, after: CampaignState, start: Callable[[], CampaignState]
) -> tuple[Rows, CurrentRows]:
    """The missing transactions' rows, each computed with the state after it (`after`, the state
    after them all, for the last; `start()`, the state at the tracked position, folded on for the
    others), and the current tables' rows after them: the rows stored of every warband whose rows
    nothing changed (all of them when no transaction changed a roster: dice rolled, cards drawn)."""
    groups = transactions(missing)
    changed: set[str] | None = set()
    for group in groups:
        if (more := warbands_changed(group, after)) is None:
            changed = None
            break
        changed |= more
    current = current_rows_of(after, stored.current, changed)
    ratings = stored.current.ratings()
    rows: Rows = {table.name: [] for table in RECORD_TABLES}
    state = start() if len(groups) > 1 else after
    for group in groups:
        if len(groups) > 1:
            fold(group, state)
        rated = current.ratings() if group is groups[-1] else None  # `after`'s, computed with its rows
        for name, more in transaction_rows(group, state, {}, ratings, rated).items():
            rows[name].extend(more)
    return rows, current


def _write(cursor: Any, d: Dialect, stored: Tracked, rows: Rows, current: CurrentRows, last: Record) -> Tracked:
    """Add the rows and bring the current tables from `stored` to `current`, comparing the rows of
    the warbands whose rows are not the very ones stored: what they then hold, once tracked at `last`."""
    _insert(cursor, d, rows)
    was, now = stored.current.warbands, current.warbands
    changed = [warband for warband in {**was, **now} if was.get(warband) is not now.get(warband)]
    was_rows = CurrentRows(stored.current.campaign, {w: was[w] for w in changed if w in was}).rows()
    now_rows = CurrentRows(current.campaign, {w: now[w] for w in changed if w in now}).rows()
    for table in CURRENT_TABLES:
        _sync(cursor, d, table, frozenset(was_rows[table.name]), now_rows[table.name])
    return Tracked(last.position, last.hash, current)


# What this process last wrote of each campaign's current tables (store -> campaign id), so that
# its next command need not compute them again: kept once the transaction that wrote them committed.
_kept: weakref.WeakKeyDictionary[Store, dict[str, Tracked]] = weakref.WeakKeyDictionary()
# What an in-commit writer wrote, until the commit's on_commit hook shows that it was committed.
_written: weakref.WeakKeyDictionary[Store, dict[str, Tracked]] = weakref.WeakKeyDictionary()


def _keep(store: Store, campaign_id: str, tracked: Tracked) -> None:
    _kept.setdefault(store, {})[campaign_id] = tracked


def in_commit(
    ledger: Any, campaign_id: uuid.UUID, before: Callable[[], CampaignState] | None, after: CampaignState | None,
    records: Sequence[Record] | History,
) -> Writer | None:
    """The `Ledger.in_commit` hook: the rows of the transactions about to be committed (the state
    `before()` and `after` them), computed now, and a writer that stores them inside the commit's own
    database transaction, with the tracking row moved from the head they follow to theirs; where it
    is not there, the transaction is undone and its events stored alone. The current tables then
    hold the rows of the state before, as a rebuild gives them: they are compared with those (or
    with the rows this process wrote, when it wrote them at that head), not read back; where another
    writer moved the head on, the rows of a warband or fighter whose inputs are those of the rows
    this process wrote last are taken as they are, not computed again. A whole history adopted (an
    import) has its rows computed as they are written.
    None where that cannot be (no SQL, a void, a new campaign, any failure computing the rows):
    on_commit then brings the tables up to date after the commit, as before, and reports what fails."""
    store = ledger.store
    d = dialect(store)
    if d is None:
        return None
    if isinstance(records, History):
        try:
            _create_once(store, d)
        except Exception:  # noqa: BLE001 - the events are committed whatever went wrong here
            return None
        return _HistoryRows(d, str(campaign_id), records.voids)
    follows = (records[0].position - 1, records[0].prev_hash)
    if records[0].position == 1 or not _appendable(records, *follows):
        return None
    cid = str(campaign_id)
    try:
        _create_once(store, d)
        kept = _kept.get(store, {}).get(cid)
        if kept is not None and (kept.position, kept.head) == follows:
            stored = kept
        else:  # another writer committed since: rows of the inputs this process's rows were of are theirs
            stored = Tracked(*follows, current_rows_of(before(), kept.current if kept is not None else None))
        rows, current = _rows_after(records, stored, after, before)
    except Exception:  # noqa: BLE001 - the events are committed whatever went wrong here
        return None

    def write(cursor: Any) -> Callable[[], None]:
        moved = _move_tracking(cursor, d, cid, follows, records[-1])
        written = _write(cursor, d, stored, rows, current, records[-1])

        def check() -> None:
            # Tables behind (a failed update, a process killed after its commit), or moved by another
            # process meanwhile: the rows are undone with the transaction, the events stored alone,
            # and on_commit sees to the tables.
            if not moved():
                raise TablesMoved(f"the read models of {cid} do not reflect {follows[0]}")
            _written.setdefault(store, {})[cid] = written

        return check

    return write


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
    appended = None
    with store.sql() as cursor:
        position, head, current_format = _lock_tracking(cursor, d, cid)
        if position >= records[-1].position and current_format:
            return REFLECTED
        missing = _missing_records(store, campaign_id, records, position) if current_format else []
        if missing and _appendable(missing, position, head):
            stored = _stored_current(cursor, d, cid, position, head)
            # The state at the tracked position, as it was then (for several transactions).
            start = functools.partial(Ledger(store).load, campaign_id, upto=position) if position else CampaignState
            rows, current = _rows_after(missing, stored, state, start)
            appended = _write(cursor, d, stored, rows, current, missing[-1])
            _track(cursor, d, cid, missing[-1].position, missing[-1].hash)
    if appended is not None:
        _keep(store, cid, appended)
        return APPENDED
    # A void or reroll changed the past (or the tracked head is not in the history, or the rows are of
    # an older version's format): recompute. The events are read outside the SQL transaction, so the
    # tracking row is not held meanwhile (and not at all when the records committed are the whole history).
    history = list(records) if records[0].position == 1 else list(store.records(campaign_id))
    rebuilt, rows = all_rows(history)
    newest = history[-1]
    with store.sql() as cursor:
        position, head, current_format = _lock_tracking(cursor, d, cid)
        if current_format and (position > newest.position or (position, head) == (newest.position, newest.hash)):
            return REFLECTED  # another process got there first
        _replace(cursor, d, cid, [(rebuilt, rows)])
    return RECOMPUTED


def _write_history(store: Store, d: Dialect, campaign_id: str, history: History) -> str:
    """A whole history just stored (an import): its rows written as they are computed, a page at a
    time, in one SQL transaction (no other writer knows the campaign yet)."""
    with store.sql() as cursor:
        return _history_rows(cursor, d=d, campaign_id=campaign_id, history=history)


def _history_rows(cursor: Any, *, d: Dialect, campaign_id: str, history: History) -> str:
    position, _head, current_format = _lock_tracking(cursor, d, campaign_id)
    if position >= history.count and current_format:
        return REFLECTED
    _replace(cursor, d, campaign_id, rows_in_pages(history, history.voids))
    return RECOMPUTED


class _HistoryRows:
    """The in-commit writer of an adopted history's rows (a HistoryWriter): told each record as the
    store reads it, it writes the rows of each page of transactions after a page of records, and
    the current tables' and the tracking row once every record is stored, in place of any the
    campaign had."""

    def __init__(self, d: Dialect, campaign_id: str, voids: Sequence[Record]):
        self.d, self.campaign_id = d, campaign_id
        self.rows = RowsInPages(voids)
        self.cleared = False

    @property
    def state(self) -> CampaignState:
        return self.rows.state

    def add(self, record: Record) -> None:
        self.rows.add(record)

    def write_page(self, cursor: Any) -> None:
        if (page := self.rows.full_page()) is not None:
            self._write(cursor, page)

    def __call__(self, cursor: Any) -> None:
        self._write(cursor, self.rows.last_page())
        _track(cursor, self.d, self.campaign_id, self.rows.state.position, self.rows.state.head)

    def _write(self, cursor: Any, rows: Rows) -> None:
        if not self.cleared:
            _clear(cursor, self.d, self.campaign_id)
            self.cleared = True
        _insert(cursor, self.d, rows)


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
        tracked = _tracking_row(cursor, d, cid)
    position, head = (tracked.position, tracked.head) if tracked else (0, GENESIS)
    if tracked is not None and tracked.rows_format != ROWS_FORMAT and position <= state.position:
        # rows an older version computed: computed again from the whole history, in this version's format
        return update(store, campaign_id, state, list(store.records(campaign_id)))
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


def stored_log(store: Store, campaign_id: uuid.UUID, state: CampaignState, *, after: int = 0) -> list[Row] | None:
    """The campaign's rm_log rows after position `after`, in order, where its tables reflect `state`
    (its position and head) in this version's format: what `campaign log` shows, read rather than
    computed (a page of a long history costs a page). None where they do not, or may not be read:
    no SQL, tables this process has not found or made with their format column (`catch_up` sees to
    them first), left of an older format or behind (a role that may not alter or write them), or
    moved on by another writer since `state` was loaded; the caller then computes the rows."""
    d = dialect(store)
    if d is None or store not in _tables_created:
        return None
    cid = str(campaign_id)
    with store.sql() as cursor:
        _repeatable_read(cursor, d)  # the rows of the tracked head, not of a commit made meanwhile
        if _tracking_row(cursor, d, cid) != TrackingRow(cid, state.position, state.head, ROWS_FORMAT):
            return None
        return d.select(cursor, f"SELECT {', '.join(LOG.column_names)} FROM {d.table(LOG)} "
                                "WHERE campaign_id = ? AND position > ? ORDER BY position", cid, after)


def on_commit(ledger: Any, campaign_id: uuid.UUID, state: CampaignState, records: Sequence[Record] | History) -> None:
    """The `Ledger.on_commit` hook: nothing more to do when the commit's own transaction wrote the
    rows (in_commit); else the tables are brought up to date now."""
    written = _written.get(ledger.store, {}).pop(str(campaign_id), None)
    if written is not None and not isinstance(records, History) and (written.position, written.head) == (
            records[-1].position, records[-1].hash):
        _keep(ledger.store, str(campaign_id), written)
        return
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
            granted = _grants(cursor, d)
            drop_tables(cursor, d)
        create_tables(cursor, d)
        if drop:
            for statement in granted:
                d.execute(cursor, statement)
        for cid, state, rows in computed:
            _replace(cursor, d, cid, [(state, rows)])
    return [state for _cid, state, _rows in computed]


def _grants(cursor: Any, d: Dialect) -> list[str]:
    """The GRANTs that give other roles the rights they hold on the tables (on PostgreSQL): made again
    on the tables a rebuild makes, since a table dropped takes them with it (a league's players, whom
    `admin init-roles` granted them, could no longer keep the read models)."""
    if d.kind != "postgres":
        return []
    rows = d.select(cursor, "SELECT table_name, grantee, string_agg(privilege_type, ', ') FROM information_schema.role_table_grants "
                            "WHERE table_schema = COALESCE(NULLIF(?, ''), current_schema()) AND table_name = ANY(?) "
                            "AND grantee <> current_user GROUP BY table_name, grantee",
                    d.schema, [table.name for table in TABLES])
    by_name = {table.name: table for table in TABLES}
    return [f"GRANT {privileges} ON {d.table(by_name[name])} TO {_role(grantee)}" for name, grantee, privileges in rows]


def _role(name: str) -> str:
    """A role's name as SQL writes it: PUBLIC, or a quoted identifier."""
    return name if name == "PUBLIC" else '"' + name.replace('"', '""') + '"'


# --- checking them -----------------------------------------------------------------------------------


# What a user does about tables that differ from the events or cannot be read: the events are the truth.
REBUILD_REPAIRS = "`campaign rebuild` makes the read models again from the events"


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


@dataclass(frozen=True)
class TrackingRow:
    """A campaign's row of rm_tracking: the position and head its read-model tables reflect, and
    the format of their rows (None: format 1)."""

    campaign_id: str
    position: int
    head: str
    rows_format: int | None


@dataclass(frozen=True)
class StoredReadModels:
    """A campaign's read-model tables as stored, read in one transaction: its tracking row, and each
    table's rows summed up (see _RowSums)."""

    tracked: TrackingRow
    sums: dict[str, _RowSums]


@dataclass
class HeldReadModels:
    """A campaign's read-model tables read in one transaction: their tracking row (`tracked`: None
    where nothing was stored, or the refusal to raise once the chain is named) when it begins, their
    rows' sums (`stored`) when `read` is called, from the same snapshot of the database."""

    tracked: TrackingRow | IntegrityFailure | None
    stored: StoredReadModels | None = None
    other_format: int | None = None  # the format of rows another version wrote (tracked is then None)
    _cursor: Any = None
    _dialect: Dialect | None = None

    def read(self) -> None:
        """Sum the tables' rows up (IntegrityFailure where they cannot be read); nothing to do where
        nothing was tracked or the sums were read with the tracking row."""
        if not isinstance(self.tracked, TrackingRow) or self.stored is not None:
            return
        with _readable_tables():
            self.stored = StoredReadModels(self.tracked, _stored_sums(self._cursor, self._dialect, self.tracked.campaign_id))


@contextlib.contextmanager
def held_read_models(store: Store, campaign_id: uuid.UUID) -> Iterator[HeldReadModels]:
    """The campaign's read-model tables in one read transaction held open until the block ends, on a
    connection of its own (the store opened again; on PostgreSQL at REPEATABLE READ): `verify` reads
    their tracking row before the chain, so that the position they reflect is one the chain holds,
    and their rows where that row moved on before another process could read them (`stored_as_tracked`),
    as they were when its reading began. Where the store cannot be opened again (one held in
    memory), everything is read at once."""
    d = dialect(store)
    cid = str(campaign_id)
    if d is None:
        yield HeldReadModels(tracked=None)
        return
    with contextlib.ExitStack() as held_open:
        cursor = _opened_again(store, held_open)
        if cursor is not None:
            yield _tracked(cursor, d, cid, read_now=False)
            return
    try:
        with _readable_tables(), store.sql() as own:
            held = _tracked(own, d, cid, read_now=True)
    except IntegrityFailure as refused:
        held = HeldReadModels(tracked=refused)
    yield held


def _opened_again(store: Store, held_open: contextlib.ExitStack) -> Any:
    """A cursor in a transaction on the store opened again, kept open by `held_open`; None where the
    store cannot be opened again (held in memory, or its server refuses another connection)."""
    if not store.opens_elsewhere:
        return None
    try:
        again = store.reopened()
        held_open.callback(again.close)
        return held_open.enter_context(again.sql())
    except Exception:  # noqa: BLE001 - whatever keeps it from opening again, the tables are read as before
        held_open.close()
        return None


def _tracked(cursor: Any, d: Dialect, cid: str, *, read_now: bool) -> HeldReadModels:
    """The tracking row read (and, with `read_now` or without a tracking row, the rows' sums too)."""
    try:
        with _readable_tables():
            _repeatable_read(cursor, d)
            if not tables_exist(cursor, d):
                return HeldReadModels(tracked=None)  # never written: nothing to compare
            if not has_format_column(cursor, d):
                return HeldReadModels(tracked=None, other_format=1)
            tracked = _tracking_row(cursor, d, cid)
            if tracked is not None and tracked.rows_format != ROWS_FORMAT:
                return HeldReadModels(tracked=None, other_format=tracked.rows_format or 1)
            if tracked is None:
                if any(table_sums.count for table_sums in _stored_sums(cursor, d, cid).values()):
                    raise IntegrityFailure(f"{TRACKING.name}: no row for campaign {cid}, yet its read-model rows exist")
                return HeldReadModels(tracked=None)
    except IntegrityFailure as refused:
        return HeldReadModels(tracked=refused)
    held = HeldReadModels(tracked=tracked, _cursor=cursor, _dialect=d)
    if read_now:
        held.read()  # its refusal is the caller's to keep for after the chain
    return held


def stored_as_tracked(store: Store, tracked: TrackingRow) -> StoredReadModels | None:
    """The tables' rows summed up in a transaction of `store`'s own (in a long history, the process
    beside the chain's reading) where their tracking row is still `tracked`, so they are the rows it
    tracked; None where it moved on (a writer committed since it was read: `HeldReadModels.read` then
    reads them as they were)."""
    d = require_sql(store)
    with _readable_tables(), store.sql() as cursor:
        _repeatable_read(cursor, d)
        if _tracking_row(cursor, d, tracked.campaign_id) != tracked:
            return None
        return StoredReadModels(tracked, _stored_sums(cursor, d, tracked.campaign_id))


def _tracking_row(cursor: Any, d: Dialect, cid: str) -> TrackingRow | None:
    rows = d.select(cursor, f"SELECT position, head, format FROM {d.table(TRACKING)} WHERE campaign_id = ?", cid)
    return TrackingRow(cid, *rows[0]) if rows else None


def _repeatable_read(cursor: Any, d: Dialect) -> None:
    """On PostgreSQL, every statement of the transaction sees its first one's snapshot (SQLite's
    reads do in any case)."""
    if d.kind == "postgres":
        cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")


def _stored_sums(cursor: Any, d: Dialect, cid: str) -> dict[str, _RowSums]:
    return {table.name: _RowSums.of(_pages_of(cursor, d, table, cid)) for table in READ_MODELS}


def rebuilt_sums(tracked: TrackingRow | None, records: Iterable[Record], voids: Sequence[Record]) -> dict[str, _RowSums] | None:
    """The sums of the read-model rows a rebuild from the campaign's events gives (`records`, its
    verified history in order, read up to the position the tracking row names; `voids`, its
    transaction.voided records), holding no row: the rows are summed up as they are computed. None
    where nothing was tracked; a tracking row the chain does not hold raises IntegrityFailure."""
    if tracked is None:
        return None
    position, head = tracked.position, tracked.head
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
        raise IntegrityFailure(f"{TRACKING.name}: row (campaign_id={tracked.campaign_id}) says the tables reflect "
                               f"position {position} with head {head[:16]}, which is not in the chain")
    if not position:
        return {table.name: _RowSums() for table in READ_MODELS}  # tables at position 0 hold no row
    return expected


def compare(stored: StoredReadModels | None, rebuilt: dict[str, _RowSums] | None) -> ReadModelCheck | None:
    """The stored tables (`HeldReadModels.stored`) against a rebuild's sums (`rebuilt_sums`): None
    where nothing was stored. Which row differs, when a table's sums do, is named by
    `name_difference` (it holds both tables)."""
    if stored is None or rebuilt is None:
        return None
    differ = [table.name for table in READ_MODELS if stored.sums[table.name] != rebuilt[table.name]]
    return ReadModelCheck(stored.tracked.position, len(READ_MODELS), differ)


@dataclass(frozen=True)
class OtherFormat:
    """Read-model tables whose rows another version of campaign-ledger computed (`rows_format`): not
    compared with the events, since this version words them otherwise; the next command that shows or
    changes the campaign computes them again."""

    rows_format: int

    def __str__(self) -> str:
        by = "an older" if self.rows_format < ROWS_FORMAT else "a newer"
        return (f"{by} version of campaign-ledger wrote them (rows of format {self.rows_format}; this one "
                f"writes format {ROWS_FORMAT}); the next command that shows or changes the campaign computes them "
                "again from the events, as `campaign rebuild` does")


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
    def of(cls, pages: Iterable[list[Row]]) -> _RowSums:
        sums = cls()
        for page in pages:
            sums.add(page)
        return sums

    def add(self, rows: list[Row]) -> None:
        self.count += len(rows)
        self.total = (self.total + sum(map(hash, rows))) % (1 << 64)


def _pages_of(cursor: Any, d: Dialect, table: Table, campaign_id: str) -> Iterator[list[Row]]:
    """A campaign's rows of a table as tuples, a page at a time (on PostgreSQL through a cursor on
    the server: the client's own would fetch them all at once)."""
    if d.kind == "postgres":
        from psycopg.rows import tuple_row  # deferred: the PostgreSQL driver is imported only when it is used

        # psycopg's own connection (eventsourcing hands its cursor out as it is)
        reading = cursor.connection.cursor(name=f"rm_check_{table.name}", row_factory=tuple_row)
    else:
        reading = tuple_cursor(cursor)
    try:
        d.execute(reading, f"SELECT {', '.join(table.column_names)} FROM {d.table(table)} WHERE campaign_id = ?", campaign_id)
        while page := reading.fetchmany(PAGE_ROWS):
            yield page
    finally:
        reading.close()


PAGE_ROWS = 1000


@contextlib.contextmanager
def _readable_tables() -> Iterator[None]:
    try:
        yield
    except Exception as error:  # noqa: BLE001 - the driver's error types vary: a damaged table, a dropped column
        raise IntegrityFailure(f"the read-model tables cannot be read ({' '.join(str(error).split())}): "
                               f"{REBUILD_REPAIRS}") from None


def name_difference(store: Store, campaign_id: uuid.UUID, checked: ReadModelCheck, records: Iterable[Record]) -> None:
    """Raise IntegrityFailure naming the first row that differs (tables in the order of
    docs/read-models.md, rows by key) among the tables `check` found to differ; both tables are held."""
    d = require_sql(store)
    cid = str(campaign_id)
    tables = [table for table in READ_MODELS if table.name in checked.differ]
    with _readable_tables(), store.sql() as cursor:
        stored = {table.name: [row for page in _pages_of(cursor, d, table, cid) for row in page] for table in tables}
    reflected = [record for record in records if record.position <= checked.position]
    _state, expected = all_rows(reflected) if checked.position else (None, empty_rows())
    for table in tables:
        found = {table.key_of(row): row for row in stored[table.name]}
        wanted = {table.key_of(row): row for row in expected[table.name]}
        for row_key in sorted(set(found) | set(wanted), key=_sort_key):
            if found.get(row_key) != wanted.get(row_key):
                raise IntegrityFailure(f"{_row_difference(table, row_key, found.get(row_key), wanted.get(row_key))}; "
                                       f"{REBUILD_REPAIRS}")
