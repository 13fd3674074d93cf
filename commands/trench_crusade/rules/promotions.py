"""The Promotions Step (seed 001): the pool, who may take Promotion Dice, the assignment, the dice and the streak."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import NamedTuple

import msgspec

from commands.kit import Rolled, check_faces
from ledger.describe import listed
from ledger.errors import BadInput
from commands.trench_crusade.tables import (
    PromotionDiceSource,
    TrenchCrusadeTables,
)
from commands.trench_crusade.rules.common import BAD_COMPANY, BASE_PROMOTION_DICE, DeedRecord, ELITE, ELITE_CAP, FAILURES_BEFORE_AUTOMATIC_SIX, Fighter, PromotionStop, PromotionStopRule, TrenchCrusadeRuleError, _dice_word, _ordinal, non_promotable_row


def elite_count(roster: Sequence[Fighter]) -> int:
    """ELITE models as counted for the 6-ELITE checks (Bad Company models do not count)."""
    return sum(1 for fighter in roster if fighter.is_elite and BAD_COMPANY not in fighter.skills)


def promotion_step_skipped(roster: Sequence[Fighter], elite_at_phase_start: int | None = None) -> bool:
    """Ignore the Promotion step completely with 6 or more ELITE at the start of the phase:
    ``elite_at_phase_start`` when the roster has changed since (None: the roster's own count)."""
    return (elite_count(roster) if elite_at_phase_start is None else elite_at_phase_start) >= ELITE_CAP


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
        if source is None:  # a name mistyped: bad input, naming the sources there are
            raise BadInput(
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


def most_extra_dice(source: PromotionDiceSource, roster: Sequence[Fighter]) -> int | None:
    """The most dice a source adds to this warband's pool: ``dice_each`` per model holding its
    Skill (None: the source names no Skill, so the ledger cannot count its holders)."""
    if source.skill is None:
        return None
    return source.dice_each * sum(1 for fighter in roster if source.skill in fighter.skills)


def refuse_extra_dice_without_holders(
    extra_dice: Sequence[ExtraPromotionDice], roster: Sequence[Fighter], tables: TrenchCrusadeTables
) -> None:
    """Extra dice from a Skill need models that hold it: Show Off adds "+1 die per model with it"
    (rules §6.1), so a warband without a Show Off model adds none."""
    sources = {source.id: source for source in tables.promotion_dice_sources.rows}
    for extra in extra_dice:
        source = sources[extra.source_id]  # promotion_pool has refused an unknown source as bad input
        most = most_extra_dice(source, roster)
        if most is None or extra.dice <= most:
            continue
        holders = [fighter.name for fighter in roster if source.skill in fighter.skills]
        held_by = (
            f"only {', '.join(holders)} {'has' if len(holders) == 1 else 'have'} {source.skill}"
            if holders else f"no model of the warband has {source.skill}"
        )
        raise TrenchCrusadeRuleError(
            f"{source.name} adds {source.dice_each} {_dice_word(source.dice_each)} per {source.per}, "
            f"and {held_by}: it cannot add {extra.dice}"
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
    """Refuse an assignment of Promotion Dice (fighter id -> dice) the seed does not allow. A model
    that cannot take Promotion Dice may be given none: 0 dice is what it has."""
    eligible = {fighter.fighter_id: fighter for fighter in eligibility.eligible}
    excluded = {exclusion.fighter_id: exclusion for exclusion in eligibility.excluded}
    for fighter_id, dice in assignment.items():
        if fighter_id in excluded:
            exclusion = excluded[fighter_id]
            if dice:
                raise TrenchCrusadeRuleError(
                    f"{exclusion.name} cannot take Promotion Dice: {exclusion.reason}"
                )
            continue
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
    if assigned > pool_size:  # more than the pool holds: "assign the dice in the pool", no more
        raise TrenchCrusadeRuleError(
            f"the pool has {pool_size} Promotion {_dice_word(pool_size)}, but {assigned} are assigned"
        )
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
    assignment: Mapping[str, int], fighter_order: Sequence[str], names: Mapping[str, str] | None = None
) -> tuple[str, ...]:
    """A rolling order that rolls all of one model's dice before the next model's; ``names``
    (fighter id -> name) lets the refusal name the models left out or named without dice."""
    holders = [fighter_id for fighter_id, dice in assignment.items() if dice]
    if set(fighter_order) != set(holders):
        name = (names or {}).get
        left_out = [name(f, f) for f in holders if f not in fighter_order]
        without = [name(f, f) for f in dict.fromkeys(fighter_order) if f not in holders]
        why = []
        if left_out:
            one = len(left_out) == 1
            why.append(f"{listed(left_out)} {'has' if one else 'have'} dice but {'is' if one else 'are'} not named")
        if without:
            why.append(f"{listed(without)} {'has' if len(without) == 1 else 'have'} none")
        raise BadInput(  # the player's order does not fit the dice he assigned: told from the command, no rule's refusal
            f"the rolling order must name every model that has Promotion Dice, and only those: {'; '.join(why)}"
        )
    return tuple(fighter_id for fighter_id in fighter_order for _ in range(assignment[fighter_id]))


def validate_roll_order(
    order: Sequence[str], assignment: Mapping[str, int], names: Mapping[str, str]
) -> None:
    """The rolling order lists one entry per assigned die (a model once per die it holds);
    ``names`` (fighter id -> name) lets the refusal name the model as the player does. One that does
    not is bad input, as with `dice_in_fighter_order`."""
    in_order = Counter(order)
    for fighter_id in sorted(set(in_order) | set(assignment)):
        assigned, listed = assignment.get(fighter_id, 0), in_order.get(fighter_id, 0)
        if assigned != listed:
            raise BadInput(
                f"the rolling order has {listed} {_dice_word(listed)} for "
                f"{names.get(fighter_id, fighter_id)} but {assigned} "
                f"{'is' if assigned == 1 else 'are'} assigned"
            )


class StreakStep(NamedTuple):
    counted_as_six: bool  # the failure-streak rule made this die a 6
    promoted: bool
    new_streak: int


def streak_step(streak: int, face: int, *, natural_sixes: bool = True) -> StreakStep:
    """One Promotion Die: a 6 promotes; after 5 dice in a row without one, so does the next.
    A die that shows a 6 is a natural 6 whatever the streak (``natural_sixes``, from 1.6.0):
    only another face is *counted as* a 6; False: the 6th die in a row is counted as a 6
    whatever its face, a 6 included (1.0.0 to 1.5.0)."""
    if not 0 <= streak <= FAILURES_BEFORE_AUTOMATIC_SIX:
        raise TrenchCrusadeRuleError(
            f"a streak of {streak} dice without a Promotion is impossible: "
            f"the die after {FAILURES_BEFORE_AUTOMATIC_SIX} always counts as a 6"
        )
    check_faces([face], 6, "a Promotion Die")
    counted_as_six = streak >= FAILURES_BEFORE_AUTOMATIC_SIX and not (natural_sixes and face == 6)
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
    stopped: PromotionStop = ""  # why those were not rolled

    @property
    def dice_consumed(self) -> int:
        return len(self.dice)


#: The purpose a Promotion Die is asked for with: (fighter id, die number from 1, assigned dice not rolled yet) -> text.
DiePurpose = Callable[[str, int, int], str]


def next_die_purpose(fighter_id: str, number: int, still_to_roll: int) -> str:
    return f"the next Promotion Die: {still_to_roll} assigned {_dice_word(still_to_roll)} not rolled yet"


def roll_promotion_dice(
    order: Sequence[str],
    faces: Rolled | Sequence[int],
    *,
    streak: int,
    elite_at_start: int,
    stop_rule: PromotionStopRule = "first-six",
    on_die: Callable[[PromotionDie], None] | None = None,
    restores_xp: Collection[str] = (),
    purpose: DiePurpose = next_die_purpose,
    natural_sixes: bool = True,
) -> PromotionRolls:
    """Roll the assigned dice one at a time in the player's order, using ``faces`` in turn.

    ``faces`` are the dice already rolled (the kit's `Rolled`, or a list of faces): dice beyond those
    needed are not consumed, and one more is asked for with the kit's `MoreDice`, worded by ``purpose``.
    ``on_die`` hears each die as soon as it is resolved (run again with one more die, the rule tells
    the earlier dice again), so that a handler can record each die's consequences before the next is rolled. Rolling stops at the first promotion (``first-six``), or, with ``per-model``,
    skips the promoted model's remaining dice and stops once a promotion makes 6 ELITE. No die is rolled
    while the warband has 6 ELITE (``elite_at_start``, those it has when rolling starts, plus the
    promoted): a warband with 6 already (one recruited since the phase began) rolls none.
    A 6 for a model of ``restores_xp`` (Head-Wounded ELITE, house rule) lifts its XP block
    instead of promoting it: it stops rolling like a promotion but adds no ELITE.
    ``natural_sixes``: see `streak_step`.
    """
    if not isinstance(faces, Rolled):
        faces = Rolled.of([[face] for face in faces])
    rolled: list[PromotionDie] = []
    promoted: list[str] = []
    restored: list[str] = []
    current_streak = streak
    stopped: PromotionStop = ""
    for position, fighter_id in enumerate(order):
        if elite_at_start + len(promoted) >= ELITE_CAP:  # "stop rolling ... when ... you have 6 models with ELITE"
            stopped = "elite-cap"
            break
        if fighter_id in promoted or fighter_id in restored:
            continue
        still_to_roll = sum(1 for later in order[position:] if later not in promoted and later not in restored)
        face = faces.next(len(rolled), "D6", purpose(fighter_id, len(rolled) + 1, still_to_roll))[0]
        step = streak_step(current_streak, face, natural_sixes=natural_sixes)
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
            if stop_rule == "first-six":
                stopped = "first-six"
                break
    unrolled = len(order) - len(rolled)
    return PromotionRolls(
        dice=tuple(rolled),
        promoted=tuple(promoted),
        xp_restored=tuple(restored),
        streak_before=streak,
        streak_after=current_streak,
        unrolled=unrolled,
        # Rolling that went to the end left dice unrolled only by skipping promoted models' (`per-model`).
        stopped=(stopped or "per-model") if unrolled else "",
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
    faces: Rolled | Sequence[int],
    streak: int,
    stop_rule: PromotionStopRule = "first-six",
    on_die: Callable[[PromotionDie], None] | None = None,
    head_wound_elite: bool = False,
    purpose: DiePurpose = next_die_purpose,
    natural_sixes: bool = True,
    elite_at_phase_start: int | None = None,
) -> PromotionStepResult:
    """The whole Promotions Step: skip check, pool, assignment, rolling, promotion;
    ``head_wound_elite`` is the v1.0 house rule (see ``promotion_eligibility``), ``natural_sixes``
    how a 6 shown after 5 failures is recorded (see ``streak_step``), ``elite_at_phase_start`` the
    ELITE counted at the start of the phase when the roster has changed since (None: the roster's)."""
    at_start = elite_count(roster) if elite_at_phase_start is None else elite_at_phase_start
    if promotion_step_skipped(roster, at_start):
        if any(assignment.values()):
            raise TrenchCrusadeRuleError(
                f"the warband has {at_start} ELITE models, so the Promotion step "
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
        purpose=purpose,
        natural_sixes=natural_sixes,
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
