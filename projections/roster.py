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


def resources(state: CampaignState, ext: dict[str, Any]) -> list[dict[str, Any]]:
    """What a warband keeps besides its treasury (in its `ext`), as its ruleset's terms name it
    (wyrdstone shards, glory…)."""
    terms = rulesets.get(state.ruleset).terms
    return [{"resource": key, "label": label, "amount": amount} for key, label, amount in terms.resources_in(ext)]


def warband_row(state: CampaignState, warband: str, ext: dict[str, Any] | None = None) -> dict[str, Any]:
    """`ext`: the warband's `ext_of`, where the caller has it: it grows with a ruleset's history
    (coreheim's rating at each battle), so it is not made twice."""
    band = state.warbands[warband]
    return {
        "warband": band.id,
        "name": band.name,
        "player": band.player,
        "faction": band.faction,
        "treasury": band.treasury,
        "resources": resources(state, ext_of(state, band) if ext is None else ext),
        "stash": list(band.stash),
        "games": band.games,
        "wins": band.wins,
        "rating": rating_of(state, warband),
        "fighters": sum(1 for f in state.fighters_of(warband)),
    }


def stats_of(state: CampaignState, fighter: Fighter) -> dict[str, int]:
    """The fighter's profile in the order its rules print it: a store filled by `import` folds the
    trail's canonical JSON, whose keys are sorted."""
    return dict(rulesets.get(state.ruleset).terms.ordered_stats(fighter.stats))


def fighter_row(state: CampaignState, fighter: Fighter) -> dict[str, Any]:
    return {
        "fighter": fighter.id,
        "warband": fighter.warband,
        "name": fighter.name,
        "role": fighter.role,
        "status": fighter.status,
        "group_size": fighter.group_size,
        "xp": fighter.xp,
        "stats": stats_of(state, fighter),
        "keywords": list(fighter.keywords),
        "skills": list(fighter.skills),
        "injuries": rulesets.get(state.ruleset).injuries_of(state, fighter),
        "equipment": list(fighter.equipment),
        "cost": fighter.cost,
        "games": fighter.games,
        "missed_games": fighter.missed_games,
        "ext": ext_of(state, fighter),
    }


def fighter_rows(state: CampaignState, warband: str) -> list[dict[str, Any]]:
    return [fighter_row(state, f) for f in state.fighters_of(warband, active_only=False)]


def roster(state: CampaignState, warband: str) -> dict[str, Any]:
    return {**warband_row(state, warband), "roster": fighter_rows(state, warband)}
