"""Checking a history against the rules: planning a void (which later transactions no longer
follow), the shape of the ledger's own transactions, and re-deciding every transaction as
`replay --check` and `import` do.
"""

from __future__ import annotations

from collections.abc import Sequence

from ledger import events as ev
from ledger.deciding import is_ledger_transaction, is_redecided, redecide
from ledger.errors import BadInput, LedgerError, RuleViolation
from ledger.fold import apply_record, transactions, voids_in
from ledger.records import Record
from ledger.state import CampaignState

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
        raise BadInput(f"T{target} is already voided")
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
