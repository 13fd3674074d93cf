"""The ledger's state read in Coreheim's terms: house rules, roles, warband lists, the post-game
sequence and the warband rating. No events are emitted here.

How a Coreheim warrior is stored (decided here, documented in the package docstring):
- `Fighter.role` is one of "leader", "hero", "henchman" (a group of `group_size`
  identical members sharing XP and advances), "hired-sword", "animal", "monster".
- `Fighter.stats` holds the v10 profile M A W T WS BS I Ld (WS/BS/I/Ld as D12 targets, 6 = 6+;
  T as a modifier); `Fighter.cost` is the price of one member.
- His Coreheim facts (`facts.WarriorFacts`, folded from `coreheim.warrior-profile`) hold his type
  (a hero type of the warband list, "henchman", a Hired Sword id…), his race (for maximums), the
  skill lists of a promoted henchman and the XP up to which advances were rolled.
- `Warband.faction` names the warband list, optionally with its variant: "mercenaries" or
  "mercenaries/marienburg".
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from typing import Any, Literal, NamedTuple

from commands.coreheim import facts
from commands.coreheim import rules
from commands.coreheim.tables import (
    TABLES, ChartItem, CoreheimTables, Fight, HenchmanType, HeroType, HiredSwordsTable, Item, ListedWarrior, Price, RollTable,
    WarbandList, WarbandRatingRules,
    walk_effects,
)
from commands.kit import Options, as_spelled, derived_from_tables, option_defaults, options_of
from commands.kit import check_options as checked_options
from commands.kit.options import options_key
from commands.kit.versions import plays
from ledger.errors import BadInput, RuleViolation
from ledger.state import CampaignState, Fighter, Warband
from ledger.terms import humanize
from ledger.text import possessive, slug

LEADER, HERO, HENCHMAN, HIRED_SWORD, ANIMAL, MONSTER = "leader", "hero", "henchman", "hired-sword", "animal", "monster"
# What a hero's advance asks (`FIGHTER:XP:stat`): the characteristic of a roll that offers two, the skill of a new skill.
HERO_ADVANCE_QUESTIONS = ("stat", "skill")
HEROES = (LEADER, HERO)
GROUP_TYPES = (HENCHMAN, ANIMAL, MONSTER)  # hire types that are not in the warband list's heroes

class CoreheimOptions(Options, frozen=True, kw_only=True):
    """The house rules a Coreheim campaign may set (`dice`: who rolls by default, from Options)."""

    mode: Literal["complex", "casual"] = "complex"  # casual (2.5): the casual rating
    henchman_deed_xp: bool = False  # 6.1: +1 XP for a henchman group that took out an enemy hero (D3)
    tables: dict[str, Any] = {}  # house rules: table name -> a whole replacement table (see tables.py)


DEFAULT_OPTIONS = option_defaults(CoreheimOptions)


def campaign_options(state_options: Mapping[str, Any]) -> CoreheimOptions:
    return options_of(state_options, CoreheimOptions)


def tables_for(state_options: Mapping[str, Any]) -> CoreheimTables:
    """The campaign's tables: the defaults with its house-rule tables in place."""
    return TABLES.for_options(state_options)


check_options = checked_options("coreheim", CoreheimOptions, lambda given: TABLES.for_options({"tables": given.tables}))


# --- warband lists -----------------------------------------------------------------------------


def band_list(band: Warband, tables: CoreheimTables) -> tuple[WarbandList, str | None]:
    """The warband list (and variant) named by the warband's faction."""
    list_id, _, variant = band.faction.partition("/")
    found = next((w for w in tables.warbands.warbands if w.id == list_id), None)
    if found is None:
        known = ", ".join(w.id for w in tables.warbands.warbands)
        if not band.faction:
            raise BadInput(f"a Coreheim warband is enlisted with its warband list: give --faction one of {known}")
        raise BadInput(f"{possessive(band.name)} faction '{band.faction}' is not a warband list: give --faction one of {known}")
    if variant and variant not in {v.id for v in found.variants}:
        if not found.variants:
            raise BadInput(f"{found.name} have no variants: give --faction {found.id}")
        raise BadInput(f"{found.name} have no variant '{variant}' (variants: {', '.join(v.id for v in found.variants)})")
    return found, variant or None


def faction_as_listed(typed: str, tables: CoreheimTables) -> str:
    """A faction as typed ("Witch Hunters", "Mercenaries/Reikland", any case) by its warband list's id
    and its variant's ("witch-hunters", "mercenaries/reikland"); unchanged when no list has that name
    (band_list then says so)."""
    list_name, slash, variant = typed.partition("/")
    wanted = slug(list_name)
    found = next((w for w in tables.warbands.warbands if wanted in (w.id, slug(w.name))), None)
    return typed if found is None else found.id + (f"/{slug(variant)}" if variant.strip() else slash + variant)


def listed_items(listing: WarbandList) -> frozenset[str] | None:
    """The items the warband list prints on any of its equipment lists (2.4's "listed on your
    roster"), by the price chart's ids; None for a list that prints none (a house rule's)."""
    if listing.equipment_lists is None:
        return None
    return frozenset(item for equipment in listing.equipment_lists for listed in equipment.items for item in listed.items)


def hero_type(listing: WarbandList, type_id: str) -> HeroType | None:
    return next((h for h in listing.hero_types if h.id == type_id), None)


def hire_types(listing: WarbandList, tables: CoreheimTables) -> list[str]:
    """The types a warband hires: its list's heroes and henchmen, those the list does not print, and
    the Hired Swords."""
    return [*(w.id for w in (*listing.hero_types, *listing.henchman_types)), *GROUP_TYPES,
            *(s.id for s in tables.hired_swords.swords)]


def hire_type(listing: WarbandList, tables: CoreheimTables, typed: str) -> str:
    """A type to hire as the tables spell it, typed in any case ("Sergeant" is sergeant); one they do
    not know stays as typed, to be refused naming those they do."""
    known = hire_types(listing, tables)
    return typed if typed in known else as_spelled(typed, known) or typed


def _named(rows: Iterable[Any], name: str) -> Any:
    wanted = name.strip().lower()
    return next((i for i in rows if wanted in (i.id, i.name.lower())), None)


def henchman_type(listing: WarbandList, type_id: str) -> HenchmanType | None:
    return next((h for h in listing.henchman_types if h.id == type_id), None)


def check_list_limit(state: CampaignState, band: Warband, henchman: HenchmanType, more: int) -> None:
    """A list's limit on a henchman type ("0-3 Greatswords": three members in all, one a Talent!
    promoted among them, 2.2) refuses `more` of them past it."""
    if henchman.max_count is None:
        return
    members = sum(f.group_size for f in state.fighters_of(band.id) if warrior(state, f).type == henchman.id)
    if members + more > henchman.max_count:
        raise RuleViolation(f"{band.name} may have at most {henchman.max_count} {henchman.name}; "
                            f"it has {members}, so not {more} more")


def starting_profile(warrior: ListedWarrior, listing: WarbandList, variant: str | None) -> dict[str, int]:
    """The profile the list prints for the warrior, with the variant's own starting values; a "-"
    is left out (he has no such characteristic). {} when the list prints none."""
    if warrior.profile is None:
        return {}
    profile = {stat: value for stat in rules.STATS if (value := getattr(warrior.profile, stat)) is not None}
    changes = next((v.starting_stats for v in listing.variants if v.id == variant), ())
    profile.update({start.stat: start.value for start in changes if start.hero_type == warrior.id})
    return profile


def item_row(tables: CoreheimTables, name: str) -> Item | None:
    """An equipment row by id or name, whatever the case."""
    return _named(tables.equipment.items, name)


def chart_row(tables: CoreheimTables, name: str) -> ChartItem | None:
    """A price chart row by id or name, whatever the case."""
    return _named(tables.price_chart.items, name)


def priced_row(tables: CoreheimTables, name: str, *, chart: bool) -> Item | ChartItem | None:
    """Where an item's price and rarity are read: the price chart (version 2 on, `chart`), or the
    equipment table, which gave version 1 its few prices and rarities."""
    return chart_row(tables, name) if chart else item_row(tables, name)


def is_mount(tables: CoreheimTables, item: str) -> bool:
    return item.strip().lower() in _mounts(tables)


@derived_from_tables  # a warband's rating asks of every item it carries
def _mounts(tables: CoreheimTables) -> frozenset[str]:
    """The price chart's mounts, by id and by name (what `chart_row` finds them by)."""
    return frozenset(key for row in tables.price_chart.items if row.mount for key in (row.id, row.name.lower()))


def _chart_effects(tables: CoreheimTables) -> list[Any]:
    """Every effect of the exploration chart, then of the items gained (a Mordheim Map's roll)."""
    return [*(e for entry in tables.multiples.entries for v in entry.variants for e in walk_effects(v.effects)),
            *(e for item in tables.equipment.items for e in walk_effects(item.on_gain))]


@derived_from_tables  # asked at every roll of an exploration result
def whom_rolls_decide(tables: CoreheimTables) -> Mapping[str, frozenset[str]]:
    """Each roll of the exploration chart and of an item gained (a Mordheim Map's) -> the roles its
    rows name ("chosen-hero", "map-holder"…): the warriors whose fate that roll decides."""
    return {table.id: frozenset(target for row in table.rows for e in walk_effects(row.effects)
                                if (target := getattr(e, "target", None)))
            for table in _chart_effects(tables) if isinstance(table, RollTable)}


@derived_from_tables
def rolled_for_items(tables: CoreheimTables) -> Mapping[str, str]:
    """Each roll an item gained makes (a Mordheim Map's D6) -> the item's name, for people."""
    return {effect.id: item.name for item in tables.equipment.items for effect in walk_effects(item.on_gain)
            if isinstance(effect, RollTable)}


@derived_from_tables
def fights(tables: CoreheimTables) -> Mapping[str, Fight]:
    """Each fight of the exploration chart (the Guardhouse's warhound, the Fighting Pits) by its id."""
    return {effect.id: effect for effect in _chart_effects(tables) if isinstance(effect, Fight)}


@derived_from_tables  # the log names every item gained, lost, searched for or bought, every injury rolled
def _row_names(tables: CoreheimTables) -> dict[str, Mapping[str, str]]:
    return {"item": {row.id: row.name for row in (*tables.equipment.items, *tables.price_chart.items)},
            "injury": {row.result: row.name for row in tables.hero_injury.rows},
            "hired-sword": {sword.id: sword.name for sword in tables.hired_swords.swords},
            "skill-list": {skills.id: skills.name for skills in tables.skills.lists},
            # A warrior's type (a list's hero or henchman type, one it does not print, or a Hired Sword)
            # and a warband's list, with its variant: "mercenaries/reikland" is "Mercenaries (Reikland)"
            # (variants have no name, nor the types the lists do not print: "henchman" is "Henchman").
            "warrior-type": {warrior.id: warrior.name for listing in tables.warbands.warbands
                             for warrior in (*listing.hero_types, *listing.henchman_types)}
                            | {sword.id: sword.name for sword in tables.hired_swords.swords}
                            | {kind: humanize(kind) for kind in GROUP_TYPES},
            # A race by the name the maximums table's rows give it (5.4: "Human", "Skaven"); the data keep the id alone.
            "race": {row.race: humanize(row.race) for row in tables.max_characteristics.races},
            "faction": {listing.id: listing.name for listing in tables.warbands.warbands}
                       | {f"{listing.id}/{variant.id}": f"{listing.name} ({humanize(variant.id)})"
                          for listing in tables.warbands.warbands for variant in listing.variants}}


def row_names(state: CampaignState) -> dict[str, Mapping[str, str]]:
    """The names the campaign's tables give what its events record by id (`Ruleset.row_names`): each
    item ("power-scroll": "Power Scroll"), hero injury result ("full-recovery": "Full Recovery"),
    Hired Sword ("ogre-bodyguard": "Ogre Bodyguard"), skill list ("combat": "Combat"), warrior type
    ("youngblood": "Youngblood"), race ("human": "Human") and warband list ("skaven": "Skaven Clan Eshin")."""
    return _row_names(tables_for(state.options))


def item_id(tables: CoreheimTables, name: str, *, chart: bool = False) -> str:
    """Items on the equipment table (and, with `chart`, on the price chart) are kept under their id;
    others as typed."""
    row = (chart and chart_row(tables, name)) or item_row(tables, name)
    return row.id if row else name.strip()


def price_text(price: Price) -> str:
    """"30 gc", "7 + D6 gc", "75 + D6 x 10 gc", as the rules write a price."""
    dice = f" + {price.dice}{f' x {price.times}' if price.times != 1 else ''}" if price.dice else ""
    return f"{price.fixed}{dice} gc"


# --- fighters ------------------------------------------------------------------------------------


def member(state: CampaignState, band: Warband, ref: str) -> Fighter:
    """An active fighter of this warband. Another warband's fighter is not found, as a fighter nobody has
    is not (both are the player's slip: exit 2), with the warband he is in named."""
    fighter = state.fighter(ref, band.id)
    if not fighter.active:
        raise RuleViolation(f"{fighter.name} is {fighter.status}")
    return fighter


def heroes(state: CampaignState, band: Warband) -> list[Fighter]:
    return [f for f in state.fighters_of(band.id) if f.role in HEROES]


def leader(state: CampaignState, band: Warband) -> Fighter | None:
    return next((f for f in state.fighters_of(band.id) if f.role == LEADER), None)


def warband_size(state: CampaignState, band: Warband) -> int:
    """Warriors, animals, monsters and (version 4) the mounts they ride; Hired Swords never count (2.3)."""
    return sum(f.group_size for f in state.fighters_of(band.id) if f.role != HIRED_SWORD) + ridden_mounts(state, band.id)


def ridden_mounts(state: CampaignState, warband: str) -> int:
    """The mounts a warband's warriors ride, one a warrior (a group's, one a member). From version 4
    they are members of the warband, as animals are (1.10: they "count towards the maximum number of
    warriors in your warband, thus increasing warband rating"); version 3 counted none."""
    mounts = _mounts_in_play(state)
    return sum(f.group_size for f in state.fighters_of(warband) if _rides(f, mounts)) if mounts else 0


def _mounts_in_play(state: CampaignState) -> frozenset[str]:
    """The mounts a warrior may ride as a member (version 4 on), looked up once for all his warband's
    warriors: a rating is made at every transaction (none before version 4)."""
    return _mounts(tables_for(state.options)) if plays(state, "4") else frozenset()


def _rides(fighter: Fighter, mounts: frozenset[str]) -> bool:
    # map, not a generator: a rating asks this of every warrior at every transaction of a rebuild
    equipment = fighter.equipment
    return bool(equipment) and fighter.role != HIRED_SWORD and not mounts.isdisjoint(map(str.lower, map(str.strip, equipment)))


def characteristics(fighter: Fighter) -> rules.Characteristics:
    return rules.Characteristics(**{stat: fighter.stats.get(stat) for stat in rules.STATS})


def warrior(state: CampaignState, fighter: Fighter) -> facts.WarriorFacts:
    return facts.of(state).warrior(fighter.id)


def race(state: CampaignState, fighter: Fighter) -> str:
    found = warrior(state, fighter).race
    if not found:
        raise RuleViolation(f"{fighter.name} has no race on record, which the maximum characteristics need")
    return found


def advance_kind(fighter: Fighter) -> rules.AdvanceKind | None:
    """Which thresholds a warrior advances at; animals and monsters never advance."""
    return {LEADER: "hero", HERO: "hero", HENCHMAN: "henchman", HIRED_SWORD: "hired-sword"}.get(fighter.role)


def pending_thresholds(state: CampaignState, fighter: Fighter, tables: CoreheimTables, gaining: int = 0) -> tuple[int, ...]:
    """Thresholds reached since his last advance roll (XP he was hired with never counts), with `gaining` XP more."""
    kind = advance_kind(fighter)
    if kind is None or not fighter.active:
        return ()
    advanced_to = warrior(state, fighter).advanced_to
    return rules.advance_thresholds_crossed(fighter.xp if advanced_to is None else advanced_to, fighter.xp + gaining,
                                            kind=kind, tables=tables)


def talent_came_this_post_game(state: CampaignState, band: Warband, group: Fighter) -> bool:
    """After a Talent! the rest of the group rolls "ignoring any further Talent! results in this
    post-game sequence" (rules 2.2): at a later threshold of the same post-game, too, a Talent! is
    re-rolled, as on the group's second roll (version 5; version 4 promoted another member)."""
    battle = state.latest_battle(band.id)
    return plays(state, "5") and battle is not None and warrior(state, group).talent_after == battle.number


def skill_lists(state: CampaignState, fighter: Fighter, band: Warband, tables: CoreheimTables) -> tuple[str, ...]:
    """A promoted henchman's chosen lists, else his hero type's lists (with the variant's extras)."""
    held = warrior(state, fighter)
    if held.skill_lists:
        return tuple(held.skill_lists)
    listing, variant = band_list(band, tables)
    if hero_type(listing, held.type) is None:
        return ()
    return rules.hero_skill_lists(listing.id, held.type, variant=variant, tables=tables)


# --- rating ----------------------------------------------------------------------------------------

RATED_ROLES: dict[str, Any] = {LEADER: "hero", HERO: "hero", HENCHMAN: "henchman", ANIMAL: "animal", MONSTER: "monster"}


@functools.lru_cache(maxsize=4096)  # members are frozen: one of each kind and XP serves every rating
def _rated_member(role: str, xp: int) -> rules.RatedMember:
    return rules.RatedMember(role=role, xp=xp)


class _RatingTerms(NamedTuple):
    """What a rating reads of the campaign besides its warriors."""

    mounts: frozenset[str]  # the mounts ridden as members (version 4 on; none before)
    casual: bool
    rating_rules: WarbandRatingRules
    sword_table: HiredSwordsTable


_RATING_TERMS: dict[tuple[str | None, str], _RatingTerms] = {}


def _rating_terms(state: CampaignState) -> _RatingTerms:
    """The rating's terms of the campaign's version and house rules, worked out once for each and
    kept: a rating is made at every transaction that changes a roster, in every rebuild."""
    key = (state.ruleset_version, options_key(state.options))
    terms = _RATING_TERMS.get(key)
    if terms is None:
        if len(_RATING_TERMS) >= 64:  # a process reads few campaigns' options: keep no more than that
            _RATING_TERMS.clear()
        terms = _RATING_TERMS[key] = _RatingTerms(
            mounts=_mounts_in_play(state), casual=campaign_options(state.options).mode == "casual",
            rating_rules=TABLES.table("warband_rating", state.options),
            sword_table=TABLES.table("hired_swords", state.options))
    return terms


def rating(state: CampaignState, warband: str) -> int:
    """5 per member (each of a group, and each mount ridden from version 4), every member's XP, 15
    more per monster, and each Hired Sword's rating plus XP; warriors missing the next game still
    count (2.4)."""
    terms = _rating_terms(state)
    members: list[rules.RatedMember] = []
    swords: list[rules.RatedHiredSword] = []
    ridden = 0
    for fighter in state.fighters_of(warband):
        if fighter.role == HIRED_SWORD:
            if not (sword := warrior(state, fighter).type):
                # Only inside the transaction that hires him, between his recruit and his type: the
                # campaign as it stood there (`replay --until`, `report --until`) rates him once typed.
                continue
            swords.append(rules.RatedHiredSword(sword=sword, xp=fighter.xp))
        elif (role := RATED_ROLES.get(fighter.role)) is not None:
            members += [_rated_member(role, fighter.xp)] * fighter.group_size
        if terms.mounts and _rides(fighter, terms.mounts):
            ridden += fighter.group_size
    members += [_rated_member("mount", 0)] * ridden
    return rules.warband_rating(members, swords, casual=terms.casual, rating_rules=terms.rating_rules,
                                sword_table=terms.sword_table)
