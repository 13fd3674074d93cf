"""The audit trail's JSON: the hashed record's keys, the canonical form, and JSON read as strictly as
the format allows (no floats, NaN or repeated keys), so a record is hashed as it was written."""

from __future__ import annotations

import functools
import json
import re
from datetime import date
from typing import Any

import msgspec

from ledger.records import canonical

HASH_ALGORITHM = "sha256"
CANONICAL_FORM = (
    "the record as JSON with keys sorted, separators ',' and ':' and no other whitespace, "
    "non-ASCII characters written as themselves, encoded as UTF-8, integers only: Python's "
    "json.dumps(record, sort_keys=True, separators=(',', ':'), ensure_ascii=False).encode('utf-8')"
)
# The hashed record of an event; an event line adds the keys outside it.
RECORD_KEYS = ("position", "type", "recorded_at", "actor", "tx", "payload", "prev_hash")
EXCLUDED_KEYS = ("hash", "annotations")
HEX_DIGITS = set("0123456789abcdef")


class Malformed(ValueError):
    """JSON that a record may not be: a float, a duplicated key, a wrong shape."""


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # A duplicated key would be read one way here and another way by a parser that keeps the first.
    obj: dict[str, Any] = {}
    for key, value in pairs:
        if key in obj:
            raise Malformed(f"key '{key}' appears twice")
        obj[key] = value
    return obj


def _no_float(text: str) -> Any:
    raise Malformed(f"{text} is not an integer (records hold integers only)")


def _no_constant(text: str) -> Any:
    raise Malformed(f"{text} is not an integer (records hold integers only)")


def _bounded_int(text: str) -> int:
    # Python refuses to read more than 4300 digits, and msgspec more than 64 bits: say so plainly.
    if len(text.lstrip("-")) > 20:
        raise Malformed(f"the number {text[:12]}… has {len(text.lstrip('-'))} digits; too large")
    return int(text)


def refuse_float(text: str) -> Any:
    raise Malformed(text)


# Reads JSON fast; what it accepts is checked as below before it is trusted.
_PLAIN_DECODER = msgspec.json.Decoder(float_hook=refuse_float)
# More digits than a record's number may have (see _bounded_int); sought, not a copy made to seek.
_LONG_NUMBER = re.compile(b"[0-9]{21}")
_NOT_PLAIN = object()


def _plain(text: str | bytes) -> Any:
    """JSON exactly as msgspec writes it (the trail's lines and the stored rows are) without a float
    or a number too long, decoded fast; _NOT_PLAIN for anything else. Writing it again gives back
    the same bytes, so it has no repeated key (the second would be dropped) and no other spelling
    the standard library could read differently."""
    try:
        data = text.encode("utf-8") if isinstance(text, str) else bytes(text)
        obj = _PLAIN_DECODER.decode(data)
    except (msgspec.MsgspecError, UnicodeError, RecursionError):
        return _NOT_PLAIN
    if msgspec.json.encode(obj) != data or _LONG_NUMBER.search(data):
        return _NOT_PLAIN
    return obj


def plain_object(data: bytes) -> dict[str, Any] | None:
    """A JSON object exactly as msgspec writes it (see _plain), decoded fast; None for anything else
    (the caller reads it the strict way, which names the fault)."""
    obj = _plain(data)
    return obj if type(obj) is dict else None


def strict_json(text: str | bytes) -> Any:
    """JSON as the trail allows it: no floats, NaN or duplicated keys (ValueError names the fault).
    Plain JSON (see _plain) is read fast, bytes without a copy as text; the rest by the standard
    library, whose hooks name the fault (bytes that are not UTF-8: UnicodeDecodeError)."""
    obj = _plain(text)
    if obj is not _NOT_PLAIN:
        return obj
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    try:
        obj = json.loads(
            text, object_pairs_hook=_no_duplicates, parse_float=_no_float, parse_constant=_no_constant,
            parse_int=_bounded_int,
        )
    except RecursionError:
        raise Malformed("nested too deeply") from None
    refuse_lone_surrogates(obj)
    return obj


def refuse_lone_surrogates(obj: Any) -> None:
    """Malformed where a string of decoded JSON holds half of a UTF-16 surrogate pair without the
    other half (an escape such as \\ud800): the standard library reads it into a string that is not
    text, which no UTF-8 can hold (the record could not be hashed, nor the option stored). The fast
    reader (msgspec) refuses it itself."""
    try:
        msgspec.json.encode(obj)
    except UnicodeEncodeError as error:
        raise Malformed(f"a string holds {ascii(error.object[error.start])[1:-1]}, a lone UTF-16 surrogate "
                        "(half of a pair), which is not a character") from None
    except RecursionError:
        raise Malformed("nested too deeply") from None


def canonical_text(obj: dict[str, Any]) -> str:
    return canonical(obj).decode("utf-8")


_HEX = re.compile("[0-9a-f]*")


def same_value(value: Any, expected: Any) -> bool:
    """Equal as JSON values are: true is not 1 (Python has true == 1 and false == 0)."""
    return type(value) is type(expected) and value == expected


def is_hex(text: Any, length: int) -> bool:
    """Is `text` a string of `length` lowercase hex digits? An even length is read back through its
    bytes (a third of a pattern's time: two hashes of every event verified are asked about)."""
    if not isinstance(text, str) or len(text) != length:
        return False
    if length % 2:
        return _HEX.fullmatch(text) is not None
    try:
        return bytes.fromhex(text).hex() == text
    except ValueError:  # not hex digits (or not ASCII)
        return False


_BODY_KINDS = {"position": int, "tx": int, "type": str, "recorded_at": str, "actor": str, "payload": dict}
_KIND_NAMES = {int: "an integer", str: "a string", dict: "a JSON object"}


# docs/audit-format.md: "UTC time of the transaction, YYYY-MM-DDTHH:MM:SS.ffffffZ" (as the ledger writes it).
_RECORDED_AT = re.compile(r"[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])T([01][0-9]|2[0-3]):[0-5][0-9]:([0-5][0-9]|60)"
                          r"\.[0-9]{6}Z")


def check_body(body: dict[str, Any], stored_hash: Any) -> None:
    """The record's fields have the types the format defines (bool is not an integer here)."""
    for key, kind in _BODY_KINDS.items():
        if type(body[key]) is not kind:
            raise Malformed(f"'{key}' must be {_KIND_NAMES[kind]}")
    if not is_utc_time(body["recorded_at"]):
        raise Malformed("'recorded_at' must be a UTC time written YYYY-MM-DDTHH:MM:SS.ffffffZ")
    for key, value in (("prev_hash", body["prev_hash"]), ("hash", stored_hash)):
        if not is_hex(value, 64):
            raise Malformed(f"'{key}' must be 64 lowercase hex digits")


def is_utc_time(text: str) -> bool:
    """Written as the format says, in ASCII digits, on a day the calendar has (not 2026-02-30)."""
    return _RECORDED_AT.fullmatch(text) is not None and _is_a_day(text[:10])


@functools.lru_cache(maxsize=4096)  # a transaction's events share their time: most days are asked again
def _is_a_day(text: str) -> bool:
    try:
        date.fromisoformat(text)
    except ValueError:
        return False
    return True


def keys_problem(found: set[str], expected: set[str]) -> str | None:
    if found == expected:
        return None
    missing, extra = sorted(expected - found), sorted(found - expected)
    if missing:
        return f"missing {', '.join(missing)}"
    if extra:
        return f"unexpected {', '.join(extra)}"
    return None
