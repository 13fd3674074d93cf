"""The Promotions Step worked by hand from the seed's own words (seed 001), one row per case:
given a warband and its battle, when `trench-crusade.promotions` runs with these table dice, then
this pool, these dice, these promotions and this streak on the roster — or this refusal.

Every row quotes the sentence of the seed it tests. The warband is the usual one (conftest):
Gaius (ELITE LEADER), the ELITE named in `elites` (Sniper Priests), the Trench Pilgrim Troops
named in `troops`, and Carl (Ecclesiastic Prisoners: "cannot be Promoted"), in that roster
order. The Legion's Baal fights every battle, and his deeds are the Legion's, never the Pilgrims'.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import pytest

from commands.trench_crusade import events as tc
from commands.trench_crusade.commands import Experience, Promotions, Ransom, Recruit, Trauma
from commands.shared import AwardXP
from ledger import events as ev

from .conftest import Table

ABC = ("Anna", "Bert", "Cora")


class Given(NamedTuple):
    deeds: dict[str, list[str]] = {}
    warband_deeds: dict[str, list[str]] = {}
    troops: tuple[str, ...] = ABC
    elites: tuple[str, ...] = ()
    ooa: tuple[str, ...] = ()
    trauma: tuple[int, ...] = ()  # the Trauma step's dice: a D6 per Troop, then a D66 per ELITE Out of Action
    options: dict[str, Any] = {}
    earlier: tuple[tuple[dict[str, list[str]], tuple[int, ...]], ...] = ()  # earlier battles: deeds, Promotion Dice (even)


class Then(NamedTuple):
    pool: int | None  # None: the step is skipped
    assignment: dict[str, int]
    dice: list[str]  # "Name face", "+ promoted" for a 6, "+ counted as 6" for the failure streak's
    elite: list[str]  # the ELITE section afterwards
    streak: int  # on the roster afterwards


def run(given: Given, dice: list[int], **promotions: Any) -> Table:
    table = Table(given.options)
    table.pilgrims(elites=given.elites, troops=given.troops)
    table.legion()
    for deeds, faces in given.earlier:
        table.promotions_for(deeds, list(faces), even=True)
        table.finish_phases()
    table.battle(deeds=given.deeds, warband_deeds=given.warband_deeds, ooa=given.ooa)
    table.do(Trauma(warband="Pilgrims"), list(given.trauma))
    return table


def outcome(table: Table, events: list[ev.Event]) -> Then:
    state = table.state
    name = {f.id: f.name for f in state.fighters.values()}
    pool = next((e for e in events if isinstance(e, tc.PromotionPoolFormed)), None)
    dice = [
        f"{name[e.fighter]} {e.face}" + (" counted as 6" if e.counted_as_six else "") + (" promoted" if e.promoted else "")
        for e in events if isinstance(e, tc.PromotionDieRolled)
    ]
    return Then(
        pool=pool.size if pool else None,
        assignment={name[f]: n for f, n in pool.assignment.items()} if pool else {},
        dice=dice,
        elite=[f.name for f in state.fighters_of("pilgrims") if "ELITE" in f.keywords],
        streak=tc.band_facts(state, "pilgrims").promotion_streak,
    )


CASES = [
    pytest.param(
        # "Your Promotion Dice Pool is made up of 1D6, plus 1D6 for each Glorious Deed": no deed, 1 die.
        Given(), dict(assign={"Bert": 1}), [4],
        Then(1, {"Bert": 1}, ["Bert 4"], ["Gaius"], 1),
        id="0 deeds: a pool of 1",
    ),
    pytest.param(
        # "...carried out during the game by any model from your Warband ... not just Troops models":
        # Gaius's deed (ELITE) is a die; Baal's (the Legion's) is not the Pilgrims'.
        Given(deeds={"Gaius": ["headshot"], "Baal": ["good-hunting"]}), dict(even=True), [1, 2],
        Then(2, {"Anna": 1, "Bert": 1}, ["Anna 1", "Bert 2"], ["Gaius"], 2),
        id="1 deed by an ELITE: a pool of 2; the enemy's deed adds none",
    ),
    pytest.param(
        # Several deeds: a Troop's two, Carl's (who can never be Promoted: still a model of the warband),
        # and a warband-level deed (Victory or Death) -> 1 + 4 = 5, dealt 2/2/1 as no Troop has a 3rd.
        Given(deeds={"Anna": ["good-hunting", "into-the-trenches"], "Carl": ["headshot"]},
              warband_deeds={"Pilgrims": ["victory-or-death"]}),
        dict(even=True), [1, 1, 1, 1, 1],
        Then(5, {"Anna": 2, "Bert": 2, "Cora": 1}, ["Anna 1", "Anna 1", "Bert 1", "Bert 1", "Cora 1"], ["Gaius"], 5),
        id="4 deeds (a Troop's two, a non-promotable model's, the warband's): 5 dice, 2/2/1",
    ),
    pytest.param(
        # "You cannot assign a 3rd dice to the same model until all Troop models ... have at least 2":
        # with 2 dice and 3 Troops, both may go to Cora (a 2nd die is unrestricted).
        Given(deeds={"Anna": ["headshot"]}), dict(assign={"Cora": 2}), [3, 6],
        Then(2, {"Cora": 2}, ["Cora 3", "Cora 6 promoted"], ["Gaius", "Cora"], 0),
        id="2 dice on one model of 3 Troops: allowed; its 2nd die promotes",
    ),
    pytest.param(
        # 5 dice over 3 Troops, the player's 1/2/2: the 3rd die nowhere, so allowed.
        Given(deeds={"Anna": ["good-hunting"], "Bert": ["headshot"], "Cora": ["into-the-trenches"],
                     "Gaius": ["survive-to-tell-the-tale"]}),
        dict(assign={"Anna": 1, "Bert": 2, "Cora": 2}, order=["Cora", "Bert", "Anna", "Bert", "Cora"]), [1, 1, 1, 6],
        Then(5, {"Anna": 1, "Bert": 2, "Cora": 2}, ["Cora 1", "Bert 1", "Anna 1", "Bert 6 promoted"], ["Gaius", "Bert"], 0),
        id="'one at a time, in any order': Bert's 2nd die, the 4th rolled, promotes; Cora's 2nd is never rolled",
    ),
    pytest.param(
        # "As soon as one of the dice rolls a 6, stop rolling": the first die promotes, the other 3 are not rolled.
        Given(deeds={"Anna": ["good-hunting"], "Bert": ["headshot"], "Cora": ["into-the-trenches"]}),
        dict(even=True), [6],
        Then(4, {"Anna": 2, "Bert": 1, "Cora": 1}, ["Anna 6 promoted"], ["Gaius", "Anna"], 0),
        id="a 6 on the first die: promoted, rolling stops",
    ),
    pytest.param(
        # "Once the total reaches 5 dice, then the next roll (the 6th one), is automatically considered
        # to be a 6": 7 dice, five fail in a row, the 6th (a 1) counts as a 6; the 7th is not rolled.
        Given(deeds={"Anna": ["good-hunting", "into-the-trenches"], "Bert": ["survive-to-tell-the-tale"],
                     "Gaius": ["headshot"]},
              warband_deeds={"Pilgrims": ["victory-or-death", "hold-your-ground"]}),
        dict(even=True), [1, 2, 3, 4, 5, 1],
        Then(7, {"Anna": 3, "Bert": 2, "Cora": 2},
             ["Anna 1", "Anna 2", "Anna 3", "Bert 4", "Bert 5", "Cora 1 counted as 6 promoted"], ["Gaius", "Cora"], 0),
        id="failure streak within one step: the 6th die in a row counts as a 6",
    ),
    pytest.param(
        # "make a note on your Roster of how many dice you have rolled in a row without getting a
        # Promotion": 4 after battle 1, so in battle 2 the 2nd die is the 6th in a row.
        Given(earlier=(({"Anna": ["good-hunting"], "Bert": ["headshot"], "Cora": ["into-the-trenches"]}, (1, 2, 3, 4)),),
              deeds={"Anna": ["headshot"]}),
        dict(assign={"Bert": 1, "Cora": 1}), [5, 2],
        Then(2, {"Bert": 1, "Cora": 1}, ["Bert 5", "Cora 2 counted as 6 promoted"], ["Gaius", "Cora"], 0),
        id="failure streak across battles: 4 noted, the 2nd die of the next step counts as a 6",
    ),
    pytest.param(
        # "...As soon as one of the dice rolls a 6 ... Promote the model": the 6th die in a row that
        # shows a 6 rolled a 6; only a die of another face is "considered to be a 6" (from 1.6.0).
        Given(earlier=(({"Anna": ["good-hunting"], "Bert": ["headshot"], "Cora": ["into-the-trenches"]}, (1, 2, 3, 4)),),
              deeds={"Anna": ["headshot"]}),
        dict(assign={"Bert": 1, "Cora": 1}), [5, 6],
        Then(2, {"Bert": 1, "Cora": 1}, ["Bert 5", "Cora 6 promoted"], ["Gaius", "Cora"], 0),
        id="failure streak across battles: a 6 on the 6th die in a row is a natural 6",
    ),
    pytest.param(
        # "Ignore the Promotion step completely if there are already 6 or more models with the ELITE
        # Keyword": nothing is rolled, the pool is not formed, the streak stays as it was.
        Given(elites=("Ezra", "Fynn", "Hugo", "Ivo", "Jorg"), deeds={"Anna": ["headshot"]}),
        dict(even=True), [],
        Then(None, {}, [], ["Gaius", "Ezra", "Fynn", "Hugo", "Ivo", "Jorg"], 0),
        id="6 ELITE at the start: the step is ignored",
    ),
    pytest.param(
        # "...at the start of the Promotions & Experience Phase": 6 ELITE fought, Ezra died in the
        # Trauma step (D66 11), so 5 remain at the start of the phase and the step is played.
        Given(elites=("Ezra", "Fynn", "Hugo", "Ivo", "Jorg"), ooa=("Ezra",), trauma=(1, 1)),
        dict(even=True), [2],
        Then(1, {"Anna": 1}, ["Anna 2"], ["Gaius", "Fynn", "Hugo", "Ivo", "Jorg"], 1),
        id="6 ELITE fought, one died in Trauma: 5 at the start, the step is played",
    ),
    pytest.param(
        # "stop rolling for Promotions when a successful Promotion Roll means that you have 6 models
        # with the ELITE Keyword": 5 ELITE, Bert's 6 makes the 6th; nothing more is rolled.
        Given(elites=("Ezra", "Fynn", "Hugo", "Ivo"), deeds={"Anna": ["headshot"], "Bert": ["good-hunting"]}),
        dict(even=True, order=["Bert", "Anna", "Cora"]), [6],
        Then(3, {"Anna": 1, "Bert": 1, "Cora": 1}, ["Bert 6 promoted"],
             ["Gaius", "Ezra", "Fynn", "Hugo", "Ivo", "Bert"], 0),
        id="the 6th ELITE by promotion stops rolling",
    ),
    pytest.param(
        # The same sentence under the house rule `per-model` (rules D1), where it bites mid-step:
        # 4 ELITE; Anna's 6 makes 5, rolling goes on, Bert's 6 makes 6 and stops it; Cora's dice stay.
        Given(elites=("Ezra", "Fynn", "Hugo"), options={"promotion_stop_rule": "per-model"},
              deeds={"Anna": ["headshot"], "Bert": ["good-hunting"], "Cora": ["into-the-trenches"],
                     "Gaius": ["survive-to-tell-the-tale"]},
              warband_deeds={"Pilgrims": ["victory-or-death"]}),
        dict(even=True, order=["Anna", "Bert", "Cora", "Anna", "Bert", "Cora"]), [6, 1, 1, 6],
        Then(6, {"Anna": 2, "Bert": 2, "Cora": 2}, ["Anna 6 promoted", "Bert 1", "Cora 1", "Bert 6 promoted"],
             ["Gaius", "Ezra", "Fynn", "Hugo", "Anna", "Bert"], 0),
        id="per-model: the cap reached mid-step stops rolling",
    ),
    pytest.param(
        # "The Promotion Dice are assigned to Troop models": Anna died in the Trauma step (Survival Roll 1),
        # her deed still counts (carried out during the game), her share goes to Bert and Cora.
        Given(deeds={"Anna": ["headshot"]}, ooa=("Anna",), trauma=(1,)), dict(even=True), [4, 4],
        Then(2, {"Bert": 1, "Cora": 1}, ["Bert 4", "Cora 4"], ["Gaius"], 2),
        id="a dead Troop's deed counts, the dead Troop takes no dice",
    ),
    pytest.param(
        # No Troop that can be Promoted: Anna, the only Trench Pilgrim, died in the Trauma step and
        # Carl cannot be. The dice go to no one, nothing is rolled, and the streak noted after
        # battle 1 (2) is neither reset nor grown.
        Given(earlier=(({"Anna": ["good-hunting"]}, (1, 1)),), troops=("Anna",),
              deeds={"Gaius": ["headshot"]}, ooa=("Anna",), trauma=(2,)),
        dict(even=True), [],
        Then(2, {}, [], ["Gaius"], 2),
        id="no Troop that can be Promoted: the pool is lost, the streak kept",
    ),
]


@pytest.mark.parametrize(("given", "promotions", "dice", "then"), CASES)
def test_hand_worked_promotions(given, promotions, dice, then):
    table = run(given, dice)
    events = table.do(Promotions(warband="Pilgrims", **promotions), dice)
    assert outcome(table, events) == then


def test_a_promoted_limited_potential_troop_is_capped_at_seven_xp(table):
    # "The following models cannot have more than 7 Experience Points": Dora, a Communicant Troop, is
    # promoted ("They begin with 0 Experience Points"), gains 2 in the Experience step, then 5 of 9.
    table.pilgrims(troops=())
    table.do(Recruit(warband="Pilgrims", name="Dora", model="Communicant", paid=False))
    table.legion()
    table.promotions_for({"Dora": ["headshot"]}, [6], even=True)
    assert table.state.fighters["dora"].xp == 0
    table.do(Experience(warband="Pilgrims"))
    assert table.state.fighters["dora"].xp == 2
    award = table.do(AwardXP(fighter="Dora", amount=9, reason="story"))[0]
    assert (award.amount, award.requested) == (5, 9)
    assert table.state.fighters["dora"].xp == 7


MISTAKES = [
    pytest.param(dict(assign={"Gaius": 1, "Anna": 1}), [6, 6], "Gaius cannot take Promotion Dice: already ELITE",
                 id="an ELITE model"),
    pytest.param(dict(assign={"Carl": 1, "Anna": 1}), [6, 6],
                 "Carl cannot take Promotion Dice: Ecclesiastic Prisoners cannot be Promoted", id="a model of the list"),
    pytest.param(dict(assign={"Anna": 3}), [1, 1, 1],
                 "Anna cannot take a 3rd Promotion Die while Bert has 0: no model gets a 3rd die until every Troop "
                 "has at least 2 (Promotions Step)", id="a 3rd die before every Troop has 2"),
    pytest.param(dict(assign={"Anna": 2, "Bert": 1, "Cora": 1}), [1, 1, 1],
                 "the pool has 3 Promotion dice, but 4 are assigned", id="more dice assigned than the pool holds"),
    pytest.param(dict(assign={"Anna": 1, "Bert": 1}), [1, 1], "all 3 Promotion dice must be assigned; 2 are",
                 id="fewer dice assigned than the pool holds"),
    pytest.param(dict(assign={"Anna": 1, "Bert": 1, "Cora": 1}, order=["Anna"]), [1, 1, 1],
                 "the rolling order must name every model that has Promotion Dice, and only those: Bert and Cora "
                 "have dice but are not named", id="a rolling order leaving models out names them"),
    pytest.param(dict(assign={"Anna": 2, "Bert": 1}, order=["Anna", "Carl"]), [1, 1, 1],
                 "the rolling order must name every model that has Promotion Dice, and only those: Bert has dice but "
                 "is not named; Carl has none", id="a rolling order naming a model without dice names it"),
    pytest.param(dict(assign={"Anna": 2, "anna": 1}), [1, 1, 1], "--assign Anna is given twice", id="a model twice"),
    pytest.param(dict(even=True), [1, 0, 1], "promotion die 2 of 3 for Bert: the die of the D6 roll shows 0, not 1-6",
                 id="a face 0"),
    pytest.param(dict(even=True), [7], "promotion die 1 of 3 for Anna: the die of the D6 roll shows 7, not 1-6",
                 id="a face 7"),
    pytest.param(dict(even=True), [1, 1], "promotion die 3 of 3 for Cora needs D6 (1 more die)", id="too few dice"),
    pytest.param(dict(even=True), [1, 6, 1], "3 dice given but only 2 used", id="dice after the 6 that stopped rolling"),
]


@pytest.mark.parametrize(("promotions", "dice", "message"), MISTAKES)
def test_a_players_mistake_is_refused_and_writes_nothing(table, promotions, dice, message):
    table.pilgrims(troops=ABC)
    table.legion()
    table.battle(deeds={"Anna": ["headshot"], "Bert": ["good-hunting"]})
    table.do(Trauma(warband="Pilgrims"))
    assert message in table.refusal(Promotions(warband="Pilgrims", **promotions), dice)


def test_promotions_before_a_battle_before_trauma_and_twice_are_refused(table):
    table.pilgrims()
    table.legion()
    assert table.refusal(Promotions(warband="Pilgrims", even=True), [6]) == "Pilgrims has not fought a battle yet"
    table.battle()
    assert table.refusal(Promotions(warband="Pilgrims", even=True), [6]).startswith(
        "Pilgrims must do the Trauma step for battle 1 first")
    table.do(Trauma(warband="Pilgrims"))
    table.do(Promotions(warband="Pilgrims", even=True), [1])
    assert table.refusal(Promotions(warband="Pilgrims", even=True), [6]) == (
        "Pilgrims has already done the Promotions step for battle 1")


SIX_AFTER_FIVE_FAILURES = {  # the die, its line in the log, and the reason of the promotion, by version
    None: (dict(face=6, counted_as_six=False),
           "Cora's Promotion Die 2 of 2: 6: promoted", "Promotion: a 6 on a Promotion Die"),
    # 1.5.0 recorded the 6 as the streak's: "counted as a 6", though the die showed one
    "1.5.0": (dict(face=6, counted_as_six=True),
              "Cora's Promotion Die 2 of 2: 6, counted as a 6 after 5 dice without a Promotion: promoted",
              "Promotion: a Promotion Die counted as a 6"),
}


@pytest.mark.parametrize("version", SIX_AFTER_FIVE_FAILURES)
def test_a_6_rolled_as_the_6th_die_in_a_row_is_a_natural_6(version):
    # "Once the total reaches 5 dice, then the next roll (the 6th one), is automatically considered to
    # be a 6": 4 failures in battle 1, Bert's 5 makes 5, and Cora's die, the 6th, shows a 6 itself.
    die, line, reason = SIX_AFTER_FIVE_FAILURES[version]
    table = Table({}, version=version)
    table.pilgrims(troops=ABC)
    table.legion()
    table.promotions_for({"Anna": ["good-hunting"], "Bert": ["headshot"], "Cora": ["into-the-trenches"]},
                         [1, 2, 3, 4], even=True)
    table.finish_phases()
    table.battle(deeds={"Anna": ["headshot"]})
    table.do(Trauma(warband="Pilgrims"))
    events = table.do(Promotions(warband="Pilgrims", assign={"Bert": 1, "Cora": 1}), [5, 6])
    rolled = [e for e in events if isinstance(e, tc.PromotionDieRolled)][-1]
    assert rolled == tc.PromotionDieRolled(warband="pilgrims", fighter="cora", roll=rolled.roll, die=2, of=2,
                                           promoted=True, streak=0, **die)
    assert rolled.describe(table.state) == line
    assert [(type(e), e.reason) for e in events if isinstance(e, (ev.KeywordGained, ev.FighterPromoted))] == [
        (ev.KeywordGained, reason), (ev.FighterPromoted, reason)]


# "Ignore the Promotion step completely if there are already 6 or more models with the ELITE Keyword in
# your Warband at the start of the Promotions & Experience Phase, and stop rolling for Promotions when a
# successful Promotion Roll means that you have 6 models with the ELITE Keyword": 5 ELITE when the Trauma
# step is done (the phase begins), then Jorg is recruited as a 6th before the Promotions step.
RECRUITED_AFTER_TRAUMA = {
    # 5 at the start: the step is played (the pool is formed and dealt), but with 6 ELITE now no die is
    # rolled, as none could promote a 7th ("Max 6 ELITE models at all times", rules §2).
    None: (2, {"Anna": 1, "Bert": 1}),
    # 1.5.0 counted when the step ran: 6, so the step was ignored.
    "1.5.0": (None, {}),
}


@pytest.mark.parametrize("version", RECRUITED_AFTER_TRAUMA)
def test_an_elite_recruited_after_the_trauma_step_is_not_counted_at_the_start_of_the_phase(version):
    pool, assignment = RECRUITED_AFTER_TRAUMA[version]
    table = Table({}, version=version)
    table.pilgrims(elites=("Ezra", "Fynn", "Hugo", "Ivo"), troops=ABC)
    table.legion()
    table.battle(deeds={"Anna": ["headshot"]})
    table.do(Trauma(warband="Pilgrims"))
    table.do(Recruit(warband="Pilgrims", name="Jorg", model="Sniper Priest", elite=True, paid=False))
    assert table.refusal(Promotions(warband="Pilgrims", even=True), [1]) == "1 die given but only 0 used: check --dice"
    events = table.do(Promotions(warband="Pilgrims", even=True), [])
    assert outcome(table, events) == Then(pool, assignment, [], ["Gaius", "Ezra", "Fynn", "Hugo", "Ivo", "Jorg"], 0)
    if pool:  # the dice dealt and never rolled are said (1.7.0)
        assert events[-2].describe(table.state) == (
            "Pilgrims stopped rolling Promotion Dice: the warband has 6 ELITE models; 2 dice not rolled")


@pytest.mark.parametrize(("ransom", "then"), [
    # E5 ransomed: back before the phase goes on, 6 ELITE at its start, the step is ignored.
    pytest.param(dict(paid=50), Then(None, {}, [], ["Gaius", "E1", "E2", "E3", "E4", "E5"], 0), id="ransomed: 6, ignored"),
    # E5 executed: 5 ELITE at the start, the step is played and Anna's 6 makes the 6th.
    pytest.param(dict(), Then(2, {"Anna": 1, "Bert": 1}, ["Anna 6 promoted"], ["Gaius", "E1", "E2", "E3", "E4", "Anna"], 0),
                 id="executed: 5, played"),
])
def test_a_captive_counts_at_the_start_of_the_phase_as_its_ransom_settles_it(table, ransom, then):
    table.pilgrims(elites=["E1", "E2", "E3", "E4", "E5"], troops=("Anna", "Bert"))
    table.legion()
    table.battle(ooa=["E5"], deeds={"Anna": ["headshot"]})
    table.do(Trauma(warband="Pilgrims"), [1, 2])  # D66 12: Captured
    table.do(Ransom(warband="Pilgrims", fighter="E5", **ransom))
    events = table.do(Promotions(warband="Pilgrims", even=True), [6] if then.pool else [])
    assert outcome(table, events) == then
