"""Histories: the words of the campaign log (every event, voided ones marked with who voided them and
why; its rows are rm_log's, `projections.tables`) and what each event is about — over records only."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any, Protocol

from ledger import events as ev
from ledger import rulesets
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


def fighters_involved(event: ev.Event, drawn_for: str | None = None) -> dict[str, str]:
    """Fighter (id, or an untracked enemy's name) -> how the event involves them: the fighter it is
    about, or a roll or card is drawn for ("subject"; `drawn_for`: see `fighter_drawn_for`), one who
    fought in a battle ("fought"), or one taken out there or Incapacitated ("taken out")."""
    involved: dict[str, str] = {}
    subject = getattr(event, "fighter", None) or drawn_for
    if isinstance(subject, str):
        involved[subject] = "subject"
    victim = getattr(event, "victim", None)
    if isinstance(victim, str):
        involved.setdefault(victim, "taken out")
    if isinstance(event, ev.BattleRecorded):
        for deed in event.deeds:
            involved.setdefault(deed.fighter, "fought")
        for deed in event.deeds:
            for enemy in deed.took_out:
                involved.setdefault(enemy, "taken out")
    return involved


class Named(Protocol):
    """The campaign's fighters and warbands as named at some point (a state, or `NamesKnown`), by id."""

    @property
    def fighters(self) -> Mapping[str, Fighter]: ...

    @property
    def warbands(self) -> Mapping[str, Warband]: ...


def fighter_drawn_for(event: ev.Event, ruleset: str, opened: ev.Event | None, named: Named,
                      lately: str | None = None) -> str | None:
    """The fighter (id) a roll or a card drawn is for, where its ruleset's purposes name him ("Hilde: Hero Scars":
    `Ruleset.purpose_names`), among the fighters as `named` when it was recorded: of those who have his name,
    the one of the warband the command opening its transaction (`opened`) is about, or, in a command about
    two warbands (a Speedheim battle's Incapacitations), the one its latest event about a fighter was about
    (`lately`, `about_fighter`: his Incapacitation, before its draw). None: for no one fighter."""
    if not isinstance(event, ev.DiceRolled | ev.CardDrawn):
        return None
    purpose_names = rulesets.get(ruleset).purpose_names
    if purpose_names is None:
        return None
    named_so = [f for f in named.fighters.values() if purpose_names(event.purpose, f.name)]
    if len(named_so) > 1:  # fighters of two warbands are called alike
        about = str(opened.args.get("warband", "")).lower() if isinstance(opened, ev.CommandRecorded) else ""
        named_so = ([f for f in named_so if about in (
            f.warband, band.name.lower() if (band := named.warbands.get(f.warband)) else f.warband)] if about
            else [f for f in named_so if f.id == lately])
    return named_so[0].id if len(named_so) == 1 else None


def about_fighter(event: ev.Event, lately: str | None) -> str | None:
    """The fighter (id) the transaction's events so far were last about, after `event` (`lately` before it);
    None from a transaction's opening command on."""
    if isinstance(event, ev.CommandRecorded):
        return None
    fighter = getattr(event, "fighter", None)
    return fighter if isinstance(fighter, str) else lately


def positions_involving(records: Iterable[Record], fighter: str, ruleset: str) -> set[int]:
    """The positions of the records that involve the fighter (`fighters_involved`): his history's, as
    rm_fighter_history holds it, each roll or card drawn told by the names the fighters had then."""
    known, opened, lately, positions = NamesKnown(), None, None, set()
    for record in records:
        event = record.event
        known.learn(event)
        if isinstance(event, ev.CommandRecorded):
            opened = event
        if fighter in fighters_involved(event, fighter_drawn_for(event, ruleset, opened, known, lately)):
            positions.add(record.position)
        lately = about_fighter(event, lately)
    return positions
