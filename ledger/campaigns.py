"""The application service: every way a campaign's history changes or is read back.

Each command becomes one atomic transaction (`command.recorded`, then its rolls, draws and
consequences); a conflicting writer makes the command be re-decided on the new state, a bounded
number of times. Voids re-decide every later transaction with its own recorded dice. The parts
live by responsibility in ledger.fold (folding), ledger.deciding (deciding and its dice),
ledger.rechecking (void planning, `replay --check`), ledger.pending (decisions left half-way) and
ledger.seeds (the dice seeds); this module is the service and re-exports their vocabulary.
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, Protocol

import msgspec

from ledger import dice as d
from ledger import events as ev
from ledger import rulesets
from ledger.chain import die_sides
from ledger.dealer import AlreadyDealt, OpenDeal
from ledger.deciding import (  # noqa: F401 - re-exported: the service's vocabulary
    LEDGER_COMMANDS,
    Attempt,
    Halted,
    Outcome,
    RerollDice,
    decide,
    is_ledger_transaction,
    is_pending,
    is_redecided,
    redecide,
    refused_before_rolls,
    thrown,
)
from ledger.decide import (
    AskChoice,
    Command,
    DiceSource,
    TableDice,
    command_name,
    documents_key,
    loose_key,
    refuse_other_warbands_fighters,
)
from ledger.errors import (AnswerRefused, BadInput, Conflict, IntegrityFailure, LedgerError, NeedsDice, NotFound,
                           RuleViolation)
from ledger.fold import (  # noqa: F401 - re-exported
    History,
    apply_record,
    battle_ends,
    battle_views,
    cut,
    end_of_battle,
    fold,
    standing_battles,
    transactions,
    void_records,
    voids_in,
)
from ledger.pending import PendingDecision, PendingDecisions, scope, ways_out, which_pending  # noqa: F401
from ledger.rechecking import affected_message, plan_void, recheck, refuse_stranding, void_events  # noqa: F401
from ledger.records import Record, check_numbers, seal
from ledger.seeds import DealtSince, SeedKeeping
from ledger.state import TYPED_NOW, Battle, CampaignState, decode_own, decode_state, encode_state, evolve
from ledger.store import RETRIES, Store, Writer, pause_before_try

SNAPSHOT_INTERVAL = 100
# The turn `campaign new` takes on a league server, whatever the campaign: its name is checked free and taken in it.
STARTING_CAMPAIGNS = uuid.uuid5(uuid.NAMESPACE_URL, "campaign-ledger:starting-campaigns")
# The records that say which battles stand: the battles, and the voids that strike some out.
BATTLE_TAGS = tuple(kind.__struct_config__.tag for kind in (ev.BattleRecorded, ev.TransactionVoided))


def utc_now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


class HistoryWriter(Protocol):
    """What an in-commit hook writes of an adopted history (`Ledger.adopt`), in the transaction that
    stores its records: told each record as the store reads it (`add`), it writes what follows from
    those so far after each page of them (`write_page`), and the rest once all are stored (called).
    Its rows are computed from the records' fold: once called, `state` is the state after them all."""

    state: CampaignState

    def add(self, record: Record) -> None: ...

    def write_page(self, cursor: Any) -> None: ...

    def __call__(self, cursor: Any) -> None: ...


class _Adopting:
    """An adopted history's records as the store reads them, told to the writers the first time
    (`state`, once stored: the fold a writer made of them, the one reading folded once); read
    again, and folded here, where the store stores them alone after a writer failed."""

    def __init__(self, history: History, writers: list[HistoryWriter]):
        self.history, self.writers = history, writers
        self.voided = voids_in(history.voids)
        self._state: Callable[[], CampaignState] = CampaignState

    @property
    def state(self) -> CampaignState:
        return self._state()

    def __iter__(self) -> Iterator[Record]:
        writers, self.writers = self.writers, []
        state = CampaignState()
        self._state = (lambda: writers[0].state) if writers else (lambda: state)
        for record in self.history:
            if not writers:
                apply_record(state, record, record.tx in self.voided)
            for writer in writers:
                writer.add(record)
            yield record


class BattleNumbers:
    """The battles a cascade's transactions belong to (their events' `battle`), so that a command
    decided again stays with its battle: a post-game command names only its warband and works on
    its latest battle, so once that battle stays voided it would work on the one before."""

    def __init__(self) -> None:
        self.now: dict[int, int | None] = {}  # a battle's number as decided again (None: it stays voided)

    @staticmethod
    def of(events: Iterable[ev.Event]) -> set[int]:
        return {number for e in events if isinstance(number := getattr(e, "battle", None), int)}

    def gone(self, recorded: list[ev.Event]) -> int | None:
        """A battle the recorded transaction belongs to that stays voided (None: none)."""
        return next((b for b in sorted(self.of(recorded)) if b in self.now and self.now[b] is None), None)

    def moved(self, recorded: list[ev.Event], decided: list[ev.Event]) -> str | None:
        """Where the transaction decided again belongs, when that is not its own battles (renumbered
        as the battles decided again were); None when it stays with them."""
        was, now = self.of(recorded), self.of(decided)
        if not any(isinstance(e, ev.BattleRecorded) for e in recorded):
            expected = {self.now.get(b, b) for b in was}
            return None if now == expected or not was else f"battle {', '.join(map(str, sorted(now))) or 'none'}"
        old = next(e.battle for e in recorded if isinstance(e, ev.BattleRecorded))
        self.now[old] = next(e.battle for e in decided if isinstance(e, ev.BattleRecorded))
        return None

    def left_voided(self, recorded: list[ev.Event]) -> None:
        for e in recorded:
            if isinstance(e, ev.BattleRecorded):
                self.now[e.battle] = None


def cascade_commands(records: Sequence[Record], planned: CampaignState, affected: list[tuple[int, str]],
                     answers: Mapping[str, str], *, before: Command | None = None) -> dict[int, Command]:
    """The recorded commands of the transactions a cascade voids, by transaction, the `answers` given to decide them
    again (and the command decided `before` them: a reroll's) checked first, before anything is rolled: none may name
    a fighter of a warband none of them is about."""
    ruleset = rulesets.get(planned.ruleset)
    voided = {tx for tx, _why in affected}
    opened = {r.tx: r.event for r in records if r.tx in voided and isinstance(r.event, ev.CommandRecorded)}
    commands = {tx: ruleset.command_from(opened[tx].command, opened[tx].args) for tx, _why in affected}
    refuse_other_warbands_fighters(planned, [*([before] if before else []), *commands.values()], answers)
    return commands


class CascadeAnswers:
    """The --answer given to a cascade, shared by the commands it decides again (and a reroll's, decided before
    them): each is for whichever of them asks it. One that none of them asks or documents is refused naming their
    keys; so is one that each command documenting it tells, before its first roll, it will not ask, as that command
    typed with it refuses it (`refused_before_rolls`): taken, it was neither recorded nor said to be unused."""

    def __init__(self, answers: Mapping[str, str]):
        self.answers = dict(answers)
        self._known: set[str] = set()  # the keys of the questions the commands asked or document
        self._open: set[str] = set()  # (loosely) the answers a command asked, or may ask once its dice are seen
        self._refused: dict[str, AnswerRefused] = {}  # (loosely) the first refusal of each of the others

    def offered_to(self, ruleset: rulesets.Ruleset, state: CampaignState, command: Command) -> None:
        """Before `command` is decided on `state`: the answers it documents, each checked as typed with it."""
        documented = [key for key in self.answers if documents_key(type(command), key)]
        self._known |= {*documented, *type(command).answer_keys}
        for key in documented:
            refused = refused_before_rolls(ruleset, state, command, {key: self.answers[key]})
            if refused is None:
                self._open.add(loose_key(key))
            else:
                self._refused.setdefault(loose_key(key), refused)

    def taken(self, opened: ev.CommandRecorded) -> None:
        """A command decided, recording the answers it took (`opened`)."""
        asked = opened.args.get("answers", {})
        self._known |= set(asked)
        self._open |= {loose_key(key) for key in asked}

    def check(self) -> None:
        """Once every command is decided: refuse an answer none of them knows, or each that knows it refused."""
        if unknown := [key for key in self.answers if key not in self._known]:
            keys = ", ".join(sorted(self._known)) or "none: they ask no questions"
            raise BadInput(f"--answer {', '.join(unknown)}: not a question of the transactions decided again "
                           f"(their keys: {keys})")
        refused = [self._refused[loose_key(key)] for key in self.answers
                   if loose_key(key) in self._refused and loose_key(key) not in self._open]
        if refused:
            raise refused[0]


class CascadeStopped(msgspec.Struct):
    """A transaction a cascade decides again that stopped after new ledger dice (`Ledger._decided_again`): stored
    pending, the last transaction of the save, with those dice and copies of its recorded ones it had not reached,
    and the later transactions the cascade voided left to its answer (`DecisionPending.leaves`)."""

    events: list[ev.Event]
    halted: Halted


def told(affected: list[tuple[int, str]], fates: Mapping[int, str]) -> list[tuple[int, str]]:
    """Why each transaction a cascade voids no longer follows, and what became of it when decided again."""
    return [(tx, why + fates.get(tx, "")) for tx, why in affected]


class Ledger(SeedKeeping, PendingDecisions):
    """Campaigns in one store."""

    def __init__(
        self, store: Store, clock: Callable[[], str] | None = None, on_commit: Sequence[Callable[..., None]] = (),
        in_commit: Sequence[Callable[..., Writer | None]] = (),
    ):
        """`on_commit` hooks run after each commit, with (ledger, campaign id, state after it, its
        records). `in_commit` hooks are called before the records are stored (the past unchanged: no
        void), with (ledger, campaign id, a function giving a copy of the state before them (seldom
        needed: copying costs), the state after them, the records), and may
        return a writer (ledger.store.Writer), run with a cursor inside the commit's own database transaction
        after the records, so that what follows from them (the read models) is stored with them in
        one durable commit. An adopted history is handed to them whole (a History, with no
        state before or after it), and they return a HistoryWriter. Neither kind changes the state
        after the records it is handed: the ledger decides its next command on it."""
        self.store = store
        self.clock = clock or utc_now
        self.on_commit = list(on_commit)
        self.in_commit = list(in_commit)
        # Each campaign's state after this ledger's own last load or commit, encoded (as a snapshot
        # is, so that no caller can change it): a long-lived process loads from it and the records
        # other writers added since (none, mostly), instead of the latest snapshot and the records
        # after it. A void of an earlier transaction among them makes it stale, as it would a snapshot.
        self._latest: dict[uuid.UUID, bytes] = {}
        # The state `_latest` encodes, as this ledger's last commit left it, held by nobody else (a
        # caller's Outcome decodes a copy of its own): the next write decides on it in place, or the
        # next load folds onto it, taking it, instead of decoding `_latest` again.
        self._latest_state: dict[uuid.UUID, CampaignState] = {}
        # Campaigns whose `_latest` a commit of this ledger did not follow (Conflict): another writer's
        # commit is after it, so the next decision reads the store.
        self._overtaken: set[uuid.UUID] = set()
        # The position of the `_latest` the current try decides on unread, by campaign.
        self._decided_unread: dict[uuid.UUID, int] = {}
        # What a league server had dealt, asked before the writer's turn (SeedKeeping._burns).
        self._dealt_before_turn: dict[uuid.UUID, DealtSince] = {}

    def campaigns(self) -> list[CampaignState]:
        return [self.load(cid) for cid in self.store.campaign_ids()]

    def find(self, ref: str | None) -> uuid.UUID:
        """A campaign by name or id; with no reference, the store's only campaign, or its current one
        (`campaign use`; a new or imported campaign becomes current)."""
        if ref is None:
            return self.store.pick_unnamed(self.store.campaign_ids(), lambda cid: self.load(cid).name)
        named = []
        for cid, name in self.store.campaign_names():
            if str(cid) == ref.lower():
                return cid
            if name.lower() == ref.lower():
                named.append(cid)
        if len(named) > 1:  # two started at once (a store of an older ledger): it picked the first without a word
            raise BadInput(f"{len(named)} campaigns are called '{ref}' in {self.store.url}: "
                           f"name the one you mean by its id ({', '.join(map(str, named))})")
        if not named:
            raise NotFound(f"no campaign '{ref}' in {self.store.url}")
        return named[0]

    def use(self, ref: str) -> CampaignState:
        """Make a campaign the store's current one: commands that name none then mean it."""
        campaign_id = self.find(ref)
        self.store.set_current_campaign(campaign_id)
        return self.load(campaign_id)

    def load(self, campaign_id: uuid.UUID, upto: int | None = None) -> CampaignState:
        """The current state (or the state at position `upto`, as it was known then): the state
        this ledger last loaded or committed, else the latest snapshot (at or before `upto`), plus
        what followed it, unless a void made it stale."""
        if upto is not None:
            return self._load(campaign_id, upto)
        state = None
        if (latest := self._latest.get(campaign_id)) is not None:
            kept = self._take_latest(campaign_id, latest)
            since = kept.position  # `_onward` folds into `kept`
            # Read no further than from a snapshot: a snapshot's interval behind, the latest one is nearer.
            bound = since + SNAPSHOT_INTERVAL
            state = self._onward(campaign_id, kept, upto=bound)
            if state is not None and state.position == since:
                return state  # nothing was added since: `latest` is its encoding already
            if state is not None and state.position == bound:
                state = None
        if state is None:
            state = self._load(campaign_id, None)
        self._keep_latest(campaign_id, encode_state(state))
        return state

    def _keep_latest(self, campaign_id: uuid.UUID, encoded: bytes, state: CampaignState | None = None) -> None:
        """`encoded` is now this ledger's latest state of the campaign; `state` its decoding, if nobody
        else holds that."""
        self._latest[campaign_id] = encoded
        if state is None:
            self._latest_state.pop(campaign_id, None)
        else:
            self._latest_state[campaign_id] = state

    def _take_latest(self, campaign_id: uuid.UUID, latest: bytes) -> CampaignState:
        """The state `latest` (the campaign's `_latest`) encodes, for the caller to change: the one
        kept, else a decoding of its own."""
        state = self._latest_state.pop(campaign_id, None)
        return decode_own(latest) if state is None else state

    def _state_to_decide_on(self, campaign_id: uuid.UUID) -> CampaignState:
        """The state a write is decided on: this ledger's latest (of its last load or commit) as it
        is, unread, where a commit that does not follow it fails (Conflict, Store.append) and is
        decided again on a load; a load where the writers take turns (PostgreSQL, where the one
        before has mostly just committed) or after a conflict."""
        latest = self._latest.get(campaign_id)
        if latest is None or campaign_id in self._overtaken or self.store.writers_take_turns:
            self._overtaken.discard(campaign_id)
            return self.load(campaign_id)
        state = self._take_latest(campaign_id, latest)
        self._decided_unread[campaign_id] = state.position
        return state

    def _refused_on_an_old_state(self, campaign_id: uuid.UUID) -> bool:
        """Was a refusal decided on `_latest` unread when the store held more? Nothing was committed
        to find out: it is decided again on a load, as a refusal of the latest state."""
        unread = self._decided_unread.get(campaign_id)
        return unread is not None and self.store.last_position(campaign_id) != unread

    def _onward(self, campaign_id: uuid.UUID, state: CampaignState, upto: int | None) -> CampaignState | None:
        """`state` (a snapshot's, or this ledger's latest) with the records after it (up to `upto`)
        folded in; None if the stored record at its position is not its head (damaged, edited, or
        another history) or a later void made it stale."""
        read = list(self.store.records(campaign_id, after=state.position - 1, upto=upto))
        if not read or read[0].hash != state.head:
            return None
        newer = read[1:]
        if any(t <= state.transactions and str(t) not in state.voided for t in voids_in(newer)):
            return None
        return fold(newer, state)

    def _load(self, campaign_id: uuid.UUID, upto: int | None) -> CampaignState:
        snapshot = self.store.latest_snapshot(campaign_id, upto=upto)
        if snapshot is not None:
            try:
                state = decode_state(snapshot[1])  # None for a snapshot of an older shape
            except msgspec.DecodeError:  # a damaged snapshot is only a lost cache: fold the events
                state = None
            if state is not None and (onward := self._onward(campaign_id, state, upto)) is not None:
                return onward
        state = fold(list(self.store.records(campaign_id, upto=upto)))
        if state.position == 0:
            raise NotFound(f"no campaign {campaign_id}")
        if upto is None and state.position >= SNAPSHOT_INTERVAL:
            # No snapshot this load could use (stale, damaged, or of an older shape): the next load
            # starts from this one instead of folding everything again.
            self.store.save_snapshot(campaign_id, state.position, encode_state(state))
        return state

    def history(
        self, campaign_id: uuid.UUID, upto: int | None = None, *, after: int = 0, check: bool = True
    ) -> list[Record]:
        return list(self.store.records(campaign_id, after=after, upto=upto, check=check))

    def _commit(
        self, campaign_id: uuid.UUID, state: CampaignState, groups: list[tuple[list[ev.Event], str]], *,
        refold: bool = False, encoded: bytes = b"", folded_from: tuple[int, str, int] | None = None,
        within: Sequence[Writer] = (), before_commit: Callable[[], None] = lambda: None,
    ) -> list[Record]:
        """Seal each group as one transaction and store them all in one atomic save. Unless the past
        changes (`refold`), `state` becomes the state after them first, for the in-commit hooks
        (`encoded`: the state's encoding, where the caller has it). `folded_from`: `state` was decided
        on in place (see `Attempt`), from this position, head and transaction count, which `encoded`
        is the state at."""
        recorded_at = self.clock()
        records: list[Record] = []
        position, head, tx = folded_from or (state.position, state.head, state.transactions)
        for events, actor in groups:
            tx += 1
            sealed = seal(events, first_position=position + 1, prev_hash=head, tx=tx, actor=actor, recorded_at=recorded_at)
            records.extend(sealed)
            position, head = sealed[-1].position, sealed[-1].hash
        writers = []
        if not refold:
            before = functools.partial(decode_own, encoded or encode_state(state)) if self.in_commit else None
            if folded_from:
                state.position, state.head = position, head
            else:
                fold(records, state)
            hooked = (hook(self, campaign_id, before, state, records) for hook in self.in_commit)
            writers = [writer for writer in hooked if writer is not None]
        self.store.append(campaign_id, records, within=[*writers, *within], before_commit=before_commit)
        return records

    def _after_commit(
        self, campaign_id: uuid.UUID, state: CampaignState, records: list[Record], refold: bool
    ) -> bytes:
        """Fold everything again when `refold` (`state` is the state after the records otherwise),
        snapshot when the commit crossed a hundred events (always when `refold`), keep the state as
        this ledger's latest and run the commit hooks (which do not change it). The state's encoding."""
        if refold:
            state = fold(self.history(campaign_id))
        crossed = (state.position // SNAPSHOT_INTERVAL) > ((records[0].position - 1) // SNAPSHOT_INTERVAL)
        encoded = encode_state(state)
        if refold or crossed:
            self.store.save_snapshot(campaign_id, state.position, encoded)
        self._keep_latest(campaign_id, encoded, state)
        for hook in self.on_commit:
            hook(self, campaign_id, state, records)
        return encoded

    def _write(self, campaign_id: uuid.UUID, doing: str, attempt: Callable[[], Attempt]) -> Outcome:
        """Commit what `attempt` decides on the latest state (`_state_to_decide_on`); when another
        writer got there first, wait a moment and decide again, a bounded number of times. Writers
        that take turns (Store.writing) seldom need to; a turn ends with the commit (which holds the
        read models' rows), and what follows it (a snapshot, the commit hooks) is done while the
        next writer decides."""
        with self.store.writing(campaign_id):
            decided, written = self._write_in_turn(campaign_id, doing, attempt)
        encoded = self._after_commit(campaign_id, decided.state, written, refold=decided.refold)
        outcome = Outcome(written, encoded, decided.affected, decided.halted, decided.unused)
        if decided.halted is not None:
            tx = written[-1].tx
            waiting = outcome.state.pending[str(tx)]
            raise PendingDecision(tx, waiting, decided.halted.cause, outcome.state.pending, outcome)
        return outcome

    def _write_in_turn(
        self, campaign_id: uuid.UUID, doing: str, attempt: Callable[[], Attempt]
    ) -> tuple[Attempt, list[Record]]:
        burned: list[Record] = []
        for tries in range(1, RETRIES + 1):
            self._decided_unread.pop(campaign_id, None)
            try:
                decided = attempt()
            except AlreadyDealt:
                # A roll number dealt but never recorded (a peek): recorded as burned in a commit of its
                # own, then decided again after it. Every write that rolls (a reroll, a cascade, an
                # answer) gets past it so, not only a command, which burns such numbers before it.
                burned += self._burn_dealt(campaign_id)
                continue
            except OpenDeal:
                # Most often another writer's deal of this instant, ended before the next try; a deal held
                # open longer is named to the user at once rather than waited for.
                if tries == RETRIES:
                    raise
                pause_before_try(tries)
                continue
            except LedgerError:
                if not self._refused_on_an_old_state(campaign_id):
                    raise
                self._overtaken.add(campaign_id)
                continue
            try:
                return decided, [*burned, *self._commit(campaign_id, decided.state, decided.groups, refold=decided.refold,
                                                        encoded=decided.encoded, folded_from=decided.folded_from)]
            except Conflict:
                self._overtaken.add(campaign_id)
                pause_before_try(tries)
        raise Conflict(f"the campaign kept changing while {doing}; try again")

    def _burn_dealt(self, campaign_id: uuid.UUID) -> list[Record]:
        """The roll numbers the league server dealt from the next one on, committed as burned (none: another
        writer's commit burned them, or moved the campaign on, and the next try sees it)."""
        state = self._state_to_decide_on(campaign_id)
        burns, _after = self._burns(campaign_id, state)
        if not burns:
            self._overtaken.add(campaign_id)
            return []
        try:
            records = self._commit(campaign_id, state, burns)
        except Conflict:
            self._overtaken.add(campaign_id)
            return []
        self._after_commit(campaign_id, state, records, refold=False)
        return records

    def adopt(
        self, campaign_id: uuid.UUID, history: History, *, started_before: int,
        before_commit: Callable[[], None] = lambda: None,
    ) -> CampaignState:
        """Store a history sealed and checked elsewhere (an imported trail, its numbers checked
        with `check_numbers`) as it is, with what the in-commit hooks write of it (the read models),
        in one atomic save, then snapshot it and run the commit hooks as after any commit.
        `before_commit` is called before that save is committed: what it raises stores nothing.
        The history is read again for each of these, never held, so a history of any length takes
        the same memory. `started_before`: the campaigns the store held when its name was found free,
        as `start` checks them (Conflict: another was started meanwhile)."""
        hooked = (hook(self, campaign_id, None, None, history) for hook in self.in_commit)
        writers: list[HistoryWriter] = [writer for writer in hooked if writer is not None]
        adopting = _Adopting(history, writers)
        count, alone = self.store.started_alone(started_before)

        def checked_before_commit() -> None:
            alone()
            before_commit()

        self.store.append(campaign_id, History(adopting, history.count, history.voids), within=[*writers, count],
                          each_page=[writer.write_page for writer in writers], before_commit=checked_before_commit)
        state = adopting.state
        self.store.set_current_campaign(campaign_id)
        encoded = encode_state(state)
        self.store.save_snapshot(campaign_id, state.position, encoded)
        self._keep_latest(campaign_id, encoded)
        for hook in self.on_commit:  # projections.sql.update writes the read models a page at a time
            hook(self, campaign_id, state, history)
        return state

    def start(self, name: str, ruleset_id: str, options: dict[str, Any], actor: str) -> Outcome:
        name = name.strip()
        if not name:
            raise BadInput("a campaign needs a name")
        ruleset = rulesets.get(ruleset_id)
        check_numbers(options, "options")  # before the seed is saved: a refused start writes nothing
        checked = ruleset.options(options)
        # Two `campaign new` of one name at once both found it free, and both started: on a league
        # server starts take turns; in a file, one that finds another started meanwhile looks again.
        for tries in range(1, RETRIES + 1):
            try:
                with self.store.writing(STARTING_CAMPAIGNS):
                    campaign_id, state, records = self._start(name, ruleset_id, ruleset, options, checked, actor)
                break
            except Conflict:
                pause_before_try(tries)
        else:
            raise Conflict("other campaigns kept being started at the same moment; try again")
        self.store.set_current_campaign(campaign_id)
        return Outcome(records, self._after_commit(campaign_id, state, records, refold=False))

    def _start(self, name: str, ruleset_id: str, ruleset: rulesets.Ruleset, options: dict[str, Any],
               checked: dict[str, Any], actor: str) -> tuple[uuid.UUID, CampaignState, list[Record]]:
        """The campaign's start committed, once its name is found free (Conflict: another started meanwhile)."""
        names = list(self.store.campaign_names())
        for _cid, existing in names:
            if existing.lower() == name.lower():
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
        count, alone = self.store.started_alone(len(names))
        return campaign_id, state, self._commit(campaign_id, state, [(events, actor)], within=[count], before_commit=alone)

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
        offered: Mapping[str, str] | None = None,
    ) -> Outcome:
        """Decide and store one command; on a conflicting writer, decide again on the new state.
        Every answer the command carries must be one it asks for or documents, unless
        `answered_now` names the ones to check (the guided post-game checks its own). `offered`:
        answers given for several commands at once (the guided post-game's steps), of which the
        command records those it asks.

        A command that stops after drawing ledger dice is stored pending (PendingDecision is
        raised). While a decision is pending, the same command again is taken as its answer, and
        other commands about the same warband (or the campaign) are refused."""

        checked = list(command.answers) if answered_now is None else list(answered_now)

        def attempt() -> Attempt:
            state = self._state_to_decide_on(campaign_id)
            encoded = self._latest[campaign_id]  # the state's encoding: what it was decoded from, or loaded as
            waiting = self._pending_in_the_way(campaign_id, state, command)
            if waiting is not None:
                # Answers a guided walk hands along for its later steps are not this decision's.
                answers = {key: answer for key, answer in {**command.answers, **(offered or {})}.items()
                           if key in checked or documents_key(type(command), key)}
                return self._answer_attempt(campaign_id, state, waiting, answers, actor, dice, ask)
            ruleset = rulesets.get(state.ruleset)
            burns, rolling = self._burns(campaign_id, state)
            ledger_dice = self.ledger_dice(campaign_id, rolling)
            source = dice or ledger_dice
            source.rewind()
            folded_from = None
            if rolling is state:
                # Decided on the state itself (a decoding of its own, which nothing else holds), numbered
                # first as the fold numbers it: it is then the state its records fold to, and the commit
                # neither decodes a copy to decide on nor folds the records again.
                folded_from = (state.position, state.head, state.transactions)
                state.current_tx = state.transactions = state.transactions + 1
            deciding = state if folded_from else rolling.copy()
            typed_now = TYPED_NOW.set(True)  # its names were typed now: one that is another's hidden id is refused
            try:
                events = decide(ruleset, deciding, command, dice=source, shuffle_dice=ledger_dice, ask=ask,
                                reason=reason, keep_dice=True, answered_now=checked, offered=offered, in_place=True)
            except Halted as halted:
                # What the halted command decided is not what its transaction records: fold that onto the
                # state it was decided on.
                before = decode_own(encoded) if folded_from else state
                return Attempt(before, [*burns, (halted.events(scope(before, command)), actor)], halted=halted,
                               encoded=encoded)
            finally:
                TYPED_NOW.reset(typed_now)
            source.finish()
            return Attempt(state, [*burns, (events, actor)], encoded=encoded, folded_from=folded_from)

        with self._dealt_asked_before_turn(campaign_id):
            return self._write(campaign_id, f"recording {command_name(command)}", attempt)

    def resolve(self, records: Sequence[Record], ref: str) -> tuple[int, int | None]:
        """(transaction, disputed roll or None) for `T12`/`12` (transaction), `R5` (roll), `E40` (event)."""
        text = ref.strip().upper()
        kind, number = (text[0], text[1:]) if text and text[0] in "TRE" else ("T", text)
        if not number.isdecimal():  # not isdigit(), which takes "²", which int() does not
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

    def void(
        self,
        campaign_id: uuid.UUID,
        ref: str,
        *,
        reason: str,
        actor: str,
        cascade: bool = False,
        decide_again: bool = False,
        answers: Mapping[str, str] | None = None,
        dice: DiceSource | None = None,
        ask: AskChoice | None = None,
    ) -> Outcome:
        """Void a transaction; with `cascade`, the later ones that no longer follow too. With
        `decide_again` (a cascade given answers or dice), each of those is then decided again after
        the void, as a reroll decides its command again: its recorded dice handed back, `answers`
        for the questions it now asks, `dice` (None: the ledger's) for rolls it newly asks for. One
        the rules now refuse stays voided."""
        if not reason.strip():
            raise BadInput("say why with --reason: a void is part of the audit trail")
        if decide_again and not cascade:
            raise BadInput("--answer and --dice are for the later transactions --cascade decides again: add --cascade")

        def attempt() -> Attempt:
            records = self.history(campaign_id)
            target, _roll = self.resolve(records, ref)
            planned, affected = plan_void(records, target)
            if affected and not cascade:
                raise Conflict(affected_message(target, affected))
            again: list[list[ev.Event]] = []
            fates: dict[int, str] = {}
            done, stopped = planned, None
            if decide_again:
                commands = cascade_commands(records, planned, affected, answers or {})
                ledger_dice = self.ledger_dice(campaign_id, planned)
                fresh = dice or ledger_dice
                fresh.rewind()
                again, fates, done, stopped = self._decided_again(
                    records, planned, commands, CascadeAnswers(answers or {}), fresh, ask, shuffle_dice=ledger_dice,
                    after="the void")
                if stopped is None:
                    fresh.finish()
            refuse_stranding(records, target, done)
            events = [
                ev.CommandRecorded(command="void", args={"target": target, "cascade": cascade}, reason=reason),
                *void_events(target, reason, told(affected, fates)),
            ]
            return Attempt(fold(records), [(events, actor), *((group, actor) for group in again),
                                           *([(stopped.events, actor)] if stopped else [])], refold=True,
                           affected=affected, halted=stopped.halted if stopped else None)

        return self._write(campaign_id, "voiding", attempt)

    @staticmethod
    def _decided_again(records: list[Record], planned: CampaignState, commands: Mapping[int, Command],
                       answers: CascadeAnswers, fresh: DiceSource, ask: AskChoice | None, *,
                       shuffle_dice: DiceSource, after: str
                       ) -> tuple[list[list[ev.Event]], dict[int, str], CampaignState, CascadeStopped | None]:
        """The `commands` of the transactions a cascade voids (`cascade_commands`), decided again in order
        on `planned` (each on the state the ones before it leave), their recorded dice handed back and `fresh` dice for
        rolls they newly ask for, `answers` offered to them all (and to a command decided before them: a reroll's);
        those the rules now refuse are left out. With them, what became of each (by transaction), said `after` what,
        the state they leave, and where one stopped after new ledger dice (a question, a refusal), that one stored
        pending (CascadeStopped), the later ones left to its answer: shown before they were stored, its faces were a
        free look at ledger dice ("No ledger face is shown before it is stored")."""
        state = planned.copy()
        ruleset = rulesets.get(state.ruleset)
        by_tx = {group[0].tx: group for group in transactions(records)}
        decided: list[list[ev.Event]] = []
        fates: dict[int, str] = {}
        battles = BattleNumbers()
        for tx, command in commands.items():
            recorded = [r.event for r in by_tx[tx]]
            opened = recorded[0]
            if (gone := battles.gone(recorded)) is not None:
                fates[tx] = f"; not decided again after {after}: battle {gone}, to which it belongs, stays voided"
                continue
            answers.offered_to(ruleset, state, command)
            rolls, draws = thrown(recorded)
            handed_back = RerollDice(rolls=rolls, draws=draws, disputed_roll=-1, fresh=fresh)
            try:
                events = decide(ruleset, state, command, dice=handed_back, shuffle_dice=shuffle_dice, ask=ask,
                                reason=opened.reason, offered=answers.answers, keep_dice=True)
            except Halted as halted:
                left = [later for later in commands if later > tx]
                fates[tx] = f"; decided again after {after}, it stopped after new ledger dice and waits pending"
                fates |= dict.fromkeys(
                    left, f"; decided again after {after} once T{tx}, decided again before it and pending, is answered")
                return decided, fates, state, CascadeStopped(halted.handed_back(None, handed_back, state.rolls, left),
                                                             halted)
            except NeedsDice:
                raise  # the player gives what it asks for (--dice, --answer) and voids again
            except LedgerError as refused:
                fates[tx] = f"; decided again after {after}, the rules refuse it: {refused}"  # it stays voided
                battles.left_voided(recorded)
                continue
            if (moved := battles.moved(recorded, events)) is not None:
                fates[tx] = f"; decided again after {after}, it would belong to {moved}: left voided"
                battles.left_voided(recorded)
                continue
            answers.taken(events[0])
            for event in events:
                evolve(state, event, ruleset.evolve)
            decided.append(events)
            fates[tx] = f"; decided again after {after}"
        answers.check()
        return decided, fates, state, None

    def _decided_again_once_answered(self, records: list[Record], state: CampaignState, events: list[ev.Event],
                                     left: list[int], answers: Mapping[str, str], fresh: DiceSource,
                                     shuffle_dice: DiceSource, ask: AskChoice | None
                                     ) -> tuple[list[list[ev.Event]], CascadeStopped | None]:
        """The transactions `left` by a cascading reroll stopped pending (`left_by_a_cascade`), decided again once its
        new decision is answered, after it (`events`, decided on `state`), as the reroll decides them after a new
        decision it completes (`_decided_again`): `answers` offered to them too, `fresh` dice for rolls they newly ask
        for; one the rules now refuse stays voided, and one stopped after new ledger dice is stored pending."""
        if not left:
            return [], None
        ruleset = rulesets.get(state.ruleset)
        after = state.copy()
        for event in events:
            evolve(after, event, ruleset.evolve)
        commands = cascade_commands(records, after, [(tx, "") for tx in left], answers)
        shared = CascadeAnswers(answers)
        shared.taken(events[0])  # the answers of the decision answered are its own
        again, _fates, _after, stopped = self._decided_again(records, after, commands, shared, fresh, ask,
                                                             shuffle_dice=shuffle_dice, after="the new roll")
        return again, stopped

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
            group = next(g for g in transactions(records) if g[0].tx == target)
            disputed = _for_a_disputed(next(r.event for r in group if isinstance(r.event, ev.DiceRolled) and r.event.roll == roll),
                                       dice)  # bad input, told before what the void would change
            planned, affected = plan_void(records, target)
            if affected and not cascade:
                raise Conflict(affected_message(target, affected))
            if is_pending(group):
                raise RuleViolation(_rerolling_a_pending(records, target, roll))
            opened = group[0].event
            ruleset = rulesets.get(planned.ruleset)
            ledger_dice = self.ledger_dice(campaign_id, planned)
            fresh = disputed or ledger_dice
            fresh.rewind()  # a try after a conflict starts again from the first die given
            rolls, draws = thrown(r.event for r in group)
            rerolled = RerollDice(rolls=rolls, draws=draws, disputed_roll=roll, fresh=fresh)
            opening = ev.CommandRecorded(command="reroll", args={"target": target, "roll": roll, "cascade": cascade}, reason=reason)
            # The new command follows the void, so it is decided on the state without the voided transactions;
            # its own rolls are numbered after the void's. A cascade then decides the later transactions
            # again after it, each with its own recorded dice: only the disputed roll is rolled again.
            command = ruleset.command_from(opened.command, opened.args)
            given = dict(answers or {})
            # --answer serves the later transactions too: checked over them all, for another warband's fighter before
            # anything is rolled, for a question none asks at the end
            if affected:
                cascading = cascade_commands(records, planned, affected, given, before=command)
                offered, answered_now = given, []
                shared = CascadeAnswers(given)
                shared.offered_to(ruleset, planned, command)
            else:
                command = msgspec.structs.replace(command, answers={**command.answers, **given})
                offered, answered_now = None, list(given)
            # A shuffle is handed back as the other rolls are (unless it is the roll disputed): the same
            # deck, so the same card; a fresh shuffle drew another card for a disputed check die.
            shuffles = RerollDice(rolls=rerolled.rolls, draws=[], disputed_roll=roll, fresh=ledger_dice, _used=rerolled._used)
            try:
                events = decide(ruleset, planned, command, dice=rerolled, shuffle_dice=shuffles, ask=ask,
                                reason=opened.reason, keep_dice=True, answered_now=answered_now, offered=offered)
            except Halted as halted:
                refuse_stranding(records, target, planned)
                # The later transactions a cascade voids are decided again once the new decision is answered
                # (`left_by_a_cascade`); meanwhile the campaign waits for it, so that nothing recorded first changes
                # what they decide. Before, they stayed voided, and typed again rolled their dice anew.
                stopped = halted.handed_back(None if affected else scope(planned, command), rerolled, planned.rolls)
                once = dict.fromkeys((tx for tx, _why in affected),
                                     "; decided again after the new roll once its pending decision is answered")
                return Attempt(fold(records), [([opening, *void_events(target, reason, told(affected, once))], actor),
                                               (stopped, actor)], refold=True, affected=affected, halted=halted)
            except RuleViolation as refused:
                raise _refused_after_later(refused, records, target, roll, affected) from None
            again: list[list[ev.Event]] = []
            fates: dict[int, str] = {}
            cascade_stopped: CascadeStopped | None = None
            after = planned.copy()
            for event in events:
                evolve(after, event, ruleset.evolve)
            if affected:
                shared.taken(events[0])
                again, fates, after, cascade_stopped = self._decided_again(
                    records, after, cascading, shared, fresh, ask, shuffle_dice=ledger_dice, after="the new roll")
            refuse_stranding(records, target, after)
            if cascade_stopped is None:
                rerolled.finish()
            voiding = [opening, *void_events(target, reason, told(affected, fates))]
            return Attempt(fold(records), [(voiding, actor), (events, actor), *((group, actor) for group in again),
                                           *([(cascade_stopped.events, actor)] if cascade_stopped else [])],
                           refold=True, affected=affected, halted=cascade_stopped.halted if cascade_stopped else None)

        return self._write(campaign_id, "rerolling", attempt)

    def replay(self, campaign_id: uuid.UUID, *, until: int | None = None, battle: int | None = None) -> CampaignState:
        """The campaign as it stood at a position, or once battle K and everything after it until the next battle."""
        return fold(self.history_at(campaign_id, until=until, battle=battle))

    def battles(self, campaign_id: uuid.UUID, state: CampaignState) -> list[Battle]:
        """Every battle that stands as of `state` (which keeps only each warband's latest), from the
        battle and void records alone: a campaign of any length lists them at once."""
        battles = standing_battles(self.store.records_tagged(campaign_id, BATTLE_TAGS, upto=state.position))
        if len(battles) != state.battles_fought:  # rows lost, or a damaged index hides some
            raise IntegrityFailure(f"the store holds {len(battles)} battles where its events count {state.battles_fought}; "
                                   "the store was damaged or edited, and `campaign verify` says where")
        return battles

    def history_at(self, campaign_id: uuid.UUID, *, until: int | None = None, battle: int | None = None) -> list[Record]:
        """The records the campaign had at a position, or once battle K and everything after it until the next battle."""
        return cut(self.history(campaign_id), until=until, battle=battle)

    def check(self, campaign_id: uuid.UUID) -> tuple[int, list[str]]:
        """Re-decide every live transaction from its command and dice: (transactions checked, differences)."""
        return recheck(self.history(campaign_id))


def _for_a_disputed(rolled: ev.DiceRolled, dice: DiceSource | None) -> DiceSource | None:
    """The dice a disputed roll is rolled again with: a ledger roll only by the ledger (None), since
    faces typed for it would be a re-roll of one's choosing; a table roll with the dice given, the first of
    which, its own, are refused at once where its dice cannot show them (`--dice 21` for a D20)."""
    if rolled.source == "ledger" and isinstance(dice, TableDice) and not dice.cards:
        if dice.given:
            raise BadInput(f"R{rolled.roll} was rolled by the ledger: it is rolled again by the ledger (--ledger), "
                           "not with faces typed in")
        return None
    if isinstance(dice, TableDice) and dice.given:
        sides = die_sides(rolled.expression)
        own = dice.given[:len(sides)]
        d.check_faces(own, sides[:len(own)], rolled.purpose, rolled.expression)
    return dice


def _refused_after_later(refused: RuleViolation, records: Sequence[Record], target: int, roll: int,
                         affected: Sequence[tuple[int, str]]) -> RuleViolation:
    """The rules' refusal of a disputed roll's command decided again, which a reroll does after every later transaction
    that stands (a step closed since: 'Spend Gold' is done), saying which to void first."""
    gone = voids_in(records) | {tx for tx, _why in affected}
    later = [g[0].tx for g in transactions(records) if g[0].tx > target and g[0].tx not in gone and is_redecided(g)]
    if not later:
        return refused
    since = f"T{later[0]}" if len(later) == 1 else f"T{later[0]} … T{later[-1]}"
    first = (f"void T{later[0]} first (campaign void T{later[0]} --reason …)" if len(later) == 1 else
             "void first the one that stands in its way (campaign void T… --reason …)")
    return RuleViolation(f"{refused}. A reroll decides T{target} again after what was recorded since ({since}): {first}, "
                         f"then reroll R{roll}")


def _rerolling_a_pending(records: Sequence[Record], target: int, roll: int) -> str:
    """Why a roll of a pending transaction is not rerolled, and which is: once answered, its copy."""
    answered = next((r.tx for r in records if isinstance(r.event, ev.DecisionAnswered) and r.event.target == target), None)
    if answered is None:
        return f"T{target} is pending: settle it with `campaign answer` or void it, not reroll"
    rolled = [r.event for r in records if isinstance(r.event, ev.DiceRolled)]
    origin = next((e.copy_of for e in rolled if e.roll == roll and e.copy_of is not None), roll)
    copies = [e.roll for e in rolled if e.copy_of == origin and e.roll > roll]  # each copies the first roll
    copy = f": reroll R{copies[-1]}, the copy it was decided with" if copies else ""
    return f"R{roll} was rolled for T{target}, a decision answered in T{answered}{copy}"
