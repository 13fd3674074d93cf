"""Histories: the campaign log (every event, voided ones marked with who voided them and why)
and each fighter's timeline — folds over records only."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ledger import events as ev
from ledger.describe import describe
from ledger.records import Record
from ledger.state import CampaignState


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


def record_text(record: Record, state: CampaignState) -> str:
    """The chronicle's line for a record: a command with its reason, or the event described."""
    opened = record.event
    if isinstance(opened, ev.CommandRecorded):
        return opened.command + (f" ({opened.reason})" if opened.reason else "")
    return describe(opened, state)


def log_rows(records: Sequence[Record], state: CampaignState) -> list[dict[str, Any]]:
    voided = void_annotations(records)
    return [
        {
            "position": record.position,
            "tx": record.tx,
            "type": ev.tag_of(record.event),
            "actor": record.actor,
            "recorded_at": record.recorded_at,
            "text": record_text(record, state),
            "voided": voided.get(record.tx),
            "hash": record.hash,
        }
        for record in records
    ]


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


def fighter_history(records: Sequence[Record], state: CampaignState, fighter: str) -> list[dict[str, Any]]:
    return [
        row for row, record in zip(log_rows(records, state), records) if fighter in fighters_involved(record.event)
    ]
