"""Verifying a campaign as stored: each row's raw JSON rebuilt into its record (never trusting the
typed decoder), the chain checked, and the latest snapshot compared with the fold of the events."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from itertools import islice
from typing import Any

import msgspec

from ledger import events as ev
from ledger import rulesets
from ledger.chain import Chain, ChainChecker, Entry
from ledger.errors import BadInput, IntegrityFailure, NotFound
from ledger.fold import fold, voids_in
from ledger.state import decode_state, encode_state
from ledger.store import Store, decode_record
from ledger.trail_json import Malformed, check_body, keys_problem, strict_json

_STORED_KEYS = {"position", "tx", "actor", "recorded_at", "prev_hash", "hash", "event"}


def _row_bytes(row: Any) -> bytes:
    # An edit made with an SQL client may leave text where the library wrote a blob.
    return row.state.encode("utf-8") if isinstance(row.state, str) else bytes(row.state)


def _stored_entry(row: Any) -> Entry:
    """A stored row as an entry, or a ValueError / msgspec.DecodeError saying why it cannot be one."""
    data = _row_bytes(row)
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
    return Entry(where=f"position {row.originator_version}", body=body, hash=raw["hash"], record=decode_record(data))


def _stored_entries(store: Store, campaign_id: uuid.UUID, upto: int | None = None) -> Iterator[Entry]:
    """The campaign's rows as entries, a page at a time; IntegrityFailure at the first that cannot be one."""
    for expected, row in enumerate(store.raw_rows(campaign_id, upto=upto), start=1):
        where = f"position {expected}"
        if row.originator_version != expected:
            raise IntegrityFailure(f"{where}: missing (the stored events go from {expected - 1} to "
                                   f"{row.originator_version}): an event was deleted")
        try:
            entry = _stored_entry(row)
        except (ValueError, msgspec.DecodeError) as error:  # JSON, shape or typed-decoder errors
            raise IntegrityFailure(f"{where}: does not decode: {error}") from None
        if row.topic != entry.body["type"]:
            raise IntegrityFailure(f"{where}: stored under topic '{row.topic}' but holds a {entry.body['type']} event")
        yield entry


def verify_store(store: Store, campaign_id: uuid.UUID) -> Chain:
    """Check a campaign's stored chain, its revealed dice and its latest snapshot, reading it a page at a time."""
    rulesets.load_rulesets()  # every ruleset's event types must be known to decode its rows
    checker = ChainChecker()
    for entry in _stored_entries(store, campaign_id):
        checker.add(entry)
        started = entry.record.event
        if isinstance(started, ev.CampaignStarted) and started.campaign_id != str(campaign_id):
            raise IntegrityFailure(f"{entry.where}: names campaign {started.campaign_id} in the stream of {campaign_id}")
    if checker.count == 0:
        raise NotFound(f"no campaign {campaign_id} in {store.url}")
    count = checker.count
    chain = checker.finish(lambda: _stored_entries(store, campaign_id, upto=count), None)
    chain.snapshot = _check_snapshot(store, campaign_id, chain)
    return chain


def _check_snapshot(store: Store, campaign_id: uuid.UUID, chain: Chain) -> int | None:
    """The latest snapshot (what loading starts from) must be the fold of the events up to it."""
    snapshot = store.latest_snapshot(campaign_id, sound=False)  # a damaged one is reported, not passed over
    if snapshot is None:
        return None
    position, data = snapshot
    if position > chain.count:
        raise IntegrityFailure(f"the snapshot at position {position} is beyond the last event ({chain.count})")
    voided = voids_in(void for void in chain.voids if void.position <= position)
    expected = msgspec.json.decode(encode_state(fold(islice(chain.records, position), voided=voided)))
    try:
        decoded = decode_state(data)
    except msgspec.DecodeError as error:
        raise IntegrityFailure(f"the snapshot at position {position} does not decode: {error}") from None
    if decoded is None:
        return None  # taken by an older version of the ledger: loading does not use it
    stored = msgspec.json.decode(encode_state(decoded))
    if stored != expected:
        raise IntegrityFailure(f"the snapshot at position {position} does not match the events before it "
                               "(it was edited): campaigns would load a state the history does not give")
    return position


def stored_name(store: Store, campaign_id: uuid.UUID) -> str | None:
    """A campaign's name read from its stored campaign.started row, without trusting the rest."""
    for row in store.raw_rows(campaign_id):
        if row.topic == "campaign.started":
            try:
                return str(strict_json(_row_bytes(row))["event"]["name"])
            except (ValueError, TypeError, KeyError):
                return None
    return None


def find_campaign(store: Store, ref: str | None) -> uuid.UUID:
    """The campaign to verify, found without decoding (and so without trusting) its history."""
    ids = store.campaign_ids()
    if ref is None:
        return store.pick_unnamed(ids, lambda cid: stored_name(store, cid) or str(cid))
    for cid in ids:
        if str(cid) == ref.strip().lower() or (stored_name(store, cid) or "").lower() == ref.strip().lower():
            return cid
    raise NotFound(f"no campaign '{ref}' in {store.url}")
