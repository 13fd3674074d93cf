"""Undo and replay of promotions: voiding a Promotion roll re-decides every later battle's
Promotions (the streak they started from changes), and `Ledger.check` re-decides the whole
history from the stored commands and dice."""

from __future__ import annotations

import pytest

from commands.trench_crusade import events as tc
from ledger.decide import TableDice
from ledger.errors import Conflict

# Transactions of the campaign below: T1 start, T2-T6 Pilgrims and their four models, T7-T8
# Legion and Baal; then per battle: record, Trauma, Promotions.
BATTLE_1_PROMOTIONS, BATTLE_2_PROMOTIONS, BATTLE_3_PROMOTIONS = 11, 14, 17


@pytest.fixture
def three_battles(table):
    """Streak 2 after battle 1 (R0, R1), 5 after battle 2 (R2-R4); in battle 3 Bert's 2 (R5)
    counts as a 6 and promotes him."""
    table.pilgrims()
    table.legion()
    table.promotions_for({"Anna": ["good-hunting"]}, [1, 2], even=True)
    table.promotions_for({"Anna": ["good-hunting"], "Bert": ["headshot"]}, [5, 4, 3], even=True)
    table.promotions_for({}, [2], assign={"Bert": 1})
    return table


def test_the_story_checks(three_battles):
    assert three_battles.ledger.check(three_battles.cid) == (16, [])


def test_voiding_a_promotion_roll_re_decides_the_later_battles(three_battles):
    table = three_battles
    with pytest.raises(Conflict) as refused:
        table.ledger.void(table.cid, "R0", reason="die rolled off the table", actor="arbiter")
    lines = str(refused.value).splitlines()
    assert lines[0] == f"voiding T{BATTLE_1_PROMOTIONS} affects later transactions (add --cascade to void them too):"
    # Without battle 1's two failures, battle 2 starts from a streak of 0, and battle 3 from 3.
    assert [line.split(":")[0] for line in lines[1:]] == [f"  T{BATTLE_2_PROMOTIONS}", f"  T{BATTLE_3_PROMOTIONS}"]
    assert table.state.transactions == BATTLE_3_PROMOTIONS  # nothing written

    outcome = table.ledger.void(table.cid, "R0", reason="die rolled off the table", actor="arbiter", cascade=True)
    assert [tx for tx, _why in outcome.affected] == [BATTLE_2_PROMOTIONS, BATTLE_3_PROMOTIONS]
    state = table.state
    assert state.warbands["pilgrims"].ext.get("promotion_streak", 0) == 0
    assert "ELITE" not in state.fighters["bert"].keywords
    assert table.ledger.check(table.cid) == (13, [])  # the three Promotions are voided


def test_rerolling_the_automatic_six_keeps_the_promotion_and_records_the_new_face(three_battles):
    table = three_battles
    outcome = table.ledger.reroll(table.cid, "R5", reason="cocked die", actor="arbiter", dice=TableDice([4]))
    die = next(record.event for record in outcome.records if isinstance(record.event, tc.PromotionDieRolled))
    assert die == tc.PromotionDieRolled(warband="pilgrims", fighter="bert", roll=6, die=1, of=1, face=4,
                                        counted_as_six=True, promoted=True, streak=0)
    assert "ELITE" in table.state.fighters["bert"].keywords
    assert table.ledger.check(table.cid) == (16, [])  # the rerolled Promotions replaced the voided one
