"""Earning XP, rules E1-E7 of shared/rules/retinue.md (seed 004), as given/when/then cases:
given the commands done so far, when this command with these dice, then these awards or this refusal."""

from __future__ import annotations

import pytest

from commands.retinue import rules as r
from commands.retinue.events import OutcomeRolled, outcomes_of
from commands.retinue.phase import build_doom, build_post_game_pass, build_scenario_pass
from commands.retinue.commands import BattlePass, Bonus, Casualties, Doom, PostGamePass, ScenarioPass, SpendingDone
from ledger import events as ev
from ledger.decide import TableDice
from ledger.errors import Conflict, NeedsAnswer, NeedsDice

from .conftest import Retinues

class Player:
    """Answers a guided step's questions as `--answer KEY=VALUE` does (a choice in any case, a number as
    typed), keeping each question asked as (key, prompt, choices), a number's choices None; one not
    answered has nobody to answer it, as without a terminal."""

    def __init__(self, answers: dict[str, str]):
        self.answers, self.asked = answers, []

    def __call__(self, prompt: str, options, key=None) -> str:
        self.asked.append((key, prompt, list(options)))
        if key not in self.answers:
            raise NeedsAnswer(key or "", prompt, list(options))
        return next(option for option in options if option.casefold() == self.answers[key].casefold())

    def number(self, prompt: str, key: str, check=None) -> int:
        self.asked.append((key, prompt, None))
        if key not in self.answers:
            raise NeedsAnswer(key, prompt, [], number=True)
        return int(self.answers[key])


# --- E1: a bank per fighter ----------------------------------------------------------------------


def test_E1_xp_is_a_running_total_and_unspent_xp_carries_forward(game):
    """"Track Experience on the fighter card as a running total. Unspent XP carries forward."
    "There are no levels and no thresholds.\""""
    game.battle(took_out=[("Wren", "Fang")])
    game.finish_post_game("Hawks")
    game.finish_post_game("Wolves", casualty_dice=[3], outcomes={"Fang": "Recovered"})
    assert game.fighter("Wren").xp == 2  # not Out of Action +1, Fang +1
    game.battle(took_out=[("Wren", "Grim")])
    events = game.do(BattlePass(warband="Hawks"))
    assert game.fighter("Wren").xp == 4
    assert {type(e) for e in events} == {ev.XPAwarded, ev.PostGameStepDone}  # no level, no advancement owed
    game.buy("Wren", "feat", feat="Tough")
    assert game.fighter("Wren").xp == 1  # 4 - 3, kept for later


# --- E2: three passes, in order, kept apart ------------------------------------------------------


def test_E2_the_passes_come_in_order_battle_scenario_then_post_game(game):
    """"Award XP during Step 8 … in three passes — battle, scenario, then post-game.\""""
    game.battle()
    assert game.refusal(ScenarioPass(warband="Hawks")) == (
        "E2: Hawks must do the battle pass before it can do the scenario pass (post-game of battle 1)")
    game.do(BattlePass(warband="Hawks"))
    assert game.refusal(BattlePass(warband="Hawks")) == "Hawks cannot do the battle pass again: it is done for battle 1"
    game.do(ScenarioPass(warband="Hawks"))
    # "Award after the Casualty Table and Doom Table": the post-game pass waits for both.
    assert game.refusal(PostGamePass(warband="Hawks")) == (
        "E2: Hawks must roll on the Casualty Table before it can do the post-game pass (post-game of battle 1)")
    game.do(Casualties(warband="Hawks"))
    assert game.refusal(PostGamePass(warband="Hawks")).startswith("E2: Hawks must roll on the Doom Table")


def test_E2_each_award_records_its_pass_and_they_stay_apart_in_the_history(game):
    """"… so casualty, Captured, and Doom awards stay separate from in-battle deeds.\""""
    game.battle(took_out=[("Finch", "Fang")])
    made = game.do(BattlePass(warband="Hawks"))
    made += game.do(ScenarioPass(warband="Hawks", awards=[r.ScenarioAward(fighter="Finch", amount=1, reason="held the shrine")]))
    made += game.do(Casualties(warband="Hawks"))
    made += game.do(Doom(warband="Hawks", fighters=["Finch"], outcomes={"Finch": "Miraculous"}), [6, 6])
    made += game.do(PostGamePass(warband="Hawks"))
    finch = [(amount, reason) for name, amount, reason in game.awards(made) if name == "Finch"]
    assert finch == [
        (1, "battle pass: did not go Out of Action"),
        (1, "battle pass: put Fang Out of Action"),
        (1, "scenario pass: held the shrine"),
        (2, "post-game pass: Miraculous (Doom Table)"),
    ]
    assert [r.pass_of(reason) for _, reason in finch] == ["battle", "battle", "scenario", "post-game"]


# --- E3, E4: the battle pass ---------------------------------------------------------------------


def test_E3_did_not_go_out_of_action_earns_1_and_going_out_of_action_earns_nothing(game):
    """"Did not go Out of Action: The fighter never went Out of Action during the battle." +1"""
    game.battle(ooa=["Finch"])
    assert game.awards(game.do(BattlePass(warband="Hawks"))) == [
        ("Kestrel", 1, "battle pass: did not go Out of Action"),
        ("Wren", 1, "battle pass: did not go Out of Action"),
    ]


def test_E3_one_award_per_enemy_fighter_however_many_times_it_went_down(game):
    """"+1 (once per enemy fighter)": Fang put Out of Action twice by Finch gives +1."""
    game.battle(took_out=[("Finch", "Fang"), ("Finch", "Fang"), ("Finch", "Grim")], ooa=["Fang", "Grim"])
    finch = [a for a in game.awards(game.do(BattlePass(warband="Hawks"))) if a[0] == "Finch"]
    assert finch == [("Finch", 1, "battle pass: did not go Out of Action"),
                     ("Finch", 1, "battle pass: put Fang Out of Action"),
                     ("Finch", 1, "battle pass: put Grim Out of Action")]


def test_E3_the_enemy_leader_is_worth_2_and_never_1_more(game):
    """"The +2 award is for taking the enemy Leader Out of Action; do not also add +1 for the same
    Out of Action.\""""
    game.battle(took_out=[("Kestrel", "Lupa"), ("Kestrel", "Lupa")], ooa=["Lupa"])
    kestrel = [a for a in game.awards(game.do(BattlePass(warband="Hawks"))) if a[0] == "Kestrel"]
    assert kestrel == [("Kestrel", 1, "battle pass: did not go Out of Action"),
                       ("Kestrel", 2, "battle pass: put the enemy Leader Lupa Out of Action")]
    assert game.fighter("Kestrel").xp == 3


def test_E4_an_indirect_removal_earns_nothing(game):
    """"Do not award Out of Action XP for indirect effects — for example, when a spell or terrain
    effect such as The Void removes an enemy without your fighter resolving the final action."
    Fang falls into The Void: he is Out of Action and no fighter is credited."""
    game.battle(ooa=["Fang"])
    assert [a for a in game.awards(game.do(BattlePass(warband="Hawks"))) if "Fang" in a[2]] == []
    # The rule itself: a removal by an effect the fighter did not resolve is not credited.
    void = r.Removal(victim="Fang", by="kestrel", direct=False)
    assert r.battle_awards([r.BattleDeed(fighter="kestrel", went_out_of_action=True)], [void]) == []


def test_E4_only_the_fighter_who_resolved_the_final_action_earns_it(game):
    game.battle(took_out=[("Wren", "Grim")], ooa=["Grim"])
    awards = game.awards(game.do(BattlePass(warband="Hawks")))
    assert [a for a in awards if "Grim" in a[2]] == [("Wren", 1, "battle pass: put Grim Out of Action")]


# --- E5: Slain -----------------------------------------------------------------------------------


def test_E5_a_slain_fighter_keeps_its_out_of_action_xp_but_not_did_not_go_out_of_action(game):
    """"A fighter who puts an enemy Out of Action and is later Slain on the Casualty Table keeps the
    Out of Action XP. Slain fighters do not receive the Did not go Out of Action award …\""""
    game.battle(took_out=[("Finch", "Fang")], ooa=["Fang", "Finch"])
    assert [a for a in game.awards(game.do(BattlePass(warband="Hawks"))) if a[0] == "Finch"] == [
        ("Finch", 1, "battle pass: put Fang Out of Action")]
    game.do(ScenarioPass(warband="Hawks", awards=[r.ScenarioAward(fighter="Finch", amount=2, reason="carried the Horn")]))
    died = game.do(Casualties(warband="Hawks", outcomes={"Finch": "Slain"}), [1])
    assert any(isinstance(e, ev.FighterDied) for e in died)
    game.do(Doom(warband="Hawks"))
    assert game.awards(game.do(PostGamePass(warband="Hawks"))) == []
    assert (game.fighter("Finch").status, game.fighter("Finch").xp) == ("dead", 3)  # battle and scenario XP kept


def test_E5_a_slain_fighter_gets_no_hardy_miraculous_or_other_post_game_xp(game):
    """"Slain fighters do not receive … Hardy, Miraculous, or other post-game Experience." Finch is
    Hardy on the Casualty Table, then Slain on the Doom Table."""
    game.battle(ooa=["Finch"])
    game.do(BattlePass(warband="Hawks"))
    game.do(ScenarioPass(warband="Hawks"))
    game.do(Casualties(warband="Hawks", outcomes={"Finch": "Hardy"}), [6])
    game.do(Doom(warband="Hawks", fighters=["Finch"], outcomes={"Finch": "Slain"}), [1, 1])
    assert game.refusal(PostGamePass(warband="Hawks", bonus=[Bonus(fighter="Finch", reason="survival roll")])) == (
        "E5: Finch was Slain: a Slain fighter gets no post-game Experience")
    assert game.awards(game.do(PostGamePass(warband="Hawks"))) == []


def test_E5_a_fighter_slain_on_the_doom_table_gives_back_its_did_not_go_out_of_action_award(game):
    """"Slain fighters do not receive the Did not go Out of Action award": Kestrel never went Out of
    Action (+1 in the battle pass, before the tables) and is Slain on the Doom Table."""
    game.battle(took_out=[("Kestrel", "Grim")])
    game.do(BattlePass(warband="Hawks"))
    game.do(ScenarioPass(warband="Hawks"))
    game.do(Casualties(warband="Hawks"))
    game.do(Doom(warband="Hawks", fighters=["Kestrel"], outcomes={"Kestrel": "Slain"}), [1, 1])
    assert game.awards(game.do(PostGamePass(warband="Hawks"))) == [
        ("Kestrel", -1, "post-game pass: E5: Slain, so no 'did not go Out of Action' award (made in the battle pass)")]
    assert (game.fighter("Kestrel").status, game.fighter("Kestrel").xp) == ("dead", 1)  # Grim's +1 kept


def test_E5_on_1_1_0_a_fighter_slain_on_the_doom_table_kept_its_did_not_go_out_of_action_award():
    game = Retinues(version="1.1.0")
    game.battle(took_out=[("Kestrel", "Grim")])
    game.do(BattlePass(warband="Hawks"))
    game.do(ScenarioPass(warband="Hawks"))
    game.do(Casualties(warband="Hawks"))
    game.do(Doom(warband="Hawks", fighters=["Kestrel"], outcomes={"Kestrel": "Slain"}), [1, 1])
    assert game.awards(game.do(PostGamePass(warband="Hawks"))) == []
    assert game.fighter("Kestrel").xp == 2


# --- 1.5.0: the "did not go Out of Action" award is held until the Doom Table ----------------------
# Given Finch kept in the battle (+1 in the battle pass) with 2 XP banked before it, and the post-game
# done up to a step, when Finch buys a Feat (3 XP), then it is bought or refused: until the Doom Table is
# rolled a Slain result may still take the +1 back (E5), so it is not spent.
HELD = ("S1, E5: Finch has 3 XP, 1 of it the 'did not go Out of Action' award, which a fighter Slain on the Doom "
        "Table gives back: 2 XP to spend until the Doom Table is rolled; Feat costs 3: 1 XP short")
HOLDS = [
    ([BattlePass], HELD),
    ([BattlePass, ScenarioPass], HELD),
    ([BattlePass, ScenarioPass, Casualties], HELD),
    ([BattlePass, ScenarioPass, Casualties, Doom], None),
    ([BattlePass, ScenarioPass, Casualties, Doom, PostGamePass], None),
]


@pytest.mark.parametrize(("steps", "refusal"), HOLDS)
def test_E5_the_did_not_go_out_of_action_award_is_not_spent_before_the_doom_table(game, steps, refusal):
    game.xp("Finch", 2)
    game.battle()
    for step in steps:
        game.do(step(warband="Hawks"))
    if refusal is None:
        game.buy("Finch", "feat", feat="Tough")
        assert game.fighter("Finch").xp == 0
    else:
        assert game.buy_refused("Finch", "feat", feat="Tough") == refusal


def test_E5_the_rest_of_the_bank_is_spent_before_the_doom_table_and_slain_there_the_bank_ends_at_0(game):
    game.xp("Finch", 3)
    game.battle()
    game.do(BattlePass(warband="Hawks"))
    game.buy("Finch", "feat", feat="Tough")  # 3 of 4: the +1 is left
    game.do(ScenarioPass(warband="Hawks"))
    game.do(Casualties(warband="Hawks"))
    game.do(Doom(warband="Hawks", fighters=["Finch"], outcomes={"Finch": "Slain"}), [1, 1])
    game.do(PostGamePass(warband="Hawks"))
    assert (game.fighter("Finch").status, game.fighter("Finch").xp) == ("dead", 0)


def test_E5_a_fighter_who_went_out_of_action_has_no_award_held(game):
    game.xp("Wren", 3)
    game.battle(ooa=["Wren"])
    game.do(BattlePass(warband="Hawks"))
    game.buy("Wren", "feat", feat="Tough")
    assert game.fighter("Wren").xp == 0


def test_E5_a_price_beyond_the_whole_bank_is_refused_with_the_shortfall_of_the_bank(game):
    game.battle()
    game.do(BattlePass(warband="Hawks"))
    assert game.buy_refused("Finch", "feat", feat="Tough") == "S1: Finch has 1 XP; Feat costs 3: 2 XP short"


def test_E5_on_1_4_0_the_award_could_be_spent_and_a_fighter_slain_on_the_doom_table_ended_below_0():
    game = Retinues(version="1.4.0")
    game.xp("Finch", 2)
    game.battle()
    game.do(BattlePass(warband="Hawks"))
    game.buy("Finch", "feat", feat="Tough")
    game.do(ScenarioPass(warband="Hawks"))
    game.do(Casualties(warband="Hawks"))
    game.do(Doom(warband="Hawks", fighters=["Finch"], outcomes={"Finch": "Slain"}), [1, 1])
    game.do(PostGamePass(warband="Hawks"))
    assert game.fighter("Finch").xp == -1


# --- E6: the scenario pass -----------------------------------------------------------------------


def test_E6_scenario_xp_goes_to_named_fighters(game):
    """"Scenario awards are per fighter … (for example, the fighter who escaped with the Horn token).\""""
    game.battle()
    game.do(BattlePass(warband="Hawks"))
    made = game.do(ScenarioPass(warband="Hawks", awards=[r.ScenarioAward(fighter="Wren", amount=2, reason="escaped with the Horn token")]))
    assert game.awards(made) == [("Wren", 2, "scenario pass: escaped with the Horn token")]


@pytest.mark.parametrize(("fighter", "amount", "refusal"), [
    ("Hawks", 1, "E6: scenario XP goes to a named fighter of the retinue, and 'Hawks' is not one (never retinue-wide "
                 "unless the scenario names a specific fighter)"),
    ("all", 1, "E6: scenario XP goes to a named fighter of the retinue, and 'all' is not one (never retinue-wide "
               "unless the scenario names a specific fighter)"),
    ("Fang", 1, "E6: scenario XP goes to a named fighter of the retinue, and 'Fang' is not one (never retinue-wide "
                "unless the scenario names a specific fighter)"),
    ("Wren", 0, "E6: a scenario award is a positive amount of XP, not 0"),
])
def test_E6_never_retinue_wide_nor_to_another_retinue(game, fighter, amount, refusal):
    """"… never retinue-wide unless the scenario names a specific fighter.\""""
    game.battle()
    game.do(BattlePass(warband="Hawks"))
    assert game.refusal(ScenarioPass(warband="Hawks", awards=[r.ScenarioAward(fighter=fighter, amount=amount, reason="x")])) == refusal


# --- E7: the post-game pass ----------------------------------------------------------------------


def test_E7_hardy_plus_1_miraculous_plus_2_and_a_survival_plus_1(house_rules):
    """"Hardy (Casualty Table d6) +1; Miraculous (Doom Table 2d6) +2. Some Survival Roll or scenario
    results also grant +1 Experience to one named or selected surviving fighter. Apply those in this
    pass." The tables are the sample data (A3 "data"): Casualty 6 is Hardy, Doom 12 Miraculous."""
    game = house_rules({"outcome_tables": "data"})
    game.battle(ooa=["Finch", "Wren"])
    game.do(BattlePass(warband="Hawks"))
    game.do(ScenarioPass(warband="Hawks"))
    rolled = game.do(Casualties(warband="Hawks"), [6, 5])
    assert [(e.outcome, e.row) for e in rolled if e.__class__.__name__ == "OutcomeRolled"] == [
        ("Hardy", "casualty 6"), ("Full Recovery", "casualty 5")]
    game.do(Doom(warband="Hawks", fighters=["Wren"]), [6, 6])
    made = game.do(PostGamePass(warband="Hawks", bonus=[Bonus(fighter="Kestrel", reason="survival roll 6")]))
    assert game.awards(made) == [
        ("Finch", 1, "post-game pass: Hardy (Casualty Table)"),
        ("Wren", 2, "post-game pass: Miraculous (Doom Table)"),
        ("Kestrel", 1, "post-game pass: survival roll 6"),
    ]
    game.do(SpendingDone(warband="Hawks"))


def test_E7_hardy_is_a_casualty_result_and_miraculous_a_doom_result(game):
    game.battle(ooa=["Finch"])
    game.do(BattlePass(warband="Hawks"))
    game.do(ScenarioPass(warband="Hawks"))
    assert game.refusal(Casualties(warband="Hawks", outcomes={"Finch": "Miraculous"}), [6]) == (
        "E7: Miraculous is a Doom Table result, not a Casualty Table one")
    assert game.refusal(Casualties(warband="Hawks", answers={"casualty:finch": "miraculous"}), [6]) == (
        "E7: Miraculous is a Doom Table result, not a Casualty Table one")  # named as the rules spell it


@pytest.mark.parametrize(("command", "refusal"), [
    (Casualties(warband="Hawks", outcomes={"Finch": "Miraculous"}), "E7: Miraculous is a Doom Table result, not a Casualty Table one"),
    (Casualties(warband="Hawks", outcomes={"Finch": " "}), "A3: name the Casualty Table outcome"),
    (Doom(warband="Hawks", fighters=["Kestrel"], outcomes={"Kestrel": "Hardy"}),
     "E7: Hardy is a Casualty Table result, not a Doom Table one"),
    # the walk's answer for the roll (`post-game --answer casualty:finch=Miraculous`), in any spelling of its key
    (Casualties(warband="Hawks", answers={"casualty:Finch": "Miraculous"}),
     "E7: Miraculous is a Doom Table result, not a Casualty Table one"),
    (Casualties(warband="Hawks", outcomes={"Finch": "Hardy"}, answers={"casualty:finch": "Miraculous"}),
     "E7: Miraculous is a Doom Table result, not a Casualty Table one"),
    (Doom(warband="Hawks", fighters=["Kestrel"], answers={"doom:kestrel": "hardy"}),
     "E7: Hardy is a Casualty Table result, not a Doom Table one"),
])
def test_an_outcome_its_table_cannot_give_is_refused_before_the_roll(game, command, refusal):
    """A3 by name, E7: the outcome named with --outcome, or answered ahead for the roll, is read once the die is rolled,
    but whether its table can give it is known before: refused after the roll, ledger dice were seen and the decision
    left pending (with the answer, which stands once given), which a void ended, for a new roll. Given no die, the
    refusal comes first (a roll would ask for its die)."""
    game.battle(ooa=["Finch"])
    game.do(BattlePass(warband="Hawks"))
    game.do(ScenarioPass(warband="Hawks"))
    if isinstance(command, Doom):
        game.do(Casualties(warband="Hawks", outcomes={"Finch": "Hardy"}), [6])
    assert game.refusal(command) == refusal


@pytest.mark.parametrize("recorded", [Casualties(warband="Hawks", outcomes={"Finch": "Miraculous"}),
                                      Casualties(warband="Hawks", answers={"casualty:finch": "Miraculous"})])
def test_a_recorded_outcome_its_table_cannot_give_is_decided_again_as_it_was_after_the_roll(game, recorded):
    """Decided again (a pending decision answered, a replay), the command rolls first, as when it was recorded."""
    game.battle(ooa=["Finch"])
    game.do(BattlePass(warband="Hawks"))
    game.do(ScenarioPass(warband="Hawks"))
    with pytest.raises(NeedsDice):
        game.decided_again(recorded)


def test_an_outcome_named_beside_an_answer_for_the_roll_is_not_read(game):
    """1.2.0: an answer for the roll's key names its outcome over the command's own, so that one is not refused."""
    game.battle(ooa=["Finch"])
    game.do(BattlePass(warband="Hawks"))
    game.do(ScenarioPass(warband="Hawks"))
    game.do(Casualties(warband="Hawks", outcomes={"Finch": "Miraculous"}, answers={"casualty:finch": "Hardy"}), [6])
    assert [o.outcome for o in outcomes_of(game.state, "hawks", 1)] == ["Hardy"]


# --- undo: a disputed Casualty roll --------------------------------------------------------------


def rerolled_casualty(game, answers: dict[str, str]) -> None:
    """Finch, Out of Action, is named Slain with a 1 on the Casualty Table; the 1 is disputed and rolled again: 6."""
    game.battle(ooa=["Finch"])
    game.do(BattlePass(warband="Hawks"))
    game.do(ScenarioPass(warband="Hawks"))
    game.do(Casualties(warband="Hawks", outcomes={"Finch": "Slain"}), [1])
    game.ledger.reroll(game.cid, "R0", reason="the die fell off the table", actor="arbiter", dice=TableDice([6]),
                       answers=answers)


def test_a_rerolled_casualty_die_takes_the_outcome_its_answer_names(game):
    # A3 "by-name": the player reads the new roll's outcome, and says it (the old one rode along with the new die)
    rerolled_casualty(game, {"casualty:finch": "Hardy"})
    assert game.fighter("Finch").status == "active"
    assert [o.outcome for o in outcomes_of(game.state, "hawks", 1)] == ["Hardy"]
    assert game.ledger.check(game.cid)[1] == []


def test_on_1_1_0_a_rerolled_casualty_die_kept_the_outcome_named_with_the_old_one():
    game = Retinues(version="1.1.0")
    rerolled_casualty(game, {"casualty:finch": "Hardy"})
    assert [o.outcome for o in outcomes_of(game.state, "hawks", 1)] == ["Slain"]


def test_a_rerolled_casualty_die_without_an_answer_asks_for_its_outcome(game):
    """A3 "by-name": the outcome is "entered by name with the roll"; the one named with the disputed 1 (Slain)
    is that roll's, so from 1.6.0 the new roll's outcome is asked for, and nothing is written until it is said.
    The other rolls of the transaction keep theirs."""
    with pytest.raises(NeedsAnswer, match="Finch rolled 6 on the Casualty Table: the outcome"):
        rerolled_casualty(game, {})
    assert [o.outcome for o in outcomes_of(game.state, "hawks", 1)] == ["Slain"]


def test_a_rerolled_casualty_die_asks_only_its_own_outcome(game):
    """Finch's 1 (Slain) is disputed; Wren's 6 (Hardy) in the same transaction is handed back with its outcome."""
    game.battle(ooa=["Finch", "Wren"])
    game.do(BattlePass(warband="Hawks"))
    game.do(ScenarioPass(warband="Hawks"))
    game.do(Casualties(warband="Hawks", outcomes={"Finch": "Slain", "Wren": "Hardy"}), [1, 6])
    game.ledger.reroll(game.cid, "R0", reason="the die fell off the table", actor="arbiter", dice=TableDice([5]),
                       answers={"casualty:finch": "Recovered"})
    assert [(o.fighter, o.outcome) for o in outcomes_of(game.state, "hawks", 1)] == [("finch", "Recovered"), ("wren", "Hardy")]


def test_on_1_5_0_a_rerolled_casualty_die_without_an_answer_kept_the_outcome_named_with_the_old_one():
    game = Retinues(version="1.5.0")
    rerolled_casualty(game, {})  # the 6 rolled again is recorded "Slain", named with the 1
    assert ([o.outcome for o in outcomes_of(game.state, "hawks", 1)], game.fighter("Finch").status) == (["Slain"], "dead")


def test_voiding_the_casualty_roll_that_slew_a_fighter_brings_it_back_and_later_steps_are_re_checked(game):
    """A disputed roll is voided: the passes after it no longer follow (E2), so the void is refused
    with their list unless they are voided too; then Finch is alive with his battle XP."""
    game.battle(took_out=[("Finch", "Fang")], ooa=["Finch"])
    game.do(BattlePass(warband="Hawks"))
    game.do(ScenarioPass(warband="Hawks"))
    game.do(Casualties(warband="Hawks", outcomes={"Finch": "Slain"}), [1])
    casualty_tx = game.state.transactions
    game.do(Doom(warband="Hawks"))
    with pytest.raises(Conflict, match=f"T{casualty_tx + 1}"):
        game.ledger.void(game.cid, f"T{casualty_tx}", reason="the die fell off the table", actor="arbiter")
    game.ledger.void(game.cid, f"T{casualty_tx}", reason="the die fell off the table", actor="arbiter", cascade=True)
    assert (game.fighter("Finch").status, game.fighter("Finch").xp) == ("active", 1)
    assert game.ledger.check(game.cid)[1] == []


# --- 1.3.0: one enemy, one taker ------------------------------------------------------------------


def test_E4_an_enemy_credited_to_two_fighters_is_refused_naming_it_and_the_way_to_correct_the_battle(game):
    """"Direct action: The fighter who resolves the attack … that causes the Out of Action earns the
    XP." Lupa went Out of Action once; the battle credits both Kestrel and Wren with her."""
    game.battle(took_out=[("Kestrel", "Lupa"), ("Wren", "Lupa"), ("Finch", "Fang")])
    battle_tx = game.state.latest_battle("hawks").tx
    assert game.refusal(BattlePass(warband="Hawks")) == (
        "E4: Lupa went Out of Action once in battle 1, and it is credited to Kestrel and Wren: only the fighter who "
        f"resolved the final action earns it. Void the battle (campaign void T{battle_tx} --reason …) and record it "
        "again with one --took-out for Lupa")


def test_E4_an_enemy_the_ledger_does_not_track_credited_to_two_fighters_is_refused_too(game):
    game.battle(took_out=[("Kestrel", "Rat-ogre"), ("Wren", "rat-ogre")])
    assert game.refusal(BattlePass(warband="Hawks")).startswith(
        "E4: Rat-ogre went Out of Action once in battle 1, and it is credited to Kestrel and Wren")


def test_E4_on_1_2_0_an_enemy_credited_to_two_fighters_gave_each_the_award():
    game = Retinues(version="1.2.0")
    game.battle(took_out=[("Kestrel", "Lupa"), ("Wren", "Lupa")])
    awards = game.awards(game.do(BattlePass(warband="Hawks")))
    assert [a for a in awards if "Lupa" in a[2]] == [
        ("Kestrel", 2, "battle pass: put the enemy Leader Lupa Out of Action"),
        ("Wren", 2, "battle pass: put the enemy Leader Lupa Out of Action")]


# --- 1.3.0: scenario XP goes to fighters of that battle -------------------------------------------


@pytest.mark.parametrize("absent", [False, True])
def test_E6_a_fighter_recruited_since_the_battle_or_absent_from_it_earns_no_scenario_xp(game, absent):
    """"Each scenario states which fighters earn XP": fighters who played it. Sage joins after the
    battle (or Finch missed it); the battle pass leaves them out, and so does the scenario pass."""
    game.battle(absent=["Finch"] if absent else [])
    game.recruit("Hawks", "Sage", ancestry="Human")
    game.do(BattlePass(warband="Hawks"))
    stranger = "Finch" if absent else "Sage"
    assert game.refusal(ScenarioPass(warband="Hawks", awards=[r.ScenarioAward(fighter=stranger, amount=9, reason="x")])) == (
        f"E6: {stranger} did not fight in battle 1 (recruited since, or absent): scenario XP is earned in that battle's scenario")


@pytest.mark.parametrize(("version", "offered", "fighter"), [(None, ["none", "Kestrel", "Wren"], "fighter of battle 1"),
                                                             ("1.2.0", ["none", "Kestrel", "Finch", "Wren", "Sage"], "fighter")])
def test_E6_the_guided_scenario_pass_offers_the_fighters_of_the_battle(version, offered, fighter):
    """And its question says whom it offers (Finch, absent, and Sage, recruited since, are not of battle 1),
    and, asked again after a pick, that it wants another fighter."""
    game = Retinues(version=version)
    game.battle(absent=["Finch"])
    game.recruit("Hawks", "Sage", ancestry="Human")
    game.do(BattlePass(warband="Hawks"))
    player = Player({"scenario-award:1": "Kestrel", "scenario-award:1:xp": "1"})
    with pytest.raises(NeedsAnswer):  # the next pick, not answered, is the player's to say
        build_scenario_pass(game.state, "hawks", player)
    assert player.asked == [
        ("scenario-award:1", f"Which {fighter} does Horn Run award XP? (E6: each award names one fighter)", offered),
        ("scenario-award:1:xp", "How much XP does Horn Run award Kestrel?", None),  # a number: any the scenario states
        ("scenario-award:2", f"Which other {fighter} does Horn Run award XP?", [o for o in offered if o != "Kestrel"]),
    ]


def test_the_walk_takes_the_scenario_award_doom_and_bonus_given_ahead(game):
    """Without a terminal they were "none" whatever was meant: given ahead by key, they are taken."""
    game.battle(ooa=["Finch"])
    game.do(BattlePass(warband="Hawks"))
    ask = Player({"scenario-award:1": "wren", "scenario-award:1:xp": "2", "scenario-award:2": "none",
                  "doom-roll:1": "Kestrel", "doom-roll:2": "none", "bonus:1": "Wren", "bonus:2": "none"})
    awarded = build_scenario_pass(game.state, "hawks", ask)
    assert [(a.fighter, a.amount) for a in awarded.awards] == [("Wren", 2)]
    assert build_doom(game.state, "hawks", ask).fighters == ["Kestrel"]
    assert [b.fighter for b in build_post_game_pass(game.state, "hawks", ask).bonus] == ["Wren"]
    prompts = {key: prompt for key, prompt, _choices in ask.asked}
    # After a pick, the question asked again wants another fighter
    assert [prompts[key] for key in ("doom-roll:1", "doom-roll:2", "bonus:1", "bonus:2")] == [
        "Which fighter of battle 1 rolls on the Doom Table?", "Which other fighter of battle 1 rolls on the Doom Table?",
        "Which surviving fighter of battle 1 gains +1 from a survival roll or scenario result?",
        "Which surviving fighter of battle 1 gains +1 from another survival roll or scenario result?"]


@pytest.mark.parametrize(("build", "key"), [(build_scenario_pass, "scenario-award:1"), (build_doom, "doom-roll:1"),
                                            (build_post_game_pass, "bonus:1")])
def test_a_pick_not_answered_is_asked_of_the_player_not_taken_as_none(game, build, key):
    """Who gains scenario XP, who rolls on the Doom Table and who gains a survival +1 change what is awarded
    or rolled: with nobody to answer, the walk's builder stops naming the key (it built "none": a Doom roll lost)."""
    game.battle()
    with pytest.raises(NeedsAnswer) as unanswered:
        build(game.state, "hawks", Player({}))
    assert (unanswered.value.key, unanswered.value.options) == (key, ["none", "Kestrel", "Finch", "Wren"])


# E7: "Some Survival Roll or scenario results also grant +1 Experience to one named or selected
# surviving fighter" — given the fighters the walk's answers pick ("none": no more), then the bonuses it
# builds and whom its next question offers (a fighter picked is offered again: two results may name one).
BONUS_PICKS = [
    ({"bonus:1": "none"}, []),
    ({"bonus:1": "Wren", "bonus:2": "none"}, ["Wren"]),
    ({"bonus:1": "Wren", "bonus:2": "wren", "bonus:3": "none"}, ["Wren", "Wren"]),
    ({"bonus:1": "Wren", "bonus:2": "Kestrel", "bonus:3": "Wren", "bonus:4": "none"}, ["Wren", "Kestrel", "Wren"]),
]


@pytest.mark.parametrize(("answers", "bonus"), BONUS_PICKS)
def test_E7_the_walk_gives_a_fighter_a_bonus_for_each_result_that_names_it(game, answers, bonus):
    game.battle()
    ask = Player(answers)
    built = build_post_game_pass(game.state, "hawks", ask)
    assert [(b.fighter, b.reason) for b in built.bonus] == [(name, "survival roll or scenario result") for name in bonus]
    assert [choices for _key, _prompt, choices in ask.asked] == [["none", "Kestrel", "Finch", "Wren"]] * (len(bonus) + 1)


# E7 "+1 Experience to one named or selected surviving fighter", E5 "Slain fighters do not receive … other
# post-game Experience": given Finch's Casualty Table outcome, then whom the walk offers the +1 and what the
# post-game pass makes of one for Finch. Captured, he survived: E5 denies the Slain alone, and the seed counts
# Captured among the post-game pass's results ("casualty, Captured, and Doom awards"). The command took him;
# the walk did not offer him.
SURVIVAL_BONUS = [
    ("Recovered", ["none", "Kestrel", "Finch", "Wren"], [("Finch", 1, "post-game pass: survival roll")]),
    ("Captured", ["none", "Kestrel", "Finch", "Wren"], [("Finch", 1, "post-game pass: survival roll")]),
    ("Slain", ["none", "Kestrel", "Wren"], "E5: Finch was Slain: a Slain fighter gets no post-game Experience"),
]


@pytest.mark.parametrize(("outcome", "offered", "then"), SURVIVAL_BONUS)
def test_E7_the_walk_offers_the_survival_bonus_to_whom_the_post_game_pass_gives_it(game, outcome, offered, then):
    game.battle(ooa=["Finch"])
    for step in (BattlePass, ScenarioPass):
        game.do(step(warband="Hawks"))
    game.do(Casualties(warband="Hawks", outcomes={"Finch": outcome}), [3])
    game.do(Doom(warband="Hawks"))
    player = Player({"bonus:1": "none"})
    build_post_game_pass(game.state, "hawks", player)
    assert [choices for _key, _prompt, choices in player.asked] == [offered]
    command = PostGamePass(warband="Hawks", bonus=[Bonus(fighter="Finch", reason="survival roll")])
    assert (game.awards(game.do(command)) if isinstance(then, list) else game.refusal(command)) == then


def up_to_the_post_game_pass(game: Retinues, *, absent: list[str]) -> None:
    """Hawks' battle without the absent, then Sage recruited, and the steps before the post-game pass."""
    game.battle(absent=absent)
    game.recruit("Hawks", "Sage", ancestry="Human")
    for step in (BattlePass, ScenarioPass, Casualties, Doom):
        game.do(step(warband="Hawks"))


@pytest.mark.parametrize("stranger", ["Finch", "Sage"])
def test_E7_a_fighter_recruited_since_the_battle_or_absent_from_it_gains_no_survival_bonus(game, stranger):
    """"+1 Experience to one named or selected surviving fighter": a survival roll or scenario result of
    this battle, so a fighter who survived it; Finch missed it, Sage joined after it (1.5.0)."""
    up_to_the_post_game_pass(game, absent=["Finch"])
    assert game.refusal(PostGamePass(warband="Hawks", bonus=[Bonus(fighter=stranger, reason="survival roll")])) == (
        f"E7: {stranger} did not fight in battle 1 (recruited since, or absent): a survival roll or scenario result "
        "grants +1 to a fighter who survived that battle")


def test_E7_on_1_4_0_a_fighter_absent_from_the_battle_got_a_survival_bonus():
    game = Retinues(version="1.4.0")
    up_to_the_post_game_pass(game, absent=["Finch"])
    made = game.do(PostGamePass(warband="Hawks", bonus=[Bonus(fighter="Finch", reason="survival roll")]))
    assert game.awards(made) == [("Finch", 1, "post-game pass: survival roll")]


@pytest.mark.parametrize(("version", "offered", "fighter"), [(None, ["none", "Kestrel", "Wren"], "fighter of battle 1"),
                                                             ("1.4.0", ["none", "Kestrel", "Finch", "Wren", "Sage"], "fighter")])
def test_E7_the_guided_post_game_pass_offers_the_fighters_of_the_battle(version, offered, fighter):
    """Finch (absent) and Sage (recruited since) are not offered from 1.5.0, and the question says why."""
    game = Retinues(version=version)
    up_to_the_post_game_pass(game, absent=["Finch"])
    player = Player({})
    with pytest.raises(NeedsAnswer):  # asked, not taken as "none"
        build_post_game_pass(game.state, "hawks", player)
    assert player.asked == [
        ("bonus:1", f"Which surviving {fighter} gains +1 from a survival roll or scenario result?", offered)]


@pytest.mark.parametrize("stranger", ["Finch", "Sage"])
def test_E7_a_fighter_recruited_since_the_battle_or_absent_from_it_does_not_roll_on_the_doom_table(game, stranger):
    """The Doom Table is rolled after the battle for its fighters: Finch missed it, Sage joined after it (1.5.0)."""
    game.battle(absent=["Finch"])
    game.recruit("Hawks", "Sage", ancestry="Human")
    for step in (BattlePass, ScenarioPass, Casualties):
        game.do(step(warband="Hawks"))
    assert game.refusal(Doom(warband="Hawks", fighters=["Kestrel", stranger]), [6, 6, 6, 6]) == (
        f"E7: {stranger} did not fight in battle 1 (recruited since, or absent): the Doom Table is rolled after that "
        "battle, for a fighter who fought it")


def test_E7_on_1_4_0_a_fighter_absent_from_the_battle_rolled_on_the_doom_table():
    game = Retinues(version="1.4.0")
    game.battle(absent=["Finch"])
    for step in (BattlePass, ScenarioPass, Casualties):
        game.do(step(warband="Hawks"))
    game.do(Doom(warband="Hawks", fighters=["Finch"], outcomes={"Finch": "Miraculous"}), [6, 6])
    assert game.awards(game.do(PostGamePass(warband="Hawks"))) == [("Finch", 2, "post-game pass: Miraculous (Doom Table)")]


@pytest.mark.parametrize(("version", "offered", "fighter"), [(None, ["none", "Kestrel", "Wren"], "fighter of battle 1"),
                                                             ("1.4.0", ["none", "Kestrel", "Finch", "Wren", "Sage"], "fighter")])
def test_E7_the_guided_doom_table_offers_the_fighters_of_the_battle(version, offered, fighter):
    """Finch (absent) and Sage (recruited since) are not offered from 1.5.0, and the question says why."""
    game = Retinues(version=version)
    game.battle(absent=["Finch"])
    game.recruit("Hawks", "Sage", ancestry="Human")
    player = Player({})
    with pytest.raises(NeedsAnswer):  # asked, not taken as "none"
        build_doom(game.state, "hawks", player)
    assert player.asked == [("doom-roll:1", f"Which {fighter} rolls on the Doom Table?", offered)]


def test_E6_on_1_2_0_a_fighter_recruited_since_the_battle_got_its_scenario_xp():
    game = Retinues(version="1.2.0")
    game.battle()
    game.recruit("Hawks", "Sage", ancestry="Human")
    game.do(BattlePass(warband="Hawks"))
    made = game.do(ScenarioPass(warband="Hawks", awards=[r.ScenarioAward(fighter="Sage", amount=9, reason="x")]))
    assert game.awards(made) == [("Sage", 9, "scenario pass: x")]


@pytest.mark.parametrize(("version", "recorded"), [(None, "Hardy"), ("1.2.0", "hardy")])
def test_an_outcome_named_in_another_case_is_recorded_as_the_rules_spell_it(house_rules, version, recorded):
    game = house_rules(version=version)  # 1.2.0 recorded the name as typed
    game.battle(ooa=["Finch"])
    game.do(BattlePass(warband="Hawks"))
    game.do(ScenarioPass(warband="Hawks"))
    rolled = game.do(Casualties(warband="Hawks", outcomes={"Finch": "hardy"}), [6])
    assert [e.outcome for e in rolled if isinstance(e, OutcomeRolled)] == [recorded]


# --- 1.6.0: one fighter named twice, in another case or by id and name, is given twice ------------
# Given Finch out of action in the battle and the battle pass done, when a scenario award or a Casualty
# outcome names Finch twice ("Finch", "finch": his id), then from 1.6.0 it is refused as the same name
# twice is ("--award Finch is given twice"); 1.5.0 made both awards and kept the last outcome named.
TWICE = [
    (ScenarioPass(warband="Hawks", awards=[r.ScenarioAward(fighter="Finch", amount=2, reason="beacon"),
                                           r.ScenarioAward(fighter="finch", amount=3, reason="beacon")]), [],
     "--award Finch is given twice", [("Finch", 2, "scenario pass: beacon"), ("Finch", 3, "scenario pass: beacon")], []),
    (Casualties(warband="Hawks", outcomes={"Finch": "Hardy", "finch": "Slain"}), [6],
     "--outcome Finch is given twice", [], ["Slain"]),
]


@pytest.mark.parametrize(("command", "dice", "refusal", "awarded", "outcomes"), TWICE)
def test_E6_E7_a_fighter_named_twice_in_another_case_is_refused(command, dice, refusal, awarded, outcomes):
    """E6: "Each scenario states which fighters earn XP and how much. Scenario awards are per fighter":
    one award a fighter, as `--award Finch=2 --award Finch=3` is refused; a Casualty Table roll has one
    outcome. A fighter is one whatever the case he is typed in."""
    game = Retinues()
    game.battle(ooa=["Finch"])
    game.do(BattlePass(warband="Hawks"))
    if isinstance(command, Casualties):
        game.do(ScenarioPass(warband="Hawks"))
    assert game.refusal(command, dice) == refusal


@pytest.mark.parametrize(("command", "dice", "refusal", "awarded", "outcomes"), TWICE)
def test_E6_E7_on_1_5_0_a_fighter_named_twice_in_another_case_decides_as_it_did(command, dice, refusal, awarded, outcomes):
    game = Retinues(version="1.5.0")
    game.battle(ooa=["Finch"])
    game.do(BattlePass(warband="Hawks"))
    if isinstance(command, Casualties):
        game.do(ScenarioPass(warband="Hawks"))
    made = game.do(command, dice)
    assert (game.awards(made), [e.outcome for e in made if isinstance(e, OutcomeRolled)]) == (awarded, outcomes)
