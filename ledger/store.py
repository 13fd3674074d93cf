"""Persistence through the eventsourcing library, with a msgspec mapper.

A store URL picks the backend: `sqlite:///PATH` (the default `sqlite:///campaign.db`),
`postgresql://USER@HOST:PORT/DB` (a league server) or `memory://` (tests). One campaign is one
eventsourcing aggregate sequence; snapshots of the folded state live in another sequence of the
same database, outside the campaign's stream. The secret dice seeds never sit in a SQLite campaign
file (which players copy): they are kept in the dice keeper's key file (ledger.keyfile); seeds that
an older version left in the file's `stored_seeds` table move there on first use, once. A
PostgreSQL store keeps them in the database (see ledger.dealer for the roles that hide them), a
memory store in memory. The PostgreSQL driver is imported only when a PostgreSQL store is opened.

Longer than the project's ~500 lines on purpose: it is the one place that speaks to the three
backends (opening, paging, snapshots, writer turns, settings), and splitting it would spread each
backend's special cases over several modules.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import itertools
import os
import random
import sqlite3
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, NamedTuple, TypeVar
from urllib.parse import ParseResult, unquote, urlparse, urlunparse

import msgspec
from eventsourcing.application import Application
from eventsourcing.persistence import (
    IntegrityError,
    InterfaceError,
    Mapper,
    OperationalError,
    PersistenceError,
    StoredEvent,
    Transcoder,
)
from eventsourcing.utils import retry

from ledger import events as ev
from ledger.beside import NotBeside
from ledger.dealer import Dealer
from ledger.errors import BadInput, Conflict, IntegrityFailure, LedgerError, NotFound, RuleViolation
from ledger.keyfile import KeyFile
from ledger.records import Record, hash_body

DEFAULT_STORE = "sqlite:///campaign.db"
SNAPSHOT_TOPIC = "ledger.snapshot"
SEED_TOPIC = "ledger.seed"
CURRENT_TOPIC = "ledger.current"  # `campaign use NAME`: the store's current campaign
TEXT_TOPICS = (SEED_TOPIC, CURRENT_TOPIC)
# The one sequence, outside every campaign, that records which campaign is current.
CURRENT_ID = uuid.uuid5(uuid.NAMESPACE_URL, "campaign-ledger:current-campaign")
PAGE = 1000  # events read from the store at a time
_NO_POSITION_ABOVE = 2**63 - 1  # the largest 64-bit integer (an SQLite integer, a bigint): no upper bound
_CHECKSUM = b"#sha256="  # a snapshot's stored bytes: this, the hex digest of the state, a newline, the state


class StoredRecord(msgspec.Struct, frozen=True, kw_only=True):
    """A record as the store writes it: its fields in this order, the event as its own JSON."""

    position: int
    tx: int
    actor: str
    recorded_at: str
    prev_hash: str
    hash: str
    event: msgspec.Raw


@dataclass(frozen=True)
class Item:
    """What the eventsourcing event store holds: a record, a snapshot or a seed of one campaign."""

    originator_id: uuid.UUID
    originator_version: int
    topic: str
    value: Any  # Record, bytes of an encoded state, a seed's hex, or the current campaign's id


class MsgspecMapper(Mapper[uuid.UUID]):
    """Encodes records with msgspec; the stored topic is the event's stable tag, never a class path."""

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        item: Item = domain_event
        if item.topic == SNAPSHOT_TOPIC:
            state = item.value
        elif item.topic in TEXT_TOPICS:
            state = item.value.encode()
        else:
            state = encode_record(item.value)
        return StoredEvent(
            originator_id=item.originator_id,
            originator_version=item.originator_version,
            topic=item.topic,
            state=state,
        )

    def to_domain_event(self, stored_event: StoredEvent) -> Any:
        if stored_event.topic == SNAPSHOT_TOPIC:
            # A snapshot that is not bytes fails its checksum: a lost cache, passed over.
            state = stored_event.state
            value: Any = bytes(state) if isinstance(state, (bytes, bytearray, memoryview)) else b""
        elif stored_event.topic in TEXT_TOPICS:
            try:
                value = stored_bytes(stored_event.originator_version, stored_event.state, "value").decode()
            except UnicodeDecodeError as error:
                raise IntegrityFailure(f"position {stored_event.originator_version}: the stored value is not text "
                                       f"({error}); the store was damaged or edited") from None
        else:
            value = stored_record(stored_event)
        return Item(
            originator_id=_uuid(stored_event.originator_id),
            originator_version=stored_event.originator_version,
            topic=stored_event.topic,
            value=value,
        )


class PassThroughTranscoder(Transcoder):
    """The mapper encodes with msgspec itself; the library's transcoder is never asked."""

    def encode(self, obj: Any) -> bytes:
        raise NotImplementedError("records are encoded by MsgspecMapper")

    def decode(self, data: bytes) -> Any:
        raise NotImplementedError("records are decoded by MsgspecMapper")


_RECORD_DECODER = msgspec.json.Decoder(StoredRecord)


class RawRow(NamedTuple):
    """A campaign's stored event as the store holds it."""

    originator_version: int
    topic: str
    state: bytes


def stored_bytes(position: int, state: Any, what: str = "event") -> bytes:
    """A stored value as bytes. An edit made with an SQL client may leave text where the library
    wrote a blob (read as its UTF-8), or a number or NULL (IntegrityFailure)."""
    if isinstance(state, (bytes, bytearray, memoryview)):
        return bytes(state)
    if isinstance(state, str):
        return state.encode("utf-8", "surrogateescape")
    kind = "NULL" if state is None else f"the number {state!r:.20}"
    raise IntegrityFailure(f"position {position}: the stored {what} is {kind}, not its JSON; the store was damaged "
                           "or edited: see `campaign verify`")


def tuple_cursor(cursor: Any) -> sqlite3.Cursor:
    """A cursor in the transaction of the library's SQLite `cursor` whose rows are plain tuples, not
    the sqlite3.Row the library's cursors make of each row (a cost of its own, row after row)."""
    plain = cursor.sqlite_cursor.connection.cursor()
    plain.row_factory = None
    return plain


def stored_record(row: RawRow | StoredEvent) -> Record:
    """The record a stored event holds (IntegrityFailure if it does not decode)."""
    try:
        return decode_record(stored_bytes(row.originator_version, row.state))
    except (msgspec.DecodeError, UnicodeDecodeError) as error:
        raise IntegrityFailure(
            f"position {row.originator_version}: the stored event does not decode ({error}); "
            "the store was damaged or edited: see `campaign verify`"
        ) from None


def encode_record(record: Record) -> bytes:
    """A record as the store writes it (StoredRecord's fields, in their order)."""
    return msgspec.json.encode(record)


class _EventRow(NamedTuple):
    """A record of a campaign as a row of the events' table, its campaign aside."""

    position: int
    topic: str
    state: bytes


def _event_row(record: Record) -> _EventRow:
    return _EventRow(record.position, ev.tag_of(record.event), encode_record(record))


def decode_record(data: bytes) -> Record:
    raw = _RECORD_DECODER.decode(data)
    return Record(
        position=raw.position,
        tx=raw.tx,
        actor=raw.actor,
        recorded_at=raw.recorded_at,
        prev_hash=raw.prev_hash,
        hash=raw.hash,
        event=ev.decode_event(raw.event),
    )


def _unsound(position: int, problem: str) -> IntegrityFailure:
    return IntegrityFailure(f"position {position}: {problem}; the store was damaged or edited, "
                            "and `campaign verify` says where")


def _uuid(value: uuid.UUID | str) -> uuid.UUID:
    return value if isinstance(value, uuid.UUID) else uuid.UUID(str(value))


class LedgerApplication(Application[uuid.UUID]):
    name = "CampaignLedger"
    env = {  # noqa: RUF012 - the library reads this class attribute
        "MAPPER_TOPIC": "ledger.store:MsgspecMapper",
        "TRANSCODER_TOPIC": "ledger.store:PassThroughTranscoder",
        "IS_SNAPSHOTTING_ENABLED": "y",
    }


def public_url(url: str) -> str:
    """The store URL as it may be shown: a password never appears in a message, a log or an export."""
    try:
        parsed = urlparse(url)
        if parsed.password is None:
            return url
        host = parsed.netloc.rpartition("@")[2]
        return urlunparse(parsed._replace(netloc=f"{parsed.username or ''}:***@{host}"))
    except ValueError:  # not a URL urllib splits (an IPv6 address without its closing bracket)
        # Whatever lies between the first ':' after '//' and the last '@' may be a password.
        scheme, slashes, rest = url.partition("//")
        start, end = rest.find(":"), rest.rfind("@")
        return scheme + slashes + (rest[:start + 1] + "***" + rest[end:] if 0 <= start < end else rest)


def _split_url(url: str) -> ParseResult:
    """The store URL's parts; BadInput for one that is not a URL (urllib's ValueError), or that has
    a query or a fragment: no store reads one, and ignoring it would open the store otherwise than
    asked (sqlite:///league.db?mode=ro was written to) or drop a setting (?sslmode=require)."""
    try:
        parsed = urlparse(url)
    except ValueError as error:
        raise BadInput(f"store '{public_url(url)}' is not a URL ({error}): use sqlite:///PATH, "
                       "postgresql://USER@HOST:PORT/DB or memory://") from None
    if parsed.query or parsed.fragment:
        # Shown up to where they begin (the first '?' or '#'): a query may hold a password; so may
        # what follows, where an '@' there says a password holding '?' or '#' was cut.
        start = min(at for at in (url.find("?"), url.find("#")) if at >= 0)
        shown = public_url(url[:start]) if "@" not in url[start:] else url.partition("//")[0] + "//…"
        raise BadInput(f"store '{shown}' is followed by {url[start]}…: a store URL takes no query or fragment "
                       "(in a file name or a password, write ? as %3F and # as %23)")
    return parsed


def store_failure(url: str, error: BaseException) -> LedgerError:
    """A database's own failure as a message for people: a damaged file says so and what to do."""
    text = _redacted(url, str(error))
    # SQLite's own words for a damaged file, and its reader's for text that is not UTF-8 (bytes flipped in a row)
    if "malformed" in text or "not a database" in text or "disk image" in text or "Could not decode to UTF-8" in text:
        return damaged(url, text)
    if "locked" in text or "busy" in text:
        return Conflict(f"the store {public_url(url)} is busy ({text}): try again")
    if lacks_privilege(error):  # a role the league's administrator never gave a player's rights
        role = settings_for(url).get("POSTGRES_USER")
        return BadInput(f"role {role} may not use the campaigns of {public_url(url)} ({text}): connect as a player's "
                        f"role, or have the league's administrator run `campaign admin init-roles --player {role}`")
    return BadInput(f"the store {public_url(url)} failed: {text}")


def damaged(url: str, found: str) -> IntegrityFailure:
    """The store's file is damaged (`found` says how): nothing was written, and what to do."""
    return IntegrityFailure(f"the store {public_url(url)} is damaged ({found}); nothing was written to it. "
                            "Restore a copy made by `campaign backup`, or import an exported trail into a new store")


def _redacted(url: str, text: str) -> str:
    """A driver's message on one line, without the store's password (a driver may quote its DSN)."""
    text = " ".join(text.split()).replace(url, public_url(url))
    try:
        password = urlparse(url).password
    except ValueError:
        return text
    for form in {password, unquote(password or "")} - {None, ""}:
        text = text.replace(form, "***")
    return text


SQLITE_MODULE = "ledger.sqlite:Factory"  # eventsourcing's SQLite module, its statements kept prepared
KINDS = {SQLITE_MODULE: "sqlite", "eventsourcing.postgres": "postgres", "eventsourcing.popo": "popo"}


def _holds_no_database(path: str) -> bool:
    """No file, or an empty one (`touch campaign.db`, a file saved empty) with no write-ahead log
    beside it: SQLite would make a new database there, which a command that only reads must not."""
    if not os.path.exists(path):
        return True
    wal = path + "-wal"
    return os.path.getsize(path) == 0 and not (os.path.exists(wal) and os.path.getsize(wal) > 0)


def settings_for(url: str, *, create: bool = True) -> dict[str, str]:
    """eventsourcing settings for a store URL, refusing what it cannot open.

    With `create=False` a SQLite file that does not exist (or holds nothing) is refused instead of
    created, so that a mistyped store URL in a command that only reads (or fails) leaves no empty
    database behind."""
    parsed = _split_url(url)
    shown = public_url(url)
    if parsed.scheme == "sqlite":
        path = unquote(parsed.path)
        path = path[1:] if path.startswith("/") else path  # sqlite:///rel.db, sqlite:////abs.db
        if parsed.netloc:
            path = parsed.netloc + ("/" + path if path else "")
        if not path:
            raise BadInput(f"store '{url}': give a file, e.g. sqlite:///campaign.db")
        folder = os.path.dirname(path)
        if folder and not os.path.isdir(folder):
            hint = f" (an absolute path takes four slashes: sqlite:////{path})" if not path.startswith("/") else ""
            raise BadInput(f"store '{url}': folder '{folder}' does not exist{hint}")
        if os.path.isdir(path):
            raise BadInput(f"store '{url}' is a folder: give a file in it, e.g. {url.rstrip('/')}/campaign.db")
        if not create and _holds_no_database(path):
            raise NotFound(f"no campaign in {url}: start one with `campaign new NAME`")
        return {"PERSISTENCE_MODULE": SQLITE_MODULE, "SQLITE_DBNAME": path}
    if parsed.scheme in ("postgresql", "postgres"):
        if importlib.util.find_spec("psycopg") is None:
            raise BadInput(
                f"store '{shown}': PostgreSQL support is not installed: pip install 'campaign-ledger[postgres]'"
                " (from a checkout: pip install -e '.[postgres]')"
            )
        if not parsed.path.strip("/"):
            raise BadInput(f"store '{shown}': name the database, e.g. postgresql://postgres@127.0.0.1:5432/test")
        try:
            port = parsed.port
        except ValueError:
            raise BadInput(f"store '{shown}': the port must be a number from 1 to 65535") from None
        settings = {
            "PERSISTENCE_MODULE": "eventsourcing.postgres",
            "POSTGRES_DBNAME": parsed.path.strip("/"),
            "POSTGRES_HOST": parsed.hostname or "127.0.0.1",
            "POSTGRES_PORT": str(port or 5432),
            "POSTGRES_USER": unquote(parsed.username or "postgres"),
            "POSTGRES_PASSWORD": unquote(parsed.password or ""),
            "POSTGRES_ENABLE_DB_FUNCTIONS": "y",
            "POSTGRES_CONNECT_TIMEOUT": "5",
        }
        return settings
    if parsed.scheme == "memory":
        return {"PERSISTENCE_MODULE": "eventsourcing.popo"}
    raise BadInput(
        f"store '{shown}' is not understood: use sqlite:///PATH, postgresql://USER@HOST:PORT/DB or memory://"
    )


def uses_key_file(url: str) -> bool:
    """Does a store at this URL keep its seeds in the dice keeper's key file (SQLite) ?"""
    return _split_url(url).scheme == "sqlite"


def _driver_errors(error: BaseException | None) -> Iterator[BaseException]:
    """This error and what caused it, those of them the database driver raised (with a SQLSTATE)."""
    while error is not None:
        if getattr(error, "sqlstate", None) is not None:
            yield error
        error = error.__cause__ or error.__context__


def lacks_privilege(error: BaseException | None) -> bool:
    """Is this (or what caused it) PostgreSQL's "insufficient privilege"?"""
    return any(e.sqlstate == "42501" for e in _driver_errors(error))  # type: ignore[attr-defined]


T = TypeVar("T")

UNIQUE_VIOLATION = "23505"
# Unique violation (of a catalog's index), duplicate table, duplicate object.
_SCHEMA_COLLISIONS = {UNIQUE_VIOLATION, "42P07", "42710"}


def _met_a_lost_processes_schema(error: BaseException) -> bool:
    """Did making the tables meet the schema statements of a process killed while it made them? Its
    schema lock (on a connection of its own) is gone with the process at once, while its session
    making the tables and functions may still commit: the next maker's statements on the same
    catalog rows then fail ("tuple concurrently updated"), and succeed when tried again."""
    return any(e.sqlstate in _SCHEMA_COLLISIONS or "tuple concurrently updated" in str(e)  # type: ignore[attr-defined]
               for e in _driver_errors(error))


SCHEMA_ATTEMPTS = 4


def _under_schema_lock(settings: dict[str, str], make: Callable[[], T]) -> T:
    """`make()`, which makes tables or functions (or finds them made), under the schema lock; tried
    again where it met the statements of a process killed while it made them."""
    attempt = 1
    while True:
        try:
            with _schema_lock(settings):
                return make()
        except Exception as error:  # the driver's own errors vary by backend
            if attempt == SCHEMA_ATTEMPTS or not _met_a_lost_processes_schema(error):
                raise
        time.sleep(0.1 * attempt)
        attempt += 1


def _application(settings: dict[str, str], *, make_tables: bool = True) -> LedgerApplication:
    if make_tables:
        try:
            return LedgerApplication(env=settings)
        except Exception as error:  # the driver's own errors vary by backend
            if not lacks_privilege(error):
                raise
            # A league player's role may not create (or re-create) the tables an administrator made.
    return LedgerApplication(env={**settings, "CREATE_TABLE": "n"})


def new_sqlite_file(url: str) -> str | None:
    """The path of the SQLite file a store URL names, if that file does not exist yet."""
    path = settings_for(url).get("SQLITE_DBNAME")
    return path if path is not None and not os.path.exists(path) else None


# Held while tables, types and functions are created in a PostgreSQL database: several processes
# opening one database at once would otherwise collide ("tuple concurrently updated").
SCHEMA_LOCK_KEY = 0x63616D706169676E  # "campaign"
WRITER_TURN_WAIT = 10.0  # seconds a writer waits for its turn on a campaign (see Store.writing)
RETRIES = 5  # tries of a write that lost an optimistic race
RETRY_PAUSE = 0.02  # seconds; the pause before try n is up to n times this


def pause_before_try(tries: int) -> None:
    """Jitter, so that two writers who collided do not collide again in lockstep."""
    time.sleep(random.uniform(0, RETRY_PAUSE * tries))  # noqa: S311 - not for dice


@contextlib.contextmanager
def _schema_lock(settings: dict[str, str]) -> Iterator[None]:
    if settings["PERSISTENCE_MODULE"] != "eventsourcing.postgres":
        yield
        return
    import psycopg  # deferred: the PostgreSQL driver is imported only when it is used

    connection = psycopg.connect(
        dbname=settings["POSTGRES_DBNAME"], host=settings["POSTGRES_HOST"], port=settings["POSTGRES_PORT"],
        user=settings["POSTGRES_USER"], password=settings["POSTGRES_PASSWORD"],
        connect_timeout=int(settings["POSTGRES_CONNECT_TIMEOUT"]), autocommit=True,
    )
    with connection:
        connection.execute("SELECT pg_advisory_lock(%s)", (SCHEMA_LOCK_KEY,))
        try:
            yield
        finally:
            connection.execute("SELECT pg_advisory_unlock(%s)", (SCHEMA_LOCK_KEY,))


def lock_schema(cursor: Any, kind: str) -> None:
    """Inside a transaction that creates tables: wait for any other creator (PostgreSQL only;
    SQLite lets one writer at a time in anyway)."""
    if kind == "postgres":
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK_KEY,))


def _why_unreachable(settings: dict[str, str]) -> str | None:
    """The server's own reason (no such database, unknown user, connection refused): the
    connection pool only says that it got no connection in time. SQLite's 'unable to open database
    file' does not say that the store's folder is read-only."""
    if settings["PERSISTENCE_MODULE"] == SQLITE_MODULE:
        folder = os.path.dirname(settings["SQLITE_DBNAME"]) or "."
        if os.access(folder, os.W_OK):
            return None
        return (f"unable to open database file: its folder {folder} is read-only, and SQLite keeps its -wal and "
                "-shm files beside the store, even to read it: keep the store in a folder you may write in")
    if settings["PERSISTENCE_MODULE"] != "eventsourcing.postgres":
        return None
    import psycopg  # deferred: the PostgreSQL driver is imported only when it is used

    try:
        psycopg.connect(
            dbname=settings["POSTGRES_DBNAME"], host=settings["POSTGRES_HOST"], port=settings["POSTGRES_PORT"],
            user=settings["POSTGRES_USER"], password=settings["POSTGRES_PASSWORD"],
            connect_timeout=int(settings["POSTGRES_CONNECT_TIMEOUT"]),
        ).close()
    except psycopg.Error as error:
        return " ".join(str(error).split())
    return None


def _refuse_gap(after: int) -> None:
    raise Conflict(f"the campaign holds fewer events than the {after} this was decided after; try again")


class _NoPipeline:
    """Where statements are not sent ahead (SQLite, in process), there is nothing to sync."""

    def sync(self) -> None:
        return None


_NO_PIPELINE = _NoPipeline()


# A writer run inside an append's transaction with its cursor. What it returns, if anything, is
# called once the server has answered the statements sent (on PostgreSQL they are sent ahead, see
# Store._appending), before the commit: what that raises undoes the transaction as the writer's own
# failure does.
Writer = Callable[[Any], Callable[[], None] | None]


class _WriterFailed(Exception):
    """A writer run inside an append's transaction failed: the transaction is undone."""


@contextlib.contextmanager
def _as_writer_failed(events_table: str) -> Iterator[None]:
    try:
        yield
    except Exception as error:  # the records are stored whatever went wrong after them
        if _collided(error, events_table):
            raise  # another writer's records at these positions: Conflict, not the writers' failure
        raise _WriterFailed from error


def _collided(error: Exception, events_table: str) -> bool:
    """Is `error` the events' own insert failing on the positions another writer stored? On
    PostgreSQL it is answered with the writers' statements, at the one sync."""
    diag = getattr(error, "diag", None)  # psycopg's errors name the table a constraint failed in
    return getattr(diag, "sqlstate", None) == UNIQUE_VIOLATION and getattr(diag, "table_name", None) == events_table


def _written_by(writers: Sequence[Writer], cursor: Any, events_table: str) -> list[Callable[[], None]]:
    with _as_writer_failed(events_table):
        return [check for write in writers if (check := write(cursor)) is not None]


def read_later(cursor: Any, sql: str, params: Sequence[Any]) -> Callable[[], list[tuple[Any, ...]]]:
    """Run a query in the transaction of `cursor` (the library's SQLite cursor, or psycopg's); the
    callable returned gives its rows. On PostgreSQL they are read when it is called, after the
    pipeline's next sync (reading them now would wait for the server in the middle of the
    transaction's statements); on SQLite at once."""
    if hasattr(cursor, "sqlite_cursor"):
        with contextlib.closing(tuple_cursor(cursor)) as plain:
            rows = plain.execute(sql, params).fetchall()
        return lambda: rows
    from psycopg.rows import tuple_row  # deferred: the PostgreSQL driver is imported only when it is used

    own = cursor.connection.cursor(row_factory=tuple_row)  # its own: the next statement replaces a cursor's result
    own.execute(sql, params, prepare=True)
    return own.fetchall


class Store:
    """A campaign database: streams of records, snapshots of state, and secret seeds."""

    def __init__(self, url: str = DEFAULT_STORE, *, create: bool = True, make_tables: bool = True):
        """`make_tables=False` opens a PostgreSQL store without making its tables (the event tables, their
        types and functions, and the topic index) where they are missing: `make_event_tables` makes them
        in a transaction of the caller's."""
        self.url = public_url(url)  # what messages show; the password stays in the settings only
        self._given_url = url  # to open the store again in another process
        settings = settings_for(url, create=create)
        self.kind = KINDS[settings["PERSISTENCE_MODULE"]]
        self._sqlite_path = settings.get("SQLITE_DBNAME")
        try:
            self.app = _under_schema_lock(settings, lambda: _application(settings, make_tables=make_tables))
        except Exception as error:  # the driver's own errors vary by backend
            # The driver's own error says why; the connection pool's only says that it timed out.
            told = type(error).__module__.startswith("psycopg")
            if isinstance(failure := store_failure(url, error), IntegrityFailure) or lacks_privilege(error):
                raise failure from None  # a damaged file is exit 3, as once it is open; a role without rights is named
            reason = _redacted(url, str(error if told else _why_unreachable(settings) or error))
            raise BadInput(f"cannot open store {self.url}: {reason}") from None
        assert self.app.snapshots is not None
        self._snapshots = self.app.snapshots
        self.keys = KeyFile() if uses_key_file(url) else None
        self.dealer = Dealer(settings) if self.kind == "postgres" else None
        self._open_settings = settings  # to take the schema lock again for a table made on first use
        self._seeds = None if self.keys or self.dealer else self.app.factory.event_store(
            mapper=self.app.mapper, recorder=self.app.factory.aggregate_recorder(purpose="seeds")
        )
        if make_tables:
            self._index_topics()

    @property
    def role(self) -> str | None:
        """The role a PostgreSQL store connects as (None for the others)."""
        return self._open_settings.get("POSTGRES_USER")

    def _index_topics(self) -> None:
        """Index the events by topic, so that `campaign_ids` (asked by nearly every command) reads
        the campaign.started rows instead of scanning every event. Made once per database (an
        existing store gets it the first time it is opened)."""
        if self.kind not in ("sqlite", "postgres"):
            return
        recorder: Any = self.app.recorder
        index = f"{recorder.events_table_name}_topic_idx"
        if self.kind == "sqlite":
            exists = "SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?"
            create = f"CREATE INDEX IF NOT EXISTS {index} ON {recorder.events_table_name} (topic)"
        else:
            exists = "SELECT 1 FROM pg_indexes WHERE schemaname = %s AND indexname = %s"
            create = self._postgres_topic_index
        params = (index,) if self.kind == "sqlite" else (recorder.datastore.schema, index)
        with recorder.datastore.transaction(commit=False) as cursor:
            cursor.execute(exists, params)
            if cursor.fetchone():
                return
        # Only a speed-up: a store that cannot take it now (a read-only file, or another process
        # making the same index this instant) is read without it.
        with contextlib.suppress(PersistenceError), recorder.datastore.transaction(commit=True) as cursor:
            cursor.execute(create)

    @property
    def _postgres_topic_index(self) -> str:
        recorder: Any = self.app.recorder
        table, schema = recorder.events_table_name, recorder.datastore.schema
        return f'CREATE INDEX IF NOT EXISTS {table}_topic_idx ON "{schema}".{table} (topic, notification_id)'

    def make_event_tables(self, cursor: Any) -> None:
        """Make the event tables of a PostgreSQL store opened with `make_tables=False` (events, snapshots
        and settings, with the type and the function they use, and the topic index), those missing, in
        the transaction of the caller's `cursor` (`admin init-roles`: all it makes, or nothing); opening
        the store makes each in transactions of its own. A table already there is left to its recorder,
        as the store's opening leaves it."""
        import psycopg  # deferred: the PostgreSQL driver is imported only when it is used

        # The settings' recorder is made before the lock: made on first use, it takes the schema lock itself.
        recorders = (self.app.recorder, self.app.snapshots.recorder, self._settings.recorder)  # type: ignore[union-attr]
        lock_schema(cursor, self.kind)
        schema = self.app.recorder.datastore.schema  # type: ignore[attr-defined]
        missing = []
        for recorder in recorders:
            cursor.execute("SELECT to_regclass(%s) IS NULL", (f'"{schema}".{recorder.events_table_name}',))
            if cursor.fetchone()[0]:
                missing.append(recorder)
        statements = [statement for recorder in missing for statement in recorder.sql_create_statements]
        types = {text: statement for statement in statements if "CREATE TYPE" in (text := statement.as_string())}
        for statement in types.values():
            # The tables share one type, which takes no IF NOT EXISTS: a savepoint keeps the transaction
            # going where it is there.
            with contextlib.suppress(psycopg.errors.DuplicateObject), cursor.connection.transaction():
                cursor.execute(statement)
        for statement in statements:
            if "CREATE TYPE" not in statement.as_string():
                cursor.execute(statement)
        if self.app.recorder in missing:
            cursor.execute(self._postgres_topic_index)

    @property
    def opens_elsewhere(self) -> bool:
        """Can another process open this store and see what this one sees (not one held in memory)?"""
        memory = self._sqlite_path is not None and (self._sqlite_path == ":memory:" or "mode=memory" in self._sqlite_path)
        return self.kind in ("sqlite", "postgres") and not memory

    def reopened(self) -> Store:
        """This store opened again (in a forked process, which must not use this one's connections);
        NotBeside where it cannot be (its server refuses another connection, say)."""
        try:
            return Store(self._given_url, create=False)
        except LedgerError as error:
            raise NotBeside(str(error)) from error

    def close(self) -> None:
        if self.dealer is not None:
            self.dealer.close()
        self.app.close()

    def writing(self, campaign_id: uuid.UUID) -> contextlib.AbstractContextManager[None]:
        """Held by a writer of the campaign from deciding to its commit, which holds the read models'
        rows (an update left for after it locks their tracking row itself). On PostgreSQL the
        writers of one campaign take turns (an advisory lock) instead of deciding at once and all
        but one deciding again: eight clients on one campaign ran out of retries. One that waited
        WRITER_TURN_WAIT (another stopped at a prompt, say) goes ahead, and a commit that lost the
        race is decided again as before. Other stores keep to that optimistic check alone."""
        return self._turn(campaign_id)

    @property
    def writers_take_turns(self) -> bool:
        return self.dealer is not None

    def _turn(self, stream_id: uuid.UUID) -> contextlib.AbstractContextManager[None]:
        if not self.writers_take_turns:
            return contextlib.nullcontext()
        return self.dealer.turn(int.from_bytes(stream_id.bytes[:8], "big", signed=True), WRITER_TURN_WAIT)

    # --- the campaign streams -------------------------------------------------------------------

    def campaign_ids(self) -> list[uuid.UUID]:
        """Every campaign in the store, in the order they were started."""
        return [_uuid(row.originator_id) for row in self.rows_of_topic("campaign.started")]

    def rows_of_topic(self, topic: str) -> Iterator[StoredEvent]:
        """The stored events of one topic in every campaign, in the order they were stored, found by
        the topic index (not a scan of every event), a page at a time."""
        start = 1
        while True:
            page = self.app.recorder.select_notifications(start, 500, topics=[topic])
            yield from page
            if len(page) < 500:
                return
            start = page[-1].id + 1

    def campaign_names(self) -> Iterator[tuple[uuid.UUID, str]]:
        """Every campaign's id and name, in the order they were started, read from the event that
        started it (checked against its hash): finding a campaign by name loads no campaign."""
        for started in self.rows_of_topic("campaign.started"):
            record: Record = self.app.mapper.to_domain_event(started).value
            if record.hash != hash_body(record.body()):
                raise _unsound(record.position, "the stored event does not match its hash")
            yield _uuid(started.originator_id), record.event.name

    def records(
        self, campaign_id: uuid.UUID, *, after: int = 0, upto: int | None = None, check: bool = True
    ) -> Iterator[Record]:
        """The campaign's records after position `after` (up to `upto`), each checked against its
        own hash and its link to the one before: a damaged or edited store is an error, never a
        quietly different answer (`campaign verify` locates and explains it). Only a reader that
        shows the failure itself (a report of a store that does not verify) passes `check=False`."""
        expected = after + 1
        previous_hash = None
        # A read of the whole history is checked to reach the store's last event (see raw_rows).
        for row in self.raw_rows(campaign_id, after=after, upto=upto, whole=check and after == 0 and upto is None):
            record = stored_record(row)
            if not check:
                yield record
                continue
            if record.position != expected:
                raise _unsound(record.position, f"the stored events go from {expected - 1} to {record.position}")
            if record.hash != hash_body(record.body()):
                raise _unsound(record.position, "the stored event does not match its hash")
            if previous_hash is not None and record.prev_hash != previous_hash:
                raise _unsound(record.position, "the stored event does not follow the one before it")
            expected, previous_hash = expected + 1, record.hash
            yield record

    def records_tagged(self, campaign_id: uuid.UUID, tags: Sequence[str], *, upto: int | None = None) -> list[Record]:
        """The campaign's records of events with these tags (up to position `upto`), in order, read
        through the topic index instead of the whole history; each checked against its own hash
        (their links cannot be: the records between them are not read)."""
        found: list[Record] = []
        start = 1
        while True:
            page = self.app.recorder.select_notifications(start, PAGE, topics=list(tags))
            for row in page:
                if _uuid(row.originator_id) != campaign_id or (upto is not None and row.originator_version > upto):
                    continue
                record: Record = self.app.mapper.to_domain_event(row).value
                if record.position != row.originator_version or record.hash != hash_body(record.body()):
                    raise _unsound(row.originator_version, "the stored event does not match its hash")
                found.append(record)
            if len(page) < PAGE:
                return sorted(found, key=lambda record: record.position)
            start = page[-1].id + 1

    def last_position(self, campaign_id: uuid.UUID) -> int:
        """The position of the campaign's latest stored event (0: none)."""
        rows = self.app.recorder.select_events(campaign_id, desc=True, limit=1)
        return rows[0].originator_version if rows else 0

    def raw_rows(self, campaign_id: uuid.UUID, *, after: int = 0, upto: int | None = None,
                 whole: bool = False) -> Iterator[RawRow]:
        """The stored bytes (for verification that must not trust the decoder), in order, read a page
        at a time: a campaign of any length is never held whole. `whole`: every row up to `upto` (the
        store's last, asked first, when None) must come back, or the store is damaged: a damaged
        index can end a forward read early, and a trail cut short there verifies on its own. Rows are
        only ever added, so a writer appending meanwhile changes nothing of this."""
        if whole and upto is None:
            upto = self.last_position_of_whole(campaign_id)
        while True:
            page = self._raw_page(campaign_id, after, upto)
            yield from page
            if page:
                after = page[-1].originator_version
            if len(page) < PAGE:
                break
        if whole and upto is not None and after < upto:
            raise _unsound(after + 1, f"a read of the history ends at event {after}, but the store holds {upto}")

    def last_position_of_whole(self, campaign_id: uuid.UUID) -> int:
        """The position a read of the whole history must reach: `last_position`, and in a SQLite file
        the latest event found without the events' index too, from the newest row back (a campaign's
        rows are appended in order). A damaged index gave a read and `last_position` the same wrong
        last event, and a trail cut there verified."""
        indexed = self.last_position(campaign_id)
        if self._sqlite_path is None:
            return indexed
        table = self.app.recorder.events_table_name  # type: ignore[attr-defined]
        statement = (f"SELECT originator_version FROM {table} NOT INDEXED WHERE originator_id=? "
                     "ORDER BY rowid DESC LIMIT 1")
        with self.app.recorder.datastore.transaction(commit=False) as cursor:  # type: ignore[attr-defined]
            with contextlib.closing(tuple_cursor(cursor)) as plain:
                plain.execute(statement, (campaign_id.hex,))
                row = plain.fetchone()
        return max(indexed, row[0] if row else 0)

    def _raw_page(self, campaign_id: uuid.UUID, after: int, upto: int | None) -> list[RawRow]:
        if self.kind == "postgres":
            return self._postgres_page(campaign_id, after, upto)
        if self._sqlite_path is None:
            return [RawRow(row.originator_version, row.topic, stored_bytes(row.originator_version, row.state))
                    for row in self.app.recorder.select_events(campaign_id, gt=after or None, lte=upto, limit=PAGE)]
        # A plain query of the library's table, its rows taken as they come: select_events makes a UUID
        # and an object of each row, four times the cost of reading it (most of what reading a chain
        # took). The state as a blob: text an SQL client left there would otherwise fail to read as UTF-8.
        table = self.app.recorder.events_table_name  # type: ignore[attr-defined]
        statement = (f"SELECT originator_version, topic, CAST(state AS BLOB) AS state FROM {table} "
                     "WHERE originator_id=? AND originator_version>? AND originator_version<=? "
                     "ORDER BY originator_version LIMIT ?")
        bound = _NO_POSITION_ABOVE if upto is None else upto
        with self.app.recorder.datastore.transaction(commit=False) as cursor:  # type: ignore[attr-defined]
            with contextlib.closing(tuple_cursor(cursor)) as plain:
                plain.execute(statement, (campaign_id.hex, after, bound, PAGE))
                return [RawRow(version, topic, state if type(state) is bytes else stored_bytes(version, state))
                        for version, topic, state in plain.fetchall()]

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)  # as the library's select_events
    def _postgres_page(self, campaign_id: uuid.UUID, after: int, upto: int | None) -> list[RawRow]:
        """A page of the campaign's stored events by one prepared query of the library's table, on a
        connection of its pool (which turns the driver's errors into the library's), its rows taken
        as plain tuples: select_events composes its statement at every call and makes a UUID, a
        dictionary and an object of each row, which took twice as long for a page of 338 events."""
        from psycopg.rows import tuple_row  # deferred: the PostgreSQL driver is imported only when it is used

        bound = _NO_POSITION_ABOVE if upto is None else upto
        with self.app.recorder.datastore.get_connection() as conn, conn.cursor(row_factory=tuple_row) as cursor:  # type: ignore[attr-defined]
            cursor.execute(self._postgres_select_page, (campaign_id, after, bound, PAGE), prepare=True)
            return [RawRow(version, topic, stored_bytes(version, state)) for version, topic, state in cursor.fetchall()]

    @cached_property
    def _postgres_select_page(self) -> Any:
        from psycopg.sql import SQL, Identifier  # deferred: the PostgreSQL driver is imported only when it is used

        recorder: Any = self.app.recorder
        return SQL("SELECT originator_version, topic, state FROM {schema}.{table} WHERE originator_id = %s "
                   "AND originator_version > %s AND originator_version <= %s ORDER BY originator_version LIMIT %s").format(
            schema=Identifier(recorder.datastore.schema), table=Identifier(recorder.events_table_name))

    def append(
        self, campaign_id: uuid.UUID, records: Sequence[Record], *, within: Sequence[Writer] = (),
        each_page: Sequence[Writer] = (), before_commit: Callable[[], None] = lambda: None,
    ) -> None:
        """Store one transaction atomically; another writer's records at these positions → Conflict.
        A long history (an imported trail) is encoded and written a page at a time inside one
        database transaction, so its encoded form is never held whole. Each of `each_page` is run
        with the transaction's cursor after each page, each of `within` after the last (not for
        memory://, which has no database transaction), so that what they write is committed with
        the records, durably, once; if one fails, the transaction is undone and the records (read
        again) are stored alone. `before_commit` is called last: what it raises undoes the
        transaction (an import waits there for its check beside)."""
        try:
            if self.kind == "popo":
                items = [self._item(campaign_id, record) for record in records]
                if items and self.last_position(campaign_id) < (after := items[0].originator_version - 1):
                    _refuse_gap(after)
                before_commit()
                # Not Application.save, which checks every item against protocols (slow).
                self.app.events.put(items)
                return
            with self._journaled_while_empty() if each_page else contextlib.nullcontext():
                if within or each_page:
                    with contextlib.suppress(_WriterFailed):
                        self._insert(campaign_id, records, within, each_page, before_commit)
                        return
                self._insert(campaign_id, records, (), (), before_commit)
        except IntegrityError:
            raise Conflict("another command was recorded in this campaign at the same time") from None

    @staticmethod
    def _item(campaign_id: uuid.UUID, record: Record) -> Item:
        return Item(campaign_id, record.position, ev.tag_of(record.event), record)

    def _insert(
        self, campaign_id: uuid.UUID, records: Iterable[Record], within: Sequence[Writer],
        each_page: Sequence[Writer], before_commit: Callable[[], None],
    ) -> None:
        """The records a page at a time, each followed by `each_page`, then `within`, then
        `before_commit`, in one database transaction; Conflict when a page does not follow an event
        stored (the store holds fewer than its writer believed: a copy of an older file put back
        under a running process), so that no gap is ever left."""
        rows = map(_event_row, records)  # not the library's Item and StoredEvent: two frozen objects a record
        table = self.app.recorder.events_table_name  # type: ignore[attr-defined]
        with self._appending() as (cursor, pipeline):
            self._refuse_cut_short(cursor)
            follows: list[tuple[int, Callable[[], bool]]] = []
            checks: list[Callable[[], None]] = []
            while page := list(itertools.islice(rows, PAGE)):
                self._insert_page(cursor, campaign_id, page)  # first: it takes the write lock, which a read before would not get
                if after := page[0].position - 1:
                    follows.append((after, self._stored_at(cursor, campaign_id, after)))
                checks += _written_by(each_page, cursor, table)
            checks += _written_by(within, cursor, table)
            with _as_writer_failed(table):
                pipeline.sync()  # what the writers sent fails here, not with the commit
            for after, stored in follows:
                if not stored():
                    _refuse_gap(after)
            with _as_writer_failed(table):
                for check in checks:
                    check()
            before_commit()

    @contextlib.contextmanager
    def _journaled_while_empty(self) -> Iterator[None]:
        """A history written a page at a time (an import) into a SQLite file that holds no campaign yet
        is written with SQLite's rollback journal, and the write-ahead log taken up again after it: its
        pages go to the file once, where through the log they are written there and copied into the
        file again when the log is checkpointed (a tenth of an import of 100k events). It is as
        durable (synchronous=FULL) and as atomic. SQLite leaves the log only while no other connection
        has the file open, so no reader already there is kept waiting (one opening the new file
        meanwhile waits for the commit); where it does not, or the file holds a campaign, the history
        goes through the log as any commit does."""
        journaled = self.kind == "sqlite" and self.opens_elsewhere and not self.campaign_ids() and \
            self._journal_mode("delete")
        try:
            yield
        finally:
            if journaled:
                self._journal_mode("wal")  # where another process opened the file meanwhile, its next opening does it

    def _journal_mode(self, mode: str) -> bool:
        """Put the SQLite file in this journal mode, outside any transaction; False where SQLite refused."""
        with self.app.recorder.datastore.get_connection(commit=True) as conn, conn.cursor() as cursor:  # type: ignore[attr-defined]
            try:
                return cursor.execute(f"PRAGMA journal_mode={mode}").fetchone()[0] == mode
            except sqlite3.OperationalError:  # "database is locked": another connection has the file open
                return False

    @contextlib.contextmanager
    def _appending(self) -> Iterator[tuple[Any, Any]]:
        """A cursor in one database transaction, committed unless the block raises, and what sends
        its statements and waits for their answers. On PostgreSQL the transaction is run in psycopg's
        pipeline mode from its BEGIN to its COMMIT, so that the server is waited for at the `sync`
        and at the commit alone: its start, the gap check and the read models' tracking row were a
        round trip each (each executemany of a command's read-model rows had been three)."""
        if self.kind != "postgres":
            with self.sql() as cursor:
                yield cursor, _NO_PIPELINE
            return
        with self.app.recorder.datastore.get_connection() as conn:  # type: ignore[attr-defined]
            try:
                with conn.pipeline() as pipeline:
                    cursor = conn.cursor()  # the library's connections are in autocommit mode: BEGIN starts the transaction
                    cursor.execute("BEGIN")
                    yield cursor, pipeline
                    cursor.execute("COMMIT")  # sent, and waited for, as the pipeline ends
            except BaseException:
                # psycopg's own rollback, which also forgets the statements prepared in the transaction; on a
                # connection lost meanwhile it fails too, and the error that lost it is the one to tell
                with contextlib.suppress(Exception):
                    conn.rollback()
                raise

    def started_alone(self, started_before: int) -> tuple[Writer, Callable[[], None]]:
        """A writer and a check before the commit that starts a campaign: in its transaction, which
        holds the write lock once its events are in, the store must hold one campaign more than the
        `started_before` it held when the name was found free; else Conflict, and the name is checked
        again. (A league server's starts take turns instead: see `Ledger.start`.)"""
        counted: list[Callable[[], list[tuple[Any, ...]]]] = []

        def count(cursor: Any) -> None:
            if self.kind == "sqlite":
                table = self.app.recorder.events_table_name  # type: ignore[attr-defined]
                counted.append(read_later(cursor, f"SELECT count(*) FROM {table} WHERE topic = ?", ("campaign.started",)))

        def check() -> None:
            if counted and counted[0]()[0][0] != started_before + 1:
                raise Conflict("another campaign was started at the same moment")

        return count, check

    def _stored_at(self, cursor: Any, campaign_id: uuid.UUID, position: int) -> Callable[[], bool]:
        """Is the campaign's event at `position` stored (read in the transaction of `cursor`, and
        answered when called: see `read_later`)?"""
        recorder: Any = self.app.recorder
        table = recorder.events_table_name
        if self.kind == "postgres":
            rows = read_later(cursor, f'SELECT 1 FROM "{recorder.datastore.schema}".{table} '
                                      "WHERE originator_id = %s AND originator_version = %s", (campaign_id, position))
        else:
            rows = read_later(cursor, f"SELECT 1 FROM {table} WHERE originator_id = ? AND originator_version = ?",
                              (campaign_id.hex, position))
        return lambda: bool(rows())

    def _insert_page(self, cursor: Any, campaign_id: uuid.UUID, rows: list[_EventRow]) -> None:
        """Insert encoded events in the transaction of `cursor`, as the recorder's own insert does
        but without committing. On PostgreSQL by one INSERT of the page (a league player's role may
        INSERT): not the library's insert function, whose NOTIFY (for subscribers, which the ledger
        has none of) takes a lock of the whole server at every commit until it is flushed to disk,
        so that no two writers of any campaigns committed at once; nor its other path, which locks
        the events' table. On SQLite by one executemany of the page: the library's application
        recorder inserts a row at a time to return the notification ids, which the ledger never reads."""
        recorder: Any = self.app.recorder
        if self.kind == "postgres":
            events = [recorder.construct_pg_stored_event(campaign_id, *row) for row in rows]
            cursor.execute(self._postgres_insert, (events,), prepare=True)
        else:
            cursor.executemany(recorder.insert_events_statement, [(campaign_id.hex, *row) for row in rows])

    @cached_property
    def _postgres_insert(self) -> Any:
        from psycopg.sql import SQL, Identifier  # deferred: the PostgreSQL driver is imported only when it is used

        recorder: Any = self.app.recorder
        return SQL("INSERT INTO {schema}.{table} (originator_id, originator_version, topic, state) "
                   "SELECT originator_id, originator_version, topic, state FROM unnest(%s::{schema}.{event}[])").format(
            schema=Identifier(recorder.datastore.schema), table=Identifier(recorder.events_table_name),
            event=Identifier(recorder.stored_event_type_name))

    def event_tables(self) -> list[str]:
        """The tables the eventsourcing library keeps (events, snapshots, and the store's settings:
        `campaign use`), each made now if missing (unless the store was opened with `make_tables=False`)."""
        return [self.app.recorder.events_table_name,  # type: ignore[attr-defined]
                self.app.snapshots.recorder.events_table_name,  # type: ignore[union-attr]
                self._settings.recorder.events_table_name]

    # --- snapshots ----------------------------------------------------------------------------------

    def latest_snapshot(
        self, campaign_id: uuid.UUID, upto: int | None = None, *, sound: bool = True
    ) -> tuple[int, bytes] | None:
        """The latest snapshot's (at or before position `upto`) position and state. A snapshot is a
        cache: one whose bytes no longer match their checksum (a damaged file) is passed over, unless `sound=False` (for verify,
        which reports it). Snapshots stored before checksums were kept have none to check, so they are
        passed over too, until the next snapshot (taken every 100 events) replaces them."""
        try:
            found = list(self._snapshots.get(campaign_id, lte=upto, desc=True, limit=1))
        except PersistenceError as error:  # text an SQL client left there that is not UTF-8, say
            if sound:
                return None
            raise IntegrityFailure(f"the latest snapshot cannot be read ({' '.join(str(error).split())}): the store "
                                   "was damaged or edited") from None
        for item in found:
            data: bytes = item.value
            if data.startswith(_CHECKSUM):
                digest, _, data = data[len(_CHECKSUM):].partition(b"\n")
                if sound and digest.decode("ascii", "replace") != hashlib.sha256(data).hexdigest():
                    return None
            elif sound:
                return None  # an older version's snapshot, with nothing to check it by: fold the events
            return item.originator_version, data
        return None

    def save_snapshot(self, campaign_id: uuid.UUID, position: int, state: bytes) -> None:
        # Two processes may snapshot the same position: the first one wins, both are equal.
        checked = _CHECKSUM + hashlib.sha256(state).hexdigest().encode() + b"\n" + state
        with contextlib.suppress(IntegrityError):
            self._snapshots.put([Item(campaign_id, position, SNAPSHOT_TOPIC, checked)])

    # --- secret seeds (never in the stream) ----------------------------------------------------

    def save_seed(self, campaign_id: uuid.UUID, epoch: int, seed_hex: str) -> None:
        if self.keys is not None:
            self.keys.save(str(campaign_id), epoch, seed_hex)
            return
        if self._seeds is None:
            raise RuleViolation(f"the seeds of {self.url} are drawn inside its database, never handed in")
        try:
            self._seeds.put([Item(campaign_id, epoch + 1, SEED_TOPIC, seed_hex)])
        except IntegrityError:
            raise IntegrityFailure(f"a seed for epoch {epoch} is already stored") from None

    def seed(self, campaign_id: uuid.UUID, epoch: int) -> str | None:
        if self.keys is not None:
            found = self.keys.seed(str(campaign_id), epoch)
            if found is None and self._move_legacy_seeds(campaign_id):
                found = self.keys.seed(str(campaign_id), epoch)
            return found
        if self._seeds is None:
            return None  # a league server's seeds are out of reach: its dice functions deal the faces
        for item in self._seeds.get(campaign_id, gt=epoch, lte=epoch + 1):
            return item.value
        return None

    # --- the current campaign (`campaign use`) ----------------------------------------------------

    def pick_unnamed(self, ids: Sequence[uuid.UUID], name_of: Callable[[uuid.UUID], str]) -> uuid.UUID:
        """The campaign a command that names none means: the only one, else the current one."""
        if not ids:
            raise NotFound(f"no campaign in {self.url}: start one with `campaign new NAME`")
        if len(ids) == 1:
            return ids[0]
        current = self.current_campaign()
        if current in ids:
            return current
        names = ", ".join(name_of(cid) for cid in ids)
        raise BadInput(f"this store holds several campaigns ({names}): choose one with `campaign use NAME` or --campaign")

    @cached_property
    def _settings(self) -> Any:
        """A table of its own (`stored_settings`), not the seeds': a player's role may write it.
        Made on first use, under the schema lock: several processes may make it at once."""
        return _under_schema_lock(self._open_settings, lambda: self.app.factory.event_store(
            mapper=self.app.mapper, recorder=self.app.factory.aggregate_recorder(purpose="settings")))

    def current_campaign(self) -> uuid.UUID | None:
        """The campaign last chosen; None if none was, or if the choice stored is not a campaign's id
        (edited by hand: a convenience, not a record, so choosing again is the way out)."""
        try:
            for item in self._settings.get(CURRENT_ID, desc=True, limit=1):
                return uuid.UUID(item.value)
        except (IntegrityFailure, ValueError):
            return None
        return None

    def set_current_campaign(self, campaign_id: uuid.UUID) -> None:
        """Append the choice (the sequence keeps every earlier one); of two at once, the later wins.
        On PostgreSQL choosers take turns, as a campaign's writers do: eight `campaign new` at once
        outran three optimistic tries. Elsewhere a chooser that lost the race tries again."""
        with self._turn(CURRENT_ID):
            for tries in range(1, RETRIES + 1):
                # The latest version, not its value: a choice edited into garbage is simply followed.
                latest = self._settings.recorder.select_events(CURRENT_ID, desc=True, limit=1)
                version = latest[0].originator_version + 1 if latest else 1
                try:
                    self._settings.put([Item(CURRENT_ID, version, CURRENT_TOPIC, str(campaign_id))])
                    return
                except IntegrityError:
                    pause_before_try(tries)
        raise Conflict("another process kept choosing the current campaign; try again")

    def _move_legacy_seeds(self, campaign_id: uuid.UUID) -> bool:
        """Move the seeds an older version kept in this SQLite file's `stored_seeds` table to the key
        file, then erase them from the file (overwritten, not only unlinked); True if any moved."""
        with self.sql() as cursor:
            cursor.execute("SELECT name FROM sqlite_master WHERE type='table' AND name='stored_seeds'")
            if cursor.fetchone() is None:
                return False
            cursor.execute(
                "SELECT originator_version, state FROM stored_seeds WHERE originator_id = ?", (campaign_id.hex,)
            )
            rows = cursor.fetchall()
        if not rows:
            return False
        seeds = {int(version) - 1: bytes(state).decode() for version, state in rows}
        self.keys.save_all(str(campaign_id), seeds)  # type: ignore[union-attr]  # SQLite stores have keys
        with self.sql() as cursor:
            cursor.execute("PRAGMA secure_delete = ON")
            cursor.execute("DELETE FROM stored_seeds WHERE originator_id = ?", (campaign_id.hex,))
        with self.sql() as cursor:
            cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return True

    # --- the file itself (SQLite) ----------------------------------------------------------------------

    @property
    def own_files(self) -> dict[str, str]:
        """The files a SQLite store is kept in (its database and SQLite's journals beside it, and the
        key file of its seeds), each with what it is, for people: a file written over one of them
        destroys the campaign (or every ledger die to come)."""
        keys = {str(self.keys.path): f"the key file of the store {self.url}'s secret seeds"} if self.keys else {}
        if self._sqlite_path is None or not self.opens_elsewhere:
            return keys
        return keys | {self._sqlite_path + suffix: f"{what} of the store {self.url}" for suffix, what in (
            ("", "the database"), ("-wal", "the write-ahead log"), ("-shm", "the shared-memory index"),
            ("-journal", "the rollback journal"))}

    @property
    def file_size(self) -> int:
        """Bytes of the SQLite file (0 for a store that is not one, or not on disk)."""
        try:
            return os.path.getsize(self._sqlite_path) if self._sqlite_path else 0
        except OSError:
            return 0

    def _refuse_cut_short(self, cursor: Any) -> None:
        """A SQLite file is whole pages: one that ends inside a page had its end cut off, which SQLite
        notices only on the pages a command reads (a page cut short reads as zeros where it ends), so a
        write into the pages before was taken. Damage, as SQLite's own check finds it; a stat a write."""
        if self.kind != "sqlite" or not self.opens_elsewhere:
            return
        cursor.execute("PRAGMA page_size")
        page, size = cursor.fetchone()[0], self.file_size
        if size % page:
            raise damaged(self.url, f"the file is {size} bytes, not a whole number of its {page}-byte pages: its "
                                    "end was cut off")

    def damage(self, *, quick: bool = False) -> str | None:
        """SQLite's own check of every page and index of the file: what is wrong, or None. `quick`
        leaves out matching each index with its table (quick_check, which misses rows lost from a
        table but not from its index, takes 35-40% of the time of integrity_check)."""
        if self._sqlite_path is None:
            return None
        with self.sql() as cursor:
            cursor.execute("PRAGMA quick_check" if quick else "PRAGMA integrity_check")
            problems = [" ".join(str(row[0]).split()) for row in cursor.fetchall()]  # one line each
        return None if problems == ["ok"] else "; ".join(problems[:3])

    def backup(self, target: str) -> None:
        """A consistent copy of a live SQLite store at `target`, by SQLite's online backup: the
        committed state at one moment, whatever other writers are doing meanwhile."""
        if self._sqlite_path is None:
            raise BadInput(f"campaign backup copies SQLite stores; back up {self.url} with the database's own "
                           "tools (pg_dump)")
        source = sqlite3.connect(self._sqlite_path)
        copy = sqlite3.connect(target)
        try:
            with copy:
                source.backup(copy)
            copy.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, no -wal beside it
        finally:
            copy.close()
            source.close()

    # --- SQL for read models --------------------------------------------------------------------------

    @contextlib.contextmanager
    def sql(self) -> Iterator[Any]:
        """A DB-API cursor in one transaction of this store's database (None for memory://)."""
        if self.kind == "popo":
            yield None
            return
        with self.app.recorder.datastore.transaction(commit=True) as cursor:  # type: ignore[attr-defined]
            yield cursor
