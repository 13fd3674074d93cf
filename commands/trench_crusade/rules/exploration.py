"""Exploration: the stage, its dice and re-rolls, the location found; and the battle record's deeds and Glory."""

from __future__ import annotations

from collections.abc import Collection, Sequence

import msgspec

from commands.trench_crusade.tables import (
    ExplorationLocation,
    ExplorationStage,
    ExplorationTableId,
    TrenchCrusadeTables,
)
from commands.trench_crusade.rules.common import BattleRecord, Fighter, TrenchCrusadeRuleError
from ledger.describe import plural
from ledger.errors import BadInput


def exploration_stage(games_played: int, tables: TrenchCrusadeTables) -> ExplorationStage:
    for stage in tables.exploration.stages:
        if stage.min_games <= games_played and (
            stage.max_games is None or games_played <= stage.max_games
        ):
            return stage
    raise TrenchCrusadeRuleError(f"no Exploration stage covers {games_played} games played")


def exploration_tables(tables: TrenchCrusadeTables) -> list[str]:
    """Every Exploration table a stage offers, in the stages' order."""
    return list(dict.fromkeys(name for each in tables.exploration.stages for name in each.tables))


def explored_stage(games_played: int, table: str, tables: TrenchCrusadeTables) -> ExplorationStage:
    """The stage after `games_played` games, refusing a table it does not offer; one that no stage
    offers is no table at all: bad input."""
    stage = exploration_stage(games_played, tables)
    every = exploration_tables(tables)
    if table not in every:
        raise BadInput(f"there is no Exploration table '{table}' (tables: {', '.join(every)})")
    if table not in stage.tables:
        raise TrenchCrusadeRuleError(
            f"after {plural(games_played, 'game')} the warband explores the "
            f"{' or '.join(stage.tables)} table, not {table}"
        )
    return stage


def exploration_dice_count(
    games_played: int, extra_dice_skills: int, tables: TrenchCrusadeTables
) -> int:
    """Dice for the stage, plus one per Extra Dice Exploration Skill."""
    return exploration_stage(games_played, tables).dice + extra_dice_skills


def exploration_rerolls(won: bool, reroll_skills: int, tables: TrenchCrusadeTables) -> int:
    """Re-rolls allowed (never the same die twice): 1, +1 for the winner, +1 per skill."""
    exploration = tables.exploration
    winner_rerolls = exploration.winner_extra_rerolls if won else 0
    return exploration.free_rerolls + winner_rerolls + reroll_skills


class ExplorationResult(msgspec.Struct, frozen=True, kw_only=True):
    stage_id: str
    table: ExplorationTableId
    final_roll: int
    location: ExplorationLocation | None  # None: nothing found at that roll
    pillaged: bool  # found before by this player: nothing this time
    loot_ducats: int


def resolve_exploration(
    games_played: int,
    table: ExplorationTableId,
    final_roll: int,
    found_before: Collection[str],
    tables: TrenchCrusadeTables,
) -> ExplorationResult:
    """The location at the final Exploration Roll (exact match) and 10 ducats per point."""
    stage = explored_stage(games_played, table, tables)
    if final_roll < 0:
        raise TrenchCrusadeRuleError(f"an Exploration Roll cannot be {final_roll}")
    location = next(
        (
            row
            for row in tables.exploration.locations
            if row.table == table and row.roll == final_roll
        ),
        None,
    )
    pillaged = location is not None and location.id in found_before
    return ExplorationResult(
        stage_id=stage.id,
        table=table,
        final_roll=final_roll,
        location=None if pillaged else location,
        pillaged=pillaged,
        loot_ducats=tables.exploration.loot_ducats_per_point * final_roll,
    )


def lasting_loot(found_before: Collection[str], tables: TrenchCrusadeTables) -> list[ExplorationLocation]:
    """The locations found at an earlier Exploration that add to the loot of every one after it
    (rules §10, Rare 11: "Pot of Manna (+10 👑 loot every Exploration)")."""
    return [row for row in tables.exploration.locations if row.loot_every_exploration and row.id in found_before]


def validate_battle_record(
    record: BattleRecord, roster: Sequence[Fighter], tables: TrenchCrusadeTables
) -> None:
    """Refuse a record the Campaign Phase cannot use (roster as it was during the game)."""
    scenarios = {scenario.id: scenario for scenario in tables.glorious_deeds.scenarios}
    deeds = {deed.id: deed for deed in tables.glorious_deeds.deeds}
    scenario = scenarios.get(record.scenario_id)
    if scenario is None:
        raise TrenchCrusadeRuleError(f"there is no scenario {record.scenario_id!r}")
    names = {fighter.fighter_id: fighter.name for fighter in roster}
    for fighter_id in record.participants:
        if fighter_id not in names:
            raise TrenchCrusadeRuleError(f"{fighter_id!r} is not on this warband's roster")
    participants = set(record.participants)
    for fighter_id in record.out_of_action:
        if fighter_id not in participants:
            raise TrenchCrusadeRuleError(
                f"{names.get(fighter_id, fighter_id)} was not in the Force, so it cannot have "
                "been taken Out of Action"
            )
    seen: set[str] = set()
    for deed_record in record.deeds:
        deed = deeds.get(deed_record.deed_id)
        if deed is None or deed.id not in scenario.deeds:
            raise TrenchCrusadeRuleError(
                f"{deed_record.deed_id!r} is not a Glorious Deed of {scenario.name}"
            )
        if deed.id in seen:
            raise TrenchCrusadeRuleError(f"{deed.name} can be completed only once per game")
        seen.add(deed.id)
        if deed.warband_level and deed_record.fighter_id is not None:
            raise TrenchCrusadeRuleError(f"{deed.name} is done by the warband, not by one model")
        if not deed.warband_level and deed_record.fighter_id not in participants:
            raise TrenchCrusadeRuleError(
                f"{deed.name} must be credited to a model of the Force"
            )
        if deed.requires_win and record.result != "win":
            raise TrenchCrusadeRuleError(f"{deed.name} needs the game to be won")
        if deed.side is not None and record.side != deed.side:
            raise TrenchCrusadeRuleError(f"{deed.name} can only be done by the {deed.side}")


def glory_from_deeds(record: BattleRecord, tables: TrenchCrusadeTables) -> int:
    """Glory Points the warband gains for its Glorious Deeds (Dragon Slayer gives 2)."""
    deeds = {deed.id: deed for deed in tables.glorious_deeds.deeds}
    return sum(deeds[deed_record.deed_id].glory for deed_record in record.deeds)
