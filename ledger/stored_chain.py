"""Verifying a campaign as stored: each row's raw JSON rebuilt into its record (never trusting the
typed decoder: a row is read by it only when writing it again gives its bytes back, anything else
strictly), the chain checked, and the latest snapshot compared with the fold of the events. The
chain is read once; what else must be checked against it (the read models, an export's lines)
is handed the records as they are verified, the voids read ahead through the topic index."""

from __future__ import annotations

import functools
import uuid
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

import msgspec

from ledger import events as ev
from ledger import rulesets
from ledger.beside import Beside
from ledger.chain import Chain, ChainChecker, Entry, Progress, entry_of, record_of
from ledger.errors import IntegrityFailure, NotFound
from ledger.fold import apply_record
from ledger.records import Record
from ledger.state import CampaignState, decode_state, encode_state
from ledger.store import Store, StoredRecord, decode_record, stored_bytes
from ledger.trail_json import Malformed, check_body, is_hex, is_utc_time, keys_problem, refuse_float, strict_json

_STORED_KEYS = {"position", "tx", "actor", "recorded_at", "prev_hash", "hash", "event"}


_ENCODE = msgspec.json.encode


def _stored_entry(position: int, data: bytes) -> Entry:
    """A stored row as an entry, or a ValueError / msgspec.DecodeError saying why it cannot be one."""
    return _plain_entry(position, data) or _strict_entry(position, data)


def _verified_row_entry(position: int, data: bytes) -> Entry:
    """A stored row byte for byte as verified at its position, as an entry again: read by the typed
    decoder alone (checking it again would find what it found)."""
    try:
        return _typed_entry(position, _typed_row(data), data)
    except msgspec.MsgspecError:  # a row the strict reader read: it reads it again
        return _strict_entry(position, data)


def _verified_row_record(position: int, data: bytes) -> Record:
    """`_verified_row_entry`'s record alone (no hashed body built)."""
    try:
        raw = _typed_row(data)
    except msgspec.MsgspecError:  # a row the strict reader read: it reads it again
        return _strict_entry(position, data).record
    return record_of(raw, raw.event)


def _plain_entry(position: int, data: bytes) -> Entry | None:
    """The entry of a row exactly as the store writes it, read without the strict reader: decoded
    with its event as its own type, it is written again by msgspec to the same bytes (so no
    repeated or unknown key, no other spelling, nothing the types drop), and holds no fraction
    (events hold none: the decoder refuses one where a field takes any value). None for any other
    row, which `_strict_entry` reads and names the fault of (the two agree on every row the fast
    one takes)."""
    try:
        raw = _typed_row(data)
    except msgspec.MsgspecError:
        return None
    if (_ENCODE(raw) != data or not (is_hex(raw.prev_hash, 64) and is_hex(raw.hash, 64))
            or not is_utc_time(raw.recorded_at)):
        return None
    return _typed_entry(position, raw, data)


def _typed_row(data: bytes) -> Any:
    return ev.decoder_of_events(_row_with_typed_event, float_hook=refuse_float).decode(data)


def _typed_entry(position: int, raw: Any, data: bytes) -> Entry:
    payload = msgspec.to_builtins(raw.event, str_keys=True)  # what decoding its JSON gives (see _plain_entry)
    kind = payload.pop("type")
    return entry_of(f"position {position}", raw, kind, payload, raw.event, data)


def _fields_with_typed_event(struct: type, union: Any) -> list[tuple[str, Any]]:
    """A struct's fields in its order, its `event` typed as the union of the registered event types."""
    return [(f.name, union if f.name == "event" else f.type) for f in msgspec.structs.fields(struct)]


def _row_with_typed_event(union: Any) -> type:
    """StoredRecord's fields, the event decoded as its own registered type."""
    return msgspec.defstruct("StoredRowWithEvent", _fields_with_typed_event(StoredRecord, union), frozen=True,
                             kw_only=True, forbid_unknown_fields=True)


def _strict_entry(position: int, data: bytes) -> Entry:
    raw = strict_json(data)
    if not isinstance(raw, dict):
        raise Malformed("not a JSON object")
    problem = keys_problem(set(raw), _STORED_KEYS)
    if problem:
        raise Malformed(problem)
    event = raw["event"]
    if not isinstance(event, dict) or not isinstance(event.get("type"), str):
        raise Malformed("'event' must be a JSON object with a 'type'")
    body = {
        "position": raw["position"],
        "type": event["type"],
        "recorded_at": raw["recorded_at"],
        "actor": raw["actor"],
        "tx": raw["tx"],
        "payload": {key: value for key, value in event.items() if key != "type"},
        "prev_hash": raw["prev_hash"],
    }
    check_body(body, raw["hash"])
    return Entry(where=f"position {position}", body=body, hash=raw["hash"], record=decode_record(data), data=data)


def _stored_entries(store: Store, campaign_id: uuid.UUID, upto: int | None = None) -> Iterator[Entry]:
    """The campaign's rows as entries, a page at a time; IntegrityFailure at the first that cannot be one."""
    for expected, row in enumerate(store.raw_rows(campaign_id, upto=upto, whole=upto is not None), start=1):
        if row.originator_version != expected:
            raise IntegrityFailure(f"position {expected}: missing (the stored events go from {expected - 1} to "
                                   f"{row.originator_version}): an event was deleted")
        try:
            entry = _stored_entry(expected, row.state)
        except (ValueError, msgspec.DecodeError) as error:  # JSON, shape or typed-decoder errors
            raise IntegrityFailure(f"position {expected}: does not decode: {error}") from None
        if row.topic != entry.body["type"]:
            raise IntegrityFailure(f"{entry.where}: stored under topic '{row.topic}' but holds a "
                                   f"{entry.body['type']} event")
        yield entry


def verify_store(store: Store, campaign_id: uuid.UUID) -> Chain:
    """Check a campaign's stored chain, its revealed dice and its latest snapshot, reading it once, a
    page at a time."""
    chain, _nothing = verify_store_reading(store, campaign_id, lambda store, records, voids: None)
    return chain


T = TypeVar("T")
Read = Callable[[Store, Iterator[Record], Sequence[Record]], T]

# From this many events a reading with `beside` hands `read` to a forked process (beside.py):
# below it, forking and opening the store again cost more than they save.
BESIDE_FROM = 2000


def verify_store_reading(
    store: Store, campaign_id: uuid.UUID, read: Read[T], advance: Progress | None = None, *, beside: bool = False,
) -> tuple[Chain, T]:
    """`verify_store`, with `read` handed the store, the verified records as they are read (the same
    single reading, up to the position the campaign had when it began; `read` may stop early) and
    the campaign's transaction.voided records, known ahead. The chain, and what `read` returned. A
    chain that does not verify is named before any failure of `read`, as if the chain had been
    verified first. `advance` is told how many events the reading has got through.

    With `beside`, a long history's `read` runs in a forked process on the store opened again,
    decoding the rows this one verifies (so its result and its refusals must pickle), while this
    one checks the chain and folds the snapshot's check (the process beside, rebuilding the read
    models, is the longer of the two). Where it cannot, both run here as without."""
    reading = StoredReading(store, campaign_id, advance)
    snapshot = _Snapshot(store, campaign_id)
    worker = None
    if beside and reading.last >= BESIDE_FROM and store.opens_elsewhere:
        worker = Beside.started(functools.partial(_read_records, store, read, reading.voids), _record_page)
    if worker is None:
        chain, (matches, result) = _read_here(reading, functools.partial(_folding_snapshot, snapshot, read))
    else:
        chain, result = _read_beside(reading, worker, read, snapshot)
        matches = snapshot.matches()
    chain.snapshot = snapshot.check(chain.count, matches)
    return chain, result


def _folding_snapshot(snapshot: _Snapshot, read: Read[T], store: Store, records: Iterator[Record],
                      voids: Sequence[Record]) -> tuple[bool | None, T]:
    """`read` on the records, each folded into the snapshot's check as it goes by (those `read` did
    not ask for, once it returned): whether the snapshot is the fold of the events up to it (see
    _Snapshot.matches), and what `read` returned."""
    folded = snapshot.folding(records)
    result = read(store, folded, voids)
    for _record in folded:
        pass
    return snapshot.matches(), result


def _read_here(reading: StoredReading, read: Read[T]) -> tuple[Chain, T]:
    chain_failed: list[Exception] = []

    def verified() -> Iterator[Record]:
        try:
            for entry in reading.entries():
                yield entry.record
        except Exception as failure:  # noqa: BLE001 - the chain's own failure (or the store's): named first
            chain_failed.append(failure)
            raise

    records = verified()
    try:
        result = read(reading.store, records, reading.voids)
    except Exception:  # noqa: BLE001 - whatever `read` failed on, a chain that does not verify is named first
        if chain_failed:
            raise
        for _record in records:  # the rest of the chain: its failures are named first
            pass
        reading.finish()
        raise
    for _record in records:
        pass
    return reading.finish(), result


def _read_beside(reading: StoredReading, worker: Beside, read: Read[T], snapshot: _Snapshot) -> tuple[Chain, T]:
    """The chain verified here, each record folded into the snapshot's check and sent to `read` in
    the process beside once verified. Where that process was lost, `read` runs here on the chain
    read again."""
    try:
        for record in snapshot.folding(entry.record for entry in reading.entries()):
            worker.add(record)
        chain = reading.finish()
    except BaseException:  # the chain's failure is named (or this process was interrupted): the other stops
        worker.stop()
        raise
    outcome = worker.finish()
    if outcome.refused is not None:
        raise outcome.refused
    return chain, outcome.result if outcome.done else read(reading.store, iter(chain.records), reading.voids)


def _read_records(store: Store, read: Read[T], voids: Sequence[Record], records: Iterator[Record]) -> T:
    """`read` in the forked process, on the store opened again."""
    again = store.reopened()
    try:
        return read(again, records, voids)
    finally:
        again.close()


def _record_page(data: bytes) -> list[Record]:
    """Verified records as sent beside (msgpack, each event tagged with its type), records again."""
    page = ev.decoder_of_events(_records_with_typed_events, codec=msgspec.msgpack).decode(data)
    return [record_of(r, r.event) for r in page]


def _records_with_typed_events(union: Any) -> Any:
    """A list of Record's fields, each event decoded as its own registered type."""
    return list[msgspec.defstruct("RecordWithEvent", _fields_with_typed_event(Record, union),  # type: ignore[valid-type]
                                  frozen=True, kw_only=True)]


class StoredReading:
    """One reading of a campaign's stored chain, up to the position the campaign had when it began,
    with its transaction.voided records read ahead through the topic index (what a trail line's
    annotations and the read-model rows need before the chain is read): `entries`, each checked as
    it is handed on, then `finish`, the verified chain."""

    def __init__(self, store: Store, campaign_id: uuid.UUID, advance: Progress | None = None, *, read_again: bool = True):
        """`read_again`: whether the chain `finish` gives is read again (see ChainChecker.read_again)."""
        rulesets.load_rulesets()  # every ruleset's event types must be known to decode its rows
        self.store, self.campaign_id = store, campaign_id
        self.checker = ChainChecker(advance=advance, read_again=read_again)
        self.last = store.last_position_of_whole(campaign_id)
        self.voids = self._voids_ahead()

    def entries(self) -> Iterator[Entry]:
        """The stored entries, each added to the checker before it is handed on: IntegrityFailure at
        the first that does not verify."""
        for entry in _stored_entries(self.store, self.campaign_id, self.last):
            self.checker.add(entry)
            started = entry.record.event
            if isinstance(started, ev.CampaignStarted) and started.campaign_id != str(self.campaign_id):
                raise IntegrityFailure(f"{entry.where}: names campaign {started.campaign_id} in the stream of "
                                       f"{self.campaign_id}")
            yield entry

    def finish(self) -> Chain:
        """The chain `entries` verified, read again from the store up to where it ended."""
        if self.checker.count == 0:
            raise NotFound(f"no campaign {self.campaign_id} in {self.store.url}")
        count = self.checker.count
        chain = self.checker.finish(functools.partial(self._rows, count), _verified_row_entry, _verified_row_record, None)
        if [(v.position, v.hash) for v in chain.voids] != [(v.position, v.hash) for v in self.voids]:
            raise IntegrityFailure("the transaction.voided events read through the store's index of topics are not "
                                   "the chain's: the index or the events were edited")
        return chain

    def _rows(self, upto: int) -> Iterator[tuple[int, bytes]]:
        for row in self.store.raw_rows(self.campaign_id, upto=upto):
            yield row.originator_version, row.state

    def _voids_ahead(self) -> list[Record]:
        """The transaction.voided records up to the reading's last position. When one of them does
        not verify on its own, the chain is read to name the first event that does not verify (at
        that void or before it)."""
        try:
            return self.store.records_tagged(self.campaign_id, [ev.TransactionVoided.__struct_config__.tag],
                                             upto=self.last)
        except (IntegrityFailure, msgspec.MsgspecError):
            for _entry in self.entries():
                pass
            raise IntegrityFailure("a transaction.voided event read through the store's index of topics does not "
                                   "verify, but the chain does: the index was edited") from None


class _Snapshot:
    """The latest snapshot (what loading starts from), which must be the fold of the events up to
    it: folded as the events are read, skipping the transactions the snapshot says were voided —
    the fold's own list of voids (from the events) then matches the snapshot's only if that was true."""

    def __init__(self, store: Store, campaign_id: uuid.UUID):
        found = store.latest_snapshot(campaign_id, sound=False)  # a damaged one is reported, not passed over
        self.position = found[0] if found else None
        self.state: CampaignState | None = None
        self.problem: str | None = None
        if found is not None:
            try:
                self.state = decode_state(found[1])  # None: taken by an older version, which loading does not use
            except msgspec.DecodeError as error:
                self.problem = f"does not decode: {error}"
        self.voided = {int(tx) for tx in self.state.voided} if self.state is not None else set()
        self.folded = CampaignState()
        self.failure: Exception | None = None  # what folding failed on, raised by `matches`

    def folding(self, records: Iterator[Record]) -> Iterator[Record]:
        """The records, passed on; each one up to the snapshot folded as it goes by. A record the
        fold fails on stops the fold, not the reading: the chain is named first if it fails too."""
        for record in records:
            if (self.failure is None and self.state is not None and self.position is not None
                    and record.position <= self.position):
                try:
                    apply_record(self.folded, record, record.tx in self.voided)
                except Exception as failure:  # noqa: BLE001 - raised by `matches`, once the chain is read
                    self.failure = failure
            yield record

    def matches(self) -> bool | None:
        """Whether the snapshot is the fold of the records `folding` passed on (None: no snapshot
        loading would use); what the fold failed on is raised here."""
        if self.failure is not None:
            raise self.failure
        if self.state is None:
            return None
        return msgspec.json.decode(encode_state(self.state)) == msgspec.json.decode(encode_state(self.folded))

    def check(self, count: int, matches: bool | None) -> int | None:
        """The snapshot's position, checked against the chain's `count` of events and what `matches`
        found (in this process or the one beside); None where there is no snapshot to check."""
        if self.position is None:
            return None
        if self.position > count:
            raise IntegrityFailure(f"the snapshot at position {self.position} is beyond the last event ({count})")
        if self.problem is not None:
            raise IntegrityFailure(f"the snapshot at position {self.position} {self.problem}")
        if matches is None:
            return None
        if not matches:
            raise IntegrityFailure(f"the snapshot at position {self.position} does not match the events before it "
                                   "(it was edited): campaigns would load a state the history does not give")
        return self.position


def stored_names(store: Store) -> dict[uuid.UUID, str | None]:
    """Every campaign's id and name, in the order they were started, the name read from its stored
    campaign.started row (found through the topic index) without trusting anything else: None where
    that row does not say it."""
    names: dict[uuid.UUID, str | None] = {}
    for row in store.rows_of_topic("campaign.started"):
        try:
            name: str | None = str(strict_json(stored_bytes(row.originator_version, row.state))["event"]["name"])
        except (ValueError, TypeError, KeyError, IntegrityFailure):
            name = None
        names[uuid.UUID(str(row.originator_id))] = name
    return names


def find_campaign(store: Store, ref: str | None) -> uuid.UUID:
    """The campaign to verify, found without decoding (and so without trusting) its history."""
    names = stored_names(store)
    if ref is None:
        return store.pick_unnamed(list(names), lambda cid: names[cid] or str(cid))
    for cid, name in names.items():
        if str(cid) == ref.strip().lower() or (name or "").lower() == ref.strip().lower():
            return cid
    raise NotFound(f"no campaign '{ref}' in {store.url}")
