"""Trench Crusade's own events, and their fold into `ext` of the state.

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
- `trench-crusade.trauma`: the Trauma table row with its Battle Scar count (no shared fact
  counts scars, and a 3rd makes the model Unfit for Duty);
- `trench-crusade.model`: the Faction List entry a fighter is (the model lists match it);
- `trench-crusade.battle-record`: one warband's side of a battle (its Force, casualties and
  Glorious Deeds, warband-level deeds included), which its Campaign Phase reads;
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

from typing import Any

import msgspec

from commands.kit import Folds
from ledger import events as ev
from ledger.describe import fighter_name, plural, warband_name
from ledger.state import CampaignState, Fighter, Warband

# Keys of `ext` this ruleset folds into. Warband: STREAK, GLORY, LAST_BATTLE (the payload of its
# latest battle-record), LOCATIONS (ids found), ARMOURY (item name -> {price, currency, glory_item,
# elite_only} of the latest purchase of that item).
# Fighter: MODEL, TRAUMA_ROWS (rows suffered), BATTLE_SCARS, ADVANCEMENTS_DUE, XP_RESTORED_AFTER (how many
# of its TRAUMA_ROWS it had when a Promotion 6 restored its XP gain: only rows suffered later block XP).
STREAK = "promotion_streak"
GLORY = "glory"
LAST_BATTLE = "last_battle"
LOCATIONS = "locations_found"
MODEL = "model"
TRAUMA_ROWS = "trauma_rows"
BATTLE_SCARS = "battle_scars"
ADVANCEMENTS_DUE = "advancements_due"
XP_RESTORED_AFTER = "xp_restored_after"
ARMOURY = "armoury"
DUCATS, GLORY_POINTS = "ducats", "glory"  # the two currencies a price is paid in


@ev.event_type
class ModelEntry(ev.Event, frozen=True, kw_only=True, tag="trench-crusade.model"):
    warband: str
    fighter: str
    model: str  # the Faction List entry, e.g. "Trench Pilgrim", "Grail Thralls"

    def describe(self, state: CampaignState) -> str:
        return f"{fighter_name(state, self.fighter)}'s Faction List entry: {self.model}"


class DeedEntry(msgspec.Struct, frozen=True, kw_only=True):
    deed: str  # a row of the glorious-deeds table
    fighter: str | None = None  # None: done by the warband, with no doer


@ev.event_type
class BattleRecordKept(ev.Event, frozen=True, kw_only=True, tag="trench-crusade.battle-record"):
    """One warband's record of a battle, as its Campaign Phase reads it (the shared state does
    not keep each fighter's deeds, and warband-level deeds have no fighter to go with)."""

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
        deeds = ", ".join(f"{d.deed} ({fighter_name(state, d.fighter) if d.fighter else 'the warband'})" for d in self.deeds)
        return (f"{warband_name(state, self.warband)} in battle {self.battle}: {self.result}, {plural(len(self.force), 'model')} fought, "
                f"{len(self.out_of_action)} Out of Action; Glorious Deeds: {deeds or 'none'}")


@ev.event_type
class GloryChanged(ev.Event, frozen=True, kw_only=True, tag="trench-crusade.glory"):
    warband: str
    delta: int
    reason: str

    def describe(self, state: CampaignState) -> str:
        sign = "+" if self.delta >= 0 else ""
        return f"{warband_name(state, self.warband)} Glory {sign}{self.delta}: {self.reason}"


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
        parts = [f"{self.base} base", *([plural(self.glorious_deeds, "Glorious Deed")] if self.glorious_deeds else [])]
        parts += [f"{extra.dice} from {extra.source}" for extra in self.extra]
        dealt = ", ".join(f"{fighter_name(state, f)} {n}" for f, n in self.assignment.items() if n)
        where = f"; assigned {dealt}" if dealt else "; no Troop can take them, so they are lost"
        return f"{warband_name(state, self.warband)} Promotion Dice pool: {self.size} ({' + '.join(parts)}){where}"


@ev.event_type
class PromotionsSkipped(ev.Event, frozen=True, kw_only=True, tag="trench-crusade.promotions-skipped"):
    warband: str
    elite: int

    def describe(self, state: CampaignState) -> str:
        return f"{warband_name(state, self.warband)} has {self.elite} ELITE models: the Promotion step is skipped"


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
        return f"{fighter_name(state, self.fighter)}'s Promotion Die {self.die} of {self.of}: {outcome}"


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
        rolled = " and ".join(f"{o.roll} on {o.table} ({o.skill})" for o in self.options)
        kept = next(o.skill for o in self.options if o.table == self.kept)
        return f"{fighter_name(state, self.fighter)}'s Advancement Roll: {rolled}; keeps {kept}"


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


def _fighter_ext(state: CampaignState, fighter: str) -> dict[str, Any] | None:
    found = state.fighters.get(fighter)
    return found.ext if found else None


# --- the fold: this ruleset's own events; like the shared fold it ignores unknown warbands/fighters ---

FOLDS = Folds()  # no typed facts yet: they are kept in `ext` (the keys above)


def _band(state: CampaignState, event: Any) -> Warband | None:
    return state.warbands.get(event.warband)


def _fighter(state: CampaignState, event: Any) -> Fighter | None:
    return state.fighters.get(event.fighter)


@FOLDS.on(ModelEntry)
def _model(facts: None, event: ModelEntry, state: CampaignState) -> None:
    if fighter := _fighter(state, event):
        fighter.ext[MODEL] = event.model


@FOLDS.on(BattleRecordKept)
def _battle_kept(facts: None, event: BattleRecordKept, state: CampaignState) -> None:
    if band := _band(state, event):
        band.ext[LAST_BATTLE] = ev.fields_of(event)


@FOLDS.on(GloryChanged)
def _glory(facts: None, event: GloryChanged, state: CampaignState) -> None:
    if band := _band(state, event):
        band.ext[GLORY] = band.ext.get(GLORY, 0) + event.delta


@FOLDS.on(TraumaResolved)
def _trauma(facts: None, event: TraumaResolved, state: CampaignState) -> None:
    if fighter := _fighter(state, event):
        fighter.ext.setdefault(TRAUMA_ROWS, []).append(event.row)
        fighter.ext[BATTLE_SCARS] = event.battle_scars


@FOLDS.on(PromotionDieRolled)
def _promotion_die(facts: None, event: PromotionDieRolled, state: CampaignState) -> None:
    if band := _band(state, event):
        band.ext[STREAK] = event.streak
        fighter = _fighter(state, event)
        if event.promoted and fighter:
            # The model keeps its Faction List entry when its role becomes "elite".
            fighter.ext.setdefault(MODEL, fighter.role)
        if event.xp_restored and fighter:
            fighter.ext[XP_RESTORED_AFTER] = len(fighter.ext.get(TRAUMA_ROWS, []))


@FOLDS.on(AdvancementEarned)
def _advancement_earned(facts: None, event: AdvancementEarned, state: CampaignState) -> None:
    if fighter := _fighter(state, event):
        fighter.ext[ADVANCEMENTS_DUE] = fighter.ext.get(ADVANCEMENTS_DUE, 0) + 1


@FOLDS.on(AdvancementRolled)
def _advancement_rolled(facts: None, event: AdvancementRolled, state: CampaignState) -> None:
    if fighter := _fighter(state, event):
        fighter.ext[ADVANCEMENTS_DUE] = fighter.ext.get(ADVANCEMENTS_DUE, 0) - 1


@FOLDS.on(ExplorationResolved)
def _explored(facts: None, event: ExplorationResolved, state: CampaignState) -> None:
    if (band := _band(state, event)) and event.location and not event.pillaged:
        band.ext.setdefault(LOCATIONS, []).append(event.location)


@FOLDS.on(FighterRansomed)
def _ransomed(facts: None, event: FighterRansomed, state: CampaignState) -> None:
    if fighter := _fighter(state, event):
        fighter.status = "active"


@FOLDS.on(KitBought)
def _kit_bought(facts: None, event: KitBought, state: CampaignState) -> None:
    if band := _band(state, event):
        band.ext.setdefault(ARMOURY, {})[event.item] = {
            key: value for key, value in ev.fields_of(event).items() if key in ("price", "currency", "glory_item", "elite_only")}


evolve = FOLDS.evolve
