"""A hash chain read back in order: each record's hash and link, and the ledger's own bookkeeping
(the campaign, seeds, one roll numbering, copies, shuffles, pending transactions), then every
ledger die of a revealed epoch re-derived. The first entry that does not verify is named."""

from __future__ import annotations

import functools
import hashlib
import os
import uuid
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, TypeVar

import msgspec

from ledger import dice as d
from ledger import events as ev
from ledger.deciding import LEDGER_COMMANDS
from ledger.errors import BadInput, IntegrityFailure
from ledger.records import GENESIS, Record, hash_body
from ledger.trail_json import HEX_DIGITS, is_hex


class Entry(msgspec.Struct, frozen=True, kw_only=True):
    """One event as read back: its hashed record, its hash, and the typed record. (A Struct: one
    is made for every event verified: 150 ns, where a frozen dataclass took 1.2 µs.)"""

    where: str  # how a problem names it: "position 17" in a store, "line 18" in a file
    body: dict[str, Any]
    hash: str
    record: Record
    data: bytes  # as read: the stored row or the trail's line
    # Its payload is its event exactly as the store writes it (the store keeps what was hashed), every
    # number in it a whole one within bounds: an import's checks of the record pass. False: not known.
    as_stored: bool = False
    # The record's canonical JSON (what its hash is of) where it was read as such: a trail line in the
    # canonical form, its payload as stored, is it with its annotations and hash cut out. None: the
    # chain writes it from `body`.
    hashed: bytes | None = None


def entry_of(
    where: str, fields: Any, kind: str, payload: dict[str, Any], event: ev.Event, data: bytes, *, as_stored: bool = False,
    hashed: bytes | None = None,
) -> Entry:
    """The entry of a stored row or a trail line whose fields (`position`, `tx`, `actor`,
    `recorded_at`, `prev_hash`, `hash`) the typed decoders read, with its event's type, payload
    and typed event."""
    body = {"position": fields.position, "type": kind, "recorded_at": fields.recorded_at, "actor": fields.actor,
            "tx": fields.tx, "payload": payload, "prev_hash": fields.prev_hash}
    return Entry(where=where, body=body, hash=fields.hash, record=record_of(fields, event), data=data, as_stored=as_stored,
                 hashed=hashed)


def record_of(fields: Any, event: ev.Event) -> Record:
    """The record of a stored row or a trail line from the fields the typed decoders read (see entry_of)."""
    return Record(position=fields.position, tx=fields.tx, actor=fields.actor, recorded_at=fields.recorded_at,
                  prev_hash=fields.prev_hash, hash=fields.hash, event=event)


DIGEST = 32  # bytes of a SHA-256
# A reading again checks each row or line against a keyed digest of the bytes verified at its place:
# keyed with this process's own secret, so nobody can make other bytes that pass for them (one who
# edits the file between two readings cannot see a digest, only guess: one chance in 2**64). Eight
# bytes an event: a chain of a million holds 8 MB of them. SHA-256 after the secret, absorbed once
# and copied for each digest: twice as fast as a keyed BLAKE2b, which Python builds without SIMD.
_KEYED = hashlib.sha256(os.urandom(16))
READ_DIGEST = 8


def read_digest(data: bytes) -> bytes:
    digest = _KEYED.copy()
    digest.update(data)
    return digest.digest()[:READ_DIGEST]


# Where the events are read again: (position or line number, bytes) in order, and how bytes
# identical to those verified there become an entry again, or only its record (what most readings
# again need: no hashed body built).
RawSource = Callable[[], Iterable[tuple[int, bytes]]]
ReadAgain = Callable[[int, bytes], Entry]
RecordAgain = Callable[[int, bytes], Record]
T = TypeVar("T")
# Told how many more events a reading got through (a progress bar's update), every PROGRESS_STEP.
Progress = Callable[[int], None]
PROGRESS_STEP = 1000


@dataclass
class Chain:
    """A verified chain and what was learned reading it. Its events are not held: `entries` reads
    them again (from the store or the file) each time it is iterated, each checked against a digest
    of the bytes verified at its place, so a chain of any length takes the same memory."""

    source: RawSource  # the events' bytes read again, from the start
    read_again: ReadAgain
    record_again: RecordAgain
    count: int
    head: str
    # The checker's own buffers, read-only and not copied (a copy would double them at a chain's end):
    digests: memoryview  # every event's hash (DIGEST bytes each, in order): a noted head, or two chains compared
    read_digests: memoryview  # every event's bytes as verified (read_digest, READ_DIGEST bytes each, in order)
    lines_before: int | None  # a trail's lines before the first event (its header); None: a store's positions
    campaign_id: str
    name: str
    ruleset: dict[str, Any]
    transactions: int
    revealed: dict[int, str]  # epoch -> seed hex, from seed.revealed events and a trailer
    ledger_rolls_verified: int
    ledger_rolls_waiting: dict[int, int]  # epoch whose seed is still secret -> ledger rolls in it
    voids: list[Record]  # the transaction.voided records: what annotations and a fold need to know ahead
    ledger_decks: list[str] = field(default_factory=list)  # the decks the ledger shuffled, as first shuffled
    snapshot: int | None = None  # position of the snapshot checked against the events (stores only)
    abandoned: list[int] = field(default_factory=list)  # epochs whose seed was left behind for good
    advance: Progress | None = None  # told how many events each reading has got through

    @property
    def entries(self) -> Iterable[Entry]:
        return _Reread(self, self.read_again)

    @property
    def records(self) -> Iterable[Record]:
        return _Reread(self, self.record_again)

    def where(self, position: int) -> str:
        return f"position {position}" if self.lines_before is None else f"line {position + self.lines_before}"

    def digest(self, position: int) -> bytes:
        self._kept()
        return bytes(self.digests[(position - 1) * DIGEST:position * DIGEST])

    def _kept(self) -> None:
        if len(self.read_digests) != self.count * READ_DIGEST:
            raise RuntimeError("this chain was verified to be read once (ChainChecker(read_again=False)): "
                               "it keeps no digest to read it again by")

    def reread(self, raw: Iterable[tuple[int, bytes]], decode: Callable[[int, bytes], T]) -> Iterator[T]:
        """The events read again, each the bytes verified at its place (nothing changed meanwhile),
        so decoded (by `decode`) without being checked again; what follows the last (a trailer) is
        not read."""
        self._kept()
        count = 0
        digests = self.read_digests
        for number, data in raw:
            if count == self.count:
                break
            count += 1
            if read_digest(data) != digests[(count - 1) * READ_DIGEST:count * READ_DIGEST]:
                raise IntegrityFailure(f"{self.where(count)}: changed since it was verified")
            if self.advance is not None and count % PROGRESS_STEP == 0:
                self.advance(PROGRESS_STEP)
            yield decode(number, data)
        if count < self.count:
            raise IntegrityFailure(f"{self.where(count + 1)}: gone since it was verified")
        if self.advance is not None and count % PROGRESS_STEP:
            self.advance(count % PROGRESS_STEP)


@dataclass(frozen=True)
class _Reread:
    """A chain's events (as entries, or records), read again each time they are iterated."""

    chain: Chain
    decode: Callable[[int, bytes], Any]

    def __iter__(self) -> Iterator[Any]:
        return self.chain.reread(self.chain.source(), self.decode)


@dataclass(frozen=True)
class _LedgerRoll:
    """A ledger roll waiting for its epoch's seed: only what re-deriving it needs."""

    order: int  # among the ledger rolls, in stream order: the first that does not verify is named
    where: str
    roll: int
    faces: tuple[int, ...]
    die_sides: tuple[int, ...]


class _WaitingRolls:
    """The ledger rolls of one epoch whose seed is still secret, packed into arrays: a long campaign
    holds one for every ledger roll since its last reveal (an object each took ~250 bytes)."""

    def __init__(self) -> None:
        self.orders, self.rolls, self.places, self.ends = array("q"), array("q"), array("q"), array("q")
        self.faces = array("q")
        self.expressions: list[str] = []  # each roll's, by index into the distinct ones
        self.expression_of = array("q")
        self._expression_index: dict[str, int] = {}
        self.where_prefix = ""  # "position" in a store, "line" in a trail: the same for every roll of a chain

    def add(self, order: int, where: str, roll: int, faces: list[int], expression: str) -> None:
        self.where_prefix, _space, place = where.rpartition(" ")
        self.orders.append(order)
        self.rolls.append(roll)
        self.places.append(int(place))
        self.faces.extend(faces)
        self.ends.append(len(self.faces))
        index = self._expression_index.setdefault(expression, len(self.expressions))
        if index == len(self.expressions):
            self.expressions.append(expression)
        self.expression_of.append(index)

    def __len__(self) -> int:
        return len(self.rolls)

    def __iter__(self) -> Iterator[_LedgerRoll]:
        start = 0
        for n, end in enumerate(self.ends):
            yield _LedgerRoll(self.orders[n], f"{self.where_prefix} {self.places[n]}", self.rolls[n],
                              tuple(self.faces[start:end]), _die_sides(self.expressions[self.expression_of[n]]))
            start = end


def die_sides(expression: str) -> list[int]:
    """The dice a recorded expression rolls: `shuffle K` (a Fisher–Yates shuffle of K cards) or a dice expression."""
    return list(_die_sides(expression))


@functools.lru_cache(maxsize=1024)  # a campaign rolls the same few expressions again and again
def _die_sides(expression: str) -> tuple[int, ...]:
    words = expression.split(" ")
    if words[0] == "shuffle":
        if len(words) != 2 or not words[1].isdecimal() or int(words[1]) < 1:
            raise BadInput(f"'{expression}' is not a shuffle (shuffle K, K at least 1)")
        return tuple(d.shuffle_die_sides(int(words[1])))
    return tuple(d.parse_expression(expression).die_sides)


@dataclass(frozen=True)
class _Throw:
    """What a recorded expression showing some faces is: its count (`value`, `kept`) and the digest
    a reroll's copy is compared with, or what is wrong with it (`problem`)."""

    problem: str | None = None
    value: int = 0
    kept: tuple[int, ...] = ()
    digest: bytes = b""


@functools.lru_cache(maxsize=4096)  # a campaign throws the same few dice again and again (a shuffle's are one-off)
def _throw(expression: str, faces: tuple[int, ...]) -> _Throw:
    try:
        sides = _die_sides(expression)
    except BadInput as error:
        return _Throw(problem=str(error))
    if len(faces) != len(sides) or any(not 1 <= f <= s for f, s in zip(faces, sides)):
        return _Throw(problem=f"faces {list(faces)} cannot come from {expression}")
    value, kept = (0, []) if expression.startswith("shuffle") else d.parse_expression(expression).evaluate(list(faces))
    return _Throw(value=value, kept=tuple(kept), digest=_dice_digest(expression, list(faces)))


def _recorded_throw(event: ev.DiceRolled) -> _Throw:
    """A recorded roll's dice, with what is wrong with them on their own (`problem`): faces its
    expression cannot show (a count of faces not its dice's, a face outside 1 to its sides), or a
    value and kept dice its faces do not count to."""
    throw = _throw(event.expression, tuple(event.faces))
    if throw.problem is not None:
        return _Throw(problem=f"roll R{event.roll}: {throw.problem}")
    if event.value != throw.value or tuple(event.kept) != throw.kept:
        return _Throw(problem=f"roll R{event.roll}: {event.expression} showing {event.faces} counts as "
                              f"{throw.value} (kept {list(throw.kept)}), not {event.value} (kept {event.kept})")
    return throw


def recorded_roll_problem(event: ev.DiceRolled) -> str | None:
    """What is wrong with a recorded roll's dice on their own (None: nothing). The one check of every
    roll, wherever it is recorded: the chain's (`verify`, and `import` before anything else) and
    re-deciding a history's (`replay --check`, which reads the store without verifying its chain).
    Re-deciding cannot check it: a pending transaction is not decided again, and its command,
    decided with its dice, may stop where they are asked for whatever they show."""
    return _recorded_throw(event).problem


# The events ChainChecker._follow's cases are about.
_FOLLOWED = frozenset({ev.CampaignStarted, ev.RulesetPinned, ev.SeedCommitted, ev.SeedRevealed, ev.SeedAbandoned,
                       ev.DecisionPending, ev.DeckShuffled})


@dataclass
class ChainChecker:
    """Reads entries in stream order and raises IntegrityFailure at the first that does not verify.
    It keeps what the checks ahead need, not the entries: the last one, every hash (32 bytes) and
    read digest where the chain is read again (`read_again`), a digest of every roll's dice (a
    reroll's copies name any earlier roll), the ledger rolls of epochs whose seed is still secret,
    and the voids."""

    count: int = 0
    previous: Entry | None = None
    digests: bytearray = field(default_factory=bytearray)
    read_digests: bytearray = field(default_factory=bytearray)  # read_digest of each event's bytes, in order
    voids: list[Record] = field(default_factory=list)
    campaign_id: str | None = None
    name: str = ""
    ruleset: dict[str, Any] = field(default_factory=dict)
    epoch: int | None = None  # the committed epoch whose dice are being rolled
    commitments: dict[int, tuple[str, str]] = field(default_factory=dict)  # epoch -> (commitment, where)
    revealed: dict[int, str] = field(default_factory=dict)
    revealed_in: dict[int, int] = field(default_factory=dict)  # epoch -> transaction of its reveal
    abandoned_in: dict[int, int] = field(default_factory=dict)  # epoch left behind -> its transaction
    pending_tx: int = 0  # the latest transaction stored pending: it may hold nothing but dice
    rolls: int = 0
    thrown: bytearray = field(default_factory=bytearray)  # roll -> digest of (expression, faces, purpose, source, epoch)
    origins: array = field(default_factory=lambda: array("q"))  # roll -> the roll it copies, or itself
    tx_of_roll: array = field(default_factory=lambda: array("q"))  # roll -> its transaction
    # The latest transaction that voided or answered others, and those: the transactions right after
    # it (at most one for each) decide them again, and only they may copy their rolls.
    handing_back: int = 0
    handed_back: list[int] = field(default_factory=list)
    handed_back_by: str = ""  # its command
    copied: set[int] = field(default_factory=set)  # the rolls copied since it: each is handed back once
    # A pending decision stored right after a reroll (or an answer) that hands back several -> the others, which its
    # answer hands back after it: a cascading reroll stopped pending decides them again once answered.
    carried: dict[int, list[int]] = field(default_factory=dict)
    disputed: dict[int, int] = field(default_factory=dict)  # a reroll's transaction -> the roll it disputed (its original)
    command: str = ""  # of the transaction being read
    pending: set[int] = field(default_factory=set)  # every transaction stored pending
    ledger_decks: dict[str, None] = field(default_factory=dict)  # the decks the ledger shuffled, in order
    ledger_rolls: int = 0
    waiting: dict[int, _WaitingRolls] = field(default_factory=dict)  # epoch not revealed yet -> its rolls
    ledger_rolls_verified: int = 0
    derivation_failure: tuple[int, IntegrityFailure] | None = None  # the first, by order: raised at the end
    advance: Progress | None = None  # told every PROGRESS_STEP events; handed on to the chain's readings again
    # Whether the chain is read again after (every hash and read digest kept, 40 bytes an event):
    # not where each event is handed on once as it verifies (an export to JSONL).
    read_again: bool = True

    @staticmethod
    def fail(where: str, problem: str) -> IntegrityFailure:
        return IntegrityFailure(f"{where}: {problem}")

    def add(self, entry: Entry) -> None:
        body, where = entry.body, entry.where
        previous = self.previous
        expected = self.count + 1
        if body["position"] != expected:
            raise self.fail(where, f"holds position {body['position']} where position {expected} was expected "
                                   "(an event was removed, added or moved)")
        hashed = hash_body(body) if entry.hashed is None else hashlib.sha256(entry.hashed).hexdigest()
        if hashed != entry.hash:
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
        self.count, self.previous = expected, entry
        if self.read_again:
            self.digests += bytes.fromhex(entry.hash)
            self.read_digests += read_digest(entry.data)
        if self.advance is not None and expected % PROGRESS_STEP == 0:
            self.advance(PROGRESS_STEP)
        if isinstance(entry.record.event, ev.TransactionVoided):
            self.voids.append(entry.record)

    def _follow(self, entry: Entry, previous: Entry | None) -> None:
        """The ledger's own bookkeeping: the campaign, the ruleset, seeds, roll numbers, shuffles."""
        event, where, tx = entry.record.event, entry.where, entry.body["tx"]
        if tx == self.pending_tx and not isinstance(event, ev.DiceRolled):
            raise self.fail(where, f"T{tx} is pending: it may hold its command and dice only, not {entry.body['type']}")
        if isinstance(event, ev.DiceRolled):
            self._rolled(where, tx, event)
        elif isinstance(event, ev.CommandRecorded):
            self.command = event.command
            roll = event.args.get("roll")
            if event.command == "reroll" and isinstance(roll, int) and 0 <= roll < self.rolls:
                self.disputed[tx] = self.origins[roll]
        elif isinstance(event, ev.TransactionVoided | ev.DecisionAnswered):
            self._handed_back(where, tx, event)
        if type(event) not in _FOLLOWED:  # most events (XP, items, commands): no case below is theirs
            return
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
            case ev.SeedAbandoned():
                if event.epoch != self.epoch or event.epoch in self.revealed or event.epoch in self.abandoned_in:
                    raise self.fail(where, f"leaves epoch {event.epoch} behind, but epoch {self.epoch} is the one in use")
                self.abandoned_in[event.epoch] = tx
            case ev.DecisionPending():
                self.pending.add(tx)
                if self.handing_back == tx - 1 and self.handed_back_by in ("reroll", "answer") and len(self.handed_back) > 1:
                    self.carried[tx] = self.handed_back[1:]
                if event.leaves:  # a transaction a cascade decided again, stopped: the later ones go to its answer
                    if not (self.handing_back < tx <= self.handing_back + len(self.handed_back)
                            and set(event.leaves) <= set(self.handed_back)):
                        raise self.fail(where, f"leaves {', '.join(f'T{t}' for t in event.leaves)} to its answer, but "
                                               "no void, reroll or answer just before it handed them back")
                    self.carried[tx] = list(event.leaves)
                opened = previous.record.event if previous else None
                if not (isinstance(opened, ev.CommandRecorded) and previous and previous.body["tx"] == tx
                        and opened.command not in LEDGER_COMMANDS):
                    raise self.fail(where, "a pending decision must directly follow the command.recorded of its transaction")
                self.pending_tx = tx

            case ev.DeckShuffled(source="ledger"):
                self.ledger_decks[event.deck] = None
                shuffle = previous.record.event if previous else None
                if not (isinstance(shuffle, ev.DiceRolled) and shuffle.roll == event.roll
                        and shuffle.expression == f"shuffle {len(event.cards)}"):
                    raise self.fail(where, f"a ledger shuffle of {len(event.cards)} cards must follow its roll "
                                           f"R{event.roll} ('shuffle {len(event.cards)}')")

    def _committed(self, where: str, tx: int, event: ev.SeedCommitted) -> None:
        expected = 0 if self.epoch is None else self.epoch + 1
        if event.epoch != expected:
            raise self.fail(where, f"commits epoch {event.epoch} where epoch {expected} was expected")
        if expected > 0 and tx not in (self.revealed_in.get(expected - 1), self.abandoned_in.get(expected - 1)):
            raise self.fail(where, f"commits epoch {expected} without revealing epoch {expected - 1} "
                                   "in the same transaction")
        if not is_hex(event.commitment, 64):
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
        self._derive(event.epoch, event.seed)

    def seed_problem(self, epoch: int, seed: Any) -> str | None:
        if not is_hex(seed, 64):
            return f"the seed of epoch {epoch} must be 64 lowercase hex digits (32 bytes)"
        if epoch not in self.commitments:
            return f"a seed for epoch {epoch}, which was never committed"
        commitment, committed_at = self.commitments[epoch]
        if d.commitment(bytes.fromhex(seed)) != commitment:
            return f"the seed of epoch {epoch} does not match its commitment ({committed_at})"
        return None

    def _rolled(self, where: str, tx: int, event: ev.DiceRolled) -> None:
        if event.roll != self.rolls:
            raise self.fail(where, f"roll R{event.roll} where R{self.rolls} was expected (roll numbers have no gaps)")
        self.rolls += 1
        throw = _recorded_throw(event)
        if throw.problem is not None:
            raise self.fail(where, throw.problem)
        thrown = _copied_as(throw.digest, event)
        self.thrown += thrown
        self.tx_of_roll.append(tx)
        self.origins.append(event.roll if event.copy_of is None else event.copy_of)
        if event.copy_of is not None:
            self._copied(where, tx, event, thrown)
        elif event.source == "table":
            if event.epoch is not None:
                raise self.fail(where, f"roll R{event.roll}: table dice name no epoch")
        elif event.source == "ledger":
            if self.epoch is None or event.epoch != self.epoch or self.epoch in self.revealed:
                in_use = "none" if self.epoch is None or self.epoch in self.revealed else str(self.epoch)
                named = "no epoch" if event.epoch is None else f"epoch {event.epoch}"
                raise self.fail(where, f"roll R{event.roll}: ledger dice of {named}, but the epoch with "
                                       f"a secret committed seed is {in_use}")
            waiting = self.waiting.get(event.epoch)
            if waiting is None:  # (not setdefault: a _WaitingRolls made for every roll costs 2 µs)
                waiting = self.waiting[event.epoch] = _WaitingRolls()
            waiting.add(self.ledger_rolls, where, event.roll, event.faces, event.expression)
            self.ledger_rolls += 1
        else:
            raise self.fail(where, f"roll R{event.roll}: source '{event.source}' is neither 'table' nor 'ledger'")

    def _handed_back(self, where: str, tx: int, event: ev.TransactionVoided | ev.DecisionAnswered) -> None:
        """A transaction the next ones decide again, which may copy its rolls: a reroll's target, a
        transaction a void (or reroll) voids because of its target, an answered pending one. A plain
        void's target is decided again by none."""
        if tx != self.handing_back:
            self.handing_back, self.handed_back, self.handed_back_by, self.copied = tx, [], self.command, set()
        if isinstance(event, ev.DecisionAnswered):
            if event.target not in self.pending:
                raise self.fail(where, f"answers T{event.target}, which is no pending decision")
            self.pending.discard(event.target)  # answered once
            self.handed_back += [event.target, *self.carried.pop(event.target, [])]
        else:
            self.pending.discard(event.target)  # a pending decision voided is answered by none
            if event.because_of is not None or self.command == "reroll":
                self.handed_back.append(event.target)

    def _copied(self, where: str, tx: int, event: ev.DiceRolled, thrown: bytes) -> None:
        """A re-decided transaction (a reroll's, a void's, an answer's) keeps an earlier roll's dice as
        a copy: of an original roll (never a copy), which a transaction the one just before it voided
        or answered rolled or copied, with the same expression, purpose, faces, source and epoch. Anything less let a roll
        name itself, or another roll, and pass as ledger dice no seed derives."""
        original = event.copy_of
        assert original is not None
        if not 0 <= original < event.roll:
            raise self.fail(where, f"roll R{event.roll} claims to copy R{original}, which is not an earlier roll")
        if self.origins[original] != original:
            raise self.fail(where, f"roll R{event.roll} claims to copy R{original}, itself a copy: a copy names the first roll")
        by = self.handing_back
        if not by < tx <= by + len(self.handed_back) or not any(self._holds_copy_of(t, original) for t in self.handed_back):
            raise self.fail(where, f"roll R{event.roll} copies R{original}, but T{tx} decides no transaction holding it "
                                   "again: only the transactions right after a void, reroll or answer keep dice")
        if self.disputed.get(by) == original:
            raise self.fail(where, f"roll R{event.roll} copies R{original}, the roll T{by} disputed: a reroll rolls it anew")
        if original in self.copied:
            raise self.fail(where, f"roll R{event.roll} copies R{original} again: a roll is handed back once")
        self.copied.add(original)
        if self.thrown[original * _DICE_DIGEST:(original + 1) * _DICE_DIGEST] != thrown:
            raise self.fail(where, f"roll R{event.roll} claims to copy R{original}, but its dice differ "
                                   "(expression, purpose, faces, source or epoch)")

    def _holds_copy_of(self, tx: int, original: int) -> bool:
        """Whether transaction `tx` rolled `original` or a copy of it (a transaction's rolls are numbered in a row)."""
        first, end = bisect_left(self.tx_of_roll, tx), bisect_right(self.tx_of_roll, tx)
        return original in self.origins[first:end]

    def _derive(self, epoch: int, seed: str) -> None:
        """Re-derive an epoch's ledger rolls from its seed; the first that differs is kept to be
        raised once the whole chain is read (chain problems are named first, as they are met)."""
        if self.campaign_id is None:
            return  # a chain without its campaign.started fails in finish
        for roll in self.waiting.pop(epoch, _WaitingRolls()):
            derived = d.ledger_faces(bytes.fromhex(seed), self.campaign_id, roll.roll, list(roll.die_sides))
            if derived == list(roll.faces):
                self.ledger_rolls_verified += 1
            elif self.derivation_failure is None or roll.order < self.derivation_failure[0]:
                failure = self.fail(roll.where, f"ledger roll R{roll.roll} shows {list(roll.faces)}, but the "
                                                f"revealed seed of epoch {epoch} gives {derived}")
                self.derivation_failure = (roll.order, failure)
                return

    def finish(self, source: RawSource, read_again: ReadAgain, record_again: RecordAgain, lines_before: int | None,
               more_seeds: dict[int, tuple[str, str]] | None = None) -> Chain:
        """The verified chain, read again from `source` (see Chain.lines_before); `more_seeds`:
        epoch -> (seed, where) from a trailer, for the epochs the chain did not reveal."""
        if self.previous is None:
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
        for epoch in [epoch for epoch in self.waiting if epoch in seeds]:
            self._derive(epoch, seeds[epoch])
        if self.derivation_failure is not None:
            raise self.derivation_failure[1]
        if self.advance is not None and self.count % PROGRESS_STEP:
            self.advance(self.count % PROGRESS_STEP)
        return Chain(
            source=source,
            read_again=read_again,
            record_again=record_again,
            count=self.count,
            head=self.previous.hash,
            digests=memoryview(self.digests).toreadonly(),
            read_digests=memoryview(self.read_digests).toreadonly(),
            lines_before=lines_before,
            campaign_id=self.campaign_id,
            name=self.name,
            ruleset=self.ruleset,
            transactions=self.previous.body["tx"],
            revealed=seeds,
            ledger_rolls_verified=self.ledger_rolls_verified,
            ledger_rolls_waiting={epoch: len(rolls) for epoch, rolls in sorted(self.waiting.items()) if rolls},
            voids=self.voids,
            ledger_decks=list(self.ledger_decks),
            abandoned=sorted(self.abandoned_in),
            advance=self.advance,
        )


_DICE_DIGEST = 16  # bytes of a roll's dice digest: no two different throws share one


def _dice_digest(expression: str, faces: list[int]) -> bytes:
    return hashlib.blake2b(f"{expression}|{faces}".encode(), digest_size=_DICE_DIGEST).digest()


def _copied_as(throw: bytes, event: ev.DiceRolled) -> bytes:
    """What a copy of this roll must match: its throw, and what it was rolled for and where it came from."""
    return hashlib.blake2b(throw + f"|{event.purpose}|{event.source}|{event.epoch}".encode(),
                           digest_size=_DICE_DIGEST).digest()


def _is_canonical_uuid(text: str) -> bool:
    try:
        return str(uuid.UUID(text)) == text
    except ValueError:
        return False


def locate_head(chain: Chain, noted: str) -> int:
    """The position of a noted head (its full hash or a prefix of at least 8 hex digits)."""
    prefix = noted.strip().lower()
    if not 8 <= len(prefix) <= 64 or not set(prefix) <= HEX_DIGITS:
        raise BadInput(f"--head takes a head hash or at least its first 8 hex digits, not '{noted}'")
    found = [position for position in range(1, chain.count + 1) if chain.digest(position).hex().startswith(prefix)]
    if not found:
        raise IntegrityFailure(f"the noted head {prefix} is not in this chain: the history it ended was changed "
                               "(unless it was noted wrong, or is another campaign's)")
    if len(found) > 1:
        raise BadInput(f"--head {prefix} matches positions {', '.join(map(str, found))}: give more digits")
    return found[0]


def check_extends(newer: Chain, older: Chain, older_name: str) -> int:
    """Prove that `newer` starts with exactly the events of `older` (an append-only history between
    two exports): the number of events added since, or IntegrityFailure at the first position where
    they part (a chain recomputed from there)."""
    if newer.campaign_id != older.campaign_id:
        raise IntegrityFailure(f"{older_name} is campaign {older.name} ({older.campaign_id}), "
                               f"not {newer.name} ({newer.campaign_id})")
    for position in range(1, min(newer.count, older.count) + 1):
        if newer.digest(position) != older.digest(position):
            raise IntegrityFailure(f"position {position}: differs from {older_name} ({newer.where(position)} here, "
                                   f"{older.where(position)} there): the history was rewritten from there on, not extended")
    if newer.count < older.count:
        raise IntegrityFailure(f"position {newer.count + 1}: {older_name} goes on to position "
                               f"{older.count}; events were removed since, not added")
    return newer.count - older.count
