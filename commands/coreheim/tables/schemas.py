"""The tables' shapes: exploration, injuries, experience, warbands and trading, and the whole set."""

from __future__ import annotations

from typing import Literal

import msgspec

from commands.coreheim.tables.effects import Data, Effect


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


class Profile(Data):
    """The eight characteristics in v10 terms: WS/BS/I/Ld are D12 targets (6 means 6+), T a modifier."""

    M: int | None
    A: int | None
    W: int | None
    T: int | None
    WS: int | None
    BS: int | None
    I: int | None  # noqa: E741 - the game's own abbreviation for Initiative
    Ld: int | None


class RaceMaximums(Profile):
    """Best allowed values. M, A, W: higher is better; T and the targets: lower is better.
    ``None`` means the characteristic cannot be improved."""

    race: str


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


class ListedWarrior(Data):
    """A warrior as a warband list (or the Hired Swords' section) prints him: his starting profile
    ("-" is None), and the race whose maximum characteristics he has ("" when he has none to
    improve). A house-rule table without profiles leaves hiring to give the whole profile."""

    id: str
    name: str
    race: str = ""
    profile: Profile | None = None


class HeroType(ListedWarrior, kw_only=True):
    hire_cost: int
    leader: bool
    max_count: int
    starting_xp: int
    skill_lists: tuple[str, ...]


# What a henchman type of a list is; hiring also takes these as types of its own, for warriors a
# list does not print (the player gives price and profile).
HENCHMAN_KINDS = ("henchman", "animal", "monster")


class HenchmanType(ListedWarrior, kw_only=True):
    """A henchman group, animal or monster of the list; ``max_count`` members at most (None: any)."""

    hire_cost: int
    kind: Literal[HENCHMAN_KINDS]
    max_count: int | None


class StartingStat(Data):
    """A variant's own starting value of one characteristic of a hero type (Reikland's Sergeants' Ld 4+)."""

    hero_type: str
    stat: str
    value: int


class ExtraSkillLists(Data):
    hero_type: str
    skill_lists: tuple[str, ...]


class WarbandVariant(Data):
    id: str
    rout_at: int | None
    extra_skill_lists: tuple[ExtraSkillLists, ...]
    promoted_extra_lists: tuple[str, ...]
    promoted_optional_lists: tuple[str, ...]
    starting_stats: tuple[StartingStat, ...] = ()


class ListedItem(Data):
    """An item as an equipment list prints it ("Sling (Short Bow)", "Halbern"), and the price chart's
    items it is: one, or each of those it offers ("Sling / Short Bow")."""

    name: str
    items: tuple[str, ...]


class EquipmentList(Data):
    """One of a warband list's equipment lists (its weapons lists and its special equipment), under
    its heading as printed ("Marksmen Weapons", "Eshin Special Equipment")."""

    name: str
    items: tuple[ListedItem, ...]


class WarbandList(Data):
    id: str
    name: str
    max_size: int
    rout_at: int
    hero_types: tuple[HeroType, ...]
    variants: tuple[WarbandVariant, ...]
    henchman_types: tuple[HenchmanType, ...] = ()
    # What the list offers its warriors (version 6: the rare items bought without a roll at creation);
    # None: a house-rule list that prints none.
    equipment_lists: tuple[EquipmentList, ...] | None = None


class WarbandsTable(Data):
    max_heroes: int
    min_henchman_group_size: int
    max_henchman_group_size: int
    starting_gold: int
    talent_skill_list_count: int
    warbands: tuple[WarbandList, ...]
    note: str = ""


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
    times: int = 1  # the dice are multiplied: "75 + D6 x 10 gc"


class Item(Data):
    id: str
    name: str
    price: Price | None
    rarity: int | None
    on_gain: tuple[Effect, ...]


class EquipmentTable(Data):
    items: tuple[Item, ...]
    note: str = ""


class ChartItem(Data):
    """One item of the Coreheim price chart: its price, and its rarity (None: Common)."""

    id: str
    name: str
    price: Price
    rarity: int | None
    source: str = ""  # the page of the Coreheim rules it comes from
    mount: bool = False  # ridden: kept by the warband whatever befalls its rider (version 3 on)
    miscellaneous: bool = False  # 1.11's Miscellaneous Equipment: heroes only, one of each a hero (version 4 on)
    after_first_battle: bool = False  # not bought before the warband's first battle (version 4 on)


class PriceChart(Data):
    """What every item costs and how rare it is (version 2 on; version 1 read the equipment table's)."""

    items: tuple[ChartItem, ...]
    note: str = ""


class HiredSword(ListedWarrior, kw_only=True):
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
    """Every table, by the name a house rule replaces it under (and its data file's)."""

    # exploration
    shards: ShardsTable
    multiples: MultiplesTable
    # injuries
    henchman_injury: HenchmanInjuryTable
    hero_injury: HeroInjuryTable
    # experience and advances
    xp_thresholds: XpThresholds
    hero_advances: AdvanceTable
    henchman_advances: AdvanceTable
    max_characteristics: MaxCharacteristicsTable
    skills: SkillsTable
    # warbands and trading
    warbands: WarbandsTable
    wyrdstone_sale: WyrdstoneSaleTable
    equipment: EquipmentTable
    price_chart: PriceChart
    hired_swords: HiredSwordsTable
    # rating
    warband_rating: WarbandRatingRules
    underdog: UnderdogTable
