"""House rule `head_wound_promotion` (v1.0, rules D5): a Head-Wounded ELITE takes Promotion Dice
as if a Troop, and a 6 lets it gain XP again (the Battle Scar stays). Off by default: the seed
speaks only of Troops.

The usual campaign (conftest): Pilgrims have Gaius (ELITE LEADER), Anna and Bert (Trench
Pilgrims) and Carl (Ecclesiastic Prisoners, never promotable), in that roster order. In battle 1
Gaius goes Out of Action and his Trauma D66 is 2, 2 (22: Head Wound); the Trauma step rolls
them as one D66 roll, R0, so the first Promotion Die is roll R1. Gaius and Anna did a Glorious Deed
each: the pool is 1 + 2 = 3 dice.
"""

from __future__ import annotations

import os

import pytest

from commands.shared import AwardXP
from commands.trench_crusade import events as tc
from commands.trench_crusade.commands import Experience, Promotions, Trauma
from ledger import events as ev

DEEDS = {"Gaius": ["headshot"], "Anna": ["good-hunting"]}
CARL = tc.Excluded(fighter="carl", reason="Ecclesiastic Prisoners cannot be Promoted", row="trench-pilgrims/ecclesiastic-prisoners")
HEAD_WOUND = "battle 1: survived (blocked by a Head Wound: 1 XP not gained)"


def head_wounded(table, deeds=DEEDS) -> None:
    """Battle 1 with Gaius Out of Action and these deeds; his Trauma roll is a Head Wound."""
    table.pilgrims()
    table.legion()
    table.battle(ooa=["Gaius"], deeds=deeds)
    trauma = table.do(Trauma(warband="Pilgrims"), [2, 2])
    assert tc.TraumaResolved(warband="pilgrims", fighter="gaius", rolls=[22], row="d66-22-head-wound",
                             result="Head Wound", battle_scars=1) in trauma


def die(fighter: str, roll: int, number: int, of: int, face: int, streak: int, *, restored: bool = False):
    return [
        ev.DiceRolled(roll=roll, expression="D6", purpose=f"promotion die {number} of {of} for {fighter.title()}",
                      faces=[face], value=face, source="table"),
        tc.PromotionDieRolled(warband="pilgrims", fighter=fighter, roll=roll, die=number, of=of, face=face,
                              counted_as_six=False, promoted=False, streak=streak, xp_restored=restored),
    ]


DONE = ev.PostGameStepDone(warband="pilgrims", battle=1, step="promotions")


# --- option off: the seed ----------------------------------------------------------------------


def test_off_by_default_a_head_wounded_elite_gets_no_promotion_dice(table):
    # Given the default options and Gaius Head-Wounded
    head_wounded(table)
    # When dice are assigned to him, then he is refused as any ELITE is
    assert table.refusal(Promotions(warband="Pilgrims", assign={"Gaius": 1, "Anna": 1, "Bert": 1}), [1, 1, 1]) == (
        "Gaius cannot take Promotion Dice: already ELITE"
    )
    # When the pool is spread evenly, then it goes to Anna and Bert only
    pool = table.do(Promotions(warband="Pilgrims", even=True), [1, 1, 1])[0]
    assert (pool.assignment, pool.excluded[0]) == ({"anna": 2, "bert": 1}, tc.Excluded(fighter="gaius", reason="already ELITE"))
    # and his XP stays blocked
    assert table.do(Experience(warband="Pilgrims"))[0] == ev.XPAwarded(
        warband="pilgrims", fighter="gaius", amount=0, reason=HEAD_WOUND
    )


# --- option on: v1.0 --------------------------------------------------------------------------


@pytest.fixture
def v1(house_rules):
    return house_rules({"head_wound_promotion": True})


def test_on_a_head_wounded_elite_takes_dice_and_a_six_lifts_the_xp_block_and_stops_rolling(v1):
    # Given the house rule and Gaius Head-Wounded
    head_wounded(v1)
    # When the 3 dice are spread evenly (Gaius, Anna, Bert: 1 each) and rolled Anna, Gaius, Bert
    events = v1.do(Promotions(warband="Pilgrims", even=True, order=["Anna", "Gaius", "Bert"]), [1, 6])
    # Then Anna's 1 fails (streak 1), Gaius's 6 lifts his XP block instead of promoting him
    # (streak reset), and rolling stops there: Bert's die is not rolled, no ELITE is gained
    assert events == [
        tc.PromotionPoolFormed(
            warband="pilgrims", size=3, base=1, glorious_deeds=2, assignment={"gaius": 1, "anna": 1, "bert": 1},
            order=["anna", "gaius", "bert"], excluded=[CARL], streak=0,
        ),
        *die("anna", 1, 1, 3, 1, 1),
        *die("gaius", 2, 2, 3, 6, 0, restored=True),
        tc.PromotionRollsStopped(warband="pilgrims", stopped="first-six", unrolled=1, fighter="gaius"),
        DONE,
    ]
    assert v1.state.fighters["gaius"].keywords == ["ELITE", "LEADER"]
    # When Experience follows, then Gaius gains XP again: survived +1, his deed +1, circle 2
    assert v1.do(Experience(warband="Pilgrims")) == [
        ev.XPAwarded(warband="pilgrims", fighter="gaius", amount=1, reason="battle 1: survived"),
        ev.XPAwarded(warband="pilgrims", fighter="gaius", amount=1, reason="battle 1: glorious-deed"),
        tc.AdvancementEarned(warband="pilgrims", fighter="gaius", circle="circle-2", xp=2),
        ev.PostGameStepDone(warband="pilgrims", battle=1, step="experience"),
    ]
    # and so does an arbiter's award; the Battle Scar stays
    assert v1.do(AwardXP(fighter="Gaius", amount=1, reason="story")) == [
        ev.XPAwarded(warband="pilgrims", fighter="gaius", amount=1, reason="story"),
    ]
    assert (v1.state.fighters["gaius"].xp, tc.model_facts(v1.state, "gaius").battle_scars) == (3, 1)


def test_on_a_failed_die_leaves_the_xp_block(v1):
    # Given the house rule, Gaius Head-Wounded, and all three dice missing
    head_wounded(v1)
    v1.do(Promotions(warband="Pilgrims", even=True), [1, 2, 3])
    # Then Experience gives him nothing, and the streak counts his die like any other
    assert v1.do(Experience(warband="Pilgrims"))[0] == ev.XPAwarded(
        warband="pilgrims", fighter="gaius", amount=0, reason=HEAD_WOUND
    )
    assert tc.band_facts(v1.state, "pilgrims").promotion_streak == 3


def test_on_the_levelling_rule_counts_the_head_wounded_elite(v1):
    # Given the house rule, Gaius Head-Wounded and a pool of 4 (Bert did a deed too)
    head_wounded(v1, {**DEEDS, "Bert": ["into-the-trenches"]})
    # When Anna takes 3 dice while Gaius has none, then it is refused: Gaius must have 2 first
    assert v1.refusal(Promotions(warband="Pilgrims", assign={"Anna": 3, "Bert": 1}), [1, 1, 1, 1]) == (
        "Anna cannot take a 3rd Promotion Die while Gaius has 0: no model gets a 3rd die until every "
        "model taking Promotion Dice has at least 2 (Promotions Step)"
    )


def test_on_an_elite_without_a_head_wound_still_gets_no_dice(v1):
    # Given the house rule and a battle in which nobody is hurt
    v1.pilgrims()
    v1.legion()
    v1.battle(deeds=DEEDS)
    v1.do(Trauma(warband="Pilgrims"))
    # Then Gaius is refused as any ELITE is
    assert v1.refusal(Promotions(warband="Pilgrims", assign={"Gaius": 1, "Anna": 2}), [1, 1, 1]) == (
        "Gaius cannot take Promotion Dice: already ELITE"
    )


# --- through the CLI ---------------------------------------------------------------------------


def test_a_bad_option_value_is_refused_and_nothing_is_started(cli):
    result = cli("new", "League", "--ruleset", "trench-crusade", "--option", "head_wound_promotion=yes")
    assert (result.exit_code, result.output) == (2, "Error: trench-crusade option head_wound_promotion: Expected `bool`, got `str`\n")
    assert not os.path.exists(cli.store.removeprefix("sqlite:///"))  # a refused start leaves no file behind


SETUP = [
    ["new", "League", "--ruleset", "trench-crusade", "--option", "head_wound_promotion=true"],
    ["warband", "add", "Pilgrims", "--player", "Ann", "--faction", "Trench Pilgrims"],
    ["trench-crusade", "recruit", "Pilgrims", "Gaius", "--model", "War Prophet", "--elite", "--free"],
    ["trench-crusade", "recruit", "Pilgrims", "Anna", "--model", "Trench Pilgrim", "--free"],
    ["warband", "add", "Legion", "--player", "Bob", "--faction", "heretic-legions"],
    ["trench-crusade", "recruit", "Legion", "Baal", "--model", "Heretic Priest", "--elite", "--free"],
    ["trench-crusade", "battle", "--warband", "Pilgrims", "--warband", "Legion", "--scenario", "Trench Warfare",
     "--winner", "Pilgrims", "--ooa", "Gaius"],
    ["trench-crusade", "trauma", "Pilgrims", "--dice", "2,2"],
]


def test_status_shows_the_head_wound_before_and_after_the_six(cli):
    for args in SETUP:
        assert cli(*args).exit_code == 0, args
    assert cli("trench-crusade", "status", "Pilgrims").output.splitlines()[2:4] == [
        "ELITE models (1 of 6):",
        "  Gaius — War Prophet  XP 0  Battle Scars 1  Injuries: Head Wound  Head Wound: gains no XP, takes Promotion Dice as a Troop",
    ]
    promotions = cli("trench-crusade", "promotions", "Pilgrims", "--assign", "Gaius=1", "--dice", "6")
    assert promotions.output.splitlines()[2] == (
        "  Gaius' Promotion Die 1 of 1: 6: Head Wound lifted, gains XP again (the Battle Scar stays)"
    )
    assert cli("trench-crusade", "status", "Pilgrims").output.splitlines()[3] == (
        "  Gaius — War Prophet  XP 0  Battle Scars 1  Injuries: Head Wound  Head Wound: gains XP again (a Promotion 6)"
    )
