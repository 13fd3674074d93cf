"""Persistence through the eventsourcing library, with a msgspec mapper.

A store URL picks the backend: `sqlite:///PATH` (the default `sqlite:///campaign.db`),
`postgresql://USER@HOST:PORT/DB` (a league server) or `memory://` (tests). One campaign is one
eventsourcing aggregate sequence; snapshots of the folded state live in another sequence of the
same database, outside the campaign's stream. The secret dice seeds never sit in a SQLite campaign
file (which players copy): they are kept in the dice keeper's key file (ledger.keyfile); seeds that
an older version left in the file's `stored_seeds` table move there on first use, once. A
PostgreSQL store keeps them in the database (see ledger.dealer for the roles that hide them), a
memory store in memory. The PostgreSQL driver is imported only when a PostgreSQL store is opened.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote, urlparse

import msgspec
from eventsourcing.application import Application
from eventsourcing.persistence import IntegrityError, Mapper, StoredEvent, Transcoder

from ledger import events as ev
from ledger.errors import BadInput, Conflict, IntegrityFailure, NotFound, RuleViolation
from ledger.dealer import Dealer
from ledger.keyfile import KeyFile
from ledger.records import Record

DEFAULT_STORE = "sqlite:///campaign.db"
SNAPSHOT_TOPIC = "ledger.snapshot"
SEED_TOPIC = "ledger.seed"


class _StoredRecord(msgspec.Struct, frozen=True, kw_only=True):
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
    value: Any  # Record, bytes of an encoded state, or a seed's hex


class MsgspecMapper(Mapper[uuid.UUID]):
    """Encodes records with msgspec; the stored topic is the event's stable tag, never a class path."""

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        item: Item = domain_event
        if item.topic == SNAPSHOT_TOPIC:
            state = item.value
        elif item.topic == SEED_TOPIC:
            state = item.value.encode()
        else:
            state = msgspec.json.encode(item.value)
        return StoredEvent(
            originator_id=item.originator_id,
            originator_version=item.originator_version,
            topic=item.topic,
            state=state,
        )

    def to_domain_event(self, stored_event: StoredEvent) -> Any:
        if stored_event.topic == SNAPSHOT_TOPIC:
            value: Any = stored_event.state
        elif stored_event.topic == SEED_TOPIC:
            value = stored_event.state.decode()
        else:
            value = decode_record(stored_event.state)
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


_RECORD_DECODER = msgspec.json.Decoder(_StoredRecord)


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


def _uuid(value: uuid.UUID | str) -> uuid.UUID:
    return value if isinstance(value, uuid.UUID) else uuid.UUID(str(value))


class LedgerApplication(Application[uuid.UUID]):
    name = "CampaignLedger"
    env = {  # noqa: RUF012 - the library reads this class attribute
        "MAPPER_TOPIC": "ledger.store:MsgspecMapper",
        "TRANSCODER_TOPIC": "ledger.store:PassThroughTranscoder",
        "IS_SNAPSHOTTING_ENABLED": "y",
    }


def settings_for(url: str, *, create: bool = True) -> dict[str, str]:
    """eventsourcing settings for a store URL, refusing what it cannot open.

    With `create=False` a SQLite file that does not exist is refused instead of created, so that
    a mistyped store URL in a command that only reads (or fails) leaves no empty database behind."""
    parsed = urlparse(url)
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
        if not create and not os.path.exists(path):
            raise NotFound(f"no campaign in {url}: start one with `campaign new NAME`")
        return {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": path}
    if parsed.scheme in ("postgresql", "postgres"):
        if importlib.util.find_spec("psycopg") is None:
            raise BadInput(
                f"store '{url}': PostgreSQL support is not installed: pip install 'campaign-ledger[postgres]'"
                " (from a checkout: pip install -e '.[postgres]')"
            )
        if not parsed.path.strip("/"):
            raise BadInput(f"store '{url}': name the database, e.g. postgresql://postgres@127.0.0.1:5432/test")
        settings = {
            "PERSISTENCE_MODULE": "eventsourcing.postgres",
            "POSTGRES_DBNAME": parsed.path.strip("/"),
            "POSTGRES_HOST": parsed.hostname or "127.0.0.1",
            "POSTGRES_PORT": str(parsed.port or 5432),
            "POSTGRES_USER": unquote(parsed.username or "postgres"),
            "POSTGRES_PASSWORD": unquote(parsed.password or ""),
            "POSTGRES_ENABLE_DB_FUNCTIONS": "y",
            "POSTGRES_CONNECT_TIMEOUT": "5",
        }
        return settings
    if parsed.scheme == "memory":
        return {"PERSISTENCE_MODULE": "eventsourcing.popo"}
    raise BadInput(
        f"store '{url}' is not understood: use sqlite:///PATH, postgresql://USER@HOST:PORT/DB or memory://"
    )


def uses_key_file(url: str) -> bool:
    """Does a store at this URL keep its seeds in the dice keeper's key file (SQLite) ?"""
    return urlparse(url).scheme == "sqlite"


def _lacks_privilege(error: BaseException | None) -> bool:
    """Is this (or what caused it) PostgreSQL's "insufficient privilege"?"""
    while error is not None:
        if getattr(error, "sqlstate", None) == "42501":
            return True
        error = error.__cause__ or error.__context__
    return False


def _why_unreachable(settings: dict[str, str]) -> str | None:
    """The server's own reason (no such database, unknown user, connection refused): the
    connection pool only says that it got no connection in time."""
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


class Store:
    """A campaign database: streams of records, snapshots of state, and secret seeds."""

    def __init__(self, url: str = DEFAULT_STORE, *, create: bool = True):
        self.url = url
        settings = settings_for(url, create=create)
        self.kind = settings["PERSISTENCE_MODULE"].rsplit(".", 1)[1]
        try:
            try:
                self.app = LedgerApplication(env=settings)
            except Exception as error:  # the driver's own errors vary by backend
                if not _lacks_privilege(error):
                    raise
                # A league player's role may not create (or re-create) the tables an administrator made.
                self.app = LedgerApplication(env={**settings, "CREATE_TABLE": "n"})
        except Exception as error:  # the driver's own errors vary by backend
            raise BadInput(f"cannot open store {url}: {_why_unreachable(settings) or error}") from None
        assert self.app.snapshots is not None
        self._snapshots = self.app.snapshots
        self.keys = KeyFile() if uses_key_file(url) else None
        self.dealer = Dealer(settings) if self.kind == "postgres" else None
        self._seeds = None if self.keys or self.dealer else self.app.factory.event_store(
            mapper=self.app.mapper, recorder=self.app.factory.aggregate_recorder(purpose="seeds")
        )

    def close(self) -> None:
        if self.dealer is not None:
            self.dealer.close()
        self.app.close()

    # --- the campaign streams -------------------------------------------------------------------

    def campaign_ids(self) -> list[uuid.UUID]:
        """Every campaign in the store, in the order they were started."""
        found = []
        start = 1
        while True:
            page = self.app.recorder.select_notifications(start, 500, topics=["campaign.started"])
            found.extend(_uuid(n.originator_id) for n in page)
            if len(page) < 500:
                return found
            start = page[-1].id + 1

    def records(self, campaign_id: uuid.UUID, *, after: int = 0, upto: int | None = None) -> Iterator[Record]:
        for item in self.app.events.get(campaign_id, gt=after or None, lte=upto):
            yield item.value

    def raw_rows(self, campaign_id: uuid.UUID) -> Sequence[StoredEvent]:
        """The stored bytes, for verification that must not trust the decoder."""
        return self.app.recorder.select_events(campaign_id)

    def append(self, campaign_id: uuid.UUID, records: Sequence[Record]) -> None:
        """Store one transaction atomically; another writer's records at these positions → Conflict."""
        items = [
            Item(campaign_id, record.position, ev.tag_of(record.event), record) for record in records
        ]
        try:
            self.app.save(*items)
        except IntegrityError:
            raise Conflict("another command was recorded in this campaign at the same time") from None

    def event_tables(self) -> list[str]:
        """The tables the eventsourcing library keeps (events and snapshots)."""
        return [self.app.recorder.events_table_name,  # type: ignore[attr-defined]
                self.app.snapshots.recorder.events_table_name]  # type: ignore[union-attr]

    # --- snapshots ----------------------------------------------------------------------------------

    def latest_snapshot(self, campaign_id: uuid.UUID) -> tuple[int, bytes] | None:
        for item in self._snapshots.get(campaign_id, desc=True, limit=1):
            return item.originator_version, item.value
        return None

    def save_snapshot(self, campaign_id: uuid.UUID, position: int, state: bytes) -> None:
        # Two processes may snapshot the same position: the first one wins, both are equal.
        with contextlib.suppress(IntegrityError):
            self._snapshots.put([Item(campaign_id, position, SNAPSHOT_TOPIC, state)])

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

    # --- SQL for read models --------------------------------------------------------------------------

    @contextlib.contextmanager
    def sql(self) -> Iterator[Any]:
        """A DB-API cursor in one transaction of this store's database (None for memory://)."""
        if self.kind == "popo":
            yield None
            return
        with self.app.recorder.datastore.transaction(commit=True) as cursor:  # type: ignore[attr-defined]
            yield cursor
