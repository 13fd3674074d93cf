"""The shared commands as a decider: given these events, when this command with these dice, then
these events or this refusal — pure, without a database."""

import pytest

from commands import shared as c
from ledger import events as ev
from ledger import rulesets
from ledger.campaigns import decide
from ledger.decide import TableDice
from ledger.errors import BadInput, NotFound, RuleViolation
from ledger.state import CampaignState, evolve

FREEFORM = rulesets.get("freeform")
RATS = ev.WarbandEnlisted(warband="rats", name="Reikland Rats", player="Ann", treasury=100)
SKAVEN = ev.WarbandEnlisted(warband="skaven", name="Skaven", player="Bob", treasury=50)
GUNNAR = ev.FighterRecruited(warband="rats", fighter="gunnar", name="Gunnar", role="leader", stats={"WS": 4})
SNIKCH = ev.FighterRecruited(warband="skaven", fighter="snikch", name="Snikch", role="leader")
BASE = [
    ev.CampaignStarted(campaign_id="c", name="Test"),
    ev.RulesetPinned(ruleset="freeform", version="1"),
    RATS,
    SKAVEN,
    GUNNAR,
    SNIKCH,
]


def given(*events: ev.Event) -> CampaignState:
    state = CampaignState()
    for event in events:
        evolve(state, event)
    return state


def when(state: CampaignState, command, dice=()) -> list[ev.Event]:
    """The consequences (without the command.recorded event that opens every transaction)."""
    recorded, *consequences = decide(FREEFORM, state, command, dice=TableDice(list(dice)), shuffle_dice=None)
    assert recorded.command == command.__struct_config__.tag
    return consequences


CASES = [
    (
        "recruiting pays the cost times the group size",
        BASE,
        c.RecruitFighter(warband="Reikland Rats", name="Marksmen", role="henchman", cost=25, group_size=3),
        [
            ev.FighterRecruited(warband="rats", fighter="marksmen", name="Marksmen", role="henchman", cost=25, group_size=3),
            ev.TreasuryChanged(warband="rats", delta=-75, reason="recruited Marksmen"),
        ],
    ),
    (
        "a free recruit costs nothing",
        BASE,
        c.RecruitFighter(warband="rats", name="Dog", role="animal", cost=15, paid=False),
        [ev.FighterRecruited(warband="rats", fighter="dog", name="Dog", role="animal", cost=15)],
    ),
    (
        "a second fighter of the same name in another warband gets its own id",
        BASE,
        c.RecruitFighter(warband="skaven", name="Gunnar", role="hero"),
        [ev.FighterRecruited(warband="skaven", fighter="gunnar-2", name="Gunnar", role="hero")],
    ),
    (
        "a battle names known enemies by id and keeps unknown ones as given",
        BASE,
        c.RecordBattle(
            participants=["rats", "Skaven"],
            winner="skaven",
            deeds=[ev.Deed(fighter="Snikch", took_out=["Gunnar", "a giant rat"]), ev.Deed(fighter="gunnar", out_of_action=True)],
        ),
        [
            ev.BattleRecorded(
                battle=1,
                participants=["rats", "skaven"],
                winner="skaven",
                deeds=[ev.Deed(fighter="snikch", took_out=["gunnar", "a giant rat"]), ev.Deed(fighter="gunnar", out_of_action=True)],
            )
        ],
    ),
    (
        "spending exactly the XP a fighter has",
        [*BASE, ev.XPAwarded(warband="rats", fighter="gunnar", amount=5, reason="x")],
        c.SpendXP(fighter="Gunnar", amount=5, on="WS +1"),
        [ev.XPSpent(warband="rats", fighter="gunnar", amount=5, on="WS +1")],
    ),
    (
        "a correction applies each change with its reason",
        BASE,
        c.Correct(warband="rats", fighter="gunnar", reason="typo", stats={"WS": -1}, xp=2, add_keywords=["VETERAN"]),
        [
            ev.StatChanged(warband="rats", fighter="gunnar", stat="WS", delta=-1, reason="correction: typo"),
            ev.XPAwarded(warband="rats", fighter="gunnar", amount=2, reason="correction: typo"),
            ev.KeywordGained(warband="rats", fighter="gunnar", keyword="VETERAN", reason="correction: typo"),
        ],
    ),
    (
        "losing an item a fighter carries",
        [*BASE, ev.ItemGained(warband="rats", fighter="gunnar", item="sword")],
        c.LoseItem(warband="rats", fighter="Gunnar", item="sword", reason="sold"),
        [ev.ItemLost(warband="rats", fighter="gunnar", item="sword", reason="sold")],
    ),
    (
        "paying exactly the whole treasury",
        BASE,
        c.ChangeTreasury(warband="skaven", delta=-50, reason="upkeep"),
        [ev.TreasuryChanged(warband="skaven", delta=-50, reason="upkeep")],
    ),
]


@pytest.mark.parametrize(("case", "history", "command", "expected"), CASES, ids=[case[0] for case in CASES])
def test_shared_commands(case, history, command, expected):
    assert when(given(*history), command) == expected


REFUSALS = [
    ("recruit beyond the treasury", BASE, c.RecruitFighter(warband="skaven", name="Rat Ogre", role="monster", cost=51),
     RuleViolation, "Skaven has 50 in the treasury; Rat Ogre costs 51"),
    ("recruit into an unknown warband", BASE, c.RecruitFighter(warband="Orcs", name="Grob", role="hero"),
     NotFound, "no warband 'Orcs' in this campaign (warbands: Reikland Rats, Skaven)"),
    ("recruit a name the warband already has", BASE, c.RecruitFighter(warband="rats", name="gunnar", role="hero"),
     BadInput, "Reikland Rats already has a fighter called gunnar"),
    ("spend more XP than held", BASE, c.SpendXP(fighter="Gunnar", amount=1, on="Df +1"),
     RuleViolation, "Gunnar has 0 XP; Df +1 costs 1 XP"),
    ("award zero XP", BASE, c.AwardXP(fighter="Gunnar", amount=0, reason="x"),
     BadInput, "an XP award must be a positive whole number, not 0"),
    ("award XP to the dead", [*BASE, ev.FighterDied(warband="rats", fighter="gunnar")], c.AwardXP(fighter="Gunnar", amount=1, reason="x"),
     RuleViolation, "Gunnar is dead"),
    ("a winner who did not fight", BASE, c.RecordBattle(participants=["rats"], winner="skaven"),
     RuleViolation, "skaven did not fight in this battle"),
    ("a fighter of a warband that did not fight", BASE, c.RecordBattle(participants=["rats"], deeds=[ev.Deed(fighter="snikch")]),
     RuleViolation, "Snikch's warband did not fight in this battle"),
    ("taking out a friend", BASE,
     c.RecordBattle(participants=["rats", "skaven"], deeds=[ev.Deed(fighter="snikch", took_out=["Snikch"])]),
     RuleViolation, "Snikch cannot take out Snikch, a fighter of the same warband"),
    # issue 9, item 8: a name two fighters share named one of them at random
    ("an enemy taken out whose name two enemies share",
     [*BASE, ev.WarbandEnlisted(warband="orcs", name="Orcs", player="Cid"),
      ev.FighterRecruited(warband="skaven", fighter="grok", name="Grok", role="hero"),
      ev.FighterRecruited(warband="orcs", fighter="grok-2", name="Grok", role="hero")],
     c.RecordBattle(participants=["rats", "skaven", "orcs"], deeds=[ev.Deed(fighter="gunnar", took_out=["Grok"])]),
     BadInput, "2 fighters are called Grok: grok (Skaven), grok-2 (Orcs); give the id of the one you mean"),
    ("an XP award to a name two fighters share",
     [*BASE, ev.FighterRecruited(warband="skaven", fighter="gunnar-2", name="Gunnar", role="hero"),
      ev.FighterDied(warband="skaven", fighter="gunnar-2")],
     c.AwardXP(fighter="Gunnar", amount=1, reason="x"),
     BadInput, "2 fighters are called Gunnar: gunnar (Reikland Rats), gunnar-2 (Skaven, dead); "
               "give the id of the one you mean"),
    ("a fighter's id with another warband's", BASE, c.AwardXP(fighter="gunnar", warband="skaven", amount=1, reason="x"),
     NotFound, "no fighter 'gunnar' in Skaven: Gunnar is in Reikland Rats"),
    ("a fighter who must miss the game fights", [*BASE, ev.InjurySuffered(warband="rats", fighter="gunnar", injury="Leg Wound", missed_games=1)],
     c.RecordBattle(participants=["rats", "skaven"], deeds=[ev.Deed(fighter="gunnar")]),
     RuleViolation, "Gunnar must miss this battle (injured): leave them out of it"),
    ("overdraw the treasury", BASE, c.ChangeTreasury(warband="skaven", delta=-51, reason="x"),
     RuleViolation, "Skaven has 50 in the treasury; cannot pay 51"),
    ("lose an item nobody has", BASE, c.LoseItem(warband="rats", item="sword"),
     RuleViolation, "Reikland Rats has no sword in its stash"),
    ("a correction that changes nothing", BASE, c.Correct(warband="rats", fighter="gunnar", reason="x"),
     BadInput, "the correction changes nothing"),
    ("a bare roll without a purpose", BASE, c.BareRoll(expression="D6", purpose=" "),
     BadInput, "say what the roll is for with --for"),
]


@pytest.mark.parametrize(("case", "history", "command", "error", "message"), REFUSALS, ids=[r[0] for r in REFUSALS])
def test_refusals(case, history, command, error, message):
    with pytest.raises(error) as refused:
        when(given(*history), command)
    assert str(refused.value) == message


def test_a_bare_roll_records_its_dice():
    assert when(given(*BASE), c.BareRoll(expression="2D6", purpose="search"), dice=[6, 2]) == [
        ev.DiceRolled(roll=0, expression="2D6", purpose="search", faces=[6, 2], value=8, source="table")
    ]


def test_the_handler_sees_its_own_earlier_events():
    """A recruit's treasury check runs on the state as the transaction has changed it."""
    state = given(*BASE)
    first = when(state, c.RecruitFighter(warband="skaven", name="Rat", role="henchman", cost=30))
    for event in first:
        evolve(state, event)
    with pytest.raises(RuleViolation, match="Skaven has 20 in the treasury; Rat 2 costs 30"):
        when(state, c.RecruitFighter(warband="skaven", name="Rat 2", role="henchman", cost=30))


def test_decide_does_not_change_the_state_it_is_given():
    state = given(*BASE)
    when(state, c.ChangeTreasury(warband="rats", delta=-10, reason="x"))
    assert state.warbands["rats"].treasury == 100


def test_sitting_out_a_battle_pays_off_one_missed_game():
    state = given(*BASE, ev.InjurySuffered(warband="rats", fighter="gunnar", injury="Leg Wound", missed_games=2))
    for event in when(state, c.RecordBattle(participants=["rats", "skaven"], deeds=[ev.Deed(fighter="snikch")])):
        evolve(state, event)
    assert (state.fighters["gunnar"].missed_games, state.fighters["gunnar"].games) == (1, 0)
    assert state.fighters["snikch"].games == 1


def test_the_state_keeps_a_battle_while_it_is_the_latest_battle_of_one_of_its_warbands():
    """Post-games read a warband's latest battle; older battles stay in the history, not in the state
    (or every command's copy and every snapshot would grow with every battle fought)."""
    orcs = ev.WarbandEnlisted(warband="orcs", name="Orcs", player="Cy", treasury=10)
    grok = ev.FighterRecruited(warband="orcs", fighter="grok", name="Grok", role="leader")
    state = given(*BASE, orcs, grok)

    def battle(*bands: str) -> None:
        deeds = [ev.Deed(fighter=f.id, out_of_action=True) for band in bands for f in state.fighters_of(band)]
        for event in when(state, c.RecordBattle(participants=list(bands), deeds=deeds)):
            evolve(state, event)

    def kept() -> list[tuple[int, list[str]]]:
        return [(b.number, [deed.fighter for deed in b.deeds]) for b in state.latest_battles]

    assert (state.battles_fought, kept(), state.latest_battle("rats")) == (0, [], None)
    battle("rats", "skaven")
    battle("rats", "orcs")  # battle 1 is still the Skaven's latest
    assert kept() == [(1, ["gunnar", "snikch"]), (2, ["gunnar", "grok"])]
    battle("skaven", "orcs")  # now both warbands of battle 1 fought again; battle 2 is still the Rats'
    assert kept() == [(2, ["gunnar", "grok"]), (3, ["snikch", "grok"])]
    battle("rats", "skaven")
    assert kept() == [(3, ["snikch", "grok"]), (4, ["gunnar", "snikch"])]
    assert [state.latest_battle(band).number for band in ("rats", "skaven", "orcs")] == [4, 4, 3]
    assert state.battles_fought == 4
    assert (state.fighters["gunnar"].games, state.warbands["skaven"].games) == (3, 3)
