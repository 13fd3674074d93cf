"""The pure rules of commands/retinue/rules.py as tables of cases, without a ledger."""

from __future__ import annotations

import pytest

from commands.retinue import rules as r
from commands.retinue.tables import TABLES
from ledger.errors import BadInput

DATA = TABLES.defaults
HUMAN = {"Wi": 2, "Sa": 2, "Mt": 3, "Sk": 3, "W": 2, "M": 3, "Df": 3, "CC": 3, "RC": 3}


def fighter(**given) -> r.Fighter:
    return r.Fighter(**{"id": "f", "name": "Kestrel", "stats": dict(HUMAN), "keywords": ("Human",), **given})


# S2 and S3: every line of the price table, for a fighter and for a Vampire.
PRICES = [("feat", 3), ("Wi", 6), ("Sa", 6), ("Mt", 7), ("Sk", 7), ("W", 8), ("caster", 9), ("M", 10), ("Df", 11),
          ("CC", 12), ("RC", 12), ("feat-outside", 15)]


@pytest.mark.parametrize(("advancement", "cost"), PRICES)
def test_S2_S3_price_of_every_line(advancement, cost):
    bought = r.ADVANCEMENTS[advancement]
    assert r.price(fighter(), bought) == cost
    assert r.price(fighter(keywords=("Vampire", "Human")), bought) == cost + 2


def test_S2_the_table_has_exactly_the_seeds_lines_in_its_order():
    assert [(a.id, a.cost) for a in r.ADVANCEMENTS.values()] == PRICES


def test_S1_S3_the_refusal_says_the_listed_cost_the_vampire_cost_and_the_shortfall():
    with pytest.raises(r.RetinueRuleError) as refused:
        r.check_affordable(fighter(keywords=("vampire",), xp=9), r.ADVANCEMENTS["CC"])
    assert str(refused.value) == "S1, S3: Kestrel has 9 XP; CC +1 costs 12, 14 for a Vampire: 5 XP short"


# E3, E4: the battle pass. (deeds: fighter -> went OOA; removals: (victim, by, direct, leader)) -> awards
BATTLES = [
    ({"a": False}, [], [("a", 1, "did not go Out of Action")]),
    ({"a": True}, [], []),
    ({"a": True}, [("X", "a", True, False)], [("a", 1, "put X Out of Action")]),
    ({"a": False}, [("X", "a", True, False), ("X", "a", True, False)],
     [("a", 1, "did not go Out of Action"), ("a", 1, "put X Out of Action")]),
    ({"a": True}, [("L", "a", True, True)], [("a", 2, "put the enemy Leader L Out of Action")]),
    ({"a": True}, [("L", "a", True, True), ("L", "a", True, True)], [("a", 2, "put the enemy Leader L Out of Action")]),
    ({"a": True}, [("X", "a", False, False), ("L", None, False, True)], []),
    ({"a": True, "b": True}, [("X", "a", True, False), ("X", "b", True, False)],
     [("a", 1, "put X Out of Action"), ("b", 1, "put X Out of Action")]),
]


@pytest.mark.parametrize(("deeds", "removals", "awards"), BATTLES)
def test_E3_E4_battle_awards(deeds, removals, awards):
    made = r.battle_awards([r.BattleDeed(fighter=f, went_out_of_action=ooa) for f, ooa in deeds.items()],
                           [r.Removal(victim=v, by=by, direct=direct, victim_is_leader=leader)
                            for v, by, direct, leader in removals])
    assert [(a.fighter, a.amount, a.source) for a in made] == awards
    assert {a.pass_ for a in made} <= {"battle"}


# E5, E7: outcomes (fighter, table, kind) and bonuses -> post-game awards
POST_GAME = [
    ([("a", "casualty", "hardy")], [], [("a", 1)]),
    ([("a", "doom", "miraculous")], [], [("a", 2)]),
    ([("a", "casualty", "hardy"), ("a", "doom", "slain")], [], []),
    ([("a", "casualty", "slain"), ("b", "doom", "miraculous")], [("b", "survival")], [("b", 2), ("b", 1)]),
    ([("a", "casualty", "none")], [("a", "survival")], [("a", 1)]),
]


@pytest.mark.parametrize(("outcomes", "bonus", "awards"), POST_GAME)
def test_E5_E7_post_game_awards(outcomes, bonus, awards):
    made = r.post_game_awards([r.Outcome(fighter=f, table=t, outcome=k, kind=k) for f, t, k in outcomes], bonus,
                              {"a": "Ann", "b": "Bo"})
    assert [(a.fighter, a.amount) for a in made] == awards


# E6: "Each scenario states which fighters earn XP and how much" — given the amount a scenario
# states, then it is taken, or refused (the one check for `scenario-pass --award` and the walk alike).
SCENARIO_XP = [
    (1, None), (5, None), (6, None), (40, None),  # no bound but that it is an award: the walk took only 1-5
    (0, "E6: a scenario award is a positive amount of XP, not 0"),
    (-2, "E6: a scenario award is a positive amount of XP, not -2"),
]


@pytest.mark.parametrize(("amount", "refusal"), SCENARIO_XP)
def test_E6_a_scenario_awards_any_amount_it_states(amount, refusal):
    if refusal is None:
        r.check_scenario_xp(amount)
        return
    with pytest.raises(BadInput) as refused:  # no award at all: bad input (exit 2), not a rules refusal
        r.check_scenario_xp(amount)
    assert str(refused.value) == refusal


@pytest.mark.parametrize(("table", "name", "kind"), [
    ("casualty", "Slain", "slain"), ("casualty", "hardy", "hardy"), ("doom", "MIRACULOUS", "miraculous"),
    ("casualty", "Captured", "captured"), ("doom", "Grim Scar", "none"),
])
def test_A3_outcomes_known_by_name(table, name, kind):
    assert r.outcome_by_name(table, name) == kind


# A3 by name from 1.8.0: a common word for a known outcome of the table, or a near miss of it, is refused naming
# it; a name of the group's own, or a word for an outcome of the other table, is taken as before (kind "none").
@pytest.mark.parametrize(("table", "name", "meant"), [
    ("casualty", "Dead", "Slain"), ("doom", "killed", "Slain"), ("casualty", "Slian", "Slain"),
    ("casualty", "Prisoner", "Captured"), ("doom", "Capturd", "Captured"), ("casualty", "Hard", "Hardy"),
    ("doom", "Miracle", "Miraculous"), ("doom", "Miraculus", "Miraculous"),
    ("casualty", "Lasting Wound", None), ("casualty", "Miracle", None), ("doom", "Scarred", None),
])
def test_A3_an_outcome_named_loosely_for_a_known_one(table, name, meant):
    assert r.outcome_by_name(table, name) == "none"  # 1.7.0: the group's own, changing nothing
    if meant is None:
        assert r.outcome_by_name(table, name, loosely_refused=True) == "none"
        return
    with pytest.raises(BadInput, match=f"^A3: did you mean {meant}\\? '{name}' is no"):
        r.outcome_by_name(table, name, loosely_refused=True)


@pytest.mark.parametrize(("reason", "pass_"), [
    ("battle pass: did not go Out of Action", "battle"), ("scenario pass: the Horn", "scenario"),
    ("post-game pass: Hardy (Casualty Table)", "post-game"), ("correction: test", None),
])
def test_E2_the_pass_is_read_back_from_the_reason(reason, pass_):
    assert r.pass_of(reason) == pass_


# S7 with A1: (current, baseline) -> reduction owed under each reading
@pytest.mark.parametrize(("current", "owed_a", "owed_b"), [(2, 0, 0), (3, 0, 0), (4, 1, 1), (5, 1, 2)])
def test_S7_A1_reduction_owed_for_a_human_cc(current, owed_a, owed_b):
    raised = fighter(stats={**HUMAN, "CC": current})
    assert r.reduction_owed(raised, "CC", DATA, "one-per-purchase") == owed_a
    assert r.reduction_owed(raised, "CC", DATA, "whole-excess") == owed_b
