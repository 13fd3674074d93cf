"""Warhammer Warbands campaign rules (seed 003, WD 298) as pure functions over typed data.

Rule numbers are those of shared/rules/warbands.md (R1–R25); unknowns (U1–U12) arrive as
tables (``tables.py``) or options (``Options``). No I/O, no dice: a function is handed the
faces already rolled and the player's choices, and returns what happens or raises
``WarbandsRuleError`` with a message a player understands.

Readings where the seed is silent (each is the rules file's default):
- The warband's Experience Points are one pool (the seed always has "the controlling player"
  spend them). Starting points not spent are that pool's first XP, one for one (R25), and
  every later purchase is paid from it at one XP per point (R10, U2).
- Veteran eligibility is judged from the unit's most recent battle (U8 ``latest-battle``):
  a unit that fails R6 in a later battle loses an unused eligibility. ``banked`` keeps it
  until it is used (R11 still takes everything away).
- Rerolling a useless Archetype Ability costs nothing more (U9: ``useless_reroll_xp`` 0);
  rolling an ability the character already has is rerolled for free (U5). Where a group charges
  for the reroll, one the warband cannot pay is not made: the seed says he "may reroll", so the
  useless ability stands.
- Amnesia takes away every Archetype Ability; the Starting Ability and the count of
  battles survived stay (U4).
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Mapping, Sequence
from typing import Any, Literal

import msgspec

from commands.kit import Options as KitOptions
from commands.kit import Rolled
from commands.kit.dice import value_of
from ledger.describe import plural
from ledger.errors import BadInput

VETERAN_WBR = {0: 0, 1: 10, 2: 20, 3: 30}  # R1: the level's value, not a running sum
ABILITY_WBR = 25  # R2: per Archetype Ability beyond the Starting Ability
MAX_VETERAN_LEVEL = 3
VETERAN_UPGRADE_XP = 10  # R8
ADVANCEMENT_XP = 25  # R16
BATTLES_BEFORE_ADVANCEMENT = 3  # R16, R17
MAX_ARCHETYPE_ABILITIES = 5  # R17: six Abilities, the Starting Ability and five more
SIX_ABILITIES = "six Abilities, the most a character may have"  # why one with five rolls no more (R17)


class WarbandsRuleError(ValueError):
    """A refusal: the rules do not allow what was asked."""


class Options(KitOptions, frozen=True, kw_only=True):
    """A campaign's choices where the seed is silent or a group plays otherwise (`--option KEY=VALUE`);
    `tables` holds the group's own tables by name (`--tables FILE`)."""

    points_cap: int = 500  # R3
    starting_points: int = 250  # R24
    wbr_base: Literal["points", "none"] = "points"  # R4a / U7: WBR's base before the modifiers
    xp_buys_new_units: bool = True  # U2: XP buys ordinary new units and characters, 1 XP a point
    veteran_eligibility: Literal["latest-battle", "banked"] = "latest-battle"  # U8
    useless_reroll_xp: int = 0  # U9: what rerolling a useless ability costs
    tables: dict[str, Any] = {}


# --- the rules' view of a warband -------------------------------------------------------------


class Unit(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    models: int
    points_per_model: int
    veteran: int = 0  # Veteran Status level, 0..3
    eligible: bool = False  # eligible for its next level (R6), from a battle since its last step (R8)

    @property
    def points(self) -> int:
        return self.models * self.points_per_model


class Character(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    points: int
    archetype: str
    starting_ability: str
    abilities: tuple[str, ...] = ()  # Archetype Abilities gained, the Starting Ability not included
    survived_since_ability: int = 0  # battles survived since joining or since the last ability (R16, R17)


def warband_points(units: Sequence[Unit], characters: Sequence[Character]) -> int:
    """The warband's size in army-book points: what R3's cap and R24's start count."""
    return sum(unit.points for unit in units) + sum(character.points for character in characters)


# --- R1–R5: Warband Rating and size ------------------------------------------------------------


def veteran_modifier(level: int) -> int:
    """R1: +10 / +20 / +30 for a unit at +1 / +2 / +3 (a +3 unit adds 30, not 60). A level above
    the highest, which only an arbiter's correction recorded before version 3 can give, adds
    what the highest does; the seed has no other value for it."""
    return VETERAN_WBR[max(0, min(level, MAX_VETERAN_LEVEL))]


def archetype_modifier(character: Character) -> int:
    """R2: +25 for each Archetype Ability beyond the Starting Ability."""
    return ABILITY_WBR * len(character.abilities)


class RatingLine(msgspec.Struct, frozen=True, kw_only=True):
    """One line of a rating's explanation: what adds how much."""

    what: str
    points: int


def rating_lines(units: Sequence[Unit], characters: Sequence[Character], base: str) -> list[RatingLine]:
    """R4a: WBR = the base (current points, or none) + every R1 and R2 modifier, line by line.

    R5 follows from it: a unit that lost its status or a character who lost abilities has no
    modifier left, so the rating computed after that event no longer counts them."""
    lines = [RatingLine(what="points", points=warband_points(units, characters))] if base == "points" else []
    lines += [RatingLine(what=f"{u.name}: Veteran +{u.veteran}", points=veteran_modifier(u.veteran))
              for u in units if u.veteran > 0]
    lines += [RatingLine(what=f"{c.name}: {plural(len(c.abilities), 'Archetype Ability')}",
                         points=archetype_modifier(c)) for c in characters if c.abilities]
    return lines


def warband_rating(units: Sequence[Unit], characters: Sequence[Character], base: str = "points") -> int:
    """R4: no maximum — only the sum of `rating_lines`."""
    return sum(line.points for line in rating_lines(units, characters, base))


def check_points_cap(points_now: int, adding: int, cap: int, what: str) -> None:
    """R3: a warband may never be larger than the cap (500); exactly the cap is legal."""
    if points_now + adding > cap:
        raise WarbandsRuleError(f"{what} would make the warband {points_now + adding} points; "
                                f"no warband may be larger than {cap} points (it is {points_now})")


def check_xp(xp: int, cost: int, what: str) -> None:
    if cost > xp:
        raise WarbandsRuleError(f"{what}: {cost} XP, and the warband has {xp}")


# --- R6–R12: Veteran Status ---------------------------------------------------------------------


def survived(starting: int, survivors: int) -> bool:
    """R6: survived "with more than 50% of its starting numbers" — in integers, 2 × survivors > starting."""
    if starting < 1 or not 0 <= survivors <= starting:
        raise WarbandsRuleError(f"a unit that began with {plural(starting, 'model')} cannot end with {survivors}")
    return 2 * survivors > starting


def survivors_after_recovery(starting: int, casualties: int, recovered: int) -> int:
    """R7: survival is counted AFTER Recovery: the models left standing plus those who recover."""
    if not 0 <= casualties <= starting:
        raise WarbandsRuleError(f"a unit of {plural(starting, 'model')} cannot lose {casualties}")
    if not 0 <= recovered <= casualties:
        raise WarbandsRuleError(f"{plural(recovered, 'model')} cannot recover out of {plural(casualties, 'casualty')}")
    return starting - casualties + recovered


class VeteranOutcome(msgspec.Struct, frozen=True, kw_only=True):
    level: int
    eligible: bool
    lost_status: bool = False  # R11: it had Veteran Status and lost it in this battle
    banked: bool = False  # eligible from an earlier battle only, kept under `banked` (U8)


def veteran_after_battle(unit: Unit, starting: int, survivors: int, eligibility: str = "latest-battle") -> VeteranOutcome:
    """R6, R11, R12: what a battle (survivors counted after Recovery, R7) does to a unit's status.

    More than half survived: eligible for the next level (a +3 unit has none left). Half or
    fewer: a Veteran unit loses all of its status at once (R11); a unit without status only
    gains nothing (R12), and an unused eligibility lapses unless it is `banked` (U8)."""
    if survived(starting, survivors):
        return VeteranOutcome(level=unit.veteran, eligible=unit.veteran < MAX_VETERAN_LEVEL)
    if unit.veteran:
        return VeteranOutcome(level=0, eligible=False, lost_status=True)
    kept = unit.eligible and eligibility == "banked"
    return VeteranOutcome(level=0, eligible=kept, banked=kept)


def at_the_highest_level(unit_name: str) -> str:
    """Why a +3 unit gains no level: "+3 Veteran Status (the highest level of Veteran Status)"."""
    return f"{unit_name} is already +{MAX_VETERAN_LEVEL}, the highest Veteran Status"


def veteran_upgrade(unit: Unit, xp: int) -> int:
    """R8: the next level for 10 XP, one level at a time, each from its own qualifying battle."""
    if unit.veteran >= MAX_VETERAN_LEVEL:
        raise WarbandsRuleError(at_the_highest_level(unit.name))
    if not unit.eligible:
        since = "since its last upgrade " if unit.veteran else ""
        raise WarbandsRuleError(f"{unit.name} has not survived a battle {since}with more than 50% of its "
                                f"starting numbers: not eligible for +{unit.veteran + 1}")
    check_xp(xp, VETERAN_UPGRADE_XP, f"+{unit.veteran + 1} Veteran Status for {unit.name}")
    return unit.veteran + 1


def veteran_rerolls(level: int) -> int:
    """R9: one reroll of a single die per game for each level of Veteran Status."""
    return level


def veteran_recruits_cost(unit: Unit, models: int, xp: int, points_now: int, cap: int) -> int:
    """R10: a Veteran unit may buy recruits with XP, each at its army-book points and no more;
    they count toward the cap (R3)."""
    if models < 1:  # a mistake in the command, as `recruit --models 0` is (exit 2), not a refusal
        raise BadInput(f"Veteran recruits are at least 1 model, not {models}")
    if not unit.veteran:
        raise WarbandsRuleError(f"{unit.name} has no Veteran Status: only Veteran units take Veteran recruits")
    cost = models * unit.points_per_model
    recruits = f"{models} recruit{'s' if models != 1 else ''} for {unit.name}"
    check_points_cap(points_now, cost, cap, recruits)
    check_xp(xp, cost, f"{recruits} at {unit.points_per_model} points each")
    return cost


# --- R13–R23: character Archetypes ----------------------------------------------------------------


def check_archetype(warband_type: str, archetype: str, allowed: Collection[str] | None, archetypes: Collection[str]) -> None:
    """R13: the Archetype must be one the Archetype Table allows the warband's type. With the
    table's row not supplied (`allowed` None), any Archetype is accepted. R14: two characters
    of a warband may share an Archetype; nothing here forbids it."""
    if archetype not in archetypes:  # a name unknown is bad input (exit 2), as everywhere
        raise BadInput(f"'{archetype}' is not an Archetype (Archetypes: {', '.join(archetypes)})")
    if allowed is not None and archetype not in allowed:
        raise WarbandsRuleError(f"{warband_type} characters may not be {archetype}s "
                                f"(the Archetype Table allows {', '.join(allowed)})")


def survived_battle(character: Character, alive_after_injury: bool) -> Character:
    """R16: a battle counts as survived when the character is alive after any Injury roll."""
    if not alive_after_injury:
        return character
    return msgspec.structs.replace(character, survived_since_ability=character.survived_since_ability + 1)


def check_advancement(character: Character, xp: int) -> None:
    """R16, R17: three or more battles survived since joining or the last ability, 25 XP,
    and fewer than five Archetype Abilities."""
    if len(character.abilities) >= MAX_ARCHETYPE_ABILITIES:
        raise WarbandsRuleError(f"{character.name} has {SIX_ABILITIES}")
    if character.survived_since_ability < BATTLES_BEFORE_ADVANCEMENT:
        since = "since his last Archetype Ability" if character.abilities else "since joining"
        raise WarbandsRuleError(f"{character.name} has survived {character.survived_since_ability} of the "
                                f"{BATTLES_BEFORE_ADVANCEMENT} battles {since} needed to roll on the Advancement Table")
    check_xp(xp, ADVANCEMENT_XP, f"a roll on the {character.archetype} Advancement Table")


class AdvancementResult(msgspec.Struct, frozen=True, kw_only=True):
    value: int  # the die's result
    row: str
    ability: str
    outcome: Literal["gained", "already-held", "useless-rerolled", "useless-stands"]


def advancement_roll(character: Character, die: str, rows: Mapping[int, tuple[str, str]], rolled: Rolled,
                     useless: Collection[str] = (), useless_rerolls: int | None = None) -> list[AdvancementResult]:
    """R17, R19, U5: roll the Archetype's Advancement Table (`die`) until an ability is gained.
    `rows` maps a result to (row id, ability). A result the character already holds is rolled
    again (U5); one the player declares useless to him is rolled again (R19) — the Starting
    Ability is never on the table, so it is never rerolled — unless `useless_rerolls` (None: no
    limit) have been made: the warband can pay for no more (U9), and it stands. Each roll comes
    from `rolled` (the kit's dice protocol: `MoreDice` asks for the next one)."""
    abilities = {ability for _row, ability in rows.values()}
    if abilities <= {*character.abilities, *useless}:
        raise WarbandsRuleError(f"every result on the {character.archetype} Advancement Table is held by "
                                f"{character.name} or useless to him")
    results = []
    for index in itertools.count():
        value = value_of(die, rolled.next(index, die, f"{character.archetype} Advancement Table for {character.name}"))
        row, ability = rows[value]
        if ability in character.abilities:
            results.append(AdvancementResult(value=value, row=row, ability=ability, outcome="already-held"))
        elif ability in useless:
            made = sum(x.outcome == "useless-rerolled" for x in results)
            if useless_rerolls is not None and made >= useless_rerolls:
                results.append(AdvancementResult(value=value, row=row, ability=ability, outcome="useless-stands"))
                return results
            results.append(AdvancementResult(value=value, row=row, ability=ability, outcome="useless-rerolled"))
        else:
            results.append(AdvancementResult(value=value, row=row, ability=ability, outcome="gained"))
            return results
    raise AssertionError("unreachable: itertools.count() never ends")


def amnesia(character: Character) -> tuple[str, ...]:
    """R18, U4: amnesia takes every Archetype Ability (the Starting Ability stays); the WBR they
    added goes with them (R5)."""
    return character.abilities


def stacked(bonuses: Sequence[int]) -> int:
    """R20: abilities never stack with each other or other sources of the same effect: the
    player uses one of them (the best), never their sum."""
    return max(bonuses, default=0)


def scenario_terms(side_a: Collection[str], side_b: Collection[str], effects: Mapping[str, str]) -> tuple[set[str], set[str]]:
    """R21: abilities that set the scenario's terms cancel out when both sides have one with the
    same effect. `effects` maps an ability to the term it sets; what is left for each side."""
    a_terms = {effects[x] for x in side_a if x in effects}
    b_terms = {effects[x] for x in side_b if x in effects}
    return a_terms - b_terms, b_terms - a_terms


ADVANTAGE_OF_GROUND = "Advantage of Ground"


def little_war_chooser(side_a: Collection[str], side_b: Collection[str]) -> str | None:
    """R22 (with R21): which side picks whether it is Player A or B in the Little War scenario:
    the one whose character has Advantage of Ground, unless both have it (then neither)."""
    a, b = scenario_terms(side_a, side_b, {ADVANTAGE_OF_GROUND: "little-war-roles"})
    return "a" if a else "b" if b else None


def abilities_in_play(abilities: Sequence[str], on_table: bool) -> tuple[str, ...]:
    """R23: Archetype Abilities work only while the character is on the tabletop."""
    return tuple(abilities) if on_table else ()


# --- R24–R25: campaign start ------------------------------------------------------------------------


def check_starting_size(points_now: int, adding: int, starting_points: int, what: str) -> None:
    """R24: a starting warband is built to at most 250 points."""
    if points_now + adding > starting_points:
        raise WarbandsRuleError(f"{what} would make the starting warband {points_now + adding} points; "
                                f"a warband starts with at most {starting_points}")


def starting_xp(starting_points: int, points_spent: int) -> int:
    """R25: starting points not spent become Experience Points, one for one."""
    return starting_points - points_spent
