"""What the read models show of Coreheim's own facts, read from the state: the CLI only prints it.

`ratings_by_battle` is `campaign coreheim ratings`. `warband_ext` and `fighter_ext` are a
warband's and a warrior's facts as the roster, the report and the exports show them (their
`ext`), in the shape those have always shown: battles as text keys, the warband's deeds in its
latest battle.
"""

from __future__ import annotations

from typing import Any

from commands.coreheim import facts, model
from commands.coreheim.phase import PHASE
from ledger.state import CampaignState
from projections.battles import fought


def ratings_by_battle(state: CampaignState) -> list[dict[str, Any]]:
    """Every warband's rating at each battle it fought (as recorded with the battle), now, and its wyrdstone."""
    held = facts.of(state)
    return [
        {"warband": band.name, "by_battle": dict(held.warband(band.id).ratings),
         "now": model.rating(state, band.id), "shards": held.shards(band.id)}
        for band in state.warbands.values()
    ]


def warband_ext(state: CampaignState, warband: str) -> dict[str, Any]:
    kept = facts.of(state).warband(warband)
    shown: dict[str, Any] = {}
    battle = PHASE.latest_battle(state, state.warbands[warband])
    if battle is not None:
        deeds = fought(battle, warband, state)
        shown["deeds"] = {"battle": battle.number, "fought": [d.fighter for d in deeds],
                          "out_of_action": [d.fighter for d in deeds if d.out_of_action],
                          "took_out": {d.fighter: list(d.took_out) for d in deeds if d.took_out}}
    if kept.ratings:
        shown["ratings"] = {str(number): rating for number, rating in kept.ratings.items()}
    if (underdog := kept.underdog) is not None:
        points = {"points": underdog.points, "spent": underdog.spent} | ({"sword": underdog.sword} if underdog.sword else {})
        shown["underdog"] = {str(underdog.battle): points}
    if kept.shards is not None:
        shown["shards"] = kept.shards
    if kept.found is not None:
        shown["rare_found"] = {str(kept.found.battle): list(kept.found.items)}
    if kept.bonus is not None:
        shown["exploration_bonus"] = {"extra": kept.bonus.extra, "discard": kept.bonus.discard}
    return shown


def fighter_ext(state: CampaignState, fighter: str) -> dict[str, Any]:
    warrior = facts.of(state).warriors.get(fighter)
    if warrior is None:
        return {}
    shown: dict[str, Any] = {"type": warrior.type, "race": warrior.race, "skill_lists": list(warrior.skill_lists)}
    if warrior.advanced_to is not None:
        shown["advanced_to"] = warrior.advanced_to
    if warrior.advanced_stats:
        shown["advanced_stats"] = list(warrior.advanced_stats)
    return shown
