"""Coreheim's own events (folded into its typed facts in `facts`).

The shared vocabulary carries every consequence it has a name for (XPAwarded, StatChanged,
SkillLearned, InjurySuffered, FighterDied/Captured/Retired/Promoted, FighterRecruited,
ItemGained/ItemLost, TreasuryChanged, KeywordGained, NoteRecorded for pending decisions).
An event here records what has no shared name:

- `coreheim.warrior-profile`: what the rules need to know about a warrior and no shared
  field holds: his type (hero type, "henchman", a Hired Sword), race (for maximums), the
  skill lists of a promoted henchman, and the XP up to which advances were rolled (so XP a
  warrior starts with never triggers an advance);
- `coreheim.group-size-changed`: a henchman group loses a member (death, Talent!) or gains
  recruits (reinforcing); the shared vocabulary has no group size change;
- `coreheim.shards-changed`: wyrdstone shards kept by the warband, a second store beside
  the treasury (found, sold);
- `coreheim.exploration-resolved`: the exploration dice, the six kept, the total and the
  table rows read, so the audit trail explains the shards and the multiple chosen;
- `coreheim.exploration-bonus`: extra dice for the next exploration (Mordheim Survivor);
- `coreheim.injury-rolled`: one hero D66 with the row rolled and the result that counted
  (Dead counts as Multiple Injuries in a warband's first two games);
- `coreheim.henchman-injury-rolled`: one D12 of a henchman or Hired Sword taken out of action
  and what it gave, dead or survives (version 2 on: a survivor's roll said nothing);
- `coreheim.mount-injury-rolled`: one D12 of the mount a warrior taken out of action rode, and
  what it gave, killed or survives (version 4 on; a mount is its rider's item, not a warrior);
- `coreheim.advance-rolled`: one advance for one threshold: rows rolled and the result;
- `coreheim.misses-game`: a warrior misses the next game without an injury (Well, fake map);
- `coreheim.rare-item-searched` / `rare-item-bought`: a 2D6 search and the found item
  being paid for (an item found may be bought once, in the same post-game);
- `coreheim.price-rolled`: the price a warband rolled for an item priced with dice ("30 + 2D6"),
  which holds for that item until the post-game's trading ends, and whether it bought one at it
  (version 9): a TreasuryChanged says what was paid, not what an item costs, and a price rolled
  too dear pays nothing;
- `coreheim.reinforcement-roll-held`: the experience a reinforcing D6 gave, which brought no recruit
  because the recruits asked for need more of it, or cost more gold, than there is (version 10): the roll
  holds until the reinforcing step is done, spent by the next `reinforce` of that post-game;
- `coreheim.battle-deeds`: who of a warband fought its latest battle, who was taken out of
  action and whom each took out, stated again when an underdog Hired Sword joins it (recorded
  since before the core kept deeds; the post-game reads the core's battle, which this updates);
- `coreheim.battle-ratings`: every warband's rating when the battle was recorded, and the
  underdog points this gave (ratings kept over time);
- `coreheim.underdog-spent`: underdog points spent on XP;
- `coreheim.hired-sword-rehired`: a Hired Sword who left hired again, the same warrior with his
  XP (version 5); the shared vocabulary has no return of a fighter who left.

A post-game step done is the shared `post-game.step-done`.
"""

from __future__ import annotations

import re

from commands.coreheim import rules
from commands.coreheim.tables import TABLES
from ledger import events as ev
from ledger import rulesets
from ledger.describe import because, fighter_name, plural, signed, warband_name
from ledger.state import CampaignState
from ledger.text import possessive


class WarriorProfile(ev.Event, frozen=True, kw_only=True, tag="coreheim.warrior-profile"):
    warband: str
    fighter: str
    warrior_type: str  # a hero or henchman type of the warband list, "henchman", "animal", "monster" or a Hired Sword
    race: str = ""
    skill_lists: list[str] = []
    advanced_to: int = 0

    def describe(self, state: CampaignState) -> str:
        """The type and race by the names the tables give them: "Gunnar is of type Captain (Human)", "Marksmen is of
        type Marksmen (Human)" (a list names a henchman type as it prints it, in the plural), "Grok is an Ogre
        Bodyguard (Ogre)": a Hired Sword's name says what he is."""
        names = rulesets.row_names_of(state)
        race = names.get("race", {}).get(self.race, self.race)
        kind = names.get("hired-sword", {}).get(self.warrior_type)
        sword = kind is not None
        kind = kind or names.get("warrior-type", {}).get(self.warrior_type, self.warrior_type)
        what = f"{kind} ({race})" if race else kind
        who = fighter_name(state, self.fighter)
        if self.skill_lists:  # only a henchman promoted by Talent! picks skill lists: the rules' words
            lists = [names.get("skill-list", {}).get(chosen, chosen) for chosen in self.skill_lists]
            return f"{who} keeps his type, {what}, and picks the skill lists {', '.join(lists)}"
        if sword:
            return f"{who} is {'an' if what[:1].lower() in 'aeiou' else 'a'} {what}"
        return f"{who} is of type {what}"


class GroupSizeChanged(ev.Event, frozen=True, kw_only=True, tag="coreheim.group-size-changed"):
    warband: str
    fighter: str
    delta: int
    reason: str
    row: str = ""

    def describe(self, state: CampaignState) -> str:
        change = f"{fighter_name(state, self.fighter)} {signed(self.delta)} {'member' if abs(self.delta) == 1 else 'members'}"
        if reinforced := REINFORCED.fullmatch(self.reason):
            recruits, xp, rolled = (int(n) for n in reinforced.groups())
            each = " each" if recruits > 1 else ""
            return f"{change}, reinforced: {plural(recruits, 'recruit')} at {xp} XP{each}, using {recruits * xp} of the {rolled} XP rolled"
        return f"{change}{because(self.reason, state)}"


# The reason reinforcing records (every version): "reinforced: 2 x 1 XP of the 5 rolled" read as a sum.
REINFORCED = re.compile(r"reinforced: (\d+) x (\d+) XP of the (\d+) rolled")


class ShardsChanged(ev.Event, frozen=True, kw_only=True, tag="coreheim.shards-changed"):
    warband: str
    delta: int
    reason: str
    row: str = ""

    def describe(self, state: CampaignState) -> str:
        return f"{warband_name(state, self.warband)} wyrdstone {signed(self.delta)}{because(self.reason, state)}"


class ExplorationResolved(ev.Event, frozen=True, kw_only=True, tag="coreheim.exploration-resolved"):
    warband: str
    battle: int
    dice: list[int]
    kept: list[int]
    total: int
    shards: int
    row: str = ""  # the shards row; "" with no dice
    multiple: str = ""  # the chosen set, e.g. "4x2" (face 4, two dice); "" for none
    rows: list[str] = []  # the exploration chart rows read for the multiple

    def describe(self, state: CampaignState) -> str:
        chosen = ""
        if self.multiple:
            words = rules.chart_words(self.rows, tables=TABLES.for_options(state.options), items=True)
            chosen = (f"; multiple {self.multiple}" + (f": {words[0]}" if words else "")
                      + (f" ({'; '.join(words[1:])})" if words[1:] else ""))
        dice = f"rolled {self.dice}" if self.kept == self.dice else f"kept {self.kept} of {self.dice}"
        return (f"{warband_name(state, self.warband)} explored: {dice}, total {self.total} "
                f"= {plural(self.shards, 'shard')}{'' if self.row else ' (no dice)'}{chosen}")


class HenchmanInjuryRolled(ev.Event, frozen=True, kw_only=True, tag="coreheim.henchman-injury-rolled"):
    warband: str
    fighter: str
    face: int
    row: str
    result: str  # "dead" or "survives", as the row says

    def describe(self, state: CampaignState) -> str:
        return f"{fighter_name(state, self.fighter)} injury {self.face}: {self.result} ({self.row})"


class MountInjuryRolled(ev.Event, frozen=True, kw_only=True, tag="coreheim.mount-injury-rolled"):
    warband: str
    fighter: str  # the rider
    mount: str
    face: int
    row: str
    result: str  # "killed" or "survives"

    def describe(self, state: CampaignState) -> str:
        return f"{possessive(fighter_name(state, self.fighter))} {self.mount} injury {self.face}: {self.result} ({self.row})"


class ExplorationBonus(ev.Event, frozen=True, kw_only=True, tag="coreheim.exploration-bonus"):
    warband: str
    extra: int
    discard: int
    row: str = ""

    def describe(self, state: CampaignState) -> str:
        return (f"{warband_name(state, self.warband)} rolls {self.extra} extra exploration "
                f"{'die' if self.extra == 1 else 'dice'} next time, then discards {self.discard} ({self.row})")


class InjuryRolled(ev.Event, frozen=True, kw_only=True, tag="coreheim.injury-rolled"):
    warband: str
    fighter: str
    d66: int
    row: str  # the row the dice landed on
    result: str  # the result that counted, or was re-rolled
    counted: bool = True
    note: str = ""

    def describe(self, state: CampaignState) -> str:
        result = rulesets.row_name(state, "injury", self.result)
        verdict = result if self.counted else f"{result}, re-rolled"
        note = f" — {self.note}" if self.note else ""
        return f"{fighter_name(state, self.fighter)} serious injury {self.d66}: {verdict} ({self.row}){note}"


class AdvanceRolled(ev.Event, frozen=True, kw_only=True, tag="coreheim.advance-rolled"):
    warband: str
    fighter: str
    threshold: int
    rows: list[str]  # every row rolled, re-rolls included, the one applied last
    result: str
    stat: str = ""  # the characteristic improved, if any

    def describe(self, state: CampaignState) -> str:
        return f"{fighter_name(state, self.fighter)} advance at {self.threshold} XP: {self.result} ({', '.join(self.rows) or 'no roll'})"


class MissesGame(ev.Event, frozen=True, kw_only=True, tag="coreheim.misses-game"):
    warband: str
    fighter: str
    reason: str
    row: str = ""

    def describe(self, state: CampaignState) -> str:
        return f"{fighter_name(state, self.fighter)} misses the next game{because(self.reason, state)}"


class RareItemSearched(ev.Event, frozen=True, kw_only=True, tag="coreheim.rare-item-searched"):
    warband: str
    battle: int
    fighter: str
    item: str
    rarity: int
    total: int
    found: bool
    bonuses: list[str] = []  # what added to the 2D6 ("Cathayan Silks +1"), from version 7

    def describe(self, state: CampaignState) -> str:
        verdict = "found" if self.found else "not found"
        bonuses = f" with {', '.join(self.bonuses)}" if self.bonuses else ""
        item = rulesets.row_name(state, "item", self.item)
        return f"{fighter_name(state, self.fighter)} looks for {item} (rare {self.rarity}): {self.total}{bonuses}, {verdict}"


class RareItemBought(ev.Event, frozen=True, kw_only=True, tag="coreheim.rare-item-bought"):
    warband: str
    battle: int
    item: str

    def describe(self, state: CampaignState) -> str:
        item = rulesets.row_name(state, "item", self.item)
        return f"{warband_name(state, self.warband)} has bought the {item} found after battle {self.battle}"


class PriceRolled(ev.Event, frozen=True, kw_only=True, tag="coreheim.price-rolled"):
    warband: str
    battle: int | None  # the battle whose post-game it holds for; None: until the warband's first battle
    item: str
    price: int  # of one item
    bought: bool  # False: too dear for the treasury, nothing bought

    def describe(self, state: CampaignState) -> str:
        item = rulesets.row_name(state, "item", self.item)
        until = f"the post-game of battle {self.battle} ends" if self.battle is not None else "the first battle"
        verdict = "" if self.bought else ": too dear, not bought"
        return f"{warband_name(state, self.warband)}: price of {item} rolled {self.price} gc{verdict} (it holds until {until})"


class ReinforcementRollHeld(ev.Event, frozen=True, kw_only=True, tag="coreheim.reinforcement-roll-held"):
    warband: str
    battle: int
    xp: int  # what the D6 gave
    reason: str  # why no recruit joined: what those asked for need or cost

    def describe(self, state: CampaignState) -> str:
        return (f"{warband_name(state, self.warband)}: {self.xp} XP rolled for reinforcements, no recruit taken: "
                f"{self.reason} (the roll holds until the reinforcing is done)")


class BattleDeeds(ev.Event, frozen=True, kw_only=True, tag="coreheim.battle-deeds"):
    warband: str
    battle: int
    fought: list[str]
    out_of_action: list[str] = []
    took_out: dict[str, list[str]] = {}  # fighter -> enemies he took out of action

    def describe(self, state: CampaignState) -> str:
        swords = _underdog_swords(state, self.battle)
        victims = {enemy: sword for sword, (band, enemies) in swords.items() if band != self.warband for enemy in enemies}
        out = ", ".join(fighter_name(state, f) + (f" (taken out by {_sword_words(state, victims[f], swords)})"
                                                  if f in victims else "")
                        for f in self.out_of_action) or "nobody"
        own = [sword for sword, (band, _enemies) in swords.items() if band == self.warband and sword in self.fought]
        with_sword = "".join(f" (with {_sword_words(state, sword, swords)})" for sword in own)
        took = sum(len(enemies) for enemies in self.took_out.values())
        return (f"{warband_name(state, self.warband)} in battle {self.battle}: {plural(len(self.fought), 'warrior')} fought"
                f"{with_sword}, out of action: {out}; {took} {'enemy' if took == 1 else 'enemies'} taken out")


def _underdog_swords(state: CampaignState, battle: int) -> dict[str, tuple[str, list[str]]]:
    """The Hired Swords underdog points brought to the battle after it was recorded -> the warband
    each fought for and the enemies he took out: a warband's deeds stated again for him say so,
    lest they read as a second battle."""
    from commands.coreheim import facts  # deferred: the facts fold these events, so they import this module

    found = next((b for b in state.latest_battles if b.number == battle), None)
    if found is None:
        return {}
    took_out = {deed.fighter: deed.took_out for deed in found.deeds}
    return {sword: (band, list(took_out.get(sword, []))) for band in found.participants
            if (sword := facts.of(state).warband(band).underdog_of(battle).sword)}


def _sword_words(state: CampaignState, sword: str, swords: dict[str, tuple[str, list[str]]]) -> str:
    brought_by = possessive(warband_name(state, swords[sword][0]))
    return f"{fighter_name(state, sword)}, the Hired Sword {brought_by} underdog point brought"


class BattleRatings(ev.Event, frozen=True, kw_only=True, tag="coreheim.battle-ratings"):
    battle: int
    ratings: dict[str, int]  # warband -> rating before the battle
    underdog: dict[str, int] = {}  # warband -> bonus points
    rows: dict[str, str] = {}  # warband -> underdog row

    def describe(self, state: CampaignState) -> str:
        parts = []
        for warband, rating in self.ratings.items():
            points = self.underdog.get(warband, 0)
            bonus = f", underdog {plural(points, 'point')} ({self.rows.get(warband, '')})" if points else ""
            parts.append(f"{warband_name(state, warband)} {rating}{bonus}")
        return f"ratings at battle {self.battle}: " + "; ".join(parts)


class HiredSwordRehired(ev.Event, frozen=True, kw_only=True, tag="coreheim.hired-sword-rehired"):
    """A Hired Sword who left the warband is hired again: the same warrior, with his XP, profile and
    advances (2.3: "the sword leaves with his XP and may be hired again later"). The shared
    vocabulary has no way back for a fighter who left."""

    warband: str
    fighter: str

    def describe(self, state: CampaignState) -> str:
        return f"{fighter_name(state, self.fighter)} is hired again by {warband_name(state, self.warband)}"


class UnderdogSpent(ev.Event, frozen=True, kw_only=True, tag="coreheim.underdog-spent"):
    warband: str
    battle: int
    points: int
    sword: str | None = None  # the Hired Sword one of the points brought to this battle

    def describe(self, state: CampaignState) -> str:
        brought = f" (one brought {fighter_name(state, self.sword)}, a Hired Sword)" if self.sword else ""
        return (f"{warband_name(state, self.warband)} spends {plural(self.points, 'underdog point')} "
                f"of battle {self.battle}{brought}")


# --- registered with the ledger's decoder, all at once -----------------------------------------

EVENTS = (
    WarriorProfile,
    GroupSizeChanged,
    ShardsChanged,
    ExplorationResolved,
    ExplorationBonus,
    InjuryRolled,
    HenchmanInjuryRolled,
    MountInjuryRolled,
    AdvanceRolled,
    MissesGame,
    RareItemSearched,
    RareItemBought,
    PriceRolled,
    ReinforcementRollHeld,
    BattleDeeds,
    BattleRatings,
    HiredSwordRehired,
    UnderdogSpent,
)
for registered in EVENTS:
    ev.event_type(registered)
