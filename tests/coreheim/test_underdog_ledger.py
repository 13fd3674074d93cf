"""The underdog bonus (5.4) spent on a Hired Sword: one point brings one, right after the battle is
recorded; he joins without pay, fights in the battle (deeds, injuries, experience), and at the
upkeep step is kept by paying his upkeep or let go."""

from __future__ import annotations

import msgspec
import pytest

from commands.coreheim import events as ce
from commands.coreheim.commands import Experience, Injuries, SpendUnderdog, UnderdogSword, Upkeep
from ledger import events as ev
from projections.battles import fought

from .conftest import HUMAN, rats_and_skaven_on

SKRIT = "clan-skrit"
PIT_FIGHTER = UnderdogSword(name="Grimm", type="pit-fighter", race="human", stats=HUMAN, took_out=["Hans"])
QUIET_PIT_FIGHTER = UnderdogSword(name="Grimm", type="pit-fighter", race="human", stats=HUMAN)  # 1 XP: no advance


@pytest.fixture
def underdog(rats_and_skaven):
    # Rats: 6 members (Otto the Sergeant comes with 6 XP) = 30 + XP 20 + 6, and Grok (Ogre, rating 25) = 81.
    # Skrit: 5 + 20 = 25. The gap of 56 is in the 51-75 row: 1 point for the Skrit.
    rats_and_skaven.hire("Reikland Rats", "Otto", "sergeant")
    rats_and_skaven.hire("Reikland Rats", "Grok", "ogre-bodyguard", race="ogre")
    return rats_and_skaven


def test_an_underdog_point_brings_a_hired_sword_who_fought_in_the_battle(underdog):
    # Given the Skrit's 1 underdog point, and the Rats' Hans taken out of action (by the sword, as it turns out)
    underdog.battle(ooa=["Hans"])
    # When the Skrit spend it on a Pit Fighter who took Hans out
    events = underdog.do(SpendUnderdog(warband="Clan Skrit", sword=PIT_FIGHTER))
    # Then he is hired at his fee of 40 gc without paying it, and fought in battle 1 beside Snikch
    assert events == [
        ev.FighterRecruited(warband=SKRIT, fighter="grimm", name="Grimm", role="hired-sword", stats=HUMAN, cost=40),
        ce.WarriorProfile(warband=SKRIT, fighter="grimm", warrior_type="pit-fighter", race="human"),
        ce.BattleDeeds(warband=SKRIT, battle=1, fought=["snikch", "grimm"], took_out={"grimm": ["hans"]}),
        ce.UnderdogSpent(warband=SKRIT, battle=1, points=1, sword="grimm"),
    ]
    assert underdog.state.warband("Clan Skrit").treasury == 430


def test_the_underdog_swords_type_is_taken_in_any_case(underdog):
    """As `hire` takes it: "Pit-Fighter" was refused as no Hired Sword."""
    underdog.battle()
    sword = msgspec.structs.replace(QUIET_PIT_FIGHTER, type="Pit-Fighter")
    events = underdog.do(SpendUnderdog(warband="Clan Skrit", sword=sword))
    assert ce.WarriorProfile(warband=SKRIT, fighter="grimm", warrior_type="pit-fighter", race="human") in events


def test_the_underdog_sword_is_among_those_who_fought_in_the_core_battle(underdog):
    # Given the Skrit's underdog point spent on a Pit Fighter who took Hans out
    underdog.battle(ooa=["Hans"])
    underdog.do(SpendUnderdog(warband="Clan Skrit", sword=PIT_FIGHTER))
    # Then the battle's deeds, which every post-game reads, have him fight for the Skrit
    state = underdog.state
    assert fought(state.latest_battle(SKRIT), SKRIT, state) == [ev.Deed(fighter="snikch"), ev.Deed(fighter="grimm", took_out=["hans"])]
    assert state.fighters["grimm"].games == 0  # hired after the battle was recorded, as before


def test_an_enemy_the_underdog_sword_took_out_is_out_of_action(underdog):
    # Given battle 1 recorded with Hans fighting, not out of action
    underdog.battle()
    # When the Skrit's sword is recorded as having taken Hans out ("ENEMY, if on a roster, is then out of action")
    events = underdog.do(SpendUnderdog(warband="Clan Skrit", sword=PIT_FIGHTER))
    # Then the Rats' deeds say so, and Hans rolls his injury
    assert ce.BattleDeeds(warband="reikland-rats", battle=1, fought=["gunnar", "hans", "marksmen", "otto", "grok"],
                          out_of_action=["hans"]) in events
    underdog.explore_quietly()
    rolled = underdog.do(Injuries(warband="Reikland Rats"), [5, 5])
    assert [e.purpose for e in rolled if isinstance(e, ev.DiceRolled)] == ["serious injury of Hans"]


def test_an_enemy_whose_injuries_were_rolled_is_not_taken_out_after_them(underdog):
    underdog.battle()
    underdog.explore_quietly()
    underdog.do(Injuries(warband="Reikland Rats"))
    assert underdog.refusal(SpendUnderdog(warband="Clan Skrit", sword=PIT_FIGHTER)) == (
        "Reikland Rats has rolled its injuries after battle 1: Hans, whom the sword took out, would have rolled one "
        "(void its injuries step first)")


def test_on_version_3_an_enemy_the_sword_took_out_stayed_as_recorded():
    table = rats_and_skaven_on("3")
    table.hire("Reikland Rats", "Otto", "sergeant")
    table.hire("Reikland Rats", "Grok", "ogre-bodyguard", race="ogre")
    table.battle()
    table.do(SpendUnderdog(warband="Clan Skrit", sword=PIT_FIGHTER))
    assert not any(d.out_of_action for d in fought(table.state.latest_battle("reikland-rats"), "reikland-rats", table.state))


def test_an_underdog_sword_named_by_type_alone_has_the_tables_profile_and_race(underdog):
    underdog.battle()
    recruited, profile = underdog.do(SpendUnderdog(warband="Clan Skrit", sword=UnderdogSword(name="Grimm", type="pit-fighter")))[:2]
    # 2.3 Pit Fighter: | 7 | 2 | 1 | -1 | 6+ | - | 7+ | 8+ |
    assert (recruited.stats, profile.race) == ({"M": 7, "A": 2, "W": 1, "T": -1, "WS": 6, "I": 7, "Ld": 8}, "human")


def test_the_underdog_sword_earns_experience_as_a_hired_sword_who_fought(underdog):
    underdog.battle(ooa=["Hans"])
    underdog.do(SpendUnderdog(warband="Clan Skrit", sword=PIT_FIGHTER))
    underdog.through("experience", "Clan Skrit")
    events = underdog.do(Experience(warband="Clan Skrit"))
    # Snikch survived (+1); Grimm survived (+1) and took out one enemy (+1 for a Hired Sword)
    assert [e for e in events if isinstance(e, ev.XPAwarded)] == [
        ev.XPAwarded(warband=SKRIT, fighter="snikch", amount=1, reason="survived the battle (battle 1)"),
        ev.XPAwarded(warband=SKRIT, fighter="grimm", amount=1, reason="survived the battle (battle 1)"),
        ev.XPAwarded(warband=SKRIT, fighter="grimm", amount=1, reason="took an enemy out of action (battle 1)"),
    ]


def test_an_underdog_sword_taken_out_of_action_rolls_his_d12_at_the_injuries(underdog):
    underdog.battle()
    underdog.do(SpendUnderdog(warband="Clan Skrit", sword=msgspec.structs.replace(QUIET_PIT_FIGHTER, out_of_action=True)))
    underdog.through("injuries", "Clan Skrit")
    events = underdog.do(Injuries(warband="Clan Skrit"), [3])
    # A D12 of 3 is in the 1-4 row: he dies of his wounds
    assert events[-2:] == [
        ev.FighterDied(warband=SKRIT, fighter="grimm", reason="died of his wounds", row="henchman-injury:1-4"),
        ev.PostGameStepDone(warband=SKRIT, battle=1, step="injuries"),
    ]


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("pay", ev.TreasuryChanged(warband=SKRIT, delta=-15, reason="upkeep of Grimm", row="hired-sword:pit-fighter")),
        ("release", ev.FighterRetired(warband=SKRIT, fighter="grimm",
                                      reason="left (came for battle 1 with the underdog bonus): upkeep not paid")),
    ],
)
def test_at_the_upkeep_the_underdog_sword_is_kept_for_his_upkeep_or_let_go(underdog, answer, expected):
    underdog.battle()
    underdog.do(SpendUnderdog(warband="Clan Skrit", sword=QUIET_PIT_FIGHTER))
    underdog.through("upkeep", "Clan Skrit")
    assert underdog.do(Upkeep(warband="Clan Skrit", answers={"grimm:upkeep": answer})) == [
        expected,
        ev.PostGameStepDone(warband=SKRIT, battle=1, step="upkeep"),
    ]


def test_a_sword_and_experience_together_cost_more_points_than_the_skrit_have(underdog):
    underdog.battle()
    assert underdog.refusal(SpendUnderdog(warband="Clan Skrit", xp={"Snikch": 1}, sword=PIT_FIGHTER)) == (
        "Clan Skrit has 1 underdog point left for battle 1, not 2"
    )


def test_a_type_that_is_not_a_hired_sword_is_refused(underdog):
    underdog.battle()
    assert underdog.refusal(SpendUnderdog(warband="Clan Skrit", sword=UnderdogSword(
        name="Skab", type="assassin", race="skaven", stats=HUMAN))) == (
        "assassin is not a Hired Sword Clan Skrit can hire (ogre-bodyguard, halfling-scout, dwarf-slayer, "
        "elven-ranger, pit-fighter, warlock, freelancer, skryre-engineer)"
    )


def test_a_second_sword_of_a_type_already_on_the_roster_is_refused(underdog):
    # Given the Skrit with a Halfling Scout (rating 25 + 5 = 30: a gap of 51 still earns 1 point)
    underdog.hire("Clan Skrit", "Pip", "halfling-scout", race="halfling")
    underdog.battle()
    assert underdog.refusal(SpendUnderdog(warband="Clan Skrit", sword=UnderdogSword(
        name="Tom", type="halfling-scout", race="halfling", stats=HUMAN))) == (
        "Clan Skrit already has Halfling Scout Pip; one of each Hired Sword at most"
    )


def test_the_sword_joins_before_the_post_game_so_not_after_exploring(underdog):
    underdog.battle()
    underdog.explore_quietly("Clan Skrit")
    assert underdog.refusal(SpendUnderdog(warband="Clan Skrit", sword=PIT_FIGHTER)) == (
        "Clan Skrit has already explored after battle 1: a Hired Sword bought with underdog points joins before the post-game"
    )


def test_spending_nothing_is_refused(underdog):
    underdog.battle()
    assert underdog.refusal(SpendUnderdog(warband="Clan Skrit")) == (
        "spend the points on experience (warrior=N) or on a Hired Sword"
    )
