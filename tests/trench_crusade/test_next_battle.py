"""A warband fights again only once the Campaign Phase of its latest battle is finished (the
required steps of `campaign post-game`; Reinforcements, optional, may stand in for Exploration),
since every step belongs to the latest battle and the ones left would be dropped. Both the
ruleset's `trench-crusade.battle` and the shared `battle.record` are held back."""

from __future__ import annotations

import pytest

from commands.shared import EnlistWarband, GainItem, RecordBattle
from commands.trench_crusade.commands import (
    Advancement,
    AdvanceRoll,
    Experience,
    Exploration,
    Promotions,
    Quartermaster,
    Recruit,
    Reinforcements,
    Roster,
    Trauma,
)
from commands.trench_crusade.phase import PHASE
from ledger import events as ev

# Battle 1's Campaign Phase for the Pilgrims, each step with its table dice. Victory or Death
# gives 2 Promotion Dice (Anna 1, Bert 1: two 1s, nobody promoted) and gives Gaius 2 XP (survived,
# and the warband's deed as its LEADER), so one Advancement Roll is owed; Exploration after game
# 1 is 3 dice on the Common table, none re-rolled; Quartermaster and Roster buy nothing.
PILGRIMS_PHASE = [
    ("trauma", Trauma(warband="Pilgrims"), []),
    ("promotions", Promotions(warband="Pilgrims", even=True), [1, 1]),
    ("experience", Experience(warband="Pilgrims"), []),
    ("advancement", Advancement(warband="Pilgrims", rolls=[
        AdvanceRoll(fighter="Gaius", tables=["melee-strength", "wildcard"], keep="wildcard")]), [3, 4, 5, 6]),
    ("exploration", Exploration(warband="Pilgrims", rerolls=[]), [2, 3, 4]),
    ("quartermaster", Quartermaster(warband="Pilgrims"), []),
    ("roster", Roster(warband="Pilgrims"), []),
]
EXPLORATION = 4  # its place in PILGRIMS_PHASE
# Each step as the refusal names it: by the name players know it by, not by the key its events record.
NAMED = {"trauma": "Trauma", "promotions": "Promotions", "experience": "Experience", "advancement": "Advancement Rolls",
         "exploration": "Exploration", "quartermaster": "Quartermaster", "roster": "Roster"}


def unfinished(step: str, battle: int = 1) -> str:
    return f"Pilgrims has not finished the Campaign Phase of battle {battle}: next is {step} (campaign post-game Pilgrims)"


@pytest.fixture
def after_battle_1(table):
    """Battle 1 won by the Pilgrims with Victory or Death; the Legion's Campaign Phase finished
    (Baal survived: 1 XP, no Advancement Roll; no Troop, so its Promotion Die is lost)."""
    table.pilgrims()
    table.legion()
    table.battle(warband_deeds={"Pilgrims": ["victory-or-death"]})
    table.finish_phase("Legion")
    return table


def the_next_battle(table) -> RecordBattle:
    """Battle 2 as the shared `battle record` gives it: every active model fought."""
    return RecordBattle(participants=["Pilgrims", "Legion"], scenario="trench-warfare",
                        deeds=[ev.Deed(fighter=name) for name in ("Gaius", "Anna", "Bert", "Carl", "Baal")])


@pytest.mark.parametrize("steps_done", range(len(PILGRIMS_PHASE)), ids=[key for key, _, _ in PILGRIMS_PHASE])
def test_a_battle_is_refused_until_the_phase_is_finished_naming_the_next_step(after_battle_1, steps_done):
    # Given the Pilgrims' Campaign Phase of battle 1 done up to (not including) this step,
    for _key, command, dice in PILGRIMS_PHASE[:steps_done]:
        after_battle_1.do(command, dice)
    # when battle 2 is recorded, with the ruleset's command or the shared one,
    refusals = {after_battle_1.refusal(after_battle_1.battle_command()), after_battle_1.refusal(the_next_battle(after_battle_1))}
    # then both are refused (nothing written) naming the step to do next.
    assert refusals == {unfinished(NAMED[PILGRIMS_PHASE[steps_done][0]])}


def test_once_the_phase_is_finished_the_next_battle_is_recorded(after_battle_1):
    # Given every step of the Pilgrims' Campaign Phase of battle 1 done,
    for _key, command, dice in PILGRIMS_PHASE:
        after_battle_1.do(command, dice)
    # when battle 2 is recorded through the shared command,
    events = after_battle_1.do(the_next_battle(after_battle_1))
    # then it is battle 2, and its own Campaign Phase starts at Trauma.
    assert events[0] == ev.BattleRecorded(
        battle=2, participants=["pilgrims", "legion"], winner=None, scenario="trench-warfare",
        deeds=[ev.Deed(fighter=f) for f in ("gaius", "anna", "bert", "carl", "baal")],
    )
    assert PHASE.next_step(after_battle_1.state, after_battle_1.state.warbands["pilgrims"]) == "trauma"


def test_the_enemy_unfinished_phase_holds_the_battle_too(table):
    # Given battle 1 with the Pilgrims' phase finished and the Legion's not begun,
    table.pilgrims()
    table.legion()
    table.battle()
    table.finish_phase("Pilgrims", promotions=[1])
    # when they fight again, then the Legion is named.
    assert table.refusal(table.battle_command()) == (
        "Legion has not finished the Campaign Phase of battle 1: next is Trauma (campaign post-game Legion)"
    )


def test_a_first_battle_is_never_held_back(table):
    # Given the Legion fought battle 1 and has not begun its Campaign Phase, and the Pilgrims
    # finished theirs,
    table.pilgrims()
    table.legion()
    table.battle()
    table.finish_phase("Pilgrims", promotions=[1])
    # when the Grail, newly enlisted and never in a battle, fights the Pilgrims,
    table.do(EnlistWarband(name="Grail", player="Cy", faction="black-grail"))
    table.do(Recruit(warband="Grail", name="Abel", model="Grail Knight", elite=True, paid=False))
    events = table.do(RecordBattle(participants=["Pilgrims", "Grail"], scenario="trench-warfare", winner="Grail",
                                   deeds=[ev.Deed(fighter="Gaius"), ev.Deed(fighter="Abel")]))
    # then it is recorded: only a warband that has fought before has a phase to finish, and the
    # Legion, which did not fight, is not asked about.
    assert events[0] == ev.BattleRecorded(battle=2, participants=["pilgrims", "grail"], winner="grail",
                                          scenario="trench-warfare", deeds=[ev.Deed(fighter="gaius"), ev.Deed(fighter="abel")])


# --- Reinforcements: optional, taken instead of Exploration --------------------------------------


def through_advancement(table) -> None:
    for _key, command, dice in PILGRIMS_PHASE[:EXPLORATION]:
        table.do(command, dice)


def test_reinforcements_instead_of_exploration_finish_the_phase(after_battle_1):
    # Given the Pilgrims through their Advancement Roll, with a Holy Icon in the Arsenal and
    # 700 ducats in the Strongbox,
    after_battle_1.do(GainItem(warband="Pilgrims", item="Holy Icon"))
    through_advancement(after_battle_1)
    # when they take Reinforcements,
    events = after_battle_1.do(Reinforcements(warband="Pilgrims"))
    # then the Arsenal is discarded and the Strongbox set to 0 (rules §9 steps 1-2),
    assert events == [
        ev.ItemLost(warband="pilgrims", item="Holy Icon", reason="Reinforcements: the Arsenal is discarded"),
        ev.TreasuryChanged(warband="pilgrims", delta=-700, reason="Reinforcements: the Strongbox is set to 0"),
        ev.PostGameStepDone(warband="pilgrims", battle=1, step="reinforcements"),
    ]
    band = after_battle_1.state.warbands["pilgrims"]
    assert (band.stash, band.treasury) == ([], 0)
    # Exploration is forfeited, Quartermaster comes next (rules §13 C1, read as the TC step page
    # has it), and once it and Roster are done the next battle may be fought.
    assert after_battle_1.refusal(Exploration(warband="Pilgrims", rerolls=[]), [2, 3, 4]) == (
        "Pilgrims has done the Reinforcements step for battle 1: Reinforcements are taken instead of Exploration, not as well"
    )
    assert PHASE.next_step(after_battle_1.state, after_battle_1.state.warbands["pilgrims"]) == "quartermaster"
    for _key, command, dice in PILGRIMS_PHASE[EXPLORATION + 1:]:
        after_battle_1.do(command, dice)
    assert after_battle_1.do(the_next_battle(after_battle_1))[0].battle == 2


def test_reinforcements_take_exploration_s_place_in_the_order(after_battle_1):
    # Given the Pilgrims through Experience, with Gaius's Advancement Roll still owed,
    for _key, command, dice in PILGRIMS_PHASE[:3]:
        after_battle_1.do(command, dice)
    # then Reinforcements wait for it as Exploration does,
    assert after_battle_1.refusal(Reinforcements(warband="Pilgrims")) == (
        "Gaius still has an Advancement Roll to make before Reinforcements"
    )
    # and once the warband has explored, Reinforcements are no longer open.
    for _key, command, dice in PILGRIMS_PHASE[3:EXPLORATION + 1]:
        after_battle_1.do(command, dice)
    assert after_battle_1.refusal(Reinforcements(warband="Pilgrims")) == (
        "Pilgrims has done the Exploration step for battle 1: Reinforcements are taken instead of Exploration, not as well"
    )
