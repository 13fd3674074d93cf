"""The guided Campaign Phase: steps in the rules' order, done-ness read from the events of the
warband's latest battle, and the Promotions step's assignment table offered for accepting or
editing."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from commands.trench_crusade.commands import (
    Advancement,
    AdvanceRoll,
    Experience,
    Exploration,
    Promotions,
    Quartermaster,
    Roster,
    Trauma,
)
from commands.trench_crusade.phase import PHASE
from ledger.errors import NeedsDice, RuleViolation


class Player:
    """Answers the step's questions in turn, and remembers what was asked."""

    def __init__(self, *answers: str):
        self.answers = list(answers)
        self.asked: list[tuple[str, list[str]]] = []

    def __call__(self, prompt: str, options: Sequence[str], key: str | None = None) -> str:
        self.asked.append((prompt, list(options)))
        return self.answers.pop(0)


def nobody(prompt: str, options: Sequence[str], key: str | None = None) -> str:
    """What the guided post-game asks with when there is no terminal."""
    raise NeedsDice(prompt)


def steps(table):
    return {step.key: step for step in PHASE.guided_steps(table.state, "pilgrims")}


def done(table) -> list[str]:
    return [key for key, step in steps(table).items() if step.done(table.state, "pilgrims")]


@pytest.fixture
def after_trauma(table):
    table.pilgrims()
    table.legion()
    table.battle(deeds={"Anna": ["good-hunting"]}, warband_deeds={"Pilgrims": ["victory-or-death"]})
    table.do(Trauma(warband="Pilgrims"))
    return table


def test_steps_follow_the_campaign_phase_and_resume_from_events(after_trauma):
    table = after_trauma
    assert list(steps(table)) == ["trauma", "promotions", "experience", "advancement", "exploration", "quartermaster", "roster"]
    assert done(table) == ["trauma"]
    table.do(steps(table)["promotions"].build(table.state, "pilgrims", nobody), [1, 1, 1])
    table.do(Experience(warband="Pilgrims"))
    # Gaius reached 2 XP (survived, and the warband's deed): an Advancement Roll is owed.
    assert done(table) == ["trauma", "promotions", "experience"]
    table.do(Advancement(warband="Pilgrims", rolls=[AdvanceRoll(fighter="Gaius", tables=["ranged", "wildcard"], keep="ranged")]),
             [1, 1, 1, 1])
    table.do(Exploration(warband="Pilgrims", rerolls=[]), [1, 1, 1])
    assert done(table) == ["trauma", "promotions", "experience", "advancement", "exploration"]
    # Quartermaster and Roster are a confirmation each once any purchases are made.
    assert steps(table)["quartermaster"].build(table.state, "pilgrims", nobody) == Quartermaster(warband="Pilgrims")
    table.do(Quartermaster(warband="Pilgrims"))
    assert steps(table)["roster"].build(table.state, "pilgrims", nobody) == Roster(warband="Pilgrims")
    table.do(Roster(warband="Pilgrims"))
    assert done(table) == list(steps(table))
    table.finish_phase("Legion")
    table.battle()
    assert done(table) == []  # battle 2's Campaign Phase starts


@pytest.fixture
def show_off_after_trauma(table):
    """As `after_trauma`, with Gaius holding Show Off (+1 Promotion die, rules §6.1) before the battle."""
    table.pilgrims()
    table.legion()
    table.learn_show_off("Gaius")
    table.battle(deeds={"Anna": ["good-hunting"]}, warband_deeds={"Pilgrims": ["victory-or-death"]})
    table.do(Trauma(warband="Pilgrims"))
    return table


def test_promotions_offer_the_even_spread_as_a_table(after_trauma):
    # No model holds Show Off, the only source of extra dice, so none are offered.
    player = Player("accept", "accept")
    command = steps(after_trauma)["promotions"].build(after_trauma.state, "pilgrims", player)
    assert command == Promotions(warband="Pilgrims", even=True)
    assert player.asked == [
        ("Promotion Dice: 3 (1 base + 2 Glorious Deeds)\n  Anna  2\n  Bert  1\nAccept this assignment?", ["accept", "edit"]),
        ("Roll in this order: Anna, Anna, Bert?", ["accept", "edit"]),
    ]


def test_extra_dice_from_show_off_are_offered_as_many_as_its_holders_add(show_off_after_trauma):
    # Rules §6.1: "Wildcard Show Off (+1 die per model with it)": Gaius alone has it, so 1 die at most.
    player = Player("wildcard/show-off", "1", "accept", "accept")
    command = steps(show_off_after_trauma)["promotions"].build(show_off_after_trauma.state, "pilgrims", player)
    assert command == Promotions(warband="Pilgrims", even=True, extra={"wildcard/show-off": 1})
    assert player.asked[:2] == [
        ("Extra Promotion Dice from a Skill or Glory Item?", ["none", "wildcard/show-off"]),
        ("How many dice does Show Off (Wildcard skill) add (1 per model with the skill)?", ["1"]),
    ]


def test_an_edited_assignment_is_checked_and_the_order_can_be_edited(show_off_after_trauma):
    after_trauma = show_off_after_trauma
    player = Player(
        "wildcard/show-off", "1",  # Gaius's Show Off (the only source, so not asked again): pool 4
        "edit", "3", "1",  # refused: no 3rd die while Bert has 1
        "edit", "1", "3",  # refused again
        "edit", "2", "2", "accept",  # 2/2: the even spread
        "edit", "Bert", "Anna", "Bert", "Anna",
    )
    command = steps(after_trauma)["promotions"].build(after_trauma.state, "pilgrims", player)
    assert command == Promotions(warband="Pilgrims", even=True, order=["Bert", "Anna", "Bert", "Anna"],
                                 extra={"wildcard/show-off": 1})
    refusals = [prompt.split("\n")[0] for prompt, _ in player.asked if prompt.startswith("Not allowed")]
    assert refusals == [
        "Not allowed: Anna cannot take a 3rd Promotion Die while Bert has 1: no model gets a 3rd die until every Troop has at least 2 (Promotions Step)",
        "Not allowed: Bert cannot take a 3rd Promotion Die while Anna has 1: no model gets a 3rd die until every Troop has at least 2 (Promotions Step)",
    ]
    assert player.asked[-1] == ("Promotion Die 4 of 4: roll for which model?", ["Anna"])
    events = after_trauma.do(command, [2, 6])
    assert events[0].order == ["bert", "anna", "bert", "anna"]


def test_an_uneven_assignment_is_kept_as_given(after_trauma):
    player = Player("edit", "1", "2", "accept", "accept")
    command = steps(after_trauma)["promotions"].build(after_trauma.state, "pilgrims", player)
    assert command == Promotions(warband="Pilgrims", assign={"Anna": 1, "Bert": 2})


def given_ahead(**answers: str):
    """What the guided post-game asks with when there is no terminal and `--answer KEY=CHOICE` were given."""
    def ask(prompt: str, options: Sequence[str], key: str | None = None) -> str:
        if key is not None and key in answers:
            return answers[key]
        raise NeedsDice(prompt)
    return ask


def test_an_edit_given_ahead_is_taken_once_and_stands(after_trauma):
    """`--answer assignment=edit` with the dice of each model: the edited table is not offered again
    (the same answer, taken again, asked for the edit for ever)."""
    ask = given_ahead(**{"assignment": "edit", "anna:promotion-dice": "1", "bert:promotion-dice": "2"})
    command = steps(after_trauma)["promotions"].build(after_trauma.state, "pilgrims", ask)
    assert command == Promotions(warband="Pilgrims", assign={"Anna": 1, "Bert": 2})


def test_an_edit_given_ahead_that_breaks_the_rules_is_refused(after_trauma):
    ask = given_ahead(**{"assignment": "edit", "anna:promotion-dice": "3", "bert:promotion-dice": "0"})
    with pytest.raises(RuleViolation) as refused:
        steps(after_trauma)["promotions"].build(after_trauma.state, "pilgrims", ask)
    assert str(refused.value) == (
        "the Promotion Dice given are not allowed: Anna cannot take a 3rd Promotion Die while Bert has 0: "
        "no model gets a 3rd die until every Troop has at least 2 (Promotions Step)")


def test_with_no_one_to_ask_the_defaults_are_taken(after_trauma):
    assert steps(after_trauma)["promotions"].build(after_trauma.state, "pilgrims", nobody) == Promotions(warband="Pilgrims", even=True)


def test_advancement_asks_two_tables_per_roll_owed(after_trauma):
    table = after_trauma
    table.do(Promotions(warband="Pilgrims", even=True), [1, 1, 1])
    table.do(Experience(warband="Pilgrims"))
    player = Player("melee-strength", "wildcard")
    assert steps(table)["advancement"].build(table.state, "pilgrims", player) == Advancement(
        warband="Pilgrims", rolls=[AdvanceRoll(fighter="Gaius", tables=["melee-strength", "wildcard"])]
    )
    assert player.asked[1] == ("Gaius, Advancement Roll 1 of 1: second skill table", ["ranged", "stealth-speed", "wildcard"])


def test_exploration_asks_whether_to_reroll_after_seeing_the_dice(after_trauma):
    player = Player("yes")
    assert steps(after_trauma)["exploration"].build(after_trauma.state, "pilgrims", player) == Exploration(
        warband="Pilgrims", table="common", rerolls=None
    )
    assert steps(after_trauma)["exploration"].build(after_trauma.state, "pilgrims", nobody) == Exploration(
        warband="Pilgrims", table="common", rerolls=[]
    )
