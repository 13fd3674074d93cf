"""Coreheim's own facts, typed (`CoreheimFacts`, held in the state under "coreheim"), and their fold.

What the core state keeps (warbands, fighters, battles with who fought and what each did, XP,
injuries, items, gold) is read from it; these are only what Coreheim adds:
- per warrior (`WarriorFacts`, from `coreheim.warrior-profile`): his type, race, the skill lists
  of a promoted henchman, the XP up to which advances were rolled, the characteristics a
  henchman group improved (once each), and the battle in whose post-game a Talent! last
  promoted one of a group (its further Talent! results are ignored in that post-game);
- per warband (`WarbandFacts`): wyrdstone shards, bonus dice for the next exploration, its
  rating at each battle, and for its latest battle only (a snapshot stays small): the rare items
  found, those not yet bought and those bought, its underdog points, and the prices it rolled for items priced with dice
  (version 9: such a price holds until the post-game's trading ends), and the reinforcing roll that brought no
  recruit (version 10: it holds until the reinforcing step is done).

`coreheim.battle-deeds` is not kept here: a restatement that adds a warrior (a Hired Sword an
underdog point brought after the battle was recorded) adds his deed to the core's battle.

`shown` is what the roster, the report and the exports show of these (a warband's or fighter's
`ext`), in the shape they have always shown: battles as text keys, only what was ever set.
"""

from __future__ import annotations

from typing import Any

import msgspec

from commands.coreheim import events
from commands.coreheim.tables import TABLES, TalentAdvance
from commands.kit import Facts, Folds, RulesetFacts
from ledger import events as ev
from ledger.state import CampaignState, Fighter, Warband

ID = "coreheim"


class WarriorFacts(msgspec.Struct, kw_only=True):
    type: str = ""  # a hero type of the warband list, "henchman", "animal", "monster" or a Hired Sword
    race: str = ""
    skill_lists: list[str] = []  # a promoted henchman's; others use their hero type's
    advanced_to: int | None = None  # XP up to which advances were rolled; None: his profile is not recorded
    advanced_stats: list[str] = []  # characteristics a henchman group improved
    talent_after: int | None = None  # the battle in whose post-game a Talent! promoted one of the group

    def shown(self) -> dict[str, Any]:
        shown: dict[str, Any] = {"type": self.type, "race": self.race, "skill_lists": list(self.skill_lists)}
        if self.advanced_to is not None:
            shown["advanced_to"] = self.advanced_to
        if self.advanced_stats:
            shown["advanced_stats"] = list(self.advanced_stats)
        return shown


class BonusDice(msgspec.Struct, kw_only=True):
    extra: int = 0
    discard: int = 0


class FoundItems(msgspec.Struct, kw_only=True):
    battle: int
    items: list[str] = []  # rare items found after the battle, not bought yet
    bought: list[str] = []  # rare items found after the battle and bought (a `buy` again is told so)


class RolledPrices(msgspec.Struct, kw_only=True):
    battle: int | None  # None: before the warband's first battle
    items: dict[str, int] = {}  # item -> the price rolled for one


class HeldReinforcements(msgspec.Struct, kw_only=True):
    battle: int
    xp: int  # what the reinforcing D6 gave


class Underdog(msgspec.Struct, kw_only=True):
    battle: int
    points: int = 0
    spent: int = 0
    sword: str | None = None  # the Hired Sword a point brought to the battle


class HenchmenOut(msgspec.Struct, kw_only=True):
    battle: int
    out: dict[str, int] = {}  # group id -> its members taken out of action (an injury D12 each)
    dead: dict[str, int] = {}  # group id -> those of them who died of their wounds

    def all_out(self, group: Fighter) -> bool:
        """Was every member the group has now taken out of action?"""
        return self.out.get(group.id, 0) - self.dead.get(group.id, 0) >= group.group_size


class WarbandFacts(msgspec.Struct, kw_only=True):
    # battle -> the warband's rating when it was recorded. The battle's number is kept as the text it
    # is shown and stored as (the snapshot's JSON is the same either way): the ext of a warband of a
    # long campaign is shown at every command about it, and made no copy of its keys.
    ratings: dict[str, int] = {}
    underdog: Underdog | None = None  # of its latest battle
    shards: int | None = None  # None: never held any
    found: FoundItems | None = None  # of its latest battle
    bonus: BonusDice | None = None  # for its next exploration
    henchmen_out: HenchmenOut | None = None  # of its latest battle
    prices: RolledPrices | None = None  # of its latest battle's post-game (or before its first battle)
    reinforcements: HeldReinforcements | None = None  # of its latest battle's post-game

    def reinforcement_roll(self, battle: int) -> int | None:
        """The XP a reinforcing D6 gave in the post-game of `battle` and no recruit took yet, if one was rolled."""
        held = self.reinforcements
        return held.xp if held is not None and held.battle == battle else None

    def price_rolled(self, battle: int | None, item: str) -> int | None:
        """The price rolled for `item` in the post-game of `battle` (None: before the first battle), if one was."""
        return self.prices_rolled(battle).get(item)

    def prices_rolled(self, battle: int | None) -> dict[str, int]:
        """Item -> the price rolled for it in the post-game of `battle` (None: before the first battle)."""
        return dict(self.prices.items) if self.prices is not None and self.prices.battle == battle else {}

    def found_after(self, battle: int) -> list[str]:
        return self.found.items if self.found is not None and self.found.battle == battle else []

    def bought_after(self, battle: int) -> list[str]:
        """The rare items found after `battle` and bought since."""
        return self.found.bought if self.found is not None and self.found.battle == battle else []

    def underdog_of(self, battle: int) -> Underdog:
        return self.underdog if self.underdog is not None and self.underdog.battle == battle else Underdog(battle=battle)

    def shown(self) -> dict[str, Any]:
        shown: dict[str, Any] = {}
        if self.ratings:
            shown["ratings"] = dict(self.ratings)
        if (underdog := self.underdog) is not None:
            points = {"points": underdog.points, "spent": underdog.spent} | ({"sword": underdog.sword} if underdog.sword else {})
            shown["underdog"] = {str(underdog.battle): points}
        if self.shards is not None:
            shown["shards"] = self.shards
        if self.found is not None:
            shown["rare_found"] = {str(self.found.battle): list(self.found.items)}
        if self.bonus is not None:
            shown["exploration_bonus"] = {"extra": self.bonus.extra, "discard": self.bonus.discard}
        return shown


class CoreheimFacts(RulesetFacts, kw_only=True):
    warriors: dict[str, WarriorFacts] = {}  # fighter id ->
    warbands: dict[str, WarbandFacts] = {}  # warband id ->

    def warrior(self, fighter: str) -> WarriorFacts:
        return self.warriors.get(fighter) or WarriorFacts()

    def warband(self, warband: str) -> WarbandFacts:
        return self.warbands.get(warband) or WarbandFacts()

    def shards(self, warband: str) -> int:
        return self.warband(warband).shards or 0

    def shown(self, holder: Warband | Fighter) -> dict[str, Any]:
        if isinstance(holder, Fighter):
            return self.warriors[holder.id].shown() if holder.id in self.warriors else {}
        return self.warbands[holder.id].shown() if holder.id in self.warbands else {}


FACTS = Facts(ID, CoreheimFacts)
FOLDS = Folds(FACTS)


def of(state: CampaignState) -> CoreheimFacts:
    return FACTS.of(state)


def _band(facts: CoreheimFacts, state: CampaignState, warband: str) -> WarbandFacts | None:
    """The warband's facts to update, for a warband the state knows."""
    return facts.warbands.setdefault(warband, WarbandFacts()) if warband in state.warbands else None


def _warrior(facts: CoreheimFacts, state: CampaignState, fighter: str) -> WarriorFacts | None:
    return facts.warriors.setdefault(fighter, WarriorFacts()) if fighter in state.fighters else None


@FOLDS.on(events.WarriorProfile)
def _profile(facts: CoreheimFacts, event: events.WarriorProfile, state: CampaignState) -> None:
    if warrior := _warrior(facts, state, event.fighter):
        warrior.type, warrior.race = event.warrior_type, event.race
        warrior.skill_lists, warrior.advanced_to = list(event.skill_lists), event.advanced_to


@FOLDS.on(events.GroupSizeChanged)
def _group_size(facts: CoreheimFacts, event: events.GroupSizeChanged, state: CampaignState) -> None:
    if fighter := state.fighters.get(event.fighter):
        fighter.group_size += event.delta


@FOLDS.on(events.ShardsChanged)
def _shards(facts: CoreheimFacts, event: events.ShardsChanged, state: CampaignState) -> None:
    if band := _band(facts, state, event.warband):
        band.shards = (band.shards or 0) + event.delta


@FOLDS.on(events.ExplorationResolved)
def _explored(facts: CoreheimFacts, event: events.ExplorationResolved, state: CampaignState) -> None:
    if band := _band(facts, state, event.warband):
        band.bonus = None  # the bonus dice were rolled in this exploration


@FOLDS.on(events.ExplorationBonus)
def _bonus(facts: CoreheimFacts, event: events.ExplorationBonus, state: CampaignState) -> None:
    if band := _band(facts, state, event.warband):
        held = band.bonus or BonusDice()
        band.bonus = BonusDice(extra=held.extra + event.extra, discard=held.discard + event.discard)


@FOLDS.on(events.AdvanceRolled)
def _advanced(facts: CoreheimFacts, event: events.AdvanceRolled, state: CampaignState) -> None:
    if warrior := _warrior(facts, state, event.fighter):
        warrior.advanced_to = max(warrior.advanced_to or 0, event.threshold)
        if state.fighters[event.fighter].role != "henchman":
            return
        if event.stat:  # only henchmen: once per characteristic
            warrior.advanced_stats.append(event.stat)
        if event.rows and _is_talent(event.rows[-1], state) and (battle := state.latest_battle(event.warband)):
            warrior.talent_after = battle.number


def _is_talent(row_id: str, state: CampaignState) -> bool:
    """Is this row of the campaign's henchman advance table a Talent!?"""
    rows = TABLES.for_options(state.options).henchman_advances.rows
    return any(row.id == row_id and isinstance(row.advance, TalentAdvance) for row in rows)


@FOLDS.on(events.HiredSwordRehired)
def _rehired(facts: CoreheimFacts, event: events.HiredSwordRehired, state: CampaignState) -> None:
    if fighter := state.fighters.get(event.fighter):
        fighter.status = "active"


@FOLDS.on(events.MissesGame)
def _misses(facts: CoreheimFacts, event: events.MissesGame, state: CampaignState) -> None:
    if fighter := state.fighters.get(event.fighter):
        fighter.missed_games += 1


@FOLDS.on(events.HenchmanInjuryRolled)
def _henchman_out(facts: CoreheimFacts, event: events.HenchmanInjuryRolled, state: CampaignState) -> None:
    battle = state.latest_battle(event.warband)
    if battle is None or not (band := _band(facts, state, event.warband)):
        return
    if band.henchmen_out is None or band.henchmen_out.battle != battle.number:
        band.henchmen_out = HenchmenOut(battle=battle.number)  # those of an earlier battle are dropped
    counts = band.henchmen_out
    counts.out[event.fighter] = counts.out.get(event.fighter, 0) + 1
    if event.result == "dead":
        counts.dead[event.fighter] = counts.dead.get(event.fighter, 0) + 1


@FOLDS.on(events.RareItemSearched)
def _searched(facts: CoreheimFacts, event: events.RareItemSearched, state: CampaignState) -> None:
    if event.found and (band := _band(facts, state, event.warband)):
        if band.found is None or band.found.battle != event.battle:
            band.found = FoundItems(battle=event.battle)  # those of an earlier battle are dropped
        band.found.items.append(event.item)


@FOLDS.on(events.RareItemBought)
def _bought(facts: CoreheimFacts, event: events.RareItemBought, state: CampaignState) -> None:
    if band := _band(facts, state, event.warband):
        found = band.found
        if found is not None and found.battle == event.battle and event.item in found.items:
            found.items.remove(event.item)
            found.bought.append(event.item)


@FOLDS.on(events.PriceRolled)
def _price_rolled(facts: CoreheimFacts, event: events.PriceRolled, state: CampaignState) -> None:
    if band := _band(facts, state, event.warband):
        if band.prices is None or band.prices.battle != event.battle:
            band.prices = RolledPrices(battle=event.battle)  # those of an earlier post-game are dropped
        band.prices.items[event.item] = event.price


@FOLDS.on(events.ReinforcementRollHeld)
def _reinforcement_roll_held(facts: CoreheimFacts, event: events.ReinforcementRollHeld, state: CampaignState) -> None:
    if band := _band(facts, state, event.warband):
        band.reinforcements = HeldReinforcements(battle=event.battle, xp=event.xp)


@FOLDS.on(events.BattleDeeds)
def _deeds(facts: CoreheimFacts, event: events.BattleDeeds, state: CampaignState) -> None:
    """The deeds stated again with a warrior who joined after the battle was recorded: his deed is
    added to the core's battle (the others are the core's own, recorded with the battle), and a
    warrior he took out is out of action in it (version 4: the deeds of the warband he fought)."""
    battle = next((b for b in state.latest_battles if b.number == event.battle), None)
    if battle is None:
        return
    battle.deeds = [msgspec.structs.replace(deed, out_of_action=True)
                    if deed.fighter in event.out_of_action and not deed.out_of_action else deed for deed in battle.deeds]
    known = {deed.fighter for deed in battle.deeds}
    battle.deeds += [
        ev.Deed(fighter=fighter, out_of_action=fighter in event.out_of_action, took_out=list(event.took_out.get(fighter, [])))
        for fighter in event.fought
        if fighter not in known
    ]


@FOLDS.on(events.BattleRatings)
def _ratings(facts: CoreheimFacts, event: events.BattleRatings, state: CampaignState) -> None:
    for warband, rating in event.ratings.items():
        if band := _band(facts, state, warband):
            band.ratings[str(event.battle)] = rating
            band.underdog = Underdog(battle=event.battle, points=event.underdog.get(warband, 0))


@FOLDS.on(events.UnderdogSpent)
def _underdog(facts: CoreheimFacts, event: events.UnderdogSpent, state: CampaignState) -> None:
    if band := _band(facts, state, event.warband):
        band.underdog = band.underdog_of(event.battle)
        band.underdog.spent += event.points
        if event.sword:
            band.underdog.sword = event.sword
