"""Checking a history against the rules: planning a void (which later transactions no longer
follow), the shape of the ledger's own transactions, and re-deciding every transaction as
`replay --check` and `import` do.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import groupby

from ledger import events as ev
from ledger import rulesets
from ledger.chain import recorded_roll_problem
from ledger.deciding import is_ledger_transaction, is_pending, is_redecided, pending_problem, redecide
from ledger.errors import BadInput, Conflict, LedgerError, NewerVersion, RuleViolation
from ledger.fold import apply_record, transactions, void_records, voids_in
from ledger.records import Record
from ledger.state import CampaignState, decode_own, encode_state
from ledger.trail_json import same_value

class _VoidPlan:
    """Voiding `target`, planned as the transactions are fed in order from a state before any
    that it changes: each later live transaction that no longer follows is voided too."""

    def __init__(self, state: CampaignState, voided: set[int], target: int):
        self.state, self.voided, self.target = state, voided, target
        self.affected: list[tuple[int, str]] = []  # (transaction, why it no longer follows)
        self.refused: Exception | None = None  # the ledger's refusal, or what folding failed on

    def feed(self, group: Sequence[Record]) -> None:
        tx = group[0].tx
        live = tx not in self.voided
        if live and tx > self.target and is_redecided(group):
            why = redecide(self.state, group, folding=True)
            if why is None:
                return  # folded as it was decided again
            self.affected.append((tx, why))
            self.voided.add(tx)
            live = False
        for record in group:
            apply_record(self.state, record, not live)


def _unvoidable(target_group: Sequence[Record]) -> str | None:
    """Why a transaction cannot be voided because of what it is (None: it can)."""
    if not is_ledger_transaction(target_group):
        return None
    opened = target_group[0].event
    what = opened.command if isinstance(opened, ev.CommandRecorded) else ev.tag_of(opened)
    return f"T{target_group[0].tx} ({what}) belongs to the ledger itself and cannot be voided"


def plan_void(records: list[Record], target: int) -> tuple[CampaignState, list[tuple[int, str]]]:
    """The state with `target` voided, and the later transactions that no longer follow."""
    groups = transactions(records)
    why = _unvoidable({g[0].tx: g for g in groups}[target])
    if why is not None:
        raise RuleViolation(why)
    voided = voids_in(records)
    if target in voided:
        raise BadInput(f"T{target} is already voided")
    plan = _VoidPlan(CampaignState(), voided | {target}, target)
    for group in groups:
        plan.feed(group)
    return plan.state, plan.affected


def refuse_stranding(records: Sequence[Record], target: int, state: CampaignState) -> None:
    """Refuse a void of `target` (or a reroll, a cascade) that leaves a later pending decision its
    command no longer stops at on `state`, the campaign once the void and all it decides again are
    done: its answer would be refused, and its warband blocked until someone thought of voiding it."""
    if not any(int(tx) > target for tx in state.pending):
        return  # the usual void: no history to group again
    stranded = [(group[0].tx, why) for group in transactions(records)
                if group[0].tx > target and str(group[0].tx) in state.pending and is_pending(group)
                and (why := pending_problem(state, group)) is not None]
    if stranded:
        lines = "\n".join(f"  T{tx}: {why}" for tx, why in stranded)
        first = ", ".join(f"`campaign void T{tx} --reason …`" for tx, _why in stranded)
        raise Conflict(f"voiding T{target} would leave pending decisions that no longer follow from what stays:\n"
                       f"{lines}\nvoid them first: {first}")


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


# Looked up by each event's own type (decoded events are of their tag's type exactly): isinstance over
# the seven types was most of checking the shape of every transaction a re-deciding reads.
LEDGER_ONLY_EVENTS = frozenset({kind for kinds in LEDGER_TRANSACTION_EVENTS.values() for kind in kinds} - {ev.DiceRolled})


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
        if allowed is None and type(event) in LEDGER_ONLY_EVENTS:
            return f"event {record.position} ({ev.tag_of(event)}) belongs to the ledger's own transactions only"
    return None


def _start_problem(group: Sequence[Record]) -> str | None:
    """Why a campaign's start does not pin the options its command gave (None: it does). Only those
    given are compared: the others are the defaults of the ledger then, and an older ledger took
    options this one refuses (a campaign recorded so must still import)."""
    opened = group[0].event
    pinned = next((r.event for r in group if isinstance(r.event, ev.RulesetPinned)), None)
    given = opened.args.get("options")
    if pinned is None or not isinstance(given, dict):
        return None  # the shape check and the chain name a start without them
    try:
        checked = rulesets.get(pinned.ruleset).options(given)
    except LedgerError:
        checked = given
    changed = sorted(key for key in given
                     if not any(same_value(pinned.options.get(key), value) for value in (given[key], checked.get(key))))
    if changed:
        return f"pins {', '.join(f'{key}={pinned.options.get(key)!r}' for key in changed)}, not the options its command gives"
    return None


def _void_problem(group: Sequence[Record], first_tx: int, plan: _VoidPlan | None) -> str | None:
    """Why a void (or a reroll's void) is not the one the ledger plans for its target now: `plan`
    is that void planned on the transactions before it (from `first_tx`)."""
    opened = group[0].event
    voids = [r.event for r in group if isinstance(r.event, ev.TransactionVoided)]
    if not voids or voids[0].because_of is not None or opened.args.get("target") != voids[0].target:
        return f"does not begin by voiding its target T{opened.args.get('target')}"
    target = voids[0].target
    if not first_tx <= target < group[0].tx:  # transactions are numbered without gaps
        return f"voids T{target}, which comes later or does not exist"
    assert plan is not None  # _Recheck plans every void whose target comes before it
    if plan.refused is not None:
        return f"voids T{target}, which the ledger refuses now: {plan.refused}"
    planned = [tx for tx, _why in plan.affected]
    cascaded = [v.target for v in voids[1:] if v.because_of == target]
    if len(cascaded) != len(voids) - 1 or cascaded != planned:
        return (f"voids {', '.join(f'T{t}' for t in cascaded) or 'nothing'} as following from T{target}, "
                f"but voiding T{target} affects {', '.join(f'T{t}' for t in planned) or 'nothing'} now")
    return None


def _impossible_roll(group: Sequence[Record]) -> str | None:
    """The first roll of a transaction (live or voided, decided again or pending) whose dice are
    wrong on their own, named by its event: one no die could show, or that does not count to its
    value (None: there is none)."""
    for record in group:
        if isinstance(record.event, ev.DiceRolled) and (problem := recorded_roll_problem(record.event)) is not None:
            return f"E{record.position} {problem}"
    return None


def recheck(
    records: Iterable[Record], voids: Sequence[Record] | None = None, *, first_only: bool = False,
    dice_checked: bool = False,
) -> tuple[int, list[str]]:
    """Check that the ledger's own transactions hold only what they may and that every void voids
    what the ledger plans (the voids decide which transactions count), then re-decide every live
    transaction from its command and dice: (transactions re-decided, differences; the first
    difference in the ledger's own transactions ends the check when `first_only`). Each roll's dice
    are checked on their own first (`_impossible_roll`), unless `dice_checked`: a verified chain's were.

    One pass, holding no records: `voids`, the history's transaction.voided records, are known
    ahead (a verified chain's); without them `records` is read twice."""
    if voids is None:
        voids = void_records(records)
    check = _Recheck(voids, first_only, dice_checked)
    for _tx, group in groupby(records, key=lambda r: r.tx):
        if not check.add(list(group)):
            return check.checked, check.shape_differences
    if check.failure is not None:
        raise check.failure
    return check.checked, check.shape_differences + check.redecided_differences


CHECKPOINT_EVERY = 64  # transactions folded between two encodings of the state re-decided on


class _Recheck:
    """`recheck`, transaction by transaction. Each void's plan starts from a copy of the checked
    state (every void of the history applied) at the first transaction where that differs from the
    history the void was decided on (its own target, or an earlier one voided only later on), so
    the state is folded once and each plan folds only the transactions its void may change."""

    def __init__(self, voids: Sequence[Record], first_only: bool, dice_checked: bool = False):
        self.voids, self.first_only, self.dice_checked = voids, first_only, dice_checked
        self.voided = {v.event.target for v in voids}
        first_voided_in: dict[int, int] = {}  # target -> the first transaction that voids it
        for v in voids:
            first_voided_in.setdefault(v.event.target, v.tx)
        self.forks: dict[int, list[tuple[int, int]]] = {}  # transaction -> (void, target) planned from it
        targets: dict[int, int] = {}
        for v in voids:
            targets.setdefault(v.tx, v.event.target)  # a void transaction's first void names its target
        for tx, target in targets.items():
            if target < tx:
                voided_later = [t for t, at in first_voided_in.items() if at >= tx and t != target]
                self.forks.setdefault(min([target, *voided_later]), []).append((tx, target))
        self.fork_points = sorted(self.forks)
        self.plans: dict[int, _VoidPlan] = {}  # void transaction -> its plan, fed until it comes
        self.unvoidable: dict[int, str] = {}  # a voided ledger transaction -> why it cannot be
        self.first_tx: int | None = None
        self.state = CampaignState()
        self.checked = 0
        self.shape_differences: list[str] = []
        self.redecided_differences: list[str] = []
        # What folding the history failed on: every plan started after it fails on it too.
        self.failure: Exception | None = None
        # The state encoded now and then, and the transactions folded since: what
        # puts the state back where a transaction no longer follows, instead of encoding the state
        # before every one (a seventh of re-deciding a history).
        self.checkpoint = encode_state(self.state)
        self.since: list[tuple[list[Record], bool, bool]] = []  # (records, live, decided again)

    def add(self, group: list[Record]) -> bool:
        """Check one transaction; False once `first_only` has its difference in the ledger's own."""
        tx = group[0].tx
        if self.first_tx is None:
            self.first_tx = tx
        self._fork(tx)
        if tx in self.voided and (why := _unvoidable(group)) is not None:
            self.unvoidable[tx] = why
        plan = self.plans.pop(tx, None)
        if plan is not None and plan.target in self.unvoidable:  # refused before anything else
            plan.refused = RuleViolation(self.unvoidable[plan.target])
        problem = _shape_problem(group)
        opened = group[0].event
        if problem is None and isinstance(opened, ev.CommandRecorded) and opened.command in ("void", "reroll"):
            problem = _void_problem(group, self.first_tx, plan)
        elif problem is None and isinstance(opened, ev.CommandRecorded) and opened.command == "campaign.new":
            problem = _start_problem(group)
        if problem is not None:
            self.shape_differences.append(f"T{tx}: {problem}")
            if self.first_only:
                self.checked = 0
                self.shape_differences, self.redecided_differences = self.shape_differences[:1], []
                return False
        for pending in self.plans.values():
            if pending.refused is None:
                try:
                    pending.feed(group)
                except LedgerError as error:
                    pending.refused = error
        if self.failure is None:
            try:
                self._redecide(group)
            except NewerVersion:
                raise  # nothing of the history can be decided: said before anything it would explain
            except Exception as error:  # noqa: BLE001 - raised once the ledger's own transactions are checked
                self.failure = error
        return True

    def _redecide(self, group: list[Record]) -> None:
        tx = group[0].tx
        live = tx not in self.voided
        if len(self.since) >= CHECKPOINT_EVERY:
            self.checkpoint, self.since = encode_state(self.state), []
        impossible = None if self.dice_checked else _impossible_roll(group)
        if impossible is not None:  # handed to the rules, such dice could say anything
            self.redecided_differences.append(f"T{tx}: {impossible}")
        elif live and is_redecided(group) and not (self.first_only and self.redecided_differences):
            self.checked += 1
            why = redecide(self.state, group, folding=True, put_back=False)
            if why is None:
                self.since.append((group, live, True))
                return  # folded as it was decided again
            self.redecided_differences.append(f"T{tx}: {why}")
            self.state = self._as_before()
        elif live and is_pending(group) and not self._voided_before_later(tx) and (
                why := pending_problem(self.state, group, as_stored=True)) is not None:
            self.redecided_differences.append(f"T{tx}: {why}")
        for record in group:
            apply_record(self.state, record, not live)
        self.since.append((group, live, False))

    def _voided_before_later(self, tx: int) -> bool:
        """Whether a later void voids a transaction before `tx`: a pending decision is checked on the
        state every void applied to, and an older ledger left one standing that a void stranded."""
        return any(v.tx > tx > v.event.target for v in self.voids)

    def _as_before(self) -> CampaignState:
        """The state before the transaction that no longer follows (which its decision changed):
        the checkpoint, with the transactions since decided again or folded, as they were."""
        state = decode_own(self.checkpoint)
        for group, live, decided in self.since:
            if decided:
                redecide(state, group, folding=True, put_back=False)
            else:
                for record in group:
                    apply_record(state, record, not live)
        return state

    def _fork(self, tx: int) -> None:
        """Start the plans of the voids that change the history from transaction `tx` on (or
        before it: a void may name a transaction the history does not start with)."""
        while self.fork_points and self.fork_points[0] <= tx:
            self._start_plans(self.forks.pop(self.fork_points.pop(0)))

    def _start_plans(self, voids: list[tuple[int, int]]) -> None:
        for void_tx, target in voids:
            decided_on = {v.event.target for v in self.voids if v.tx < void_tx}
            plan = _VoidPlan(self.state.copy(), decided_on | {target}, target)
            if target in decided_on:
                plan.refused = BadInput(f"T{target} is already voided")
            elif self.failure is not None:
                plan.refused = self.failure
            self.plans[void_tx] = plan


def void_events(target: int, reason: str, affected: list[tuple[int, str]]) -> list[ev.Event]:
    return [
        ev.TransactionVoided(target=target, reason=reason),
        *(
            ev.TransactionVoided(target=tx, reason=f"no longer follows once T{target} is voided: {why}", because_of=target)
            for tx, why in affected
        ),
    ]


def affected_message(target: int, affected: list[tuple[int, str]]) -> str:
    lines = "\n".join(f"  T{tx}: {why}" for tx, why in affected)
    return f"voiding T{target} affects later transactions (add --cascade to void them too):\n{lines}"
