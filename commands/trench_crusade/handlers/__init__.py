"""Trench Crusade's handlers: the pure rules of `rules` run on the ledger, one module per part of
the campaign, and the one table mapping each command to its handler.

A handler reads the campaign state (the core's battles, the ruleset's typed facts), turns it into
the rules' own view (`rules.Fighter`, `rules.BattleRecord`), asks the rules what happens, rolls each
die the rules ask for (the kit's `resolve` where a rule asks with `MoreDice`), and emits events. Every refusal of the rules (`TrenchCrusadeRuleError`)
becomes a `RuleViolation` in one place, the `refusing` wrapper of the handler table below.

Decisions (the rules module's docstring lists the rule readings):

- The Campaign Phase runs strictly in order for the warband's latest battle: Trauma,
  Promotions, Experience, then every Advancement Roll owed, then Exploration, Quartermaster
  and Roster. Each step is one command, refused when an earlier step is not done or when it
  was already done; a shared `post-game.step-done` event marks it done even when it changed
  nothing.
- Reinforcements (optional, rules §4 and §9) is taken in Exploration's place and forfeits it:
  `trench-crusade.reinforcements` discards the Arsenal and sets the Strongbox to 0; recruiting
  on the budget is left to the players (the ledger does not price Battlekit, so it cannot work
  out the warband's Total Cost).
- Quartermaster and Roster (rules §11) close the phase and are required: the rules make them
  part of every Campaign Phase, and a player finishes them with no purchases (`quartermaster`,
  then `roster`, each only a confirmation). Until the Quartermaster step is done, and once
  Exploration or Reinforcements is, a warband may retire a model with 2 Battle Scars (its kit to
  the Arsenal), buy Battlekit (ducats or Glory) and Glory Items (Glory) at the price the player
  gives (the public rules print no Armoury prices), sell for half the price paid, rounded up, in
  the currency paid, and move kit between the Arsenal and its models (ELITE-only kit only to
  ELITE). After Reinforcements the window is open too: rules §13 C1 is read as the TC step page
  has it ("go to Quartermaster"); the other reading is a Quartermaster step with no purchases.
  One price per item name and warband, the latest purchase's: an Armoury prices an item, not a copy.
- A battle is refused for a warband that has not finished the Campaign Phase of its latest
  battle (the guided post-game's steps, `steps.py`): its remaining steps would otherwise be
  dropped, since every step belongs to the latest battle.
- A Troop has 0 XP in this ruleset (only ELITE gain XP, and `xp award` is capped and
  refused for Troops), so a promotion's "begins with 0 Experience Points" emits nothing in
  play. If an arbiter's correction gave a Troop XP, the promotion emits `XPSpent` of all of
  it ("Promotion: an ELITE begins with 0 XP"): the shared fact keeps every read model right
  without a ruleset-only "reset" event.
- XP owes an Advancement Roll per circle reached whatever gave it: the Experience step, `xp award`,
  and (from 1.1.0) an arbiter's `correct --xp` on an ELITE. A correction is not capped, and a
  negative one takes back no roll owed: the award to undo is voided instead.
- A fighter's Faction List entry (what the model lists match) is recorded by
  `trench-crusade.recruit --model`; a fighter added with the shared `fighter add` is read
  by its `--role` instead.
- A warband's faction is one of the six v1.0 factions, by id or name; it is stored by id.
- Removed without dying (Unfit for Duty, a 2nd Lost an Eye): `FighterRetired`, and its
  Battlekit goes to the warband's stash (the Arsenal). Killed: `FighterDied` (kit lost).
- A Captured ELITE stays captured until `trench-crusade.ransom` settles it: paid ducats go
  from its warband's treasury to the captor's and it returns (Full Recovery); unpaid, it
  is executed. The ransom is settled before the phase goes on (rules §5), so every step after
  Trauma is refused while a model of the warband is Captured.
"""

from commands.kit import refusing
from commands.shared import SHARED_HANDLERS, AwardXP, Correct, EnlistWarband, RecordBattle, RecruitFighter
from commands.trench_crusade import rules
from commands.trench_crusade.commands import (
    Advancement,
    Allocate,
    BuyKit,
    Experience,
    Exploration,
    Promotions,
    Quartermaster,
    Ransom,
    RecordTrenchBattle,
    Recruit,
    Reinforcements,
    Retire,
    Roster,
    SellKit,
    Trauma,
)
from commands.trench_crusade.handlers import aftermath, experience, exploration, promotions, quartermaster, warband

HANDLERS = {
    **SHARED_HANDLERS,
    **refusing(rules.TrenchCrusadeRuleError, {
        EnlistWarband: warband.enlist,
        RecruitFighter: warband.recruit_shared,
        RecordBattle: warband.record_shared_battle,
        AwardXP: warband.award_capped_xp,
        Correct: warband.correct_earning_advancements,
        Recruit: warband.recruit,
        RecordTrenchBattle: warband.record_battle,
        Trauma: aftermath.trauma,
        Ransom: aftermath.ransom,
        Promotions: promotions.promotions,
        Experience: experience.experience,
        Advancement: experience.advancement,
        Reinforcements: exploration.reinforcements,
        Exploration: exploration.exploration,
        Retire: quartermaster.retire,
        BuyKit: quartermaster.buy,
        SellKit: quartermaster.sell,
        Allocate: quartermaster.allocate,
        Quartermaster: quartermaster.quartermaster,
        Roster: quartermaster.roster,
    }),
}
