"""The core pieces every guided post-game uses: the shared step-done event and `steps_done`,
and the given/when/then harness rulesets test with (`ledger.testing`)."""

import pytest

from commands.shared import AwardXP, EnlistWarband
from ledger import events as ev
from ledger.rulesets import steps_done
from ledger.state import CampaignState, evolve
from ledger.testing import LedgerHarness


def folded(*events: ev.Event) -> CampaignState:
    state = CampaignState()
    for event in (ev.WarbandEnlisted(warband="rats", name="Rats", player="Ann"), *events):
        evolve(state, event)
    return state


def test_steps_are_listed_in_the_order_done_for_their_battle():
    state = folded(
        ev.PostGameStepDone(warband="rats", battle=1, step="explore"),
        ev.PostGameStepDone(warband="rats", battle=1, step="injuries"),
    )
    assert steps_done(state, "rats", 1) == ["explore", "injuries"]


def test_a_step_of_a_newer_battle_starts_the_list_again_and_older_battles_show_none():
    state = folded(
        ev.PostGameStepDone(warband="rats", battle=1, step="explore"),
        ev.PostGameStepDone(warband="rats", battle=2, step="explore"),
    )
    assert (steps_done(state, "rats", 2), steps_done(state, "rats", 1)) == (["explore"], [])


def test_unknown_warbands_have_done_nothing():
    state = folded(ev.PostGameStepDone(warband="orcs", battle=1, step="explore"))
    assert (steps_done(state, "orcs", 1), steps_done(state, "rats", 1)) == ([], [])


def test_harness_returns_the_consequences_and_a_refusal_message():
    table = LedgerHarness("freeform")
    assert table.do(EnlistWarband(name="Rats", player="Ann")) == [
        ev.WarbandEnlisted(warband="rats", name="Rats", player="Ann")
    ]
    assert table.refusal(AwardXP(fighter="Nobody", amount=1, reason="x")) == "no fighter 'Nobody'"


def test_harness_fails_a_test_whose_command_was_not_refused():
    table = LedgerHarness("freeform")
    with pytest.raises(AssertionError, match="EnlistWarband was done, not refused"):
        table.refusal(EnlistWarband(name="Rats", player="Ann"))
