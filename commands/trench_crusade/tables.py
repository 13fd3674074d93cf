"""Trench Crusade campaign tables: loaded from ``data/*.json`` into frozen msgspec Structs.

Every table is one JSON file named after the table (``non-promotable`` is
``data/non_promotable.json``). Every row has a stable ``id`` so that an event can name the
row it used. A campaign may replace whole tables as house rules: ``TABLES.with_house_rules``
checks each replacement against the same Structs and reports msgspec's own error message.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal

import msgspec

from commands.kit import TableError, Tables


class _Row(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Base of data rows: strict, because a typo in a house rule must not pass silently.

    msgspec does not inherit ``kw_only``, so every subclass repeats it.
    """


# --- model lists (non-promotable, Limited Potential) ------------------------------------


class ModelListRow(_Row, kw_only=True):
    """A model named as printed in a Faction List, or every model with a keyword."""

    id: str
    faction: str | None  # None: models of any warband (an Ally such as the Golem)
    model: str | None = None
    keyword: str | None = None
    aliases: tuple[str, ...] = ()
    note: str = ""

    def __post_init__(self) -> None:
        if (self.model is None) == (self.keyword is None):
            raise ValueError(f"row {self.id!r} must name exactly one of `model` or `keyword`")


class NonPromotableTable(_Row, kw_only=True):
    source: str
    note: str = ""
    rows: tuple[ModelListRow, ...]


class LimitedPotentialTable(_Row, kw_only=True):
    source: str
    note: str = ""
    xp_cap: int
    rows: tuple[ModelListRow, ...]


# --- Promotion Dice sources --------------------------------------------------------------


class PromotionDiceSource(_Row, kw_only=True):
    id: str
    name: str
    dice_each: int
    per: str
    skill: str | None = None  # the Skill a model must hold: each such model adds dice_each


class PromotionDiceSourcesTable(_Row, kw_only=True):
    source: str
    note: str = ""
    rows: tuple[PromotionDiceSource, ...]


# --- experience ----------------------------------------------------------------------------


class ExperienceAward(_Row, kw_only=True):
    id: str
    description: str
    name: str = ""  # as the log says it ("Glorious Deed"); "": its id (a house-rule table's row without one)
    xp: int | None = None
    dice: str | None = None  # rolled awards such as Bitter Lessons (D3)

    def __post_init__(self) -> None:
        if (self.xp is None) == (self.dice is None):
            raise ValueError(f"award {self.id!r} must give exactly one of `xp` or `dice`")


class AdvancementCircle(_Row, kw_only=True):
    """A circled box on the roster: reaching it earns one Advancement Roll."""

    id: str
    xp: int


class ExperienceTable(_Row, kw_only=True):
    source: str
    note: str = ""
    xp_cap: int
    awards: tuple[ExperienceAward, ...]
    advancement_circles: tuple[AdvancementCircle, ...]


# --- trauma ----------------------------------------------------------------------------------


class TroopSurvivalRow(_Row, kw_only=True):
    id: str
    low: int
    high: int
    survives: bool


class EliteTraumaRow(_Row, kw_only=True):
    id: str
    low: int  # D66 read as a two-digit number, tens die first
    high: int
    name: str
    kind: Literal["dead", "captured", "injury", "robbed", "recovery"]
    battle_scar: bool
    effect: str
    repeat: Literal["allowed", "re-roll", "removed"] = "allowed"
    stops_xp: bool = False
    bonus_xp_dice: str | None = None
    gains_keyword: str | None = None  # e.g. Hardened: NEGATE FEAR
    loses_keyword: str | None = None  # e.g. Insomniac: INFILTRATOR
    missed_games: int = 0  # e.g. Minor Wound: misses the next game
    deployment_ducats: int = 0  # Expensive Treatment: paid from the Strongbox before each deployment
    records_enemy: bool = False  # Dark Memory, Prominent Scar: note the enemy warband
    recovers: tuple[str, ...] = ()  # models for whom the row is a Full Recovery (Lost an Eye: a Sniper Priest)


class TraumaTable(_Row, kw_only=True):
    source: str
    note: str = ""
    scars_to_unfit: int
    extra_scar_skills: tuple[str, ...]
    troop_survival: tuple[TroopSurvivalRow, ...]
    elite: tuple[EliteTraumaRow, ...]


# --- advancement skills ------------------------------------------------------------------


class SkillRow(_Row, kw_only=True):
    id: str
    roll: int
    skill: str
    patron: bool = False


class SkillTable(_Row, kw_only=True):
    id: str
    name: str
    rows: tuple[SkillRow, ...]


class AdvancementSkillsTable(_Row, kw_only=True):
    source: str
    note: str = ""
    tables: tuple[SkillTable, ...]


# --- exploration -----------------------------------------------------------------------------

ExplorationTableId = Literal["common", "rare", "legendary"]


class ExplorationStage(_Row, kw_only=True):
    id: str
    min_games: int
    max_games: int | None  # None: and every later game
    dice: int
    tables: tuple[ExplorationTableId, ...]


class ExplorationSkill(_Row, kw_only=True):
    id: str
    name: str
    effect: str


class ExplorationLocation(_Row, kw_only=True):
    id: str
    table: ExplorationTableId
    roll: int
    name: str
    summary: str = ""
    loot_every_exploration: int = 0  # Pot of Manna: ducats it adds to the loot of every later Exploration


class ExplorationTables(_Row, kw_only=True):
    source: str
    note: str = ""
    loot_ducats_per_point: int
    free_rerolls: int
    winner_extra_rerolls: int
    stages: tuple[ExplorationStage, ...]
    skills: tuple[ExplorationSkill, ...]
    locations: tuple[ExplorationLocation, ...]


# --- Glorious Deeds --------------------------------------------------------------------------


class GloriousDeed(_Row, kw_only=True):
    id: str
    name: str
    warband_level: bool  # no doer: the +1 XP goes to one ELITE LEADER
    glory: int
    side: Literal["attacker", "defender"] | None = None
    requires_win: bool = False
    victory_points: int = 1
    note: str = ""


class Scenario(_Row, kw_only=True):
    id: str
    number: int
    name: str  # without the numeral the rules put before it: `numbered` has both
    deeds: tuple[str, ...]

    @property
    def numbered(self) -> str:
        """The name as the rules list it, after its numeral: "IV Trench Warfare"."""
        return f"{roman(self.number)} {self.name}"


def roman(number: int) -> str:
    """A scenario's number as the rules print it: 4 is IV, 12 is XII."""
    letters = ""
    for value, numeral in ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"),
                           (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):
        count, number = divmod(number, value)
        letters += numeral * count
    return letters


class GloriousDeedsTable(_Row, kw_only=True):
    source: str
    note: str = ""
    deeds: tuple[GloriousDeed, ...]
    scenarios: tuple[Scenario, ...]


# --- the whole set -------------------------------------------------------------------------


# Every table by the name house rules give it (its data file is data/<name with _>.json), and its type.
TABLE_TYPES = {
    "non-promotable": NonPromotableTable,
    "limited-potential": LimitedPotentialTable,
    "promotion-dice-sources": PromotionDiceSourcesTable,
    "experience": ExperienceTable,
    "trauma": TraumaTable,
    "advancement-skills": AdvancementSkillsTable,
    "exploration": ExplorationTables,
    "glorious-deeds": GloriousDeedsTable,
}
# Table name -> the field of TrenchCrusadeTables that holds it.
NAMES = {name: name.replace("-", "_") for name in TABLE_TYPES}
TrenchCrusadeTables = msgspec.defstruct(
    "TrenchCrusadeTables", [(NAMES[name], table) for name, table in TABLE_TYPES.items()], frozen=True, kw_only=True,
    module=__name__)


def _row_groups(table: Any) -> Iterable[tuple[str, Iterable[Any]]]:
    """The row collections of a table whose ids must be unique, with a label for messages."""
    if isinstance(table, AdvancementSkillsTable):
        yield "tables", table.tables
        for skill_table in table.tables:
            yield f"table {skill_table.id!r}", skill_table.rows
    elif isinstance(table, ExperienceTable):
        yield "awards", table.awards
        yield "advancement_circles", table.advancement_circles
    elif isinstance(table, TraumaTable):
        yield "troop_survival", table.troop_survival
        yield "elite", table.elite
    elif isinstance(table, ExplorationTables):
        yield "stages", table.stages
        yield "skills", table.skills
        yield "locations", table.locations
    elif isinstance(table, GloriousDeedsTable):
        yield "deeds", table.deeds
        yield "scenarios", table.scenarios
    else:
        yield "rows", table.rows


def _check_coverage(name: str, label: str, rows: Iterable[Any], results: Iterable[int]) -> None:
    """A dice table must give exactly one row for every possible result."""
    rows = tuple(rows)
    for result in results:
        matches = [row.id for row in rows if row.low <= result <= row.high]
        if len(matches) != 1:
            found = f"rows {matches}" if matches else "no row"
            raise TableError(f"table {name!r}: result {result} of {label} has {found}")


def _check_table(name: str, table: Any) -> None:
    """Checks that msgspec cannot express: unique ids, and references between rows."""
    for label, rows in _row_groups(table):
        seen: set[str] = set()
        for row in rows:
            if row.id in seen:
                raise TableError(f"table {name!r}: duplicate id {row.id!r} in {label}")
            seen.add(row.id)
    if isinstance(table, TraumaTable):
        _check_coverage(name, "troop_survival", table.troop_survival, range(1, 7))
        d66 = [tens * 10 + units for tens in range(1, 7) for units in range(1, 7)]
        _check_coverage(name, "elite", table.elite, d66)
    if isinstance(table, GloriousDeedsTable):
        known = {deed.id for deed in table.deeds}
        for scenario in table.scenarios:
            unknown = [deed for deed in scenario.deeds if deed not in known]
            if unknown:
                raise TableError(
                    f"table {name!r}: scenario {scenario.id!r} lists unknown deeds {unknown}"
                )


def check_tables(tables: TrenchCrusadeTables) -> None:
    for name, field in NAMES.items():
        _check_table(name, getattr(tables, field))


# The tables a campaign plays with: the defaults in data/, whole tables replaced by its house rules.
TABLES = Tables("Trench Crusade", TrenchCrusadeTables, __package__, names=NAMES, check=check_tables)
