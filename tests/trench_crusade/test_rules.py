"""Given/when/then tables for the Trench Crusade rules, values worked out from the seed text
(Promotions Step) and shared/rules/trench-crusade.md (the other post-battle steps)."""

from __future__ import annotations

import pytest

from commands.trench_crusade.rules import (
    BattleRecord,
    DeedRecord,
    ExtraPromotionDice,
    Fighter,
    PromotionDie,
    TrenchCrusadeRuleError,
    advancement_circles_reached,
    advancement_skill,
    award_xp,
    battle_experience,
    dice_in_fighter_order,
    elite_trauma,
    even_spread,
    exploration_dice_count,
    exploration_rerolls,
    glory_from_deeds,
    promote,
    promotion_eligibility,
    promotion_pool,
    promotion_step_skipped,
    resolve_advancement_roll,
    resolve_exploration,
    resolve_promotion_step,
    roll_promotion_dice,
    streak_step,
    troop_survival,
    validate_assignment,
    validate_battle_record,
    validate_roll_order,
)
from commands.kit import MoreDice, Rolled
from commands.trench_crusade.model import listed_spelling
from commands.trench_crusade.tables import TABLES as TRENCH_TABLES
from ledger.errors import BadInput

TABLES = TRENCH_TABLES.defaults


def d66_dice(rolls):
    """D66 results (14) as the dice they were rolled on ([1, 4])."""
    return Rolled.of([list(divmod(roll, 10)) for roll in rolls])
PILGRIMS = "trench-pilgrims"


def troop(fighter_id: str, model: str = "Trench Pilgrim", **fields) -> Fighter:
    return Fighter(fighter_id=fighter_id, name=fighter_id.title(), model=model, **fields)


def elite(fighter_id: str, model: str = "War Prophet", keywords=(), **fields) -> Fighter:
    return troop(fighter_id, model, keywords=frozenset({"ELITE", *keywords}), **fields)


def elites(count: int) -> list[Fighter]:
    return [elite(f"elite-{number}") for number in range(count)]


# --- Rule 1: the Promotion Dice Pool ------------------------------------------------------

DEED_BY_ELITE = DeedRecord(deed_id="sniper", fighter_id="elite-0")
DEED_BY_TROOP = DeedRecord(deed_id="bloodletting", fighter_id="anna")
WARBAND_DEED = DeedRecord(deed_id="hold-your-ground")
SHOW_OFF = "wildcard/show-off"


@pytest.mark.parametrize(
    ("deeds", "extra", "size"),
    [
        pytest.param([], [], 1, id="no deeds: 1D6"),
        pytest.param([DEED_BY_TROOP], [], 2, id="a Troop's deed"),
        pytest.param([DEED_BY_ELITE], [], 2, id="an ELITE's deed counts too"),
        pytest.param([DEED_BY_ELITE, DEED_BY_TROOP, WARBAND_DEED], [], 4, id="3 deeds"),
        pytest.param(
            [DEED_BY_TROOP],
            [ExtraPromotionDice(source_id=SHOW_OFF, dice=2)],
            4,
            id="two Show Off models",
        ),
    ],
)
def test_pool_is_one_die_plus_one_per_deed_plus_named_extras(deeds, extra, size):
    pool = promotion_pool(deeds, extra, TABLES)
    assert pool.size == size
    assert pool.glorious_deeds == len(deeds)
    assert pool.extra == tuple(extra)


@pytest.mark.parametrize(
    ("extra", "refusal", "message"),
    [
        # "some Skills and Glory Items allow you to add more dice": a source no table has is a name mistyped
        (ExtraPromotionDice(source_id="winning", dice=1), BadInput,
         "'winning' does not add Promotion Dice; known sources: wildcard/show-off"),
        (ExtraPromotionDice(source_id=SHOW_OFF, dice=0), TrenchCrusadeRuleError, "cannot add 0"),
    ],
)
def test_pool_refuses_unknown_or_empty_extra_dice(extra, refusal, message):
    with pytest.raises(refusal, match=message):
        promotion_pool([], [extra], TABLES)


# --- Rule 2: eligible Troops ------------------------------------------------------------


@pytest.mark.parametrize(
    ("faction", "fighter", "eligible", "reason", "row_id"),
    [
        (PILGRIMS, troop("anna"), True, None, None),
        (PILGRIMS, elite("prophet"), False, "already ELITE", None),
        (
            PILGRIMS,
            troop("prisoner", "Ecclesiastic Prisoners"),
            False,
            "Ecclesiastic Prisoners cannot be Promoted",
            "trench-pilgrims/ecclesiastic-prisoners",
        ),
        (
            "black-grail",
            troop("thrall", "Winged Thrall"),
            False,
            "Winged Thrall cannot be Promoted",
            "black-grail/fly-thralls",
        ),
        (
            "court-of-the-seven-headed-serpent",
            troop("wretch", "wretched"),
            False,
            "wretched cannot be Promoted",
            "court-of-the-seven-headed-serpent/wretched",
        ),
        ("new-antioch", troop("wretch", "Wretched"), True, None, None),
        ("new-antioch", troop("golem", "Golem"), False, "Golem cannot be Promoted", "any/golem"),
    ],
)
def test_eligible_troops_exclude_elite_and_non_promotable_models(
    faction, fighter, eligible, reason, row_id
):
    eligibility = promotion_eligibility([fighter], faction, TABLES)
    assert (fighter in eligibility.eligible) is eligible
    if not eligible:
        (exclusion,) = eligibility.excluded
        assert (exclusion.reason, exclusion.row_id) == (reason, row_id)


# --- Rule 3: assigning the pool ---------------------------------------------------------

TROOPS_AB = [troop("anna"), troop("bert")]
TROOPS_ABC = [*TROOPS_AB, troop("cole")]


@pytest.mark.parametrize(
    ("troops", "pool_size", "assignment"),
    [
        pytest.param(TROOPS_AB, 4, {"anna": 2, "bert": 2}, id="3 deeds, 2 troops: 2/2"),
        pytest.param(TROOPS_ABC, 1, {"bert": 1}, id="1 die, 3 troops"),
        pytest.param(TROOPS_AB, 2, {"anna": 2}, id="2nd die is free: 2/0"),
        pytest.param(TROOPS_ABC, 3, {"anna": 2, "bert": 1}, id="2/1/0"),
        pytest.param(TROOPS_AB, 5, {"anna": 3, "bert": 2}, id="3rd die once all have 2"),
        pytest.param(TROOPS_ABC, 7, {"anna": 3, "bert": 2, "cole": 2}, id="3/2/2"),
        pytest.param(TROOPS_AB, 7, {"anna": 4, "bert": 3}, id="4th die once all have 3"),
        pytest.param([*TROOPS_AB, troop("prisoner", "Ecclesiastic Prisoners"), elite("prophet")], 2,
                     {"anna": 1, "bert": 1, "prisoner": 0, "prophet": 0},
                     id="no dice for models that cannot take them"),
    ],
)
def test_assignment_allowed(troops, pool_size, assignment):
    eligibility = promotion_eligibility(troops, PILGRIMS, TABLES)
    validate_assignment(assignment, eligibility, pool_size)


@pytest.mark.parametrize(
    ("roster", "pool_size", "assignment", "message"),
    [
        pytest.param(
            TROOPS_AB,
            4,
            {"anna": 3, "bert": 1},
            "Anna cannot take a 3rd Promotion Die while Bert has 1: no model gets a 3rd die "
            "until every Troop has at least 2",
            id="3 deeds, 2 troops: 3/1",
        ),
        pytest.param(
            TROOPS_ABC, 3, {"anna": 3}, "Anna cannot take a 3rd .* has 0", id="3/0/0"
        ),
        pytest.param(
            TROOPS_AB, 6, {"anna": 4, "bert": 2}, "4th .* at least 3", id="4th before all have 3"
        ),
        pytest.param(
            TROOPS_ABC, 7, {"anna": 3, "bert": 3, "cole": 1}, "Cole has 1", id="3/3/1"
        ),
        pytest.param(
            TROOPS_AB,
            4,
            {"anna": 2, "bert": 1},
            "all 4 Promotion dice must be assigned; 3 are",
            id="part of the pool",
        ),
        pytest.param(
            [*TROOPS_AB, elite("prophet")],
            2,
            {"anna": 1, "prophet": 1},
            "Prophet cannot take Promotion Dice: already ELITE",
            id="an ELITE",
        ),
        pytest.param(
            [*TROOPS_AB, troop("prisoner", "Ecclesiastic Prisoners")],
            2,
            {"anna": 1, "prisoner": 1},
            "Prisoner cannot take Promotion Dice: Ecclesiastic Prisoners cannot be Promoted",
            id="a non-promotable model",
        ),
        pytest.param(TROOPS_AB, 1, {"zed": 1}, "no model 'zed'", id="unknown model"),
        pytest.param(
            [elite("prophet")],
            1,
            {"prophet": 1},
            "already ELITE",
            id="no eligible Troop",
        ),
    ],
)
def test_assignment_refused(roster, pool_size, assignment, message):
    eligibility = promotion_eligibility(roster, PILGRIMS, TABLES)
    with pytest.raises(TrenchCrusadeRuleError, match=message):
        validate_assignment(assignment, eligibility, pool_size)


def test_with_no_eligible_troop_the_pool_is_lost():
    eligibility = promotion_eligibility([elite("prophet")], PILGRIMS, TABLES)
    validate_assignment({}, eligibility, 3)


@pytest.mark.parametrize(
    ("ids", "pool_size", "spread"),
    [
        (["anna", "bert"], 4, {"anna": 2, "bert": 2}),
        (["anna", "bert", "cole"], 1, {"anna": 1, "bert": 0, "cole": 0}),
        (["anna", "bert", "cole"], 5, {"anna": 2, "bert": 2, "cole": 1}),
        ([], 3, {}),
    ],
)
def test_even_spread_is_a_valid_assignment(ids, pool_size, spread):
    assert even_spread(ids, pool_size) == spread
    roster = [troop(fighter_id) for fighter_id in ids]
    if roster:
        eligibility = promotion_eligibility(roster, PILGRIMS, TABLES)
        validate_assignment(spread, eligibility, pool_size)


def test_rolling_order_lists_each_assigned_die_once():
    assignment = {"anna": 2, "bert": 1}
    assert dice_in_fighter_order(assignment, ["bert", "anna"]) == ("bert", "anna", "anna")
    names = {"anna": "Anna", "bert": "Bert"}
    validate_roll_order(["anna", "bert", "anna"], assignment, names)
    # an order that does not fit the dice assigned is the player's input at fault: bad input (exit 2)
    with pytest.raises(BadInput, match="has 1 die for Anna but 2 are assigned"):
        validate_roll_order(["anna", "bert", "bert"], assignment, names)
    with pytest.raises(BadInput, match="every model that has Promotion Dice"):
        dice_in_fighter_order(assignment, ["anna"])


# --- Rule 4: rolling, the first 6, the failure streak ---------------------------------------


@pytest.mark.parametrize(
    ("streak", "face", "counted_as_six", "promoted", "new_streak"),
    [
        (0, 6, False, True, 0),
        (0, 5, False, False, 1),
        (3, 6, False, True, 0),
        (4, 1, False, False, 5),
        (5, 1, True, True, 0),
        (5, 6, False, True, 0),  # a die that shows a 6 is a natural 6, whatever the streak (1.6.0)
    ],
)
def test_streak_step(streak, face, counted_as_six, promoted, new_streak):
    assert streak_step(streak, face) == (counted_as_six, promoted, new_streak)


def test_streak_step_before_1_6_0_counted_a_6_after_5_failures_as_a_6():
    assert streak_step(5, 6, natural_sixes=False) == (True, True, 0)
    assert streak_step(5, 1, natural_sixes=False) == (True, True, 0)


@pytest.mark.parametrize(
    ("streak", "face", "message"),
    [(6, 1, "streak of 6"), (-1, 1, "streak of -1"), (0, 7, "the die of the D6 roll shows 7, not 1-6"),
     (0, 0, "the die of the D6 roll shows 0, not 1-6")],
)
def test_streak_step_refuses_impossible_values(streak, face, message):
    with pytest.raises((TrenchCrusadeRuleError, BadInput), match=message):
        streak_step(streak, face)


@pytest.mark.parametrize(
    ("order", "faces", "streak", "consumed", "promoted", "streak_after", "unrolled", "stopped"),
    [
        pytest.param(["anna", "anna", "bert", "bert"], [6, 1, 1, 1], 0, 1, ("anna",), 0, 3, "first-six",
                     id="promotion on the first die"),
        pytest.param(["anna", "bert", "bert"], [2, 6, 6], 0, 2, ("bert",), 0, 1, "first-six",
                     id="first 6 stops all rolling"),
        pytest.param(["anna", "bert"], [2, 6], 0, 2, ("bert",), 0, 0, "",
                     id="a 6 on the last die stops nothing"),
        pytest.param(["anna", "bert"], [1, 2, 6], 0, 2, (), 2, 0, "",
                     id="no 6: streak noted, spare face unused"),
        pytest.param(["anna", "anna", "bert", "bert"], [1, 2, 1, 1], 3, 3, ("bert",), 0, 1, "first-six",
                     id="streak reaches 5 mid-battle: the next die counts as 6"),
    ],
)
def test_roll_promotion_dice(order, faces, streak, consumed, promoted, streak_after, unrolled, stopped):
    rolls = roll_promotion_dice(order, faces, streak=streak, elite_at_start=2)
    assert rolls.dice_consumed == consumed
    assert rolls.promoted == promoted
    assert (rolls.streak_before, rolls.streak_after) == (streak, streak_after)
    assert (rolls.unrolled, rolls.stopped) == (unrolled, stopped)
    assert [die.face for die in rolls.dice] == faces[:consumed]


def test_streak_goes_2_then_5_across_two_battles_and_the_6th_die_succeeds_in_the_third():
    first = roll_promotion_dice(["anna", "bert"], [1, 3], streak=0, elite_at_start=1)
    assert (first.promoted, first.streak_after) == ((), 2)

    second = roll_promotion_dice(
        ["anna", "anna", "bert"], [4, 2, 5], streak=first.streak_after, elite_at_start=1
    )
    assert (second.promoted, second.streak_after) == ((), 5)
    assert [die.streak_after for die in second.dice] == [3, 4, 5]

    third = roll_promotion_dice(
        ["bert", "anna"], [1, 1], streak=second.streak_after, elite_at_start=1
    )
    (die,) = third.dice
    assert (die.fighter_id, die.face, die.counted_as_six, die.promoted) == ("bert", 1, True, True)
    assert (third.promoted, third.streak_after, third.dice_consumed) == (("bert",), 0, 1)


def test_rolling_asks_for_more_dice_when_the_faces_run_out():
    with pytest.raises(MoreDice, match="2 assigned dice not rolled yet") as refusal:
        roll_promotion_dice(["anna", "bert", "bert"], [1], streak=0, elite_at_start=0)
    assert (refusal.value.key, refusal.value.expression) == ("1", "D6")


@pytest.mark.parametrize(
    ("elite_at_start", "stop_rule", "faces", "promoted", "consumed", "unrolled", "stopped"),
    [
        pytest.param(5, "first-six", [6, 6, 6], ("anna",), 1, 3, "first-six", id="seed: first 6 ends it"),
        pytest.param(4, "first-six", [6, 6, 6], ("anna",), 1, 3, "first-six", id="seed below the cap"),
        pytest.param(6, "first-six", [6, 6, 6], (), 0, 4, "elite-cap", id="6 ELITE already (one recruited since the phase began)"),
        pytest.param(5, "per-model", [6, 6, 6], ("anna",), 1, 3, "elite-cap", id="6th ELITE stops rolling"),
        pytest.param(4, "per-model", [6, 6, 6], ("anna", "bert"), 2, 2, "elite-cap",
                     id="v1.0: skip Anna's 2nd die, Bert makes the 6th ELITE"),
        pytest.param(3, "per-model", [6, 6, 6], ("anna", "bert", "cole"), 3, 1, "per-model",
                     id="v1.0 below the cap: only Anna's 2nd die is skipped"),
    ],
)
def test_stop_rules_and_the_six_elite_cap(
    elite_at_start, stop_rule, faces, promoted, consumed, unrolled, stopped
):
    rolls = roll_promotion_dice(
        ["anna", "anna", "bert", "cole"],
        faces,
        streak=0,
        elite_at_start=elite_at_start,
        stop_rule=stop_rule,
    )
    assert (rolls.promoted, rolls.dice_consumed, rolls.unrolled, rolls.stopped) == (promoted, consumed, unrolled, stopped)


@pytest.mark.parametrize(
    ("stop_rule", "faces", "promoted", "consumed"),
    [
        pytest.param("first-six", [6, 6, 6], (), 1, id="seed stop rule: the Head Wound's 6 ends rolling"),
        pytest.param("per-model", [6, 6, 6], ("bert",), 2,
                     id="v1.0: skip Anna's 2nd die; her 6 adds no ELITE, so Bert makes the 6th and stops"),
    ],
)
def test_a_head_wounded_elites_six_restores_xp_and_is_no_promotion(stop_rule, faces, promoted, consumed):
    # Given 5 ELITE and Anna a Head-Wounded ELITE taking dice as a Troop (house rule)
    rolls = roll_promotion_dice(
        ["anna", "anna", "bert", "cole"], faces, streak=3, elite_at_start=5, stop_rule=stop_rule, restores_xp={"anna"}
    )
    # Then her 6 lifts her XP block, resets the streak, and stops her rolling, like a promotion
    assert (rolls.xp_restored, rolls.promoted, rolls.dice_consumed) == (("anna",), promoted, consumed)
    assert rolls.dice[0] == PromotionDie(fighter_id="anna", face=6, counted_as_six=False, promoted=False,
                                         streak_after=0, xp_restored=True)


def test_the_house_rule_makes_only_a_head_wounded_elite_eligible():
    roster = [elite("prophet", xp_blocked=True), elite("sniper"), troop("anna")]
    seed = promotion_eligibility(roster, PILGRIMS, TABLES)
    v1 = promotion_eligibility(roster, PILGRIMS, TABLES, head_wound_elite=True)
    assert [f.fighter_id for f in seed.eligible] == ["anna"]
    assert ([f.fighter_id for f in v1.eligible], [e.fighter_id for e in v1.excluded]) == (["prophet", "anna"], ["sniper"])


def test_a_restored_head_wounded_elite_gains_xp_again_and_keeps_its_scar():
    restored = resolve_promotion_step(
        [elite("prophet", xp_blocked=True, battle_scars=1), troop("anna")], PILGRIMS, TABLES,
        deeds=(), extra_dice=(), assignment={"prophet": 1}, order=["prophet"], faces=[6], streak=0,
        head_wound_elite=True,
    ).roster_after[0]
    assert (restored.is_elite, restored.xp_blocked, restored.battle_scars) == (True, False, 1)


# --- Rules 5 and 6: promotion, skipping at 6 ELITE ------------------------------------------


def test_promotion_gives_elite_and_starts_at_zero_xp():
    promoted = promote(troop("anna", xp=3, skills=frozenset({"Show Off"})))
    assert promoted.is_elite
    assert promoted.xp == 0
    assert promoted.skills == frozenset({"Show Off"})


@pytest.mark.parametrize(
    ("roster", "skipped"),
    [
        pytest.param([*elites(5), troop("anna")], False, id="5 ELITE"),
        pytest.param([*elites(6), troop("anna")], True, id="6 ELITE"),
        pytest.param([*elites(7)], True, id="7 ELITE"),
        pytest.param(
            [*elites(5), elite("lucky", skills=frozenset({"Bad Company"})), troop("anna")],
            False,
            id="Bad Company is not counted",
        ),
    ],
)
def test_step_skipped_with_six_elite_at_the_start(roster, skipped):
    assert promotion_step_skipped(roster) is skipped


def step(roster, **given):
    arguments = dict(deeds=[], extra_dice=[], assignment={}, order=[], faces=[], streak=0)
    return resolve_promotion_step(roster, PILGRIMS, TABLES, **{**arguments, **given})


def test_whole_step_skipped_at_six_elite_keeps_the_streak():
    result = step([*elites(6), troop("anna")], deeds=[DEED_BY_TROOP], streak=3)
    assert result.skipped
    assert (result.pool, result.rolls, result.streak_after) == (None, None, 3)
    with pytest.raises(TrenchCrusadeRuleError, match="6 ELITE models, so the Promotion step"):
        step([*elites(6), troop("anna")], assignment={"anna": 1}, order=["anna"], faces=[6])


@pytest.mark.parametrize("stop_rule", ["first-six", "per-model"])
def test_promotion_to_the_sixth_elite_stops_further_promotions(stop_rule):
    roster = [*elites(5), troop("anna"), troop("bert")]
    result = step(
        roster,
        deeds=[DEED_BY_TROOP],
        assignment={"anna": 1, "bert": 1},
        order=["anna", "bert"],
        faces=[6, 6],
        stop_rule=stop_rule,
    )
    assert result.pool.size == 2
    assert result.rolls.promoted == ("anna",)
    assert result.rolls.dice_consumed == 1
    after = {fighter.fighter_id: fighter for fighter in result.roster_after}
    assert after["anna"].is_elite and after["anna"].xp == 0
    assert not after["bert"].is_elite
    assert promotion_step_skipped(result.roster_after)


def test_non_promotable_model_is_left_out_of_the_step():
    roster = [elite("prophet"), troop("anna"), troop("prisoner", "Ecclesiastic Prisoners")]
    result = step(roster, deeds=[DEED_BY_TROOP], assignment={"anna": 2},
                  order=["anna", "anna"], faces=[3, 4], streak=1)
    assert [fighter.fighter_id for fighter in result.eligibility.eligible] == ["anna"]
    assert (result.rolls.promoted, result.streak_after) == ((), 3)


def test_non_promotable_model_cannot_take_a_die():
    roster = [troop("anna"), troop("prisoner", "Ecclesiastic Prisoners")]
    with pytest.raises(TrenchCrusadeRuleError, match="Ecclesiastic Prisoners cannot be Promoted"):
        step(roster, assignment={"prisoner": 1}, order=["prisoner"], faces=[6])


def test_no_eligible_troop_rolls_nothing_and_keeps_the_streak():
    result = step([elite("prophet")], deeds=[DEED_BY_ELITE], streak=4)
    assert result.pool.size == 2
    assert (result.rolls.dice_consumed, result.streak_after) == (0, 4)


# --- Rule 7: the 7-XP cap and the rest of the Experience Step -----------------------------


@pytest.mark.parametrize(
    ("fighter", "faction", "award_id", "amount", "granted", "capped", "xp_after", "circles"),
    [
        pytest.param(elite("lion", "Lion of Jabir", xp=6), "iron-sultanate", "bitter-lessons",
                     3, 1, True, 7, ("circle-7",), id="Limited: 6 + 3 capped at 7"),
        pytest.param(elite("lion", "Lion of Jabir", xp=7), "iron-sultanate", "survived",
                     1, 0, True, 7, (), id="Limited at 7: nothing more"),
        pytest.param(elite("lion", "Lion of Jabir", xp=5), "iron-sultanate", "survived",
                     1, 1, False, 6, (), id="Limited below the cap"),
        pytest.param(elite("witch", "Oddity", keywords={"LIMITED POTENTIAL"}, xp=6),
                     "new-antioch", "bitter-lessons", 2, 1, True, 7, ("circle-7",),
                     id="LIMITED POTENTIAL keyword"),
        pytest.param(elite("prophet", xp=6), PILGRIMS, "bitter-lessons", 3, 3, False, 9,
                     ("circle-7",), id="general cap is 18"),
        pytest.param(elite("lion", "Lion of Jabir", xp=6), PILGRIMS, "bitter-lessons", 3, 3,
                     False, 9, ("circle-7",), id="the list is per faction"),
        pytest.param(elite("prophet", xp=17), PILGRIMS, "bitter-lessons", 2, 1, True, 18,
                     ("circle-18",), id="capped at 18"),
    ],
)
def test_xp_award_caps(fighter, faction, award_id, amount, granted, capped, xp_after, circles):
    grant = award_xp(fighter, amount, award_id, faction, TABLES)
    assert (grant.requested, grant.granted, grant.capped) == (amount, granted, capped)
    assert (grant.xp_before, grant.xp_after) == (fighter.xp, xp_after)
    assert grant.advancement_circles == circles


def test_xp_cap_names_the_limited_potential_row():
    grant = award_xp(elite("saint", "Desecrated Saint", xp=7), 1, "survived",
                     "court-of-the-seven-headed-serpent", TABLES)
    assert grant.cap == 7
    assert grant.cap_row_id == "court-of-the-seven-headed-serpent/desecrated-saint"


def test_head_wound_gains_no_xp():
    grant = award_xp(elite("prophet", xp=4, xp_blocked=True), 1, "survived", PILGRIMS, TABLES)
    assert (grant.granted, grant.blocked, grant.capped, grant.xp_after) == (0, True, False, 4)


@pytest.mark.parametrize(
    ("fighter", "award_id", "amount", "message"),
    [
        (troop("anna"), "survived", 1, "Anna is not ELITE"),
        (elite("prophet"), "survived", 2, "gives 1 XP, not 2"),
        (elite("prophet"), "bitter-lessons", 4, "D3 cannot give 4 XP"),
        (elite("prophet"), "bribe", 1, "no XP award 'bribe'"),
    ],
)
def test_xp_award_refused(fighter, award_id, amount, message):
    with pytest.raises(TrenchCrusadeRuleError, match=message):
        award_xp(fighter, amount, award_id, PILGRIMS, TABLES)


@pytest.mark.parametrize(
    ("before", "after", "circles"),
    [
        (0, 2, ("circle-2",)),
        (1, 4, ("circle-2", "circle-4")),
        (4, 6, ()),
        (13, 18, ("circle-14", "circle-18")),
    ],
)
def test_advancement_circles(before, after, circles):
    assert advancement_circles_reached(before, after, TABLES) == circles


LEADER = elite("leader", keywords={"LEADER"})
VETERAN = elite("veteran")
BENCHED = elite("benched")
NEWLY_PROMOTED = elite("anna")


def battle(*deeds, participants=("leader", "veteran", "anna", "bert")):
    return BattleRecord(
        scenario_id="i-claim-no-mans-land",
        result="win",
        participants=participants,
        deeds=deeds,
    )


@pytest.mark.parametrize(
    ("record", "expected"),
    [
        pytest.param(
            battle(DeedRecord(deed_id="sniper", fighter_id="veteran"), WARBAND_DEED),
            [("leader", "survived"), ("veteran", "survived"), ("veteran", "glorious-deed"),
             ("anna", "survived"), ("leader", "warband-deed-leader")],
            id="survivors, a doer, a warband deed for the LEADER",
        ),
        pytest.param(
            battle(DeedRecord(deed_id="lord-of-war", fighter_id="leader"), WARBAND_DEED),
            [("leader", "survived"), ("leader", "glorious-deed"), ("veteran", "survived"),
             ("anna", "survived")],
            id="never more than +1 for deeds",
        ),
        pytest.param(
            battle(DeedRecord(deed_id="bloodletting", fighter_id="anna"),
                   DeedRecord(deed_id="sniper", fighter_id="anna")),
            [("leader", "survived"), ("veteran", "survived"), ("anna", "survived"),
             ("anna", "glorious-deed")],
            id="promoted this phase: XP as an ELITE, deeds +1 once",
        ),
        pytest.param(
            battle(WARBAND_DEED, participants=("veteran",)),
            [("veteran", "survived")],
            id="LEADER not in the Force",
        ),
    ],
)
def test_battle_experience(record, expected):
    roster = [LEADER, VETERAN, BENCHED, NEWLY_PROMOTED, troop("bert")]
    lines = battle_experience(roster, record, TABLES)
    assert [(line.fighter_id, line.award_id) for line in lines] == expected
    assert all(line.amount == 1 for line in lines)


def test_a_leaders_deed_xp_stands_for_the_warbands_deed_too():
    """Rules §6.4: "+1 more (never more than +1 for deeds)"; §8: a warband-level deed gives "+1 XP to one ELITE
    with LEADER": the LEADER who did a deed earns one XP, which counts for both."""
    lines = battle_experience([LEADER, VETERAN], battle(DeedRecord(deed_id="lord-of-war", fighter_id="leader"), WARBAND_DEED),
                              TABLES)
    assert [(line.fighter_id, line.award_id, line.also) for line in lines] == [
        ("leader", "survived", ()), ("leader", "glorious-deed", ("warband-deed-leader",)), ("veteran", "survived", ())]


def test_warband_deed_with_two_leaders_needs_a_choice():
    second = elite("second", keywords={"LEADER"})
    roster = [LEADER, second]
    record = battle(WARBAND_DEED, participants=("leader", "second"))
    with pytest.raises(TrenchCrusadeRuleError, match="choose which ELITE LEADER"):
        battle_experience(roster, record, TABLES)
    lines = battle_experience(roster, record, TABLES, warband_deed_leader="second")
    assert ("second", "warband-deed-leader") in [(x.fighter_id, x.award_id) for x in lines]
    with pytest.raises(TrenchCrusadeRuleError, match="not an ELITE LEADER"):
        battle_experience(roster, record, TABLES, warband_deed_leader="veteran")


# --- Advancement Rolls -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("table_id", "roll", "held", "skill"),
    [
        ("melee-strength", 7, set(), "Melee Proficiency"),
        ("melee-strength", 7, {"Melee Proficiency"}, "Relentless Charge"),
        ("melee-strength", 7, {"Melee Proficiency", "Relentless Charge"}, "Close Quarters Combat"),
        ("melee-strength", 3, {"Stand Firm"}, "Parry"),
        ("melee-strength", 4, {"Stand Firm", "Parry"}, "Close Quarters Combat"),
        ("ranged", 2, set(), "Patron Skill"),
        ("wildcard", 12, set(), "Patron Skill"),
        ("wildcard", 8, set(), "Show Off"),
    ],
)
def test_advancement_skill(table_id, roll, held, skill):
    assert advancement_skill(table_id, roll, held, TABLES).skill == skill


def test_advancement_roll_keeps_one_of_two_tables():
    result = resolve_advancement_roll(
        [("ranged", 8), ("wildcard", 8)], "wildcard", {"Show Off"}, TABLES
    )
    assert [option.rolled_row_id for option in result.options] == [
        "ranged/8-snipers-nest",
        "wildcard/8-show-off",
    ]
    assert result.kept.result.id == "wildcard/7-skill-expertise"


@pytest.mark.parametrize(
    ("rolls", "keep", "message"),
    [
        ([("ranged", 8), ("ranged", 9)], "ranged", "two different skill tables"),
        ([("ranged", 13), ("wildcard", 8)], "ranged", "13 is impossible"),
    ],
)
def test_advancement_roll_refused(rolls, keep, message):
    with pytest.raises(TrenchCrusadeRuleError, match=message):
        resolve_advancement_roll(rolls, keep, set(), TABLES)


def test_keeping_a_table_not_rolled_is_bad_input():
    """§6.5: "roll 2D6 on each; … keep one of the two results": a --keep of a third table is told from the command
    alone, bad input (exit 2); it was a rules refusal (exit 1)."""
    with pytest.raises(BadInput, match="^--keep stealth-speed: keep the result of one of the two tables rolled: ranged or wildcard$"):
        resolve_advancement_roll([("ranged", 8), ("wildcard", 8)], "stealth-speed", set(), TABLES)


def test_an_advancement_roll_on_a_table_the_rules_do_not_have_is_bad_input():
    with pytest.raises(BadInput, match="no skill table 'magic'; tables: melee-strength, ranged, stealth-speed, wildcard"):
        resolve_advancement_roll([("magic", 7), ("wildcard", 8)], "magic", set(), TABLES)


# --- Trauma -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("face", "survives"), [(1, False), (2, False), (3, True), (6, True)])
def test_troop_survival_roll(face, survives):
    assert troop_survival(face, TABLES).survives is survives


@pytest.mark.parametrize(
    ("fighter", "rolls", "row_id", "used", "removed", "scars", "unfit"),
    [
        pytest.param(elite("e"), [11], "d66-11-dead", 1, True, 0, False, id="dead"),
        pytest.param(elite("e"), [14], "d66-14-hand-wound", 1, False, 1, False, id="scar"),
        pytest.param(elite("e", battle_scars=2), [14], "d66-14-hand-wound", 1, False, 3, True,
                     id="3rd scar: unfit"),
        pytest.param(elite("e", battle_scars=2, skills=frozenset({"War-Luck"})), [14],
                     "d66-14-hand-wound", 1, False, 3, False, id="War-Luck allows one more"),
        pytest.param(elite("e", battle_scars=2), [45], "d66-41-63-full-recovery", 1, False, 2,
                     False, id="full recovery"),
        pytest.param(elite("e"), [36], "d66-36-robbed", 1, False, 0, False, id="robbed"),
        pytest.param(elite("e", injuries=("d66-14-hand-wound",)), [14, 64], "d66-64-hardened",
                     2, False, 0, False, id="repeat injury re-rolled"),
        pytest.param(elite("e", injuries=("d66-15-lost-an-eye",)), [15], "d66-15-lost-an-eye",
                     1, True, 0, False, id="2nd Lost an Eye removes"),
    ],
)
def test_elite_trauma(fighter, rolls, row_id, used, removed, scars, unfit):
    outcome = elite_trauma(fighter, d66_dice(rolls), TABLES)
    assert outcome.row.id == row_id
    assert outcome.rolls_used == tuple(rolls[:used])
    assert (outcome.removed, outcome.battle_scars_after, outcome.unfit_for_duty) == (
        removed,
        scars,
        unfit,
    )


def test_elite_trauma_refusals():
    with pytest.raises(MoreDice) as more:  # a repeated injury is rolled again
        elite_trauma(elite("e", injuries=("d66-14-hand-wound",)), d66_dice([14]), TABLES)
    assert (more.value.key, more.value.expression, more.value.purpose) == (
        "1", "D66", "Trauma roll for E (roll 2: an injury it already has is rolled again)")
    with pytest.raises(BadInput, match="Trauma roll for E"):  # the kit's one face check
        elite_trauma(elite("e"), Rolled.of([[1, 7]]), TABLES)
    with pytest.raises(BadInput, match="a Survival Roll: the die of the D6 roll shows 7, not 1-6"):
        troop_survival(7, TABLES)


# --- Exploration --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("games", "dice"), [(1, 3), (2, 3), (3, 4), (5, 4), (6, 5), (9, 5), (10, 6), (15, 6)]
)
def test_exploration_dice_by_games_played(games, dice):
    assert exploration_dice_count(games, 0, TABLES) == dice
    assert exploration_dice_count(games, 1, TABLES) == dice + 1


@pytest.mark.parametrize(
    ("games", "table", "roll", "found_before", "location_id", "pillaged", "loot"),
    [
        (2, "common", 14, (), "common/14-map-document-bag", False, 140),
        (4, "rare", 15, (), "rare/15-black-market", False, 150),
        (2, "common", 7, (), None, False, 70),
        (2, "common", 14, ("common/14-map-document-bag",), None, True, 140),
        (12, "legendary", 23, (), "legendary/23-patrons-visit", False, 230),
    ],
)
def test_resolve_exploration(games, table, roll, found_before, location_id, pillaged, loot):
    result = resolve_exploration(games, table, roll, found_before, TABLES)
    assert (result.location.id if result.location else None) == location_id
    assert (result.pillaged, result.loot_ducats) == (pillaged, loot)


def test_exploration_refusals_and_rerolls():
    with pytest.raises(TrenchCrusadeRuleError, match="explores the common table, not rare"):
        resolve_exploration(2, "rare", 15, (), TABLES)
    with pytest.raises(TrenchCrusadeRuleError, match="no Exploration stage covers 0"):
        exploration_dice_count(0, 0, TABLES)
    assert [exploration_rerolls(won, skills, TABLES) for won, skills in
            [(False, 0), (True, 0), (True, 1)]] == [1, 2, 3]


# --- the battle record ------------------------------------------------------------------------

ROSTER = [LEADER, VETERAN, troop("anna")]


def record(*deeds, scenario_id="i-claim-no-mans-land", result="win", side=None, ooa=()):
    return BattleRecord(
        scenario_id=scenario_id,
        result=result,
        participants=("leader", "veteran", "anna"),
        out_of_action=ooa,
        deeds=deeds,
        side=side,
    )


def test_valid_battle_record_and_its_glory():
    valid = record(DeedRecord(deed_id="sniper", fighter_id="anna"), WARBAND_DEED, ooa=("anna",))
    validate_battle_record(valid, ROSTER, TABLES)
    assert glory_from_deeds(valid, TABLES) == 2
    dragon = record(
        DeedRecord(deed_id="dragon-slayer", fighter_id="veteran"),
        DeedRecord(deed_id="fire-with-fire", fighter_id="veteran"),
        scenario_id="dragon-hunt",
    )
    validate_battle_record(dragon, ROSTER, TABLES)
    assert glory_from_deeds(dragon, TABLES) == 3


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (record(scenario_id="hill-223"), "no scenario 'hill-223'"),
        (record(DeedRecord(deed_id="dragon-slayer", fighter_id="anna")),
         "not a Glorious Deed of Claim No Man's Land"),
        (record(DeedRecord(deed_id="sniper", fighter_id="anna"),
                DeedRecord(deed_id="sniper", fighter_id="veteran")), "only once per game"),
        (record(DeedRecord(deed_id="hold-your-ground", fighter_id="anna")), "done by the warband"),
        (record(DeedRecord(deed_id="sniper")), "credited to a model of the Force"),
        (record(DeedRecord(deed_id="sniper", fighter_id="benched")), "credited to a model"),
        (record(DeedRecord(deed_id="victory-or-death"), scenario_id="trench-warfare",
                result="loss"), "needs the game to be won"),
        (record(DeedRecord(deed_id="daring-raid", fighter_id="anna"), scenario_id="supply-raid",
                side="defender"), "only be done by the attacker"),
        (record(ooa=("benched",)), "not in the Force"),
    ],
)
def test_battle_record_refused(bad, message):
    with pytest.raises(TrenchCrusadeRuleError, match=message):
        validate_battle_record(bad, ROSTER, TABLES)


@pytest.mark.parametrize(
    "typed, listed",
    [
        ("Ecclesiastic Prisoner", "Ecclesiastic Prisoners"),
        ("Hound of the Black Grail", "Hounds of the Black Grail"),
        ("yoke fiend", "Yoke Fiends"),
        ("Homunculus", "Homunculi"),  # Limited Potential: at most 7 XP
        ("Communicants", "Communicant"),
        ("Winged Thralls", "Fly Thralls"),  # an alias, in the plural
        ("Trench Pilgrim", "Trench Pilgrim"),  # on no list: as typed
    ],
)
def test_a_model_typed_in_the_other_number_is_the_model_the_lists_name(typed, listed):
    assert listed_spelling(typed, TRENCH_TABLES.defaults) == listed
