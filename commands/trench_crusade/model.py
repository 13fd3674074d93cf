"""The ledger's state read in Trench Crusade's terms: options and tables, factions, the rules' view
of a fighter and of the warband's latest battle, and the Advancement Rolls owed. No events are
emitted here."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from commands.kit import Options, Phase, derived_from_tables, injuries_held, option_defaults, options_of
from commands.kit import check_options as checked_options
from commands.kit.versions import plays
from commands.shared import slug
from ledger import events as ev
from ledger.errors import BadInput, RuleViolation
from ledger.state import CampaignState, Fighter, Warband
from projections.battles import fought

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


@derived_from_tables  # the log names the deeds, the scenario and the skill tables of every battle record and roll
def _row_names(tables: TrenchCrusadeTables) -> dict[str, dict[str, str]]:
    return {"deed": {deed.id: deed.name for deed in tables.glorious_deeds.deeds},
            "scenario": {scenario.id: scenario.name for scenario in tables.glorious_deeds.scenarios},
            "skill-table": {skills.id: skills.name for skills in tables.advancement_skills.tables},
            "faction": FACTIONS,
            "xp-award": {award.id: award.name for award in tables.experience.awards if award.name},
            "limited-potential": {row.id: name for row in tables.limited_potential.rows if (name := row.model or row.keyword)}}


def row_names(state: CampaignState) -> dict[str, dict[str, str]]:
    """Each Glorious Deed's and each scenario's name by its id, as the campaign's own glorious-deeds
    table gives them, each Advancement skill table's, each faction's, each XP award's ("glorious-deed": "Glorious
    Deed", which an award's reason records) and each Limited Potential model's ("house/war-prophet": "War Prophet",
    which an XP cap's reason records) (`Ruleset.row_names`)."""
    return _row_names(tables_for(state))


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
    if not text.strip():
        raise BadInput(f"a Trench Crusade warband is enlisted with its faction: give --faction one of {', '.join(FACTIONS)}")
    raise BadInput(f"'{text}' is not a Trench Crusade faction: give --faction one of {', '.join(FACTIONS)}")


# --- the rules' view of the state ----------------------------------------------------------


def xp_blocking_rows(state: CampaignState, fighter: Fighter, tables: TrenchCrusadeTables) -> list[str]:
    """The trauma rows that stop the model gaining XP (Head Wound), but for those a Promotion 6 lifted."""
    facts = events.model_facts(state, fighter.id)
    stopping = _xp_stopping_rows(tables)
    return [row for row in facts.trauma_rows[facts.xp_restored_after or 0:] if row in stopping]


@derived_from_tables  # every model of a roster is asked about, at every XP award and post-game step
def _xp_stopping_rows(tables: TrenchCrusadeTables) -> frozenset[str]:
    return frozenset(row.id for row in tables.trauma.elite if row.stops_xp)


def model_of(state: CampaignState, fighter: Fighter) -> str:
    """Its Faction List entry; a fighter added with the shared `fighter add` is read by its role."""
    return events.model_facts(state, fighter.id).model or fighter.role


def listed_spelling(model: str, tables: TrenchCrusadeTables) -> str:
    """The name a model list (non-promotable, Limited Potential) gives a model typed in the singular
    or the plural of it ("Ecclesiastic Prisoner" for "Ecclesiastic Prisoners", "Homunculus" for
    "Homunculi", "Communicants" for "Communicant"); any other name as typed."""
    return _spellings(tables).get(model.casefold(), model)


@derived_from_tables  # a roster asks for each of its models at every command
def _spellings(tables: TrenchCrusadeTables) -> dict[str, str]:
    """Every spelling `listed_spelling` knows, to the list's name."""
    spellings: dict[str, str] = {}
    for row in (*tables.non_promotable.rows, *tables.limited_potential.rows):
        for name in (row.model, *row.aliases) if row.model else ():
            for variant in _number_variants(name.casefold()):
                spellings.setdefault(variant, row.model)
    return spellings


def _number_variants(name: str) -> set[str]:
    """The name, and the name with one of its words turned from plural to singular or back."""
    words = name.split()
    variants = {name}
    for index, word in enumerate(words):
        if word.endswith("i"):
            other = word[:-1] + "us"
        elif word.endswith("us"):
            other = word[:-2] + "i"
        elif word.endswith("s"):
            other = word[:-1]
        else:
            other = word + "s"
        variants.add(" ".join([*words[:index], other, *words[index + 1:]]))
    return variants


def rules_fighter(state: CampaignState, fighter: Fighter, tables: TrenchCrusadeTables) -> rules.Fighter:
    facts = events.model_facts(state, fighter.id)
    model = model_of(state, fighter)
    return rules.Fighter(
        fighter_id=fighter.id,
        name=fighter.name,
        # From 1.2.0 a model the lists name in the other number is theirs: typed singular for one
        # model, "Ecclesiastic Prisoner" was promoted as a model the list did not know.
        model=listed_spelling(model, tables) if plays(state, "1.2.0") else model,
        keywords=frozenset(fighter.keywords),
        xp=fighter.xp,
        skills=frozenset(fighter.skills),
        injuries=tuple(facts.trauma_rows),
        battle_scars=facts.battle_scars or 0,
        xp_blocked=bool(xp_blocking_rows(state, fighter, tables)),
    )


def roster_of(state: CampaignState, band: Warband, tables: TrenchCrusadeTables) -> list[rules.Fighter]:
    """The models on the warband's roster now (dead, captured and removed ones are not)."""
    return [rules_fighter(state, fighter, tables) for fighter in state.fighters_of(band.id)]


def elite_at_phase_start(state: CampaignState, band: Warband, roster: Sequence[rules.Fighter]) -> int:
    """The ELITE counted for "Ignore the Promotion step completely if there are already 6 or more models
    with the ELITE Keyword in your Warband at the start of the Promotions & Experience Phase": from 1.6.0
    those the warband had when its Trauma step was done (`PromotionsPhaseBegun`), as they stand now on
    the roster (a ransomed captive counts, an executed one does not), and not those recruited since;
    1.0.0 to 1.5.0 counted the roster when the Promotions step ran, recruits included (so does a
    campaign upgraded to 1.6.0 after its Trauma step, which recorded no count: an upgrade part way through a
    post-game is refused now, `commands.shared.upgrade_rules`, but one recorded before is decided again as it was)."""
    kept = events.band_facts(state, band.id).last_battle
    battle = Phase.latest_battle(state, band)
    if (plays(state, "1.6.0") and kept is not None and kept.elite_at_phase_start is not None
            and battle is not None and kept.battle == battle.number):
        at_start = set(kept.elite_at_phase_start)
        roster = [fighter for fighter in roster if fighter.fighter_id in at_start]
    return rules.elite_count(roster)


def member(state: CampaignState, band: Warband, ref: str) -> Fighter:
    fighter = state.fighter(ref, band.id)
    if not fighter.active:
        raise RuleViolation(f"{fighter.name} is {fighter.status}")
    return fighter


def injuries_now(state: CampaignState, fighter: Fighter) -> list[str]:
    """The injuries a model has now: a Minor Wound (Trauma 35) "misses the next game" (rules §5) and does no more, so
    once that game is missed no roster lists it; its Battle Scar stays (counted with the scars). Every other injury
    lasts. The Trauma Step reads the rows rolled (`trauma_rows`), not this list: a Minor Wound rolled again is
    re-rolled as before."""
    return injuries_held(fighter, {row.name: row.missed_games for row in tables_for(state).trauma.elite
                                   if row.kind == "injury" and row.missed_games})


def refuse_naming_a_model_that_must_miss(state: CampaignState, warbands: Sequence[str], named: Sequence[str]) -> None:
    """A model with a game to miss for an injury (Minor Wound: "misses the next game") is left out of
    the Force by the battle command itself; one named as fighting in it (Out of Action, taking an enemy
    out, doing a deed) is refused saying why: the shared reading of the names (`deeds_for`) says only
    that it "did not fight in this battle"."""
    theirs = [f for band in warbands for f in state.fighters_of(state.warband(band).id, active_only=False)]
    for name in named:
        fighter = state.fighter_among(name, theirs)
        if fighter is not None and fighter.missed_games:
            raise RuleViolation(f"{fighter.name} must miss this battle ({_missing_for(state, fighter)}): the Force is "
                                f"recorded without {fighter.name}, so do not name {fighter.name} in it")


def _missing_for(state: CampaignState, fighter: Fighter) -> str:
    """The injury the model misses games for: its latest trauma row that misses games."""
    rows = {row.id: row for row in tables_for(state).trauma.elite if row.missed_games}
    return next((rows[row].name for row in reversed(events.model_facts(state, fighter.id).trauma_rows) if row in rows),
                "injured")


class CampaignBattle(NamedTuple):
    """A warband's latest battle, as its Campaign Phase reads it."""

    number: int
    record: rules.BattleRecord
    enemies: list[str]


def latest_battle(state: CampaignState, band: Warband) -> CampaignBattle:
    """Who fought, who went Out of Action and who did which Glorious Deed are the core's (its latest
    battle's deeds); the warband's side and its warband-level deeds are its battle-record's."""
    battle = Phase.latest_battle(state, band)
    if battle is None:
        raise RuleViolation(f"{band.name} has not fought a battle yet")
    kept = events.band_facts(state, band.id).last_battle
    own = kept if kept is not None and kept.battle == battle.number else events.LatestBattle(battle=battle.number)
    return CampaignBattle(
        number=battle.number,
        enemies=[w for w in battle.participants if w != band.id],
        record=warband_record(band.id, battle.scenario, battle.winner, fought(battle, band.id, state), own.warband_deeds, own.side),
    )


def warband_record(band: str, scenario: str, winner: str | None, mine: Sequence[ev.Deed], warband_deeds: Sequence[str],
                   side: str | None) -> rules.BattleRecord:
    """One warband's side of a battle in the rules' terms: its fighters' deeds, then the warband's own."""
    return rules.BattleRecord(
        scenario_id=scenario,
        result="draw" if winner is None else "win" if winner == band else "loss",
        participants=tuple(deed.fighter for deed in mine),
        out_of_action=tuple(deed.fighter for deed in mine if deed.out_of_action),
        deeds=tuple([rules.DeedRecord(deed_id=d, fighter_id=deed.fighter) for deed in mine for d in deed.glorious_deeds]
                    + [rules.DeedRecord(deed_id=d) for d in warband_deeds]),
        side=side,
    )


def advancements_due(state: CampaignState, band: Warband) -> dict[str, int]:
    """Advancement Rolls owed, by fighter id."""
    due = {f.id: events.model_facts(state, f.id).advancements_due or 0 for f in state.fighters_of(band.id)}
    return {fighter: owed for fighter, owed in due.items() if owed > 0}
