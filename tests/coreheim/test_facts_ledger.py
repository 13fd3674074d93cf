"""Coreheim's own facts kept typed (commands/coreheim/facts.py) and the battle deeds read from the
core state: given a campaign, what the read models show and what the post-game decides are what
they were when the facts were untyped `ext` dicts and the deeds Coreheim's own."""

from __future__ import annotations

from commands.coreheim import views
from commands.coreheim.commands import Hire, Injuries
from commands.shared import EnlistWarband, RecordBattle
from ledger import events as ev
from projections.roster import ext_of, fighter_rows

from .conftest import HUMAN

RATS, SKRIT = "reikland-rats", "clan-skrit"


def test_the_roster_shows_each_warriors_type_race_skill_lists_and_advances_as_his_ext(rats_and_skaven):
    # Given the usual warbands (Gunnar a Captain hired with 20 XP, the Marksmen henchmen)
    # Then each warrior's own facts read as the roster has always shown them
    shown = {row["name"]: row["ext"] for row in fighter_rows(rats_and_skaven.state, RATS)}
    assert shown == {
        "Gunnar": {"type": "captain", "race": "human", "skill_lists": [], "advanced_to": 20},
        "Hans": {"type": "youngblood", "race": "human", "skill_lists": [], "advanced_to": 0},
        "Marksmen": {"type": "henchman", "race": "human", "skill_lists": [], "advanced_to": 0},
    }


def test_a_warbands_ext_shows_its_ratings_and_underdog_points_by_battle(rats_and_skaven):
    rats_and_skaven.battle(ooa=["Hans"], took_out={"Snikch": ["Hans"]})
    # (its deeds in the battle are the core's: the battles' read model shows them)
    assert ext_of(rats_and_skaven.state, rats_and_skaven.state.warbands[SKRIT]) == {
        "ratings": {"1": 25},
        "underdog": {"1": {"points": 0, "spent": 0}},  # 25 against 45: too close for an underdog point
    }


def test_the_facts_read_the_same_from_a_snapshot(rats_and_skaven):
    # Given two battles, whose ratings are kept by battle number
    rats_and_skaven.battle()
    rats_and_skaven.finish()
    rats_and_skaven.battle()
    state = rats_and_skaven.state
    # When the state is read back as a snapshot holds it (JSON: every key is text)
    snapshot = state.copy()
    # Then the typed facts are the same
    assert views.ratings_by_battle(snapshot) == views.ratings_by_battle(state)
    assert [row["ext"] for row in fighter_rows(snapshot, RATS)] == [row["ext"] for row in fighter_rows(state, RATS)]


def test_a_captor_who_fought_again_since_is_named_by_the_player(rats_and_skaven):
    """As recorded since version 1: the captor is read from the deeds of an enemy whose latest battle
    this still is; once he has fought again (here Skrit against Ostland), the player names him."""
    table = rats_and_skaven
    table.do(EnlistWarband(name="Ostland Guard", player="Cy", faction="mercenaries", treasury=500))
    table.do(Hire(warband="Ostland Guard", name="Dieter", type="captain", race="human", stats=HUMAN))
    # Given Snikch took Gunnar out in a battle of all three, and Skrit and Ostland then fought again
    all_three = ["Reikland Rats", "Clan Skrit", "Ostland Guard"]
    table.do(RecordBattle(participants=all_three, winner="Clan Skrit", deeds=[
        ev.Deed(fighter="gunnar", out_of_action=True), ev.Deed(fighter="snikch", took_out=["gunnar"]),
        ev.Deed(fighter="dieter")]))
    table.through("end", "Clan Skrit")
    table.through("end", "Ostland Guard")
    table.do(RecordBattle(participants=["Clan Skrit", "Ostland Guard"], winner=None,
                          deeds=[ev.Deed(fighter="snikch"), ev.Deed(fighter="dieter")]))
    table.explore_quietly()
    # When Gunnar is captured (D66 15)
    # Then the player is asked which warband took him
    assert table.refusal(Injuries(warband="Reikland Rats"), [1, 5]) == (
        "Which warband captured Gunnar?: answer with --answer gunnar:captor=CHOICE (one of: Clan Skrit, Ostland Guard)")
    events = table.do(Injuries(warband="Reikland Rats", answers={"gunnar:captor": "Clan Skrit"}), [1, 5])
    assert ev.FighterCaptured(warband=RATS, fighter="gunnar", reason="captured by Clan Skrit",
                              row="hero-injury:15") in events
