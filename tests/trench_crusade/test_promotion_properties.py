"""Properties of the Promotions Step that hold for any dice (hypothesis)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from commands.trench_crusade.rules import (
    FAILURES_BEFORE_AUTOMATIC_SIX,
    Fighter,
    even_spread,
    promotion_eligibility,
    roll_promotion_dice,
    validate_assignment,
)
from commands.trench_crusade.tables import TABLES as TRENCH_TABLES

TABLES = TRENCH_TABLES.defaults
faces = st.lists(st.integers(1, 6), min_size=12, max_size=12)


@given(streak=st.integers(0, FAILURES_BEFORE_AUTOMATIC_SIX), dice=st.integers(1, 12), faces=faces)
def test_first_six_rule_promotes_at_most_once_and_never_six_misses_in_a_row(streak, dice, faces):
    rolls = roll_promotion_dice(["anna"] * dice, faces, streak=streak, elite_at_start=0)
    assert len(rolls.promoted) <= 1
    assert rolls.dice_consumed + rolls.unrolled == dice
    assert rolls.streak_after <= FAILURES_BEFORE_AUTOMATIC_SIX
    if rolls.promoted:
        assert rolls.dice[-1].promoted and rolls.streak_after == 0
    else:
        assert rolls.streak_after == streak + dice


@given(elite_at_start=st.integers(0, 5), faces=faces)
def test_per_model_rule_never_passes_six_elite(elite_at_start, faces):
    order = ["anna", "anna", "bert", "bert", "cole", "cole", "dora", "dora", "emil", "fred"]
    rolls = roll_promotion_dice(
        order, faces, streak=0, elite_at_start=elite_at_start, stop_rule="per-model"
    )
    assert elite_at_start + len(rolls.promoted) <= 6
    assert len(set(rolls.promoted)) == len(rolls.promoted)


@given(models=st.integers(1, 6), pool=st.integers(1, 20))
def test_even_spread_always_passes_the_levelling_rule(models, pool):
    roster = [
        Fighter(fighter_id=f"t{n}", name=f"T{n}", model="Trench Pilgrim") for n in range(models)
    ]
    eligibility = promotion_eligibility(roster, "trench-pilgrims", TABLES)
    validate_assignment(
        even_spread([fighter.fighter_id for fighter in roster], pool), eligibility, pool
    )
