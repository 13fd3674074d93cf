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
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from itertools import groupby
from typing import Any

import msgspec

from ledger import dice as d
from ledger import events as ev
from ledger import rulesets
from ledger.dealer import AlreadyDealt, Dealer, expression_for
from ledger.decide import (
    AskChoice,
    Command,
    Context,
    DiceSource,
    Diverged,
    Faces,
    LedgerDice,
    NeedsAnswer,
    RecordedDice,
    TableDice,
    command_name,
)
from ledger.describe import describe, warband_name
from ledger.errors import BadInput, Conflict, IntegrityFailure, LedgerError, NeedsDice, NotFound, RuleViolation
from ledger.records import Record, check_numbers, seal
from ledger.state import LEDGER_EVENTS, CampaignState, Pending, decode_state, encode_state, evolve
from ledger.store import Store

SNAPSHOT_INTERVAL = 100
RETRIES = 5
SEED_FORMAT = "campaign-ledger-seed"
RETRY_PAUSE = 0.02  # seconds; the pause before try n is up to n times this
# Commands of the ledger itself, not of a ruleset: they are checked, never re-decided.
LEDGER_COMMANDS = ("campaign.new", "void", "reroll", "seed.reveal", "answer", "seed.new-epoch", "dice.burn")


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


class Halted(Exception):
    """Deciding stopped (a choice to make, a refusal, an interrupted prompt) after new ledger dice
    were drawn: those dice are shown by the message or the prompt, so they must be stored first."""

    def __init__(self, cause: BaseException, opened: ev.CommandRecorded, rolls: list[ev.DiceRolled]):
        super().__init__(str(cause))
        self.cause, self.opened, self.rolls = cause, opened, rolls

    def events(self, concerns: set[str] | None) -> list[ev.Event]:
        """The pending transaction: its command, what it waits for, and every roll it made. It
        concerns one warband, or (a command about several, or none) the campaign."""
        warband = next(iter(concerns)) if concerns and len(concerns) == 1 else None
        asked = self.cause if isinstance(self.cause, NeedsAnswer) else None
        waiting = ev.DecisionPending(
            question=asked.key if asked else "",
            prompt=asked.prompt if asked else (str(self.cause) or "stopped at the prompt"),
            options=asked.options if asked else [],
            warband=warband,
        )
        return [self.opened, waiting, *self.rolls]


def decide(
    ruleset: rulesets.Ruleset,
    state: CampaignState,
    command: Command,
    *,
    dice: DiceSource,
    shuffle_dice: DiceSource | None,
    ask: AskChoice | None = None,
    reason: str = "",
    keep_dice: bool = False,
) -> list[ev.Event]:
    """The events a command produces on this state with these dice (the state is not changed).

    With `keep_dice`, a command that stops after drawing new ledger dice raises Halted with the
    rolls to store, whatever stopped it."""
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
    try:
        ruleset.handler_for(command)(command, ctx)
    except (Exception, KeyboardInterrupt) as error:
        # A conflict (a roll number dealt elsewhere) decides again: what this try drew is burned then.
        if not (keep_dice and ctx.drew_ledger_dice()) or isinstance(error, Conflict):
            raise
        rolls = [e for e in ctx.events if isinstance(e, ev.DiceRolled)]
        raise Halted(error, _opening(command, ctx.answers, reason), rolls) from error
    return [_opening(command, ctx.answers, reason), *ctx.events]


def _opening(command: Command, answers: dict[str, str], reason: str) -> ev.CommandRecorded:
    args = msgspec.to_builtins(msgspec.structs.replace(command, answers=answers))
    args.pop("command", None)
    return ev.CommandRecorded(command=command_name(command), args=args, reason=reason)


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


def is_pending(records: Sequence[Record]) -> bool:
    """A transaction stopped half-way: it holds its dice and no consequences, so it is never
    re-decided (its answer, a later transaction, is)."""
    return len(records) > 1 and isinstance(records[1].event, ev.DecisionPending)


def is_redecided(records: Sequence[Record]) -> bool:
    return not is_ledger_transaction(records) and not is_pending(records)


@dataclass
class Outcome:
    """What a committed transaction (or pair, for a reroll) wrote, and the state after it."""

    records: list[Record]
    state: CampaignState
    affected: list[tuple[int, str]] = field(default_factory=list)
    halted: Halted | None = None  # the last transaction was stored pending: why it stopped

    @property
    def tx(self) -> int:
        return self.records[0].tx


class PendingDecision(LedgerError):
    """A command stopped half-way after drawing ledger dice: its dice are stored, and it waits as
    pending transaction `tx` for an answer or a void (the message names both)."""

    def __init__(self, message: str, tx: int, waiting: Pending, outcome: Outcome | None = None):
        super().__init__(message)
        self.tx, self.waiting, self.outcome = tx, waiting, outcome


@dataclass
class Attempt:
    """What one try of a write decided: the state it was decided on and the transactions to seal."""

    state: CampaignState
    groups: list[tuple[list[ev.Event], str]]  # (events, actor) per transaction, in order
    refold: bool = False  # the past changed (a void): fold everything again after the commit
    affected: list[tuple[int, str]] = field(default_factory=list)
    halted: Halted | None = None  # the last group is a pending transaction


@dataclass
class RerollDice:
    """Hands back a transaction's recorded dice, except the disputed roll and what follows it."""

    recorded: RecordedDice
    disputed_roll: int
    fresh: DiceSource
    diverged: bool = False

    def faces(self, roll: int, expression: str, die_sides: list[int], purpose: str) -> Faces:
        index = self.recorded._next
        if not self.diverged and index < len(self.recorded.rolls):
            old = self.recorded.rolls[index]
            if old.roll != self.disputed_roll and old.expression == expression and old.purpose == purpose:
                kept = self.recorded.faces(roll, expression, die_sides, purpose)
                return kept._replace(copy_of=old.roll if old.copy_of is None else old.copy_of)
        self.diverged = True
        return self.fresh.faces(roll, expression, die_sides, purpose)

    def card(self, deck: str, purpose: str, candidates: Sequence[str]) -> str:
        # A physical card drawn is on the table: disputing a die does not draw it again.
        index = self.recorded._next_card
        if index < len(self.recorded.draws) and self.recorded.draws[index].card in candidates:
            return self.recorded.card(deck, purpose, candidates)
        return self.fresh.card(deck, purpose, candidates)

    def finish(self) -> None:
        self.fresh.finish()

    def rewind(self) -> None:
        self.recorded.rewind()
        self.fresh.rewind()
        self.diverged = False


@dataclass
class NoLedgerDice:
    """Stands in for the ledger dice when their seed is missing or does not match its commitment:
    table dice work as ever, and the first ledger die asked for is refused, saying why."""

    why: str
    error: type[LedgerError] = RuleViolation

    def faces(self, roll: int, expression: str, die_sides: list[int], purpose: str) -> Faces:
        raise self.error(self.why)

    def card(self, deck: str, purpose: str, candidates: Sequence[str]) -> str:
        raise self.error(self.why)

    def finish(self) -> None:
        """Nothing was handed out."""

    def rewind(self) -> None:
        """Nothing was handed out."""


@dataclass
class DealtDice:
    """Ledger dice dealt by a PostgreSQL league server's dice functions (ledger.dealer)."""

    dealer: Dealer
    campaign_id: str
    epoch: int
    commitment: str

    def faces(self, roll: int, expression: str, die_sides: list[int], purpose: str) -> Faces:
        return Faces(self.dealer.deal(self.campaign_id, self.epoch, self.commitment, roll, die_sides), "ledger", self.epoch)

    def card(self, deck: str, purpose: str, candidates: Sequence[str]) -> str:
        raise NeedsDice(f"{purpose}: {deck} is a physical deck in this campaign: name the card drawn with --card")

    def finish(self) -> None:
        """Ledger dice cannot be over-supplied."""

    def rewind(self) -> None:
        """Nothing to rewind: every roll number is dealt once."""


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
        """A campaign by name or id; with no reference, the store's only campaign."""
        ids = self.store.campaign_ids()
        if not ids:
            raise NotFound(f"no campaign in {self.store.url}: start one with `campaign new NAME`")
        if ref is None:
            if len(ids) > 1:
                names = ", ".join(self.load(cid).name for cid in ids)
                raise BadInput(f"this store holds several campaigns ({names}): choose one with --campaign")
            return ids[0]
        for cid in ids:
            if str(cid) == ref.lower() or self.load(cid).name.lower() == ref.lower():
                return cid
        raise NotFound(f"no campaign '{ref}' in {self.store.url}")

    def load(self, campaign_id: uuid.UUID) -> CampaignState:
        """The current state: the latest snapshot plus what followed it, unless a void made it stale."""
        snapshot = self.store.latest_snapshot(campaign_id)
        state = decode_state(snapshot[1]) if snapshot is not None else None
        if snapshot is not None and state is not None:
            position = snapshot[0]
            newer = list(self.store.records(campaign_id, after=position))
            targets = voids_in(newer)
            stale = any(t <= state.transactions and str(t) not in state.voided for t in targets)
            if not stale:
                return fold(newer, state)
        state = fold(list(self.store.records(campaign_id)))
        if state.position == 0:
            raise NotFound(f"no campaign {campaign_id}")
        return state

    def history(self, campaign_id: uuid.UUID, upto: int | None = None) -> list[Record]:
        return list(self.store.records(campaign_id, upto=upto))

    def ledger_dice(self, campaign_id: uuid.UUID, state: CampaignState) -> DiceSource:
        """The ledger dice of the open epoch, from its seed once that is checked against the epoch's
        commitment; where the seed is missing or wrong, a source that refuses to roll, saying why."""
        if self.store.dealer is not None:
            return DealtDice(self.store.dealer, str(campaign_id), state.epoch, state.commitment)
        seed = self.store.seed(campaign_id, state.epoch)
        if seed is None:
            return NoLedgerDice(self.missing_seed(state))
        problem = self.seed_problem(state, seed)
        if problem:
            return NoLedgerDice(problem, IntegrityFailure)
        return LedgerDice(bytes.fromhex(seed), state.epoch, str(campaign_id))

    def missing_seed(self, state: CampaignState) -> str:
        where = f"the key file {self.store.keys.path}" if self.store.keys else self.store.url
        return (
            f"the secret dice seed of {state.name} (epoch {state.epoch}) is not in {where}, so the ledger "
            "cannot roll: bring it from the machine that started the campaign (`campaign seed export` "
            "there, `campaign seed import FILE` here), or open a new epoch here with `campaign seed "
            "new-epoch --reason …` (recorded in the log); table dice (--dice) work either way"
        )

    @staticmethod
    def seed_problem(state: CampaignState, seed: str) -> str | None:
        """Why a seed may not be used for the open epoch (None: it matches the commitment)."""
        try:
            matches = d.commitment(bytes.fromhex(seed)) == state.commitment
        except ValueError:
            matches = False
        if matches:
            return None
        return (
            f"the stored seed of epoch {state.epoch} does not match the epoch's commitment "
            f"({state.commitment[:16]}…): it was changed, so the ledger refuses to roll with it or reveal it"
        )

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

    def _after_commit(self, campaign_id: uuid.UUID, state: CampaignState, records: list[Record], refold: bool) -> CampaignState:
        if refold:
            state = fold(self.history(campaign_id))
        else:
            state = fold(records, state)
        crossed = (state.position // SNAPSHOT_INTERVAL) > ((records[0].position - 1) // SNAPSHOT_INTERVAL)
        if refold or crossed:
            self.store.save_snapshot(campaign_id, state.position, encode_state(state))
        for hook in self.on_commit:
            hook(self, campaign_id, state, records)
        return state

    def _write(self, campaign_id: uuid.UUID, doing: str, attempt: Callable[[], Attempt]) -> Outcome:
        """Commit what `attempt` decides on the latest state; when another writer got there first,
        wait a moment and decide again, a bounded number of times."""
        for tries in range(1, RETRIES + 1):
            try:
                decided = attempt()
            except AlreadyDealt:
                continue  # the next try burns the number first
            try:
                written = self._commit(campaign_id, decided.state, decided.groups)
            except Conflict:
                # Jitter, so that two writers who collided do not collide again in lockstep.
                time.sleep(random.uniform(0, RETRY_PAUSE * tries))  # noqa: S311 - not for dice
                continue
            state = self._after_commit(campaign_id, decided.state, written, refold=decided.refold)
            outcome = Outcome(written, state, decided.affected, decided.halted)
            if decided.halted is not None:
                tx = written[-1].tx
                raise PendingDecision(pending_message(tx, state.pending[str(tx)], decided.halted.cause),
                                      tx, state.pending[str(tx)], outcome)
            return outcome
        raise Conflict(f"the campaign kept changing while {doing}; try again")

    def adopt(self, campaign_id: uuid.UUID, records: list[Record]) -> CampaignState:
        """Store a history sealed elsewhere (an imported trail) as it is, in one atomic save, then
        snapshot it and bring the read models up to date as after any commit."""
        for record in records:
            check_numbers(ev.payload_of(record.event), f"E{record.position} {ev.tag_of(record.event)}")
        self.store.append(campaign_id, records)
        return self._after_commit(campaign_id, CampaignState(), records, refold=True)

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
        if self.store.dealer is not None:
            committed = self.store.dealer.commit(str(campaign_id), 0)
        else:
            seed = d.new_seed()
            self.store.save_seed(campaign_id, 0, seed.hex())
            committed = d.commitment(seed)
        events: list[ev.Event] = [
            ev.CommandRecorded(command="campaign.new", args={"name": name, "ruleset": ruleset_id, "options": options}),
            ev.CampaignStarted(campaign_id=str(campaign_id), name=name),
            ev.RulesetPinned(ruleset=ruleset.id, version=ruleset.version, options=checked),
            ev.SeedCommitted(epoch=0, commitment=committed),
        ]
        state = CampaignState()
        records = self._commit(campaign_id, state, [(events, actor)])
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
    ) -> Outcome:
        """Decide and store one command; on a conflicting writer, decide again on the new state.

        A command that stops after drawing ledger dice is stored pending (PendingDecision is
        raised). While a decision is pending, the same command again is taken as its answer, and
        other commands about the same warband (or the campaign) are refused."""

        def attempt() -> Attempt:
            state = self.load(campaign_id)
            waiting = self._pending_in_the_way(campaign_id, state, command)
            if waiting is not None:
                return self._answer_attempt(campaign_id, state, waiting, command.answers, actor, dice, ask)
            ruleset = rulesets.get(state.ruleset)
            burns, rolling = self._burns(campaign_id, state, actor)
            ledger_dice = self.ledger_dice(campaign_id, rolling)
            source = dice or ledger_dice
            source.rewind()
            try:
                events = decide(ruleset, rolling, command, dice=source, shuffle_dice=ledger_dice, ask=ask,
                                reason=reason, keep_dice=True)
            except Halted as halted:
                return Attempt(state, [*burns, (halted.events(_scope(state, command)), actor)], halted=halted)
            source.finish()
            return Attempt(state, [*burns, (events, actor)])

        return self._write(campaign_id, f"recording {command_name(command)}", attempt)

    def _burns(self, campaign_id: uuid.UUID, state: CampaignState, actor: str) -> tuple[list[tuple[list[ev.Event], str]], CampaignState]:
        """Roll numbers of the open epoch dealt by the league server but never stored (a peek, a
        crash, a try that lost a race), from the next one on: recorded as burned, in a transaction
        of their own before the command's, which then rolls with the numbers after them."""
        if self.store.dealer is None:
            return [], state
        dealt = {x.roll: x for x in self.store.dealer.dealt(str(campaign_id), state.rolls) if x.epoch == state.epoch}
        burned: list[ev.Event] = []
        while state.rolls + len(burned) in dealt:
            x = dealt[state.rolls + len(burned)]
            expression = expression_for(x.sides)
            value, kept = (0, []) if expression.startswith("shuffle") else d.parse_expression(expression).evaluate(x.faces)
            burned.append(ev.DiceRolled(
                roll=x.roll, expression=expression, purpose=f"burned: dealt to {x.dealt_to} at {x.dealt_at}, never recorded",
                faces=x.faces, value=value, kept=kept, source="ledger", epoch=x.epoch,
            ))
        if not burned:
            return [], state
        after = state.copy()
        for event in burned:
            evolve(after, event)
        opened = ev.CommandRecorded(command="dice.burn", args={"rolls": [x.roll for x in dealt.values() if x.roll < after.rolls]})
        return [([opened, *burned], actor)], after

    # --- pending decisions ---------------------------------------------------------------------------

    def pending_transaction(self, campaign_id: uuid.UUID, state: CampaignState, tx: int) -> list[Record]:
        opened_at = state.pending[str(tx)].opened_at
        return [r for r in self.store.records(campaign_id, after=opened_at - 1) if r.tx == tx]

    def _pending_in_the_way(self, campaign_id: uuid.UUID, state: CampaignState, command: Command) -> int | None:
        """The pending transaction this command is the same as (to be answered), if any; refuses a
        command about a warband (or the campaign) that a pending decision concerns."""
        if not state.pending:
            return None
        name, args = command_name(command), _args_without_answers(command)
        concerns = _scope(state, command)
        for tx_text, waiting in sorted(state.pending.items(), key=lambda item: int(item[0])):
            opened = self.pending_transaction(campaign_id, state, int(tx_text))[0].event
            if opened.command == name and _without_answers(opened.args) == args:
                return int(tx_text)
            if waiting.warband is None or concerns is None or waiting.warband in concerns:
                about = "the campaign" if waiting.warband is None else warband_name(state, waiting.warband)
                raise Conflict(f"T{tx_text} ({opened.command}) is pending, so nothing more can be recorded for {about} "
                               f"until it is settled: {waiting.prompt}; {ways_out(int(tx_text), waiting)}")
        return None

    def answer(
        self,
        campaign_id: uuid.UUID,
        answers: dict[str, str],
        *,
        actor: str,
        target: int | None = None,
        dice: DiceSource | None = None,
        ask: AskChoice | None = None,
    ) -> Outcome:
        """Complete a pending transaction with these answers and the dice it recorded."""

        def attempt() -> Attempt:
            state = self.load(campaign_id)
            tx = self._which_pending(state, target, answers)
            return self._answer_attempt(campaign_id, state, tx, answers, actor, dice, ask)

        return self._write(campaign_id, "answering", attempt)

    def _which_pending(self, state: CampaignState, target: int | None, answers: dict[str, str]) -> int:
        if target is not None:
            if str(target) not in state.pending:
                raise NotFound(f"T{target} is not a pending decision"
                               + (f" (pending: {_listed(state)})" if state.pending else ""))
            return target
        if not state.pending:
            raise NotFound("no decision is pending in this campaign")
        asked = [int(t) for t, w in state.pending.items() if w.question in answers]
        if len(state.pending) == 1:
            return int(next(iter(state.pending)))
        if len(asked) == 1:
            return asked[0]
        raise BadInput(f"several decisions are pending ({_listed(state)}): name one with --decision T<number>")

    def _answer_attempt(
        self, campaign_id: uuid.UUID, state: CampaignState, tx: int, answers: dict[str, str], actor: str,
        dice: DiceSource | None, ask: AskChoice | None,
    ) -> Attempt:
        """The answer of pending `tx` (a ledger transaction) and its command decided again on the
        state now, its recorded rolls handed back in order as copies, new dice after them."""
        waiting = state.pending[str(tx)]
        group = self.pending_transaction(campaign_id, state, tx)
        opened = group[0].event
        ruleset = rulesets.get(state.ruleset)
        given = {**opened.args.get("answers", {}), **answers}
        command = ruleset.command_from(opened.command, {**opened.args, "answers": given})
        rolls = [r.event for r in group if isinstance(r.event, ev.DiceRolled)]
        recorded = RecordedDice(rolls=rolls, draws=[])
        ledger_dice = self.ledger_dice(campaign_id, state)
        if dice is None:
            # New dice come as the recorded ones came: from the ledger, or typed in (asked for).
            by_hand = any(r.source == "table" for r in rolls if not r.expression.startswith("shuffle"))
            dice = TableDice(ask=None) if by_hand else ledger_dice
        kept = RerollDice(recorded, -1, dice)
        kept_for_shuffles = RerollDice(recorded, -1, ledger_dice)  # one cursor over the recorded rolls
        kept.rewind()
        marker: list[ev.Event] = [
            ev.CommandRecorded(command="answer", args={"target": tx, "answers": answers}),
            ev.DecisionAnswered(target=tx, answers=answers),
        ]
        try:
            events = decide(ruleset, state, command, dice=kept, shuffle_dice=kept_for_shuffles, ask=ask,
                            reason=opened.reason, keep_dice=True)
        except Halted as halted:
            concerns = {waiting.warband} if waiting.warband else None
            return Attempt(state, [(marker, actor), (halted.events(concerns), actor)], halted=halted)
        except NeedsAnswer as asked:
            now = Pending(opened_at=waiting.opened_at, question=asked.key, prompt=asked.prompt,
                          options=asked.options, warband=waiting.warband)
            raise PendingDecision(pending_message(tx, now, asked), tx, now) from None
        kept.finish()
        return Attempt(state, [(marker, actor), (events, actor)])

    def reveal_seed(self, campaign_id: uuid.UUID, *, actor: str) -> Outcome:
        """Publish this epoch's seed (so anyone can recompute its dice) and commit to a new one."""

        def attempt() -> Attempt:
            state = self.load(campaign_id)
            if self.store.dealer is not None:
                seed = self.store.dealer.reveal(str(campaign_id), state.epoch, state.commitment)
            else:
                seed = self.store.seed(campaign_id, state.epoch)
                if seed is None:
                    raise NotFound(self.missing_seed(state))
            problem = self.seed_problem(state, seed)
            if problem:
                raise IntegrityFailure(problem)
            events = [
                ev.CommandRecorded(command="seed.reveal", args={"epoch": state.epoch}),
                ev.SeedRevealed(epoch=state.epoch, seed=seed),
                self._commit_to_next_epoch(campaign_id, state),
            ]
            return Attempt(state, [(events, actor)])

        return self._write(campaign_id, "revealing the seed", attempt)

    def _commit_to_next_epoch(self, campaign_id: uuid.UUID, state: CampaignState) -> ev.SeedCommitted:
        if self.store.dealer is not None:
            return ev.SeedCommitted(epoch=state.epoch + 1, commitment=self.store.dealer.commit(str(campaign_id), state.epoch + 1))
        following = self.store.seed(campaign_id, state.epoch + 1)
        if following is None:
            following = d.new_seed().hex()
            self.store.save_seed(campaign_id, state.epoch + 1, following)
        return ev.SeedCommitted(epoch=state.epoch + 1, commitment=d.commitment(bytes.fromhex(following)))

    def new_epoch(self, campaign_id: uuid.UUID, *, reason: str, actor: str) -> Outcome:
        """Open a new dice epoch where the open epoch's seed is not at hand (the campaign moved to
        another machine without its key): the old epoch is recorded as left behind, for good."""
        if not reason.strip():
            raise BadInput("say why with --reason: a new epoch is part of the audit trail")

        self._refuse_on_a_dealer("a new epoch without revealing the open one")

        def attempt() -> Attempt:
            state = self.load(campaign_id)
            if self.store.seed(campaign_id, state.epoch) is not None:
                raise RuleViolation(f"the seed of epoch {state.epoch} is here: reveal it with `campaign seed reveal`, "
                                    "which also opens the next epoch")
            events = [
                ev.CommandRecorded(command="seed.new-epoch", args={"epoch": state.epoch}, reason=reason),
                ev.SeedAbandoned(epoch=state.epoch, reason=reason),
                self._commit_to_next_epoch(campaign_id, state),
            ]
            return Attempt(state, [(events, actor)])

        return self._write(campaign_id, "opening a new epoch", attempt)

    def _refuse_on_a_dealer(self, what: str) -> None:
        if self.store.dealer is not None:
            raise RuleViolation(f"{what} is for SQLite key files: the seeds of {self.store.url} stay inside its "
                                "database, where players cannot read them")

    def export_seed(self, campaign_id: uuid.UUID) -> dict[str, Any]:
        """The open epoch's secret seed, to take the campaign's dice to another machine."""
        self._refuse_on_a_dealer("exporting a seed")
        state = self.load(campaign_id)
        seed = self.store.seed(campaign_id, state.epoch)
        if seed is None:
            raise NotFound(self.missing_seed(state))
        problem = self.seed_problem(state, seed)
        if problem:
            raise IntegrityFailure(problem)
        return {"format": SEED_FORMAT, "campaign": {"id": str(campaign_id), "name": state.name},
                "epoch": state.epoch, "seed": seed}

    def import_seed(self, data: dict[str, Any]) -> CampaignState:
        """Keep a seed exported elsewhere, once it is checked against the campaign's commitment."""
        self._refuse_on_a_dealer("importing a seed")
        if not isinstance(data, dict) or data.get("format") != SEED_FORMAT:
            raise BadInput(f"not a seed file made by `campaign seed export` (format {SEED_FORMAT})")
        campaign, epoch, seed = data.get("campaign"), data.get("epoch"), data.get("seed")
        if not isinstance(campaign, dict) or not isinstance(epoch, int) or not isinstance(seed, str):
            raise BadInput("the seed file needs its campaign, epoch and seed")
        try:
            campaign_id = uuid.UUID(str(campaign.get("id")))
        except ValueError:
            raise BadInput(f"the seed file names no campaign id ('{campaign.get('id')}')") from None
        if campaign_id not in self.store.campaign_ids():
            raise NotFound(f"campaign {campaign.get('name')} ({campaign_id}) is not in {self.store.url}: "
                           "import its trail first (`campaign import TRAIL`)")
        state = self.load(campaign_id)
        if epoch != state.epoch:
            raise RuleViolation(f"the file holds the seed of epoch {epoch}, but epoch {state.epoch} is open here")
        problem = self.seed_problem(state, seed)
        if problem:
            raise IntegrityFailure(problem.replace("stored seed", "seed in the file"))
        self.store.save_seed(campaign_id, epoch, seed)
        return state

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

    def void(self, campaign_id: uuid.UUID, ref: str, *, reason: str, actor: str, cascade: bool = False) -> Outcome:
        if not reason.strip():
            raise BadInput("say why with --reason: a void is part of the audit trail")

        def attempt() -> Attempt:
            records = self.history(campaign_id)
            target, _roll = self.resolve(records, ref)
            _state, affected = plan_void(records, target)
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
    ) -> Outcome:
        """Void the transaction of a disputed roll and decide its command again with a new roll, in one commit."""
        if not reason.strip():
            raise BadInput("say why with --reason: a reroll is part of the audit trail")

        def attempt() -> Attempt:
            records = self.history(campaign_id)
            target, roll = self.resolve(records, ref)
            if roll is None:
                raise BadInput(f"'{ref}' is not a roll: reroll takes R<roll number>")
            planned, affected = plan_void(records, target)
            if affected and not cascade:
                raise Conflict(_affected_message(target, affected))
            group = next(g for g in transactions(records) if g[0].tx == target)
            if is_pending(group):
                raise RuleViolation(f"T{target} is pending: settle it with `campaign answer` or void it, not reroll")
            opened = group[0].event
            ruleset = rulesets.get(planned.ruleset)
            ledger_dice = self.ledger_dice(campaign_id, planned)
            fresh = dice or ledger_dice
            recorded = RecordedDice(
                rolls=[r.event for r in group if isinstance(r.event, ev.DiceRolled)],
                draws=[r.event for r in group if isinstance(r.event, ev.CardDrawn)],
            )
            rerolled = RerollDice(recorded, roll, fresh)
            void_events = [
                ev.CommandRecorded(command="reroll", args={"target": target, "roll": roll, "cascade": cascade}, reason=reason),
                *_void_events(target, reason, affected),
            ]
            # The new command follows the void, so it is decided on the state without the voided transactions;
            # its own rolls are numbered after the void's.
            command = ruleset.command_from(opened.command, opened.args)
            try:
                events = decide(ruleset, planned, command, dice=rerolled, shuffle_dice=ledger_dice,
                                reason=opened.reason, keep_dice=True)
            except Halted as halted:
                stopped = halted.events(_scope(planned, command))
                return Attempt(fold(records), [(void_events, actor), (stopped, actor)], refold=True,
                               affected=affected, halted=halted)
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
        return recheck(self.history(campaign_id))


def plan_void(records: list[Record], target: int) -> tuple[CampaignState, list[tuple[int, str]]]:
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
        raise RuleViolation(f"T{target} is already voided")
    voided.add(target)
    state = CampaignState()
    affected: list[tuple[int, str]] = []
    for group in groups:
        tx = group[0].tx
        live = tx not in voided
        if live and tx > target and is_redecided(group):
            why = redecide(state, group)
            if why is not None:
                affected.append((tx, why))
                voided.add(tx)
                live = False
        for record in group:
            apply_record(state, record, not live)
    return state, affected



# The events only the ledger's own transactions hold, by the command that opens them.
LEDGER_TRANSACTION_EVENTS: dict[str, tuple[type[ev.Event], ...]] = {
    "campaign.new": (ev.CampaignStarted, ev.RulesetPinned, ev.SeedCommitted),
    "void": (ev.TransactionVoided,),
    "reroll": (ev.TransactionVoided,),
    "seed.reveal": (ev.SeedRevealed, ev.SeedCommitted),
    "seed.new-epoch": (ev.SeedAbandoned, ev.SeedCommitted),
    "answer": (ev.DecisionAnswered,),
    "dice.burn": (ev.DiceRolled,),
}
LEDGER_ONLY_EVENTS = tuple({kind for kinds in LEDGER_TRANSACTION_EVENTS.values() for kind in kinds} - {ev.DiceRolled})


def _shape_problem(group: Sequence[Record]) -> str | None:
    """Why a transaction's events are not ones its kind of transaction holds (None: they are)."""
    opened = group[0].event
    if not isinstance(opened, ev.CommandRecorded):
        return f"opens with {ev.tag_of(opened)}, not with the command.recorded of a command"
    allowed = LEDGER_TRANSACTION_EVENTS.get(opened.command)
    for record in group[1:]:
        event = record.event
        if isinstance(event, ev.CommandRecorded):
            return f"event {record.position} is a second command.recorded in one transaction"
        if allowed is not None and not isinstance(event, allowed):
            return f"event {record.position} ({ev.tag_of(event)}) has no place in a {opened.command} transaction"
        if allowed is None and isinstance(event, LEDGER_ONLY_EVENTS):
            return f"event {record.position} ({ev.tag_of(event)}) belongs to the ledger's own transactions only"
    return None


def _void_problem(earlier: list[Record], group: Sequence[Record]) -> str | None:
    """Why a void (or a reroll's void) is not the one the ledger plans for its target now."""
    opened = group[0].event
    voids = [r.event for r in group if isinstance(r.event, ev.TransactionVoided)]
    if not voids or voids[0].because_of is not None or opened.args.get("target") != voids[0].target:
        return f"does not begin by voiding its target T{opened.args.get('target')}"
    target = voids[0].target
    if not any(r.tx == target for r in earlier):
        return f"voids T{target}, which comes later or does not exist"
    try:
        _state, affected = plan_void(earlier, target)
    except LedgerError as error:
        return f"voids T{target}, which the ledger refuses now: {error}"
    planned = [tx for tx, _why in affected]
    cascaded = [v.target for v in voids[1:] if v.because_of == target]
    if len(cascaded) != len(voids) - 1 or cascaded != planned:
        return (f"voids {', '.join(f'T{t}' for t in cascaded) or 'nothing'} as following from T{target}, "
                f"but voiding T{target} affects {', '.join(f'T{t}' for t in planned) or 'nothing'} now")
    return None


def recheck(records: Sequence[Record], *, first_only: bool = False) -> tuple[int, list[str]]:
    """Check that the ledger's own transactions hold only what they may and that every void voids
    what the ledger plans (the voids decide which transactions count), then re-decide every live
    transaction from its command and dice: (transactions re-decided, differences)."""
    differences: list[str] = []
    groups = transactions(records)
    history: list[Record] = []
    for group in groups:
        why = _shape_problem(group)
        opened = group[0].event
        if why is None and isinstance(opened, ev.CommandRecorded) and opened.command in ("void", "reroll"):
            why = _void_problem(history, group)
        if why is not None:
            differences.append(f"T{group[0].tx}: {why}")
            if first_only:
                return 0, differences
        history.extend(group)
    voided = voids_in(records)
    state = CampaignState()
    checked = 0
    for group in groups:
        tx = group[0].tx
        live = tx not in voided
        if live and is_redecided(group):
            checked += 1
            why = redecide(state, group)
            if why is not None:
                differences.append(f"T{tx}: {why}")
                if first_only:
                    break
        for record in group:
            apply_record(state, record, not live)
    return checked, differences


def _args_without_answers(command: Command) -> dict[str, Any]:
    args = msgspec.to_builtins(command)
    args.pop("command", None)
    return _without_answers(args)


def _without_answers(args: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in args.items() if key != "answers"}


def _scope(state: CampaignState, command: Command) -> set[str] | None:
    """The warbands a command concerns (by id), or None for the campaign as a whole."""
    named = [getattr(command, "warband", None), *(getattr(command, "participants", None) or [])]
    fighter = getattr(command, "fighter", None)
    if fighter and not named[0]:
        found = next((f for f in state.fighters.values() if fighter in (f.id, f.name)), None)
        named.append(found.warband if found else None)
    found_ids = {_warband_id(state, ref) for ref in named if ref}
    return found_ids or None


def _warband_id(state: CampaignState, ref: str) -> str:
    if ref in state.warbands:
        return ref
    return next((w.id for w in state.warbands.values() if w.name.lower() == ref.lower()), ref)


def _listed(state: CampaignState) -> str:
    return ", ".join(f"T{tx}" for tx in sorted(state.pending, key=int))


def ways_out(tx: int, waiting: Pending) -> str:
    if waiting.question:
        answer = f"`campaign answer {waiting.question}=CHOICE` ({' | '.join(waiting.options)})"
    else:
        answer = "`campaign answer` (with the answers the command needs)"
    return f"settle it with {answer}, or void it with `campaign void T{tx} --reason …`"


def pending_message(tx: int, waiting: Pending, cause: BaseException) -> str:
    why = "stopped at the prompt" if isinstance(cause, KeyboardInterrupt | EOFError) or not str(cause) else waiting.prompt
    return f"{why} — its dice are recorded and T{tx} is pending: {ways_out(tx, waiting)}"


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
