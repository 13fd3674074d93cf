"""The ledger's state read in Trench Crusade's terms: options and tables, factions, the rules' view
of a fighter and of the warband's latest battle, and the Advancement Rolls owed. No events are
emitted here."""

from __future__ import annotations

from typing import Any, NamedTuple

from commands.kit import Options, option_defaults, options_of
from commands.kit import check_options as checked_options
from commands.shared import slug
from ledger.errors import RuleViolation
from ledger.state import CampaignState, Fighter, Warband

from . import events
from . import rules
from .tables import TABLES, TrenchCrusadeTables

class TrenchCrusadeOptions(Options, frozen=True, kw_only=True):
    """The house rules a Trench Crusade campaign may set (`dice`: who rolls by default, from Options)."""

    head_wound_promotion: bool = False  # v1.0 rules D5: a Head-Wounded ELITE takes Promotion Dice as a Troop
    promotion_stop_rule: rules.PromotionStopRule = "first-six"
    tables: dict[str, Any] = {}  # house rules: table name -> a whole replacement table


DEFAULT_OPTIONS = option_defaults(TrenchCrusadeOptions)
check_options = checked_options("trench-crusade", TrenchCrusadeOptions,
                                lambda given: TABLES.for_options({"tables": given.tables}))


def campaign_options(state: CampaignState) -> TrenchCrusadeOptions:
    return options_of(state.options, TrenchCrusadeOptions)


def tables_for(state: CampaignState) -> TrenchCrusadeTables:
    """The campaign's tables: the defaults with its house-rule replacements."""
    return TABLES.for_options(state.options)


def head_wound_promotion(state: CampaignState) -> bool:
    """House rule (v1.0, rules D5): a Head-Wounded ELITE takes Promotion Dice as a Troop; off, as the seed."""
    return campaign_options(state).head_wound_promotion


# The v1.0 factions by id (the ids the model lists use) and printed name.
FACTIONS = {
    "new-antioch": "Principality of New Antioch",
    "trench-pilgrims": "Trench Pilgrims",
    "iron-sultanate": "Sultanate of the Iron Wall",
    "heretic-legions": "Heretic Legions",
    "black-grail": "Cult of the Black Grail",
    "court-of-the-seven-headed-serpent": "Court of the Seven-Headed Serpent",
}


def faction_id(text: str) -> str:
    wanted = slug(text)
    for known, name in FACTIONS.items():
        if wanted in (known, slug(name)):
            return known
    raise RuleViolation(f"'{text}' is not a Trench Crusade faction (factions: {', '.join(FACTIONS)})")


# --- the rules' view of the state ----------------------------------------------------------


def xp_blocking_rows(fighter: Fighter, tables: TrenchCrusadeTables) -> list[str]:
    """The trauma rows that stop the model gaining XP (Head Wound), but for those a Promotion 6 lifted."""
    suffered = fighter.ext.get(events.TRAUMA_ROWS, [])[fighter.ext.get(events.XP_RESTORED_AFTER, 0):]
    stopping = {row.id for row in tables.trauma.elite if row.stops_xp}
    return [row for row in suffered if row in stopping]


def rules_fighter(fighter: Fighter, tables: TrenchCrusadeTables) -> rules.Fighter:
    suffered = fighter.ext.get(events.TRAUMA_ROWS, [])
    return rules.Fighter(
        fighter_id=fighter.id,
        name=fighter.name,
        model=fighter.ext.get(events.MODEL, fighter.role),
        keywords=frozenset(fighter.keywords),
        xp=fighter.xp,
        skills=frozenset(fighter.skills),
        injuries=tuple(suffered),
        battle_scars=fighter.ext.get(events.BATTLE_SCARS, 0),
        xp_blocked=bool(xp_blocking_rows(fighter, tables)),
    )


def roster_of(state: CampaignState, band: Warband, tables: TrenchCrusadeTables) -> list[rules.Fighter]:
    """The models on the warband's roster now (dead, captured and removed ones are not)."""
    return [rules_fighter(fighter, tables) for fighter in state.fighters_of(band.id)]


def member(state: CampaignState, band: Warband, ref: str) -> Fighter:
    fighter = state.fighter(ref, band.id)
    if not fighter.active:
        raise RuleViolation(f"{fighter.name} is {fighter.status}")
    return fighter


class CampaignBattle(NamedTuple):
    """A warband's latest battle, as its Campaign Phase reads it."""

    number: int
    record: rules.BattleRecord
    enemies: list[str]


def latest_battle(state: CampaignState, band: Warband) -> CampaignBattle:
    kept = band.ext.get(events.LAST_BATTLE)
    if kept is None:
        raise RuleViolation(f"{band.name} has not fought a battle yet")
    return CampaignBattle(
        number=kept["battle"],
        enemies=list(kept["enemies"]),
        record=rules.BattleRecord(
            scenario_id=kept["scenario"],
            result=kept["result"],
            participants=tuple(kept["force"]),
            out_of_action=tuple(kept["out_of_action"]),
            deeds=tuple(rules.DeedRecord(deed_id=d["deed"], fighter_id=d.get("fighter")) for d in kept["deeds"]),
            side=kept.get("side"),
        ),
    )




def advancements_due(state: CampaignState, band: Warband) -> dict[str, int]:
    """Advancement Rolls owed, by fighter id."""
    return {f.id: f.ext[events.ADVANCEMENTS_DUE] for f in state.fighters_of(band.id) if f.ext.get(events.ADVANCEMENTS_DUE, 0) > 0}
