"""Roster read model: warbands and fighters as rows, folded from events only (via the state)."""

from __future__ import annotations

from typing import Any

from ledger import rulesets
from ledger.state import CampaignState, Fighter, Warband


def rating_of(state: CampaignState, warband: str) -> int | None:
    ruleset = rulesets.get(state.ruleset)
    return ruleset.rating(state, warband) if ruleset.rating else None


def ext_of(state: CampaignState, holder: Warband | Fighter) -> dict[str, Any]:
    """The warband's or fighter's own facts as its ruleset shows them (the read models' `ext`)."""
    return rulesets.get(state.ruleset).ext_of(state, holder)


def campaign_row(state: CampaignState) -> dict[str, Any]:
    return {
        "campaign_id": state.campaign_id,
        "name": state.name,
        "ruleset": state.ruleset,
        "ruleset_version": state.ruleset_version,
        "options": state.options,
        "events": state.position,
        "transactions": state.transactions,
        "voided": sorted(int(tx) for tx in state.voided),
        "warbands": len(state.warbands),
        "battles": state.battles_fought,
        "head": state.head,
    }


def resources(state: CampaignState, warband: str) -> list[dict[str, Any]]:
    """What the warband keeps besides its treasury, as its ruleset's terms name it (wyrdstone shards, glory…)."""
    terms = rulesets.get(state.ruleset).terms
    return [{"resource": key, "label": label, "amount": amount}
            for key, label, amount in terms.resources_in(ext_of(state, state.warbands[warband]))]


def warband_row(state: CampaignState, warband: str) -> dict[str, Any]:
    band = state.warbands[warband]
    return {
        "warband": band.id,
        "name": band.name,
        "player": band.player,
        "faction": band.faction,
        "treasury": band.treasury,
        "resources": resources(state, warband),
        "stash": list(band.stash),
        "games": band.games,
        "wins": band.wins,
        "rating": rating_of(state, warband),
        "fighters": sum(1 for f in state.fighters_of(warband)),
    }


def fighter_row(state: CampaignState, f: Fighter) -> dict[str, Any]:
    return {
        "fighter": f.id,
        "warband": f.warband,
        "name": f.name,
        "role": f.role,
        "status": f.status,
        "group_size": f.group_size,
        "xp": f.xp,
        "stats": dict(f.stats),
        "keywords": list(f.keywords),
        "skills": list(f.skills),
        "injuries": list(f.injuries),
        "equipment": list(f.equipment),
        "cost": f.cost,
        "games": f.games,
        "missed_games": f.missed_games,
        "ext": ext_of(state, f),
    }


def fighter_rows(state: CampaignState, warband: str) -> list[dict[str, Any]]:
    return [fighter_row(state, f) for f in state.fighters_of(warband, active_only=False)]


def roster(state: CampaignState, warband: str) -> dict[str, Any]:
    return {**warband_row(state, warband), "roster": fighter_rows(state, warband)}
