"""The post-game as a whole on the ledger: steps in the seed's order and once per battle, a
warband finishing its post-game before fighting again, `Ledger.check` re-deciding a full
post-game, voiding and rerolling an injury roll, house rules, ratings over time and the guided
steps' `done` read from events."""

from __future__ import annotations

import pytest

from commands.coreheim.phase import PHASE
from commands.coreheim.commands import (
    Buy,
    Experience,
    Explore,
    Injuries,
    RareSearch,
    Reinforce,
    Search,
    Sell,
    SellShards,
    Upkeep,
)
from commands.coreheim import model
from commands.coreheim.tables import TABLES
from commands.shared import Correct, RecordBattle
from ledger import events as ev
from ledger import rulesets
from ledger.fold import transactions
from ledger.decide import TableDice
from ledger.errors import BadInput, Conflict
from projections.roster import ext_of

RATS = "reikland-rats"
RARE = [item.id for item in TABLES.defaults.price_chart.items if item.rarity is not None]
R, S = "Reikland Rats", "Clan Skrit"


def full_post_game(t) -> None:
    """Battle 1 and both warbands' whole post-game, with something happening at every step."""
    t.battle(ooa=["Hans", "Marksmen", "Snikch"], took_out={"Gunnar": ["Snikch"]})
    t.do(Explore(warband=R), [5, 5, 2])  # 12: 3 shards; 5 5 is the Mordheim Survivor
    t.do(Explore(warband=S), [4])  # the loser's one hero: 1 die, 4: 1 shard
    t.do(Injuries(warband=R, answers={"marksmen:out": "1"}), [4, 2, 3])  # a Marksman rolls 4: dead; Hans 23 Chest Wound
    t.do(Injuries(warband=S), [6, 6])  # Snikch 66: Seen It All, +1 XP
    t.do(Experience(warband=R))  # Gunnar 20 + 3 = 23, Hans 1, Marksmen 1: no threshold reached
    t.do(Experience(warband=S))  # Snikch 20 + 1 + 1 = 22
    t.do(SellShards(warband=R, shards=3))  # 4 warriors: 70 gc
    t.do(Search(warband=R, searches=[RareSearch(hero="Gunnar", item="power-scroll")]), [6, 6])
    t.do(Buy(warband=R, item="power-scroll"), [4])  # 7 + D6 gc: 11
    t.do(Upkeep(warband=R))
    t.hire(R, "Otto", "sergeant")  # 40 gc, 6 XP
    t.do(Reinforce(warband=R, answers={"reinforce": "yes", "marksmen:recruits": "1"}), [3])  # 25 gc
    t.finish()  # Clan Skrit trades nothing


def test_a_full_post_game_is_re_decided_identically_by_check(rats_and_skaven):
    full_post_game(rats_and_skaven)
    state = rats_and_skaven.state
    rats = state.warband(R)
    # Treasury 350 + 70 - 11 - 40 - 25; the Survivor's bonus die waits for the next exploration.
    assert (rats.treasury, rats.stash, ext_of(state, rats)["shards"], ext_of(state, rats)["exploration_bonus"]) == (
        344, ["power-scroll"], 0, {"extra": 1, "discard": 1}
    )
    assert [(f.name, f.xp, f.group_size, f.injuries) for f in state.fighters_of(RATS)] == [
        ("Gunnar", 23, 1, []), ("Hans", 1, 1, ["Chest Wound"]), ("Marksmen", 1, 2 + 1, []), ("Otto", 6, 1, [])
    ]
    assert model.rating(state, RATS) == 6 * 5 + 23 + 1 + 3 * 1 + 6
    checked, differences = rats_and_skaven.ledger.check(rats_and_skaven.cid)
    assert (checked, differences) == (state.transactions - 1, [])  # every transaction but the campaign's start


def test_a_warband_finishes_its_post_game_before_it_fights_again(rats_and_skaven):
    rats_and_skaven.battle()
    rats_and_skaven.through("upkeep")
    assert rats_and_skaven.refusal(RecordBattle(participants=[R, S], deeds=[])) == (
        "Reikland Rats must finish the post-game of battle 1 first (next: Hired Sword upkeep)"
    )


def test_advances_an_xp_correction_makes_owed_are_named_when_they_hold_up_the_next_battle(rats_and_skaven):
    """Seed 2.1, Experience 5-6: "Henchmen that reach 2, 4, 6, and 7 experience roll for advances",
    heroes at "2, 4, 6, 8, …". Issue 9, item 6: after `correct --xp` the next battle was refused
    with "next: roll advances" and nobody could tell who owed one."""
    # Given a whole post-game done (Hans 1 XP, the Marksmen 1 XP)
    full_post_game(rats_and_skaven)
    # and the arbiter's corrections: Hans +1 (reaches 2), the Marksmen +3 (reach 2 and 4)
    rats_and_skaven.do(Correct(warband=R, fighter="Hans", xp=1, reason="forgot a deed"))
    rats_and_skaven.do(Correct(warband=R, fighter="Marksmen", xp=3, reason="forgot a deed"))
    # When the next battle is recorded, then it is refused naming who owes which advance and the command
    assert rats_and_skaven.refusal(RecordBattle(participants=[R, S], deeds=[])) == (
        "Reikland Rats must finish the post-game of battle 1 first (next: Advances, owed: Hans at 2 XP; "
        "Marksmen at 2, 4 XP — `campaign coreheim advance 'Reikland Rats'` rolls them)"
    )


def test_steps_out_of_order_are_refused_with_the_step_that_comes_first(rats_and_skaven):
    rats_and_skaven.battle()
    assert rats_and_skaven.refusal(Injuries(warband=R)) == (
        "Reikland Rats cannot roll injuries yet: explore first (post-game of battle 1)"
    )
    rats_and_skaven.through("reinforce")
    assert rats_and_skaven.refusal(Search(warband=R)) == "Reikland Rats has already done the post-game step Rare item search for battle 1"


def test_the_guided_steps_are_done_from_the_events_alone(rats_and_skaven):
    steps = rulesets.get("coreheim").post_game
    rats_and_skaven.battle()
    rats_and_skaven.through("experience")
    state = rats_and_skaven.state
    assert [(s.key, s.done(state, RATS)) for s in steps(state, RATS)] == [
        ("explore", True), ("injuries", True), ("experience", False), ("advances", False),
        ("sell-shards", False), ("search", False), ("upkeep", False), ("reinforce", False),
    ]


# --- undo: a void of an injury roll re-decides every later transaction ------------------------------------


def injuries_then_experience(t) -> tuple[int, int]:
    """(the Rats' injuries transaction, their experience transaction); Clan Skrit explores in between."""
    t.battle(ooa=["Hans"])
    t.explore_quietly()
    t.do(Injuries(warband=R), [2, 3])  # R1: Hans 23, Chest Wound
    injuries = t.state.transactions
    t.explore_quietly(S)
    t.do(Experience(warband=R))
    return injuries, t.state.transactions


def test_voiding_an_injury_roll_lists_the_later_steps_that_no_longer_follow(rats_and_skaven):
    injuries, experience = injuries_then_experience(rats_and_skaven)
    with pytest.raises(Conflict) as refused:
        rats_and_skaven.ledger.void(rats_and_skaven.cid, "R1", reason="the die was cocked", actor="arbiter")
    # Clan Skrit's exploration, in between, still follows; the Rats' experience needs the injuries step.
    assert str(refused.value) == (
        f"voiding T{injuries} affects later transactions (add --cascade to void them too):\n"
        f"  T{experience}: Reikland Rats cannot award experience yet: roll injuries first (post-game of battle 1)"
    )


def test_rerolling_an_injury_roll_re_decides_the_step_and_the_steps_that_depended_on_it(rats_and_skaven):
    injuries, experience = injuries_then_experience(rats_and_skaven)
    outcome = rats_and_skaven.ledger.reroll(rats_and_skaven.cid, "R1", reason="the die was cocked", actor="arbiter",
                                            dice=TableDice([5, 5]), cascade=True)
    # The experience step no longer follows once the injuries are voided; it is decided again after the new roll
    assert [tx for tx, _why in outcome.affected] == [experience]
    opened = [r.event.command for r in outcome.records if isinstance(r.event, ev.CommandRecorded)]
    assert opened == ["reroll", "coreheim.injuries", "coreheim.experience"]
    state = rats_and_skaven.state
    hans = state.fighter("Hans")
    assert (hans.stats["T"], hans.injuries, hans.xp) == (0, [], 1)  # 55 is a Full Recovery; he survived: +1 XP
    assert PHASE.next_step(state, state.warband(R)) == "sell-shards"  # experience done again; no advance is due
    rats_and_skaven.through("end")
    assert rats_and_skaven.ledger.check(rats_and_skaven.cid)[1] == []


def test_an_answer_no_transaction_of_a_cascading_reroll_asks_is_refused_naming_their_keys(rats_and_skaven):
    injuries_then_experience(rats_and_skaven)
    with pytest.raises(BadInput) as refused:
        rats_and_skaven.ledger.reroll(rats_and_skaven.cid, "R1", reason="the die was cocked", actor="arbiter",
                                      dice=TableDice([5, 5]), cascade=True, answers={"nosuch": "1"})
    assert str(refused.value) == ("--answer nosuch: not a question of the transactions decided again "
                                  "(their keys: GROUP:out, HERO:captor, HERO:pit-fight, new-leader)")


def test_a_reroll_rolls_only_the_disputed_die_the_later_steps_keep_theirs(rats_and_skaven):
    # Given the Rats' exploration (R0: 1, 2, 3) and Hans's injury roll after it (R1: 23, Chest Wound)
    t = rats_and_skaven
    t.battle(ooa=["Hans"])
    t.explore_quietly()
    t.do(Injuries(warband=R), [2, 3])
    # When the exploration roll is disputed and rolled again (6, 2, 3) with --cascade
    outcome = t.ledger.reroll(t.cid, "R0", reason="the dice fell off the table", actor="arbiter",
                              dice=TableDice([6, 2, 3]), cascade=True)
    # Then the injuries step, which no longer follows once the exploration is voided, is decided again after
    # the new exploration with its own dice, a copy of R1: nobody rolls Hans's injury again
    rolls = [r.event for r in outcome.records if isinstance(r.event, ev.DiceRolled)]
    assert [(r.purpose, r.faces, r.copy_of) for r in rolls] == [
        ("exploration of Reikland Rats", [6, 2, 3], None),
        ("serious injury of Hans", [2, 3], 1),
    ]
    assert t.state.fighter("Hans").injuries == ["Chest Wound"]
    assert t.ledger.check(t.cid)[1] == []


def test_a_later_step_the_new_roll_no_longer_allows_stays_voided_saying_why(rats_and_skaven):
    # Given an exploration whose double 3 (Corpse, a 4: a sword) put a sword in the stash, which was then sold
    t = rats_and_skaven
    t.battle()
    t.do(Explore(warband=R), [3, 3, 1, 4])
    t.through("sell-shards")
    t.do(SellShards(warband=R, shards=0))
    t.do(Sell(warband=R, item="sword"))
    # When the exploration is rolled again (1, 2, 4: no Corpse) with --cascade
    outcome = t.ledger.reroll(t.cid, "R0", reason="cocked dice", actor="arbiter", dice=TableDice([1, 2, 4]), cascade=True)
    # Then the later steps are decided again, and the sale, which the rules now refuse, stays voided, saying why
    reasons = [r.event.reason for r in outcome.records if isinstance(r.event, ev.TransactionVoided)]
    assert reasons[-1] == ("no longer follows once T9 is voided: Reikland Rats cannot sell equipment yet: explore first "
                           "(post-game of battle 1); decided again after the new roll, the rules refuse it: "
                           "Reikland Rats' stash has no sword")
    assert reasons[1].endswith("; decided again after the new roll")
    assert t.state.warband(R).stash == []


def test_a_cascade_never_moves_a_command_to_another_battle(rats_and_skaven):
    # Given battle 1's post-game done, battle 2 fought and its post-game done up to the upkeep
    t = rats_and_skaven
    t.battle()
    t.through("end")
    t.through("end", S)
    upkeep_1 = next(tx for tx, group in enumerate(transactions(t.ledger.history(t.cid)), start=1)
                    if group[0].event.command == "coreheim.upkeep")
    t.battle(winner=None, absent=["Hans", "Marksmen"])  # a draw: no advance comes due
    t.through("reinforce")
    # When battle 1's upkeep is voided and the later transactions decided again
    outcome = t.ledger.void(t.cid, f"T{upkeep_1}", reason="paid twice", actor="arbiter", cascade=True,
                            decide_again=True, dice=TableDice([]))
    # Then battle 2, which needs battle 1's post-game finished, stays voided, and so does every step of its
    # post-game: battle 2's upkeep is not done again as battle 1's (a post-game command names only its warband)
    reasons = [r.event.reason for r in outcome.records if isinstance(r.event, ev.TransactionVoided)]
    assert any(reason.endswith("not decided again after the void: battle 2, to which it belongs, stays voided")
               for reason in reasons)
    assert PHASE.next_step(t.state, t.state.warband(R)) == "upkeep"  # battle 1's, still to do
    assert t.state.battles_fought == 1


# --- house rules: any table replaced at the campaign's start; options checked ---------------------------------

GENEROUS_SHARDS = {
    "die": "D6",
    "max_kept_dice": 6,
    "rows": [
        {"id": "house-shards:1-11", "min_total": 1, "max_total": 11, "shards": 3},
        {"id": "house-shards:12+", "min_total": 12, "max_total": None, "shards": 6},
    ],
}


def test_a_house_rule_table_is_used_and_named_in_the_events(house_rules):
    table = house_rules({"tables": {"shards": GENEROUS_SHARDS}})
    table.rats()
    table.skaven()
    table.battle()
    events = table.do(Explore(warband=R), [1, 2, 3])
    assert (events[1].shards, events[1].row) == (3, "house-shards:1-11")


@pytest.mark.parametrize(
    "options, message",
    [
        ({"tables": {"shards": {"die": "D6"}}}, "Coreheim table 'shards' is invalid: Object missing required field `max_kept_dice`"),
        ({"tables": {"shard": GENEROUS_SHARDS}}, "there is no Coreheim table 'shard'; tables are: equipment, henchman_advances, "
                                                 "henchman_injury, hero_advances, hero_injury, hired_swords, max_characteristics, "
                                                 "multiples, price_chart, shards, skills, underdog, warband_rating, warbands, wyrdstone_sale, "
                                                 "xp_thresholds"),
        ({"arm_wound": "WS"}, "coreheim has no option arm_wound (options: dice, mode, henchman_deed_xp, tables)"),
        ({"mode": "easy"}, "coreheim option mode: Invalid enum value 'easy' (one of: complex, casual)"),
        ({"henchman_deed_xp": "yes"}, "coreheim option henchman_deed_xp: Expected `bool`, got `str`"),
    ],
)
def test_bad_house_rules_are_refused_at_the_start(house_rules, options, message):
    with pytest.raises(BadInput) as refused:
        house_rules(options)
    assert str(refused.value) == message


def test_the_henchman_deed_house_rule_gives_a_group_that_took_out_a_hero_one_more(house_rules):
    table = house_rules({"henchman_deed_xp": True})
    table.rats()
    table.skaven()
    table.battle(took_out={"Marksmen": ["Snikch"]})
    table.through("experience")
    events = table.do(Experience(warband=R, henchman_deeds=["Marksmen"]))
    assert [(e.fighter, e.amount) for e in events[:-1] if e.fighter == "marksmen"] == [("marksmen", 1), ("marksmen", 1)]


@pytest.mark.parametrize(("options", "group", "refusal"), [
    ({}, "Marksmen", "henchmen earn deed XP only where a scenario says so (D3): give it with --scenario-xp, or start "
                     "the campaign with the house rule henchman_deed_xp (rules 6.1) for --henchman-deed"),
    ({"henchman_deed_xp": True}, "Hans", "Hans: --henchman-deed names a henchman group"),
])
def test_a_henchman_deed_the_campaign_gives_nothing_for_is_refused_not_ignored(house_rules, options, group, refusal):
    table = house_rules(options)
    table.rats()
    table.skaven()
    table.battle(took_out={"Marksmen": ["Snikch"]})
    table.through("experience")
    assert table.refusal(Experience(warband=R, henchman_deeds=[group])) == refusal


def test_on_version_3_a_henchman_deed_without_the_house_rule_was_ignored(rats_and_skaven_v3):
    rats_and_skaven_v3.battle(took_out={"Marksmen": ["Snikch"]})
    rats_and_skaven_v3.through("experience")
    events = rats_and_skaven_v3.do(Experience(warband=R, henchman_deeds=["Marksmen"]))
    assert [(e.fighter, e.amount) for e in events[:-1] if e.fighter == "marksmen"] == [("marksmen", 1)]


def test_casual_mode_rates_heroes_10_and_others_5(house_rules):
    table = house_rules({"mode": "casual"})
    table.rats()
    assert model.rating(table.state, RATS) == 2 * 10 + 3 * 5


# --- ratings, kept for every battle ---------------------------------------------------------------------------


def test_each_battle_keeps_the_ratings_it_was_fought_at(rats_and_skaven):
    rats_and_skaven.battle(took_out={"Gunnar": ["Snikch"]})
    rats_and_skaven.finish()
    rats_and_skaven.battle(winner="Clan Skrit")
    # Battle 1: Rats 45, Skrit 25. Then Gunnar +3, Hans +1, Marksmen +1 each (3): Rats 45 + 7 = 52;
    # Snikch +1: Skrit 26.
    state = rats_and_skaven.state
    assert ext_of(state, state.warband(R))["ratings"] == {"1": 45, "2": 52}
    assert ext_of(state, state.warband(S))["ratings"] == {"1": 25, "2": 26}


def test_the_guided_steps_ask_for_what_their_commands_need(rats_and_skaven):
    """At a terminal the guided walk builds each command from the player's answers."""
    build = {s.key: s.build for s in rulesets.get("coreheim").post_game(rats_and_skaven.state, RATS)}
    rats_and_skaven.battle(ooa=["Hans"])
    rats_and_skaven.explore_quietly()  # 1, 2, 3: 2 shards
    rats_and_skaven.do(Injuries(warband=R), [5, 5])
    asked: list[tuple[str, list[str], str]] = []

    def ask(prompt: str, options: list[str], key: str) -> str:
        asked.append((prompt, list(options), key))
        return "power-scroll" if "power-scroll" in options else options[-1]

    state = rats_and_skaven.state
    assert build["sell-shards"](state, RATS, ask) == SellShards(warband=RATS, shards=2)
    # Hans was taken out of action, so only Gunnar may look, for an item the price chart gives a rarity.
    assert build["search"](state, RATS, ask) == Search(warband=RATS, searches=[RareSearch(hero="Gunnar", item="power-scroll")])
    assert asked == [
        ("Reikland Rats holds 2 shards: how many to sell?", ["0", "1", "2"], "shards"),
        ("Which rare item does Gunnar look for?", ["nothing", *RARE], "gunnar:search"),
    ]
