"""Trench Crusade post-battle rules as pure functions (no I/O, no randomness, no ledger).

Every function takes the dice already rolled and the player's choices, and either returns
what happens or raises ``TrenchCrusadeRuleError`` with a message a player understands.
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
   ``counted_as_six`` then says the streak rule applied, whatever the face.
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

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Literal, NamedTuple

import msgspec

from .tables import (
    EliteTraumaRow,
    ExplorationLocation,
    ExplorationStage,
    ExplorationTableId,
    ModelListRow,
    SkillRow,
    TrenchCrusadeTables,
    TroopSurvivalRow,
)

ELITE = "ELITE"
LEADER = "LEADER"
BAD_COMPANY = "Bad Company"
BASE_PROMOTION_DICE = 1
FAILURES_BEFORE_AUTOMATIC_SIX = 5
ELITE_CAP = 6

PromotionStopRule = Literal["first-six", "per-model"]


class TrenchCrusadeRuleError(ValueError):
    """A refusal: the rules do not allow what was asked."""


class MoreDiceNeeded(TrenchCrusadeRuleError):
    """The dice given ran out before the rule was resolved; roll more and try again."""

    def __init__(self, message: str, *, at_least: int) -> None:
        super().__init__(message)
        self.at_least = at_least


# --- inputs ------------------------------------------------------------------------------


class Fighter(msgspec.Struct, frozen=True, kw_only=True):
    """A model on a warband roster, as the rules need to see it."""

    fighter_id: str
    name: str  # what the player calls it, used in messages
    model: str  # the Faction List entry, e.g. "Grail Thralls"
    keywords: frozenset[str] = frozenset()
    xp: int = 0
    skills: frozenset[str] = frozenset()
    injuries: tuple[str, ...] = ()  # ids of trauma rows suffered
    battle_scars: int = 0
    xp_blocked: bool = False  # Head Wound

    @property
    def is_elite(self) -> bool:
        return ELITE in self.keywords


class DeedRecord(msgspec.Struct, frozen=True, kw_only=True):
    deed_id: str
    fighter_id: str | None = None  # None for a warband-level deed


class BattleRecord(msgspec.Struct, frozen=True, kw_only=True):
    """What one warband's record of a game must hold for the Campaign Phase."""

    scenario_id: str
    result: Literal["win", "loss", "draw"]
    participants: tuple[str, ...]  # the Force: only these can do deeds or gain XP
    out_of_action: tuple[str, ...] = ()  # casualties: each makes a Trauma roll
    deeds: tuple[DeedRecord, ...] = ()
    side: Literal["attacker", "defender"] | None = None


def _ordinal(number: int) -> str:
    if 10 <= number % 100 <= 20:
        suffix = "th"
    else:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def _dice_word(count: int) -> str:
    return "die" if count == 1 else "dice"


def _check_face(face: int, sides: int, what: str) -> None:
    if not 1 <= face <= sides:
        raise TrenchCrusadeRuleError(f"{what} must be between 1 and {sides}, not {face}")


# --- model lists -------------------------------------------------------------------------


def _matching_row(
    rows: Sequence[ModelListRow], fighter: Fighter, faction: str
) -> ModelListRow | None:
    keywords = {keyword.casefold() for keyword in fighter.keywords}
    for row in rows:
        if row.faction is not None and row.faction != faction:
            continue
        if row.keyword is not None:
            if row.keyword.casefold() in keywords:
                return row
        elif fighter.model.casefold() in {name.casefold() for name in (row.model, *row.aliases)}:
            return row
    return None


def non_promotable_row(
    fighter: Fighter, faction: str, tables: TrenchCrusadeTables
) -> ModelListRow | None:
    """The row of the non-promotable list that covers this model, if any."""
    return _matching_row(tables.non_promotable.rows, fighter, faction)


def limited_potential_row(
    fighter: Fighter, faction: str, tables: TrenchCrusadeTables
) -> ModelListRow | None:
    """The row of the Limited Potential (max 7 XP) list that covers this model, if any."""
    return _matching_row(tables.limited_potential.rows, fighter, faction)


# --- Promotions Step ---------------------------------------------------------------------


def elite_count(roster: Sequence[Fighter]) -> int:
    """ELITE models as counted for the 6-ELITE checks (Bad Company models do not count)."""
    return sum(1 for fighter in roster if fighter.is_elite and BAD_COMPANY not in fighter.skills)


def promotion_step_skipped(roster: Sequence[Fighter]) -> bool:
    """Ignore the Promotion step completely with 6 or more ELITE at the start of the phase."""
    return elite_count(roster) >= ELITE_CAP


class ExtraPromotionDice(msgspec.Struct, frozen=True, kw_only=True):
    """Dice added by a Skill or Glory Item, naming its row in ``promotion-dice-sources``."""

    source_id: str
    dice: int


class PromotionPool(msgspec.Struct, frozen=True, kw_only=True):
    base: int
    glorious_deeds: int
    extra: tuple[ExtraPromotionDice, ...]
    size: int


def promotion_pool(
    deeds: Sequence[DeedRecord],
    extra_dice: Sequence[ExtraPromotionDice],
    tables: TrenchCrusadeTables,
) -> PromotionPool:
    """1D6, plus 1D6 per Glorious Deed by any model of the warband, plus named extra dice."""
    sources = {source.id: source for source in tables.promotion_dice_sources.rows}
    for extra in extra_dice:
        source = sources.get(extra.source_id)
        if source is None:
            raise TrenchCrusadeRuleError(
                f"{extra.source_id!r} does not add Promotion Dice; known sources: "
                f"{', '.join(sources) or 'none'}"
            )
        if extra.dice < 1 or extra.dice % source.dice_each:
            raise TrenchCrusadeRuleError(
                f"{source.name} adds {source.dice_each} {_dice_word(source.dice_each)} per "
                f"{source.per}, so it cannot add {extra.dice}"
            )
    size = BASE_PROMOTION_DICE + len(deeds) + sum(extra.dice for extra in extra_dice)
    return PromotionPool(
        base=BASE_PROMOTION_DICE, glorious_deeds=len(deeds), extra=tuple(extra_dice), size=size
    )


class Exclusion(msgspec.Struct, frozen=True, kw_only=True):
    fighter_id: str
    name: str
    reason: str
    row_id: str | None = None  # the non-promotable row, when that is the reason


class PromotionEligibility(msgspec.Struct, frozen=True, kw_only=True):
    eligible: tuple[Fighter, ...]
    excluded: tuple[Exclusion, ...]


def promotion_eligibility(
    roster: Sequence[Fighter],
    faction: str,
    tables: TrenchCrusadeTables,
    *,
    head_wound_elite: bool = False,
) -> PromotionEligibility:
    """The Troops that may take Promotion Dice, and why every other model may not;
    ``head_wound_elite`` (house rule, v1.0) lets a Head-Wounded ELITE take them as a Troop."""
    eligible: list[Fighter] = []
    excluded: list[Exclusion] = []
    for fighter in roster:
        if fighter.is_elite and head_wound_elite and fighter.xp_blocked:
            eligible.append(fighter)
        elif fighter.is_elite:
            excluded.append(
                Exclusion(fighter_id=fighter.fighter_id, name=fighter.name, reason="already ELITE")
            )
        elif (row := non_promotable_row(fighter, faction, tables)) is not None:
            excluded.append(
                Exclusion(
                    fighter_id=fighter.fighter_id,
                    name=fighter.name,
                    reason=f"{fighter.model} cannot be Promoted",
                    row_id=row.id,
                )
            )
        else:
            eligible.append(fighter)
    return PromotionEligibility(eligible=tuple(eligible), excluded=tuple(excluded))


def validate_assignment(
    assignment: Mapping[str, int], eligibility: PromotionEligibility, pool_size: int
) -> None:
    """Refuse an assignment of Promotion Dice (fighter id -> dice) the seed does not allow."""
    eligible = {fighter.fighter_id: fighter for fighter in eligibility.eligible}
    excluded = {exclusion.fighter_id: exclusion for exclusion in eligibility.excluded}
    for fighter_id, dice in assignment.items():
        if fighter_id in excluded:
            exclusion = excluded[fighter_id]
            raise TrenchCrusadeRuleError(
                f"{exclusion.name} cannot take Promotion Dice: {exclusion.reason}"
            )
        if fighter_id not in eligible:
            raise TrenchCrusadeRuleError(f"there is no model {fighter_id!r} in this warband")
        if dice < 0:
            raise TrenchCrusadeRuleError(
                f"{eligible[fighter_id].name} cannot take {dice} Promotion Dice"
            )
    if not eligible:
        if any(assignment.values()):
            raise TrenchCrusadeRuleError("no Troop in this warband can take Promotion Dice")
        return
    # A Head-Wounded ELITE taking dice as a Troop (house rule) is levelled with the Troops.
    levelled = "Troop" if not any(f.is_elite for f in eligible.values()) else "model taking Promotion Dice"
    assigned = sum(assignment.values())
    if assigned != pool_size:
        raise TrenchCrusadeRuleError(
            f"all {pool_size} Promotion {_dice_word(pool_size)} must be assigned; "
            f"{assigned} {'is' if assigned == 1 else 'are'}"
        )
    counts = {fighter_id: assignment.get(fighter_id, 0) for fighter_id in eligible}
    most_id = max(counts, key=counts.__getitem__)
    fewest_id = min(counts, key=counts.__getitem__)
    most, fewest = counts[most_id], counts[fewest_id]
    if most >= 3 and fewest < most - 1:
        raise TrenchCrusadeRuleError(
            f"{eligible[most_id].name} cannot take a {_ordinal(most)} Promotion Die while "
            f"{eligible[fewest_id].name} has {fewest}: no model gets a {_ordinal(most)} die "
            f"until every {levelled} has at least {most - 1} (Promotions Step)"
        )


def even_spread(eligible_ids: Sequence[str], pool_size: int) -> dict[str, int]:
    """Deal the pool round-robin in the given order: always a valid assignment."""
    if not eligible_ids:
        return {}
    each, remainder = divmod(pool_size, len(eligible_ids))
    return {
        fighter_id: each + (1 if position < remainder else 0)
        for position, fighter_id in enumerate(eligible_ids)
    }


def dice_in_fighter_order(
    assignment: Mapping[str, int], fighter_order: Sequence[str]
) -> tuple[str, ...]:
    """A rolling order that rolls all of one model's dice before the next model's."""
    if set(fighter_order) != {fighter_id for fighter_id, dice in assignment.items() if dice}:
        raise TrenchCrusadeRuleError(
            "the rolling order must name every model that has Promotion Dice, and only those"
        )
    return tuple(fighter_id for fighter_id in fighter_order for _ in range(assignment[fighter_id]))


def validate_roll_order(
    order: Sequence[str], assignment: Mapping[str, int], names: Mapping[str, str]
) -> None:
    """The rolling order lists one entry per assigned die (a model once per die it holds);
    ``names`` (fighter id -> name) lets the refusal name the model as the player does."""
    in_order = Counter(order)
    for fighter_id in sorted(set(in_order) | set(assignment)):
        assigned, listed = assignment.get(fighter_id, 0), in_order.get(fighter_id, 0)
        if assigned != listed:
            raise TrenchCrusadeRuleError(
                f"the rolling order has {listed} {_dice_word(listed)} for "
                f"{names.get(fighter_id, fighter_id)} but {assigned} "
                f"{'is' if assigned == 1 else 'are'} assigned"
            )


class StreakStep(NamedTuple):
    counted_as_six: bool  # the failure-streak rule made this die a 6
    promoted: bool
    new_streak: int


def streak_step(streak: int, face: int) -> StreakStep:
    """One Promotion Die: a 6 promotes; after 5 dice in a row without one, so does the next."""
    if not 0 <= streak <= FAILURES_BEFORE_AUTOMATIC_SIX:
        raise TrenchCrusadeRuleError(
            f"a streak of {streak} dice without a Promotion is impossible: "
            f"the die after {FAILURES_BEFORE_AUTOMATIC_SIX} always counts as a 6"
        )
    _check_face(face, 6, "a Promotion Die")
    counted_as_six = streak >= FAILURES_BEFORE_AUTOMATIC_SIX
    promoted = counted_as_six or face == 6
    return StreakStep(counted_as_six, promoted, 0 if promoted else streak + 1)


class PromotionDie(msgspec.Struct, frozen=True, kw_only=True):
    fighter_id: str
    face: int
    counted_as_six: bool
    promoted: bool
    streak_after: int
    xp_restored: bool = False  # a Head-Wounded ELITE's 6 (house rule): XP gain, not ELITE


class PromotionRolls(msgspec.Struct, frozen=True, kw_only=True):
    dice: tuple[PromotionDie, ...]  # the dice actually rolled, in order
    promoted: tuple[str, ...]
    xp_restored: tuple[str, ...]  # Head-Wounded ELITE whose 6 lifted the XP block
    streak_before: int
    streak_after: int
    unrolled: int  # assigned dice left unrolled because rolling stopped

    @property
    def dice_consumed(self) -> int:
        return len(self.dice)


#: Rolls one Promotion Die when it is needed: (fighter id, die number from 1) -> face.
RollDie = Callable[[str, int], int]


def roll_promotion_dice(
    order: Sequence[str],
    faces: Sequence[int] | RollDie,
    *,
    streak: int,
    elite_at_start: int,
    stop_rule: PromotionStopRule = "first-six",
    on_die: Callable[[PromotionDie], None] | None = None,
    restores_xp: Collection[str] = (),
) -> PromotionRolls:
    """Roll the assigned dice one at a time in the player's order, using ``faces`` in turn.

    ``faces`` is either the faces already rolled (faces beyond those needed are not
    consumed) or a function that rolls each die only when it is needed, so that a ledger
    records exactly the dice the rule asked for. ``on_die`` hears each die as soon as it is
    resolved. Rolling stops at the first promotion (``first-six``), or, with ``per-model``,
    skips the promoted model's remaining dice and stops once a promotion makes 6 ELITE.
    A 6 for a model of ``restores_xp`` (Head-Wounded ELITE, house rule) lifts its XP block
    instead of promoting it: it stops rolling like a promotion but adds no ELITE.
    """
    if elite_at_start >= ELITE_CAP:
        raise TrenchCrusadeRuleError(
            f"the warband has {elite_at_start} ELITE models, so the Promotion step is skipped"
        )
    rolled: list[PromotionDie] = []
    promoted: list[str] = []
    restored: list[str] = []
    current_streak = streak
    for position, fighter_id in enumerate(order):
        if fighter_id in promoted or fighter_id in restored:
            continue
        if callable(faces):
            face = faces(fighter_id, len(rolled) + 1)
        elif len(rolled) == len(faces):
            still_to_roll = sum(
                1 for later in order[position:] if later not in promoted and later not in restored
            )
            raise MoreDiceNeeded(
                f"roll the next Promotion Die: {still_to_roll} assigned "
                f"{_dice_word(still_to_roll)} not rolled yet",
                at_least=1,
            )
        else:
            face = faces[len(rolled)]
        step = streak_step(current_streak, face)
        current_streak = step.new_streak
        restores = step.promoted and fighter_id in restores_xp
        die = PromotionDie(
            fighter_id=fighter_id,
            face=face,
            counted_as_six=step.counted_as_six,
            promoted=step.promoted and not restores,
            streak_after=current_streak,
            xp_restored=restores,
        )
        rolled.append(die)
        if on_die is not None:
            on_die(die)
        if step.promoted:
            (restored if restores else promoted).append(fighter_id)
            if stop_rule == "first-six" or elite_at_start + len(promoted) >= ELITE_CAP:
                break
    return PromotionRolls(
        dice=tuple(rolled),
        promoted=tuple(promoted),
        xp_restored=tuple(restored),
        streak_before=streak,
        streak_after=current_streak,
        unrolled=len(order) - len(rolled),
    )


def promote(fighter: Fighter) -> Fighter:
    """Gains ELITE at once (so it moves to the Elite Models section) and starts at 0 XP."""
    return msgspec.structs.replace(fighter, keywords=fighter.keywords | {ELITE}, xp=0)


def restore_xp_gain(fighter: Fighter) -> Fighter:
    """A Head-Wounded ELITE's Promotion 6 (house rule): it gains XP again; the scar stays."""
    return msgspec.structs.replace(fighter, xp_blocked=False)


class PromotionStepResult(msgspec.Struct, frozen=True, kw_only=True):
    skipped: bool
    pool: PromotionPool | None
    eligibility: PromotionEligibility | None
    rolls: PromotionRolls | None
    roster_after: tuple[Fighter, ...]
    streak_after: int


def resolve_promotion_step(
    roster: Sequence[Fighter],
    faction: str,
    tables: TrenchCrusadeTables,
    *,
    deeds: Sequence[DeedRecord],
    extra_dice: Sequence[ExtraPromotionDice],
    assignment: Mapping[str, int],
    order: Sequence[str],
    faces: Sequence[int] | RollDie,
    streak: int,
    stop_rule: PromotionStopRule = "first-six",
    on_die: Callable[[PromotionDie], None] | None = None,
    head_wound_elite: bool = False,
) -> PromotionStepResult:
    """The whole Promotions Step: skip check, pool, assignment, rolling, promotion;
    ``head_wound_elite`` is the v1.0 house rule (see ``promotion_eligibility``)."""
    if promotion_step_skipped(roster):
        if any(assignment.values()):
            raise TrenchCrusadeRuleError(
                f"the warband has {elite_count(roster)} ELITE models, so the Promotion step "
                "is skipped and no Promotion Dice are assigned"
            )
        return PromotionStepResult(
            skipped=True,
            pool=None,
            eligibility=None,
            rolls=None,
            roster_after=tuple(roster),
            streak_after=streak,
        )
    pool = promotion_pool(deeds, extra_dice, tables)
    eligibility = promotion_eligibility(roster, faction, tables, head_wound_elite=head_wound_elite)
    validate_assignment(assignment, eligibility, pool.size)
    validate_roll_order(order, assignment, {fighter.fighter_id: fighter.name for fighter in roster})
    rolls = roll_promotion_dice(
        order,
        faces,
        streak=streak,
        elite_at_start=elite_count(roster),
        stop_rule=stop_rule,
        on_die=on_die,
        restores_xp={fighter.fighter_id for fighter in eligibility.eligible if fighter.is_elite},
    )
    roster_after = tuple(
        promote(fighter)
        if fighter.fighter_id in rolls.promoted
        else restore_xp_gain(fighter)
        if fighter.fighter_id in rolls.xp_restored
        else fighter
        for fighter in roster
    )
    return PromotionStepResult(
        skipped=False,
        pool=pool,
        eligibility=eligibility,
        rolls=rolls,
        roster_after=roster_after,
        streak_after=rolls.streak_after,
    )


# --- experience ----------------------------------------------------------------------------


class XpCap(NamedTuple):
    cap: int
    row_id: str | None  # the Limited Potential row, or None for the general cap


def xp_cap(fighter: Fighter, faction: str, tables: TrenchCrusadeTables) -> XpCap:
    row = limited_potential_row(fighter, faction, tables)
    if row is not None:
        return XpCap(tables.limited_potential.xp_cap, row.id)
    return XpCap(tables.experience.xp_cap, None)


class XpGrant(msgspec.Struct, frozen=True, kw_only=True):
    fighter_id: str
    award_id: str
    requested: int
    granted: int
    capped: bool  # the cap cut the award
    cap: int
    cap_row_id: str | None
    blocked: bool  # Head Wound: no XP at all
    xp_before: int
    xp_after: int
    advancement_circles: tuple[str, ...]  # circles reached: one Advancement Roll each


def advancement_circles_reached(
    xp_before: int, xp_after: int, tables: TrenchCrusadeTables
) -> tuple[str, ...]:
    return tuple(
        circle.id
        for circle in tables.experience.advancement_circles
        if xp_before < circle.xp <= xp_after
    )


def _dice_range(expression: str) -> range:
    """The results of the small dice an award may use (``D3``, ``D6``)."""
    if expression == "D3":
        return range(1, 4)
    if expression == "D6":
        return range(1, 7)
    raise TrenchCrusadeRuleError(f"unsupported dice for an XP award: {expression}")


def award_xp(
    fighter: Fighter,
    amount: int,
    award_id: str,
    faction: str,
    tables: TrenchCrusadeTables,
) -> XpGrant:
    """Give XP from a named award row, capped at 18 (7 for Limited Potential models)."""
    awards = {award.id: award for award in tables.experience.awards}
    award = awards.get(award_id)
    if award is None:
        raise TrenchCrusadeRuleError(f"there is no XP award {award_id!r}")
    if award.xp is not None and amount != award.xp:
        raise TrenchCrusadeRuleError(f"{award.description} gives {award.xp} XP, not {amount}")
    if award.dice is not None and amount not in _dice_range(award.dice):
        raise TrenchCrusadeRuleError(f"{award.dice} cannot give {amount} XP")
    return grant_xp(fighter, amount, award_id, faction, tables)


#: The award id of XP given by hand (an arbiter's award), which no table row prices.
ARBITER_AWARD = "arbiter"


def grant_xp(
    fighter: Fighter,
    amount: int,
    award_id: str,
    faction: str,
    tables: TrenchCrusadeTables,
) -> XpGrant:
    """Give ``amount`` XP to an ELITE, capped at 18 (7 for Limited Potential models);
    a Head-Wounded model gains none. ``award_xp`` checks table awards before this."""
    if amount < 1:
        raise TrenchCrusadeRuleError(f"an XP award must be at least 1, not {amount}")
    if not fighter.is_elite:
        raise TrenchCrusadeRuleError(
            f"{fighter.name} is not ELITE: only ELITE models gain Experience Points"
        )
    cap = xp_cap(fighter, faction, tables)
    granted = 0 if fighter.xp_blocked else max(0, min(amount, cap.cap - fighter.xp))
    xp_after = fighter.xp + granted
    return XpGrant(
        fighter_id=fighter.fighter_id,
        award_id=award_id,
        requested=amount,
        granted=granted,
        capped=not fighter.xp_blocked and granted < amount,
        cap=cap.cap,
        cap_row_id=cap.row_id,
        blocked=fighter.xp_blocked,
        xp_before=fighter.xp,
        xp_after=xp_after,
        advancement_circles=advancement_circles_reached(fighter.xp, xp_after, tables),
    )


class XpAwardLine(msgspec.Struct, frozen=True, kw_only=True):
    fighter_id: str
    award_id: str
    amount: int


def warband_deed_leaders(roster: Sequence[Fighter], battle: BattleRecord) -> list[Fighter]:
    """The ELITE LEADERs that took part: the models a warband-level deed's XP may go to."""
    participants = set(battle.participants)
    return [
        fighter
        for fighter in roster
        if fighter.is_elite and LEADER in fighter.keywords and fighter.fighter_id in participants
    ]


def battle_experience(
    roster: Sequence[Fighter],
    battle: BattleRecord,
    tables: TrenchCrusadeTables,
    *,
    warband_deed_leader: str | None = None,
) -> tuple[XpAwardLine, ...]:
    """The XP a game earns, given the roster after Trauma and Promotions.

    +1 to each ELITE that took part and is still on the roster; +1 more to each ELITE that
    did at least one deed; +1 to one ELITE LEADER that took part for warband-level deeds.
    """
    deeds = {deed.id: deed for deed in tables.glorious_deeds.deeds}
    participants = set(battle.participants)
    doers = {record.fighter_id for record in battle.deeds if record.fighter_id is not None}
    lines: list[XpAwardLine] = []
    for fighter in roster:
        if not fighter.is_elite or fighter.fighter_id not in participants:
            continue
        lines.append(XpAwardLine(fighter_id=fighter.fighter_id, award_id="survived", amount=1))
        if fighter.fighter_id in doers:
            lines.append(
                XpAwardLine(fighter_id=fighter.fighter_id, award_id="glorious-deed", amount=1)
            )
    if not any(deeds[record.deed_id].warband_level for record in battle.deeds):
        return tuple(lines)
    leaders = warband_deed_leaders(roster, battle)
    if warband_deed_leader is None:
        if len(leaders) > 1:
            raise TrenchCrusadeRuleError(
                "choose which ELITE LEADER gains the XP of the warband's Glorious Deed: "
                + ", ".join(leader.name for leader in leaders)
            )
        recipient = leaders[0] if leaders else None
    else:
        recipient = next(
            (leader for leader in leaders if leader.fighter_id == warband_deed_leader), None
        )
        if recipient is None:
            raise TrenchCrusadeRuleError(
                f"{warband_deed_leader!r} is not an ELITE LEADER that took part in the game"
            )
    if recipient is not None and recipient.fighter_id not in doers:
        lines.append(
            XpAwardLine(fighter_id=recipient.fighter_id, award_id="warband-deed-leader", amount=1)
        )
    return tuple(lines)


class AdvancementOption(msgspec.Struct, frozen=True, kw_only=True):
    table_id: str
    roll: int
    rolled_row_id: str
    result: SkillRow  # differs from the rolled row when that skill was already held


class AdvancementResult(msgspec.Struct, frozen=True, kw_only=True):
    options: tuple[AdvancementOption, ...]
    kept: AdvancementOption


def _skill_rows(
    table_id: str, roll: int, tables: TrenchCrusadeTables
) -> tuple[str, list[SkillRow], SkillRow]:
    """The table's name, its rows by roll, and the row a 2D6 roll lands on."""
    skill_tables = {table.id: table for table in tables.advancement_skills.tables}
    table = skill_tables.get(table_id)
    if table is None:
        raise TrenchCrusadeRuleError(
            f"there is no skill table {table_id!r}; tables: {', '.join(skill_tables)}"
        )
    if not 2 <= roll <= 12:
        raise TrenchCrusadeRuleError(f"an Advancement Roll is 2D6, so {roll} is impossible")
    rows = sorted(table.rows, key=lambda row: row.roll)
    return table.name, rows, next(row for row in rows if row.roll == roll)


def advancement_skill(
    table_id: str, roll: int, held_skills: Collection[str], tables: TrenchCrusadeTables
) -> SkillRow:
    """The skill a 2D6 roll gives on a table: a held skill falls to the next lower one the
    model lacks, else the next higher; 2 and 12 are Patron Skills."""
    table_name, rows, rolled = _skill_rows(table_id, roll, tables)
    if rolled.patron or rolled.skill not in held_skills:
        return rolled
    learnable = [row for row in rows if not row.patron and row.skill not in held_skills]
    lower = [row for row in learnable if row.roll < roll]
    higher = [row for row in learnable if row.roll > roll]
    if lower:
        return lower[-1]
    if higher:
        return higher[0]
    raise TrenchCrusadeRuleError(f"the model already has every skill of the {table_name} table")


def resolve_advancement_roll(
    rolls: Sequence[tuple[str, int]],
    keep_table_id: str,
    held_skills: Collection[str],
    tables: TrenchCrusadeTables,
) -> AdvancementResult:
    """Two 2D6 rolls on two different skill tables; the player keeps one result."""
    if len(rolls) != 2 or rolls[0][0] == rolls[1][0]:
        raise TrenchCrusadeRuleError("an Advancement Roll uses two different skill tables")
    options = tuple(
        AdvancementOption(
            table_id=table_id,
            roll=roll,
            rolled_row_id=_skill_rows(table_id, roll, tables)[2].id,
            result=advancement_skill(table_id, roll, held_skills, tables),
        )
        for table_id, roll in rolls
    )
    kept = next((option for option in options if option.table_id == keep_table_id), None)
    if kept is None:
        raise TrenchCrusadeRuleError(
            f"keep the result of one of the two tables rolled: {options[0].table_id} or "
            f"{options[1].table_id}"
        )
    return AdvancementResult(options=options, kept=kept)


# --- Trauma ---------------------------------------------------------------------------------


def troop_survival(face: int, tables: TrenchCrusadeTables) -> TroopSurvivalRow:
    """A Troop taken Out of Action rolls a D6: 1-2 it is removed, 3+ it is fine."""
    _check_face(face, 6, "a Survival Roll")
    return next(row for row in tables.trauma.troop_survival if row.low <= face <= row.high)


def _d66_row(roll: int, tables: TrenchCrusadeTables) -> EliteTraumaRow:
    tens, units = divmod(roll, 10)
    if not (1 <= tens <= 6 and 1 <= units <= 6):
        raise TrenchCrusadeRuleError(f"{roll} is not a D66 result (11 to 66, digits 1 to 6)")
    return next(row for row in tables.trauma.elite if row.low <= roll <= row.high)


class TraumaOutcome(msgspec.Struct, frozen=True, kw_only=True):
    fighter_id: str
    rolls_used: tuple[int, ...]
    rerolled_rows: tuple[str, ...]  # injuries it already had, rolled again
    row: EliteTraumaRow
    removed: bool  # dead, or a repeated injury that removes it; a capture is settled apart
    battle_scars_after: int
    unfit_for_duty: bool


def elite_trauma(
    fighter: Fighter, d66_rolls: Sequence[int], tables: TrenchCrusadeTables
) -> TraumaOutcome:
    """An ELITE taken Out of Action rolls D66 on the Trauma Table (re-rolling repeats)."""
    rerolled: list[str] = []
    for used, roll in enumerate(d66_rolls, start=1):
        row = _d66_row(roll, tables)
        repeated = row.kind == "injury" and row.id in fighter.injuries
        if repeated and row.repeat == "re-roll":
            rerolled.append(row.id)
            continue
        removed = row.kind == "dead" or (repeated and row.repeat == "removed")
        scars = fighter.battle_scars + (1 if row.battle_scar and not removed else 0)
        allowed = tables.trauma.scars_to_unfit + sum(
            1 for skill in tables.trauma.extra_scar_skills if skill in fighter.skills
        )
        return TraumaOutcome(
            fighter_id=fighter.fighter_id,
            rolls_used=tuple(d66_rolls[:used]),
            rerolled_rows=tuple(rerolled),
            row=row,
            removed=removed,
            battle_scars_after=scars,
            unfit_for_duty=not removed and scars >= allowed,
        )
    raise MoreDiceNeeded(
        f"{fighter.name} already has {', '.join(rerolled) or 'nothing rolled'}: "
        "roll D66 again on the Trauma Table",
        at_least=1,
    )


# --- Exploration ----------------------------------------------------------------------------


def exploration_stage(games_played: int, tables: TrenchCrusadeTables) -> ExplorationStage:
    for stage in tables.exploration.stages:
        if stage.min_games <= games_played and (
            stage.max_games is None or games_played <= stage.max_games
        ):
            return stage
    raise TrenchCrusadeRuleError(f"no Exploration stage covers {games_played} games played")


def exploration_dice_count(
    games_played: int, extra_dice_skills: int, tables: TrenchCrusadeTables
) -> int:
    """Dice for the stage, plus one per Extra Dice Exploration Skill."""
    return exploration_stage(games_played, tables).dice + extra_dice_skills


def exploration_rerolls(won: bool, reroll_skills: int, tables: TrenchCrusadeTables) -> int:
    """Re-rolls allowed (never the same die twice): 1, +1 for the winner, +1 per skill."""
    exploration = tables.exploration
    winner_rerolls = exploration.winner_extra_rerolls if won else 0
    return exploration.free_rerolls + winner_rerolls + reroll_skills


class ExplorationResult(msgspec.Struct, frozen=True, kw_only=True):
    stage_id: str
    table: ExplorationTableId
    final_roll: int
    location: ExplorationLocation | None  # None: nothing found at that roll
    pillaged: bool  # found before by this player: nothing this time
    loot_ducats: int


def resolve_exploration(
    games_played: int,
    table: ExplorationTableId,
    final_roll: int,
    found_before: Collection[str],
    tables: TrenchCrusadeTables,
) -> ExplorationResult:
    """The location at the final Exploration Roll (exact match) and 10 ducats per point."""
    stage = exploration_stage(games_played, tables)
    if table not in stage.tables:
        raise TrenchCrusadeRuleError(
            f"after {games_played} games the warband explores the "
            f"{' or '.join(stage.tables)} table, not {table}"
        )
    if final_roll < 0:
        raise TrenchCrusadeRuleError(f"an Exploration Roll cannot be {final_roll}")
    location = next(
        (
            row
            for row in tables.exploration.locations
            if row.table == table and row.roll == final_roll
        ),
        None,
    )
    pillaged = location is not None and location.id in found_before
    return ExplorationResult(
        stage_id=stage.id,
        table=table,
        final_roll=final_roll,
        location=None if pillaged else location,
        pillaged=pillaged,
        loot_ducats=tables.exploration.loot_ducats_per_point * final_roll,
    )


# --- the battle record -------------------------------------------------------------------


def validate_battle_record(
    record: BattleRecord, roster: Sequence[Fighter], tables: TrenchCrusadeTables
) -> None:
    """Refuse a record the Campaign Phase cannot use (roster as it was during the game)."""
    scenarios = {scenario.id: scenario for scenario in tables.glorious_deeds.scenarios}
    deeds = {deed.id: deed for deed in tables.glorious_deeds.deeds}
    scenario = scenarios.get(record.scenario_id)
    if scenario is None:
        raise TrenchCrusadeRuleError(f"there is no scenario {record.scenario_id!r}")
    names = {fighter.fighter_id: fighter.name for fighter in roster}
    for fighter_id in record.participants:
        if fighter_id not in names:
            raise TrenchCrusadeRuleError(f"{fighter_id!r} is not on this warband's roster")
    participants = set(record.participants)
    for fighter_id in record.out_of_action:
        if fighter_id not in participants:
            raise TrenchCrusadeRuleError(
                f"{names.get(fighter_id, fighter_id)} was not in the Force, so it cannot have "
                "been taken Out of Action"
            )
    seen: set[str] = set()
    for deed_record in record.deeds:
        deed = deeds.get(deed_record.deed_id)
        if deed is None or deed.id not in scenario.deeds:
            raise TrenchCrusadeRuleError(
                f"{deed_record.deed_id!r} is not a Glorious Deed of {scenario.name}"
            )
        if deed.id in seen:
            raise TrenchCrusadeRuleError(f"{deed.name} can be completed only once per game")
        seen.add(deed.id)
        if deed.warband_level and deed_record.fighter_id is not None:
            raise TrenchCrusadeRuleError(f"{deed.name} is done by the warband, not by one model")
        if not deed.warband_level and deed_record.fighter_id not in participants:
            raise TrenchCrusadeRuleError(
                f"{deed.name} must be credited to a model of the Force"
            )
        if deed.requires_win and record.result != "win":
            raise TrenchCrusadeRuleError(f"{deed.name} needs the game to be won")
        if deed.side is not None and record.side != deed.side:
            raise TrenchCrusadeRuleError(f"{deed.name} can only be done by the {deed.side}")


def glory_from_deeds(record: BattleRecord, tables: TrenchCrusadeTables) -> int:
    """Glory Points the warband gains for its Glorious Deeds (Dragon Slayer gives 2)."""
    deeds = {deed.id: deed for deed in tables.glorious_deeds.deeds}
    return sum(deeds[deed_record.deed_id].glory for deed_record in record.deeds)
