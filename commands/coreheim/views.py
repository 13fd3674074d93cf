"""What `campaign coreheim ratings` shows, read from the state: the CLI only prints it."""

from __future__ import annotations

from typing import Any

from commands.coreheim import facts, model
from ledger.state import CampaignState


def ratings_by_battle(state: CampaignState) -> list[dict[str, Any]]:
    """Every warband's rating at each battle it fought (as recorded with the battle), now, and its wyrdstone."""
    held = facts.of(state)
    return [
        {"warband": band.name, "by_battle": {int(n): r for n, r in held.warband(band.id).ratings.items()},
         "now": model.rating(state, band.id), "shards": held.shards(band.id)}
        for band in state.warbands.values()
    ]
