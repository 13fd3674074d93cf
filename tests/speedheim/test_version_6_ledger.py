"""Version 6, given the usual warbands (conftest): a card read says the rule that decided it (a natural
roll, a stat missing), and a warband whose Leader dies has another hero gain the Leader skill; and
version 5, as campaigns recorded on it keep deciding."""

from __future__ import annotations

import pytest

from commands.shared import Correct
from commands.speedheim import events as se
from commands.speedheim import handlers as h
from commands.speedheim import postgame as pg
from ledger import events as ev

from .conftest import CAPTAIN, Table, of


def warbands(options: dict, version: str | None = None) -> Table:
    campaign = Table(options, version=version)
    campaign.warbands()
    return campaign


@pytest.mark.parametrize(("face", "version", "why"), [
    (3, None, "rolled 3, a natural 1-4 fails: Def stays 17"),
    (20, None, "rolled 20, a natural 20 succeeds: Def 17 -> 16"),
    (3, "5", "rolled 3, over 17: Def stays 17"),
    (20, "5", "rolled 20, 17 or under: Def 17 -> 16"),
])
def test_a_check_decided_by_a_natural_roll_says_so(face, version, why):
    """"Recall that an unmodified roll of 1-4 is always a failure for Defence, Melee, Ranged, Agility, and
    Morale Stat Checks" (and a natural 20 always succeeds, rules file §1), under natural_rolls_on_improvement."""
    campaign = warbands({"natural_rolls_on_improvement": True}, version)
    # When Gunnar (Def 17) draws a Def card and rolls a natural 3, or a natural 20
    read = of(campaign.incap("Gunnar", "Rat", [face], ["08"]), se.CardRead)[0]
    # Then the card read gives the natural roll as the reason (version 5: "over 17" of a 3, "17 or under" of a 20)
    assert (read.outcome, read.why) == ("failed" if face == 3 else "improved", why)


def deathtouched_leader(version: str | None = None, *, heroes: tuple[str, ...] = ("Jan",)) -> Table:
    """Gunnar, the Sellswords' Leader, already Deathtouched, Incapacitated by the Rat (card 20: blank) in a
    battle the Skaven won; the Sellswords' other heroes Hilde and `heroes` (Hilde dead when it is empty)."""
    campaign = warbands({}, version)
    for name in heroes:
        campaign.do(h.Recruit(warband="Sellswords", name=name, role="hero", stats=CAPTAIN, paid=False))
    if not heroes:
        campaign.do(Correct(warband="Sellswords", fighter="Hilde", reason="setup", status="dead"))
    campaign.do(Correct(warband="Sellswords", fighter="Gunnar", reason="setup", add_keywords=["Deathtouched"]))
    campaign.incap("Rat", "Gunnar", cards=["20"])
    campaign.battle(winner="Skaven")
    campaign.do(pg.Income(warband="Sellswords"))
    campaign.do(pg.Promotions(warband="Sellswords"))
    return campaign


def test_the_leader_dead_is_succeeded_by_the_hero_the_player_names():
    """"If the Leader dies, another hero gains the `Leader` skill" (rules file §2)."""
    campaign = deathtouched_leader()
    # When Gunnar's Scar is a second Deathtouched (4), with no hero named to lead
    assert campaign.refusal(pg.Scars(warband="Sellswords"), [4]) == (
        "Gunnar, the Leader of Sellswords, died: which hero gains the Leader skill: "
        "answer with --answer gunnar.new-leader=CHOICE (one of: Hilde, Jan)")
    # Then with one named, that hero gains the Leader skill, and leads: a Leader card promotes the unit that takes it out
    events = campaign.do(pg.Scars(warband="Sellswords", answers={"gunnar.new-leader": "Jan"}), [4])
    assert [(e.fighter, e.keyword, e.reason) for e in of(events, ev.KeywordGained)] == [
        ("jan", "Leader", "Gunnar, the Leader, died: a warband must always have a Leader")]
    assert h.kind_of(campaign.state.fighter("Jan"), campaign.state) == "leader"


def test_the_leader_dead_with_no_hero_left_is_said_so():
    campaign = deathtouched_leader(heroes=())
    events = campaign.do(pg.Scars(warband="Sellswords"), [4])
    assert [e.text for e in of(events, ev.NoteRecorded)] == [
        "Gunnar, the Leader, died, and no hero is left to gain the Leader skill: Sellswords has no Leader"]


def test_on_version_5_the_leader_dead_left_the_warband_without_one():
    events = deathtouched_leader("5").do(pg.Scars(warband="Sellswords"), [4])
    assert [e.fighter for e in of(events, ev.FighterDied)] == ["gunnar"]
    assert of(events, ev.KeywordGained) == [] and of(events, ev.NoteRecorded) == []


@pytest.mark.parametrize(("version", "shut"), [(None, "Rgd missing (`-`)"), ("5", "Rgd at its cap")])
def test_a_hero_with_no_rgd_drawing_mel_rgd_is_told_rgd_is_missing(version, shut):
    """"Rgd `-`: the unit has no ranged attacks" (rules file §1): missing, as the Def card says of Def `-`."""
    campaign = warbands({}, version)
    no_ranged = {stat: value for stat, value in CAPTAIN.items() if stat != "Rgd"}
    campaign.do(h.Recruit(warband="Sellswords", name="Jan", role="hero", stats=no_ranged, paid=False))
    # When Jan, who has no Rgd, draws Mel/Rgd (card 10)
    asked = campaign.refusal(h.Incapacitate(warband="Sellswords", fighter="Jan", victim="Rat"), cards=["10"])
    # Then he is asked to try Mel or draw again, Rgd named missing (version 5: "at its cap")
    assert asked == (f"Jan drew Mel/Rgd with {shut}: try Mel or draw again: answer with --answer "
                     "jan.rat.1.mel-rgd=CHOICE (one of: Mel, draw again)")
    events = campaign.do(h.Incapacitate(warband="Sellswords", fighter="Jan", victim="Rat",
                                        answers={"jan.rat.1.mel-rgd": "draw again"}), cards=["10", "02"])
    assert [(r.card, r.why) for r in of(events, se.CardRead)] == [
        ("10", f"{shut}: the player draws again instead of trying Mel"), ("02", "Atk 1 -> 2")]


@pytest.mark.parametrize(("role", "keywords"), [("leader", []), ("hero", ["leader"])])
def test_a_warband_has_one_leader(role, keywords):
    """"If the Leader dies, another hero gains the `Leader` skill; a re-hired copy of the old Leader type does
    not get it" (rules file §2): a second Leader recruited (role, or the skill as a keyword) is refused;
    with two, a succession was never asked."""
    campaign = warbands({})
    recruit = h.Recruit(warband="Sellswords", name="Gunnar II", role=role, stats=CAPTAIN, keywords=keywords, paid=False)
    assert campaign.refusal(recruit) == (
        'Sellswords is led by Gunnar: a warband has one Leader (rules §2: "a re-hired copy of the old Leader '
        'type does not get it")')
    on_5 = warbands({}, "5")
    on_5.do(recruit)
    assert [f.name for f in h.leaders_of(on_5.state, on_5.state.warband("Sellswords"))] == ["Gunnar", "Gunnar II"]


def test_keywords_given_in_one_option_separated_by_commas_are_each_a_keyword():
    """`--keyword "Animal, Undead"` was one keyword: the unit was neither an Animal (which promotes only
    on Promote!) nor Undead (immune to the Blight). Version 5 keeps it whole."""
    campaign = warbands({})
    recruit = h.Recruit(warband="Skaven", name="Brute", role="henchman", stats=CAPTAIN, keywords=["Animal, Undead"],
                        paid=False)
    campaign.do(recruit)
    assert campaign.state.fighter("Brute").keywords == ["Animal", "Undead"]
    on_5 = warbands({}, "5")
    on_5.do(recruit)
    assert on_5.state.fighter("Brute").keywords == ["Animal, Undead"]


def test_only_a_hero_has_the_leader_skill_and_a_keyword_counts_once():
    """A henchman given the Leader keyword led nothing, and let a second Leader be recruited beside it;
    "Animal, animal" was two keywords."""
    campaign = warbands({})
    assert campaign.refusal(h.Recruit(warband="Skaven", name="Boss Rat", role="henchman", stats=CAPTAIN,
                                      keywords=["Leader, Animal"], paid=False)) == (
        "a henchman cannot have the Leader skill: a hero leads (rules §2)")
    campaign.do(h.Recruit(warband="Skaven", name="Brute", role="henchman", stats=CAPTAIN, keywords=["Animal, animal"],
                          paid=False))
    assert campaign.state.fighter("Brute").keywords == ["Animal"]
