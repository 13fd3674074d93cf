"""The verifiable audit trail: checking a campaign's hash chain (in the database or in an exported
JSON Lines file), re-deriving every ledger die whose seed was revealed, and writing and reading the
export. docs/audit-format.md describes the format for people who write their own verifier.

The chain is never checked through the typed decoder: each record is rebuilt from the JSON that is
stored (or exported), parsed strictly by the standard library, and hashed in its canonical form.
The typed decoder is asked too — a row it cannot read "does not decode" — and its events drive the
checks of dice and seeds. Chain problems are reported at the first bad position (or line) as they
are met; revealed dice are re-derived once the whole chain has been read, since a seed is revealed
after the rolls it made.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from ledger import dice as d
from ledger import events as ev
from ledger import rulesets
from ledger.campaigns import Ledger, fold
from ledger.errors import BadInput, Conflict, IntegrityFailure, NotFound
from ledger.records import GENESIS, Record, canonical, event_from_body, hash_body
from ledger.state import CampaignState, decode_state, encode_state
from ledger.store import Store, decode_record

FORMAT = "campaign-ledger-audit"
FORMAT_VERSION = 1
HASH_ALGORITHM = "sha256"
CANONICAL_FORM = (
    "the record as JSON with keys sorted, separators ',' and ':' and no other whitespace, "
    "non-ASCII characters written as themselves, encoded as UTF-8, integers only: Python's "
    "json.dumps(record, sort_keys=True, separators=(',', ':'), ensure_ascii=False).encode('utf-8')"
)
# The hashed record of an event; an event line adds the keys outside it.
RECORD_KEYS = ("position", "type", "recorded_at", "actor", "tx", "payload", "prev_hash")
EXCLUDED_KEYS = ("hash", "annotations")
_STORED_KEYS = {"position", "tx", "actor", "recorded_at", "prev_hash", "hash", "event"}
_HEX = set("0123456789abcdef")

# Transaction -> what is known about it after the fact (who voided it, when, why): the CLI hands
# in projections.history.void_annotations, which the core may not import.
Annotator = Callable[[Sequence[Record]], dict[int, dict[str, Any]]]


# --- strict JSON -------------------------------------------------------------------------------------


class _Malformed(ValueError):
    """JSON that a record may not be: a float, a duplicated key, a wrong shape."""


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # A duplicated key would be read one way here and another way by a parser that keeps the first.
    obj: dict[str, Any] = {}
    for key, value in pairs:
        if key in obj:
            raise _Malformed(f"key '{key}' appears twice")
        obj[key] = value
    return obj


def _no_float(text: str) -> Any:
    raise _Malformed(f"{text} is not an integer (records hold integers only)")


def _no_constant(text: str) -> Any:
    raise _Malformed(f"{text} is not an integer (records hold integers only)")


def _bounded_int(text: str) -> int:
    # Python refuses to read more than 4300 digits, and msgspec more than 64 bits: say so plainly.
    if len(text.lstrip("-")) > 20:
        raise _Malformed(f"the number {text[:12]}… has {len(text.lstrip('-'))} digits; too large")
    return int(text)


def strict_json(text: str | bytes) -> Any:
    """JSON as the trail allows it: no floats, NaN or duplicated keys (ValueError names the fault)."""
    try:
        return json.loads(
            text, object_pairs_hook=_no_duplicates, parse_float=_no_float, parse_constant=_no_constant,
            parse_int=_bounded_int,
        )
    except RecursionError:
        raise _Malformed("nested too deeply") from None


def canonical_text(obj: dict[str, Any]) -> str:
    return canonical(obj).decode("utf-8")


def _is_hex(text: Any, length: int) -> bool:
    return isinstance(text, str) and len(text) == length and set(text) <= _HEX


def _check_body(body: dict[str, Any], stored_hash: Any) -> None:
    """The record's fields have the types the format defines (bool is not an integer here)."""
    kinds = {"position": int, "tx": int, "type": str, "recorded_at": str, "actor": str, "payload": dict}
    names = {int: "an integer", str: "a string", dict: "a JSON object"}
    for key, kind in kinds.items():
        if type(body[key]) is not kind:
            raise _Malformed(f"'{key}' must be {names[kind]}")
    for key, value in (("prev_hash", body["prev_hash"]), ("hash", stored_hash)):
        if not _is_hex(value, 64):
            raise _Malformed(f"'{key}' must be 64 lowercase hex digits")


def _keys_problem(found: set[str], expected: set[str]) -> str | None:
    missing, extra = sorted(expected - found), sorted(found - expected)
    if missing:
        return f"missing {', '.join(missing)}"
    if extra:
        return f"unexpected {', '.join(extra)}"
    return None


# --- the chain ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """One event as read back: its hashed record, its hash, and the typed record."""

    where: str  # how a problem names it: "position 17" in a store, "line 18" in a file
    body: dict[str, Any]
    hash: str
    record: Record


@dataclass
class Chain:
    """A verified chain and what was learned reading it."""

    entries: list[Entry]
    campaign_id: str
    name: str
    ruleset: dict[str, Any]
    transactions: int
    revealed: dict[int, str]  # epoch -> seed hex, from seed.revealed events and a trailer
    ledger_rolls_verified: int
    ledger_rolls_waiting: dict[int, int]  # epoch whose seed is still secret -> ledger rolls in it
    snapshot: int | None = None  # position of the snapshot checked against the events (stores only)

    @property
    def head(self) -> str:
        return self.entries[-1].hash

    @property
    def records(self) -> list[Record]:
        return [entry.record for entry in self.entries]


@dataclass
class _LedgerRoll:
    where: str
    event: ev.DiceRolled
    die_sides: list[int]


def _die_sides(expression: str) -> list[int]:
    """The dice a recorded expression rolls: `shuffle K` (a Fisher–Yates shuffle of K cards) or a dice expression."""
    words = expression.split(" ")
    if words[0] == "shuffle":
        if len(words) != 2 or not words[1].isdigit() or int(words[1]) < 1:
            raise BadInput(f"'{expression}' is not a shuffle (shuffle K, K at least 1)")
        return d.shuffle_die_sides(int(words[1]))
    return d.parse_expression(expression).die_sides


def _counts_as(expression: str, faces: list[int]) -> tuple[int, list[int]]:
    if expression.startswith("shuffle"):
        return 0, []
    return d.parse_expression(expression).evaluate(faces)


@dataclass
class ChainChecker:
    """Reads entries in stream order and raises IntegrityFailure at the first that does not verify."""

    entries: list[Entry] = field(default_factory=list)
    campaign_id: str | None = None
    name: str = ""
    ruleset: dict[str, Any] = field(default_factory=dict)
    epoch: int | None = None  # the committed epoch whose dice are being rolled
    commitments: dict[int, tuple[str, str]] = field(default_factory=dict)  # epoch -> (commitment, where)
    revealed: dict[int, str] = field(default_factory=dict)
    revealed_in: dict[int, int] = field(default_factory=dict)  # epoch -> transaction of its reveal
    rolls: int = 0
    ledger_rolls: list[_LedgerRoll] = field(default_factory=list)
    thrown: dict[int, tuple[str, list[int]]] = field(default_factory=dict)  # roll -> (expression, faces)

    @staticmethod
    def fail(where: str, problem: str) -> IntegrityFailure:
        return IntegrityFailure(f"{where}: {problem}")

    def add(self, entry: Entry) -> None:
        body, where = entry.body, entry.where
        previous = self.entries[-1] if self.entries else None
        expected = len(self.entries) + 1
        if body["position"] != expected:
            raise self.fail(where, f"holds position {body['position']} where position {expected} was expected "
                                   "(an event was removed, added or moved)")
        if hash_body(body) != entry.hash:
            raise self.fail(where, "stored hash does not match its record (the event was edited)")
        if previous is None and body["prev_hash"] != GENESIS:
            raise self.fail(where, "the first event's prev_hash must be 64 zeros")
        if previous is not None and body["prev_hash"] != previous.hash:
            raise self.fail(where, f"its prev_hash is not the hash of position {expected - 1} "
                                   "(an event before it was replaced, or this one was edited)")
        last_tx = previous.body["tx"] if previous else 0
        if body["tx"] not in (last_tx, last_tx + 1) or (previous is None and body["tx"] != 1):
            raise self.fail(where, f"transaction {body['tx']} follows transaction {last_tx} "
                                   "(transactions are numbered from 1 without gaps)")
        self._follow(entry, previous)
        self.entries.append(entry)

    def _follow(self, entry: Entry, previous: Entry | None) -> None:
        """The ledger's own bookkeeping: the campaign, the ruleset, seeds, roll numbers, shuffles."""
        event, where, tx = entry.record.event, entry.where, entry.body["tx"]
        match event:
            case ev.CampaignStarted():
                if self.campaign_id is not None:
                    raise self.fail(where, "a second campaign.started in one campaign")
                if not _is_canonical_uuid(event.campaign_id):
                    raise self.fail(where, f"campaign id '{event.campaign_id}' is not a lowercase hyphenated UUID")
                self.campaign_id, self.name = event.campaign_id, event.name
            case ev.RulesetPinned() if not self.ruleset:
                self.ruleset = {"id": event.ruleset, "version": event.version, "options": dict(event.options)}
            case ev.SeedCommitted():
                self._committed(where, tx, event)
            case ev.SeedRevealed():
                self._revealed(where, tx, event)
            case ev.DiceRolled():
                self._rolled(where, event)
            case ev.DeckShuffled(source="ledger"):
                shuffle = previous.record.event if previous else None
                if not (isinstance(shuffle, ev.DiceRolled) and shuffle.roll == event.roll
                        and shuffle.expression == f"shuffle {len(event.cards)}"):
                    raise self.fail(where, f"a ledger shuffle of {len(event.cards)} cards must follow its roll "
                                           f"R{event.roll} ('shuffle {len(event.cards)}')")

    def _committed(self, where: str, tx: int, event: ev.SeedCommitted) -> None:
        expected = 0 if self.epoch is None else self.epoch + 1
        if event.epoch != expected:
            raise self.fail(where, f"commits epoch {event.epoch} where epoch {expected} was expected")
        if expected > 0 and self.revealed_in.get(expected - 1) != tx:
            raise self.fail(where, f"commits epoch {expected} without revealing epoch {expected - 1} "
                                   "in the same transaction")
        if not _is_hex(event.commitment, 64):
            raise self.fail(where, "a commitment is 64 lowercase hex digits")
        self.epoch = event.epoch
        self.commitments[event.epoch] = (event.commitment, where)

    def _revealed(self, where: str, tx: int, event: ev.SeedRevealed) -> None:
        if event.epoch != self.epoch or event.epoch in self.revealed:
            raise self.fail(where, f"reveals epoch {event.epoch}, but epoch {self.epoch} is the one in use")
        problem = self.seed_problem(event.epoch, event.seed)
        if problem:
            raise self.fail(where, problem)
        self.revealed[event.epoch] = event.seed
        self.revealed_in[event.epoch] = tx

    def seed_problem(self, epoch: int, seed: Any) -> str | None:
        if not _is_hex(seed, 64):
            return f"the seed of epoch {epoch} must be 64 lowercase hex digits (32 bytes)"
        if epoch not in self.commitments:
            return f"a seed for epoch {epoch}, which was never committed"
        commitment, committed_at = self.commitments[epoch]
        if d.commitment(bytes.fromhex(seed)) != commitment:
            return f"the seed of epoch {epoch} does not match its commitment ({committed_at})"
        return None

    def _rolled(self, where: str, event: ev.DiceRolled) -> None:
        label = f"roll R{event.roll}"
        if event.roll != self.rolls:
            raise self.fail(where, f"{label} where R{self.rolls} was expected (roll numbers have no gaps)")
        self.rolls += 1
        try:
            sides = _die_sides(event.expression)
        except BadInput as error:
            raise self.fail(where, f"{label}: {error}") from None
        if len(event.faces) != len(sides) or any(not 1 <= f <= s for f, s in zip(event.faces, sides)):
            raise self.fail(where, f"{label}: faces {event.faces} cannot come from {event.expression}")
        value, kept = _counts_as(event.expression, event.faces)
        if (event.value, event.kept) != (value, kept):
            raise self.fail(where, f"{label}: {event.expression} showing {event.faces} counts as {value} "
                                   f"(kept {kept}), not {event.value} (kept {event.kept})")
        self.thrown[event.roll] = (event.expression, event.faces)
        if event.copy_of is not None:
            # A reroll kept this undisputed roll of the transaction it re-decided: same dice, new number.
            if self.thrown.get(event.copy_of) != (event.expression, event.faces):
                raise self.fail(where, f"{label} claims to copy R{event.copy_of}, but its dice differ")
        elif event.source == "table":
            if event.epoch is not None:
                raise self.fail(where, f"{label}: table dice name no epoch")
        elif event.source == "ledger":
            if self.epoch is None or event.epoch != self.epoch or self.epoch in self.revealed:
                in_use = "none" if self.epoch is None or self.epoch in self.revealed else str(self.epoch)
                raise self.fail(where, f"{label}: ledger dice of epoch {event.epoch}, but the epoch with "
                                       f"a secret committed seed is {in_use}")
            self.ledger_rolls.append(_LedgerRoll(where, event, sides))
        else:
            raise self.fail(where, f"{label}: source '{event.source}' is neither 'table' nor 'ledger'")

    def finish(self, more_seeds: dict[int, tuple[str, str]] | None = None) -> Chain:
        """Re-derive the revealed ledger dice; `more_seeds`: epoch -> (seed, where) from a trailer."""
        if not self.entries:
            raise IntegrityFailure("the chain holds no events")
        if self.campaign_id is None:
            raise IntegrityFailure("the chain has no campaign.started event")
        seeds = dict(self.revealed)
        for epoch, (seed, where) in sorted((more_seeds or {}).items()):
            problem = self.seed_problem(epoch, seed)
            if problem is None and epoch in self.revealed and self.revealed[epoch] != seed:
                problem = f"the seed of epoch {epoch} differs from the one revealed in the chain"
            if problem:
                raise self.fail(where, problem)
            seeds[epoch] = seed
        verified, waiting = 0, {}
        for roll in self.ledger_rolls:
            epoch = roll.event.epoch
            assert epoch is not None  # _rolled refused ledger dice without an epoch
            if epoch not in seeds:
                waiting[epoch] = waiting.get(epoch, 0) + 1
                continue
            derived = d.ledger_faces(bytes.fromhex(seeds[epoch]), self.campaign_id, roll.event.roll, roll.die_sides)
            if derived != roll.event.faces:
                raise self.fail(roll.where, f"ledger roll R{roll.event.roll} shows {roll.event.faces}, but the "
                                            f"revealed seed of epoch {epoch} gives {derived}")
            verified += 1
        return Chain(
            entries=self.entries,
            campaign_id=self.campaign_id,
            name=self.name,
            ruleset=self.ruleset,
            transactions=self.entries[-1].body["tx"],
            revealed=seeds,
            ledger_rolls_verified=verified,
            ledger_rolls_waiting=waiting,
        )


def _is_canonical_uuid(text: str) -> bool:
    try:
        return str(uuid.UUID(text)) == text
    except ValueError:
        return False


def locate_head(chain: Chain, noted: str) -> int:
    """The position of a noted head (its full hash or a prefix of at least 8 hex digits)."""
    prefix = noted.strip().lower()
    if not 8 <= len(prefix) <= 64 or not set(prefix) <= _HEX:
        raise BadInput(f"--head takes a head hash or at least its first 8 hex digits, not '{noted}'")
    found = [entry.body["position"] for entry in chain.entries if entry.hash.startswith(prefix)]
    if not found:
        raise IntegrityFailure(f"the noted head {prefix} is not in this chain: the history it ended was changed")
    if len(found) > 1:
        raise BadInput(f"--head {prefix} matches positions {', '.join(map(str, found))}: give more digits")
    return found[0]


# --- the store ---------------------------------------------------------------------------------------


def _row_bytes(row: Any) -> bytes:
    # An edit made with an SQL client may leave text where the library wrote a blob.
    return row.state.encode("utf-8") if isinstance(row.state, str) else bytes(row.state)


def _stored_entry(row: Any) -> Entry:
    """A stored row as an entry, or a ValueError / msgspec.DecodeError saying why it cannot be one."""
    data = _row_bytes(row)
    raw = strict_json(data)
    if not isinstance(raw, dict):
        raise _Malformed("not a JSON object")
    problem = _keys_problem(set(raw), _STORED_KEYS)
    if problem:
        raise _Malformed(problem)
    event = raw["event"]
    if not isinstance(event, dict) or not isinstance(event.get("type"), str):
        raise _Malformed("'event' must be a JSON object with a 'type'")
    body = {
        "position": raw["position"],
        "type": event["type"],
        "recorded_at": raw["recorded_at"],
        "actor": raw["actor"],
        "tx": raw["tx"],
        "payload": {key: value for key, value in event.items() if key != "type"},
        "prev_hash": raw["prev_hash"],
    }
    _check_body(body, raw["hash"])
    return Entry(where=f"position {row.originator_version}", body=body, hash=raw["hash"], record=decode_record(data))


def verify_store(store: Store, campaign_id: uuid.UUID) -> Chain:
    """Check a campaign's stored chain, its revealed dice and its latest snapshot."""
    rulesets.load_rulesets()  # every ruleset's event types must be known to decode its rows
    checker = ChainChecker()
    rows = store.raw_rows(campaign_id)
    if not rows:
        raise NotFound(f"no campaign {campaign_id} in {store.url}")
    for expected, row in enumerate(rows, start=1):
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
        checker.add(entry)
        started = entry.record.event
        if isinstance(started, ev.CampaignStarted) and started.campaign_id != str(campaign_id):
            raise IntegrityFailure(f"{where}: names campaign {started.campaign_id} in the stream of {campaign_id}")
    chain = checker.finish()
    chain.snapshot = _check_snapshot(store, campaign_id, chain.records)
    return chain


def _check_snapshot(store: Store, campaign_id: uuid.UUID, records: list[Record]) -> int | None:
    """The latest snapshot (what loading starts from) must be the fold of the events up to it."""
    snapshot = store.latest_snapshot(campaign_id, sound=False)  # a damaged one is reported, not passed over
    if snapshot is None:
        return None
    position, data = snapshot
    if position > len(records):
        raise IntegrityFailure(f"the snapshot at position {position} is beyond the last event ({len(records)})")
    expected = msgspec.json.decode(encode_state(fold(records[:position])))
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


# --- the JSON Lines trail ------------------------------------------------------------------------------


def trail_lines(chain: Chain, annotate: Annotator) -> Iterator[str]:
    """The export: a header line, one line per event, a trailer line (each canonical JSON)."""
    notes = annotate(chain.records)
    yield canonical_text(
        {
            "kind": "header",
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "campaign": {"id": chain.campaign_id, "name": chain.name},
            "ruleset": chain.ruleset,
            "hash": {
                "algorithm": HASH_ALGORITHM,
                "canonical": CANONICAL_FORM,
                "record_keys": list(RECORD_KEYS),
                "excluded_keys": list(EXCLUDED_KEYS),
                "genesis": GENESIS,
            },
        }
    )
    for entry in chain.entries:
        yield canonical_text(
            {**entry.body, "hash": entry.hash, "annotations": _annotations(notes, entry.body["tx"])}
        )
    yield canonical_text(
        {
            "kind": "trailer",
            "count": len(chain.entries),
            "head": chain.head,
            "revealed_seeds": {str(epoch): seed for epoch, seed in sorted(chain.revealed.items())},
        }
    )


def _annotations(notes: dict[int, dict[str, Any]], tx: int) -> dict[str, Any]:
    return {"voided": notes[tx]} if tx in notes else {}


@dataclass
class _Line:
    number: int
    obj: dict[str, Any]


def _lines(data: bytes) -> Iterator[_Line]:
    """Each line of a trail as a JSON object; the newline after the last line is optional."""
    raw_lines = data.split(b"\n")
    if raw_lines and raw_lines[-1] == b"":
        raw_lines.pop()
    if not raw_lines:
        raise BadInput("the trail is empty")
    for number, raw in enumerate(raw_lines, start=1):
        try:
            obj = strict_json(raw.decode("utf-8"))
        except UnicodeDecodeError:
            raise IntegrityFailure(f"line {number}: does not decode: not UTF-8 text") from None
        except ValueError as error:  # json.JSONDecodeError and _Malformed
            raise IntegrityFailure(f"line {number}: does not decode: {error}") from None
        # Event lines are exactly record + hash + annotations; only the header and trailer say their kind.
        if not isinstance(obj, dict) or obj.get("kind") not in (None, "header", "trailer"):
            raise IntegrityFailure(f"line {number}: not a header, event or trailer line (its 'kind')")
        yield _Line(number, obj)


def _header_problem(header: dict[str, Any]) -> str | None:
    if header.get("format") != FORMAT:
        return f"not a {FORMAT} trail (format {header.get('format')!r})"
    if header.get("version") != FORMAT_VERSION:
        return f"format version {header.get('version')!r}; this campaign-ledger reads version {FORMAT_VERSION}"
    algorithm = header.get("hash", {}).get("algorithm") if isinstance(header.get("hash"), dict) else None
    if algorithm != HASH_ALGORITHM:
        return f"hash algorithm {algorithm!r}; trails are hashed with {HASH_ALGORITHM}"
    return None


def _event_entry(line: _Line) -> tuple[Entry, Any]:
    """An event line as an entry, and its annotations."""
    where = f"line {line.number}"
    problem = _keys_problem(set(line.obj), {*RECORD_KEYS, *EXCLUDED_KEYS})
    if problem:
        raise IntegrityFailure(f"{where}: does not decode: {problem}")
    body = {key: line.obj[key] for key in RECORD_KEYS}
    try:
        _check_body(body, line.obj["hash"])
        event = event_from_body(body)
    except (_Malformed, msgspec.ValidationError) as error:
        raise IntegrityFailure(f"{where}: does not decode: {error}") from None
    record = Record(
        position=body["position"],
        tx=body["tx"],
        actor=body["actor"],
        recorded_at=body["recorded_at"],
        prev_hash=body["prev_hash"],
        hash=line.obj["hash"],
        event=event,
    )
    return Entry(where=where, body=body, hash=line.obj["hash"], record=record), line.obj["annotations"]


def _trailer_seeds(line: _Line) -> dict[int, tuple[str, str]]:
    seeds = line.obj.get("revealed_seeds")
    where = f"line {line.number}"
    if not isinstance(seeds, dict) or not all(k.isdigit() and str(int(k)) == k for k in seeds):
        raise IntegrityFailure(f"{where}: 'revealed_seeds' must map epochs ('0', '1', …) to seeds")
    return {int(epoch): (seed, where) for epoch, seed in seeds.items()}


def read_trail(data: bytes, annotate: Annotator) -> Chain:
    """Verify an exported trail on its own; the first line that does not verify is named."""
    rulesets.load_rulesets()
    checker = ChainChecker()
    annotations: list[Any] = []
    header: _Line | None = None
    trailer: _Line | None = None
    last = 0
    for line in _lines(data):
        last = line.number
        kind = line.obj.get("kind", "event")
        if header is None:
            if kind != "header":
                raise IntegrityFailure(f"line {line.number}: the trail must start with its header line")
            problem = _header_problem(line.obj)
            if problem:
                raise IntegrityFailure(f"line {line.number}: {problem}")
            header = line
        elif trailer is not None:
            raise IntegrityFailure(f"line {line.number}: nothing may follow the trailer (line {trailer.number})")
        elif kind == "event":
            entry, notes = _event_entry(line)
            checker.add(entry)
            annotations.append(notes)
        elif kind == "trailer":
            trailer = line
        else:
            raise IntegrityFailure(f"line {line.number}: a second header")
    assert header is not None  # _lines yields at least one line, and the first must be the header
    if trailer is None:
        raise IntegrityFailure(f"line {last + 1}: the trailer line is missing (the trail was cut short)")
    chain = checker.finish(_trailer_seeds(trailer))
    _check_header(header, chain)
    _check_trailer(trailer, chain)
    _check_annotations(chain, annotations, annotate)
    return chain


def _check_header(header: _Line, chain: Chain) -> None:
    said = {"campaign": header.obj.get("campaign"), "ruleset": header.obj.get("ruleset")}
    chained = {"campaign": {"id": chain.campaign_id, "name": chain.name}, "ruleset": chain.ruleset}
    for key in said:
        if said[key] != chained[key]:
            raise IntegrityFailure(f"line {header.number}: its {key} {json.dumps(said[key], ensure_ascii=False)} "
                                   f"is not the chain's {json.dumps(chained[key], ensure_ascii=False)}")


def _check_trailer(trailer: _Line, chain: Chain) -> None:
    where = f"line {trailer.number}"
    if trailer.obj.get("count") != len(chain.entries):
        raise IntegrityFailure(f"{where}: counts {trailer.obj.get('count')} events, the trail holds {len(chain.entries)}")
    if trailer.obj.get("head") != chain.head:
        raise IntegrityFailure(f"{where}: its head is not the hash of the last event")


def _check_annotations(chain: Chain, annotations: list[Any], annotate: Annotator) -> None:
    """Annotations are outside the hashes, but they must say what the chain's voids say."""
    notes = annotate(chain.records)
    for entry, found in zip(chain.entries, annotations):
        expected = _annotations(notes, entry.body["tx"])
        if found != expected:
            raise IntegrityFailure(f"{entry.where}: its annotations are not what the chain says: "
                                   f"{json.dumps(expected, ensure_ascii=False, sort_keys=True)}")


# --- import ------------------------------------------------------------------------------------------


def import_chain(ledger: Ledger, chain: Chain) -> CampaignState:
    """Store a verified trail's records exactly (same positions, transactions, actors, times, hashes)
    in one atomic save, so the imported campaign has the same head."""
    store = ledger.store
    for entry in chain.entries:
        # The store re-encodes the typed event: it must come out as the payload that was hashed.
        stored = ev.payload_of(entry.record.event)
        if stored != entry.body["payload"]:
            differ = sorted(k for k in {*stored, *entry.body["payload"]} if stored.get(k) != entry.body["payload"].get(k))
            raise BadInput(f"{entry.where}: this version of campaign-ledger would store {entry.body['type']} "
                           f"differently ({', '.join(differ)}), so the imported chain would not verify; nothing imported")
    campaign_id = uuid.UUID(chain.campaign_id)
    if campaign_id in store.campaign_ids():
        raise Conflict(f"campaign {chain.name} ({campaign_id}) is already in {store.url}: nothing imported")
    for other in store.campaign_ids():
        if (stored_name(store, other) or "").lower() == chain.name.lower():
            raise BadInput(f"a campaign named '{chain.name}' already exists in {store.url}; the name is part of "
                           "the hashed history, so import into another store")
    return ledger.adopt(campaign_id, chain.records)
