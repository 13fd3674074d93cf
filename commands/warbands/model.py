"""The campaign state as the Warbands rules see it: options, tables, units, characters,
points, Experience Points and the Warband Rating (the ruleset's `rating`)."""

from __future__ import annotations

import re
from typing import Any

from commands.kit import check_options as kit_check_options
from commands.kit import option_defaults, options_of
from ledger.errors import BadInput, RuleViolation
from ledger.state import CampaignState, Fighter, Warband

from . import events as we
from . import rules as r
from .tables import SEED_ROW_SIZES, TABLES, WarbandsTables, check_playable

DEFAULT_OPTIONS: dict[str, Any] = option_defaults(r.Options)


def _check_more(options: r.Options) -> None:
    """What the option types cannot say; the group's tables must load and be playable (TableError
    names the fault)."""
    for name in ("points_cap", "starting_points"):
        if getattr(options, name) < 1:
            raise BadInput(f"warbands option {name} must be a positive number of points")
    if options.starting_points > options.points_cap:
        raise BadInput(f"warbands option starting_points ({options.starting_points}) is above points_cap ({options.points_cap})")
    if options.useless_reroll_xp < 0:
        raise BadInput("warbands option useless_reroll_xp cannot be negative")
    check_playable(TABLES.for_options({"tables": options.tables}))


check_options = kit_check_options("warbands", r.Options, _check_more)


def campaign_options(state: CampaignState) -> r.Options:
    return options_of(state.options, r.Options)


def tables_of(state: CampaignState) -> WarbandsTables:
    return TABLES.for_options(state.options)


def _plain(text: str) -> str:
    words = re.sub(r"[^a-z0-9&]+", " ", text.lower().replace("’", "'")).strip()
    return re.sub(r"\band\b", "&", words)


def warband_type(text: str) -> str:
    """The seed's name of a warband type, from any spelling of it (case, apostrophes, "and" for "&")."""
    wanted = _plain(text)
    for known in SEED_ROW_SIZES:
        if _plain(known) == wanted:
            return known
    raise BadInput(f"'{text}' is not a warband type of the Archetype Table (types: {', '.join(SEED_ROW_SIZES)})")


# --- the rules' view ----------------------------------------------------------------------------


def veteran_level(fighter: Fighter) -> int:
    """The unit's Veteran Status: its highest `Veteran +N` keyword. One that gives no level
    ("Veteran +one", recorded through an arbiter's `correct` before version 3 refused it) is a
    keyword only: read as a level it stopped every command that reads the warband."""
    return max((level for k in fighter.keywords if k.startswith("Veteran +")
                for level in [_whole_number(k.removeprefix("Veteran +"))] if level is not None), default=0)


def _whole_number(text: str) -> int | None:
    try:
        return int(text)
    except ValueError:
        return None


def as_unit(state: CampaignState, fighter: Fighter) -> r.Unit:
    return r.Unit(name=fighter.name, models=fighter.group_size, points_per_model=fighter.cost,
                  veteran=veteran_level(fighter), eligible=we.FACTS.of(state).eligible.get(fighter.id, False))


def as_character(state: CampaignState, fighter: Fighter) -> r.Character:
    """The character as the rules see him: his Archetype Abilities are his skills but the Starting Ability."""
    facts = we.FACTS.of(state).characters.get(fighter.id) or we.CharacterFacts(archetype="", starting_ability="")
    return r.Character(name=fighter.name, points=fighter.cost, archetype=facts.archetype,
                       starting_ability=facts.starting_ability,
                       abilities=we.archetype_abilities(state, fighter),
                       survived_since_ability=facts.survived_since_ability)


def units_of(state: CampaignState, warband: str) -> list[Fighter]:
    return [f for f in state.fighters_of(warband) if f.role == we.UNIT]


def characters_of(state: CampaignState, warband: str) -> list[Fighter]:
    return [f for f in state.fighters_of(warband) if f.role == we.CHARACTER]


def points(state: CampaignState, warband: str) -> int:
    return r.warband_points([as_unit(state, f) for f in units_of(state, warband)],
                            [as_character(state, f) for f in characters_of(state, warband)])


def rating_lines(state: CampaignState, warband: str) -> list[r.RatingLine]:
    return r.rating_lines([as_unit(state, f) for f in units_of(state, warband)],
                          [as_character(state, f) for f in characters_of(state, warband)],
                          campaign_options(state).wbr_base)


def rating(state: CampaignState, warband: str) -> int:
    """The Warband Rating (R4a): kept by the read models after every transaction."""
    return sum(line.points for line in rating_lines(state, warband))


def founded(band: Warband) -> bool:
    """A warband is being built (R24) until it fights its first battle; from then on what is
    left of its starting points is Experience Points (R25)."""
    return band.games > 0


def warband_unit(state: CampaignState, band: Warband, ref: str) -> Fighter:
    fighter = state.fighter(ref, band.id)
    if fighter.role != we.UNIT or not fighter.active:
        raise RuleViolation(f"{fighter.name} is not a unit of {band.name}" if fighter.active else f"{fighter.name} is {fighter.status}")
    return fighter


def warband_character(state: CampaignState, band: Warband, ref: str) -> Fighter:
    fighter = state.fighter(ref, band.id)
    if fighter.role != we.CHARACTER or not fighter.active:
        raise RuleViolation(f"{fighter.name} is not a character of {band.name}" if fighter.active else f"{fighter.name} is {fighter.status}")
    return fighter
