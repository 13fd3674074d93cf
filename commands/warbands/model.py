"""The campaign state as the Warbands rules see it: options, tables, units, characters,
points, Experience Points and the Warband Rating (the ruleset's `rating`)."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any

import msgspec

from ledger.errors import BadInput, RuleViolation
from ledger.state import CampaignState, Fighter, Warband

from . import events as we
from . import rules as r
from .tables import SEED_ROW_SIZES, TableError, WarbandsTables, load_tables, with_house_rules

DEFAULT_TABLES = load_tables()


class CampaignOptions(r.Options, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The rules' options plus what the core reads (`dice`) and the group's own tables."""

    dice: str = "table"
    tables: dict[str, Any] = {}


DEFAULT_OPTIONS: dict[str, Any] = msgspec.to_builtins(CampaignOptions())


def check_options(options: dict[str, Any]) -> dict[str, Any]:
    """Options as pinned at `campaign new`: every key known, every value of its type, every
    table the group supplies checked as the defaults are (TableError is a BadInput)."""
    try:
        checked = msgspec.convert(options, CampaignOptions)
    except msgspec.ValidationError as error:
        raise BadInput(f"warbands option: {error} (options: {', '.join(DEFAULT_OPTIONS)})") from None
    for name in ("points_cap", "starting_points"):
        if getattr(checked, name) < 1:
            raise BadInput(f"warbands option {name} must be a positive number of points")
    if checked.starting_points > checked.points_cap:
        raise BadInput(f"warbands option starting_points ({checked.starting_points}) is above points_cap ({checked.points_cap})")
    if checked.useless_reroll_xp < 0:
        raise BadInput("warbands option useless_reroll_xp cannot be negative")
    with_house_rules(DEFAULT_TABLES, checked.tables)
    return msgspec.to_builtins(checked)


def options_of(state: CampaignState) -> CampaignOptions:
    return msgspec.convert(state.options, CampaignOptions)


@lru_cache(maxsize=32)
def _tables(overrides: str) -> WarbandsTables:
    return with_house_rules(DEFAULT_TABLES, json.loads(overrides))


def tables_of(state: CampaignState) -> WarbandsTables:
    try:
        return _tables(json.dumps(state.options.get("tables", {}), sort_keys=True))
    except TableError as error:  # checked at `campaign new`: only a hand-edited store gets here
        raise RuleViolation(str(error)) from None


def _plain(text: str) -> str:
    return re.sub(r"[^a-z0-9&]+", " ", text.lower().replace("’", "'")).strip()


def warband_type(text: str) -> str:
    """The seed's name of a warband type, from any spelling of it (case, apostrophes)."""
    wanted = _plain(text)
    for known in SEED_ROW_SIZES:
        if _plain(known) == wanted:
            return known
    raise RuleViolation(f"'{text}' is not a warband type of the Archetype Table (types: {', '.join(SEED_ROW_SIZES)})")


# --- the rules' view ----------------------------------------------------------------------------


def veteran_level(fighter: Fighter) -> int:
    return max((int(k.removeprefix("Veteran +")) for k in fighter.keywords if k.startswith("Veteran +")), default=0)


def as_unit(fighter: Fighter) -> r.Unit:
    return r.Unit(name=fighter.name, models=fighter.group_size, points_per_model=fighter.cost,
                  veteran=veteran_level(fighter), eligible=bool(fighter.ext.get(we.ELIGIBLE, False)))


def as_character(fighter: Fighter) -> r.Character:
    starting = fighter.ext.get(we.STARTING_ABILITY, "")
    return r.Character(name=fighter.name, points=fighter.cost, archetype=fighter.ext.get(we.ARCHETYPE, ""),
                       starting_ability=starting, abilities=tuple(s for s in fighter.skills if s != starting),
                       survived_since_ability=fighter.ext.get(we.SURVIVED, 0))


def units_of(state: CampaignState, warband: str) -> list[Fighter]:
    return [f for f in state.fighters_of(warband) if f.role == we.UNIT]


def characters_of(state: CampaignState, warband: str) -> list[Fighter]:
    return [f for f in state.fighters_of(warband) if f.role == we.CHARACTER]


def points(state: CampaignState, warband: str) -> int:
    return r.warband_points([as_unit(f) for f in units_of(state, warband)],
                            [as_character(f) for f in characters_of(state, warband)])


def rating_lines(state: CampaignState, warband: str) -> list[r.RatingLine]:
    return r.rating_lines([as_unit(f) for f in units_of(state, warband)],
                          [as_character(f) for f in characters_of(state, warband)],
                          state.options.get("wbr_base", "points"))


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
