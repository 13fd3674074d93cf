"""Version 8, given the usual warbands (conftest): an arbiter's correction that takes a warband's last Leader
with a hero left does the post-game's succession, another hero gaining the Leader skill; and version 7, as
campaigns recorded on it keep deciding."""

from __future__ import annotations

import pytest

from commands.shared import Correct, UpgradeRules
from commands.speedheim import handlers as h
from commands.speedheim import postgame as pg
from ledger import events as ev

from .conftest import CAPTAIN, Table, of

QUESTION = ("Gunnar, the Leader of Sellswords, died: which hero gains the Leader skill: "
            "answer with --answer gunnar.new-leader=CHOICE (one of: Hilde, Jan)")


def sellswords(version: str | None = None, *, heroes: tuple[str, ...] = ()) -> Table:
    """The Sellswords: Gunnar, their Leader, Hilde, a hero, `heroes` recruited as heroes too, and Ivo, a henchman."""
    campaign = Table({}, version=version)
    campaign.warbands()
    for name in heroes:
        campaign.do(h.Recruit(warband="Sellswords", name=name, role="hero", stats=CAPTAIN, paid=False))
    return campaign


def gunnar_corrected(status: str = "dead", **answers: str) -> Correct:
    return Correct(warband="Sellswords", fighter="Gunnar", reason="fell off the bridge", status=status,
                   answers={f"{key}.new-leader": hero for key, hero in answers.items()})


@pytest.mark.parametrize(("status", "event", "gone"), [
    ("dead", ev.FighterDied, "died"),
    ("captured", ev.FighterCaptured, "was captured"),
    ("retired", ev.FighterRetired, "retired"),
])
def test_the_last_leader_corrected_away_is_succeeded_by_the_only_hero_left_unasked(status, event, gone):
    """"It must always have a Leader"; "If the Leader dies, another hero gains the `Leader` skill" (rules file §2)."""
    campaign = sellswords()
    # When the arbiter corrects Gunnar, the Sellswords' only Leader, to dead, captured or retired, Hilde their only hero left
    events = campaign.do(gunnar_corrected(status))
    # Then that is recorded, and Hilde gains the Leader skill, unasked, as in the post-game; and she leads
    assert events == [event(warband="sellswords", fighter="gunnar", reason="correction: fell off the bridge"),
                      ev.KeywordGained(warband="sellswords", fighter="hilde", keyword="Leader",
                                       reason=f"Gunnar, the Leader, {gone}: a warband must always have a Leader")]
    assert h.kind_of(campaign.state.fighter("Hilde"), campaign.state) == "leader"


def test_with_several_heroes_left_the_one_the_player_names_gains_the_leader_skill():
    campaign = sellswords(heroes=("Jan",))
    # When Gunnar is corrected dead with no hero named, Hilde and Jan left
    # Then the question is the post-game's, under its key, and nothing is written
    assert campaign.refusal(gunnar_corrected()) == QUESTION
    # And with Jan named, Jan gains the Leader skill
    events = campaign.do(gunnar_corrected(gunnar="Jan"))
    assert [(e.fighter, e.keyword) for e in of(events, ev.KeywordGained)] == [("jan", "Leader")]


def test_the_correction_and_a_scar_ask_one_question_and_decide_one_succession():
    """One succession serves both: the post-game's Scar death and the correction ask alike and record alike."""
    corrected = sellswords(heroes=("Jan",))
    scarred = sellswords(heroes=("Jan",))
    scarred.do(Correct(warband="Sellswords", fighter="Gunnar", reason="setup", add_keywords=["Deathtouched"]))
    scarred.incap("Rat", "Gunnar", cards=["20"])
    scarred.battle(winner="Skaven")
    scarred.do(pg.Income(warband="Sellswords"))
    scarred.do(pg.Promotions(warband="Sellswords"))
    # When Gunnar dies of a second Deathtouched (Scar 4), and when he is corrected dead
    assert scarred.refusal(pg.Scars(warband="Sellswords"), [4]) == corrected.refusal(gunnar_corrected()) == QUESTION
    by_scar = of(scarred.do(pg.Scars(warband="Sellswords", answers={"gunnar.new-leader": "Jan"}), [4]), ev.KeywordGained)
    by_correction = of(corrected.do(gunnar_corrected(gunnar="Jan")), ev.KeywordGained)
    assert by_scar == by_correction


def test_a_hero_named_who_is_not_left_is_refused_naming_those_who_are():
    campaign = sellswords(heroes=("Jan",))
    assert campaign.refusal(gunnar_corrected(gunnar="Ivo")) == (
        "Gunnar, the Leader of Sellswords, died: which hero gains the Leader skill: 'Ivo' is not one of: Hilde, Jan")


def twice_led(campaign: Table) -> None:
    """Hilde was given the Leader skill beside Gunnar."""
    campaign.do(Correct(warband="Sellswords", fighter="Hilde", reason="setup", add_keywords=["Leader"]))


def gunnar_dead_already(campaign: Table) -> None:
    campaign.do(gunnar_corrected(gunnar="Hilde"))  # Hilde gained the Leader skill then


@pytest.mark.parametrize(("version", "given", "fighter", "status"), [
    ("8", twice_led, "Gunnar", "dead"),  # Hilde leads on (from version 9 no correction makes a second Leader)
    ("8", gunnar_dead_already, "Gunnar", "retired"),  # he was gone already: Hilde leads (refused from version 9)
    (None, lambda campaign: None, "Hilde", "dead"),  # a hero who does not lead
    (None, lambda campaign: None, "Ivo", "dead"),  # a henchman leads nothing
    (None, lambda campaign: None, "Gunnar", None),  # a Leader corrected, not gone
])
def test_a_correction_that_leaves_the_warband_a_leader_gives_no_one_the_leader_skill(version, given, fighter, status):
    campaign = sellswords(version, heroes=("Jan",))
    given(campaign)
    # Version 8 as recorded: typed now, no version corrects a dead fighter's status
    decided = campaign.do if version is None else campaign.decided_again
    events = decided(Correct(warband="Sellswords", fighter=fighter, reason="y", status=status, xp=1))
    assert of(events, ev.KeywordGained) == [] and of(events, ev.NoteRecorded) == []


def test_an_answer_to_a_correction_that_asks_nothing_is_refused():
    campaign = sellswords(heroes=("Jan",))
    assert campaign.refusal(Correct(warband="Sellswords", fighter="Hilde", reason="y", status="dead",
                                    answers={"gunnar.new-leader": "Jan"})) == (
        "--answer gunnar.new-leader: not a question of correct (its keys: none: it asks no questions)")


@pytest.mark.parametrize("heroes", [(), ("Jan",)])
def test_on_version_7_the_correction_gave_no_hero_the_leader_skill_and_asked_nothing(heroes):
    """Version 7 campaigns decide as recorded: the death alone, the arbiter giving the skill by hand."""
    events = sellswords("7", heroes=heroes).do(gunnar_corrected())
    assert events == [ev.FighterDied(warband="sellswords", fighter="gunnar", reason="correction: fell off the bridge")]


def test_on_version_7_an_answer_for_the_leader_skill_is_no_question_of_the_correction():
    campaign = sellswords("7", heroes=("Jan",))
    assert campaign.refusal(gunnar_corrected(gunnar="Jan")) == (
        "--answer gunnar.new-leader: not a question of correct (its keys: none: it asks no questions)")


def test_a_campaign_upgraded_from_version_7_succeeds_from_its_next_correction():
    campaign = sellswords("7", heroes=("Jan",))
    campaign.do(Correct(warband="Sellswords", fighter="Jan", reason="deserted", status="retired"))
    campaign.do(UpgradeRules(version="8"))  # `campaign rules upgrade`
    assert [(e.fighter, e.keyword) for e in of(campaign.do(gunnar_corrected()), ev.KeywordGained)] == [("hilde", "Leader")]
