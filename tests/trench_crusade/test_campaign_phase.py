"""The rest of the Campaign Phase through the ledger: recording a battle, Trauma, ransoms,
Experience, Advancement Rolls and Exploration, the step order, and house-rule options.
Values come from shared/rules/trench-crusade.md (sections 4-10) and the tables in data/."""

from __future__ import annotations

import re

import msgspec
import pytest

from commands.shared import AwardXP, ChangeTreasury, Correct, GainItem, RecordBattle, RecruitFighter
from commands.trench_crusade import RULESET
from commands.trench_crusade import events as tc
from commands.trench_crusade.commands import (
    Advancement,
    AdvanceRoll,
    Experience,
    Exploration,
    Promotions,
    Ransom,
    RecordTrenchBattle,
    Recruit,
    Trauma,
)
from commands.trench_crusade.views import status_of
from ledger import events as ev
from ledger.campaigns import Ledger
from ledger.errors import BadInput, LedgerError, NeedsDice, RuleViolation
from ledger.store import Store
from projections.roster import fighter_row

from .conftest import Table


def d6(roll: int, purpose: str, face: int) -> ev.DiceRolled:
    return ev.DiceRolled(roll=roll, expression="D6", purpose=purpose, faces=[face], value=face, source="table")


def d66(roll: int, purpose: str, tens: int, units: int) -> ev.DiceRolled:
    return ev.DiceRolled(roll=roll, expression="D66", purpose=purpose, faces=[tens, units], value=tens * 10 + units, source="table")


def step(name: str, battle: int = 1, warband: str = "pilgrims") -> ev.PostGameStepDone:
    return ev.PostGameStepDone(warband=warband, battle=battle, step=name)


def trauma_done(elite: list[str], battle: int = 1) -> list[ev.Event]:
    """The end of the Trauma step: the Promotions & Experience Phase begins with these ELITE (ids), from 1.6.0."""
    return [tc.PromotionsPhaseBegun(warband="pilgrims", battle=battle, elite=elite), step("trauma", battle=battle)]


@pytest.fixture
def campaign(table):
    table.pilgrims()
    table.legion()
    return table


# --- recording a battle ------------------------------------------------------------------------


def test_a_battle_keeps_each_warbands_force_casualties_and_deeds(campaign):
    events = campaign.battle(deeds={"Gaius": ["Headshot"], "Anna": ["good-hunting"]}, ooa=["Bert", "Baal"],
                             warband_deeds={"Pilgrims": ["Victory or Death"]}, scenario="Trench Warfare")
    deeds = [ev.Deed(fighter="gaius", glorious_deeds=["headshot"]), ev.Deed(fighter="anna", glorious_deeds=["good-hunting"]),
             ev.Deed(fighter="bert", out_of_action=True), ev.Deed(fighter="carl"), ev.Deed(fighter="baal", out_of_action=True)]
    assert events == [
        ev.BattleRecorded(battle=1, participants=["pilgrims", "legion"], winner="pilgrims", scenario="trench-warfare", deeds=deeds),
        tc.BattleRecordKept(
            warband="pilgrims", battle=1, scenario="trench-warfare", result="win", enemies=["legion"],
            force=["gaius", "anna", "bert", "carl"], out_of_action=["bert"],
            deeds=[tc.DeedEntry(deed="headshot", fighter="gaius"), tc.DeedEntry(deed="good-hunting", fighter="anna"),
                   tc.DeedEntry(deed="victory-or-death")],
        ),
        tc.GloryChanged(warband="pilgrims", delta=3, reason="Glorious Deeds in battle 1"),
        tc.BattleRecordKept(warband="legion", battle=1, scenario="trench-warfare", result="loss", enemies=["pilgrims"],
                            force=["baal"], out_of_action=["baal"]),
    ]
    assert tc.band_facts(campaign.state, "pilgrims").glory == 3


def test_the_shared_battle_command_is_checked_the_same_way(campaign):
    battle = RecordBattle(participants=["Pilgrims", "Legion"], scenario="dragon-hunt",
                          deeds=[ev.Deed(fighter="Gaius", glorious_deeds=["dragon-slayer"]), ev.Deed(fighter="Baal")])
    assert campaign.do(battle)[2] == tc.GloryChanged(warband="pilgrims", delta=2, reason="Glorious Deeds in battle 1")


@pytest.mark.parametrize(
    ("battle", "message"),
    [
        pytest.param(dict(deeds={"Gaius": ["sniper"]}), "'sniper' is not a Glorious Deed of Trench Warfare", id="deed of another scenario"),
        pytest.param(dict(deeds={"Gaius": ["headshot"], "Baal": ["headshot"]}),
                     "Headshot can be completed only once per game, by the first warband to do it", id="once per game"),
        pytest.param(dict(winner="Legion", warband_deeds={"Pilgrims": ["victory-or-death"]}),
                     "Victory or Death needs the game to be won", id="Victory or Death needs a win"),
        pytest.param(dict(warband_deeds={"Pilgrims": ["headshot"]}), "Headshot must be credited to a model of the Force",
                     id="a model's deed has a doer"),
    ],
)
def test_refused_battles(campaign, battle, message):
    before = campaign.state.position
    with pytest.raises(LedgerError) as refused:
        campaign.battle(**battle)
    assert str(refused.value) == message
    assert campaign.state.position == before


SCENARIOS = ("I Claim No Man's Land, II Hunt for Heroes, III Relic Hunt, IV Trench Warfare, V Armoured Train, "
             "VI Dragon Hunt, VII Supply Raid, VIII From Below, IX Fields of Glory, X Don't Breathe, XI The High Ground, "
             "XII The Great War")


@pytest.mark.parametrize(("scenario", "message"), [
    # Rules §3: the scenarios are I Claim No Man's Land … XII The Great War; "Hill 223" is the playtest's (C7)
    ("Hill 223", f"there is no scenario 'Hill 223' (scenarios: {SCENARIOS}; the numeral may be left out)"),
    # The shared `battle record` gives no --scenario unless asked: "there is no scenario ''" said nothing of it
    ("", f"a Trench Crusade battle names its scenario: give --scenario one of {SCENARIOS}"),
])
def test_an_unknown_or_missing_scenario_is_bad_input_naming_the_scenarios(campaign, scenario, message):
    before = campaign.state.position
    with pytest.raises(BadInput) as refused:
        campaign.battle(scenario=scenario)
    assert str(refused.value) == message
    assert campaign.state.position == before


def test_an_unknown_glorious_deed_is_bad_input_naming_the_scenarios_deeds(campaign):
    with pytest.raises(BadInput) as refused:
        campaign.battle(deeds={"Gaius": ["Head Shot!"]})
    assert str(refused.value) == ("there is no Glorious Deed 'Head Shot!' (the deeds of Trench Warfare: Good Hunting, "
                                  "Headshot, Hold Your Ground, Into the Trenches!, Survive to Tell the Tale, Victory or Death)")


@pytest.mark.parametrize(("named", "scenario"), [
    ("IV Trench Warfare", "trench-warfare"),  # as rules §3 lists it, after its numeral
    ("iv. trench warfare", "trench-warfare"),
    ("TRENCH WARFARE", "trench-warfare"),
    ("trench-warfare", "trench-warfare"),
    ("I Claim No Man's Land", "i-claim-no-mans-land"),
    ("Claim No Man's Land", "i-claim-no-mans-land"),  # its numeral left out, as the others' may be
    ("claim no mans land", "i-claim-no-mans-land"),
    ("i-claim-no-mans-land", "i-claim-no-mans-land"),
    ("xii the great war", "the-great-war"),
])
def test_a_scenario_is_named_with_or_without_its_numeral_in_any_case(campaign, named, scenario):
    """Rules §3 names each scenario after its numeral ("IV Trench Warfare"); the battle records the scenario's id."""
    battle = campaign.battle(scenario=named, winner=None)[0]
    assert isinstance(battle, ev.BattleRecorded) and battle.scenario == scenario


def test_side_deeds_need_the_attacker_named(campaign):
    raid = RecordTrenchBattle(participants=["Pilgrims", "Legion"], scenario="supply-raid", attacker="Legion",
                              deeds=[ev.Deed(fighter="Gaius", glorious_deeds=["daring-raid"]), ev.Deed(fighter="Baal")])
    assert campaign.refusal(raid) == "Daring Raid can only be done by the attacker"


# --- the Campaign Phase order ------------------------------------------------------------------


def test_steps_run_in_order_once_per_battle(campaign):
    assert campaign.refusal(Trauma(warband="Pilgrims")) == "Pilgrims has not fought a battle yet"
    campaign.battle()
    assert campaign.refusal(Promotions(warband="Pilgrims", even=True)) == (
        "Pilgrims must do the Trauma step for battle 1 first (the Campaign Phase goes Trauma, Promotions, Experience, Advancement, Exploration, Quartermaster, Roster)"
    )
    assert campaign.do(Trauma(warband="Pilgrims")) == trauma_done(["gaius"])
    assert campaign.refusal(Trauma(warband="Pilgrims")) == "Pilgrims has already done the Trauma step for battle 1"
    campaign.finish_phases(promotions=[1])  # no deeds: Anna rolls the one Promotion Die
    campaign.battle()
    assert campaign.do(Trauma(warband="Pilgrims")) == trauma_done(["gaius"], battle=2)


# --- Trauma ------------------------------------------------------------------------------------------


def test_troops_roll_survival_first_then_elite_roll_d66(campaign):
    campaign.battle(ooa=["Gaius", "Bert", "Anna"])
    assert campaign.do(Trauma(warband="Pilgrims"), [2, 3, 3, 5]) == [
        d6(0, "Survival Roll for Anna", 2),
        tc.TraumaResolved(warband="pilgrims", fighter="anna", rolls=[2], row="survival-1-2-removed", result="removed"),
        ev.FighterDied(warband="pilgrims", fighter="anna", reason="Survival Roll 2", row="survival-1-2-removed"),
        d6(1, "Survival Roll for Bert", 3),
        tc.TraumaResolved(warband="pilgrims", fighter="bert", rolls=[3], row="survival-3-6-fine", result="survives"),
        d66(2, "Trauma roll for Gaius", 3, 5),
        tc.TraumaResolved(warband="pilgrims", fighter="gaius", rolls=[35], row="d66-35-minor-wound", result="Minor Wound", battle_scars=1),
        ev.InjurySuffered(warband="pilgrims", fighter="gaius", injury="Minor Wound", row="d66-35-minor-wound", missed_games=1),
        *trauma_done(["gaius"]),
    ]


def wounded(table, *d66_faces: tuple[int, int]) -> list[ev.Event]:
    """A battle per D66 result in which Gaius alone goes Out of Action, each after the last one's
    Campaign Phase is finished (which rolls Anna's Promotion Die: roll numbers go on from it);
    the last Trauma's events."""
    events: list[ev.Event] = []
    for faces in d66_faces:
        table.finish_phases(promotions=[1])
        table.battle(ooa=["Gaius"])
        events = table.do(Trauma(warband="Pilgrims"), faces)
    return events


GAIUS_TRAUMA = "Trauma roll for Gaius"


@pytest.mark.parametrize(
    ("rolls", "then"),
    [
        pytest.param([(1, 1)], [
            tc.TraumaResolved(warband="pilgrims", fighter="gaius", rolls=[11], row="d66-11-dead", result="Dead"),
            ev.FighterDied(warband="pilgrims", fighter="gaius", reason="Trauma 11 Dead", row="d66-11-dead"),
        ], id="11 Dead"),
        pytest.param([(6, 4)], [
            tc.TraumaResolved(warband="pilgrims", fighter="gaius", rolls=[64], row="d66-64-hardened", result="Hardened"),
            ev.KeywordGained(warband="pilgrims", fighter="gaius", keyword="NEGATE FEAR", reason="Trauma 64 Hardened"),
        ], id="64 Hardened: no scar, a keyword"),
        pytest.param([(3, 6)], [
            tc.TraumaResolved(warband="pilgrims", fighter="gaius", rolls=[36], row="d66-36-robbed", result="Robbed"),
            ev.ItemLost(warband="pilgrims", fighter="gaius", item="Holy Icon", reason="Trauma 36 Robbed"),
        ], id="36 Robbed: its Battlekit is lost"),
        pytest.param([(2, 4)], [
            tc.TraumaResolved(warband="pilgrims", fighter="gaius", rolls=[24], row="d66-24-dark-memory", result="Dark Memory",
                              battle_scars=1, enemies=["legion"]),
            ev.InjurySuffered(warband="pilgrims", fighter="gaius", injury="Dark Memory", row="d66-24-dark-memory"),
        ], id="24 Dark Memory names the enemy"),
    ],
)
def test_elite_trauma_results(campaign, rolls, then):
    campaign.do(GainItem(warband="Pilgrims", fighter="Gaius", item="Holy Icon"))
    d66_roll, *consequences = wounded(campaign, *rolls)
    assert d66_roll == d66(0, GAIUS_TRAUMA, *rolls[0])
    assert consequences == [*then, *trauma_done([] if rolls == [(1, 1)] else ["gaius"])]  # 11 Dead: no ELITE left


def test_the_enemy_a_dark_memory_records_is_in_the_status_and_on_the_roster_card(campaign):
    """Rules §5, D66 24 Dark Memory: "record that game's enemy warband; −1 DICE melee vs it"."""
    wounded(campaign, (2, 4))
    state = campaign.state
    assert status_of(state, "Pilgrims")["elite"][0]["trauma_against"] == ["Legion (Dark Memory)"]
    shown = RULESET.terms.facts_of(fighter_row(state, state.fighter("Gaius"))["ext"])
    assert ("Trauma against", "Legion (Dark Memory)") in shown  # the roster sheets' and the report's line


def test_bitter_lessons_rolls_d3_xp(campaign):
    events = wounded(campaign, (6, 5, 5))  # D66 65, then a D3 of 5 (halved up: 3)
    assert events[2:] == [
        ev.DiceRolled(roll=1, expression="D3", purpose="Bitter Lessons XP for Gaius", faces=[5], value=3, source="table"),
        ev.XPAwarded(warband="pilgrims", fighter="gaius", amount=3, reason="Trauma 65 Bitter Lessons"),
        tc.AdvancementEarned(warband="pilgrims", fighter="gaius", circle="circle-2", xp=2),
        *trauma_done(["gaius"]),
    ]


def test_a_repeated_injury_is_rolled_again(campaign):
    wounded(campaign, (3, 5))  # battle 1: a Minor Wound, so Gaius misses the next game
    campaign.finish_phases(promotions=[1])
    assert campaign.battle()[0].deeds[0].fighter == "anna"  # battle 2 is fought without Gaius
    assert campaign.state.fighters["gaius"].missed_games == 0
    campaign.do(Trauma(warband="Pilgrims"))
    events = wounded(campaign, (3, 5, 6, 6))
    # R0 is battle 1's Trauma roll, R1 and R2 Anna's Promotion Dice in the phases of battles 1 and 2,
    # R3 and R4 Baal's Advancement Roll (his 2nd XP, from battle 2, reaches a circle).
    assert events == [
        d66(5, GAIUS_TRAUMA, 3, 5),
        d66(6, f"{GAIUS_TRAUMA} (roll 2: an injury it already has is rolled again)", 6, 6),
        tc.TraumaResolved(warband="pilgrims", fighter="gaius", rolls=[35, 66], row="d66-66-prominent-scar", result="Prominent Scar",
                          rerolled=["d66-35-minor-wound"], battle_scars=1, enemies=["legion"]),
        *trauma_done(["gaius"], battle=3),
    ]


def test_the_third_battle_scar_makes_the_model_unfit_and_its_kit_goes_to_the_arsenal(campaign):
    campaign.do(GainItem(warband="Pilgrims", fighter="Gaius", item="Holy Icon"))
    events = wounded(campaign, (1, 4), (1, 6), (3, 1))
    assert events[1:] == [
        tc.TraumaResolved(warband="pilgrims", fighter="gaius", rolls=[31], row="d66-31-leg-wound", result="Leg Wound",
                          battle_scars=3, unfit_for_duty=True),
        ev.InjurySuffered(warband="pilgrims", fighter="gaius", injury="Leg Wound", row="d66-31-leg-wound"),
        ev.FighterRetired(warband="pilgrims", fighter="gaius", reason="Unfit for Duty: 3 Battle Scars"),
        ev.ItemLost(warband="pilgrims", fighter="gaius", item="Holy Icon", reason="Gaius is Unfit for Duty"),
        ev.ItemGained(warband="pilgrims", item="Holy Icon", reason="from Gaius: Gaius is Unfit for Duty"),
        *trauma_done([], battle=3),
    ]
    assert campaign.state.warbands["pilgrims"].stash == ["Holy Icon"]


def test_a_second_lost_eye_removes_the_model(campaign):
    events = wounded(campaign, (1, 5), (1, 5))
    assert events[1:3] == [
        tc.TraumaResolved(warband="pilgrims", fighter="gaius", rolls=[15], row="d66-15-lost-an-eye", result="Lost an Eye", battle_scars=1),
        ev.FighterRetired(warband="pilgrims", fighter="gaius", reason="a 2nd Lost an Eye: removed from the roster"),
    ]


def test_a_captured_model_is_ransomed_or_executed(campaign):
    capture = wounded(campaign, (1, 2))
    assert capture[2] == ev.FighterCaptured(warband="pilgrims", fighter="gaius", reason="Trauma 12 Captured: ransom to be settled",
                                            row="d66-12-captured")
    assert campaign.refusal(Ransom(warband="Pilgrims", fighter="Gaius", paid=800)) == (
        "Pilgrims has 700 ducats in the Strongbox; the ransom is 800"
    )
    assert campaign.do(Ransom(warband="Pilgrims", fighter="Gaius", paid=50)) == [
        ev.TreasuryChanged(warband="pilgrims", delta=-50, reason="ransom for Gaius"),
        ev.TreasuryChanged(warband="legion", delta=50, reason="ransom for Gaius of Pilgrims"),
        tc.FighterRansomed(warband="pilgrims", fighter="gaius", ducats=50, to_warband="legion"),
    ]
    assert campaign.state.fighters["gaius"].status == "active"
    assert campaign.refusal(Ransom(warband="Pilgrims", fighter="Gaius")) == "Gaius is not captured"
    wounded(campaign, (1, 2))
    assert campaign.do(Ransom(warband="Pilgrims", fighter="Gaius")) == [
        ev.FighterDied(warband="pilgrims", fighter="gaius", reason="executed: the ransom was not paid"),
    ]


def test_the_shared_fighter_add_cannot_make_a_seventh_elite(table):
    # Given Pilgrims with 6 ELITE,
    table.pilgrims(elites=["E1", "E2", "E3", "E4", "E5"])
    # when a 7th ELITE joins through the shared `fighter add`,
    refusal = table.refusal(RecruitFighter(warband="Pilgrims", name="E6", role="Sniper Priest", keywords=["ELITE"], paid=False))
    # then it is refused as `trench-crusade recruit --elite` is, while a Troop may still join.
    assert refusal == "Pilgrims already has 6 ELITE models, the most a warband may have"
    table.do(RecruitFighter(warband="Pilgrims", name="Dora", role="Trench Pilgrim", paid=False))
    assert table.state.fighters["dora"].keywords == []


def test_a_pending_ransom_holds_the_phase_so_a_captive_cannot_return_as_a_seventh_elite(table):
    # Given Pilgrims with 6 ELITE, one of them (E5) Captured in the Trauma step,
    table.pilgrims(elites=["E1", "E2", "E3", "E4", "E5"])
    table.legion()
    table.battle(ooa=["E5"], deeds={"Anna": ["headshot"]})
    table.do(Trauma(warband="Pilgrims"), [1, 2])
    # when the player goes on to Promotions before settling the ransom,
    refusal = table.refusal(Promotions(warband="Pilgrims", even=True), [6])
    # then it is refused (5 ELITE on the roster would let Anna become a 6th, and E5 a 7th on its return),
    assert refusal == "E5 is Captured: settle the ransom (trench-crusade ransom, paid or unpaid) before the Promotions step"
    # and once E5 is ransomed the step sees 6 ELITE and is skipped.
    table.do(Ransom(warband="Pilgrims", fighter="E5", paid=10))
    assert table.do(Promotions(warband="Pilgrims")) == [tc.PromotionsSkipped(warband="pilgrims", elite=6), step("promotions")]


# --- Experience and Advancement --------------------------------------------------------------


def through_promotions(table, dice=(), **battle) -> None:
    table.battle(**battle)
    table.do(Trauma(warband="Pilgrims"))
    table.do(Promotions(warband="Pilgrims", even=True), dice)


def test_a_warband_deed_gives_its_xp_to_the_leader(campaign):
    through_promotions(campaign, [1, 1], warband_deeds={"Pilgrims": ["victory-or-death"]})
    assert campaign.do(Experience(warband="Pilgrims")) == [
        ev.XPAwarded(warband="pilgrims", fighter="gaius", amount=1, reason="battle 1: survived"),
        ev.XPAwarded(warband="pilgrims", fighter="gaius", amount=1, reason="battle 1: warband-deed-leader"),
        tc.AdvancementEarned(warband="pilgrims", fighter="gaius", circle="circle-2", xp=2),
        step("experience"),
    ]


COUNTED_ONCE = {
    # Rules §6.4 "never more than +1 for deeds": Gaius's own deed and the warband's give one XP, and it says so
    None: "battle 1: glorious-deed and warband-deed-leader, counted once: at most 1 XP for deeds in a game",
    "1.6.0": "battle 1: glorious-deed",  # the same XP, its reason naming his own deed alone
}


@pytest.mark.parametrize("version", COUNTED_ONCE)
def test_a_leaders_own_deed_and_the_warbands_give_one_xp_counted_once(version):
    table = Table({}, version=version)
    table.pilgrims()
    table.legion()
    through_promotions(table, [1, 1, 1], deeds={"Gaius": ["headshot"]}, warband_deeds={"Pilgrims": ["victory-or-death"]})
    assert table.do(Experience(warband="Pilgrims"))[:2] == [
        ev.XPAwarded(warband="pilgrims", fighter="gaius", amount=1, reason="battle 1: survived"),
        ev.XPAwarded(warband="pilgrims", fighter="gaius", amount=1, reason=COUNTED_ONCE[version]),
    ]


def test_with_two_leaders_the_player_chooses(campaign):
    campaign.do(Recruit(warband="Pilgrims", name="Ezra", model="Sniper Priest", elite=True, keywords=["LEADER"], paid=False))
    through_promotions(campaign, [1, 1], warband_deeds={"Pilgrims": ["victory-or-death"]})
    with pytest.raises(NeedsDice) as asked:
        campaign.do(Experience(warband="Pilgrims"))
    assert str(asked.value) == ("Which ELITE LEADER gains the XP of the warband's Glorious Deed?: "
                                "answer with --answer leader=CHOICE (one of: Gaius, Ezra)")
    events = campaign.do(Experience(warband="Pilgrims", answers={"leader": "Ezra"}))
    assert ev.XPAwarded(warband="pilgrims", fighter="ezra", amount=1, reason="battle 1: warband-deed-leader") in events


@pytest.mark.parametrize(("version", "blocked"), [
    (None, ev.XPAwarded(warband="pilgrims", fighter="gaius", amount=0,
                        reason="battle 1: survived (blocked by a Head Wound: 1 XP not gained)")),
    # 1.4.0 recorded the block as a cap: "Gaius gains 0 XP, capped from 1 (…, Head Wound: gains no more XP)"
    ("1.4.0", ev.XPAwarded(warband="pilgrims", fighter="gaius", amount=0, requested=1,
                           reason="battle 1: survived (Head Wound: gains no more XP)")),
])
def test_a_head_wound_blocks_xp(version, blocked):
    """Rules §5, D66 22 Head Wound: "gains no more XP" — a block, not the 18 (or 7) XP cap."""
    table = Table({}, version=version)
    table.pilgrims()
    table.legion()
    wounded(table, (2, 2))
    table.do(Promotions(warband="Pilgrims", even=True), [1])
    assert table.do(Experience(warband="Pilgrims"))[0] == blocked


# Rules §6.4: "Roster boxes filled left→right; reaching a circle box = one Advancement Roll. Circles
# at 2, 4, 7, 10, 14, 18 XP". The box is reached whatever filled it: the Experience step, an
# arbiter's `xp award`, or an arbiter's `correct --xp`.
CIRCLES_2_AND_4 = [tc.AdvancementEarned(warband="pilgrims", fighter="gaius", circle="circle-2", xp=2),
                   tc.AdvancementEarned(warband="pilgrims", fighter="gaius", circle="circle-4", xp=4)]


@pytest.mark.parametrize(
    ("given_xp", "when", "then"),
    [
        pytest.param(0, AwardXP(warband="Pilgrims", fighter="Gaius", amount=4, reason="missed"),
                     [ev.XPAwarded(warband="pilgrims", fighter="gaius", amount=4, reason="missed"), *CIRCLES_2_AND_4],
                     id="xp award"),
        pytest.param(0, Correct(warband="Pilgrims", fighter="Gaius", reason="missed", xp=4),
                     [ev.XPAwarded(warband="pilgrims", fighter="gaius", amount=4, reason="correction: missed"), *CIRCLES_2_AND_4],
                     id="correct --xp"),
        pytest.param(2, Correct(warband="Pilgrims", fighter="Gaius", reason="missed", xp=1),
                     [ev.XPAwarded(warband="pilgrims", fighter="gaius", amount=1, reason="correction: missed")],
                     id="correct --xp reaching no circle"),
        pytest.param(0, Correct(warband="Pilgrims", fighter="Anna", reason="missed", xp=4),
                     [ev.XPAwarded(warband="pilgrims", fighter="anna", amount=4, reason="correction: missed")],
                     id="a Troop's corrected XP owes no roll"),
    ],
)
def test_xp_by_any_route_owes_an_advancement_roll_per_circle_reached(campaign, given_xp, when, then):
    if given_xp:
        campaign.do(AwardXP(warband="Pilgrims", fighter="Gaius", amount=given_xp, reason="given"))
        campaign.do(Advancement(warband="Pilgrims", rolls=[AdvanceRoll(fighter="Gaius", tables=["ranged", "wildcard"],
                                                                     keep="ranged")]), [1, 1, 1, 1])
    assert campaign.do(when) == then


def test_version_1_0_0_owed_no_advancement_roll_for_corrected_xp(first_release):
    first_release.pilgrims()
    assert first_release.do(Correct(warband="Pilgrims", fighter="Gaius", reason="missed", xp=4)) == [
        ev.XPAwarded(warband="pilgrims", fighter="gaius", amount=4, reason="correction: missed")]


ADVANCE = AdvanceRoll(fighter="Gaius", tables=["melee-strength", "wildcard"])


def test_an_advancement_roll_keeps_one_of_two_tables(campaign):
    through_promotions(campaign, [1, 1], warband_deeds={"Pilgrims": ["victory-or-death"]})
    campaign.do(Experience(warband="Pilgrims"))
    assert campaign.refusal(Exploration(warband="Pilgrims", rerolls=[])) == (
        "Gaius still has an Advancement Roll to make before Exploration"
    )
    rolled = campaign.do(Advancement(warband="Pilgrims", rolls=[AdvanceRoll(fighter="Gaius", tables=ADVANCE.tables, keep="wildcard")]),
                         [3, 4, 5, 6])
    assert rolled[2:] == [
        tc.AdvancementRolled(warband="pilgrims", fighter="gaius", kept="wildcard", options=[
            tc.AdvancementOption(table="melee-strength", roll=7, rolled_row="melee-strength/7-melee-proficiency",
                                 row="melee-strength/7-melee-proficiency", skill="Melee Proficiency"),
            tc.AdvancementOption(table="wildcard", roll=11, rolled_row="wildcard/11-war-stories",
                                 row="wildcard/11-war-stories", skill="War Stories"),
        ]),
        ev.SkillLearned(warband="pilgrims", fighter="gaius", skill="War Stories", reason="Advancement Roll", row="wildcard/11-war-stories"),
    ]
    # the log names the skill tables as the rules do (it said "7 on melee-strength")
    assert rolled[2].describe(campaign.state) == (
        "Gaius' Advancement Roll: 7 on Melee & Strength (Melee Proficiency) and 11 on Wildcard (War Stories); keeps War Stories")
    assert campaign.refusal(Advancement(warband="Pilgrims", rolls=[ADVANCE]), [3, 4, 5, 6]) == "Gaius has no Advancement Roll to make"


def test_the_kept_table_is_asked_after_rolling_and_a_held_skill_falls_to_the_next_lower(campaign):
    through_promotions(campaign, [1, 1], warband_deeds={"Pilgrims": ["victory-or-death"]})
    campaign.do(Experience(warband="Pilgrims"))
    with pytest.raises(NeedsDice, match=r"Gaius may learn Melee Proficiency \(melee-strength\) or War Stories \(wildcard\): keep which\?"):
        campaign.do(Advancement(warband="Pilgrims", rolls=[ADVANCE]), [3, 4, 5, 6])
    events = campaign.do(Advancement(warband="Pilgrims", rolls=[ADVANCE], answers={"keep-1": "melee-strength"}), [3, 4, 5, 6])
    assert events[-1].skill == "Melee Proficiency"


@pytest.mark.parametrize(("rolls", "refusal"), [
    ([ADVANCE, ADVANCE], "Gaius has no Advancement Roll to make"),  # one owed: the second is refused
    ([AdvanceRoll(fighter="Gaius", tables=ADVANCE.tables, keep="ranged")],
     "--keep ranged: keep the result of one of the two tables rolled: melee-strength or wildcard"),
])
def test_an_advancement_roll_the_rules_refuse_is_refused_before_any_die_is_rolled(campaign, rolls, refusal):
    """Rules §8: an Advancement Roll per circle reached, 2D6 on two different skill tables, one kept. Every roll of
    the command is checked before the first: a later roll was refused after the earlier one's dice, and a --keep of
    neither table after both were rolled, so with ledger dice they were seen and the step left pending, which a void
    ended, for new dice. Given no dice, the refusal comes first."""
    through_promotions(campaign, [1, 1], warband_deeds={"Pilgrims": ["victory-or-death"]})
    campaign.do(Experience(warband="Pilgrims"))
    assert campaign.refusal(Advancement(warband="Pilgrims", rolls=rolls)) == refusal
    with pytest.raises(NeedsDice):  # decided again (a replay, a pending decision answered), it rolls first as it did
        campaign.decided_again(Advancement(warband="Pilgrims", rolls=rolls))


def test_a_fighter_owing_two_advancement_rolls_makes_both_in_one_command(campaign):
    campaign.do(AwardXP(warband="Pilgrims", fighter="Gaius", amount=4, reason="missed"))  # circles 2 and 4
    keep = AdvanceRoll(fighter="Gaius", tables=ADVANCE.tables, keep="wildcard")
    events = campaign.do(Advancement(warband="Pilgrims", rolls=[keep, keep]), [3, 4, 5, 6, 1, 1, 1, 1])
    assert [e.skill for e in events if isinstance(e, ev.SkillLearned)] == ["War Stories", "Patron Skill"]


def test_a_held_skill_gives_the_next_lower_one(campaign):
    through_promotions(campaign, [1, 1], warband_deeds={"Pilgrims": ["victory-or-death"]})
    campaign.do(Experience(warband="Pilgrims"))
    campaign.do(Advancement(warband="Pilgrims", rolls=[AdvanceRoll(fighter="Gaius", tables=ADVANCE.tables, keep="melee-strength")]),
                [3, 4, 5, 6])
    campaign.finish_phases()
    campaign.battle(warband_deeds={"Pilgrims": ["victory-or-death"]}, deeds={"Gaius": ["headshot"]})
    campaign.do(Trauma(warband="Pilgrims"))
    campaign.do(Promotions(warband="Pilgrims", even=True), [1, 1, 1])
    campaign.do(Experience(warband="Pilgrims"))  # 2 -> 4 XP: a second Advancement Roll
    events = campaign.do(Advancement(warband="Pilgrims", rolls=[AdvanceRoll(fighter="Gaius", tables=ADVANCE.tables, keep="melee-strength")]),
                         [3, 4, 5, 6])
    assert events[-2].options[0] == tc.AdvancementOption(
        table="melee-strength", roll=7, rolled_row="melee-strength/7-melee-proficiency",
        row="melee-strength/6-relentless-charge", skill="Relentless Charge",
    )


# --- Exploration -----------------------------------------------------------------------------


def ready_to_explore(table) -> None:
    """A battle without deeds or casualties: Anna rolls the one Promotion Die (a 1); the Legion
    has no Troop, so its die is lost. An Advancement Roll owed is made (double 1s: Patron Skill).
    The Legion, which does not explore in these tests, ends the battle before with Reinforcements;
    the Pilgrims end it with Quartermaster and Roster, buying nothing."""
    table.finish_phase("Legion")
    table.finish_phase("Pilgrims")
    table.battle()
    for band, promotion_dice in (("Pilgrims", [1]), ("Legion", [])):
        table.do(Trauma(warband=band))
        table.do(Promotions(warband=band, even=True), promotion_dice)
        table.do(Experience(warband=band))
    if tc.model_facts(table.state, "gaius").advancements_due:
        table.do(Advancement(warband="Pilgrims", rolls=[AdvanceRoll(fighter="Gaius", tables=ADVANCE.tables, keep="wildcard")]),
                 [1, 1, 1, 1])


def test_exploration_after_the_first_game(campaign):
    ready_to_explore(campaign)
    # 3 dice on the Common table; the winner may re-roll 2 (one free, one for winning).
    assert campaign.do(Exploration(warband="Pilgrims", rerolls=[2]), [1, 2, 3, 6]) == [
        ev.DiceRolled(roll=1, expression="3D6", purpose="Exploration dice for Pilgrims", faces=[1, 2, 3], value=6, source="table"),
        d6(2, "Exploration re-roll of die 2 for Pilgrims", 6),
        tc.ExplorationResolved(warband="pilgrims", stage="games-1-2", table="common", dice=[1, 6, 3], modifier=0, final=10,
                               location="common/10-fallen-soldier", location_name="Fallen Soldier", loot=100),
        ev.TreasuryChanged(warband="pilgrims", delta=100, reason="Exploration loot: Exploration Roll 10", row="common/10-fallen-soldier"),
        step("exploration"),
    ]
    assert campaign.refusal(Exploration(warband="Legion", rerolls=[1, 2]), [1, 2, 3, 4, 5]) == (
        "only 1 Exploration die may be re-rolled"
    )


@pytest.mark.parametrize(("command", "refusal"), [
    (Exploration(warband="Pilgrims", table="rare", rerolls=[]), "after 1 game the warband explores the common table, not rare"),
    (Exploration(warband="Pilgrims", rerolls=[1, 2, 3]), "only 2 Exploration dice may be re-rolled"),
    (Exploration(warband="Pilgrims", rerolls=[2, 2]), "the same Exploration die cannot be re-rolled twice"),
    (Exploration(warband="Pilgrims", rerolls=[4]), "there is no Exploration die 4: dice are 1 to 3"),
])
def test_a_table_or_re_roll_the_rules_do_not_allow_is_refused_before_the_dice_are_rolled(campaign, command, refusal):
    """Rules §10: the stage after 1 game explores the Common table with 3 dice, and the winner re-rolls 2, never the
    same die twice. All of it is known before the roll: refused after it, ledger dice were seen and the exploration
    left pending, which a void ended, for new dice. Given no dice, the refusal comes first."""
    ready_to_explore(campaign)
    assert campaign.refusal(command) == refusal


def test_a_recorded_exploration_the_rules_do_not_allow_is_decided_again_as_it_was_after_the_roll(campaign):
    """Decided again (a pending decision answered, a replay), the command rolls first, as when it was recorded."""
    ready_to_explore(campaign)
    with pytest.raises(NeedsDice):
        campaign.decided_again(Exploration(warband="Pilgrims", table="rare", rerolls=[]))


@pytest.mark.parametrize(("command", "refusal"), [
    (Exploration(warband="Pilgrims", modifier=1000, rerolls=[]),
     "--modifier 1000: with 3 dice the Exploration Roll would be at least 1003, past the common table's last row (20): "
     "it could find nothing whatever the dice show"),
    (Exploration(warband="Pilgrims", modifier=18, rerolls=[]),
     "--modifier 18: with 3 dice the Exploration Roll would be at least 21, past the common table's last row (20): "
     "it could find nothing whatever the dice show"),
    (Exploration(warband="Pilgrims", skills=["seek"], modifier=17, rerolls=[]),
     "--modifier 17 (+18 with the Exploration Skills): with 3 dice the Exploration Roll would be at least 21, past the "
     "common table's last row (20): it could find nothing whatever the dice show"),
    (Exploration(warband="Pilgrims", modifier=-100, rerolls=[]),
     "--modifier -100: with 3 dice the Exploration Roll would be at most -82, and it cannot be negative"),
    (Exploration(warband="Pilgrims", skills=["circle-back"], modifier=-18, rerolls=[]),
     "--modifier -18 (-19 with the Exploration Skills): with 3 dice the Exploration Roll would be at most -1, and it "
     "cannot be negative"),
])
def test_a_modifier_no_roll_of_the_dice_could_use_is_refused_before_they_are_rolled(campaign, command, refusal):
    """Rules §10: "dice → roll, sum → modify (Allies, Equipment, Exploration Skills) → table → loot 10 × final
    Exploration Roll". A modifier moves the roll along the table: one that takes every roll of the dice past the
    table's last row finds nothing whatever they show, and paid loot for points no table has (+1000 on 1,1,1:
    "Exploration Roll 1004, finds nothing", 10040 ducats); one that makes every roll negative was refused after
    the roll, leaving ledger dice pending. Refused with bad input before the roll (exit 2), typed now."""
    ready_to_explore(campaign)
    assert campaign.refusal(command) == refusal


@pytest.mark.parametrize(("modifier", "dice", "final"), [(17, [6, 6, 6], 35), (-18, [6, 6, 6], 0)])
def test_a_modifier_some_roll_of_the_dice_could_use_is_taken(campaign, modifier, dice, final):
    """The edges: +17 with 3 dice may still reach the Common table's 20 (on 1, 1, 1), -18 a roll of 0."""
    ready_to_explore(campaign)
    resolved = campaign.do(Exploration(warband="Pilgrims", modifier=modifier, rerolls=[]), dice)[1]
    assert (resolved.modifier, resolved.final) == (modifier, final)


def test_a_recorded_exploration_with_a_modifier_past_the_table_is_decided_again_as_it_was(campaign):
    """Refused typed now only: one recorded before (+1000 on 1, 1, 1) decides again to what it recorded."""
    ready_to_explore(campaign)
    events = campaign.decided_again(Exploration(warband="Pilgrims", modifier=1000, rerolls=[]), [1, 1, 1])
    assert events[1:3] == [
        tc.ExplorationResolved(warband="pilgrims", stage="games-1-2", table="common", dice=[1, 1, 1], modifier=1000,
                               final=1003, location=None, location_name="", loot=10030),
        ev.TreasuryChanged(warband="pilgrims", delta=10030, reason="Exploration loot: Exploration Roll 1003", row="games-1-2"),
    ]


def test_a_location_found_twice_is_pillaged(campaign):
    for battle in (1, 2):
        ready_to_explore(campaign)
        events = campaign.do(Exploration(warband="Pilgrims", rerolls=[]), [4, 3, 3])
    assert events[1] == tc.ExplorationResolved(
        warband="pilgrims", stage="games-1-2", table="common", dice=[4, 3, 3], modifier=0, final=10, location=None,
        location_name="Fallen Soldier", pillaged=True, loot=100,
    )
    assert tc.band_facts(campaign.state, "pilgrims").locations_found == ["common/10-fallen-soldier"]


MANNA = ev.TreasuryChanged(warband="pilgrims", delta=10, reason="Exploration loot: Pot of Manna", row="rare/11-pot-of-manna")


@pytest.mark.parametrize(("version", "manna"), [
    (None, [MANNA]),
    ("1.3.0", []),  # 1.3.0 paid the Exploration Roll's loot alone
])
def test_a_pot_of_manna_adds_10_ducats_to_the_loot_of_every_later_exploration(version, manna):
    """Rules §10, Rare 11: "Pot of Manna (+10 👑 loot every Exploration)"; loot is "10 × final Exploration Roll 👑
    into the Strongbox"."""
    table = Table({}, version=version)
    table.pilgrims()
    table.legion()

    def next_battle() -> None:  # Baal's Advancement Rolls (double 1s) before the Legion's Reinforcements
        table.finish_phase("Legion", advancement=[1, 1, 1, 1])
        ready_to_explore(table)

    for _ in (1, 2):
        next_battle()
        table.do(Exploration(warband="Pilgrims", rerolls=[]), [1, 1, 1])
    next_battle()  # battle 3: 4 dice, on the Rare table if the warband chooses it
    found = table.do(Exploration(warband="Pilgrims", table="rare", rerolls=[]), [2, 3, 3, 3])
    loot = [e for e in found if isinstance(e, ev.TreasuryChanged)]
    assert loot == [ev.TreasuryChanged(warband="pilgrims", delta=110, reason="Exploration loot: Exploration Roll 11",
                                       row="rare/11-pot-of-manna")]  # found now: no Pot of Manna loot yet
    next_battle()
    later = table.do(Exploration(warband="Pilgrims", table="rare", rerolls=[]), [1, 1, 1, 1])
    loot = [e for e in later if isinstance(e, ev.TreasuryChanged)]
    assert loot == [ev.TreasuryChanged(warband="pilgrims", delta=40, reason="Exploration loot: Exploration Roll 4",
                                       row="games-3-5"), *manna]


def test_exploration_skills_and_rerolls_chosen_after_rolling(campaign):
    ready_to_explore(campaign)
    command = Exploration(warband="Pilgrims", skills=["extra-dice", "seek"], answers={"reroll-1": "1", "reroll-2": "none"})
    events = campaign.do(command, [1, 2, 2, 2, 4])
    assert events[2] == tc.ExplorationResolved(warband="pilgrims", stage="games-1-2", table="common", dice=[4, 2, 2, 2],
                                               modifier=1, final=11, location="common/11-trench-merchant",
                                               location_name="Trench Merchant", loot=110)
    assert campaign.refusal(Exploration(warband="Legion", skills=["duplicate"], rerolls=[])) == (
        "Duplicate changes the dice themselves, which the ledger does not model: apply it as a --modifier and say so in a note"
    )


# --- options, factions and the ELITE limit -------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "message"),
    [
        pytest.param({"house": 1}, "trench-crusade has no option house (options: dice, head_wound_promotion, promotion_stop_rule, tables)",
                     id="unknown"),
        pytest.param({"promotion_stop_rule": "never"}, "trench-crusade option promotion_stop_rule: Invalid enum value 'never' (one of: first-six, per-model)",
                     id="stop rule"),
        pytest.param({"tables": {"non-promotable": {"source": "x", "rows": [{"id": 1, "faction": None, "model": "Golem"}]}}},
                     "Trench Crusade table 'non-promotable' is invalid: Expected `str`, got `int` - at `$.rows[0].id`",
                     id="msgspec's message"),
        pytest.param({"tables": {"xp": {}}}, "there is no Trench Crusade table 'xp'; tables are: advancement-skills, experience, "
                     "exploration, glorious-deeds, limited-potential, non-promotable, promotion-dice-sources, trauma",
                     id="unknown table"),
        pytest.param({"head_wound_promotion": "yes"}, "trench-crusade option head_wound_promotion: Expected `bool`, got `str`",
                     id="wrong type"),
    ],
)
def test_bad_house_rules_are_refused_at_the_start(options, message):
    ledger = Ledger(Store("memory://"))
    with pytest.raises(BadInput) as refused:
        ledger.start("Test", "trench-crusade", options, "arbiter")
    assert str(refused.value) == message


def test_factions_are_the_v1_factions(table):
    from commands.shared import EnlistWarband

    assert table.refusal(EnlistWarband(name="Rats", player="Ann", faction="Skaven")) == (
        "'Skaven' is not a Trench Crusade faction: give --faction one of new-antioch, trench-pilgrims, iron-sultanate, "
        "heretic-legions, black-grail, court-of-the-seven-headed-serpent"
    )
    table.do(EnlistWarband(name="Grail", player="Cy", faction="Cult of the Black Grail"))
    assert table.state.warbands["grail"].faction == "black-grail"


def test_a_warband_without_a_faction_is_told_to_give_one(table):
    """`campaign warband add Rats --player Ann` with no --faction: the faction is missing, not ''."""
    from commands.shared import EnlistWarband

    assert table.refusal(EnlistWarband(name="Rats", player="Ann")) == (
        "a Trench Crusade warband is enlisted with its faction: give --faction one of new-antioch, trench-pilgrims, "
        "iron-sultanate, heretic-legions, black-grail, court-of-the-seven-headed-serpent"
    )


def test_no_seventh_elite_recruit(table):
    table.pilgrims(elites=("Ezra", "Fynn", "Hugo", "Ivo", "Jorg"))
    assert table.refusal(Recruit(warband="Pilgrims", name="Kurt", model="Sniper Priest", elite=True)) == (
        "Pilgrims already has 6 ELITE models, the most a warband may have"
    )


@pytest.mark.parametrize(("version", "row", "result"), [
    (None, "d66-41-63-full-recovery", "Full Recovery"),
    ("1.2.0", "d66-15-lost-an-eye", "Lost an Eye"),  # 1.2.0 took the eye of a Sniper Priest too
])
def test_a_sniper_priest_makes_a_full_recovery_from_lost_an_eye(version, row, result):
    """Rules §5, D66 15: "Lost an Eye … Sniper Priest: Full Recovery"."""
    table = Table({}, version=version)
    table.pilgrims(elites=["Snipe"])
    table.legion()
    table.battle(ooa=["Snipe"])
    events = table.do(Trauma(warband="Pilgrims"), (1, 5))
    resolved = next(e for e in events if isinstance(e, tc.TraumaResolved))
    assert (resolved.rolls, resolved.row, resolved.result) == ([15], row, result)
    assert (table.state.fighter("Snipe").injuries == []) is (result == "Full Recovery")


@pytest.mark.parametrize(("version", "keywords"), [
    (None, ["ELITE"]),
    ("1.3.0", ["ELITE", "Infiltrator"]),  # 1.3.0 left an Insomniac the keyword
])
def test_an_insomniac_loses_infiltrator(version, keywords):
    """Rules §5, D66 21 Insomniac: "always deployed first; loses INFILTRATOR"."""
    table = Table({}, version=version)
    table.pilgrims()
    table.legion()
    table.do(Recruit(warband="Pilgrims", name="Ida", model="Sniper Priest", elite=True, keywords=["Infiltrator"], paid=False))
    table.battle(ooa=["Ida"])
    events = table.do(Trauma(warband="Pilgrims"), (2, 1))
    lost = [ev.KeywordLost(warband="pilgrims", fighter="ida", keyword="Infiltrator", reason="Trauma 21 Insomniac")]
    assert [e for e in events if isinstance(e, ev.KeywordLost)] == (lost if version is None else [])
    assert table.state.fighter("Ida").keywords == keywords


def expensively_treated(table: Table, strongbox: int) -> None:
    """Battle 1: Gaius goes Out of Action and rolls 32, Expensive Treatment; both warbands finish the
    Campaign Phase (Reinforcements empty the Strongbox), then the Pilgrims' Strongbox holds this much."""
    table.pilgrims()
    table.legion()
    wounded(table, (3, 2))
    table.finish_phases(promotions=[1])
    if strongbox:
        table.do(ChangeTreasury(warband="Pilgrims", delta=strongbox, reason="test setup"))


def treatment(whose: str) -> ev.TreasuryChanged:
    return ev.TreasuryChanged(warband="pilgrims", delta=-10, row="d66-32-expensive-treatment",
                              reason=f"{whose} Expensive Treatment before deploying in battle 2")


@pytest.mark.parametrize(("version", "paid"), [
    (None, [treatment("Gaius'")]),
    ("1.7.0", [treatment("Gaius's")]),  # 1.7.0 recorded an 's after any name, and keeps it
    ("1.3.0", []),  # 1.3.0 charged nothing for it
])
def test_expensive_treatment_pays_10_ducats_from_the_strongbox_before_a_deployment(version, paid):
    """Rules §5, D66 32 Expensive Treatment: "pay 10 👑 from Strongbox before each deployment (not part of Threshold)"."""
    table = Table({}, version=version)
    expensively_treated(table, strongbox=25)
    events = table.battle()  # Gaius fights in battle 2
    assert [e for e in events if isinstance(e, ev.TreasuryChanged)] == paid
    assert table.state.warband("Pilgrims").treasury == 25 - 10 * len(paid)


def test_expensive_treatment_the_strongbox_cannot_pay_keeps_the_model_out_of_the_force():
    """Rules §5: the 10 👑 are paid "from Strongbox": a Strongbox short of them cannot deploy the model."""
    table = Table({})
    expensively_treated(table, strongbox=5)
    battle = table.battle_command()
    refusal = ("Gaius' Expensive Treatment costs 10 ducats from the Strongbox before each deployment, and the "
               "Strongbox holds 5: leave Gaius out of the Force (--absent Gaius)")
    with pytest.raises(RuleViolation, match=re.escape(refusal)):
        table.do(battle)
    shared = RecordBattle(participants=battle.participants, scenario=battle.scenario, deeds=battle.deeds)
    assert table.refusal(shared) == refusal  # `campaign battle record` is refused alike
    without_gaius = msgspec.structs.replace(battle, deeds=[d for d in battle.deeds if d.fighter != "Gaius"])
    assert not [e for e in table.do(without_gaius) if isinstance(e, ev.TreasuryChanged)]
    assert table.state.warband("Pilgrims").treasury == 5


def test_the_status_counts_toward_the_cap_of_6_elite_only_those_without_bad_company():
    """§6.5: a Bad Company model "is not counted" at the 6-ELITE check: 7 ELITE may stand."""
    table = Table({})
    table.pilgrims(elites=["E1", "E2"])
    state = table.state
    state.fighters[state.fighter("E1").id].skills.append("Bad Company")  # as an Advancement Roll teaches it
    shown = status_of(state, "Pilgrims")
    assert (len(shown["elite"]), shown["elite_counted"]) == (3, 2)
