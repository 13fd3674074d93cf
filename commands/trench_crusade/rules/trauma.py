"""Trauma: a Troop's Survival Roll and an ELITE's Trauma Table roll."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from commands.trench_crusade.tables import (
    EliteTraumaRow,
    TrenchCrusadeTables,
    TroopSurvivalRow,
)
from commands.kit import Rolled, check_faces, d66
from commands.trench_crusade.rules.common import Fighter, TrenchCrusadeRuleError
from ledger.text import possessive


def troop_survival(face: int, tables: TrenchCrusadeTables) -> TroopSurvivalRow:
    """A Troop taken Out of Action rolls a D6: 1-2 it is removed, 3+ it is fine."""
    check_faces([face], 6, "a Survival Roll")
    return next(row for row in tables.trauma.troop_survival if row.low <= face <= row.high)


def _d66_row(roll: int, tables: TrenchCrusadeTables) -> EliteTraumaRow:
    tens, units = divmod(roll, 10)
    if not (1 <= tens <= 6 and 1 <= units <= 6):
        raise TrenchCrusadeRuleError(f"{roll} is not a D66 result (11 to 66, digits 1 to 6)")
    return next(row for row in tables.trauma.elite if row.low <= roll <= row.high)


class TraumaOutcome(msgspec.Struct, frozen=True, kw_only=True):
    fighter_id: str
    rolls_used: tuple[int, ...]
    rerolled_rows: tuple[str, ...]  # injuries it already had, rolled again
    row: EliteTraumaRow
    removed: bool  # dead, or a repeated injury that removes it; a capture is settled apart
    battle_scars_after: int
    unfit_for_duty: bool


def trauma_roll_purpose(name: str, index: int) -> str:
    again = f" (roll {index + 1}: an injury it already has is rolled again)" if index else ""
    return f"Trauma roll for {name}{again}"


def elite_trauma(fighter: Fighter, rolled: Rolled, tables: TrenchCrusadeTables, *, spared: bool = False) -> TraumaOutcome:
    """An ELITE taken Out of Action rolls D66 on the Trauma Table (re-rolling repeats): each D66 is
    asked for through `rolled` (the kit's protocol), so a repeat asks for one more. With `spared`
    (version 1.3.0), a row that names the model among those it `recovers` is a Full Recovery ("Lost
    an Eye … Sniper Priest: Full Recovery")."""
    rerolled: list[str] = []
    rolls: list[int] = []
    while True:
        roll = d66(rolled.next(len(rolls), "D66", trauma_roll_purpose(fighter.name, len(rolls))))
        rolls.append(roll)
        row = _d66_row(roll, tables)
        if spared and fighter.model.casefold() in {model.casefold() for model in row.recovers}:
            row = next(r for r in tables.trauma.elite if r.kind == "recovery")  # the Full Recovery row
        repeated = row.kind == "injury" and row.id in fighter.injuries
        if repeated and row.repeat == "re-roll":
            rerolled.append(row.id)
            continue
        removed = row.kind == "dead" or (repeated and row.repeat == "removed")
        scars = fighter.battle_scars + (1 if row.battle_scar and not removed else 0)
        allowed = tables.trauma.scars_to_unfit + sum(
            1 for skill in tables.trauma.extra_scar_skills if skill in fighter.skills
        )
        return TraumaOutcome(
            fighter_id=fighter.fighter_id,
            rolls_used=tuple(rolls),
            rerolled_rows=tuple(rerolled),
            row=row,
            removed=removed,
            battle_scars_after=scars,
            unfit_for_duty=not removed and scars >= allowed,
        )


class DeploymentCost(msgspec.Struct, frozen=True, kw_only=True):
    """Ducats a model's injury costs before it deploys (Expensive Treatment)."""

    fighter_id: str
    row: EliteTraumaRow  # the injury, with its `deployment_ducats`


def deployment_costs(force: Sequence[Fighter], strongbox: int, tables: TrenchCrusadeTables) -> list[DeploymentCost]:
    """What the models of one warband's Force pay for their injuries before deploying, in the Force's
    order (rules §5, D66 32 Expensive Treatment: "pay 10 ducats from Strongbox before each deployment
    (not part of Threshold)"). A model the Strongbox can no longer pay for cannot deploy: refused,
    naming it, so the players leave it out of the Force."""
    costs: list[DeploymentCost] = []
    left = strongbox
    for fighter in force:
        for row in tables.trauma.elite:
            if row.deployment_ducats and row.id in fighter.injuries:
                if row.deployment_ducats > left:
                    raise TrenchCrusadeRuleError(
                        f"{possessive(fighter.name)} {row.name} costs {row.deployment_ducats} ducats from the Strongbox "
                        f"before each deployment, and the Strongbox holds {left}: leave {fighter.name} out of the Force "
                        f"(--absent {fighter.name})")
                left -= row.deployment_ducats
                costs.append(DeploymentCost(fighter_id=fighter.fighter_id, row=row))
    return costs
