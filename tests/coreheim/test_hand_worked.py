"""Hand-worked cases of the post-game sequence, each worked out from the seed's own sentences (seed
002, 2.1) and the table it sends to ("the table at the back of this book", shared/rules/coreheim.md),
before the ledger was asked: given the usual campaign (conftest), when a step runs with these table
dice, then what the hand worked out.

The usual Rats: Gunnar (Captain, leader, 20 XP), Hans (Youngblood, 0 XP), Marksmen (3 henchmen,
0 XP): two heroes, five warriors. Clan Skrit: Snikch (Assassin).
"""

from __future__ import annotations

import pytest

from commands.coreheim import events as ce
from commands.coreheim.commands import (
    Advance,
    Experience,
    Explore,
    Injuries,
    RareSearch,
    Reinforce,
    Search,
    SellShards,
)
from commands.shared import Correct
from ledger import events as ev
from projections.roster import ext_of
from .conftest import rats_and_skaven_on

RATS = "reikland-rats"


def shards(table) -> int:
    return ext_of(table.state, table.state.warbands[RATS])["shards"]


def of_type(events, kind):
    return [e for e in events if isinstance(e, kind)]


# --- Exploration ------------------------------------------------------------------------------------
# "Even if you are allowed to roll seven or more dice, you must always pick a maximum of six dice as
# your result." / "If you score more than one set of multiples, you must select only one of these as
# your result." / "Calculate the sum of your result and consult the table" (1-5: 1, 6-11: 2, 12-17: 3,
# 18-24: 4, 25-30: 5, 31-35: 6, 36+: 7).

SEVEN = [6, 5, 4, 3, 2, 1, 6]  # 2 heroes + the win + 4 scenario dice


@pytest.mark.parametrize(
    "keep, total, found",
    [
        ("5", 5, 1),             # top of 1-5
        ("6", 6, 2),             # bottom of 6-11
        ("6,5", 11, 2),          # top of 6-11
        ("6,5,1", 12, 3),        # bottom of 12-17
        ("6,5,4,2", 17, 3),      # top of 12-17
        ("6,5,4,3", 18, 4),      # bottom of 18-24
        ("6,5,4,3,2,1", 21, 4),  # six distinct faces: no multiple
    ],
)
def test_shards_at_the_table_boundaries(rats_and_skaven, keep, total, found):
    rats_and_skaven.battle()
    events = rats_and_skaven.do(Explore(warband="Reikland Rats", extra_dice=4, answers={"keep": keep}), SEVEN)
    resolved = of_type(events, ce.ExplorationResolved)[0]
    assert (resolved.total, resolved.shards, resolved.multiple) == (total, found, "")
    assert shards(rats_and_skaven) == found


def test_seven_dice_keep_six_with_three_doubles_and_select_one(rats_and_skaven):
    # Kept 6,6,5,5,3,3 = 28 (25-30: 5 shards); three doubles, the Rats select 3x2 (Corpse), whose D6
    # of 4 is a Sword (1-3 Club; 4-5 Sword; 6 Bow). The 1 left out counts for nothing.
    rats_and_skaven.battle()
    events = rats_and_skaven.do(
        Explore(warband="Reikland Rats", extra_dice=4, answers={"keep": "6,6,5,5,3,3", "multiple": "3x2"}),
        [6, 6, 5, 5, 3, 3, 1, 4])
    resolved = of_type(events, ce.ExplorationResolved)[0]
    assert (resolved.kept, resolved.total, resolved.shards, resolved.multiple) == ([6, 6, 5, 5, 3, 3], 28, 5, "3x2")
    assert [e.item for e in of_type(events, ev.ItemGained)] == ["sword"]


def test_without_a_selection_several_multiples_are_asked_not_guessed(rats_and_skaven):
    rats_and_skaven.battle()
    message = rats_and_skaven.refusal(Explore(warband="Reikland Rats", extra_dice=3), [6, 6, 6, 5, 5, 5])
    assert "several multiples, 5x3 (Fletcher), 6x3 (Returning a Favour): which one counts?" in message


def test_six_sixes_are_36_seven_shards_and_the_six_of_a_kind(rats_and_skaven):
    rats_and_skaven.battle()
    events = rats_and_skaven.do(Explore(warband="Reikland Rats", extra_dice=3), [6] * 6)
    resolved = of_type(events, ce.ExplorationResolved)[0]
    assert (resolved.total, resolved.shards, resolved.multiple) == (36, 7, "6x6")  # Slaver Stronghold
    items = [e.item for e in of_type(events, ev.ItemGained)]
    assert (items.count("shackles"), items.count("rope-and-hook")) == (5, 5)


# --- Injuries ---------------------------------------------------------------------------------------
# "Roll a D12 for each henchman ... taken out of action: 1-4 = Dead, 5-12 = Survives." / "Roll D66 for
# each hero taken out of action" (tens, then units).


def test_henchman_d12_4_is_dead_and_5_survives(rats_and_skaven):
    rats_and_skaven.battle(ooa=["Marksmen"])
    rats_and_skaven.explore_quietly()
    events = rats_and_skaven.do(Injuries(warband="Reikland Rats", answers={"marksmen:out": "2"}), [4, 5])
    assert [(e.face, e.result) for e in of_type(events, ce.HenchmanInjuryRolled)] == [(4, "dead"), (5, "survives")]
    assert rats_and_skaven.fighter("Marksmen").group_size == 2


@pytest.mark.parametrize(
    "dice, results",
    [
        ([1, 5], ["captured"]),                                 # 15: Captured
        ([6, 6], ["seen-it-all"]),                              # 66: +1 XP
        ([3, 6], ["robbed"]),                                   # 36 and 41: Robbed
        ([4, 1], ["robbed"]),
        # 16 and 21 are Multiple Injuries: four more, re-rolling Dead, Captured, Sold to the Pits and
        # Multiple Injuries (here 22, 15 and 44 are re-rolled).
        ([1, 6, 2, 3, 2, 2, 1, 5, 4, 4, 2, 5, 2, 6, 3, 1],
         ["multiple-injuries", "chest-wound", "multiple-injuries", "captured", "sold-to-pits", "leg-injury",
          "hand-injury", "eye-injury"]),
        # 14 is Dead, which counts as Multiple Injuries in the warband's first two games (rules 2.2).
        ([1, 4, 5, 5, 5, 5, 5, 5, 5, 5], ["multiple-injuries", *["full-recovery"] * 4]),
    ],
)
def test_hero_d66_at_the_band_edges(rats_and_skaven, dice, results):
    rats_and_skaven.battle(ooa=["Hans"])
    rats_and_skaven.explore_quietly()
    events = rats_and_skaven.do(Injuries(warband="Reikland Rats"), dice)
    assert [e.result for e in of_type(events, ce.InjuryRolled)] == results


# --- Experience ---------------------------------------------------------------------------------------
# "+1 experience for participating" / "+1 experience for each time they took an enemy out of action" /
# "your leader gains +1" / heroes roll at 2, 4, 6, 8, 11, 14, 17, 20, 24, ...; henchmen at 2, 4, 6, 7.


def test_a_leader_exactly_at_24_rolls_once_and_a_youngblood_crossing_2_and_4_rolls_twice(rats_and_skaven):
    # Gunnar 20 + 1 + 2 taken out + 1 leader = 24 (his starting 20 gives nothing); Hans 0 + 1 + 3 = 4.
    rats_and_skaven.battle(took_out={"Gunnar": ["Snikch", "Skink"], "Hans": ["Skrat", "Skab", "Skeet"]})
    rats_and_skaven.through("experience")
    rats_and_skaven.do(Experience(warband="Reikland Rats"))
    assert (rats_and_skaven.fighter("Gunnar").xp, rats_and_skaven.fighter("Hans").xp) == (24, 4)
    events = rats_and_skaven.do(Advance(warband="Reikland Rats"), [7, 6, 7])
    assert [(e.fighter, e.threshold) for e in of_type(events, ce.AdvanceRolled)] == [
        ("gunnar", 24), ("hans", 2), ("hans", 4)]


def test_a_henchman_group_from_6_to_9_rolls_at_7_only(rats_and_skaven):
    table = rats_and_skaven
    table.do(Correct(warband="Reikland Rats", fighter="Marksmen", reason="setup", xp=5))
    table.battle()
    table.through("advances")
    table.do(Advance(warband="Reikland Rats", fighter="Marksmen",
                     answers={"marksmen:2:group-reroll": "keep", "marksmen:4:group-reroll": "keep",
                              "marksmen:6:group-reroll": "keep", "marksmen:4:stat": "WS"}), [1, 5, 8])
    table.finish()
    table.battle()
    table.through("experience")
    table.do(Experience(warband="Reikland Rats", scenario_xp={"Marksmen": 2}))  # 6 + 1 + 2 = 9
    events = table.do(Advance(warband="Reikland Rats", fighter="Marksmen",
                              answers={"marksmen:7:group-reroll": "keep", "marksmen:7:stat": "BS"}), [5])
    assert [e.threshold for e in of_type(events, ce.AdvanceRolled)] == [7]


# --- Reinforcing --------------------------------------------------------------------------------------
# "if you roll 5, you may: Reinforce a group with 3 experience with one new member, and a group with 1
# experience with up to two new members. The price of hiring henchmen remains the same".


def with_groups_at_3_and_1_xp(table):
    table.hire("Reikland Rats", "Militia", "henchman", cost=25, group_size=2)
    table.do(Correct(warband="Reikland Rats", fighter="Marksmen", reason="setup", xp=2))
    table.battle()
    table.through("advances")
    table.do(Advance(warband="Reikland Rats",
                     answers={"marksmen:2:group-reroll": "keep", "marksmen:2:stat": "WS"}), [5])
    table.through("reinforce")
    assert (table.fighter("Marksmen").xp, table.fighter("Militia").xp) == (3, 1)
    return table


@pytest.fixture
def groups_at_3_and_1_xp(rats_and_skaven):
    return with_groups_at_3_and_1_xp(rats_and_skaven)


def test_the_seeds_example_roll_of_5(groups_at_3_and_1_xp):
    table = groups_at_3_and_1_xp
    before = table.state.warbands[RATS].treasury
    table.do(Reinforce(warband="Reikland Rats", answers={
        "reinforce": "yes", "marksmen:recruits": "1", "militia:recruits": "2"}), [5])
    assert (table.fighter("Marksmen").group_size, table.fighter("Militia").group_size) == (4, 4)
    assert (table.fighter("Marksmen").xp, table.fighter("Militia").xp) == (3, 1)  # they join at the group's XP
    assert before - table.state.warbands[RATS].treasury == 3 * 25  # the same price whatever the XP


THREE_MILITIA_MORE = Reinforce(warband="Reikland Rats", answers={"reinforce": "yes", "marksmen:recruits": "1",
                                                                 "militia:recruits": "3"})


def test_a_roll_of_5_does_not_pay_for_a_third_militia_recruit_as_well(groups_at_3_and_1_xp):
    # The roll stands (version 10): nobody joins, and the 5 XP hold for recruits planned within them.
    assert groups_at_3_and_1_xp.do(THREE_MILITIA_MORE, [5])[1:] == [ce.ReinforcementRollHeld(
        warband=RATS, battle=1, xp=5, reason="the recruits asked for (1 for Marksmen at 3 XP, 3 for Militia at 1 XP) need 6 XP")]
    assert groups_at_3_and_1_xp.fighter("Militia").group_size == 2


def test_on_version_9_a_roll_of_5_refused_a_third_militia_recruit():
    table = with_groups_at_3_and_1_xp(rats_and_skaven_on("9"))
    assert table.refusal(THREE_MILITIA_MORE, [5]) == "These recruits need 6 experience; the roll gave 5"


# --- Trading ------------------------------------------------------------------------------------------


def test_three_shards_sold_by_a_warband_of_five_warriors(rats_and_skaven):
    # 6 + 5 + 4 = 15 (12-17: 3 shards); 5 warriors (2 heroes, 3 marksmen): the 4-6 column, 3 shards 70 gc.
    rats_and_skaven.battle()
    rats_and_skaven.do(Explore(warband="Reikland Rats"), [6, 5, 4])
    rats_and_skaven.through("sell-shards")
    events = rats_and_skaven.do(SellShards(warband="Reikland Rats", shards=3))
    assert [(e.delta, e.row) for e in of_type(events, ev.TreasuryChanged)] == [(70, "wyrdstone-sale:3-shards:4-6-warriors")]


@pytest.mark.parametrize("dice, found", [([4, 4], True), ([3, 4], False)])
def test_a_rarity_roll_equal_to_the_rarity_finds_it(rats_and_skaven, dice, found):
    # "If the result is equal to or higher than the item's rarity, you find it": a Lance is Rare 8.
    rats_and_skaven.battle()
    rats_and_skaven.through("search")
    events = rats_and_skaven.do(Search(warband="Reikland Rats", searches=[RareSearch(hero="Gunnar", item="lance")]), dice)
    assert [e.found for e in of_type(events, ce.RareItemSearched)] == [found]


# --- A user's mistakes --------------------------------------------------------------------------------


def test_mistakes_are_refused_and_write_nothing(rats_and_skaven):
    table = rats_and_skaven
    table.battle(ooa=["Hans"])
    assert table.refusal(Injuries(warband="Reikland Rats"), [5, 5]).endswith("explore first (post-game of battle 1)")
    assert "needs 3D6 (1 more die)" in table.refusal(Explore(warband="Reikland Rats"), [1, 2])
    assert table.refusal(Explore(warband="Reikland Rats"), [1, 2, 3, 4]) == "4 dice given but only 3 used: check --dice"
    assert table.refusal(Explore(warband="Reikland Rats"), [1, 2, 7]) == (
        "exploration of Reikland Rats: the 3rd die of the 3D6 roll shows 7, not 1-6")
    table.explore_quietly()
    assert "already done the post-game step Exploration" in table.refusal(Explore(warband="Reikland Rats"), [1, 2, 3])
    assert table.refusal(Injuries(warband="Reikland Rats"), [7, 1]) == (
        "serious injury of Hans: the 1st die of the D66 roll shows 7, not 1-6")
    table.through("experience", injuries=[5, 5])
    assert table.refusal(Experience(warband="Reikland Rats", scenario_xp={"Snikch": 1})) == "no fighter 'Snikch' in Reikland Rats: Snikch is in Clan Skrit"
