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


def log_rows(records: Sequence[Record], state: CampaignState) -> list[dict[str, Any]]:
    voided = void_annotations(records)
    rows = []
    for record in records:
        opened = record.event if isinstance(record.event, ev.CommandRecorded) else None
        rows.append(
            {
                "position": record.position,
                "tx": record.tx,
                "type": ev.tag_of(record.event),
                "actor": record.actor,
                "recorded_at": record.recorded_at,
                "text": f"{opened.command}" + (f" ({opened.reason})" if opened.reason else "")
                if opened
                else describe(record.event, state),
                "voided": voided.get(record.tx),
                "hash": record.hash,
            }
        )
    return rows


def _mentions(event: ev.Event, fighter: str) -> bool:
    if getattr(event, "fighter", None) == fighter:
        return True
    if isinstance(event, ev.BattleRecorded):
        return any(d.fighter == fighter or fighter in d.took_out for d in event.deeds)
    return False


def fighter_history(records: Sequence[Record], state: CampaignState, fighter: str) -> list[dict[str, Any]]:
    return [row for row, record in zip(log_rows(records, state), records) if _mentions(record.event, fighter)]
