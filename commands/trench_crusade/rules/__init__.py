"""Trench Crusade post-battle rules as pure functions (no I/O, no randomness, no ledger).

Every function takes the dice already rolled and the player's choices, and either returns
what happens or raises ``TrenchCrusadeRuleError`` with a message a player understands; a name
no table has (a skill table, a source of Promotion Dice) is ``BadInput`` instead, naming what there
is, as a face off its die is (``check_faces``): a mistyped name, not a refusal of the rules.
The Promotions Step follows the seed text sentence by sentence; the other steps follow
``shared/rules/trench-crusade.md`` through the tables in ``data/``.

Decisions where the text is silent (or where the seed and later sources differ):

1. Eligible models are the Troops on the roster when the step starts (after Trauma),
   whether or not they were in the Force: the seed says "Troop models in your Warband".
2. Models on the non-promotable list never take Promotion Dice, so the levelling rule
   counts only the promotable Troops (v1.0 reading, compatible with the seed).
   Head-Wounded ELITE do not take Promotion Dice: the seed only speaks of Troops. The v1.0
   rule (rules D5) is a house rule, ``head_wound_elite=True``: such a model takes dice exactly
   as a Troop (it counts for levelling, its dice follow the order, streak and stop rules), and
   its 6 lifts the Head Wound's XP block instead of promoting it (the Battle Scar stays). That
   6 stops rolling as a promotion does and resets the streak, but adds no ELITE to the count.
3. Levelling: a model's 1st and 2nd dice are free; its k-th die (k >= 3) needs every
   eligible Troop to hold at least k-1. So 2/0 over two Troops is allowed, 3/1 is not.
4. The whole pool must be assigned. When no Troop can take dice, the dice are lost
   (v1.0), nothing is rolled and the failure streak does not change.
5. Stop rule: the first 6 ends all rolling, so one promotion per phase (seed, rules D1).
   The v1.0 wording (stop rolling for that model, continue with the next) is available as
   ``stop_rule="per-model"``; only then can the 6-ELITE stop end rolling early.
6. Failure streak: every die rolled without a promotion adds 1, across battles; any
   promotion resets it to 0 (inferred). With 5 on the roster the next die is a promotion;
   ``counted_as_six`` then says the streak rule made it one: a die that shows a 6 is a natural
   6, not counted as one (``natural_sixes``; versions 1.0.0 to 1.5.0 said counted whatever the face).
   A skipped step or an empty pool leaves the streak as it was.
7. A model with the Wildcard skill Bad Company is not counted as ELITE for either
   6-ELITE check (the skill says so for the check; applying it to both keeps them equal).
8. The pool counts every Glorious Deed the warband completed, warband-level deeds
   included. No die for winning (seed, rules D2).
9. XP is given after promotions to every ELITE on the roster at that time, so a model just
   promoted earns the survival XP and, if it did a deed, the deed XP (same reading for both).
   A model earns at most +1 XP for deeds in one game, warband-level deeds included; the
   LEADER receiving a warband-level deed's XP must have taken part in the game.
10. A lasting injury the model already has is re-rolled; a 2nd Lost an Eye removes it.
11. A Captured ELITE is neither removed nor scarred here: the ransom decides (unpaid:
    executed; paid: Full Recovery), and Bitter Lessons' D3 is awarded as its own XP award.
12. ``games_played`` for Exploration counts the game just played; the rules take the final
    Exploration Roll after the player's re-rolls and Exploration Skills.
"""

from commands.trench_crusade.rules.common import (
    ELITE,
    LEADER,
    BAD_COMPANY,
    BASE_PROMOTION_DICE,
    FAILURES_BEFORE_AUTOMATIC_SIX,
    ELITE_CAP,
    PromotionStop,
    PromotionStopRule,
    TrenchCrusadeRuleError,
    Fighter,
    DeedRecord,
    BattleRecord,
    non_promotable_row,
    limited_potential_row,
)
from commands.trench_crusade.rules.promotions import (
    elite_count,
    promotion_step_skipped,
    ExtraPromotionDice,
    PromotionPool,
    promotion_pool,
    most_extra_dice,
    refuse_extra_dice_without_holders,
    Exclusion,
    PromotionEligibility,
    promotion_eligibility,
    validate_assignment,
    even_spread,
    dice_in_fighter_order,
    validate_roll_order,
    StreakStep,
    streak_step,
    PromotionDie,
    PromotionRolls,
    DiePurpose,
    roll_promotion_dice,
    promote,
    restore_xp_gain,
    PromotionStepResult,
    resolve_promotion_step,
)
from commands.trench_crusade.rules.experience import (
    XpCap,
    xp_cap,
    XpGrant,
    advancement_circles_reached,
    award_xp,
    ARBITER_AWARD,
    grant_xp,
    XpAwardLine,
    warband_deed_leaders,
    battle_experience,
    AdvancementOption,
    AdvancementResult,
    skill_table,
    advancement_skill,
    resolve_advancement_roll,
    refuse_keeping_another_table,
)
from commands.trench_crusade.rules.trauma import (
    troop_survival,
    TraumaOutcome,
    trauma_roll_purpose,
    elite_trauma,
    DeploymentCost,
    deployment_costs,
)
from commands.trench_crusade.rules.exploration import (
    exploration_stage,
    explored_stage,
    exploration_tables,
    exploration_dice_count,
    exploration_rerolls,
    ExplorationResult,
    resolve_exploration,
    lasting_loot,
    validate_battle_record,
    glory_from_deeds,
)

__all__ = [
    "ELITE",
    "LEADER",
    "BAD_COMPANY",
    "BASE_PROMOTION_DICE",
    "FAILURES_BEFORE_AUTOMATIC_SIX",
    "ELITE_CAP",
    "PromotionStop",
    "PromotionStopRule",
    "TrenchCrusadeRuleError",
    "Fighter",
    "DeedRecord",
    "BattleRecord",
    "non_promotable_row",
    "limited_potential_row",
    "elite_count",
    "promotion_step_skipped",
    "ExtraPromotionDice",
    "PromotionPool",
    "promotion_pool",
    "most_extra_dice",
    "refuse_extra_dice_without_holders",
    "Exclusion",
    "PromotionEligibility",
    "promotion_eligibility",
    "validate_assignment",
    "even_spread",
    "dice_in_fighter_order",
    "validate_roll_order",
    "StreakStep",
    "streak_step",
    "PromotionDie",
    "PromotionRolls",
    "DiePurpose",
    "roll_promotion_dice",
    "promote",
    "restore_xp_gain",
    "PromotionStepResult",
    "resolve_promotion_step",
    "XpCap",
    "xp_cap",
    "XpGrant",
    "advancement_circles_reached",
    "award_xp",
    "ARBITER_AWARD",
    "grant_xp",
    "XpAwardLine",
    "warband_deed_leaders",
    "battle_experience",
    "AdvancementOption",
    "AdvancementResult",
    "skill_table",
    "advancement_skill",
    "resolve_advancement_roll",
    "refuse_keeping_another_table",
    "troop_survival",
    "TraumaOutcome",
    "trauma_roll_purpose",
    "elite_trauma",
    "DeploymentCost",
    "deployment_costs",
    "exploration_stage",
    "explored_stage",
    "exploration_tables",
    "exploration_dice_count",
    "exploration_rerolls",
    "ExplorationResult",
    "resolve_exploration",
    "lasting_loot",
    "validate_battle_record",
    "glory_from_deeds",
]
