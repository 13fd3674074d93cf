"""Injuries: a henchman's D12, a hero's D66 with its re-rolls, fights and Multiple Injuries."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from commands import kit
from commands.kit import MoreDice, check_faces

from commands.coreheim.tables import (
    CoreheimTables,
    Dead,
    HenchmanInjuryTable,
    HeroInjuryRow,
    InjuryReroll,
    MultipleInjuries,
    Fight,
    dice_spec,
)
from commands.coreheim.rules.common import CoreheimRuleError, Pending, Result
from commands.coreheim.rules.exploration import Outcome, _EffectResolver
from ledger.text import possessive


class HenchmanInjury(Result):
    row_id: str
    dead: bool
    gear_lost: bool


def resolve_henchman_injury(
    face: int, *, marienburg_hired_sword: bool = False, tables: CoreheimTables
) -> HenchmanInjury:
    """D12 for a henchman, mount or Hired Sword taken out of action: 1-4 dead, 5-12 survives.
    A dead warrior's weapons, armour and equipment are lost with him."""
    table: HenchmanInjuryTable = tables.henchman_injury
    check_faces((face,), dice_spec(table.die)[1], "Henchman injury")
    rows = table.marienburg_hired_sword_rows if marienburg_hired_sword else table.rows
    row = next(r for r in rows if r.min <= face <= r.max)
    dead = row.result == "dead"
    return HenchmanInjury(row_id=row.id, dead=dead, gear_lost=dead)


class InjuryRoll(Result):
    """One D66: the row rolled, the result that counted (``row_applied`` differs from
    ``row_id`` when Dead became Multiple Injuries or Captured), and what that result did."""

    d66: int
    row_id: str
    result: str
    counted: bool
    note: str = ""
    row_applied: str = ""
    outcomes: tuple[Outcome, ...] = ()


class HeroInjuryResolution(Result):
    rolls: tuple[InjuryRoll, ...]
    outcomes: tuple[Outcome, ...]
    rows_used: tuple[str, ...]
    pending: tuple[Pending, ...]
    shackles_used: bool = False

    @property
    def complete(self) -> bool:
        return not self.pending

    @property
    def dead(self) -> bool:
        return any(isinstance(outcome, Dead) for outcome in self.outcomes)


def hero_injury_row(d66: int, *, tables: CoreheimTables) -> HeroInjuryRow:
    for row in tables.hero_injury.rows:
        if d66 in row.d66:
            return row
    raise CoreheimRuleError(f"{d66} is not a D66 result")


def _row_with_result(result: str, tables: CoreheimTables) -> HeroInjuryRow:
    return next(row for row in tables.hero_injury.rows if row.result == result)


def resolve_hero_injury(
    rolls: Sequence[tuple[int, int]],
    *,
    hero: str,
    warband_game_number: int,
    pit_fight_won: bool | None = None,
    enemy_has_shackles: bool = False,
    immortal: bool = False,
    tables: CoreheimTables,
) -> HeroInjuryResolution:
    """Serious injuries for a hero taken out of action.

    ``rolls`` are D66 rolls as (tens, units), in the order rolled: the first roll, then
    the Multiple Injuries rolls and any re-rolls. Multiple Injuries rolls 4 more times,
    re-rolling Dead, Captured, Sold to the Pits and Multiple Injuries. In the warband's
    first two games Dead is treated as Multiple Injuries.
    """
    if warband_game_number < 1:
        raise CoreheimRuleError("The warband's game number starts at 1")
    results: list[InjuryRoll] = []
    outcomes: list[Outcome] = []
    rows_used: list[str] = []
    shackles_used = False
    # Each slot is one injury still to roll, with the results that must be re-rolled.
    slots: list[frozenset[str]] = [frozenset()]
    position = 0

    while slots:
        rerolled = slots.pop(0)
        while True:
            if position >= len(rolls):
                raise MoreDice(f"hero-injury:{hero}:roll-{position + 1}", "D66", f"Serious injury for {hero}")
            d66 = kit.d66(rolls[position])
            position += 1
            row = hero_injury_row(d66, tables=tables)
            if row.result in rerolled:
                results.append(InjuryRoll(d66=d66, row_id=row.id, result=row.result, counted=False,
                                          note=f"{row.name} is re-rolled here"))
                continue
            break
        rolled_row, note = row, ""
        if row.result == "dead":
            if warband_game_number <= 2 or immortal:
                why = f"game {warband_game_number} of the warband" if warband_game_number <= 2 else "Immortal"
                note = f"Dead counts as Multiple Injuries ({why})"
                row = _row_with_result("multiple-injuries", tables)
            elif enemy_has_shackles and not shackles_used:
                note = "Dead becomes Captured (enemy Shackles)"
                shackles_used = True
                row = _row_with_result("captured", tables)
        results.append(InjuryRoll(d66=d66, row_id=rolled_row.id, result=row.result, counted=True, note=note,
                                  row_applied=row.id))
        rows_used.append(row.id)
        choices = {} if pit_fight_won is None else {fight.id: pit_fight_won for fight in _fights(row)}
        resolver = _EffectResolver(warband="", leader_ld=None, rolls={}, choices=choices, tables=tables)
        resolver.run(row.effects)
        rows_used += resolver.rows_used
        if resolver.pending:
            return HeroInjuryResolution(
                rolls=tuple(results), outcomes=tuple(outcomes), rows_used=tuple(rows_used),
                pending=tuple(resolver.pending), shackles_used=shackles_used,
            )
        applied = []
        for outcome in resolver.outcomes:
            if isinstance(outcome, MultipleInjuries):
                slots += [frozenset(outcome.reroll_results)] * outcome.rolls
            elif isinstance(outcome, InjuryReroll):
                slots.insert(0, frozenset(outcome.reroll_results))
            else:
                applied.append(outcome)
        outcomes += applied
        results[-1] = msgspec.structs.replace(results[-1], outcomes=tuple(applied))
    if position < len(rolls):
        raise CoreheimRuleError(
            f"{possessive(hero)} injuries needed {position} D66 rolls, but {len(rolls)} were given"
        )
    if pit_fight_won is not None and not any(rid.endswith((":won", ":lost")) for rid in rows_used):
        raise CoreheimRuleError(f"{hero} was not sold to the pits; there is no pit fight result")
    return HeroInjuryResolution(
        rolls=tuple(results), outcomes=tuple(outcomes), rows_used=tuple(rows_used),
        pending=(), shackles_used=shackles_used,
    )


def _fights(row: HeroInjuryRow) -> list[Fight]:
    return [effect for effect in row.effects if isinstance(effect, Fight)]
