"""The checks of meaning msgspec cannot make (shape is msgspec's job): ranges covered once, ids that exist."""

from __future__ import annotations

from collections.abc import Iterable


from commands.kit import TableError
from commands.coreheim.tables.effects import Effect, Fight, FreeHiredSword, GainGold, GainItem, InjuryReroll, LeaderTest, LoseItem, MultipleInjuries, PlayerOption, RollTable
from commands.coreheim.tables.schemas import HENCHMAN_KINDS, AdvanceTable, CoreheimTables, Profile, WarbandList
from ledger.text import possessive




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
    if not separator or not sides.isdecimal() or (count and not count.isdecimal()):
        raise TableError(f"Unknown dice expression {expression!r} (expected e.g. D6, 2D6)")
    return (int(count) if count else 1, int(sides))


def walk_effects(effects: Iterable[Effect]) -> Iterable[Effect]:
    for effect in effects:
        yield effect
        match effect:
            case PlayerOption() as optional:
                yield from walk_effects(optional.effects)
            case RollTable() as table:
                for row in table.rows:
                    yield from walk_effects(row.effects)
            case LeaderTest() as test:
                yield from walk_effects(test.passed + test.failed)
            case Fight() as fight:
                yield from walk_effects(fight.won + fight.lost)
            case FreeHiredSword() as sword:
                yield from walk_effects(sword.no_free_slot)


def _check_effects(what: str, effects: Iterable[Effect], items: set[str]) -> None:
    for effect in walk_effects(effects):
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

    chart_ids = [item.id for item in tables.price_chart.items]
    twice = sorted({item for item in chart_ids if chart_ids.count(item) > 1})
    if twice:
        raise TableError(f"price_chart: items listed twice: {twice}")
    for item in tables.price_chart.items:
        if item.price.fixed < 0 or item.price.times < 1:
            raise TableError(f"price_chart: {item.id} has a negative price or dice multiplied by less than 1")
        if item.price.dice is not None:
            dice_spec(item.price.dice)

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
        for effect in walk_effects(row.effects):
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
    priced = {*chart_ids, *_shipped_chart_ids()}
    for warband in tables.warbands.warbands:
        named = [hero.skill_lists for hero in warband.hero_types]
        for variant in warband.variants:
            named += [extra.skill_lists for extra in variant.extra_skill_lists]
            named += [variant.promoted_extra_lists, variant.promoted_optional_lists]
        unknown = {list_id for lists in named for list_id in lists} - list_ids
        if unknown:
            raise TableError(f"warbands: {warband.id} names unknown skill lists {sorted(unknown)}")
        _check_warrior_types(warband, tables)
        _check_equipment_lists(warband, priced)

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


def _check_warrior_types(warband: WarbandList, tables: CoreheimTables) -> None:
    """A hire type names one warrior: the list's own types, the generic kinds and the Hired Swords
    never share an id; a variant's starting stat is a hero's."""
    own = [warrior.id for warrior in (*warband.hero_types, *warband.henchman_types)]
    taken = [*own, *HENCHMAN_KINDS, *(sword.id for sword in tables.hired_swords.swords)]
    clashing = sorted({type_id for type_id in own if taken.count(type_id) > 1})
    if clashing:
        raise TableError(f"warbands: {warband.id} has more than one warrior type {clashing}")
    heroes = {hero.id for hero in warband.hero_types}
    for variant in warband.variants:
        for start in variant.starting_stats:
            if start.hero_type not in heroes or start.stat not in Profile.__struct_fields__:
                raise TableError(f"warbands: {warband.id}/{variant.id} starts {possessive(start.hero_type)} {start.stat}, "
                                 f"not a characteristic of one of its hero types")


def _shipped_chart_ids() -> set[str]:
    """The items of the price chart the ledger ships (`data/price_chart.json`), read alone: the ids a
    warband list may name even where a house rule's chart leaves them out."""
    from commands.coreheim.tables import TABLES  # the loader is built from this module's check

    return {item.id for item in TABLES.table("price_chart", {}).items}


def _check_equipment_lists(warband: WarbandList, priced: set[str]) -> None:
    """An equipment list names items of a price chart, the shipped one or the campaign's: a name
    mistyped in a list would otherwise leave that item off it without a word."""
    for equipment in warband.equipment_lists or ():
        unknown = sorted({item for listed in equipment.items for item in listed.items} - priced)
        if unknown:
            raise TableError(f"warbands: {possessive(warband.id)} '{equipment.name}' names items on no price chart: "
                             f"{unknown}")


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
            for effect in walk_effects(variant.effects):
                if isinstance(effect, RollTable):
                    yield from effect.rows
