"""The application service: every way a campaign's history changes or is read back.

Each command becomes one atomic transaction (`command.recorded`, then its rolls, draws and
consequences); a conflicting writer makes the command be re-decided on the new state, a bounded
number of times. Voids re-decide every later transaction with its own recorded dice.
"""

from __future__ import annotations

import json
import random
import time
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from itertools import groupby
from typing import Any

import msgspec

from ledger import dice as d
from ledger import events as ev
from ledger import rulesets
from ledger.decide import (
    AskChoice,
    Command,
    Context,
    DiceSource,
    Diverged,
    Faces,
    LedgerDice,
    RecordedDice,
    check_answers,
    command_name,
)
from ledger.describe import describe
from ledger.errors import BadInput, Conflict, LedgerError, NotFound, RuleViolation
from ledger.records import Record, check_numbers, seal
from ledger.state import LEDGER_EVENTS, CampaignState, decode_state, encode_state, evolve
from ledger.store import Store

SNAPSHOT_INTERVAL = 100
RETRIES = 5
RETRY_PAUSE = 0.02  # seconds; the pause before try n is up to n times this
# Commands of the ledger itself, not of a ruleset: they are checked, never re-decided.
LEDGER_COMMANDS = ("campaign.new", "void", "reroll", "seed.reveal")


def utc_now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


# --- folding -----------------------------------------------------------------------------------


def apply_record(state: CampaignState, record: Record, voided: bool) -> None:
    """Fold one stored record: ledger bookkeeping always, the event itself only when live."""
    state.position = record.position
    state.head = record.hash
    state.current_tx = record.tx
    state.transactions = max(state.transactions, record.tx)
    if not voided or isinstance(record.event, LEDGER_EVENTS):
        ruleset_evolve = rulesets.get(state.ruleset).evolve if state.ruleset else None
        evolve(state, record.event, ruleset_evolve)


def voids_in(records: Iterable[Record]) -> set[int]:
    return {r.event.target for r in records if isinstance(r.event, ev.TransactionVoided)}


def fold(records: Sequence[Record], state: CampaignState | None = None) -> CampaignState:
    """State from records, skipping every transaction voided in them (or before them)."""
    state = state or CampaignState()
    voided = {int(t) for t in state.voided} | voids_in(records)
    for record in records:
        apply_record(state, record, record.tx in voided)
    return state


def transactions(records: Sequence[Record]) -> list[list[Record]]:
    return [list(group) for _, group in groupby(records, key=lambda r: r.tx)]


# --- deciding ------------------------------------------------------------------------------------


def decide(
    ruleset: rulesets.Ruleset,
    state: CampaignState,
    command: Command,
    *,
    dice: DiceSource,
    shuffle_dice: DiceSource | None,
    ask: AskChoice | None = None,
    reason: str = "",
    answered_now: Iterable[str] = (),
) -> list[ev.Event]:
    """The events a command produces on this state with these dice (the state is not changed).
    `answered_now`: the keys of answers a person gave for this decision, each of which the command
    must have asked for or document (recorded answers are not checked: they were asked then)."""
    ctx = Context(
        state.copy(),
        dice=dice,
        shuffle_dice=shuffle_dice,
        answers=command.answers,
        ask=ask,
        ruleset_evolve=ruleset.evolve,
        decks=ruleset.decks_of(state),
        options=state.options,
    )
    ruleset.handler_for(command)(command, ctx)
    check_answers(command, answered_now, ctx.asked)
    answered = msgspec.structs.replace(command, answers=ctx.answers)
    args = msgspec.to_builtins(answered)
    args.pop("command", None)
    return [ev.CommandRecorded(command=command_name(command), args=args, reason=reason), *ctx.events]


def redecide(state: CampaignState, records: Sequence[Record]) -> str | None:
    """Why a recorded transaction no longer follows from this state (None: it still does)."""
    opened = records[0].event
    assert isinstance(opened, ev.CommandRecorded)
    ruleset = rulesets.get(state.ruleset)
    recorded = RecordedDice(
        rolls=[r.event for r in records if isinstance(r.event, ev.DiceRolled)],
        draws=[r.event for r in records if isinstance(r.event, ev.CardDrawn)],
    )
    try:
        command = ruleset.command_from(opened.command, opened.args)
        events = decide(ruleset, state, command, dice=recorded, shuffle_dice=recorded, reason=opened.reason)
    except (LedgerError, Diverged) as error:
        return str(error)
    stored = [r.event for r in records]
    if events == stored:
        return None
    for index, (now, then) in enumerate(zip(events, stored)):
        if now != then:
            return f"event {records[0].position + index} would now be “{_said(now, state)}”, not “{_said(then, state)}”"
    return f"would now produce {len(events)} events instead of {len(stored)}"


def _said(event: ev.Event, state: CampaignState) -> str:
    """An event as the log says it, or its type and payload where the log shows no line."""
    return describe(event, state) or f"{ev.tag_of(event)} {json.dumps(ev.payload_of(event), sort_keys=True)}"


def is_ledger_transaction(records: Sequence[Record]) -> bool:
    opened = records[0].event
    return not isinstance(opened, ev.CommandRecorded) or opened.command in LEDGER_COMMANDS


@dataclass
class Outcome:
    """What a committed transaction (or pair, for a reroll) wrote, and the state after it."""

    records: list[Record]
    state: CampaignState
    affected: list[tuple[int, str]] = field(default_factory=list)

    @property
    def tx(self) -> int:
        return self.records[0].tx


@dataclass
class Attempt:
    """What one try of a write decided: the state it was decided on and the transactions to seal."""

    state: CampaignState
    groups: list[tuple[list[ev.Event], str]]  # (events, actor) per transaction, in order
    refold: bool = False  # the past changed (a void): fold everything again after the commit
    affected: list[tuple[int, str]] = field(default_factory=list)


@dataclass
class RerollDice:
    """Hands back every recorded roll of a transaction except the disputed one.

    Each roll the re-decided command asks for takes the first recorded roll not yet handed back
    with the same expression and purpose, as a copy (`copy_of`); new dice are drawn only for the
    disputed roll and for rolls that were never recorded (the new result asks for them). A
    recorded roll the command no longer asks for is simply not repeated."""

    rolls: list[ev.DiceRolled]
    draws: list[ev.CardDrawn]
    disputed_roll: int
    fresh: DiceSource
    _used: set[int] = field(default_factory=set)
    _next_card: int = 0

    def faces(self, roll: int, expression: str, die_sides: list[int], purpose: str) -> Faces:
        for index, old in enumerate(self.rolls):
            if index in self._used or old.expression != expression or old.purpose != purpose:
                continue
            self._used.add(index)
            if old.roll == self.disputed_roll:
                break
            return Faces(list(old.faces), old.source, old.epoch, old.roll if old.copy_of is None else old.copy_of)
        return self.fresh.faces(roll, expression, die_sides, purpose)

    def card(self, deck: str, purpose: str, candidates: Sequence[str]) -> str:
        # A physical card drawn is on the table: disputing a die does not draw it again.
        if self._next_card < len(self.draws) and self.draws[self._next_card].card in candidates:
            self._next_card += 1
            return self.draws[self._next_card - 1].card
        return self.fresh.card(deck, purpose, candidates)

    def finish(self) -> None:
        self.fresh.finish()

    def rewind(self) -> None:
        self.fresh.rewind()
        self._used.clear()
        self._next_card = 0


# --- the service -------------------------------------------------------------------------------------


class Ledger:
    """Campaigns in one store."""

    def __init__(
        self, store: Store, clock: Callable[[], str] | None = None, on_commit: Sequence[Callable[..., None]] = ()
    ):
        self.store = store
        self.clock = clock or utc_now
        self.on_commit = list(on_commit)

    # --- finding and loading ---------------------------------------------------------------------

    def campaigns(self) -> list[CampaignState]:
        return [self.load(cid) for cid in self.store.campaign_ids()]

    def find(self, ref: str | None) -> uuid.UUID:
        """A campaign by name or id; with no reference, the store's only campaign, or its current one
        (`campaign use`; a new or imported campaign becomes current)."""
        ids = self.store.campaign_ids()
        if ref is None:
            return self.store.pick_unnamed(ids, lambda cid: self.load(cid).name)
        for cid in ids:
            if str(cid) == ref.lower() or self.load(cid).name.lower() == ref.lower():
                return cid
        raise NotFound(f"no campaign '{ref}' in {self.store.url}")

    def use(self, ref: str) -> CampaignState:
        """Make a campaign the store's current one: commands that name none then mean it."""
        campaign_id = self.find(ref)
        self.store.set_current_campaign(campaign_id)
        return self.load(campaign_id)

    def load(self, campaign_id: uuid.UUID, upto: int | None = None) -> CampaignState:
        """The current state (or the state at position `upto`, as it was known then): the latest
        snapshot (at or before `upto`) plus what followed it, unless a void made it stale."""
        snapshot = self.store.latest_snapshot(campaign_id, upto=upto)
        if snapshot is not None:
            position, data = snapshot
            try:
                state = decode_state(data)  # None for a snapshot of an older shape
            except msgspec.DecodeError:  # a damaged snapshot is only a lost cache: fold the events
                state = None
            if state is not None:
                newer = list(self.store.records(campaign_id, after=position, upto=upto))
                targets = voids_in(newer)
                stale = any(t <= state.transactions and str(t) not in state.voided for t in targets)
                # A snapshot the events do not follow on from (damaged, or edited) is not used either.
                follows = newer[0].prev_hash == state.head if newer else self._ends_at(campaign_id, position, state.head)
                if follows and not stale:
                    return fold(newer, state)
        state = fold(list(self.store.records(campaign_id, upto=upto)))
        if state.position == 0:
            raise NotFound(f"no campaign {campaign_id}")
        if upto is None and state.position >= SNAPSHOT_INTERVAL:
            # No snapshot this load could use (stale, damaged, or of an older shape): the next load
            # starts from this one instead of folding everything again.
            self.store.save_snapshot(campaign_id, state.position, encode_state(state))
        return state

    def _ends_at(self, campaign_id: uuid.UUID, position: int, head: str) -> bool:
        """Is `head` the hash of the event at `position` (so a snapshot there is not beyond the stream)?"""
        at = list(self.store.records(campaign_id, after=position - 1, upto=position))
        return bool(at) and at[-1].hash == head

    def history(self, campaign_id: uuid.UUID, upto: int | None = None, *, check: bool = True) -> list[Record]:
        return list(self.store.records(campaign_id, upto=upto, check=check))

    def ledger_dice(self, campaign_id: uuid.UUID, state: CampaignState) -> LedgerDice | None:
        seed = self.store.seed(campaign_id, state.epoch)
        return LedgerDice(bytes.fromhex(seed), state.epoch, str(campaign_id)) if seed else None

    # --- writing ---------------------------------------------------------------------------------------

    def _commit(
        self, campaign_id: uuid.UUID, state: CampaignState, groups: list[tuple[list[ev.Event], str]]
    ) -> list[Record]:
        """Seal each group as one transaction and store them all in one atomic save."""
        recorded_at = self.clock()
        records: list[Record] = []
        position, head, tx = state.position, state.head, state.transactions
        for events, actor in groups:
            tx += 1
            sealed = seal(events, first_position=position + 1, prev_hash=head, tx=tx, actor=actor, recorded_at=recorded_at)
            records.extend(sealed)
            position, head = sealed[-1].position, sealed[-1].hash
        self.store.append(campaign_id, records)
        return records

    def _after_commit(
        self, campaign_id: uuid.UUID, state: CampaignState, records: list[Record], refold: bool, snapshot: bool = False
    ) -> CampaignState:
        """Fold what was committed (everything again when `refold`), snapshot when that crossed a
        hundred events (always when `refold` or `snapshot`), and run the commit hooks."""
        if refold:
            state = fold(self.history(campaign_id))
        else:
            state = fold(records, state)
        crossed = (state.position // SNAPSHOT_INTERVAL) > ((records[0].position - 1) // SNAPSHOT_INTERVAL)
        if refold or crossed or snapshot:
            self.store.save_snapshot(campaign_id, state.position, encode_state(state))
        for hook in self.on_commit:
            hook(self, campaign_id, state, records)
        return state

    def _write(self, campaign_id: uuid.UUID, doing: str, attempt: Callable[[], Attempt]) -> Outcome:
        """Commit what `attempt` decides on the latest state; when another writer got there first,
        wait a moment and decide again, a bounded number of times."""
        for tries in range(1, RETRIES + 1):
            decided = attempt()
            try:
                written = self._commit(campaign_id, decided.state, decided.groups)
            except Conflict:
                # Jitter, so that two writers who collided do not collide again in lockstep.
                time.sleep(random.uniform(0, RETRY_PAUSE * tries))  # noqa: S311 - not for dice
                continue
            state = self._after_commit(campaign_id, decided.state, written, refold=decided.refold)
            return Outcome(written, state, decided.affected)
        raise Conflict(f"the campaign kept changing while {doing}; try again")

    def adopt(self, campaign_id: uuid.UUID, records: list[Record]) -> CampaignState:
        """Store a history sealed elsewhere (an imported trail) as it is, in one atomic save, then
        snapshot it and bring the read models up to date as after any commit."""
        for record in records:
            check_numbers(ev.payload_of(record.event), f"E{record.position} {ev.tag_of(record.event)}")
        self.store.append(campaign_id, records)
        self.store.set_current_campaign(campaign_id)
        # The records are the whole history: folded as they are, not read back from the store.
        return self._after_commit(campaign_id, CampaignState(), records, refold=False, snapshot=True)

    def start(self, name: str, ruleset_id: str, options: dict[str, Any], actor: str) -> Outcome:
        name = name.strip()
        if not name:
            raise BadInput("a campaign needs a name")
        ruleset = rulesets.get(ruleset_id)
        check_numbers(options, "options")  # before the seed is saved: a refused start writes nothing
        checked = ruleset.options(options)
        for cid in self.store.campaign_ids():
            if self.load(cid).name.lower() == name.lower():
                raise BadInput(f"a campaign named '{name}' already exists in {self.store.url}")
        campaign_id = uuid.uuid4()
        seed = d.new_seed()
        self.store.save_seed(campaign_id, 0, seed.hex())
        events: list[ev.Event] = [
            ev.CommandRecorded(command="campaign.new", args={"name": name, "ruleset": ruleset_id, "options": options}),
            ev.CampaignStarted(campaign_id=str(campaign_id), name=name),
            ev.RulesetPinned(ruleset=ruleset.id, version=ruleset.version, options=checked),
            ev.SeedCommitted(epoch=0, commitment=d.commitment(seed)),
        ]
        state = CampaignState()
        records = self._commit(campaign_id, state, [(events, actor)])
        self.store.set_current_campaign(campaign_id)
        return Outcome(records, self._after_commit(campaign_id, state, records, refold=False))

    def execute(
        self,
        campaign_id: uuid.UUID,
        command: Command,
        *,
        actor: str,
        dice: DiceSource | None = None,
        ask: AskChoice | None = None,
        reason: str = "",
        answered_now: Iterable[str] | None = None,
    ) -> Outcome:
        """Decide and store one command; on a conflicting writer, decide again on the new state.
        Every answer the command carries must be one it asks for or documents, unless
        `answered_now` names the ones to check (the guided post-game checks its own)."""
        checked = list(command.answers) if answered_now is None else list(answered_now)

        def attempt() -> Attempt:
            state = self.load(campaign_id)
            ruleset = rulesets.get(state.ruleset)
            ledger_dice = self.ledger_dice(campaign_id, state)
            source = dice or ledger_dice
            if source is None:
                raise RuleViolation("this store does not hold the campaign's dice seed: give table dice with --dice")
            source.rewind()
            events = decide(ruleset, state, command, dice=source, shuffle_dice=ledger_dice, ask=ask, reason=reason,
                            answered_now=checked)
            source.finish()
            return Attempt(state, [(events, actor)])

        return self._write(campaign_id, f"recording {command_name(command)}", attempt)

    def reveal_seed(self, campaign_id: uuid.UUID, *, actor: str) -> Outcome:
        """Publish this epoch's seed (so anyone can recompute its dice) and commit to a new one."""

        def attempt() -> Attempt:
            state = self.load(campaign_id)
            seed = self.store.seed(campaign_id, state.epoch)
            if seed is None:
                raise RuleViolation(f"this store does not hold the seed of epoch {state.epoch}, so it cannot reveal it")
            following = self.store.seed(campaign_id, state.epoch + 1)
            if following is None:
                following = d.new_seed().hex()
                self.store.save_seed(campaign_id, state.epoch + 1, following)
            events = [
                ev.CommandRecorded(command="seed.reveal", args={"epoch": state.epoch}),
                ev.SeedRevealed(epoch=state.epoch, seed=seed),
                ev.SeedCommitted(epoch=state.epoch + 1, commitment=d.commitment(bytes.fromhex(following))),
            ]
            return Attempt(state, [(events, actor)])

        return self._write(campaign_id, "revealing the seed", attempt)

    # --- void and reroll -----------------------------------------------------------------------------

    def resolve(self, records: Sequence[Record], ref: str) -> tuple[int, int | None]:
        """(transaction, disputed roll or None) for `T12`/`12` (transaction), `R5` (roll), `E40` (event)."""
        text = ref.strip().upper()
        kind, number = (text[0], text[1:]) if text[:1] in "TRE" else ("T", text)
        if not number.isdigit():
            raise BadInput(f"'{ref}' is not a reference: use T<transaction>, R<roll> or E<event position>")
        n = int(number)
        if kind == "T":
            if not any(r.tx == n for r in records):
                raise NotFound(f"no transaction T{n}")
            return n, None
        if kind == "R":
            for r in records:
                if isinstance(r.event, ev.DiceRolled) and r.event.roll == n:
                    return r.tx, n
            raise NotFound(f"no roll R{n}")
        for r in records:
            if r.position == n:
                roll = r.event.roll if isinstance(r.event, ev.DiceRolled) else None
                return r.tx, roll
        raise NotFound(f"no event at position {n}")

    def _plan_void(self, records: list[Record], target: int) -> tuple[CampaignState, list[tuple[int, str]]]:
        """The state with `target` voided, and the later transactions that no longer follow."""
        groups = transactions(records)
        by_tx = {g[0].tx: g for g in groups}
        target_group = by_tx[target]
        if is_ledger_transaction(target_group):
            opened = target_group[0].event
            what = opened.command if isinstance(opened, ev.CommandRecorded) else ev.tag_of(opened)
            raise RuleViolation(f"T{target} ({what}) belongs to the ledger itself and cannot be voided")
        voided = voids_in(records)
        if target in voided:
            raise BadInput(f"T{target} is already voided")
        voided.add(target)
        state = CampaignState()
        affected: list[tuple[int, str]] = []
        for group in groups:
            tx = group[0].tx
            live = tx not in voided
            if live and tx > target and not is_ledger_transaction(group):
                why = redecide(state, group)
                if why is not None:
                    affected.append((tx, why))
                    voided.add(tx)
                    live = False
            for record in group:
                apply_record(state, record, not live)
        return state, affected

    def void(self, campaign_id: uuid.UUID, ref: str, *, reason: str, actor: str, cascade: bool = False) -> Outcome:
        if not reason.strip():
            raise BadInput("say why with --reason: a void is part of the audit trail")

        def attempt() -> Attempt:
            records = self.history(campaign_id)
            target, _roll = self.resolve(records, ref)
            _state, affected = self._plan_void(records, target)
            if affected and not cascade:
                raise Conflict(_affected_message(target, affected))
            events = [
                ev.CommandRecorded(command="void", args={"target": target, "cascade": cascade}, reason=reason),
                *_void_events(target, reason, affected),
            ]
            return Attempt(fold(records), [(events, actor)], refold=True, affected=affected)

        return self._write(campaign_id, "voiding", attempt)

    def reroll(
        self,
        campaign_id: uuid.UUID,
        ref: str,
        *,
        reason: str,
        actor: str,
        dice: DiceSource | None = None,
        cascade: bool = False,
        answers: Mapping[str, str] | None = None,
        ask: AskChoice | None = None,
    ) -> Outcome:
        """Void the transaction of a disputed roll and decide its command again with a new roll, in one commit.
        `answers` answer (or change the answer to) questions the new decision asks."""
        if not reason.strip():
            raise BadInput("say why with --reason: a reroll is part of the audit trail")

        def attempt() -> Attempt:
            records = self.history(campaign_id)
            target, roll = self.resolve(records, ref)
            if roll is None:
                raise BadInput(f"'{ref}' is not a roll: reroll takes R<roll number>")
            planned, affected = self._plan_void(records, target)
            if affected and not cascade:
                raise Conflict(_affected_message(target, affected))
            group = next(g for g in transactions(records) if g[0].tx == target)
            opened = group[0].event
            ruleset = rulesets.get(planned.ruleset)
            ledger_dice = self.ledger_dice(campaign_id, planned)
            fresh = dice or ledger_dice
            if fresh is None:
                raise RuleViolation("this store does not hold the campaign's dice seed: give table dice with --dice")
            rerolled = RerollDice(
                rolls=[r.event for r in group if isinstance(r.event, ev.DiceRolled)],
                draws=[r.event for r in group if isinstance(r.event, ev.CardDrawn)],
                disputed_roll=roll,
                fresh=fresh,
            )
            void_events = [
                ev.CommandRecorded(command="reroll", args={"target": target, "roll": roll, "cascade": cascade}, reason=reason),
                *_void_events(target, reason, affected),
            ]
            # The new command follows the void, so it is decided on the state without the voided transactions;
            # its own rolls are numbered after the void's.
            command = ruleset.command_from(opened.command, opened.args)
            command = msgspec.structs.replace(command, answers={**command.answers, **(answers or {})})
            events = decide(ruleset, planned, command, dice=rerolled, shuffle_dice=ledger_dice, ask=ask,
                            reason=opened.reason, answered_now=list(answers or {}))
            rerolled.finish()
            return Attempt(fold(records), [(void_events, actor), (events, actor)], refold=True, affected=affected)

        return self._write(campaign_id, "rerolling", attempt)

    # --- replay -----------------------------------------------------------------------------------------

    def replay(self, campaign_id: uuid.UUID, *, until: int | None = None, battle: int | None = None) -> CampaignState:
        """The campaign as it stood at a position, or once battle K and everything after it until the next battle."""
        records = self.history(campaign_id)
        if battle is not None:
            until = end_of_battle(records, battle)
        if until is not None:
            if until < 1:
                raise BadInput("--until takes a position from 1")
            records = [r for r in records if r.position <= until]
        return fold(records)

    def check(self, campaign_id: uuid.UUID) -> tuple[int, list[str]]:
        """Re-decide every live transaction from its command and dice: (transactions checked, differences)."""
        records = self.history(campaign_id)
        voided = voids_in(records)
        state = CampaignState()
        checked = 0
        differences = []
        for group in transactions(records):
            tx = group[0].tx
            live = tx not in voided
            if live and not is_ledger_transaction(group):
                checked += 1
                why = redecide(state, group)
                if why is not None:
                    differences.append(f"T{tx}: {why}")
            for record in group:
                apply_record(state, record, not live)
        return checked, differences


def _void_events(target: int, reason: str, affected: list[tuple[int, str]]) -> list[ev.Event]:
    return [
        ev.TransactionVoided(target=target, reason=reason),
        *(
            ev.TransactionVoided(target=tx, reason=f"no longer follows once T{target} is voided: {why}", because_of=target)
            for tx, why in affected
        ),
    ]


def _affected_message(target: int, affected: list[tuple[int, str]]) -> str:
    lines = "\n".join(f"  T{tx}: {why}" for tx, why in affected)
    return f"voiding T{target} affects later transactions (add --cascade to void them too):\n{lines}"


def battle_ends(records: Sequence[Record]) -> dict[int, int]:
    """Each standing battle's number -> where it ends with everything after it: the position before
    the first transaction of a battle numbered above it, or the last record. In record order; one pass."""
    voided = voids_in(records)
    starts = [r for r in records if isinstance(r.event, ev.BattleRecorded) and r.tx not in voided]
    first_position: dict[int, int] = {}
    for record in records:
        first_position.setdefault(record.tx, record.position)
    ends: dict[int, int] = {}
    earliest_later: int | None = None  # the first transaction of the battles numbered above
    by_number = sorted(starts, key=lambda r: r.event.battle, reverse=True)
    for number, same in groupby(by_number, key=lambda r: r.event.battle):
        ends[number] = first_position[earliest_later] - 1 if earliest_later is not None else records[-1].position
        earliest_later = min([r.tx for r in same] + ([earliest_later] if earliest_later is not None else []))
    return {r.event.battle: ends[r.event.battle] for r in starts}


def end_of_battle(records: Sequence[Record], battle: int) -> int:
    ends = battle_ends(records)
    if battle not in ends:
        raise NotFound(f"no battle {battle} (battles: {', '.join(map(str, ends)) or 'none yet'})")
    return ends[battle]


def battle_span(records: Sequence[Record], battle: int) -> tuple[int, int]:
    """The positions (first, last) of battle K's transaction and everything after it until the next battle."""
    last = end_of_battle(records, battle)
    voided = voids_in(records)
    opened = next(r.tx for r in records if isinstance(r.event, ev.BattleRecorded) and r.event.battle == battle
                  and r.tx not in voided)
    return next(r.position for r in records if r.tx == opened), last
