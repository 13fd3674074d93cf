"""Warbands' own events, the ruleset's typed facts (`WarbandsFacts`) and their fold (`FOLDS`).

The shared vocabulary carries what it has names for: a warband's Experience Points are its
treasury (`treasury.changed`: starting points left over, awards and every purchase), units and
characters join with `fighter.recruited` (a unit is a group: `cost` is its points per model,
`group_size` its models), Veteran Status is a keyword (`keyword.gained` / `keyword.lost`
"Veteran +1" … "Veteran +3"), the Starting Ability and every Archetype Ability are skills
(`skill.learned`), injuries and deaths are `injury.suffered` and `fighter.died`. An event here
records what has no shared name:

- `warbands.archetype`: the Archetype a character joined with; it never changes (R14) and
  picks his Advancement Table, so it must be a fact in the stream;
- `warbands.casualties`: one warband's side of a battle — each unit's starting numbers and the
  models it lost (removed or fled), and the characters removed as casualties; the shared
  `battle.recorded` keeps only whether a fighter went out of action;
- `warbands.recovery`: a unit's Recovery (casualties, how many recovered, the models it has
  now): survival is judged on it (R7) and no shared fact counts a unit's models;
- `warbands.recruits-joined`: Veteran recruits bought into a unit (R10);
- `warbands.veteran-eligibility`: a unit's eligibility for its next level, judged from a battle
  (R6, R12) or used up by an upgrade (R8): the one-step-per-battle rule needs it as a fact;
- `warbands.battle-survived`: a character's battles survived since his last ability (R16);
- `warbands.advancement`: a roll on an Advancement Table, each result read and why it was
  rolled again (R19, U5), or why a useless one stands (U9, version 6); the count of battles
  restarts here (R17);
- `warbands.abilities-lost`: Archetype Abilities taken away by amnesia (R18): the shared
  vocabulary can learn a skill but not lose one;
- `warbands.injury-recovered`: a character's injury roll that left him unhurt, with the row's name
  (version 4): `injury.suffered` would give him an injury.
"""

from __future__ import annotations

import msgspec

from commands.kit import Facts, Folds, RulesetFacts
from ledger import events as ev
from ledger.describe import because, fighter_name, plural, warband_name
from ledger.state import CampaignState, Fighter

from .rules import MAX_ARCHETYPE_ABILITIES, MAX_VETERAN_LEVEL, SIX_ABILITIES, at_the_highest_level

UNIT, CHARACTER = "unit", "character"  # the two roles of Warbands fighters


def veteran_keyword(level: int) -> str:
    return f"Veteran +{level}"


def an_archetype(archetype: str) -> str:
    """"an Intellectual", "a Noble"."""
    return f"{'an' if archetype[:1] in 'AEIOU' else 'a'} {archetype}"


@ev.event_type
class ArchetypeChosen(ev.Event, frozen=True, kw_only=True, tag="warbands.archetype"):
    warband: str
    fighter: str
    archetype: str
    starting_ability: str

    def describe(self, state: CampaignState) -> str:
        ability = self.starting_ability  # some are named for their archetype: "the Magician Starting Ability"
        said = f"the {ability}" if ability.endswith("Starting Ability") else f"the Starting Ability {ability}"
        return f"{fighter_name(state, self.fighter)} is {an_archetype(self.archetype)}, with {said}"


class UnitCasualties(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    fighter: str
    starting: int  # models when the battle began
    removed: int = 0  # removed as casualties
    fled: int = 0  # fled the table


@ev.event_type
class CasualtiesRecorded(ev.Event, frozen=True, kw_only=True, tag="warbands.casualties"):
    warband: str
    battle: int
    result: str  # win, draw or loss, as the tables read it
    units: list[UnitCasualties] = []
    characters: list[str] = []  # characters that fought
    characters_down: list[str] = []  # characters removed as casualties (they roll for injury)

    def describe(self, state: CampaignState) -> str:
        lost = [f"{fighter_name(state, u.fighter)} {u.removed + u.fled} of {u.starting}"
                for u in self.units if u.removed + u.fled]
        down = [fighter_name(state, c) for c in self.characters_down]
        return (f"{warband_name(state, self.warband)}, battle {self.battle} ({self.result}): "
                f"casualties {', '.join(lost) or 'none'}; characters down {', '.join(down) or 'none'}")


@ev.event_type
class UnitRecovered(ev.Event, frozen=True, kw_only=True, tag="warbands.recovery"):
    warband: str
    fighter: str
    battle: int
    starting: int
    casualties: int
    recovered: int
    survivors: int  # the unit's models from now on
    row: str = ""  # the recovery table's row, or "" when the players said how many recovered

    def describe(self, state: CampaignState) -> str:
        if not self.casualties:
            return f"{fighter_name(state, self.fighter)}: no casualties; {plural(self.survivors, 'model')}"
        return (f"{fighter_name(state, self.fighter)}: {self.recovered} of {plural(self.casualties, 'casualty')} "
                f"recovered; {self.survivors} of {plural(self.starting, 'model')} after Recovery")


@ev.event_type
class RecruitsJoined(ev.Event, frozen=True, kw_only=True, tag="warbands.recruits-joined"):
    warband: str
    fighter: str
    models: int

    def describe(self, state: CampaignState) -> str:
        joins = "joins" if self.models == 1 else "join"
        return f"{plural(self.models, 'Veteran recruit')} {joins} {fighter_name(state, self.fighter)}"


@ev.event_type
class VeteranEligibility(ev.Event, frozen=True, kw_only=True, tag="warbands.veteran-eligibility"):
    warband: str
    fighter: str
    eligible: bool
    reason: str
    battle: int | None = None  # the battle judged; None when an upgrade used the eligibility up

    def describe(self, state: CampaignState) -> str:
        unit = fighter_name(state, self.fighter)
        if self.battle is None:  # an upgrade used it ("used for +1"): not a battle that fell short
            return f"{unit} is no longer eligible for a Veteran level: its eligibility was {self.reason}"
        if self.eligible:
            return f"{unit} eligible for its next Veteran level{because(self.reason, state)}"
        fighter = state.fighters.get(self.fighter)
        # the state is the one just after the judging: a +3 unit that fell short has lost its status by then
        if fighter is not None and veteran_keyword(MAX_VETERAN_LEVEL) in fighter.keywords:
            return f"{at_the_highest_level(unit)}{because(self.reason, state)}"
        return f"{unit} not eligible for a Veteran level{because(self.reason, state)}"


@ev.event_type
class BattleSurvived(ev.Event, frozen=True, kw_only=True, tag="warbands.battle-survived"):
    warband: str
    fighter: str
    battle: int
    survived_since_ability: int

    def describe(self, state: CampaignState) -> str:
        fighter = state.fighters.get(self.fighter)
        held = len(archetype_abilities(state, fighter)) if fighter is not None else 0
        return (f"{fighter_name(state, self.fighter)} survived battle {self.battle}: "
                f"{toward_the_next_ability(held, self.survived_since_ability)}")


class AdvancementRead(msgspec.Struct, frozen=True, kw_only=True):
    roll: int  # the roll number
    value: int
    row: str
    ability: str
    outcome: str  # gained, already-held, useless-rerolled, useless-stands (version 6: no reroll the warband can pay)


REROLLED = {"already-held": "already held", "useless-rerolled": "useless to him"}  # a read rolled again, and why


@ev.event_type
class AdvancementRolled(ev.Event, frozen=True, kw_only=True, tag="warbands.advancement"):
    warband: str
    fighter: str
    archetype: str
    reads: list[AdvancementRead]
    ability: str
    reason: str = ""  # why the ability stands though declared useless (version 6), "" for one gained

    def describe(self, state: CampaignState) -> str:
        again = [f"{r.ability} ({REROLLED[r.outcome]})" for r in self.reads if r.outcome in REROLLED]
        rerolled = f", after rerolling {', '.join(again)}" if again else ""
        return (f"{fighter_name(state, self.fighter)} rolls on the {self.archetype} Advancement Table: "
                f"{self.ability}{because(self.reason, state)}{rerolled}")


@ev.event_type
class AbilitiesLost(ev.Event, frozen=True, kw_only=True, tag="warbands.abilities-lost"):
    warband: str
    fighter: str
    abilities: list[str]
    reason: str

    def describe(self, state: CampaignState) -> str:
        return f"{fighter_name(state, self.fighter)} loses {', '.join(self.abilities)}{because(self.reason, state)}"


@ev.event_type
class InjuryRecovered(ev.Event, frozen=True, kw_only=True, tag="warbands.injury-recovered"):
    warband: str
    fighter: str
    injury: str  # the Character Injury Table row's name, or "Full Recovery" as the players told it
    row: str = ""  # the row, or "" when the players said what the roll did

    def describe(self, state: CampaignState) -> str:
        return f"{fighter_name(state, self.fighter)} recovers: {self.injury}"


# --- the ruleset's facts and their fold ---------------------------------------------------------------


class CharacterFacts(msgspec.Struct, kw_only=True):
    archetype: str
    starting_ability: str
    survived_since_ability: int = 0  # battles survived since joining or his last Archetype Ability (R16, R17)


class WarbandsFacts(RulesetFacts, kw_only=True):
    """What only Warbands keeps: each warband's side of its latest battle, each character's
    Archetype and count, each unit's eligibility for its next Veteran level (R6, R8)."""

    last_battle: dict[str, CasualtiesRecorded] = {}  # warband id -> its side of its latest battle
    characters: dict[str, CharacterFacts] = {}  # fighter id -> his Archetype facts
    eligible: dict[str, bool] = {}  # unit id -> eligible for its next Veteran level


FACTS = Facts("warbands", WarbandsFacts)
FOLDS = Folds(FACTS)


def toward_the_next_ability(abilities: int, survived: int) -> str:
    """Where a character with so many Archetype Abilities stands toward his next one (R16, R17)."""
    if abilities >= MAX_ARCHETYPE_ABILITIES:
        return SIX_ABILITIES
    return f"{plural(survived, 'battle')} survived toward the next Archetype Ability"


def archetype_abilities(state: CampaignState, fighter: Fighter) -> tuple[str, ...]:
    """A character's Archetype Abilities: his skills but the Starting Ability (R2, R17)."""
    facts = FACTS.of(state).characters.get(fighter.id)
    return tuple(s for s in fighter.skills if facts is None or s != facts.starting_ability)


@FOLDS.on(ArchetypeChosen)
def _archetype(facts: WarbandsFacts, e: ArchetypeChosen, state: CampaignState) -> None:
    facts.characters[e.fighter] = CharacterFacts(archetype=e.archetype, starting_ability=e.starting_ability)


@FOLDS.on(CasualtiesRecorded)
def _casualties(facts: WarbandsFacts, e: CasualtiesRecorded, state: CampaignState) -> None:
    facts.last_battle[e.warband] = e


@FOLDS.on(UnitRecovered)
def _recovered(facts: WarbandsFacts, e: UnitRecovered, state: CampaignState) -> None:
    if fighter := state.fighters.get(e.fighter):
        fighter.group_size = e.survivors


@FOLDS.on(RecruitsJoined)
def _joined(facts: WarbandsFacts, e: RecruitsJoined, state: CampaignState) -> None:
    if fighter := state.fighters.get(e.fighter):
        fighter.group_size += e.models


@FOLDS.on(VeteranEligibility)
def _eligibility(facts: WarbandsFacts, e: VeteranEligibility, state: CampaignState) -> None:
    facts.eligible[e.fighter] = e.eligible


@FOLDS.on(BattleSurvived)
def _survived(facts: WarbandsFacts, e: BattleSurvived, state: CampaignState) -> None:
    if character := facts.characters.get(e.fighter):
        character.survived_since_ability = e.survived_since_ability


@FOLDS.on(AdvancementRolled)
def _advanced(facts: WarbandsFacts, e: AdvancementRolled, state: CampaignState) -> None:
    if character := facts.characters.get(e.fighter):
        character.survived_since_ability = 0


@FOLDS.on(AbilitiesLost)
def _forgotten(facts: WarbandsFacts, e: AbilitiesLost, state: CampaignState) -> None:
    if fighter := state.fighters.get(e.fighter):
        fighter.skills = [s for s in fighter.skills if s not in e.abilities]
