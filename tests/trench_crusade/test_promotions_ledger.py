"""The Promotions Step through the ledger, one table per numbered rule of issue 4 (seed 001):
given a campaign (setup commands), when `trench-crusade.promotions` runs with these table dice,
then exactly these events, or this refusal.

The usual campaign: Pilgrims have Gaius (ELITE LEADER), Anna and Bert (Trench Pilgrims: the
eligible Troops) and Carl (Ecclesiastic Prisoners: never promotable), in that roster order.
No earlier command rolls, so the first Promotion Die is roll R0. Between battles both warbands
finish the Campaign Phase (`finish_phases`: a battle waits for it), which rolls only for an
Advancement Roll owed.
"""

from __future__ import annotations

import json
from importlib.resources import files

import pytest

from commands.shared import AwardXP, UpgradeRules
from commands.trench_crusade import events as tc
from commands.trench_crusade.commands import Experience, Promotions, Recruit, Trauma
from ledger import events as ev

from .conftest import Table

EXCLUDED = [
    tc.Excluded(fighter="gaius", reason="already ELITE"),
    tc.Excluded(fighter="carl", reason="Ecclesiastic Prisoners cannot be Promoted", row="trench-pilgrims/ecclesiastic-prisoners"),
]
THREE_DEEDS = {"Gaius": ["headshot"], "Anna": ["good-hunting"], "Bert": ["into-the-trenches"]}
SIX = "Promotion: a 6 on a Promotion Die"
COUNTED = "Promotion: a Promotion Die counted as a 6"


def pool(size: int, deeds: int, assignment: dict[str, int], order: list[str], *, streak: int = 0, extra=(), excluded=EXCLUDED):
    return tc.PromotionPoolFormed(warband="pilgrims", size=size, base=1, glorious_deeds=deeds, extra=list(extra),
                                  assignment=assignment, order=order, excluded=excluded, streak=streak)


def die(fighter: str, roll: int, number: int, of: int, face: int, streak: int, *, counted: bool = False) -> list[ev.Event]:
    """A Promotion Die as the ledger records it: its roll, then what it counted as."""
    name = fighter.title()
    return [
        ev.DiceRolled(roll=roll, expression="D6", purpose=f"promotion die {number} of {of} for {name}",
                      faces=[face], value=face, source="table"),
        tc.PromotionDieRolled(warband="pilgrims", fighter=fighter, roll=roll, die=number, of=of, face=face,
                              counted_as_six=counted, promoted=counted or face == 6, streak=streak),
    ]


def promoted(fighter: str, how: str = SIX) -> list[ev.Event]:
    return [
        ev.KeywordGained(warband="pilgrims", fighter=fighter, keyword="ELITE", reason=how),
        ev.FighterPromoted(warband="pilgrims", fighter=fighter, role="elite", reason=how),
    ]


def stopped(why: str, unrolled: int, fighter: str = "") -> ev.Event:
    """Rolling stopped with assigned dice not rolled (from 1.7.0): the first 6 (`fighter`'s), 6 ELITE, or per model."""
    return tc.PromotionRollsStopped(warband="pilgrims", stopped=why, unrolled=unrolled, fighter=fighter)


def done(battle: int = 1) -> ev.Event:
    return ev.PostGameStepDone(warband="pilgrims", battle=battle, step="promotions")


# --- Rules 1 and 2: the pool, and dealing it to the promotable Troops ---------------------------

POOL_CASES = [
    pytest.param(
        # 3 Glorious Deeds (one by Gaius, an ELITE: it counts too) -> 4 dice; 2/2 is level.
        THREE_DEEDS, dict(assign={"Anna": 2, "Bert": 2}), [1, 2, 3, 4],
        [pool(4, 3, {"anna": 2, "bert": 2}, ["anna", "anna", "bert", "bert"]),
         *die("anna", 0, 1, 4, 1, 1), *die("anna", 1, 2, 4, 2, 2), *die("bert", 2, 3, 4, 3, 3), *die("bert", 3, 4, 4, 4, 4),
         done()],
        id="3 deeds, 2 Troops: 2/2 allowed",
    ),
    pytest.param(
        # A warband-level deed (Victory or Death: the Pilgrims won) is a die as well.
        {"Anna": ["good-hunting"]}, dict(even=True, warband_deeds={"Pilgrims": ["victory-or-death"]}), [2, 5, 1],
        [pool(3, 2, {"anna": 2, "bert": 1}, ["anna", "anna", "bert"]),
         *die("anna", 0, 1, 3, 2, 1), *die("anna", 1, 2, 3, 5, 2), *die("bert", 2, 3, 3, 1, 3), done()],
        id="even spread deals round the Troops in roster order",
    ),
    pytest.param(
        {}, dict(assign={"Bert": 1}), [4],
        [pool(1, 0, {"bert": 1}, ["bert"]), *die("bert", 0, 1, 1, 4, 1), done()],
        id="no deeds: 1 die; Anna may have none while no one has a 3rd",
    ),
]


@pytest.mark.parametrize("model", ["Ecclesiastic Prisoner", "ecclesiastic prisoners"])
def test_a_model_of_the_cannot_be_promoted_list_in_another_spelling_gets_no_dice(table, model):
    # "The following models cannot be Promoted": one Ecclesiastic Prisoner, typed in the singular (1.2.0)
    table.pilgrims(troops=["Anna"])
    table.do(Recruit(warband="Pilgrims", name="Cato", model=model, paid=False))
    table.legion()
    table.battle(deeds={"Anna": ["good-hunting"]})
    table.do(Trauma(warband="Pilgrims"))
    assert table.refusal(Promotions(warband="Pilgrims", assign={"Cato": 1, "Anna": 1}), [6, 6]) == (
        "Cato cannot take Promotion Dice: Ecclesiastic Prisoners cannot be Promoted")


def test_on_1_1_0_a_model_typed_in_the_singular_was_promoted():
    table = Table({}, version="1.1.0")
    table.pilgrims(troops=[])
    table.do(Recruit(warband="Pilgrims", name="Cato", model="Ecclesiastic Prisoner", paid=False))
    table.legion()
    table.battle()
    table.do(Trauma(warband="Pilgrims"))
    assert promoted("cato") == table.do(Promotions(warband="Pilgrims", assign={"Cato": 1}), [6])[-3:-1]


TWO_DEEDS = {"Anna": ["good-hunting"], "Bert": ["into-the-trenches"]}


def test_a_model_assigned_dice_twice_in_another_case_is_refused_as_given_twice(table):
    # "you must assign the dice in the pool to the Troop models": one count per model, not two
    table.pilgrims()
    table.legion()
    table.battle(deeds=TWO_DEEDS)
    table.do(Trauma(warband="Pilgrims"))
    assert table.refusal(Promotions(warband="Pilgrims", assign={"Anna": 2, "anna": 1, "Bert": 2}), [1, 1, 1]) == (
        "--assign Anna is given twice")


def test_on_1_2_0_the_last_of_two_counts_for_a_model_was_kept():
    table = Table({}, version="1.2.0")
    table.pilgrims()
    table.legion()
    assert table.promotions_for(TWO_DEEDS, [1, 1, 1], assign={"Anna": 2, "anna": 1, "Bert": 2})[0] == pool(
        3, 2, {"anna": 1, "bert": 2}, ["anna", "bert", "bert"])


@pytest.mark.parametrize(("deeds", "promotions", "dice", "then"), POOL_CASES)
def test_pool_assignment_and_rolls(table, deeds, promotions, dice, then):
    table.pilgrims()
    table.legion()
    assert table.promotions_for(deeds, dice, **promotions) == then


REFUSALS = [
    pytest.param(
        dict(assign={"Anna": 3, "Bert": 1}),
        "Anna cannot take a 3rd Promotion Die while Bert has 1: no model gets a 3rd die until every Troop has at least 2 (Promotions Step)",
        id="3/1 refused naming the rule",
    ),
    pytest.param(
        dict(assign={"Anna": 2, "Bert": 1}), "all 4 Promotion dice must be assigned; 3 are", id="every die is assigned",
    ),
    pytest.param(
        dict(assign={"Anna": 3, "Bert": 2}), "the pool has 4 Promotion dice, but 5 are assigned",
        id="more dice than the pool holds are refused as such, not as too few",
    ),
    pytest.param(
        dict(assign={"Anna": 2, "Bert": 2}, order=["Anna", "Carl"]),
        "the rolling order must name every model that has Promotion Dice, and only those: "
        "Bert has dice but is not named; Carl has none",
        id="a rolling order of models names those left out and those without dice",
    ),
    pytest.param(
        dict(assign={"Carl": 1, "Anna": 2, "Bert": 1}),
        "Carl cannot take Promotion Dice: Ecclesiastic Prisoners cannot be Promoted",
        id="a non-promotable model never gets dice",
    ),
    pytest.param(
        dict(assign={"Gaius": 2, "Anna": 2}), "Gaius cannot take Promotion Dice: already ELITE", id="an ELITE gets no dice",
    ),
    pytest.param(
        dict(), "assign the Promotion Dice to Troops (e.g. --assign Anna=2) or ask for an even spread (--even)",
        id="the player must assign or ask for an even spread",
    ),
    pytest.param(
        dict(even=True, assign={"Anna": 4}), "give the assignment or ask for an even spread, not both", id="not both",
    ),
    pytest.param(
        dict(even=True, extra={"glory/banner": 1}),
        "'glory/banner' does not add Promotion Dice; known sources: wildcard/show-off",
        id="extra dice need a known source",
    ),
    pytest.param(
        dict(assign={"Anna": 2, "Bert": 2}, order=["Anna", "Bert", "Anna", "Anna"]),
        "the rolling order has 3 dice for Anna but 2 are assigned",
        id="the rolling order rolls each assigned die once",
    ),
    pytest.param(
        # 5 entries for 4 dice: the refusal names the model listed too often, by its name.
        dict(assign={"Anna": 2, "Bert": 2}, order=["Anna", "Bert", "Anna", "Bert", "Bert"]),
        "the rolling order has 3 dice for Bert but 2 are assigned",
        id="a rolling order per die with a die too many names the model",
    ),
    pytest.param(
        dict(assign={"Anna": 2, "Bert": 2}, order=["Anna", "Bert", "Anna"]),
        "the rolling order has 1 die for Bert but 2 are assigned",
        id="a rolling order per die with a die too few names the model",
    ),
]


@pytest.mark.parametrize(("promotions", "message"), REFUSALS)
def test_refused_assignments(table, promotions, message):
    table.pilgrims()
    table.legion()
    table.battle(deeds=THREE_DEEDS)
    table.do(Trauma(warband="Pilgrims"))
    assert table.refusal(Promotions(warband="Pilgrims", **promotions), [6, 6, 6, 6]) == message


# --- Extra dice: "some Skills and Glory Items allow you to add more dice to the Promotion Dice Pool" ---
# Rules §6.1: "Wildcard Show Off (+1 die per model with it)". Gaius learns Show Off before the
# battle (its Advancement Roll is R0 and R1, a 2D6 on each table), so the first Promotion Die is R2.

SHOW_OFF = "wildcard/show-off"


def test_show_off_adds_a_die_per_model_with_it(table):
    table.pilgrims()
    table.legion()
    table.learn_show_off("Gaius")
    # when Gaius's Show Off adds its die: 1 + 3 deeds + 1 = 5, dealt 3/2; then the first die is a 6.
    events = table.promotions_for(THREE_DEEDS, [6], even=True, extra={SHOW_OFF: 1})
    assert events == [
        pool(5, 3, {"anna": 3, "bert": 2}, ["anna"] * 3 + ["bert"] * 2, extra=[tc.ExtraDice(source=SHOW_OFF, dice=1)]),
        *die("anna", 2, 1, 5, 6, 0), *promoted("anna"), stopped("first-six", 4, "anna"), done(),
    ]


@pytest.mark.parametrize(
    ("holders", "extra", "message"),
    [
        pytest.param(
            [], 3,
            "Show Off (Wildcard skill) adds 1 die per model with the skill, and no model of the warband has Show Off: it cannot add 3",
            id="no model has Show Off",
        ),
        pytest.param(
            ["Gaius"], 2,
            "Show Off (Wildcard skill) adds 1 die per model with the skill, and only Gaius has Show Off: it cannot add 2",
            id="more dice than its holders add",
        ),
    ],
)
def test_show_off_dice_without_a_model_holding_it_are_refused(table, holders, extra, message):
    table.pilgrims()
    table.legion()
    for name in holders:
        table.learn_show_off(name)
    table.battle(deeds=THREE_DEEDS)
    table.do(Trauma(warband="Pilgrims"))
    assert table.refusal(Promotions(warband="Pilgrims", even=True, extra={SHOW_OFF: extra}), [6]) == message


def test_version_1_0_0_took_show_off_dice_on_the_players_word(first_release):
    """A campaign recorded under 1.0.0 keeps deciding as it did: 3 Show Off dice with no holder."""
    table = first_release
    table.pilgrims()
    table.legion()
    events = table.promotions_for({}, [1, 2, 6], even=True, extra={SHOW_OFF: 3})
    assert events[0] == pool(4, 0, {"anna": 2, "bert": 2}, ["anna", "anna", "bert", "bert"],
                             extra=[tc.ExtraDice(source=SHOW_OFF, dice=3)])
    assert events[-3:] == [*promoted("bert"), done()]


def test_a_campaign_upgraded_to_1_1_0_refuses_show_off_dice_from_then_on(first_release):
    table = first_release
    table.pilgrims()
    table.legion()
    assert table.do(UpgradeRules(version="1.1.0")) == [ev.RulesetUpgraded(version="1.1.0", previous="1.0.0")]
    table.battle()
    table.do(Trauma(warband="Pilgrims"))
    assert table.refusal(Promotions(warband="Pilgrims", even=True, extra={SHOW_OFF: 3}), [6]) == (
        "Show Off (Wildcard skill) adds 1 die per model with the skill, and no model of the warband has Show Off: "
        "it cannot add 3")
    assert table.ledger.check(table.cid)[1] == []


# --- Rule 3: one at a time in the player's order; the first 6 promotes and stops -----------------


@pytest.mark.parametrize(
    ("order", "dice", "then"),
    [
        pytest.param(
            ["Bert", "Anna", "Bert", "Anna"], [3, 6],
            [*die("bert", 0, 1, 4, 3, 1), *die("anna", 1, 2, 4, 6, 0), *promoted("anna"), stopped("first-six", 2, "anna")],
            id="per die: Bert, Anna, …; Anna's 6 stops the rest",
        ),
        pytest.param(
            ["Bert", "Anna"], [2, 1, 6],
            [*die("bert", 0, 1, 4, 2, 1), *die("bert", 1, 2, 4, 1, 2), *die("anna", 2, 3, 4, 6, 0), *promoted("anna"),
             stopped("first-six", 1, "anna")],
            id="per model: all of Bert's dice, then Anna's",
        ),
    ],
)
def test_rolling_order_and_the_first_six(table, order, dice, then):
    table.pilgrims()
    table.legion()
    events = table.promotions_for(THREE_DEEDS, dice, assign={"Anna": 2, "Bert": 2}, order=order)
    assert events[1:-1] == then
    anna = table.state.fighters["anna"]
    assert (anna.role, anna.keywords, anna.xp) == ("elite", ["ELITE"], 0)


def test_rolling_stopped_by_the_first_six_says_so_and_counts_the_dice_not_rolled(table):
    """Seed: "As soon as one of the dice rolls a “6”, stop rolling" (from 1.7.0 the record says it)."""
    table.pilgrims()
    table.legion()
    events = table.promotions_for(THREE_DEEDS, [3, 6], assign={"Anna": 2, "Bert": 2}, order=["Bert", "Anna", "Bert", "Anna"])
    assert events[-2].describe(table.state) == (
        "Pilgrims stopped rolling Promotion Dice: Anna's die is the first 6, and a 6 ends the rolling; 2 dice not rolled")


def test_on_1_6_0_rolling_stopped_by_the_first_six_was_not_said():
    table = Table({}, version="1.6.0")
    table.pilgrims()
    table.legion()
    events = table.promotions_for(THREE_DEEDS, [3, 6], assign={"Anna": 2, "Bert": 2}, order=["Bert", "Anna", "Bert", "Anna"])
    assert events[1:-1] == [*die("bert", 0, 1, 4, 3, 1), *die("anna", 1, 2, 4, 6, 0), *promoted("anna")]


def test_a_promoted_troop_starts_at_zero_xp(table):
    """Troops gain no XP in this ruleset; XP a correction gave is spent by the promotion."""
    table.pilgrims()
    table.legion()
    table.give_xp("Anna", 2)
    events = table.promotions_for({}, [6], assign={"Anna": 1})
    assert events[-2:] == [
        ev.XPSpent(warband="pilgrims", fighter="anna", amount=2, on="Promotion: an ELITE begins with 0 Experience Points"),
        done(),
    ]
    assert table.state.fighters["anna"].xp == 0


def test_a_promoted_model_is_elite_for_experience(table):
    """Promotions come first: Anna, promoted, earns the survival and deed XP of that game."""
    table.pilgrims()
    table.legion()
    table.promotions_for({"Anna": ["good-hunting"]}, [6], assign={"Anna": 2})
    assert table.do(Experience(warband="Pilgrims")) == [
        ev.XPAwarded(warband="pilgrims", fighter="gaius", amount=1, reason="battle 1: survived"),
        ev.XPAwarded(warband="pilgrims", fighter="anna", amount=1, reason="battle 1: survived"),
        ev.XPAwarded(warband="pilgrims", fighter="anna", amount=1, reason="battle 1: glorious-deed"),
        tc.AdvancementEarned(warband="pilgrims", fighter="anna", circle="circle-2", xp=2),
        ev.PostGameStepDone(warband="pilgrims", battle=1, step="experience"),
    ]


# --- Rule 4: the failure streak, kept on the roster across battles ------------------------------


def test_streak_goes_2_then_5_and_the_sixth_die_counts_as_a_six(table):
    table.pilgrims()
    table.legion()
    # Battle 1: one deed -> 2 dice, no 6: the streak is 2.
    first = table.promotions_for({"Anna": ["good-hunting"]}, [1, 2], even=True)
    assert first[1:-1] == [*die("anna", 0, 1, 2, 1, 1), *die("bert", 1, 2, 2, 2, 2)]
    assert tc.band_facts(table.state, "pilgrims").promotion_streak == 2
    table.finish_phases()
    # Battle 2: two deeds -> 3 dice, no 6: the streak goes on from 2 to 5.
    second = table.promotions_for({"Anna": ["good-hunting"], "Bert": ["headshot"]}, [5, 4, 3], even=True)
    assert second[0].streak == 2
    assert second[1:-1] == [*die("anna", 2, 1, 3, 5, 3), *die("anna", 3, 2, 3, 4, 4), *die("bert", 4, 3, 3, 3, 5)]
    assert tc.band_facts(table.state, "pilgrims").promotion_streak == 5
    # Gaius and Baal reach 2 XP in battle 2: each makes an Advancement Roll (R5-R6, R7-R8).
    table.finish_phases()
    # Battle 3: no deed -> 1 die; a 2 counts as a 6 after 5 dice without a Promotion.
    third = table.promotions_for({}, [2], assign={"Bert": 1})
    assert third == [
        pool(1, 0, {"bert": 1}, ["bert"], streak=5),
        *die("bert", 9, 1, 1, 2, 0, counted=True),
        *promoted("bert", COUNTED),
        done(3),
    ]
    assert tc.band_facts(table.state, "pilgrims").promotion_streak == 0
    assert str(third[2].describe(table.state)) == "Bert's Promotion Die 1 of 1: 2, counted as a 6 after 5 dice without a Promotion: promoted"


def test_a_natural_six_resets_the_streak(table):
    table.pilgrims()
    table.legion()
    table.promotions_for({"Anna": ["good-hunting"]}, [1, 1], even=True)
    table.finish_phases()
    events = table.promotions_for({}, [6], assign={"Anna": 1})
    assert events[2] == tc.PromotionDieRolled(warband="pilgrims", fighter="anna", roll=2, die=1, of=1, face=6,
                                              counted_as_six=False, promoted=True, streak=0)
    assert tc.band_facts(table.state, "pilgrims").promotion_streak == 0


# --- Rule 5: six ELITE -------------------------------------------------------------------------

FIVE_MORE = ("Ezra", "Fynn", "Hugo", "Ivo", "Jorg")


def test_step_skipped_with_six_elite_at_the_start(table):
    table.pilgrims(elites=FIVE_MORE)
    table.legion()
    assert table.promotions_for(THREE_DEEDS, [], even=True) == [
        tc.PromotionsSkipped(warband="pilgrims", elite=6),
        done(),
    ]


def test_no_dice_assigned_when_the_step_is_skipped(table):
    table.pilgrims(elites=FIVE_MORE)
    table.legion()
    table.battle()
    table.do(Trauma(warband="Pilgrims"))
    assert table.refusal(Promotions(warband="Pilgrims", assign={"Anna": 1}), [6]) == (
        "the warband has 6 ELITE models, so the Promotion step is skipped and no Promotion Dice are assigned"
    )


def test_promotion_to_the_sixth_elite_stops_promotions(table):
    table.pilgrims(elites=FIVE_MORE[:4])
    table.legion()
    events = table.promotions_for({"Anna": ["good-hunting"]}, [6], even=True)
    assert events[1:-1] == [*die("anna", 0, 1, 2, 6, 0), *promoted("anna"), stopped("first-six", 1, "anna")]
    table.finish_phases()  # Anna, ELITE before Experience, reaches 2 XP: her Advancement Roll
    assert table.promotions_for({"Bert": ["headshot"]}, [], even=True) == [
        tc.PromotionsSkipped(warband="pilgrims", elite=6),
        done(2),
    ]


@pytest.mark.parametrize(
    ("elites", "dice", "then"),
    [
        pytest.param(
            FIVE_MORE[:3], [6, 6],
            [*die("anna", 0, 1, 4, 6, 0), *promoted("anna"), *die("bert", 1, 2, 4, 6, 0), *promoted("bert"),
             stopped("elite-cap", 2)],  # Anna's second die (she is promoted), and Bert's
            id="4 ELITE: both Troops promoted, then rolling stops at 6",
        ),
        pytest.param(
            FIVE_MORE[:4], [6],
            [*die("anna", 0, 1, 4, 6, 0), *promoted("anna"), stopped("elite-cap", 3)],
            id="5 ELITE: the 6th ELITE stops rolling",
        ),
    ],
)
def test_per_model_house_rule_never_passes_six_elite(house_rules, elites, dice, then):
    """The later v1.0 wording (rules D1), as a house rule: several promotions, capped at 6 ELITE."""
    table = house_rules({"promotion_stop_rule": "per-model"})
    table.pilgrims(elites=elites)
    table.legion()
    events = table.promotions_for(THREE_DEEDS, dice, assign={"Anna": 2, "Bert": 2}, order=["Anna", "Bert", "Anna", "Bert"])
    assert events[1:-1] == then
    assert events[-2].describe(table.state) == (
        f"Pilgrims stopped rolling Promotion Dice: the warband has 6 ELITE models; {then[-1].unrolled} dice not rolled")


def test_per_model_house_rule_says_a_promoted_models_dice_are_not_rolled(house_rules):
    """Rules D1 (house rule): "stop rolling for that model" and go on with the next."""
    table = house_rules({"promotion_stop_rule": "per-model"})
    table.pilgrims()
    table.legion()
    events = table.promotions_for(THREE_DEEDS, [6, 1, 2], assign={"Anna": 2, "Bert": 2}, order=["Anna", "Bert", "Anna", "Bert"])
    assert events[1:-1] == [*die("anna", 0, 1, 4, 6, 0), *promoted("anna"), *die("bert", 1, 2, 4, 1, 1),
                            *die("bert", 2, 3, 4, 2, 2), stopped("per-model", 1)]
    assert events[-2].describe(table.state) == (
        "Pilgrims stopped rolling Promotion Dice: a promoted model rolls no more of its dice; 1 die not rolled")


# --- Rule 6: the model lists are data, and house rules can replace them ------------------------


def test_house_rule_non_promotable_list_loses_the_pool(house_rules):
    """A house rule adds Trench Pilgrims to the list: no Troop can take dice, so they are lost,
    nothing is rolled and the streak stays as it was."""
    listed = json.loads((files("commands.trench_crusade") / "data" / "non_promotable.json").read_text())
    listed["rows"].append({"id": "house/trench-pilgrim", "faction": "trench-pilgrims", "model": "Trench Pilgrim"})
    table = house_rules({"tables": {"non-promotable": listed}})
    table.pilgrims()
    table.legion()
    house = dict(reason="Trench Pilgrim cannot be Promoted", row="house/trench-pilgrim")
    excluded = [EXCLUDED[0], tc.Excluded(fighter="anna", **house), tc.Excluded(fighter="bert", **house), EXCLUDED[1]]
    assert table.promotions_for({"Anna": ["good-hunting"]}, [], even=True) == [
        pool(2, 1, {}, [], excluded=excluded),
        done(),
    ]
    assert tc.band_facts(table.state, "pilgrims").promotion_streak == 0


CAPPED = "(capped: at most 7 XP as trench-pilgrims/communicant)"


def test_limited_potential_never_above_seven(table):
    table.pilgrims()
    table.legion()
    table.do(Recruit(warband="Pilgrims", name="Ambrose", model="Communicant", elite=True, paid=False))
    assert table.do(AwardXP(fighter="Ambrose", amount=8, reason="story")) == [
        ev.XPAwarded(warband="pilgrims", fighter="ambrose", amount=7, reason=f"story {CAPPED}", requested=8),
        tc.AdvancementEarned(warband="pilgrims", fighter="ambrose", circle="circle-2", xp=2),
        tc.AdvancementEarned(warband="pilgrims", fighter="ambrose", circle="circle-4", xp=4),
        tc.AdvancementEarned(warband="pilgrims", fighter="ambrose", circle="circle-7", xp=7),
    ]
    table.promotions_for({"Ambrose": ["headshot"]}, [1, 2], even=True)
    assert table.do(Experience(warband="Pilgrims")) == [
        ev.XPAwarded(warband="pilgrims", fighter="gaius", amount=1, reason="battle 1: survived"),
        ev.XPAwarded(warband="pilgrims", fighter="ambrose", amount=0, requested=1, reason=f"battle 1: survived {CAPPED}"),
        ev.XPAwarded(warband="pilgrims", fighter="ambrose", amount=0, requested=1, reason=f"battle 1: glorious-deed {CAPPED}"),
        ev.PostGameStepDone(warband="pilgrims", battle=1, step="experience"),
    ]
    assert table.state.fighters["ambrose"].xp == 7


def test_house_rule_limited_potential_list(house_rules):
    listed = json.loads((files("commands.trench_crusade") / "data" / "limited_potential.json").read_text())
    listed["rows"].append({"id": "house/war-prophet", "faction": "trench-pilgrims", "model": "War Prophet"})
    table = house_rules({"tables": {"limited-potential": listed}})
    table.pilgrims()
    assert table.do(AwardXP(fighter="Gaius", amount=9, reason="story"))[0] == ev.XPAwarded(
        warband="pilgrims", fighter="gaius", amount=7, requested=9,
        reason="story (capped: at most 7 XP as house/war-prophet)",
    )


def test_only_elite_gain_xp(table):
    table.pilgrims()
    assert table.refusal(AwardXP(fighter="Anna", amount=1, reason="story")) == (
        "Anna is not ELITE: only ELITE models gain Experience Points"
    )
