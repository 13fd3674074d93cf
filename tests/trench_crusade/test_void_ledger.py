"""Undo and replay of promotions: voiding a Promotion roll reopens its battle's Campaign Phase,
so the warband's later steps and every later battle it fought (a battle waits for the phase)
no longer follow, while the other warband's own steps stand; `Ledger.check` re-decides the whole
history from the stored commands and dice."""

from __future__ import annotations

import pytest

from commands.trench_crusade import events as tc
from commands.trench_crusade.phase import PHASE
from ledger.decide import TableDice
from ledger.errors import Conflict

# Transactions of the campaign below: T1 start, T2-T6 Pilgrims and their four models, T7-T8
# Legion and Baal; battle 1 is T9 (record), T10 (Pilgrims' Trauma), T11 (their Promotions), then
# the rest of its Campaign Phase: the Pilgrims' T12-T15 (Experience, Reinforcements,
# Quartermaster, Roster), the Legion's T16-T21. Battle 2 runs T22-T36 (two Advancement Rolls
# owed among them), battle 3 T37-T39.
BATTLE_1_PROMOTIONS, PILGRIMS_BATTLE_1_REST, BATTLE_2, LAST = 11, [12, 13, 14, 15], 22, 39
CHECKED = LAST - 1  # every transaction but the campaign's start


@pytest.fixture
def three_battles(table):
    """Streak 2 after battle 1 (R0, R1), 5 after battle 2 (R2-R4); Gaius's and Baal's Advancement
    Rolls (R5-R8) end battle 2's phase; in battle 3 Bert's 2 (R9) counts as a 6 and promotes him."""
    table.pilgrims()
    table.legion()
    table.promotions_for({"Anna": ["good-hunting"]}, [1, 2], even=True)
    table.finish_phases()
    table.promotions_for({"Anna": ["good-hunting"], "Bert": ["headshot"]}, [5, 4, 3], even=True)
    table.finish_phases()
    table.promotions_for({}, [2], assign={"Bert": 1})
    return table


def test_the_story_checks(three_battles):
    assert three_battles.ledger.check(three_battles.cid) == (CHECKED, [])


def test_voiding_a_promotion_roll_takes_the_later_battles_with_its_phase(three_battles):
    table = three_battles
    # When battle 1's first Promotion Die is voided,
    with pytest.raises(Conflict) as refused:
        table.ledger.void(table.cid, "R0", reason="die rolled off the table", actor="arbiter")
    lines = str(refused.value).splitlines()
    assert lines[0] == f"voiding T{BATTLE_1_PROMOTIONS} affects later transactions (add --cascade to void them too):"
    # then the Pilgrims' later steps of battle 1 wait for Promotions again, and battle 2 for the
    # Pilgrims' phase (everything after it goes with it); the Legion's own steps of battle 1 stand.
    affected = [*PILGRIMS_BATTLE_1_REST, *range(BATTLE_2, LAST + 1)]
    assert [line.split(":")[0] for line in lines[1:]] == [f"  T{tx}" for tx in affected]
    assert lines[1 + len(PILGRIMS_BATTLE_1_REST)] == (f"  T{BATTLE_2}: Pilgrims has not finished the Campaign Phase of battle 1: next is Promotions "
                        "(campaign post-game Pilgrims)")
    assert table.state.transactions == LAST  # nothing written

    outcome = table.ledger.void(table.cid, "R0", reason="die rolled off the table", actor="arbiter", cascade=True)
    assert [tx for tx, _why in outcome.affected] == affected
    state = table.state
    assert tc.band_facts(state, "pilgrims").promotion_streak == 0
    assert "ELITE" not in state.fighters["bert"].keywords
    assert (state.battles_fought, [battle.number for battle in state.latest_battles]) == (1, [1])
    assert PHASE.next_step(state, state.warbands["pilgrims"]) == "promotions"
    assert table.ledger.check(table.cid) == (CHECKED - 1 - len(affected), [])


def test_rerolling_the_automatic_six_keeps_the_promotion_and_records_the_new_face(three_battles):
    table = three_battles
    outcome = table.ledger.reroll(table.cid, "R9", reason="cocked die", actor="arbiter", dice=TableDice([4]))
    die = next(record.event for record in outcome.records if isinstance(record.event, tc.PromotionDieRolled))
    assert die == tc.PromotionDieRolled(warband="pilgrims", fighter="bert", roll=10, die=1, of=1, face=4,
                                        counted_as_six=True, promoted=True, streak=0)
    assert "ELITE" in table.state.fighters["bert"].keywords
    assert table.ledger.check(table.cid) == (CHECKED, [])  # the rerolled Promotions replaced the voided one
