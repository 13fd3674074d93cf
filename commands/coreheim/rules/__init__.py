"""Coreheim's post-game rules as pure functions.

No I/O, no randomness, no clock: every die is a parameter (faces already rolled) and every
player decision is a parameter. When a rule needs a roll or a decision it was not given,
it raises the kit's ``MoreDice`` (a roll) or lists it as ``pending`` (a ChoiceRequest), so a
later layer can roll or ask and call again. A refusal raises CoreheimRuleError with a message for players.

Decisions taken where the seed and shared/rules/coreheim.md are silent:

- Exploration: with seven or more dice the player keeps one to six of them ("a maximum of six
  dice as your result"; fewer may leave a set of multiples out); with six or fewer, all count.
  Dice to discard (Mordheim Survivor, Bionic Eye) are dropped first.
  Multiples are read from the kept dice only. With no dice, no shards.
- A set of multiples is all kept dice showing one face (5 5 5 is a triple, never a double).
- D3 rolls are given as their D3 value (1-3); the dice layer halves the D6.
- Heroes cannot die in the warband's first two games: the battle being resolved is the
  warband's game number ``warband_game_number`` (1-based) and Dead counts as Multiple
  Injuries when it is 1 or 2. That protection is checked before Shackles, so a protected
  hero does not use up the enemy's Shackles. Vampire "Immortal" works the same way.
- Dead warriors earn no experience at all (no deeds, no leader's bonus). Henchman groups
  are one participant: "survived" means at least one member survived.
- Advances: an advance that would pass the racial maximum (or a henchman's second advance
  of one characteristic) is re-rolled, also for "I two steps" when only one step is left.
  When no row of the table could ever apply, the advance is lost instead of re-rolling
  forever. A group's voluntary re-roll (2+ members) replaces the first roll; forced
  re-rolls still apply to the second.
- Talent!: a further Talent! in the same post-game is re-rolled (as original Mordheim).
  Middenheim's extra Strength list comes on top of the two lists chosen, which must
  therefore be other lists. The lists "open to the warband" are the union of its hero
  types' lists plus the variant's optional promoted lists (Marienburg: Rogue).
- Wyrdstone: at most the table's largest row (8 shards) sold per post-game; the rest stays
  in store. Warband size counts warriors and animals, never Hired Swords.
- Selling a dice-priced item ("40+2D6") gives half its fixed part; an item with no price
  cannot be sold until a house rule prices it.
- Rare items: one search per hero per post-game; only heroes not taken out of action. The
  rarities are the price chart's (Common: no search; from version 2 of the ledger's rules).
- Underdog: with several opponents the reference is the second-highest rating among all
  warbands in the battle; a negative gap is no gap.
- Casual-mode rating: animals and monsters count like henchmen (5).
- Not modelled here: Cabal Ritual, Daemon Soul, Smuggler, drug side effects, leader
  succession; the command layer records those by hand.
"""

from commands.coreheim.rules.common import (
    CoreheimRuleError,
    Result,
    ChoiceRequest,
    Pending,
    STATS,
    HIGHER_IS_BETTER,
    Characteristics,
    passes_test,
)
from commands.coreheim.rules.exploration import (
    MultipleSet,
    ShardsFound,
    exploration_dice_count,
    keep_exploration_dice,
    shards_found,
    shards_row,
    find_multiples,
    choose_multiple,
    multiples_entry,
    multiples_variant,
    GoldGained,
    FreeHiredSwordGained,
    Outcome,
    Resolution,
    resolve_multiples,
    chart_words,
)
from commands.coreheim.rules.injuries import (
    HenchmanInjury,
    resolve_henchman_injury,
    InjuryRoll,
    HeroInjuryResolution,
    hero_injury_row,
    resolve_hero_injury,
)
from commands.coreheim.rules.experience import (
    Role,
    BattleParticipant,
    XpAward,
    battle_xp_awards,
    AdvanceKind,
    advance_thresholds_crossed,
    advance_table,
    StatImproved,
    NewSkill,
    Talent,
    NoAdvancePossible,
    AdvanceRoll,
    AdvanceResolution,
    race_maximums,
    resolve_hero_advance,
    resolve_henchman_advance,
    apply_stat_change,
)
from commands.coreheim.rules.skills import (
    hero_skill_lists,
    check_new_skill,
    TalentPromotion,
    resolve_talent,
    Reinforcement,
    ReinforcementPlan,
    plan_reinforcements,
)
from commands.coreheim.rules.trading import (
    WyrdstoneSale,
    sell_wyrdstone,
    sale_value,
    item_sale_value,
    RareSearch,
    check_rare_searcher,
    search_rare_item,
    hired_sword_upkeep,
)
from commands.coreheim.rules.rating import (
    RatedMember,
    RatedHiredSword,
    warband_rating,
    underdog_bonus,
)

__all__ = [
    "CoreheimRuleError",
    "Result",
    "ChoiceRequest",
    "Pending",
    "STATS",
    "HIGHER_IS_BETTER",
    "Characteristics",
    "passes_test",
    "MultipleSet",
    "ShardsFound",
    "exploration_dice_count",
    "keep_exploration_dice",
    "shards_found",
    "shards_row",
    "find_multiples",
    "choose_multiple",
    "multiples_entry",
    "multiples_variant",
    "GoldGained",
    "FreeHiredSwordGained",
    "Outcome",
    "Resolution",
    "resolve_multiples",
    "chart_words",
    "HenchmanInjury",
    "resolve_henchman_injury",
    "InjuryRoll",
    "HeroInjuryResolution",
    "hero_injury_row",
    "resolve_hero_injury",
    "Role",
    "BattleParticipant",
    "XpAward",
    "battle_xp_awards",
    "AdvanceKind",
    "advance_thresholds_crossed",
    "advance_table",
    "StatImproved",
    "NewSkill",
    "Talent",
    "NoAdvancePossible",
    "AdvanceRoll",
    "AdvanceResolution",
    "race_maximums",
    "resolve_hero_advance",
    "resolve_henchman_advance",
    "apply_stat_change",
    "hero_skill_lists",
    "check_new_skill",
    "TalentPromotion",
    "resolve_talent",
    "Reinforcement",
    "ReinforcementPlan",
    "plan_reinforcements",
    "WyrdstoneSale",
    "sell_wyrdstone",
    "sale_value",
    "item_sale_value",
    "RareSearch",
    "check_rare_searcher",
    "search_rare_item",
    "hired_sword_upkeep",
    "RatedMember",
    "RatedHiredSword",
    "warband_rating",
    "underdog_bonus",
]
