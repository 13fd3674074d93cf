"""What a unit is recruited with, and who fought, as the rules read them (version 3): given the usual
warbands (conftest), when a unit is recruited or a battle recorded, then these events or this refusal;
and version 2, as campaigns recorded on it keep deciding."""

from __future__ import annotations

import pytest

from commands.shared import Correct
from commands.speedheim import handlers as h
from .conftest import Table


def test_a_special_rule_typed_in_another_case_is_the_rule():
    """"The 'Promote!' card occurs even if an Animal … draws it (this is the only way for them to Promote)":
    a Wolf recruited with `--keyword animal` is an Animal, so a Leader card promotes it no more."""
    table = Table({})
    table.warbands()
    table.do(h.Recruit(warband="Sellswords", name="Wolf", role="henchman", stats={"mov": 6, "mel": 14, "DEF": 18, "Agi": 10, "MRL": 10, "atk": 1, "wnd": 1}, keywords=["animal"],
                       paid=False))
    wolf = table.state.fighter("Wolf")
    assert (wolf.keywords, wolf.stats) == (["Animal"], {"Mov": 6, "Mel": 14, "Def": 18, "Agi": 10, "Mrl": 10, "Atk": 1, "Wnd": 1})
    read = table.do(h.Incapacitate(warband="Sellswords", fighter="Wolf", victim="Skab"), cards=["05"])[-1]
    assert (read.outcome, read.why) == ("nothing", "promote if a Leader was Incapacitated, but not an Animal or Large henchman")


def test_on_version_2_a_keyword_and_a_stat_were_kept_as_typed():
    table = Table({}, version="2")
    table.warbands()
    table.do(h.Recruit(warband="Sellswords", name="Wolf", role="henchman", stats={"mel": 14}, keywords=["animal"], paid=False))
    assert (table.state.fighter("Wolf").keywords, table.state.fighter("Wolf").stats) == (["animal"], {"mel": 14})
    read = table.do(h.Incapacitate(warband="Sellswords", fighter="Wolf", victim="Skab"), cards=["05"])[-1]
    assert (read.outcome, read.why) == ("promote", "promote: it Incapacitated a Leader")


@pytest.mark.parametrize(
    "stats, refusal",
    [
        ({"Foo": 3}, "Foo: not a Speedheim stat (Mov Mel Rgd Def Agi Mrl Atk Wnd Inj Prc)"),
        ({"Mel": 12, "mel": 13}, "a stat is given twice: Mel, mel"),
        ({"Def": -2}, "Def=-2: a stat is 0 or more (leave a '-' stat out)"),
    ],
)
def test_a_stat_the_rules_do_not_know_is_refused(table, stats, refusal):
    assert table.refusal(h.Recruit(warband="Sellswords", name="Wolf", role="henchman", stats=stats)) == refusal


def test_a_modifier_names_a_stat_and_may_be_below_zero(table):
    assert table.refusal(h.SetModifiers(warband="Sellswords", fighter="Gunnar", modifiers={"Bar": 3})) == (
        "Bar: not a Speedheim stat (Mov Mel Rgd Def Agi Mrl Atk Wnd Inj Prc)")
    events = table.do(h.SetModifiers(warband="Sellswords", fighter="Gunnar", modifiers={"mel": -2}))
    assert events[0].modifiers == {"Mel": -2}


@pytest.mark.parametrize(
    "incaps, refusal",
    [
        ([h.Incap(fighter="Hilde", victim="Rat")], "Hilde is --absent, yet Incapacitated Rat in this battle"),
        ([h.Incap(fighter="Rat", victim="Hilde")], "Hilde is --absent, yet was Incapacitated in this battle"),
        ([h.Incap(fighter=None, victim="Hilde")], "Hilde is --absent, yet was Incapacitated in this battle"),
    ],
)
def test_a_unit_absent_from_the_battle_neither_incapacitates_nor_is_incapacitated(table, incaps, refusal):
    """"Whenever a unit Incapacitates an opponent, that unit draws": a unit that did not fight did neither. Refused
    before the first draw (no card is given): after it, the ledger's card was seen and the battle left pending."""
    battle = h.RecordSpeedheimBattle(participants=["Sellswords", "Skaven"], winner="Sellswords", absent=["Hilde"],
                                     incapacitations=incaps)
    assert table.refusal(battle) == refusal


def test_on_version_2_an_absent_unit_could_incapacitate():
    table = Table({}, version="2")
    table.warbands()
    table.do(h.RecordSpeedheimBattle(participants=["Sellswords", "Skaven"], winner="Sellswords", absent=["Ivo"],
                                     incapacitations=[h.Incap(fighter="Ivo", victim="Rat")]), cards=["05"])
    assert table.state.battles_fought == 1


def test_a_hero_who_gained_the_leader_skill_is_a_leader_to_the_unit_that_incapacitates_it(table):
    """Rules §2: "If the Leader dies, another hero gains the `Leader` skill"; then a henchman drawing "Promote
    a non-Animal, non-Large Henchman if the Incapacitated unit is a Leader!" (card 05) for taking it out promotes."""
    table.do(Correct(warband="Skaven", fighter="Skab", reason="fell", status="dead"))
    table.do(Correct(warband="Skaven", fighter="Rikk", reason="leads now", add_keywords=["Leader"]))
    read = table.do(h.Incapacitate(warband="Sellswords", fighter="Ivo", victim="Rikk", kind="leader"), cards=["05"])[-1]
    assert (read.outcome, read.why) == ("promote", "promote: it Incapacitated a Leader")


def test_on_version_2_a_hero_with_the_leader_skill_was_still_a_hero():
    table = Table({}, version="2")
    table.warbands()
    table.do(Correct(warband="Skaven", fighter="Rikk", reason="leads now", add_keywords=["Leader"]))
    assert table.refusal(h.Incapacitate(warband="Sellswords", fighter="Ivo", victim="Rikk", kind="leader"),
                         cards=["05"]) == "Rikk is a hero, not a leader"
