"""The JSON Lines trail: writing it (header with each ledger deck's starting order, one line per
event, trailer), reading and verifying one on its own, and importing it — once every transaction
is re-decided under the rules in force at it. docs/audit-format.md describes the file."""

from __future__ import annotations

import functools
import hashlib
import io
import json
import os
import shutil
import tempfile
import uuid
from array import array
from collections.abc import Callable, Container, Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, BinaryIO

import msgspec

from ledger import dice as d
from ledger import events as ev
from ledger import rulesets
from ledger.beside import LOST, Beside
from ledger.campaigns import STARTING_CAMPAIGNS, History, Ledger
from ledger.chain import READ_DIGEST, Chain, ChainChecker, Entry, Progress, die_sides, entry_of, read_digest, record_of
from ledger.errors import BadInput, IntegrityFailure, LedgerError, NotFound
from ledger.records import GENESIS, Record, check_numbers, event_from_body, within_bounds
from ledger.rechecking import recheck
from ledger.state import CampaignState
from ledger.store import Store
from ledger.stored_chain import StoredReading, stored_names
from ledger.trail_json import (
    CANONICAL_FORM,
    EXCLUDED_KEYS,
    HASH_ALGORITHM,
    RECORD_KEYS,
    Malformed,
    canonical_text,
    check_body,
    is_hex,
    is_utc_time,
    keys_problem,
    plain_object,
    refuse_float,
    same_value,
    strict_json,
)

FORMAT = "campaign-ledger-audit"
FORMAT_VERSION = 1
# Transaction -> what is known about it after the fact (who voided it, when, why), from the chain's
# transaction.voided records: the CLI hands in projections.history.void_annotations, which the core
# may not import.
Annotator = Callable[[Sequence[Record]], dict[int, dict[str, Any]]]


def trail_lines(chain: Chain, annotate: Annotator) -> Iterator[str]:
    """The export of a verified chain: a header line, one line per event, a trailer line (each
    canonical JSON), each event read again as it is written."""
    notes = annotate(chain.voids)
    yield _header_line(chain.campaign_id, chain.name, chain.ruleset, chain.ledger_decks)
    for entry in chain.entries:
        yield _event_line(entry, notes)
    yield _trailer_line(chain)


DECK_SHUFFLED = ev.DeckShuffled.__struct_config__.tag


def store_trail_lines(store: Store, campaign_id: uuid.UUID, annotate: Annotator, advance: Progress | None = None
                      ) -> Iterator[str]:
    """The export of a campaign as stored, verified as it is written: the events are read once (the
    voids, which a line's annotations name, read ahead through the topic index), up to the position
    the campaign had when the export began. IntegrityFailure at the first event that does not
    verify: the caller keeps what was written only once the trailer is (`campaign export` writes to
    a file it renames at the end). Each event is written once as it verifies: the chain keeps
    nothing to read it again by."""
    reading = StoredReading(store, campaign_id, advance, read_again=False)
    notes = annotate(reading.voids)
    # The decks the header gives a starting order, read ahead through the topic index as the voids are
    shuffled = dict.fromkeys(r.event.deck for r in store.records_tagged(campaign_id, (DECK_SHUFFLED,))
                             if r.event.source == "ledger")
    held: list[str] | None = []  # event lines before the campaign and its ruleset are known (the header names them)
    for entry in reading.entries():
        line = _event_line(entry, notes)
        if held is None:
            yield line
            continue
        held.append(line)
        if reading.checker.campaign_id is not None and reading.checker.ruleset:
            yield _header_line(reading.checker.campaign_id, reading.checker.name, reading.checker.ruleset, shuffled)
            yield from held
            held = None
    chain = reading.finish()
    if held is not None:
        yield _header_line(chain.campaign_id, chain.name, chain.ruleset, shuffled)
        yield from held
    yield _trailer_line(chain)


def _header_line(campaign_id: str, name: str, ruleset: dict[str, Any], shuffled: Iterable[str]) -> str:
    return canonical_text(
        {
            "kind": "header",
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "campaign": {"id": campaign_id, "name": name},
            "ruleset": ruleset,
            "decks": deck_orders(ruleset, shuffled),
            "hash": {
                "algorithm": HASH_ALGORITHM,
                "canonical": CANONICAL_FORM,
                "record_keys": list(RECORD_KEYS),
                "excluded_keys": list(EXCLUDED_KEYS),
                "genesis": GENESIS,
            },
        }
    )


def _event_line(entry: Entry, notes: dict[int, dict[str, Any]]) -> str:
    return canonical_text({**entry.body, "hash": entry.hash, "annotations": _annotations(notes, entry.body["tx"])})


def _trailer_line(chain: Chain) -> str:
    return canonical_text(
        {
            "kind": "trailer",
            "count": chain.count,
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
    raw: bytes


READ_CHUNK = 1 << 16  # bytes of a trail file read at once: larger ones leave the heap fragmented
# The longest line a trail may have. The longest an export writes are those holding the options
# pinned at the campaign's start (its command.recorded, ruleset.pinned and the header): at most 1 MB
# from each house-rules file (--options-file, --tables) and a few more from --option values on a
# command line. A longer line is no trail's (/dev/zero, a file of another kind): refused once this
# much of it is read, not held whole first.
LINE_LIMIT = 32 << 20


def _numbered_lines(read: Callable[[], bytes]) -> Iterator[tuple[int, bytes]]:
    """Each line of the bytes `read()` gives a chunk at a time (b"" at their end), numbered from 1,
    without its newline (optional after the last line); IntegrityFailure at a line longer than
    LINE_LIMIT, once that much of it is read. A line read in several chunks is joined once, where it
    ends (rebuilding it at each chunk took time growing with the square of its length)."""
    number, pieces, held = 0, [], 0  # the line begun in earlier chunks: its pieces, their length
    while chunk := read():
        ended = chunk.split(b"\n")
        rest = ended.pop()
        if ended and pieces:  # the line begun earlier ends in this chunk
            ended[0] = b"".join((*pieces, ended[0]))
            pieces, held = [], 0
            if len(ended[0]) > LINE_LIMIT:  # a line within one chunk is shorter
                raise _too_long(number + 1)
        for line in ended:
            number += 1
            yield number, line
        if rest:
            pieces.append(rest)
            held += len(rest)
            if held > LINE_LIMIT:
                raise _too_long(number + 1)
    if pieces:
        yield number + 1, b"".join(pieces)


# The most JSON values a line may hold, counted from above by its commas and opening brackets (a
# string's count too). Each value is read into memory as an object of some 40 to 80 bytes: a line of
# 30 MB, under LINE_LIMIT, of `{},{},…` took 880 MB. The export's most crowded lines hold a house-rules
# file (at most 1 MB of JSON, under 700,000 of them; a house deck of cards some 110,000 a MB) and the
# --option values, scalars but for the tables. Refused before the line is decoded.
VALUES_LIMIT = 1 << 20


def _refuse_crowded(number: int, raw: bytes) -> None:
    if len(raw) <= VALUES_LIMIT:  # fewer bytes than the limit: fewer values (most lines, not counted)
        return
    counted = raw.count(b",") + raw.count(b"{") + raw.count(b"[")
    if counted > VALUES_LIMIT:
        raise IntegrityFailure(f"line {number}: holds {counted:,} commas and opening brackets, more than "
                               f"{VALUES_LIMIT:,}, which no line of a trail holds (JSON values, each read into "
                               "memory): not a campaign-ledger trail")


def _too_long(number: int) -> IntegrityFailure:
    return IntegrityFailure(f"line {number}: longer than {LINE_LIMIT:,} bytes, which no line of a trail is: "
                            "not a campaign-ledger trail")


class _TrailFile:
    """A trail's bytes, read line by line as often as asked (a pipe is copied to a temporary file
    first). A file is read at its own offsets (os.pread), not the one its descriptor shares with a
    process forked beside this one, so that both can read it at once (import's verifying and its
    storing do)."""

    def __init__(self, data: bytes | BinaryIO):
        if isinstance(data, bytes):
            self.file: BinaryIO = io.BytesIO(data)
        elif data.seekable():
            self.file = data
        else:
            self.file = tempfile.TemporaryFile()  # noqa: SIM115 - closed with the process
            # Line by line: a line too long (`cat /dev/zero |`) is refused before it fills the disk.
            for _number, line in _numbered_lines(functools.partial(data.read, READ_CHUNK)):
                self.file.write(line + b"\n")
            self.file.seek(0)  # the copy is read from its start
        self.start = self.file.tell()
        try:
            self.descriptor: int | None = self.file.fileno()
        except (OSError, ValueError):  # io.UnsupportedOperation: a stream in memory
            self.descriptor = None

    def raw_lines(self) -> Iterator[tuple[int, bytes]]:
        """Each line of a trail, numbered from 1, without its newline (optional after the last line);
        IntegrityFailure at one longer than LINE_LIMIT or holding more than VALUES_LIMIT values."""
        offset = self.start

        def read() -> bytes:
            nonlocal offset
            chunk = self._read_at(offset)
            offset += len(chunk)
            return chunk

        number = 0
        for number, raw in _numbered_lines(read):
            _refuse_crowded(number, raw)
            yield number, raw
        if number == 0:
            raise BadInput("the trail is empty")

    def _read_at(self, offset: int) -> bytes:
        if self.descriptor is not None:
            return os.pread(self.descriptor, READ_CHUNK, offset)
        self.file.seek(offset)  # in this process's memory
        return self.file.read(READ_CHUNK)

    def event_lines(self) -> Iterator[tuple[int, bytes]]:
        """The lines after the header, read again (a verified chain stops before its trailer)."""
        lines = self.raw_lines()
        next(lines)
        yield from lines


class _PlainEventLine(msgspec.Struct, forbid_unknown_fields=True):
    """An event line's keys in the order its canonical JSON has them (sorted)."""

    actor: str
    annotations: msgspec.Raw
    hash: str
    payload: msgspec.Raw
    position: int
    prev_hash: str
    recorded_at: str
    tx: int
    type: str


_PLAIN_EVENT_LINE = msgspec.json.Decoder(_PlainEventLine)
# An event type's own decoder (a payload has no tag). It refuses a fraction where a field takes any
# value, as the stored rows' does: no event type has a field of fractions, so no event holds one.
_EVENT_DECODERS: dict[type, msgspec.json.Decoder] = {}


def _plain_event_entry(number: int, raw: bytes) -> tuple[Entry, Any] | None:
    """An event line exactly as the export writes it (msgspec writes it again byte for byte, so no
    repeated key, float or other spelling; its fields have their types; its event type is known)
    as an entry and its annotations, read without the strict reader; None for any other line, which
    `_line` and `_event_entry` read and name the fault of (the two agree on every line this takes).
    A payload written as the store writes its event (as the export does) is not decoded a second
    time: the event's own payload is the entry's, `as_stored`."""
    try:
        line = _PLAIN_EVENT_LINE.decode(raw)
    except (msgspec.MsgspecError, RecursionError):  # the strict reader names the fault, and the line
        return None
    # Nearly every line's annotations are {}: compared as bytes, not decoded and written again.
    annotations = {} if bytes(line.annotations) == b"{}" else plain_object(line.annotations)
    kind = ev.EVENT_TYPES.get(line.type)
    if (annotations is None or kind is None or msgspec.json.encode(line) != raw
            or not (is_hex(line.prev_hash, 64) and is_hex(line.hash, 64)) or not is_utc_time(line.recorded_at)):
        return None
    try:
        event = _event_decoder(kind).decode(line.payload)
    except msgspec.MsgspecError:
        return None
    stored = _payload_as_stored(event, line.payload)
    payload = stored if stored is not None else plain_object(line.payload)
    if payload is None or "type" in payload:
        return None
    hashed = _record_bytes(raw, line) if stored is not None else None
    return entry_of(f"line {number}", line, line.type, payload, event, raw, as_stored=stored is not None,
                    hashed=hashed), annotations


_ANNOTATIONS_KEY, _HASH_KEY = b',"annotations":', b',"hash":"'


def _record_bytes(raw: bytes, line: _PlainEventLine) -> bytes:
    """The record's canonical JSON (what its hash is of), from an event line in the canonical form
    whose payload is its canonical form too: the line without the two keys its record does not
    hold, which the sorted keys put together after the actor's (a JSON string escapes every quote,
    so the first ',"annotations":' follows it)."""
    start = raw.index(_ANNOTATIONS_KEY)
    end = start + len(_ANNOTATIONS_KEY) + len(line.annotations) + len(_HASH_KEY) + len(line.hash) + 1  # its closing quote
    return raw[:start] + raw[end:]


def _payload_as_stored(event: ev.Event, payload: msgspec.Raw) -> dict[str, Any] | None:
    """The event's payload as the store writes it, where `payload` (the line's, that it was decoded
    from) is its canonical form, every number in it within bounds; None otherwise. The line's then
    decodes to it exactly (no fraction: the event holds none), so it is not decoded again."""
    stored = ev.payload_of(event)
    try:
        written = msgspec.json.encode(stored, order="sorted")
    except TypeError:  # a key that is not a string, which the canonical form writes as one
        return None
    return stored if written == bytes(payload) and within_bounds(written) else None


def _verified_line_entry(number: int, raw: bytes) -> Entry:
    """An event line byte for byte as verified at its place, as an entry again: read by the typed
    decoders alone (checking it again would find what it found)."""
    try:
        line, event = _typed_line(raw)
        stored = _payload_as_stored(event, line.payload)
        payload = stored if stored is not None else msgspec.json.decode(line.payload)
    except (msgspec.MsgspecError, KeyError):  # a line the strict reader read: it reads it again
        return _event_entry(_line(number, raw))[0]
    return entry_of(f"line {number}", line, line.type, payload, event, raw, as_stored=stored is not None)


def _verified_line_record(number: int, raw: bytes) -> Record:
    """`_verified_line_entry`'s record alone (no hashed body built: its payload is not decoded twice)."""
    try:
        line, event = _typed_line(raw)
    except (msgspec.MsgspecError, KeyError):  # a line the strict reader read: it reads it again
        return _event_entry(_line(number, raw))[0].record
    return record_of(line, event)


def _typed_line(raw: bytes) -> tuple[_PlainEventLine, ev.Event]:
    """An event line by the typed decoders: its fields and its event (KeyError: a type not registered)."""
    line = _PLAIN_EVENT_LINE.decode(raw)
    return line, _event_decoder(ev.EVENT_TYPES[line.type]).decode(line.payload)


def _event_decoder(kind: type) -> msgspec.json.Decoder:
    return _EVENT_DECODERS.get(kind) or _EVENT_DECODERS.setdefault(kind, msgspec.json.Decoder(kind, float_hook=refuse_float))


BYTE_ORDER_MARK = b"\xef\xbb\xbf"


def _line(number: int, raw: bytes) -> _Line:
    if raw.startswith(BYTE_ORDER_MARK):  # no JSON, and Python's words for it name its own reading
        raise IntegrityFailure(f"line {number}: begins with a byte-order mark (the bytes EF BB BF an editor may put "
                               "before UTF-8 text), which no line of a trail holds: save the file as UTF-8 without one")
    try:
        obj = strict_json(raw)
    except UnicodeDecodeError:
        raise IntegrityFailure(f"line {number}: does not decode: not UTF-8 text") from None
    except ValueError as error:  # json.JSONDecodeError and Malformed
        raise IntegrityFailure(f"line {number}: does not decode: {error}") from None
    # Event lines are exactly record + hash + annotations; only the header and trailer say their kind.
    if not isinstance(obj, dict) or obj.get("kind") not in (None, "header", "trailer"):
        raise IntegrityFailure(f"line {number}: not a header, event or trailer line (its 'kind')")
    return _Line(number, obj, raw)


def _header_problem(header: dict[str, Any]) -> str | None:
    if header.get("format") != FORMAT:
        return f"not a {FORMAT} trail (format {header.get('format')!r})"
    if not same_value(header.get("version"), FORMAT_VERSION):
        return f"format version {json.dumps(header.get('version'))}; this campaign-ledger reads version {FORMAT_VERSION}"
    algorithm = header.get("hash", {}).get("algorithm") if isinstance(header.get("hash"), dict) else None
    if algorithm != HASH_ALGORITHM:
        return f"hash algorithm {algorithm!r}; trails are hashed with {HASH_ALGORITHM}"
    return None


def _event_entry(line: _Line) -> tuple[Entry, Any]:
    """An event line as an entry, and its annotations."""
    where = f"line {line.number}"
    problem = keys_problem(set(line.obj), {*RECORD_KEYS, *EXCLUDED_KEYS})
    if problem:
        raise IntegrityFailure(f"{where}: does not decode: {problem}")
    body = {key: line.obj[key] for key in RECORD_KEYS}
    try:
        check_body(body, line.obj["hash"])
        event = event_from_body(body)
    except (Malformed, msgspec.ValidationError) as error:
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
    return Entry(where=where, body=body, hash=line.obj["hash"], record=record, data=line.raw), line.obj["annotations"]


def _trailer_seeds(line: _Line) -> dict[int, tuple[str, str]]:
    seeds = line.obj.get("revealed_seeds")
    where = f"line {line.number}"
    if not isinstance(seeds, dict) or not all(k.isdecimal() and str(int(k)) == k for k in seeds):
        raise IntegrityFailure(f"{where}: 'revealed_seeds' must map epochs ('0', '1', …) to seeds")
    return {int(epoch): (seed, where) for epoch, seed in seeds.items()}


def read_trail(data: bytes | BinaryIO | _TrailFile, annotate: Annotator, advance: Progress | None = None) -> Chain:
    """Verify an exported trail on its own, line by line; the first line that does not verify is
    named. `advance` is told how many events each reading of the trail has got through."""
    reading = _TrailReading(data if isinstance(data, _TrailFile) else _TrailFile(data), annotate, advance)
    for _entry in reading:
        pass
    return reading.verified()


class _TrailReading:
    """`read_trail` an event at a time: iterated (once), it yields each event line's entry once the
    line verified, then checks what only the whole trail shows (its trailer, header, annotations);
    `verified()` is the chain, or the failure the reading raised."""

    def __init__(self, trail: _TrailFile, annotate: Annotator, advance: Progress | None = None):
        self.trail, self.annotate, self.advance = trail, annotate, advance
        self.chain: Chain | None = None
        self.failure: Exception | None = None

    def verified(self) -> Chain:
        if self.failure is not None:
            raise self.failure
        assert self.chain is not None, "the trail is verified once it was read to its end"
        return self.chain

    def __iter__(self) -> Iterator[Entry]:
        try:
            self.chain = yield from self._entries()
        except Exception as failure:
            self.failure = failure  # kept for `verified`: a reader of the entries may have caught it
            raise

    def _entries(self) -> Generator[Entry, None, Chain]:
        # A ruleset's events are known once it is imported: the first line of one not imported yet is
        # read by the strict reader, which imports it (`events.on_unknown_tag`), the lines after it fast.
        # Importing every ruleset first cost a fresh process (`verify FILE`, import's process beside) the
        # five it did not read: 27 ms on a quiet machine (HISTORY.md), 67-75 ms of CPU on a loaded one.
        trail = self.trail
        checker = ChainChecker(advance=self.advance)
        annotations = _AnnotationsRead()
        header: _Line | None = None
        trailer: _Line | None = None
        last = 0
        for number, raw in trail.raw_lines():
            last = number
            plain = _plain_event_entry(number, raw) if header is not None and trailer is None else None
            if plain is not None:
                entry, notes = plain
                checker.add(entry)
                annotations.read(number, entry.body["tx"], notes)
                yield entry
                continue
            line = _line(number, raw)
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
                annotations.read(line.number, entry.body["tx"], notes)
                yield entry
            elif kind == "trailer":
                trailer = line
            else:
                raise IntegrityFailure(f"line {line.number}: a second header")
        assert header is not None  # raw_lines() yields at least one line, and the first must be the header
        if trailer is None:
            raise IntegrityFailure(f"line {last + 1}: the trailer line is missing (the trail was cut short)")
        chain = checker.finish(trail.event_lines, _verified_line_entry, _verified_line_record, header.number,
                               _trailer_seeds(trailer))
        _check_header(header, chain)
        _check_trailer(trailer, chain)
        annotations.check(self.annotate(chain.voids))
        return chain


def deck_orders(ruleset: dict[str, Any], shuffled: Iterable[str] = ()) -> dict[str, list[str]]:
    """Each ledger deck's starting order (as the pinned ruleset lists it), from which a verifier
    re-derives the order every shuffle produced; {} for a ruleset this version does not know. A
    campaign's own decks (`Ruleset.deck_order`) are given for those the ledger `shuffled`: without
    them a verifier could not re-derive a Speedheim deck's first shuffle."""
    try:
        known = rulesets.get(ruleset.get("id", ""))
    except NotFound:
        return {}
    orders = {deck: list(cards) for deck, cards in known.decks.items()}
    for deck in shuffled:
        order = known.deck_order(ruleset.get("options", {}), deck) if known.deck_order and deck not in orders else None
        if order is not None:
            orders[deck] = order
    return orders


def _check_header(header: _Line, chain: Chain) -> None:
    said = {"campaign": header.obj.get("campaign"), "ruleset": header.obj.get("ruleset")}
    chained = {"campaign": {"id": chain.campaign_id, "name": chain.name}, "ruleset": chain.ruleset}
    if "decks" in header.obj:  # trails exported before the decks were written have none
        # and those exported before a campaign's own decks were written give the ruleset's alone
        full = deck_orders(chain.ruleset, chain.ledger_decks)
        said["decks"], chained["decks"] = header.obj["decks"], full
        if header.obj["decks"] == deck_orders(chain.ruleset):
            chained["decks"] = header.obj["decks"]
    for key in said:
        if said[key] != chained[key]:
            raise IntegrityFailure(f"line {header.number}: its {key} {json.dumps(said[key], ensure_ascii=False)} "
                                   f"is not the chain's {json.dumps(chained[key], ensure_ascii=False)}")


def _check_trailer(trailer: _Line, chain: Chain) -> None:
    where = f"line {trailer.number}"
    if not same_value(trailer.obj.get("count"), chain.count):
        raise IntegrityFailure(f"{where}: counts {json.dumps(trailer.obj.get('count'))} events, the trail holds {chain.count}")
    if trailer.obj.get("head") != chain.head:
        raise IntegrityFailure(f"{where}: its head is not the hash of the last event")


@dataclass
class _AnnotationsRead:
    """What the event lines' annotations said, kept small for a trail of any length: the lines that
    say something, and each transaction's first line that says nothing. Annotations are outside the
    hashes, but they must say what the chain's voids say."""

    said: list[tuple[int, int, Any]] = field(default_factory=list)  # (line, transaction, annotations)
    first_silent: array = field(default_factory=lambda: array("q"))  # transaction -> its first line saying {}

    def read(self, number: int, tx: int, found: Any) -> None:
        if found != {}:
            self.said.append((number, tx, found))
            return
        if tx >= len(self.first_silent):
            self.first_silent.extend([0] * (tx + 1 - len(self.first_silent)))
        if not self.first_silent[tx]:
            self.first_silent[tx] = number

    def check(self, notes: dict[int, dict[str, Any]]) -> None:
        """The first line (in the trail's order) whose annotations are not what the voids say."""
        wrong = [(number, tx) for number, tx, found in self.said if found != _annotations(notes, tx)]
        wrong += [(self.first_silent[tx], tx) for tx in notes if tx < len(self.first_silent) and self.first_silent[tx]]
        if wrong:
            number, tx = min(wrong)
            raise IntegrityFailure(f"line {number}: its annotations are not what the chain says: "
                                   f"{json.dumps(_annotations(notes, tx), ensure_ascii=False, sort_keys=True)}")


SeedLookup = Callable[[uuid.UUID, int], "str | None"]


def check_before_import(chain: Chain, seed_of: SeedLookup) -> None:
    """Refuse a verified chain that the rules do not produce (every transaction re-decided under the
    rules in force at it, as `replay --check` does), whose unrevealed ledger dice differ from what
    the seed kept here gives, or that this version would store differently. Needs no store, so a
    refused import creates none."""
    _ImportProblems.of(chain.entries, chain.voids, seed_of, chain.revealed).raise_before_import(chain)


def _checked_in_one_reading(trail: _TrailFile, annotate: Annotator, seed_of: SeedLookup) -> Chain:
    """`read_trail` and `check_before_import` in one reading of the trail: each event re-decided once
    its line verified, by the voids a scan of the lines found ahead (re-deciding must know them
    first). Where those are not the voids of the verified chain (a void's line not as the export
    writes it), the chain is checked again in a reading of its own, as `check_before_import` does;
    where the trail does not verify, that is its refusal, whatever the re-deciding found so far."""
    ahead = _scanned_ahead(trail)
    if ahead is not None:
        voids, revealed = ahead
        reading = _TrailReading(trail, annotate)
        try:
            problems = _ImportProblems.of(_as_scanned(reading, voids), voids, seed_of, revealed)
        except _NotAsScanned:
            pass
        else:
            chain = reading.verified()
            problems.raise_before_import(chain)
            return chain
    return _read_and_checked(trail, annotate, seed_of)


def _read_and_checked(trail: _TrailFile, annotate: Annotator, seed_of: SeedLookup,
                      advance: Progress | None = None) -> Chain:
    """`read_trail`, then `check_before_import` in a reading again of the verified chain."""
    chain = read_trail(trail, annotate, advance)
    check_before_import(chain, seed_of)
    return chain


class _NotAsScanned(Exception):
    """A verified event line is a void the scan ahead did not find, or the other way round."""


def _as_scanned(entries: Iterable[Entry], voids: Sequence[Record]) -> Iterator[Entry]:
    """The entries, each passed on once it proves to be a void where the scan found one and no void
    elsewhere: re-deciding them by those voids is then re-deciding them by the chain's."""
    ahead = iter(_void_places(voids))
    expected = next(ahead, None)
    for entry in entries:
        record = entry.record
        if expected is not None and expected[0] == record.position:
            if not isinstance(record.event, ev.TransactionVoided) or expected[1] != record.hash:
                raise _NotAsScanned
            expected = next(ahead, None)
        elif isinstance(record.event, ev.TransactionVoided):
            raise _NotAsScanned
        yield entry
    if expected is not None:
        raise _NotAsScanned


def _scanned_ahead(trail: _TrailFile) -> tuple[list[Record], set[int]] | None:
    """The trail's transaction.voided records, found by the export's spelling of their type (a nested
    object's may spell it too: such a line is not one), and the epochs its trailer reveals (none
    where its last line is not a trailer: the reading names that); None where a void's line does
    not read."""
    lines = trail.raw_lines()
    voids: list[Record] = []
    last = (0, b"")
    try:
        next(lines)  # the header
        for last in lines:
            if (record := _void_record(*last)) is not None:
                voids.append(record)
    except LedgerError:
        return None
    try:
        return voids, set(_trailer_seeds(_line(*last)))
    except LedgerError:
        return voids, set()


def _void_record(number: int, raw: bytes) -> Record | None:
    """The event line's record if it is a transaction.voided (None: any other line), read as verified."""
    if _VOIDED in raw and isinstance((record := _verified_line_record(number, raw)).event, ev.TransactionVoided):
        return record
    return None


def _void_places(voids: Sequence[Record]) -> list[tuple[int, str]]:
    return [(void.position, void.hash) for void in voids]


def import_trail(
    ledger_of: Callable[[], Ledger], data: bytes | BinaryIO, annotate: Annotator, seed_of: SeedLookup,
    advance: Progress | None = None,
) -> tuple[Chain | _Verified, CampaignState]:
    """Import a trail into a store whose seeds are the key file's (`seed_of`; `ledger_of` opens the
    store): verified and re-decided (`_checked_in_one_reading`) in a process forked beside
    this one, while this one stores the trail as it reads it (the events and their read-model rows,
    in one database transaction) and commits once the trail passed and proved to be the one stored.
    Where no process can be had, or it was lost, or the trail read here is not the one verified
    there (edited meanwhile), it is verified and checked here first, then stored. A refusal of the
    trail is named before anything the storing refused, as if the trail had been checked first.
    (the trail as verified, the state it imports)"""
    trail = _TrailFile(data)
    with _VerifiedBeside(trail, annotate, seed_of) as verifying:
        if verifying.beside is not None:
            read = _as_read(trail, advance)
            try:
                state = import_chain(ledger_of(), read, rechecked=True,
                                     before_commit=functools.partial(verifying.check_read, read))
            except _NotAsVerified:
                pass
            else:
                return verifying.verified(), state
        chain = verifying.here(advance)
        return chain, import_chain(ledger_of(), chain, rechecked=True)


@dataclass(frozen=True)
class _Verified:
    """What the process beside verified of a trail, and what the trail read here must match."""

    campaign_id: str
    name: str
    count: int
    transactions: int
    voids: list[tuple[int, str]]  # (position, hash) of each transaction.voided record
    lines: bytes  # a digest of every event line's read digest, in order

    @classmethod
    def of(cls, chain: Chain) -> _Verified:
        return cls(chain.campaign_id, chain.name, chain.count, chain.transactions, _void_places(chain.voids),
                   hashlib.sha256(chain.read_digests).digest())

    def same_trail(self, other: _Verified) -> bool:
        return (self.campaign_id, self.name, self.count, self.voids, self.lines) == (
            other.campaign_id, other.name, other.count, other.voids, other.lines)


class _NotAsVerified(Exception):
    """The trail read here for storing is not the one verified beside: stored nothing, done again here."""


class _VerifiedBeside:
    """`_checked_in_one_reading` in a process forked beside this one (each reads the
    trail at its own offsets), where one can be. Used as a context: where the block failed, the
    trail's refusal is raised in its place; an interrupt stops the process beside."""

    def __init__(self, trail: _TrailFile, annotate: Annotator, seed_of: SeedLookup):
        self.trail, self.annotate, self.seed_of = trail, annotate, seed_of
        self.beside = Beside.started(functools.partial(_verified_beside, trail, annotate, seed_of))
        self.outcome: Any = None
        self.checked_here = False

    def verified(self) -> _Verified:
        """What the process beside verified (_NotAsVerified where it was lost); its refusal raised."""
        if self.outcome is None:
            self.outcome = self.beside.finish() if self.beside is not None else LOST
        if self.outcome.refused is not None:
            raise self.outcome.refused
        if not self.outcome.done:
            raise _NotAsVerified
        return self.outcome.result

    def check_read(self, read: Chain) -> None:
        """Before the storing commits: the trail passed, and is the one read here."""
        if not self.verified().same_trail(_Verified.of(read)):
            raise _NotAsVerified
        if read.advance is not None:
            read.advance(2 * read.count)  # the verifying and re-deciding done beside, as progress

    def here(self, advance: Progress | None) -> Chain:
        self.checked_here = True  # whatever it finds is not looked for again, where the block then fails
        return _read_and_checked(self.trail, self.annotate, self.seed_of, advance)

    def __enter__(self) -> _VerifiedBeside:
        return self

    def __exit__(self, kind: type[BaseException] | None, failure: BaseException | None, _traceback: Any) -> None:
        if failure is None:
            return
        if not isinstance(failure, Exception):
            if self.beside is not None:
                self.beside.stop()
            return
        if self.checked_here:
            return
        try:
            self.verified()  # the trail's refusal, in place of the failure
        except _NotAsVerified:
            self.here(None)


def _verified_beside(trail: _TrailFile, annotate: Annotator, seed_of: SeedLookup, _items: object) -> _Verified:
    return _Verified.of(_checked_in_one_reading(trail, annotate, seed_of))  # no progress shown: the first process's is


_VOIDED = b'"type":"transaction.voided"'  # in an event line as the export writes it


def _as_read(trail: _TrailFile, advance: Progress | None) -> Chain:
    """The trail as the storing reads it while the process beside verifies it: the campaign its
    header names, the read digest of each event line (what the storing's readings are held to, and
    what the verified chain's must be), its transaction.voided records (of lines as the export
    writes them). Nothing is checked here: the fields the storing does not use are left empty, and
    what it does use is compared with the verified chain before the commit (_Verified)."""
    lines = trail.raw_lines()
    _first, raw_header = next(lines)
    campaign = _line(1, raw_header).obj.get("campaign")
    read_digests = bytearray()
    voids: list[Record] = []
    previous: tuple[int, bytes] | None = None
    for number, raw in lines:  # each line but the last (the trailer) is an event line
        if previous is not None:
            read_digests += read_digest(previous[1])
            if (record := _void_record(*previous)) is not None:
                voids.append(record)
        previous = number, raw
    campaign = campaign if isinstance(campaign, dict) else {}
    return Chain(source=trail.event_lines, read_again=_verified_line_entry, record_again=_verified_line_record,
                 count=len(read_digests) // READ_DIGEST, head="", digests=memoryview(b""),
                 read_digests=memoryview(bytes(read_digests)), lines_before=1, campaign_id=str(campaign.get("id")),
                 name=str(campaign.get("name")), ruleset={}, transactions=0, revealed={}, ledger_rolls_verified=0,
                 ledger_rolls_waiting={}, voids=voids, advance=advance)


@dataclass
class _ImportProblems:
    """The first problem of each kind an import refuses, found in one reading of a chain's entries
    (verified, or verified as they come: `_checked_in_one_reading`), re-decided by its voids."""

    secret_dice: _SecretDice
    stored_differently: LedgerError | None = None
    typed: LedgerError | None = None  # a number no record holds
    rules: LedgerError | None = None

    @classmethod
    def of(
        cls, entries: Iterable[Entry], voids: Sequence[Record], seed_of: SeedLookup, revealed: Container[int]
    ) -> _ImportProblems:
        """`revealed`: epochs the chain reveals (or its trailer says it does), whose dice the chain checks."""
        problems = cls(_SecretDice(seed_of, revealed))

        def checked() -> Iterator[Record]:
            for entry in entries:
                record = entry.record
                problems.secret_dice.read(entry)
                if not entry.as_stored:  # else what is checked here is known to pass
                    payload = ev.payload_of(record.event)
                    problems.stored_differently = problems.stored_differently or _stored_differently(entry, payload)
                    if problems.typed is None:
                        try:
                            check_numbers(payload, f"E{record.position} {ev.tag_of(record.event)}")
                        except BadInput as problem:
                            problems.typed = problem  # the rules are not asked about such a record
                if problems.typed is None:
                    yield record

        records = checked()
        try:
            # A verified chain's rolls passed the chain's check of their dice (ChainChecker._rolled).
            _checked, differences = recheck(records, voids, first_only=True, dice_checked=True)
        except LedgerError as error:
            problems.rules = error
        else:
            if differences:
                problems.rules = IntegrityFailure(
                    f"{differences[0]} — the rules in force at it do not produce the trail's events from its "
                    "command and dice; nothing imported")
        for _record in records:  # the rest of the chain, when the re-deciding stopped at a difference
            pass
        return problems

    def raise_before_import(self, chain: Chain) -> None:
        """The first problem, in the order the trail's check names them."""
        self.raise_first(self.typed, self.rules, self.secret_dice.problem(chain.revealed), self.stored_differently)

    @staticmethod
    def raise_first(*in_order: LedgerError | None) -> None:
        for problem in in_order:
            if problem is not None:
                raise problem


def _stored_differently(entry: Entry, stored: dict[str, Any]) -> BadInput | None:
    """The store re-encodes the typed event (as `stored`): it must come out as the payload that was hashed."""
    if stored == entry.body["payload"]:
        return None
    differ = sorted(k for k in {*stored, *entry.body["payload"]} if stored.get(k) != entry.body["payload"].get(k))
    return BadInput(f"{entry.where}: this version of campaign-ledger would store {entry.body['type']} "
                    f"differently ({', '.join(differ)}), so the imported chain would not verify; nothing imported")


@dataclass
class _SecretDice:
    """Ledger dice re-derived where this machine keeps their epoch's seed, as the chain's entries go
    by: the first roll of each epoch that the seed does not give. Only an epoch the chain does not
    reveal is refused for it (`problem`): the chain checks the others against the seed it reveals,
    and those known to be revealed ahead (`revealed`) are not derived here again."""

    seed_of: SeedLookup
    revealed: Container[int]
    campaign_id: str | None = None  # its campaign.started event's, once that went by
    seeds: dict[int, bytes | None] = field(default_factory=dict)  # epoch -> its seed kept here, asked once
    wrong: dict[int, IntegrityFailure] = field(default_factory=dict)  # epoch -> its first roll not derived, in order

    def read(self, entry: Entry) -> None:
        event = entry.record.event
        if isinstance(event, ev.CampaignStarted) and self.campaign_id is None:
            self.campaign_id = event.campaign_id
        if not isinstance(event, ev.DiceRolled) or event.source != "ledger" or event.copy_of is not None:
            return
        if event.epoch is None or event.epoch in self.revealed or event.epoch in self.wrong:
            return
        if self.campaign_id is None:  # a ledger roll before campaign.started: the chain refuses it (no epoch open)
            return
        seed = self._seed(event.epoch)
        if seed is None:
            return
        derived = d.ledger_faces(seed, self.campaign_id, event.roll, die_sides(event.expression))
        if derived != event.faces:
            self.wrong[event.epoch] = IntegrityFailure(
                f"{entry.where}: ledger roll R{event.roll} shows {event.faces}, but the seed of epoch {event.epoch} "
                f"kept here gives {derived}; nothing imported")

    def problem(self, revealed: Container[int]) -> IntegrityFailure | None:
        """The first roll (in the chain's order) of an epoch the chain does not reveal that the seed
        kept here does not give."""
        return next((failure for epoch, failure in self.wrong.items() if epoch not in revealed), None)

    def _seed(self, epoch: int) -> bytes | None:
        if epoch not in self.seeds:
            assert self.campaign_id is not None
            seed = self.seed_of(uuid.UUID(self.campaign_id), epoch)
            self.seeds[epoch] = None if seed is None else bytes.fromhex(seed)
        return self.seeds[epoch]


def import_chain(
    ledger: Ledger, chain: Chain, *, rechecked: bool = False, before_commit: Callable[[], None] = lambda: None
) -> CampaignState:
    """Store a verified trail's records exactly (same positions, transactions, actors, times, hashes)
    in one atomic save, so the imported campaign has the same head — once every transaction is
    re-decided under the rules in force at it, as `replay --check` does (`rechecked`:
    `check_before_import` has passed already, with the seeds this store keeps, or is passed by
    `before_commit`, `_VerifiedBeside.check_read` in `import_trail`). The trail is read again for each
    step, never held."""
    store = ledger.store
    if not rechecked:
        problems = _ImportProblems.of(chain.entries, chain.voids, store.seed, chain.revealed)
        problems.raise_first(problems.stored_differently, problems.typed, problems.rules,
                             problems.secret_dice.problem(chain.revealed))
    campaign_id = uuid.UUID(chain.campaign_id)
    with store.writing(STARTING_CAMPAIGNS):  # as `campaign new`: the name is checked free and taken in one turn
        names = stored_names(store)
        if campaign_id in names:
            raise BadInput(f"campaign {chain.name} ({campaign_id}) is already in {store.url}: nothing imported")
        for name in names.values():
            if (name or "").lower() == chain.name.lower():
                raise BadInput(f"a campaign named '{chain.name}' already exists in {store.url}; the name is part of "
                               "the hashed history, so import into another store")
        return ledger.adopt(campaign_id, History(chain.records, chain.count, chain.voids), started_before=len(names),
                            before_commit=before_commit)
