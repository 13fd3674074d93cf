"""The log's lines of Coreheim events (read-model rows format 3): given the usual campaign, when a
command runs with these dice, then its events read so, each line described with the state just after
its transaction, as the rm_log rows are.
"""

from __future__ import annotations

import pytest

from commands.coreheim.commands import (
    Advance, Buy, Explore, Injuries, RareSearch, Reinforce, Search, SpendUnderdog, UnderdogSword,
)
from commands.shared import Correct, GainItem
from ledger.describe import describe

from .conftest import HUMAN, rats_and_skaven_on


def lines(table, command, dice=()) -> list[str]:
    events = table.do(command, list(dice))
    return [describe(event, table.state) for event in events]


# Rules 1.2 (5.9), 4 4 Overturned Cart: "D6: ... 6 Mordheim Map"; and "Mordheim Map: roll D6. 1–4:
# fake, discard it, and the holder misses the next battle. 5–6: the holder gains the Streetwise skill."
@pytest.mark.parametrize("map_die, said, then", [
    (2, "the Mordheim Map is fake", ["Reikland Rats stash loses Mordheim Map",
                                     "Hans misses the next game (exploration: Overturned Cart)"]),
    (5, "the Mordheim Map is genuine", ["Hans learns Streetwise"]),
])
def test_a_mordheim_map_found_exploring_says_whether_it_is_fake(rats_and_skaven, map_die, said, then):
    rats_and_skaven.battle()
    told = lines(rats_and_skaven, Explore(warband="Reikland Rats", answers={"map-holder": "Hans"}), [4, 4, 1, 6, map_die])
    assert told[3:] == [
        f"Reikland Rats explored: rolled [4, 4, 1], total 9 = 2 shards; multiple 4x2: Overturned Cart "
        f"(Mordheim Map; {said})",
        "Reikland Rats wyrdstone +2 (explored after battle 1)",
        "Reikland Rats stash gains Mordheim Map",
        *then,
        "Reikland Rats: post-game step Exploration done for battle 1",
    ]


def test_items_are_named_as_the_tables_name_them(rats_and_skaven):
    """The log said "Gunnar looks for power-scroll", "Gunnar gains power-scroll": the ids items are
    recorded under, where the price chart names them "Power Scroll"."""
    rats_and_skaven.battle()
    rats_and_skaven.through("search")
    searched = lines(rats_and_skaven, Search(warband="Reikland Rats", searches=[RareSearch(hero="Gunnar", item="power-scroll")]), [4, 4])
    bought = lines(rats_and_skaven, Buy(warband="Reikland Rats", item="power-scroll", fighter="Gunnar"), [4])
    assert searched[1:] == ["Gunnar looks for Power Scroll (rare 8): 8, found",
                            "Reikland Rats: post-game step Rare item search done for battle 1"]
    assert bought[1:] == ["Reikland Rats: price of Power Scroll rolled 11 gc (it holds until the post-game of battle 1 ends)",
                          "Reikland Rats treasury -11 (bought Power Scroll)",  # recorded "bought power-scroll"
                          "Gunnar gains Power Scroll",
                          "Reikland Rats has bought the Power Scroll found after battle 1"]


@pytest.fixture
def underdog(rats_and_skaven):
    # Rats 81 against Skrit 25: 1 underdog point for the Skrit (as in test_underdog_ledger)
    rats_and_skaven.hire("Reikland Rats", "Otto", "sergeant")
    rats_and_skaven.hire("Reikland Rats", "Grok", "ogre-bodyguard", race="ogre")
    return rats_and_skaven


SWORD_TOOK_HANS_OUT = SpendUnderdog(warband="Clan Skrit", sword=UnderdogSword(
    name="Grimm", type="pit-fighter", race="human", stats=HUMAN, took_out=["Hans"]))


def test_the_deeds_stated_again_for_an_underdog_sword_say_whom_he_took_out(underdog):
    """The enemy's line read as a second battle record in which Hans went out of action unexplained."""
    underdog.battle()
    assert lines(underdog, SWORD_TOOK_HANS_OUT)[2:] == [
        "Clan Skrit in battle 1: 2 warriors fought (with Grimm, the Hired Sword Clan Skrit's underdog point brought), "
        "out of action: nobody; 1 enemy taken out",
        "Reikland Rats in battle 1: 5 warriors fought, out of action: Hans (taken out by Grimm, the Hired Sword "
        "Clan Skrit's underdog point brought); 0 enemies taken out",
        "Clan Skrit spends 1 underdog point of battle 1 (one brought Grimm, a Hired Sword)",
    ]


def test_the_battle_record_itself_names_no_sword(underdog):
    assert [describe(event, underdog.state) for event in underdog.battle()][1:3] == [
        "Reikland Rats in battle 1: 5 warriors fought, out of action: nobody; 0 enemies taken out",
        "Clan Skrit in battle 1: 1 warrior fought, out of action: nobody; 0 enemies taken out",
    ]


def test_a_hired_sword_joins_under_the_name_his_table_gives_his_type(rats_and_skaven):
    """The log said "Grok, hired-sword, joins Reikland Rats" and "Grok is an ogre ogre-bodyguard"."""
    assert [describe(e, rats_and_skaven.state) for e in rats_and_skaven.hire(
        "Reikland Rats", "Grok", "ogre-bodyguard", race="ogre")][:2] == [
        "Grok, hired sword, joins Reikland Rats",
        "Grok is an Ogre Bodyguard (Ogre)",
    ]


@pytest.mark.parametrize("d66, said", [
    ([5, 5], "Hans serious injury 55: Full Recovery (hero-injury:45-64)"),  # was "full-recovery"
    ([2, 3], "Hans serious injury 23: Chest Wound (hero-injury:23)"),  # was "chest-wound"
])
def test_a_serious_injury_is_named_as_the_hero_injury_table_names_it(rats_and_skaven, d66, said):
    rats_and_skaven.battle(ooa=["Hans"])
    rats_and_skaven.explore_quietly()
    told = lines(rats_and_skaven, Injuries(warband="Reikland Rats"), d66)
    assert told[1] == said


@pytest.mark.parametrize("faces, said", [
    # every die counts: "kept [1, 2, 3] of [1, 2, 3]" said nothing the dice did not
    ([1, 2, 3], "Reikland Rats explored: rolled [1, 2, 3], total 6 = 2 shards"),
])
def test_an_exploration_says_which_dice_it_kept_only_when_it_kept_fewer(rats_and_skaven, faces, said):
    rats_and_skaven.battle()
    assert lines(rats_and_skaven, Explore(warband="Reikland Rats"), faces)[1] == said


def test_a_henchman_promoted_by_talent_keeps_his_type_and_picks_his_skill_lists(rats_and_skaven):
    """Rules 3.4 Talent!: "He keeps his type [...] He picks two skill lists". Right after "Ulli is promoted
    to hero" the log said "Ulli is a human henchman, skill lists combat, speed"."""
    rats_and_skaven.do(Correct(warband="Reikland Rats", fighter="Marksmen", reason="test setup", xp=1))
    rats_and_skaven.battle()
    rats_and_skaven.through("advances")
    answers = {"marksmen:2:group-reroll": "keep", "marksmen:2:skill-lists": "combat+speed",
               "marksmen:2:again:group-reroll": "keep"}
    told = lines(rats_and_skaven, Advance(warband="Reikland Rats", names={"marksmen": "Ulli"}, answers=answers), [10, 6, 10, 8])
    assert told[3:6] == [
        "Ulli, henchman, joins Reikland Rats",
        "Ulli is promoted to hero",
        "Ulli keeps his type, Henchman (Human), and picks the skill lists Combat, Speed",
    ]


@pytest.mark.parametrize("recruits, said", [
    # was "Marksmen +1 member: reinforced: 1 x 1 XP of the 5 rolled"
    ("1", "Marksmen +1 member, reinforced: 1 recruit at 1 XP, using 1 of the 5 XP rolled"),
    # was "Marksmen +2 members: reinforced: 2 x 1 XP of the 5 rolled"
    ("2", "Marksmen +2 members, reinforced: 2 recruits at 1 XP each, using 2 of the 5 XP rolled"),
])
def test_a_group_reinforced_says_what_its_recruits_used_of_the_xp_rolled(rats_and_skaven, recruits, said):
    """Trading 7: "roll a D6: this is the total amount of experience available"; a recruit joins at his
    group's experience and uses that much of it."""
    rats_and_skaven.battle()
    rats_and_skaven.through("reinforce")
    answers = {"reinforce": "yes", "marksmen:recruits": recruits}
    assert lines(rats_and_skaven, Reinforce(warband="Reikland Rats", answers=answers), [5])[1] == said


@pytest.mark.parametrize("version", ["11", "9"])
def test_a_recruits_gear_is_named_as_the_tables_name_it(version):
    """Rules 2.4: recruits come "with identical equipment", which they pay for (the reason records the items' ids). The
    log said "the gear of 2 recruits for Marksmen: bow, dagger", where "Marksmen gains Bow" names them as the tables
    do; rows format 7 says their names, for a campaign recorded on any version."""
    table = rats_and_skaven_on(version)
    for item in ("bow", "dagger"):
        table.do(GainItem(warband="Reikland Rats", item=item, fighter="Marksmen"))
    table.battle()
    table.through("reinforce")
    answers = {"reinforce": "yes", "marksmen:recruits": "2"}
    assert lines(table, Reinforce(warband="Reikland Rats", answers=answers), [5])[3] == (
        "Reikland Rats treasury -14 (the gear of 2 recruits for Marksmen: Bow, Dagger, 7 gc each)")
