"""Histories: the words of the campaign log (every event, voided ones marked with who voided them and
why; its rows are rm_log's, `projections.tables`) and what each event is about — over records only."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from ledger import events as ev
from ledger.describe import TypedReasons, describe
from ledger.records import Record
from ledger.state import CampaignState, Fighter, Warband


def void_annotations(records: Sequence[Record]) -> dict[int, dict[str, Any]]:
    """Transaction -> who voided it, in which transaction, when and why (outside the hashed records)."""
    notes: dict[int, dict[str, Any]] = {}
    for record in records:
        if isinstance(record.event, ev.TransactionVoided):
            notes[record.event.target] = {
                "voided_by": record.tx,
                "voided_by_actor": record.actor,
                "voided_at": record.recorded_at,
                "reason": record.event.reason,
            }
    return notes


def record_text(record: Record, state: CampaignState, typed: Mapping[int, Collection[str]]) -> str:
    """The chronicle's line for a record: a command with its reason, or the event described, the reasons
    typed for its transaction (`typed`: `typed_by_transaction`) said as typed."""
    opened = record.event
    if isinstance(opened, ev.CommandRecorded):
        return opened.command + (f" ({opened.reason})" if opened.reason else "")
    return describe(opened, state, typed.get(record.tx, frozenset()))


def typed_by_transaction(records: Iterable[Record]) -> dict[int, Collection[str]]:
    """Each transaction's reasons a person typed, from the command that opened it (`TypedReasons`)."""
    return {r.tx: TypedReasons(r.event) for r in records if isinstance(r.event, ev.CommandRecorded)}


class NamesKnown:
    """The names records gave warbands and fighters, voided records' included. A voided transaction's
    lines are described with a state that leaves it out, and often what it named (a recruit into a
    warband whose enlistment was voided too): they name those by the names known, not by their ids."""

    def __init__(self) -> None:
        self.warbands: dict[str, Warband] = {}
        self.fighters: dict[str, Fighter] = {}
        self._filled: tuple[CampaignState, CampaignState] | None = None  # (state, the state filled in)

    def learn(self, event: ev.Event) -> None:
        if isinstance(event, ev.WarbandEnlisted):
            self.warbands[event.warband] = Warband(id=event.warband, name=event.name, player=event.player)
        elif isinstance(event, ev.FighterRecruited):
            self.fighters[event.fighter] = Fighter(id=event.fighter, warband=event.warband, name=event.name, role=event.role)
        elif isinstance(event, ev.FighterRenamed) and event.fighter in self.fighters:
            self.fighters[event.fighter].name = event.name
        else:
            return
        self._filled = None

    def filled_in(self, state: CampaignState) -> CampaignState:
        """The state with the warbands and fighters it lacks that a record named (a copy when it lacks any)."""
        if self._filled is not None and self._filled[0] is state:
            return self._filled[1]
        filled = state
        if any(w not in state.warbands for w in self.warbands) or any(f not in state.fighters for f in self.fighters):
            filled = state.copy()
            filled.warbands = {**self.warbands, **filled.warbands}
            filled.fighters = {**self.fighters, **filled.fighters}
        self._filled = (state, filled)
        return filled


def concerns_warband(event: ev.Event, state: CampaignState, warband: str) -> bool:
    """Is the event about this warband: its own, one of its fighters', or a battle it fought?"""
    if isinstance(event, ev.BattleRecorded):
        return warband in event.participants
    if getattr(event, "warband", None) == warband:
        return True
    fighter = state.fighters.get(getattr(event, "fighter", None) or "")
    return fighter is not None and fighter.warband == warband


def warband_transactions(records: Sequence[Record], state: CampaignState, warband: str) -> set[int]:
    """The transactions with an event about the warband: the log shows them whole, dice included."""
    return {record.tx for record in records if concerns_warband(record.event, state, warband)}


def fighters_involved(event: ev.Event) -> dict[str, str]:
    """Fighter (id, or an untracked enemy's name) -> how the event involves them: the fighter it is
    about ("subject"), one who fought in a battle ("fought"), or one taken out there ("taken out")."""
    involved: dict[str, str] = {}
    subject = getattr(event, "fighter", None)
    if isinstance(subject, str):
        involved[subject] = "subject"
    if isinstance(event, ev.BattleRecorded):
        for deed in event.deeds:
            involved.setdefault(deed.fighter, "fought")
        for deed in event.deeds:
            for enemy in deed.took_out:
                involved.setdefault(enemy, "taken out")
    return involved
