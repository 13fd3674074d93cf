"""What `campaign coreheim ratings` shows, read from the state: the CLI only prints it."""

from __future__ import annotations

from typing import Any

from commands.coreheim import events, model
from ledger.state import CampaignState


def ratings_by_battle(state: CampaignState) -> list[dict[str, Any]]:
    """Every warband's rating at each battle it fought (as recorded with the battle), now, and its wyrdstone."""
    return [
        {"warband": band.name, "by_battle": {int(k): v for k, v in band.ext.get(events.RATINGS, {}).items()},
         "now": model.rating(state, band.id), "shards": band.ext.get(events.SHARDS, 0)}
        for band in state.warbands.values()
    ]
