"""`campaign rules upgrade` onto 1.6.0, which counts the ELITE "at the start of the Promotions & Experience Phase"
as the Trauma step records them (rules §4): given a campaign on 1.5.0 whose Pilgrims did their Trauma step and not
their Promotions step, the upgrade typed now is refused; once Promotions is done it is taken; an upgrade recorded
mid-phase (before the refusal) is decided again as it was."""

from __future__ import annotations

from commands.shared import UpgradeRules
from commands.trench_crusade import RULESET
from commands.trench_crusade.commands import Promotions, Trauma
from ledger import events as ev
from ledger.decide import TableDice
from ledger.deciding import decide

from .conftest import Table

ONTO_1_6_0 = UpgradeRules(version="1.6.0")
REFUSAL = ("Pilgrims is between the Trauma and Promotions steps of battle 1: from 1.6.0 the Promotions step counts the "
           "ELITE its Trauma step recorded, and under v1.5.0 that step recorded none; take the Promotions step first "
           "(campaign trench-crusade promotions Pilgrims), then upgrade")


def traumas_done_on_1_5_0() -> Table:
    """A battle of the Pilgrims and the Legion on 1.5.0, the Pilgrims' Trauma step done."""
    table = Table({}, version="1.5.0")
    table.pilgrims()
    table.legion()
    table.battle()
    table.do(Trauma(warband="Pilgrims"))
    return table


def test_an_upgrade_onto_1_6_0_between_trauma_and_promotions_is_refused():
    table = traumas_done_on_1_5_0()
    # When the upgrade is typed with the Pilgrims between the steps
    # Then it is refused, saying what to do, and nothing is written
    assert table.refusal(ONTO_1_6_0) == REFUSAL


def test_the_upgrade_is_taken_once_the_promotions_step_is_done():
    table = traumas_done_on_1_5_0()
    table.do(Promotions(warband="Pilgrims", even=True), [1])
    # The Legion has not begun its phase: its Trauma step will record the count under 1.6.0
    assert table.do(ONTO_1_6_0) == [ev.RulesetUpgraded(version="1.6.0", previous="1.5.0")]


def test_an_upgrade_recorded_between_the_steps_is_decided_again_as_it_was():
    """Replay, voids and import decide a recorded command again (not typed now): it is not refused."""
    state = traumas_done_on_1_5_0().state
    assert decide(RULESET, state, ONTO_1_6_0, dice=TableDice([]), shuffle_dice=None)[1:] == [
        ev.RulesetUpgraded(version="1.6.0", previous="1.5.0")]
