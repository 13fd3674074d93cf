"""Version 9, given the usual warbands (conftest): an arbiter's correction makes no Leader that recruiting
could not, and does not change a dead fighter's status; and version 8, as campaigns recorded on it keep deciding."""

from __future__ import annotations

import pytest

from commands.shared import Correct, UpgradeRules
from commands.speedheim import handlers as h
from ledger import events as ev

from .conftest import CAPTAIN, Table

SECOND_LEADER = ("Sellswords is led by Gunnar: a warband has one Leader (rules §2: \"a re-hired copy of the old "
                 "Leader type does not get it\")")
HENCHMAN_LEADER = "a henchman cannot have the Leader skill: a hero leads (rules §2)"


def sellswords(version: str | None = None) -> Table:
    """The Sellswords: Gunnar, their Leader, Hilde, a hero, and Ivo, a henchman."""
    campaign = Table({}, version=version)
    campaign.warbands()
    return campaign


def given_the_leader(fighter: str, keyword: str = "Leader") -> Correct:
    return Correct(warband="Sellswords", fighter=fighter, reason="leads now", add_keywords=[keyword])


def corrected(fighter: str, status: str) -> Correct:
    return Correct(warband="Sellswords", fighter=fighter, reason="a second look", status=status)


def ivo_dead(campaign: Table) -> None:
    campaign.do(corrected("Ivo", "dead"))


@pytest.mark.parametrize(("fighter", "keyword", "refusal"), [
    ("Ivo", "Leader", HENCHMAN_LEADER),  # a henchman leads nothing
    ("Ivo", "leader", HENCHMAN_LEADER),  # in any case
    ("Hilde", "Leader", SECOND_LEADER),  # "It must always have a Leader": one, Gunnar
    ("Hilde", "LEADER", SECOND_LEADER),
])
def test_the_leader_skill_is_refused_to_whom_recruiting_refuses_it(fighter, keyword, refusal):
    """Rules §2: "Leader: a hero with the inherent `Leader` skill"; "a re-hired copy of the old Leader type does not get it"."""
    campaign = sellswords()
    # When the arbiter gives the Leader skill to a henchman, or to a hero while Gunnar leads
    # Then it is refused, as recruiting them with it is, and nothing is written
    assert campaign.refusal(given_the_leader(fighter, keyword)) == refusal


def hilde_succeeded_and_deposed(campaign: Table) -> None:
    """Gunnar died, Hilde gained the Leader skill, and the arbiter took it away."""
    campaign.do(corrected("Gunnar", "dead"))
    campaign.do(Correct(warband="Sellswords", fighter="Hilde", reason="not her", remove_keywords=["Leader"]))


@pytest.mark.parametrize(("given", "fighter"), [
    (hilde_succeeded_and_deposed, "Hilde"),  # no Leader stands
    (lambda campaign: None, "Gunnar"),  # the Leader himself leads beside no one
])
def test_the_leader_skill_is_given_to_a_hero_when_no_other_leader_stands(given, fighter):
    campaign = sellswords()
    given(campaign)
    hero = campaign.state.fighter(fighter)
    # When the arbiter gives the hero the Leader skill, no other Leader standing
    events = campaign.do(given_the_leader(fighter))
    # Then he gains it
    assert events == [ev.KeywordGained(warband="sellswords", fighter=hero.id, keyword="Leader", reason="correction: leads now")]


@pytest.mark.parametrize(("status", "becomes"), [("dead", "dead again"), ("captured", "captured"), ("retired", "retired")])
def test_a_dead_fighter_is_not_corrected_to_another_status(status, becomes):
    """Rules §7: "Retirement is the same as Death except that its equipment is kept": death has no way back
    but a void of what recorded it."""
    campaign = sellswords()
    ivo_dead(campaign)
    # When the arbiter corrects dead Ivo's status
    # Then it is refused, saying how to undo a death recorded by mistake, and nothing is written
    assert campaign.refusal(corrected("Ivo", status)) == (
        f"Ivo is dead: a correction cannot make a dead fighter {becomes}; if the death was recorded by mistake, void "
        "it (campaign history Ivo shows which transaction: campaign void T… --reason …)")


@pytest.mark.parametrize(("status", "event"), [("dead", ev.FighterDied), ("retired", ev.FighterRetired)])
def test_a_captured_fighter_may_still_be_corrected_dead_or_retired(status, event):
    campaign = sellswords()
    campaign.do(corrected("Ivo", "captured"))
    # When the arbiter corrects captured Ivo dead or retired
    # Then it is recorded
    assert campaign.do(corrected("Ivo", status)) == [event(warband="sellswords", fighter="ivo",
                                                             reason="correction: a second look")]


def test_a_dead_fighter_s_other_corrections_are_taken():
    campaign = sellswords()
    ivo_dead(campaign)
    # When the arbiter corrects dead Ivo's XP (his record, not his status)
    # Then it is recorded
    assert campaign.do(Correct(warband="Sellswords", fighter="Ivo", reason="missed", xp=1)) == [
        ev.XPAwarded(warband="sellswords", fighter="ivo", amount=1, reason="correction: missed")]


@pytest.mark.parametrize(("given", "command", "event"), [
    (lambda campaign: None, given_the_leader("Ivo"), ev.KeywordGained),
    (lambda campaign: None, given_the_leader("Hilde"), ev.KeywordGained),
])
def test_on_version_8_the_correction_was_recorded(given, command, event):
    """Version 8 campaigns decide as recorded."""
    campaign = sellswords("8")
    given(campaign)
    assert [type(e) for e in campaign.do(command)] == [event]


def test_on_version_8_a_dead_fighter_s_status_correction_recorded_is_decided_again_as_it_was():
    """Typed now, every version refuses it (`campaign correct` of any ruleset); one recorded on version 8 is
    decided again as recorded (replay, voids, import)."""
    campaign = sellswords("8")
    ivo_dead(campaign)
    assert campaign.refusal(corrected("Ivo", "retired")).startswith("Ivo is dead: a correction cannot make a dead fighter retired")
    assert campaign.decided_again(corrected("Ivo", "retired")) == [ev.FighterRetired(warband="sellswords", fighter="ivo", reason="correction: a second look")]


def test_a_campaign_upgraded_from_version_8_refuses_from_its_next_correction():
    campaign = sellswords("8")
    campaign.do(given_the_leader("Ivo"))
    campaign.do(UpgradeRules(version="9"))  # `campaign rules upgrade`
    assert campaign.refusal(given_the_leader("Hilde")) == SECOND_LEADER


def test_keywords_typed_in_one_option_are_recorded_one_by_one_and_a_recorded_one_decides_as_it_was():
    campaign = sellswords()
    fear_and_hatred = Correct(warband="Sellswords", fighter="Hilde", reason="as listed", add_keywords=["Fear,Hatred"])
    # Recorded before the split (replay, voids, import decide it again, not typed now): one keyword
    assert campaign.decided_again(fear_and_hatred) == [
        ev.KeywordGained(warband="sellswords", fighter="hilde", keyword="Fear,Hatred", reason="correction: as listed")]
    # Typed now: two, and the transaction records them so
    assert campaign.do(fear_and_hatred) == [
        ev.KeywordGained(warband="sellswords", fighter="hilde", keyword=keyword, reason="correction: as listed")
        for keyword in ("Fear", "Hatred")]
    recorded = campaign.ledger.history(campaign.cid)
    assert [r.event.args["add_keywords"] for r in recorded if isinstance(r.event, ev.CommandRecorded)
            and r.event.command == "correct"] == [["Fear", "Hatred"]]


def hilde_loses(*keywords: str) -> Correct:
    return Correct(warband="Sellswords", fighter="Hilde", reason="as listed", remove_keywords=list(keywords))


def lost(*keywords: str) -> list[ev.Event]:
    return [ev.KeywordLost(warband="sellswords", fighter="hilde", keyword=keyword, reason="correction: as listed")
            for keyword in keywords]


def test_keywords_taken_away_in_one_option_are_taken_one_by_one_and_recorded_so():
    campaign = sellswords()
    campaign.do(Correct(warband="Sellswords", fighter="Hilde", reason="as listed", add_keywords=["Fear", "Hatred"]))
    # Typed now: "Fear, Hatred" is two keywords, each taken away, and the transaction records them so
    assert campaign.do(hilde_loses("Fear, Hatred")) == lost("Fear", "Hatred")
    recorded = campaign.ledger.history(campaign.cid)
    assert [r.event.args["remove_keywords"] for r in recorded if isinstance(r.event, ev.CommandRecorded)
            and r.event.command == "correct"][-1] == ["Fear", "Hatred"]


def test_a_keyword_held_with_its_comma_is_taken_away_whole_and_a_recorded_one_decides_as_it_was():
    # Given Wendel holding "Fear,Hatred" as one keyword, as version 5 recruited it (and corrections gave it before the split)
    campaign = sellswords("5")
    campaign.do(h.Recruit(warband="Sellswords", name="Wendel", role="hero", stats=CAPTAIN, keywords=["Fear,Hatred"],
                          paid=False))
    wendel_loses = Correct(warband="Sellswords", fighter="Wendel", reason="as listed", remove_keywords=["Fear,Hatred"])
    whole = [ev.KeywordLost(warband="sellswords", fighter="wendel", keyword="Fear,Hatred", reason="correction: as listed")]
    # Recorded (replay, voids, import): decided again as it was
    assert campaign.decided_again(wendel_loses) == whole
    # Typed now: the keyword he holds is taken away whole, not read as Fear and Hatred, which he does not hold
    assert campaign.do(wendel_loses) == whole
