"""Trench Crusade's own events, the ruleset's typed facts (`TrenchCrusadeFacts`) and their fold (`FOLDS`).

The shared vocabulary carries every consequence (KeywordGained ELITE, FighterPromoted,
XPAwarded with `requested` when capped, InjurySuffered, FighterDied, SkillLearned,
TreasuryChanged, ItemGained/ItemLost…). An event here records what has no shared name:

- `trench-crusade.promotion-die`: one Promotion Die with its face AND whether the failure
  streak made it count as a 6, and the streak the roster carries afterwards (the streak
  lives across battles, so it must be a fact in the stream, not a derived number); under the
  house rule `head_wound_promotion` a Head-Wounded ELITE's 6 is `xp_restored` instead of
  `promoted`: the die is the whole fact, so it needs no event of its own;
- `trench-crusade.promotion-pool` / `promotions-skipped`: how the pool was made and dealt
  (or that 6 ELITE skipped the step), so the audit trail explains every die;
- `trench-crusade.promotion-rolls-stopped` (from 1.7.0): the assigned dice never rolled and why rolling
  stopped (the first 6, 6 ELITE, or under `per-model` a promoted model's dice): no die's event says so,
  and the pool dealt more dice than were rolled;
- `trench-crusade.promotions-phase`: the ELITE the warband has when its Trauma step is done, the
  start of the Promotions & Experience Phase (from 1.6.0): the seed counts them "at the start of the
  Promotions & Experience Phase", and a warband may recruit before its Promotions step, so the
  count cannot be read off the roster when the step runs, and the state keeps no roster's past;
- `trench-crusade.trauma`: the Trauma table row with its Battle Scar count (no shared fact
  counts scars, and a 3rd makes the model Unfit for Duty);
- `trench-crusade.model`: the Faction List entry a fighter is (the model lists match it);
- `trench-crusade.battle-record`: one warband's side of a battle (its Force, casualties and
  Glorious Deeds, warband-level deeds included). The Campaign Phase reads who fought, who went
  Out of Action and each model's deeds from the core's battle; from this record only what the
  core does not keep: the warband's side and its warband-level deeds (deeds with no doer);
- `trench-crusade.glory`: Glory Points, a second currency beside ducats (the treasury);
- `trench-crusade.advancement-earned` / `advancement`: an Advancement Roll owed on
  reaching a circled XP box, and its two rolls with the result kept;
- `trench-crusade.exploration`: the final Exploration Roll and the location found;
- `trench-crusade.ransomed`: a Captured model bought back (it returns to the roster);
- `trench-crusade.kit-bought`: Battlekit or a Glory Item bought in the Quartermaster step, with
  the price paid, its currency and whether it is ELITE-only: selling it later gives back half
  of that price in that currency, and only an ELITE may be given ELITE-only kit, so the
  purchase must be a fact in the stream (the shared `item.gained` carries only the name).

A Campaign Phase step done is the shared `post-game.step-done`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from commands.kit import Facts, Folds, RulesetFacts
from ledger import events as ev
from ledger import rulesets
from ledger.describe import because, fighter_name, plural, warband_name
from ledger.state import CampaignState, Fighter, Warband
from ledger.text import possessive

DUCATS, GLORY_POINTS = "ducats", "glory"  # the two currencies a price is paid in


@ev.event_type
class ModelEntry(ev.Event, frozen=True, kw_only=True, tag="trench-crusade.model"):
    warband: str
    fighter: str
    model: str  # the Faction List entry, e.g. "Trench Pilgrim", "Grail Thralls"

    def describe(self, state: CampaignState) -> str:
        return f"{possessive(fighter_name(state, self.fighter))} Faction List entry: {self.model}"


class DeedEntry(msgspec.Struct, frozen=True, kw_only=True):
    deed: str  # a row of the glorious-deeds table
    fighter: str | None = None  # None: done by the warband, with no doer


@ev.event_type
class BattleRecordKept(ev.Event, frozen=True, kw_only=True, tag="trench-crusade.battle-record"):
    """One warband's record of a battle. The core's battle keeps who fought, who went Out of Action and
    each fighter's deeds (the Campaign Phase reads them there); warband-level deeds have no fighter to
    go with, and the side is the scenario's, so those two are read from here."""

    warband: str
    battle: int
    scenario: str
    result: str  # win, loss or draw
    enemies: list[str]  # the other warbands that fought
    force: list[str]  # fighter ids of the models that fought
    out_of_action: list[str] = []
    deeds: list[DeedEntry] = []
    side: str | None = None  # attacker or defender, when the scenario has sides

    def describe(self, state: CampaignState) -> str:
        deeds = ", ".join(f"{rulesets.row_name(state, 'deed', d.deed)} "
                          f"({fighter_name(state, d.fighter) if d.fighter else 'the warband'})" for d in self.deeds)
        return (f"{warband_name(state, self.warband)} in battle {self.battle}: {self.result}, {plural(len(self.force), 'model')} fought, "
                f"{len(self.out_of_action)} Out of Action; Glorious Deeds: {deeds or 'none'}")


def warband_deeds(event: ev.Event) -> list[tuple[str, str]]:
    """The Glorious Deeds a warband's battle-record keeps with no doer (Victory or Death): (warband id,
    deed id) each; the core's battle holds only the fighters' deeds."""
    if not isinstance(event, BattleRecordKept):
        return []
    return [(event.warband, deed.deed) for deed in event.deeds if deed.fighter is None]


@ev.event_type
class GloryChanged(ev.Event, frozen=True, kw_only=True, tag="trench-crusade.glory"):
    warband: str
    delta: int
    reason: str

    def describe(self, state: CampaignState) -> str:
        sign = "+" if self.delta >= 0 else ""
        return f"{warband_name(state, self.warband)} Glory {sign}{self.delta}{because(self.reason, state)}"


@ev.event_type
class TraumaResolved(ev.Event, frozen=True, kw_only=True, tag="trench-crusade.trauma"):
    """A model taken Out of Action: a Troop's Survival Roll or an ELITE's Trauma roll."""

    warband: str
    fighter: str
    rolls: list[int]  # the results used: a D6 face, or D66 results (repeats re-rolled)
    row: str  # the row of the trauma table's troop_survival or elite section
    result: str  # its name, e.g. "Minor Wound", "survives", "removed"
    rerolled: list[str] = []  # rows already suffered, rolled again
    battle_scars: int = 0  # after this result
    unfit_for_duty: bool = False
    enemies: list[str] = []  # the enemy warbands a Dark Memory / Prominent Scar is against

    def describe(self, state: CampaignState) -> str:
        shown = ", then ".join(str(roll) for roll in self.rolls)
        scars = f"; {plural(self.battle_scars, 'Battle Scar')}" if self.battle_scars else ""
        unfit = "; Unfit for Duty" if self.unfit_for_duty else ""
        enemy = f" (against {', '.join(warband_name(state, w) for w in self.enemies)})" if self.enemies else ""
        return f"{fighter_name(state, self.fighter)} rolled {shown} after going Out of Action: {self.result}{enemy}{scars}{unfit}"


class ExtraDice(msgspec.Struct, frozen=True, kw_only=True):
    source: str  # a row of the promotion-dice-sources table
    dice: int


class Excluded(msgspec.Struct, frozen=True, kw_only=True):
    fighter: str
    reason: str
    row: str | None = None  # the non-promotable row, when that is the reason


@ev.event_type
class PromotionPoolFormed(ev.Event, frozen=True, kw_only=True, tag="trench-crusade.promotion-pool"):
    warband: str
    size: int
    base: int
    glorious_deeds: int
    extra: list[ExtraDice] = []
    assignment: dict[str, int] = {}  # fighter id -> dice; empty when no Troop can take dice
    order: list[str] = []  # fighter id of each die, in the order the player rolls them
    excluded: list[Excluded] = []
    streak: int = 0  # dice rolled in a row without a promotion, before this step

    def describe(self, state: CampaignState) -> str:
        made_of = pool_made_of(self.base, self.glorious_deeds, [(extra.source, extra.dice) for extra in self.extra])
        dealt = ", ".join(f"{fighter_name(state, f)} {n}" for f, n in self.assignment.items() if n)
        where = f"; assigned {dealt}" if dealt else "; no Troop can take them, so they are lost"
        return f"{warband_name(state, self.warband)} Promotion Dice pool: {self.size} ({made_of}){where}"


def pool_made_of(base: int, glorious_deeds: int, extra: Sequence[tuple[str, int]]) -> str:
    """What a Promotion Dice pool is made of, as the step records it and the guided walk offers it:
    "1 base + 1 Glorious Deed + 1 from wildcard/show-off" (extra: each source with its dice)."""
    parts = [f"{base} base", *([plural(glorious_deeds, "Glorious Deed")] if glorious_deeds else [])]
    return " + ".join([*parts, *(f"{dice} from {source}" for source, dice in extra)])


@ev.event_type
class PromotionsPhaseBegun(ev.Event, frozen=True, kw_only=True, tag="trench-crusade.promotions-phase"):
    """The Trauma step is done: the Promotions & Experience Phase of that battle begins with these ELITE.
    A Captured one is listed: its ransom is settled before the phase goes on, and it counts if ransomed."""

    warband: str
    battle: int
    elite: list[str]  # fighter ids of the warband's ELITE models, active or Captured

    def describe(self, state: CampaignState) -> str:
        elite = ", ".join(fighter_name(state, f) for f in self.elite) or "none"
        return (f"{warband_name(state, self.warband)} begins the Promotions & Experience Phase of battle {self.battle} "
                f"with {plural(len(self.elite), 'ELITE model')}: {elite}")


@ev.event_type
class PromotionsSkipped(ev.Event, frozen=True, kw_only=True, tag="trench-crusade.promotions-skipped"):
    warband: str
    elite: int

    def describe(self, state: CampaignState) -> str:
        return f"{warband_name(state, self.warband)} has {self.elite} ELITE models: the Promotion step is skipped"


# Why rolling stopped (`rules.PromotionStop`), as the log says it; the first 6 is the die rolled last.
ROLLING_STOPPED = {
    "first-six": "{whose} die is the first 6, and a 6 ends the rolling",
    "elite-cap": "the warband has 6 ELITE models",
    "per-model": "a promoted model rolls no more of its dice",
}


@ev.event_type
class PromotionRollsStopped(ev.Event, frozen=True, kw_only=True, tag="trench-crusade.promotion-rolls-stopped"):
    warband: str
    stopped: str  # why (`rules.PromotionStop`): first-six, elite-cap or per-model
    unrolled: int  # assigned dice not rolled
    fighter: str = ""  # whose die stopped it (first-six)

    def describe(self, state: CampaignState) -> str:
        whose = possessive(fighter_name(state, self.fighter)) if self.fighter else ""
        why = ROLLING_STOPPED[self.stopped].format(whose=whose)
        return f"{warband_name(state, self.warband)} stopped rolling Promotion Dice: {why}; {plural(self.unrolled, 'die')} not rolled"


@ev.event_type
class PromotionDieRolled(ev.Event, frozen=True, kw_only=True, tag="trench-crusade.promotion-die"):
    warband: str
    fighter: str
    roll: int  # the DiceRolled roll number of this die
    die: int  # its place in the rolling order, from 1
    of: int  # dice assigned
    face: int
    counted_as_six: bool  # the failure streak (5 dice without a promotion) made it a 6
    promoted: bool
    streak: int  # dice in a row without a promotion after this die (kept on the roster)
    xp_restored: bool = False  # house rule: a Head-Wounded ELITE's 6 lifts its XP block (no promotion)

    def describe(self, state: CampaignState) -> str:
        success = "Head Wound lifted, gains XP again (the Battle Scar stays)" if self.xp_restored else "promoted"
        if self.counted_as_six:
            outcome = f"{self.face}, counted as a 6 after 5 dice without a Promotion: {success}"
        elif self.promoted or self.xp_restored:
            outcome = f"6: {success}"
        else:
            outcome = f"{self.face}, no Promotion ({plural(self.streak, 'die')} in a row without one)"
        return f"{possessive(fighter_name(state, self.fighter))} Promotion Die {self.die} of {self.of}: {outcome}"


@ev.event_type
class AdvancementEarned(ev.Event, frozen=True, kw_only=True, tag="trench-crusade.advancement-earned"):
    warband: str
    fighter: str
    circle: str  # the advancement-circle row reached
    xp: int

    def describe(self, state: CampaignState) -> str:
        return f"{fighter_name(state, self.fighter)} reached the {self.xp} XP circle: one Advancement Roll due"


class AdvancementOption(msgspec.Struct, frozen=True, kw_only=True):
    table: str
    roll: int
    rolled_row: str
    row: str  # the row given (differs from rolled_row when that skill was already held)
    skill: str


@ev.event_type
class AdvancementRolled(ev.Event, frozen=True, kw_only=True, tag="trench-crusade.advancement"):
    warband: str
    fighter: str
    options: list[AdvancementOption]
    kept: str  # the table whose result was kept

    def describe(self, state: CampaignState) -> str:
        rolled = " and ".join(f"{o.roll} on {rulesets.row_name(state, 'skill-table', o.table)} ({o.skill})" for o in self.options)
        kept = next(o.skill for o in self.options if o.table == self.kept)
        return f"{possessive(fighter_name(state, self.fighter))} Advancement Roll: {rolled}; keeps {kept}"


@ev.event_type
class ExplorationResolved(ev.Event, frozen=True, kw_only=True, tag="trench-crusade.exploration"):
    warband: str
    stage: str
    table: str
    dice: list[int]  # final faces, after re-rolls
    modifier: int
    final: int
    location: str | None  # the location row found; None: nothing at that roll, or pillaged
    location_name: str = ""
    pillaged: bool = False
    loot: int = 0

    def describe(self, state: CampaignState) -> str:
        if self.pillaged:
            found = f"{self.location_name}, already Pillaged"
        else:
            found = self.location_name or "nothing"
        return (f"{warband_name(state, self.warband)} explores the {self.table} table: {self.dice} "
                f"{'+' if self.modifier >= 0 else ''}{self.modifier} = {self.final}, finds {found}")


@ev.event_type
class FighterRansomed(ev.Event, frozen=True, kw_only=True, tag="trench-crusade.ransomed"):
    warband: str
    fighter: str
    ducats: int
    to_warband: str

    def describe(self, state: CampaignState) -> str:
        return f"{fighter_name(state, self.fighter)} is ransomed from {warband_name(state, self.to_warband)} for {self.ducats} ducats and makes a Full Recovery"


@ev.event_type
class KitBought(ev.Event, frozen=True, kw_only=True, tag="trench-crusade.kit-bought"):
    """Bought into the Arsenal; the `item.gained` and the currency spent go with it."""

    warband: str
    item: str
    price: int
    currency: str  # DUCATS or GLORY_POINTS
    glory_item: bool = False
    elite_only: bool = False

    def describe(self, state: CampaignState) -> str:
        what = "Glory Item" if self.glory_item else "ELITE-only Battlekit" if self.elite_only else "Battlekit"
        return f"{warband_name(state, self.warband)} buys {self.item} ({what}) for {self.price} {_currency(self.currency)}"


def _currency(currency: str) -> str:
    return "Glory" if currency == GLORY_POINTS else "ducats"


# --- the ruleset's facts and their fold: like the shared fold, it ignores unknown warbands and fighters ---


class Purchase(msgspec.Struct, kw_only=True):
    """The latest purchase of an item: its price, in its currency, and what kind of kit it is."""

    price: int
    currency: str  # DUCATS or GLORY_POINTS
    glory_item: bool = False
    elite_only: bool = False


class LatestBattle(msgspec.Struct, kw_only=True, omit_defaults=True):
    """What the core's battle does not hold of a warband's latest battle (its battle-record)."""

    battle: int
    side: str | None = None  # attacker or defender, when the scenario has sides
    warband_deeds: list[str] = []  # Glorious Deeds done by the warband, with no doer
    # The ELITE (ids) at the start of its Promotions & Experience Phase, from 1.6.0 (None: not recorded)
    elite_at_phase_start: list[str] | None = None


class BandFacts(msgspec.Struct, kw_only=True, omit_defaults=True):
    """A warband's own facts; the names are what the read models and the report show."""

    promotion_streak: int = 0  # Promotion Dice in a row without a promotion (it lives across battles)
    glory: int = 0
    locations_found: list[str] = []  # location rows found
    armoury: dict[str, Purchase] = {}  # item name -> its latest purchase
    last_battle: LatestBattle | None = None


class ModelFacts(msgspec.Struct, kw_only=True, omit_defaults=True):
    """A fighter's own facts; the names are what the read models and the report show."""

    model: str | None = None  # the Faction List entry; None: read by its role
    trauma_rows: list[str] = []  # trauma table rows suffered, in order
    # Each result that records the enemy warband (Dark Memory, Prominent Scar), as players read it on
    # the roster: "Legion (Prominent Scar)". The names are those of the battle's time, as on a paper roster.
    trauma_against: list[str] = []
    battle_scars: int | None = None  # None until its first trauma
    advancements_due: int | None = None  # None until its first Advancement Roll is earned
    # How many of its trauma_rows it had when a Promotion 6 restored its XP gain (house rule):
    # only rows suffered later block XP. None: never restored.
    xp_restored_after: int | None = None


class TrenchCrusadeFacts(RulesetFacts, kw_only=True):
    warbands: dict[str, BandFacts] = {}  # by warband id
    fighters: dict[str, ModelFacts] = {}  # by fighter id

    def shown(self, holder: Warband | Fighter) -> dict[str, Any]:
        facts = (self.warbands if isinstance(holder, Warband) else self.fighters).get(holder.id)
        return msgspec.to_builtins(facts) if facts is not None else {}


FACTS = Facts("trench-crusade", TrenchCrusadeFacts)
FOLDS = Folds(FACTS)


def band_facts(state: CampaignState, warband: str) -> BandFacts:
    """The warband's facts (the defaults for one with none yet)."""
    return FACTS.of(state).warbands.get(warband) or BandFacts()


def model_facts(state: CampaignState, fighter: str) -> ModelFacts:
    """The fighter's facts (the defaults for one with none yet)."""
    return FACTS.of(state).fighters.get(fighter) or ModelFacts()


def _band(facts: TrenchCrusadeFacts, event: Any, state: CampaignState) -> BandFacts | None:
    return facts.warbands.setdefault(event.warband, BandFacts()) if event.warband in state.warbands else None


def _model(facts: TrenchCrusadeFacts, event: Any, state: CampaignState) -> ModelFacts | None:
    return facts.fighters.setdefault(event.fighter, ModelFacts()) if event.fighter in state.fighters else None


@FOLDS.on(ModelEntry)
def _model_entry(facts: TrenchCrusadeFacts, event: ModelEntry, state: CampaignState) -> None:
    if model := _model(facts, event, state):
        model.model = event.model


@FOLDS.on(BattleRecordKept)
def _battle_kept(facts: TrenchCrusadeFacts, event: BattleRecordKept, state: CampaignState) -> None:
    if band := _band(facts, event, state):
        band.last_battle = LatestBattle(battle=event.battle, side=event.side,
                                        warband_deeds=[d.deed for d in event.deeds if d.fighter is None])


@FOLDS.on(PromotionsPhaseBegun)
def _promotions_phase(facts: TrenchCrusadeFacts, event: PromotionsPhaseBegun, state: CampaignState) -> None:
    if band := _band(facts, event, state):
        if band.last_battle is None or band.last_battle.battle != event.battle:
            band.last_battle = LatestBattle(battle=event.battle)
        band.last_battle.elite_at_phase_start = list(event.elite)


@FOLDS.on(GloryChanged)
def _glory(facts: TrenchCrusadeFacts, event: GloryChanged, state: CampaignState) -> None:
    if band := _band(facts, event, state):
        band.glory += event.delta


@FOLDS.on(TraumaResolved)
def _trauma(facts: TrenchCrusadeFacts, event: TraumaResolved, state: CampaignState) -> None:
    if model := _model(facts, event, state):
        model.trauma_rows.append(event.row)
        model.battle_scars = event.battle_scars
        if event.enemies:
            enemies = " and ".join(state.warbands[w].name if w in state.warbands else w for w in event.enemies)
            model.trauma_against.append(f"{enemies} ({event.result})")


@FOLDS.on(PromotionDieRolled)
def _promotion_die(facts: TrenchCrusadeFacts, event: PromotionDieRolled, state: CampaignState) -> None:
    if band := _band(facts, event, state):
        band.promotion_streak = event.streak
        model = _model(facts, event, state)
        if event.promoted and model and model.model is None:
            # The model keeps its Faction List entry when its role becomes "elite".
            model.model = state.fighters[event.fighter].role
        if event.xp_restored and model:
            model.xp_restored_after = len(model.trauma_rows)


@FOLDS.on(AdvancementEarned)
def _advancement_earned(facts: TrenchCrusadeFacts, event: AdvancementEarned, state: CampaignState) -> None:
    if model := _model(facts, event, state):
        model.advancements_due = (model.advancements_due or 0) + 1


@FOLDS.on(AdvancementRolled)
def _advancement_rolled(facts: TrenchCrusadeFacts, event: AdvancementRolled, state: CampaignState) -> None:
    if model := _model(facts, event, state):
        model.advancements_due = (model.advancements_due or 0) - 1


@FOLDS.on(ExplorationResolved)
def _explored(facts: TrenchCrusadeFacts, event: ExplorationResolved, state: CampaignState) -> None:
    if (band := _band(facts, event, state)) and event.location and not event.pillaged:
        band.locations_found.append(event.location)


@FOLDS.on(FighterRansomed)
def _ransomed(facts: TrenchCrusadeFacts, event: FighterRansomed, state: CampaignState) -> None:
    if fighter := state.fighters.get(event.fighter):
        fighter.status = "active"


@FOLDS.on(KitBought)
def _kit_bought(facts: TrenchCrusadeFacts, event: KitBought, state: CampaignState) -> None:
    if band := _band(facts, event, state):
        band.armoury[event.item] = Purchase(price=event.price, currency=event.currency,
                                            glory_item=event.glory_item, elite_only=event.elite_only)
