"""Coreheim's data tables, loaded from ``data/*.json`` into frozen msgspec Structs.

The JSON files are the defaults from ``shared/rules/coreheim.md``; a campaign may replace
any whole table as a house rule (``TABLES.with_house_rules({"shards": {...}})``). Every row carries a
stable ``id`` so that events can name the row they used.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal, Union

import msgspec

from commands.kit import TableError, Tables


class Data(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Base of every table Struct: immutable, and strict about unknown keys so typos in
    house rules are reported instead of silently ignored."""


# --- Effects: what a table row does, as data -------------------------------------------
# ``target`` names a role, not a fighter ("leader", "chosen-hero", "chosen-warrior",
# "injured-hero", "map-holder"); the command layer maps roles to fighters.


class GainGold(Data, tag_field="kind", tag="gold"):
    id: str
    dice: str | None
    multiplier: int
    fixed: int


class GainItem(Data, tag_field="kind", tag="item"):
    item: str
    count: int


class LoseItem(Data, tag_field="kind", tag="lose-item"):
    item: str


class GainShards(Data, tag_field="kind", tag="shards"):
    count: int


class GainXp(Data, tag_field="kind", tag="xp"):
    target: str
    amount: int


class GainSkill(Data, tag_field="kind", tag="skill"):
    target: str
    skill: str


class MissGame(Data, tag_field="kind", tag="miss-game"):
    target: str


class FreeUnit(Data, tag_field="kind", tag="free-unit"):
    unit: str
    count: int


class FreeHenchman(Data, tag_field="kind", tag="free-henchman"):
    max_cost: int
    count: int


class HireOption(Data, tag_field="kind", tag="hire-option"):
    unit: str
    price: int


class ExplorationDice(Data, tag_field="kind", tag="exploration-dice"):
    """Extra exploration dice at the next post-game, after which ``discard`` dice are dropped."""

    extra: int
    discard: int


class FreeHiredSword(Data, tag_field="kind", tag="free-hired-sword"):
    id: str
    no_free_slot: tuple[Effect, ...]


class PlayerOption(Data, tag_field="kind", tag="optional"):
    """Effects the player may decline (the Well); ``id`` names the yes/no choice."""

    id: str
    question: str
    effects: tuple[Effect, ...]


class RollTableRow(Data):
    id: str
    min: int
    max: int
    name: str
    effects: tuple[Effect, ...]


class RollTable(Data, tag_field="kind", tag="roll-table"):
    id: str
    dice: str
    rows: tuple[RollTableRow, ...]


class LeaderTest(Data, tag_field="kind", tag="leader-test"):
    id: str
    stat: str
    auto_pass_warbands: tuple[str, ...]
    passed: tuple[Effect, ...]
    failed: tuple[Effect, ...]


class Fight(Data, tag_field="kind", tag="fight"):
    """A fight played out on the table; the player reports whether the hero won."""

    id: str
    target: str
    opponent: str
    won: tuple[Effect, ...]
    lost: tuple[Effect, ...]


class HeroInjuryRoll(Data, tag_field="kind", tag="hero-injury"):
    target: str


class Dead(Data, tag_field="kind", tag="dead"):
    target: str


class Captured(Data, tag_field="kind", tag="captured"):
    target: str


class Robbed(Data, tag_field="kind", tag="robbed"):
    target: str


class StatChange(Data, tag_field="kind", tag="stat"):
    """``delta`` applies to the stored value: +1 on a target stat (WS 6+ -> 7+) is worse."""

    target: str
    stat: str
    delta: int


class Hatred(Data, tag_field="kind", tag="hatred"):
    target: str
    of: str


class MultipleInjuries(Data, tag_field="kind", tag="multiple-injuries"):
    rolls: int
    reroll_results: tuple[str, ...]


class InjuryReroll(Data, tag_field="kind", tag="injury-reroll"):
    reroll_results: tuple[str, ...]


Effect = Union[
    GainGold, GainItem, LoseItem, GainShards, GainXp, GainSkill, MissGame, FreeUnit,
    FreeHenchman, HireOption, ExplorationDice, FreeHiredSword, PlayerOption, RollTable,
    LeaderTest, Fight, HeroInjuryRoll, Dead, Captured, Robbed, StatChange, Hatred,
    MultipleInjuries, InjuryReroll,
]


# --- Exploration ----------------------------------------------------------------------


class ShardsRow(Data):
    id: str
    min_total: int
    max_total: int | None
    shards: int


class ShardsTable(Data):
    die: str
    max_kept_dice: int
    rows: tuple[ShardsRow, ...]


class MultiplesVariant(Data):
    """The result for the listed warbands; an empty list means "any other warband"."""

    id: str
    warbands: tuple[str, ...]
    effects: tuple[Effect, ...]


class MultiplesEntry(Data):
    id: str
    face: int
    count: int
    name: str
    variants: tuple[MultiplesVariant, ...]


class MultiplesTable(Data):
    entries: tuple[MultiplesEntry, ...]


# --- Injuries -------------------------------------------------------------------------


class RangeRow(Data):
    id: str
    min: int
    max: int
    result: Literal["dead", "survives"]


class HenchmanInjuryTable(Data):
    die: str
    rows: tuple[RangeRow, ...]
    marienburg_hired_sword_rows: tuple[RangeRow, ...]


class HeroInjuryRow(Data):
    id: str
    d66: tuple[int, ...]
    result: str
    name: str
    effects: tuple[Effect, ...]
    note: str = ""


class HeroInjuryTable(Data):
    dice: str
    rows: tuple[HeroInjuryRow, ...]


# --- Experience -----------------------------------------------------------------------


class XpThresholds(Data):
    hero: tuple[int, ...]
    henchman: tuple[int, ...]
    hired_sword: tuple[int, ...]


class StatAdvance(Data, tag_field="kind", tag="stat"):
    """Improve one of ``stats`` (the player picks when there are several) by ``delta``."""

    stats: tuple[str, ...]
    delta: int


class SkillAdvance(Data, tag_field="kind", tag="skill"):
    spell_instead_for_wizards: bool


class TalentAdvance(Data, tag_field="kind", tag="talent"):
    pass


class AdvanceRow(Data):
    id: str
    min: int
    max: int
    name: str
    advance: StatAdvance | SkillAdvance | TalentAdvance


class AdvanceTable(Data):
    die: str
    rows: tuple[AdvanceRow, ...]


class RaceMaximums(Data):
    """Best allowed values. M, A, W: higher is better; T and the targets: lower is better.
    ``None`` means the characteristic cannot be improved."""

    race: str
    M: int | None
    A: int | None
    W: int | None
    T: int | None
    WS: int | None
    BS: int | None
    I: int | None  # noqa: E741 - the game's own abbreviation for Initiative
    Ld: int | None


class MaxCharacteristicsTable(Data):
    races: tuple[RaceMaximums, ...]


class SkillList(Data):
    id: str
    name: str
    skills: tuple[str, ...]


class ForbiddenSkill(Data):
    skill: str
    warbands: tuple[str, ...]


class SkillBonus(Data):
    skill: str
    bonus: int


class SkillsTable(Data):
    lists: tuple[SkillList, ...]
    one_per_warband: tuple[str, ...]
    forbidden_for_warbands: tuple[ForbiddenSkill, ...]
    rare_search_bonus: tuple[SkillBonus, ...]


# --- Warbands, trading ----------------------------------------------------------------


class HeroType(Data):
    id: str
    name: str
    leader: bool
    max_count: int
    hire_cost: int
    starting_xp: int
    skill_lists: tuple[str, ...]


class ExtraSkillLists(Data):
    hero_type: str
    skill_lists: tuple[str, ...]


class WarbandVariant(Data):
    id: str
    rout_at: int | None
    extra_skill_lists: tuple[ExtraSkillLists, ...]
    promoted_extra_lists: tuple[str, ...]
    promoted_optional_lists: tuple[str, ...]


class WarbandList(Data):
    id: str
    name: str
    max_size: int
    rout_at: int
    hero_types: tuple[HeroType, ...]
    variants: tuple[WarbandVariant, ...]


class WarbandsTable(Data):
    max_heroes: int
    min_henchman_group_size: int
    max_henchman_group_size: int
    starting_gold: int
    talent_skill_list_count: int
    warbands: tuple[WarbandList, ...]


class WyrdstoneSaleRow(Data):
    id: str
    shards: int
    min_warriors: int
    max_warriors: int | None
    gold: int


class WyrdstoneSaleTable(Data):
    rows: tuple[WyrdstoneSaleRow, ...]


class Price(Data):
    fixed: int
    dice: str | None


class Item(Data):
    id: str
    name: str
    price: Price | None
    rarity: int | None
    on_gain: tuple[Effect, ...]


class EquipmentTable(Data):
    items: tuple[Item, ...]
    note: str = ""


class HiredSword(Data):
    id: str
    name: str
    hire: int
    upkeep: int
    rating: int
    upkeep_with_dwarves: int | None


class HiredSwordsTable(Data):
    marienburg_hire_discount: int
    swords: tuple[HiredSword, ...]


class CasualRating(Data):
    hero: int
    henchman: int
    animal: int
    monster: int


class WarbandRatingRules(Data):
    per_member: int
    per_monster: int
    hired_sword_adds_xp: bool
    casual: CasualRating


class UnderdogRow(Data):
    id: str
    min_gap: int
    max_gap: int | None
    points: int


class UnderdogTable(Data):
    multiplayer_reference: Literal["second-highest"]
    rows: tuple[UnderdogRow, ...]


class CoreheimTables(msgspec.Struct, frozen=True, kw_only=True):
    shards: ShardsTable
    multiples: MultiplesTable
    henchman_injury: HenchmanInjuryTable
    hero_injury: HeroInjuryTable
    xp_thresholds: XpThresholds
    hero_advances: AdvanceTable
    henchman_advances: AdvanceTable
    max_characteristics: MaxCharacteristicsTable
    skills: SkillsTable
    warbands: WarbandsTable
    wyrdstone_sale: WyrdstoneSaleTable
    equipment: EquipmentTable
    hired_swords: HiredSwordsTable
    warband_rating: WarbandRatingRules
    underdog: UnderdogTable


# --- Consistency checks (shape is msgspec's job; these check meaning) -----------------


def _check_ranges(what: str, rows: Iterable, first: int, last: int | None) -> None:
    """Rows' [min, max] ranges must cover first..last exactly once, in order."""
    expected = first
    ordered = list(rows)
    for index, (low, high) in enumerate(ordered):
        if low != expected:
            raise TableError(f"{what}: a row starts at {low}, expected {expected}")
        if high is None:
            if last is not None or index != len(ordered) - 1:
                raise TableError(f"{what}: only the last row may be open-ended")
            return
        if high < low:
            raise TableError(f"{what}: row {low}-{high} is empty")
        expected = high + 1
    if last is None:
        raise TableError(f"{what}: the last row must be open-ended")
    if expected != last + 1:
        raise TableError(f"{what}: rows stop at {expected - 1}, expected {last}")


def dice_spec(expression: str) -> tuple[int, int]:
    """``"2D6"`` -> (2, 6); ``"D3"`` -> (1, 3). The only dice syntax the tables use."""
    count, separator, sides = expression.upper().partition("D")
    if not separator or not sides.isdigit() or (count and not count.isdigit()):
        raise TableError(f"Unknown dice expression {expression!r} (expected e.g. D6, 2D6)")
    return (int(count) if count else 1, int(sides))


def _walk_effects(effects: Iterable[Effect]) -> Iterable[Effect]:
    for effect in effects:
        yield effect
        match effect:
            case PlayerOption() as optional:
                yield from _walk_effects(optional.effects)
            case RollTable() as table:
                for row in table.rows:
                    yield from _walk_effects(row.effects)
            case LeaderTest() as test:
                yield from _walk_effects(test.passed + test.failed)
            case Fight() as fight:
                yield from _walk_effects(fight.won + fight.lost)
            case FreeHiredSword() as sword:
                yield from _walk_effects(sword.no_free_slot)


def _check_effects(what: str, effects: Iterable[Effect], items: set[str]) -> None:
    for effect in _walk_effects(effects):
        match effect:
            case GainItem(item=item) | LoseItem(item=item) if item not in items:
                raise TableError(f"{what}: item {item!r} is not in the equipment table")
            case GainGold(dice=str(dice)):
                dice_spec(dice)
            case RollTable() as table:
                count, sides = dice_spec(table.dice)
                if count != 1:
                    raise TableError(f"{what}: roll table {table.id} must roll one die")
                _check_ranges(table.id, ((row.min, row.max) for row in table.rows), 1, sides)


def check_tables(tables: CoreheimTables) -> None:
    """Raise TableError unless every table covers its dice and references resolve."""
    _check_ranges("shards", ((r.min_total, r.max_total) for r in tables.shards.rows), 1, None)
    if tables.shards.max_kept_dice < 1:
        raise TableError("shards: max_kept_dice must be at least 1")

    items = {item.id for item in tables.equipment.items}
    for item in tables.equipment.items:
        _check_effects(f"equipment {item.id}", item.on_gain, items)

    seen = set()
    for entry in tables.multiples.entries:
        key = (entry.face, entry.count)
        if key in seen:
            raise TableError(f"multiples: {entry.face}x{entry.count} appears twice")
        seen.add(key)
        if sum(1 for variant in entry.variants if not variant.warbands) != 1:
            raise TableError(f"multiples: {entry.id} needs exactly one variant for other warbands")
        for variant in entry.variants:
            _check_effects(variant.id, variant.effects, items)
    missing = {(face, count) for face in range(1, 7) for count in range(2, 7)} - seen
    if missing:
        raise TableError(f"multiples: no entry for {sorted(missing)} (face, count)")

    for rows_name in ("rows", "marienburg_hired_sword_rows"):
        rows = getattr(tables.henchman_injury, rows_name)
        _check_ranges(f"henchman_injury.{rows_name}", ((r.min, r.max) for r in rows), 1, 12)

    d66_values = sorted(value for row in tables.hero_injury.rows for value in row.d66)
    every_d66 = [tens * 10 + units for tens in range(1, 7) for units in range(1, 7)]
    if d66_values != every_d66:
        raise TableError("hero_injury: rows must cover each D66 value 11-66 exactly once")
    results = {row.result for row in tables.hero_injury.rows}
    for row in tables.hero_injury.rows:
        _check_effects(row.id, row.effects, items)
        for effect in _walk_effects(row.effects):
            if isinstance(effect, (MultipleInjuries, InjuryReroll)):
                unknown = set(effect.reroll_results) - results
                if unknown:
                    raise TableError(f"{row.id}: re-rolls unknown results {sorted(unknown)}")

    for name in ("hero_advances", "henchman_advances"):
        table: AdvanceTable = getattr(tables, name)
        count, sides = dice_spec(table.die)
        _check_ranges(name, ((r.min, r.max) for r in table.rows), count, count * sides)

    for name in ("hero", "henchman", "hired_sword"):
        thresholds = getattr(tables.xp_thresholds, name)
        if list(thresholds) != sorted(set(thresholds)):
            raise TableError(f"xp_thresholds.{name} must be strictly increasing")

    list_ids = {skill_list.id for skill_list in tables.skills.lists}
    for warband in tables.warbands.warbands:
        named = [hero.skill_lists for hero in warband.hero_types]
        for variant in warband.variants:
            named += [extra.skill_lists for extra in variant.extra_skill_lists]
            named += [variant.promoted_extra_lists, variant.promoted_optional_lists]
        unknown = {list_id for lists in named for list_id in lists} - list_ids
        if unknown:
            raise TableError(f"warbands: {warband.id} names unknown skill lists {sorted(unknown)}")

    shard_counts = sorted({row.shards for row in tables.wyrdstone_sale.rows})
    if shard_counts != list(range(1, len(shard_counts) + 1)):
        raise TableError("wyrdstone_sale: shard counts must run 1, 2, 3, … without gaps")
    for shards in shard_counts:
        rows = sorted(
            (row for row in tables.wyrdstone_sale.rows if row.shards == shards),
            key=lambda row: row.min_warriors,
        )
        _check_ranges(f"wyrdstone_sale for {shards} shards", ((r.min_warriors, r.max_warriors) for r in rows), 1, None)

    _check_ranges("underdog", ((r.min_gap, r.max_gap) for r in tables.underdog.rows), 0, None)

    ids = [row.id for row in _all_rows(tables)]
    duplicates = sorted({row_id for row_id in ids if ids.count(row_id) > 1})
    if duplicates:
        raise TableError(f"Row ids must be unique; repeated: {duplicates}")


def _all_rows(tables: CoreheimTables) -> Iterable:
    yield from tables.shards.rows
    yield from tables.henchman_injury.rows
    yield from tables.henchman_injury.marienburg_hired_sword_rows
    yield from tables.hero_injury.rows
    yield from tables.hero_advances.rows
    yield from tables.henchman_advances.rows
    yield from tables.wyrdstone_sale.rows
    yield from tables.underdog.rows
    for entry in tables.multiples.entries:
        yield entry
        for variant in entry.variants:
            if variant.id != entry.id:
                yield variant
            for effect in _walk_effects(variant.effects):
                if isinstance(effect, RollTable):
                    yield from effect.rows


# The tables a campaign plays with: the defaults in data/, whole tables replaced by its house rules.
TABLES = Tables("Coreheim", CoreheimTables, __package__, check=check_tables)
