"""An event as stored and exported: its record, the canonical JSON it is hashed as, the chain.

The record of an event is `position, type, recorded_at, actor, tx, payload, prev_hash`. Its hash
is SHA-256 over the record's canonical JSON: keys sorted, no insignificant whitespace, UTF-8
(non-ASCII characters as themselves), integers only — exactly Python's
`json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)`.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import msgspec

from ledger import events as ev
from ledger.errors import BadInput

GENESIS = "0" * 64

# The largest whole number a record may hold: every JSON parser (JavaScript's too) reads it exactly,
# so a third party's verifier hashes what was stored, and totals of such numbers still fit the
# read models' 64-bit columns.
LARGEST_NUMBER = 2**53 - 1


class Record(msgspec.Struct, frozen=True, kw_only=True):
    position: int  # 1-based place in the campaign's stream
    tx: int  # transaction number, 1-based
    actor: str
    recorded_at: str  # UTC, ISO 8601 with microseconds and a Z
    prev_hash: str
    hash: str
    event: Any  # an ev.Event

    def body(self) -> dict[str, Any]:
        """The record exactly as the audit trail exports it (without hash and annotations)."""
        return record_body(
            position=self.position,
            event=self.event,
            recorded_at=self.recorded_at,
            actor=self.actor,
            tx=self.tx,
            prev_hash=self.prev_hash,
        )


def record_body(
    *, position: int, event: ev.Event, recorded_at: str, actor: str, tx: int, prev_hash: str
) -> dict[str, Any]:
    return {
        "position": position,
        "type": ev.tag_of(event),
        "recorded_at": recorded_at,
        "actor": actor,
        "tx": tx,
        "payload": ev.payload_of(event),
        "prev_hash": prev_hash,
    }


def canonical(body: dict[str, Any]) -> bytes:
    """The canonical form. msgspec writes exactly the bytes of the json.dumps call above (tested for
    every character), several times faster; it cannot sort keys that are not strings, which
    json.dumps writes as strings."""
    try:
        return msgspec.json.encode(body, order="sorted")
    except TypeError:
        return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def hash_body(body: dict[str, Any]) -> str:
    return hashlib.sha256(canonical(body)).hexdigest()


def check_numbers(value: Any, where: str) -> None:
    """Refuse what a record cannot hold: a fraction (records hold integers only; NaN and
    infinity are fractions too) or a whole number beyond ±LARGEST_NUMBER."""
    if not _plainly_whole(value):
        _check_numbers(value, where)


_DIGITS_AS_ZERO = bytes.maketrans(b"123456789", b"000000000")
_SIXTEEN_DIGITS = b"0" * len(str(LARGEST_NUMBER))  # a number this long may be beyond LARGEST_NUMBER
_NO_FRACTIONS = msgspec.json.Decoder(float_hook=lambda text: _NOT_WHOLE)
_NOT_WHOLE = object()


def within_bounds(encoded: bytes) -> bool:
    """True when no run of digits in this JSON is as long as LARGEST_NUMBER's: every number in it
    is within bounds (False says only: it may not be)."""
    return _SIXTEEN_DIGITS not in encoded.translate(_DIGITS_AS_ZERO)


def _plainly_whole(value: Any) -> bool:
    """True when `value` comes back exactly from its JSON with no fraction in it and every number
    `within_bounds`: what nearly every payload is, found without walking it in Python. False says
    only: walk it."""
    try:
        encoded = msgspec.json.encode(value)
    except (TypeError, msgspec.EncodeError):
        return False
    if not within_bounds(encoded):
        return False
    # A fraction decodes as a marker, and a NaN or an infinity (written as null) as None: neither
    # equals what it was.
    return _NO_FRACTIONS.decode(encoded) == value


def _check_numbers(value: Any, where: str) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            _check_numbers(item, f"{where}.{key}" if str(key).isidentifier() else f"{where}[{key!r}]")  # one line, whatever the key
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _check_numbers(item, f"{where}[{index}]")
    elif isinstance(value, float):
        raise BadInput(f"{value} ({where}) is not a whole number: the ledger records integers only")
    elif isinstance(value, int) and not isinstance(value, bool) and abs(value) > LARGEST_NUMBER:
        raise BadInput(f"{value} ({where}) is {beyond_records(value)}")


def beyond_records(value: int) -> str:
    """Why no record holds `value`, a whole number beyond ±LARGEST_NUMBER."""
    if value > 0:
        return f"too large: the ledger records whole numbers up to {LARGEST_NUMBER}"
    return f"too small: the ledger records whole numbers down to -{LARGEST_NUMBER}"


def check_typed_number(value: int, what: str) -> int:
    """`value`, typed as `what` (an argument, an option, an answer), if a record can hold it; else BadInput
    naming `what` and the limit. Left to the seal, it was refused naming the recorded command's field
    (`command.recorded.args.amount`), which nobody typed."""
    if abs(value) > LARGEST_NUMBER:
        raise BadInput(f"{what}: {value} is {beyond_records(value)}")
    return value


def seal(
    events: list[ev.Event], *, first_position: int, prev_hash: str, tx: int, actor: str, recorded_at: str
) -> list[Record]:
    """Chain a transaction's events after `prev_hash`, refusing a payload no record may hold."""
    records = []
    for offset, event in enumerate(events):
        check_numbers(ev.payload_of(event), ev.tag_of(event))
        body = record_body(
            position=first_position + offset,
            event=event,
            recorded_at=recorded_at,
            actor=actor,
            tx=tx,
            prev_hash=prev_hash,
        )
        digest = hash_body(body)
        records.append(
            Record(
                position=body["position"],
                tx=tx,
                actor=actor,
                recorded_at=recorded_at,
                prev_hash=prev_hash,
                hash=digest,
                event=event,
            )
        )
        prev_hash = digest
    return records


def event_from_body(body: dict[str, Any]) -> ev.Event:
    """Decode the event of an exported record (type + payload) with the one typed decoder."""
    return ev.convert_event({**body["payload"], "type": body["type"]})
