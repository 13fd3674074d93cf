"""`campaign trench-crusade …` and the guided `campaign post-game` on a Trench Crusade campaign:
exact output, exit codes, and refusals that write nothing."""

from __future__ import annotations

import itertools

import json
import os
from pathlib import Path

import pytest

from commands.trench_crusade import tables
from ledger.cli import app

SETUP = [
    ["new", "League", "--ruleset", "trench-crusade"],
    ["warband", "add", "Pilgrims", "--player", "Ann", "--faction", "Trench Pilgrims", "--treasury", "100"],
    ["trench-crusade", "recruit", "Pilgrims", "Gaius", "--model", "War Prophet", "--elite", "--keyword", "LEADER", "--free"],
    ["trench-crusade", "recruit", "Pilgrims", "Anna", "--model", "Trench Pilgrim", "--free"],
    ["trench-crusade", "recruit", "Pilgrims", "Bert", "--model", "Trench Pilgrim", "--free"],
    ["trench-crusade", "recruit", "Pilgrims", "Carl", "--model", "Ecclesiastic Prisoners", "--free"],
    ["warband", "add", "Legion", "--player", "Bob", "--faction", "heretic-legions"],
    ["trench-crusade", "recruit", "Legion", "Baal", "--model", "Heretic Priest", "--elite"],
    ["trench-crusade", "battle", "--warband", "Pilgrims", "--warband", "Legion", "--scenario", "Trench Warfare",
     "--winner", "Pilgrims", "--glorious", "Anna=headshot", "--glorious", "Bert=good-hunting"],
]


@pytest.fixture
def league(cli):
    """Battle 1 recorded: Anna and Bert each did a Glorious Deed, nobody went Out of Action."""
    for args in SETUP:
        result = cli(*args)
        assert result.exit_code == 0, result.output
    return cli


def events(cli) -> int:
    return json.loads(cli("show", "--json").output)["events"]


def test_promotions_report_every_die_in_the_players_order(league):
    assert league("trench-crusade", "trauma", "Pilgrims").exit_code == 0
    result = league("trench-crusade", "promotions", "Pilgrims", "--even", "--order", "Bert,Anna", "--dice", "1,2,6")
    assert result.exit_code == 0
    assert result.output.splitlines()[:-1] == [
        "  Pilgrims Promotion Dice pool: 3 (1 base + 2 Glorious Deeds); assigned Anna 2, Bert 1",
        "  R0 promotion die 1 of 3 for Bert: D6 rolled [1] = 1 (table)",
        "  Bert's Promotion Die 1 of 3: 1, no Promotion (1 die in a row without one)",
        "  R1 promotion die 2 of 3 for Anna: D6 rolled [2] = 2 (table)",
        "  Anna's Promotion Die 2 of 3: 2, no Promotion (2 dice in a row without one)",
        "  R2 promotion die 3 of 3 for Anna: D6 rolled [6] = 6 (table)",
        "  Anna's Promotion Die 3 of 3: 6: promoted",
        "  Anna gains ELITE",
        "  Anna is promoted to elite",
        "  Pilgrims: post-game step Promotions done for battle 1",
    ]
    status = league("trench-crusade", "status", "Pilgrims")
    assert status.output.splitlines() == [
        "Pilgrims (trench-pilgrims)  ducats 100  Glory 2",
        "Promotion streak: 0 dice in a row without a Promotion",
        "ELITE models (2 of 6):",
        "  Gaius — War Prophet  XP 0",
        "  Anna — Trench Pilgrim  XP 0",
        "Troops:",
        "  Bert — Trench Pilgrim",
        "  Carl — Ecclesiastic Prisoners  cannot be Promoted",
        "Campaign Phase of battle 1: next Experience",
    ]


def test_status_shows_skills_injuries_and_the_xp_cap_where_one_applies(cli):
    """Seed: Limited Potential models "cannot have more than 7 Experience Points"; rules §6.4: "above the cap
    (18, or 7 Limited)" no XP; rules §5, D66 23 Shell-shocked; rules §6.5: an Advancement Roll learns a Skill."""
    for args in SETUP[:-1]:
        assert cli(*args).exit_code == 0
    # Given Gaius, who learned Show Off (Wildcard 8) at his 2 XP circle, Com, a Communicant (Limited Potential)
    # awarded 9 XP, Ezra awarded 20, and Dora, a Communicant Troop,
    for args in (["xp", "award", "Gaius", "2", "--reason", "test setup"],
                 ["trench-crusade", "advance", "Pilgrims", "--roll", "Gaius=melee-strength,wildcard", "--keep", "wildcard",
                  "--dice", "1,1,4,4"],
                 ["trench-crusade", "recruit", "Pilgrims", "Com", "--model", "Communicant", "--elite", "--free"],
                 ["xp", "award", "Com", "9", "--reason", "test setup"],
                 ["trench-crusade", "recruit", "Pilgrims", "Ezra", "--model", "Sniper Priest", "--elite", "--free"],
                 ["xp", "award", "Ezra", "20", "--reason", "test setup"],
                 ["trench-crusade", "recruit", "Pilgrims", "Dora", "--model", "Communicant", "--free"],
                 # and Gaius Shell-shocked (Trauma 23) after going Out of Action in battle 1,
                 ["trench-crusade", "battle", "--warband", "Pilgrims", "--warband", "Legion", "--scenario", "Trench Warfare",
                  "--ooa", "Gaius"],
                 ["trench-crusade", "trauma", "Pilgrims", "--dice", "2,3"]):
        result = cli(*args)
        assert result.exit_code == 0, result.output
    # when the warband's status is shown,
    status = cli("trench-crusade", "status", "Pilgrims")
    # then each model shows its Skills and injuries, and its XP cap where one applies: a Limited Potential
    # model's always (7), the general one (18) once reached.
    assert (status.exit_code, status.output.splitlines()) == (0, [
        "Pilgrims (trench-pilgrims)  ducats 100  Glory 0",
        "Promotion streak: 0 dice in a row without a Promotion",
        "ELITE models (3 of 6):",
        "  Gaius — War Prophet  XP 2  Skills: Show Off  Battle Scars 1  Injuries: Shell-shocked",
        "  Com — Communicant  XP 7 (Limited Potential: at most 7)  Advancement Rolls due 3",
        "  Ezra — Sniper Priest  XP 18 (at most 18)  Advancement Rolls due 6",
        "Troops:",
        "  Anna — Trench Pilgrim",
        "  Bert — Trench Pilgrim",
        "  Carl — Ecclesiastic Prisoners  cannot be Promoted",
        "  Dora — Communicant  Limited Potential: at most 7 XP",
        "Campaign Phase of battle 1: next Promotions",
    ])
    shown = json.loads(cli("trench-crusade", "status", "Pilgrims", "--json").output)
    models = {model["name"]: model for model in shown["elite"] + shown["troops"]}
    assert {name: (m["skills"], m["injuries"], m["xp_cap"], m["limited_potential"]) for name, m in models.items()} == {
        "Gaius": (["Show Off"], ["Shell-shocked"], 18, None),
        "Com": ([], [], 7, "trench-pilgrims/communicant"),
        "Ezra": ([], [], 18, None),
        "Anna": ([], [], 18, None),
        "Bert": ([], [], 18, None),
        "Carl": ([], [], 18, None),
        "Dora": ([], [], 7, "trench-pilgrims/communicant"),
    }


def test_status_marks_the_troops_that_cannot_be_promoted(cli):
    """Seed: "Not all of the models in your Warband can be Promoted. ... The following models cannot be
    Promoted to ELITE status." Such a Troop takes no Promotion Dice (rules §6.2), and the roster says so
    before the step leaves it out, as it says which models cannot have more than 7 XP."""
    # Given Pilgrims with Anna and Bert (Trench Pilgrims) and Carl (Ecclesiastic Prisoners, on the list),
    for args in SETUP[:6]:
        assert cli(*args).exit_code == 0
    # when the warband's status is shown,
    status = cli("trench-crusade", "status", "Pilgrims")
    # then Carl alone is marked as a model that cannot be Promoted, in words and in JSON (the list's row).
    assert (status.exit_code, status.output.splitlines()[-4:]) == (0, [
        "Troops:",
        "  Anna — Trench Pilgrim",
        "  Bert — Trench Pilgrim",
        "  Carl — Ecclesiastic Prisoners  cannot be Promoted",
    ])
    shown = json.loads(cli("trench-crusade", "status", "Pilgrims", "--json").output)
    assert {model["name"]: model["cannot_be_promoted"] for model in shown["elite"] + shown["troops"]} == {
        "Gaius": None, "Anna": None, "Bert": None, "Carl": "trench-pilgrims/ecclesiastic-prisoners"}


DEEDS_TO_A_POOL_OF_5 = ["--glorious", "Anna=headshot", "--glorious", "Bert=good-hunting",
                        "--glorious", "Anna=into-the-trenches", "--glorious", "Bert=survive-to-tell-the-tale"]


@pytest.mark.parametrize(("deeds", "faces", "streak_line"), [
    pytest.param(DEEDS_TO_A_POOL_OF_5[:-2], "1,1,1,1", "Promotion streak: 4 dice in a row without a Promotion",
                 id="4: no word"),
    pytest.param(DEEDS_TO_A_POOL_OF_5, "1,1,1,1,1", "Promotion streak: 5 dice in a row without a Promotion: the next "
                 "Promotion Die counts as a 6", id="5: the next die counts as a 6"),
])
def test_status_says_when_the_next_promotion_die_counts_as_a_6(cli, deeds, faces, streak_line):
    """Seed: "make a note on your Roster of how many dice you have rolled in a row without getting a
    Promotion. Once the total reaches 5 dice, then the next roll (the 6th one), is automatically considered
    to be a 6." The roster's note says so once the total is 5."""
    # Given battle 1 with three (or four) Glorious Deeds, a pool of 4 (or 5), and the Trauma step done,
    for args in SETUP[:-1]:
        assert cli(*args).exit_code == 0
    for args in (["trench-crusade", "battle", "--warband", "Pilgrims", "--warband", "Legion", "--scenario",
                  "Trench Warfare", *deeds],
                 ["trench-crusade", "trauma", "Pilgrims"]):
        assert cli(*args).exit_code == 0
    # when every Promotion Die is rolled and none shows a 6,
    assert cli("trench-crusade", "promotions", "Pilgrims", "--even", "--dice", faces).exit_code == 0
    # then the status notes the streak, and at 5 that the next die counts as a 6.
    status = cli("trench-crusade", "status", "Pilgrims")
    assert (status.exit_code, status.output.splitlines()[1]) == (0, streak_line)


def test_promotions_answer_with_json_their_transaction_rolls_and_new_head(league):
    # Given battle 1's pool of 3 and its Trauma step done (T10),
    assert league("trench-crusade", "trauma", "Pilgrims").exit_code == 0
    # when the Promotions step is recorded with --json,
    result = league("trench-crusade", "promotions", "Pilgrims", "--even", "--dice", "1,6", "--json")
    # then it answers with one line of JSON: its transaction, the two dice it rolled, and the new head.
    assert result.exit_code == 0
    answer = json.loads(result.output)
    assert answer["transactions"] == [11]
    assert answer["rolls"] == [
        {"roll": 0, "tx": 11, "expression": "D6", "purpose": "promotion die 1 of 3 for Anna", "faces": [1], "value": 1,
         "source": "table", "copy_of": None},
        {"roll": 1, "tx": 11, "expression": "D6", "purpose": "promotion die 2 of 3 for Anna", "faces": [6], "value": 6,
         "source": "table", "copy_of": None},
    ]
    assert [e["text"] for e in answer["events"]][-4:] == [
        "Anna gains ELITE", "Anna is promoted to elite",
        "Pilgrims stopped rolling Promotion Dice: Anna's die is the first 6, and a 6 ends the rolling; 1 die not rolled",
        "Pilgrims: post-game step Promotions done for battle 1"]
    assert answer["head"] == json.loads(league("show", "--json").output)["head"]


def test_without_an_order_the_models_roll_in_the_order_they_were_assigned(league):
    # Given battle 1's pool of 3 and its Trauma step done,
    assert league("trench-crusade", "trauma", "Pilgrims").exit_code == 0
    # when the player assigns Bert first and gives no --order,
    result = league("trench-crusade", "promotions", "Pilgrims", "--assign", "Bert=1", "--assign", "Anna=2",
                    "--dice", "1,2,6")
    # then Bert's die is rolled first, as the pool line lists him, not Anna's (first on the roster).
    assert result.exit_code == 0
    assert result.output.splitlines()[:7] == [
        "  Pilgrims Promotion Dice pool: 3 (1 base + 2 Glorious Deeds); assigned Bert 1, Anna 2",
        "  R0 promotion die 1 of 3 for Bert: D6 rolled [1] = 1 (table)",
        "  Bert's Promotion Die 1 of 3: 1, no Promotion (1 die in a row without one)",
        "  R1 promotion die 2 of 3 for Anna: D6 rolled [2] = 2 (table)",
        "  Anna's Promotion Die 2 of 3: 2, no Promotion (2 dice in a row without one)",
        "  R2 promotion die 3 of 3 for Anna: D6 rolled [6] = 6 (table)",
        "  Anna's Promotion Die 3 of 3: 6: promoted",
    ]


def test_no_promotion_dice_may_be_given_to_a_model_that_cannot_be_promoted(league):
    """Seed: "The following models cannot be Promoted": Carl, an Ecclesiastic Prisoner, may be given no dice."""
    # Given battle 1's pool of 3 and its Trauma step done,
    assert league("trench-crusade", "trauma", "Pilgrims").exit_code == 0
    # when the player writes down 0 dice for Carl and Gaius (ELITE already) beside Anna's and Bert's,
    result = league("trench-crusade", "promotions", "Pilgrims", "--assign", "Anna=2", "--assign", "Bert=1",
                    "--assign", "Carl=0", "--assign", "Gaius=0", "--dice", "1,1,1")
    # then the assignment stands: the pool goes to Anna and Bert, as if Carl and Gaius were not named.
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == (
        "  Pilgrims Promotion Dice pool: 3 (1 base + 2 Glorious Deeds); assigned Anna 2, Bert 1")


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        pytest.param(["promotions", "Pilgrims", "--assign", "Anna=3", "--dice", "1,1,1"], 1,
                     "Error: Anna cannot take a 3rd Promotion Die while Bert has 0: no model gets a 3rd die until every "
                     "Troop has at least 2 (Promotions Step)", id="uneven assignment"),
        pytest.param(["promotions", "Pilgrims", "--even", "--dice", "6,6"], 2,
                     "Error: 2 dice given but only 1 used: check --dice", id="the first 6 stops: a die left over"),
        pytest.param(["promotions", "Pilgrims", "--even"], 2,
                     "Error: promotion die 1 of 3 for Anna needs D6 (1 more die): pass them with --dice, or use --ledger",
                     id="dice are needed"),
        pytest.param(["promotions", "Pilgrims", "--even", "--extra", "wildcard/show-off=3", "--dice", "6"], 1,
                     "Error: Show Off (Wildcard skill) adds 1 die per model with the skill, and no model of the warband "
                     "has Show Off: it cannot add 3", id="Show Off dice without a Show Off model"),
        pytest.param(["promotions", "Pilgrims", "--even", "--extra", "foo=1", "--dice", "1,1,1,1"], 2,
                     "Error: 'foo' does not add Promotion Dice; known sources: wildcard/show-off",
                     id="extra dice from a source no table has: a name mistyped"),
        pytest.param(["promotions", "Pilgrims", "--even", "--extra", "wildcard/show-off=0", "--dice", "1,1,1"], 1,
                     "Error: Show Off (Wildcard skill) adds 1 die per model with the skill, so it cannot add 0",
                     id="a known Skill adding no dice: the rules refuse it"),
        pytest.param(["promotions", "Pilgrims", "--assign", "Anna=1", "--assign", "anna=1", "--assign", "Bert=1",
                      "--dice", "1,1,1"], 2, "Error: --assign Anna is given twice", id="a model assigned twice in another case"),
        pytest.param(["promotions", "Pilgrims", "--assign", "Anna=-1", "--assign", "Bert=4", "--dice", "1,1,1"], 2,
                     "Error: --assign Anna: Promotion Dice cannot be negative (-1)", id="a negative count is malformed"),
        pytest.param(["promotions", "Pilgrims", "--even", "--extra", "wildcard/show-off=-1", "--dice", "1,1,1"], 2,
                     "Error: --extra wildcard/show-off: Promotion Dice cannot be negative (-1)",
                     id="a negative count of extra dice is malformed too"),
        pytest.param(["promotions", "Pilgrims", "--even", "--order", "Anna", "--dice", "1,1,1"], 2,
                     "Error: the rolling order must name every model that has Promotion Dice, and only those: Bert has dice "
                     "but is not named", id="a rolling order that does not fit the dice assigned is malformed (was exit 1)"),
        pytest.param(["promotions", "Pilgrims", "--assign", "Anna=2", "--assign", "Bert=1", "--order", "Anna,Bert,Bert",
                      "--dice", "1,1,1"], 2, "Error: the rolling order has 1 die for Anna but 2 are assigned",
                     id="a rolling order per die that does not fit the dice assigned is malformed (was exit 1)"),
        pytest.param(["ransom", "Pilgrims", "Gaius"], 2, "Error: give --paid DUCATS or --unpaid", id="ransom needs a decision"),
        pytest.param(["advance", "Pilgrims", "--roll", "Gaius=ranged,wildcard", "--keep", "a", "--keep", "b"], 2,
                     "Error: give one --keep per --roll (1), or none to be asked", id="one keep per roll"),
    ],
)
def test_refusals_write_nothing(league, args, code, message):
    assert league("trench-crusade", "trauma", "Pilgrims").exit_code == 0
    before = events(league)
    result = league("trench-crusade", *args)
    assert (result.exit_code, result.output) == (code, message + "\n")
    assert events(league) == before


@pytest.mark.parametrize("dice", [["--dice", "1,2,3"], ["--ledger"]])
@pytest.mark.parametrize(("option", "code", "message"), [
    (["--table", "rare"], 1, "after 1 game the warband explores the common table, not rare"),
    (["--reroll", "9"], 2, "there is no Exploration die 9: dice are 1 to 3"),
    (["--modifier", "1000"], 2, "--modifier 1000: with 3 dice the Exploration Roll would be at least 1003, past the common "
                                "table's last row (20): it could find nothing whatever the dice show"),
    (["--modifier", "-100"], 2, "--modifier -100: with 3 dice the Exploration Roll would be at most -82, and it cannot be "
                                "negative"),
    (["--modifier", "99999999999999999999"], 2,
     "--modifier: 99999999999999999999 is too large: the ledger records whole numbers up to 9007199254740991"),
    # told from the command alone, as '--reroll 9' is: bad input (exit 2), where they were rules refusals (exit 1)
    (["--reroll", "2", "--reroll", "2"], 2, "the same Exploration die cannot be re-rolled twice"),
    (["--skill", "nonsense"], 2,
     "there is no Exploration Skill 'nonsense' (skills: extra-dice, duplicate, re-roll-dice, set-dice, seek, circle-back, lucky)"),
    (["--table", "nonsense"], 2, "there is no Exploration table 'nonsense' (tables: common, rare, legendary)"),
])
def test_an_exploration_the_rules_refuse_is_refused_before_its_dice_are_rolled(league, dice, option, code, message):
    """Refused after the roll, the ledger's dice were seen and the exploration left pending: a void, and the same
    command rolled new dice. Now nothing is rolled or written."""
    for step in (["trauma", "Pilgrims"], ["promotions", "Pilgrims", "--even", "--dice", "1,1,1"],
                 ["experience", "Pilgrims"]):
        assert league("trench-crusade", *step).exit_code == 0, step
    before = events(league)
    result = league("trench-crusade", "exploration", "Pilgrims", *option, *dice)
    assert (result.exit_code, result.output) == (code, f"Error: {message}\n")
    assert events(league) == before


def test_an_exploration_table_and_skills_are_taken_in_any_case_and_recorded_as_the_tables_spell_them(league):
    """Names are taken whatever their case elsewhere (a model, a scenario): '--table Common' was refused as "there is
    no Exploration table 'Common'", and '--skill Seek' as no Exploration Skill, exit 2. Typed now, the command is
    recorded as the tables spell them, and replays so."""
    for step in (["trauma", "Pilgrims"], ["promotions", "Pilgrims", "--even", "--dice", "1,1,1"],
                 ["experience", "Pilgrims"]):
        assert league("trench-crusade", *step).exit_code == 0, step
    result = league("trench-crusade", "exploration", "Pilgrims", "--table", "Common", "--skill", "Seek",
                    "--reroll", "1", "--dice", "1,2,3,4")
    assert (result.exit_code, result.output.splitlines()[:5]) == (0, [
        "  R3 Exploration dice for Pilgrims: 3D6 rolled [1, 2, 3] = 6 (table)",
        "  R4 Exploration re-roll of die 1 for Pilgrims: D6 rolled [4] = 4 (table)",
        "  Pilgrims explores the common table: [4, 2, 3] +1 = 10, finds Fallen Soldier",
        "  Pilgrims treasury +100 (Exploration loot: Exploration Roll 10)",
        "  Pilgrims: post-game step Exploration done for battle 1"])
    trail = [json.loads(line) for line in league("export", "--format", "jsonl").output.splitlines()]
    assert [(line["payload"]["args"]["table"], line["payload"]["args"]["skills"]) for line in trail
            if line.get("type") == "command.recorded"
            and line["payload"]["command"] == "trench-crusade.exploration"] == [("common", ["seek"])]
    assert league("replay", "--check").output.endswith("all match.\n")


@pytest.mark.parametrize("dice", [["--dice", "1"], ["--ledger"]])
def test_more_exploration_dice_than_a_roll_takes_are_refused_naming_the_skill_and_the_limit(league, dice):
    """Each Extra Dice skill adds a die to the stage's 3 (rules §10): 98 of them make 101, which the roll refused as
    "'101D6': roll between 1 and 100 dice", naming neither the option nor how many dice an Exploration Roll takes.
    Refused before any die, nothing written; such a command was always refused, so no version."""
    for step in (["trauma", "Pilgrims"], ["promotions", "Pilgrims", "--even", "--dice", "1,1,1"],
                 ["experience", "Pilgrims"]):
        assert league("trench-crusade", *step).exit_code == 0, step
    before = events(league)
    result = league("trench-crusade", "exploration", "Pilgrims", *["--skill", "extra-dice"] * 98, "--modifier", "-95",
                    *dice)
    assert (result.exit_code, result.output) == (2, (
        "Error: --skill extra-dice (98 times): an Exploration Roll takes at most 100 dice (3 after 1 game, and 1 more "
        "for each Extra Dice skill): these make 101\n"))
    assert events(league) == before


@pytest.mark.parametrize("dice", [["--dice", "1,1,1,1"], ["--ledger"]])
@pytest.mark.parametrize(("rolls", "code", "message"), [
    (["--roll", "Gaius=ranged,wildcard", "--keep", "melee-strength"], 2,
     "--keep melee-strength: keep the result of one of the two tables rolled: ranged or wildcard"),
    (["--roll", "Gaius=ranged,wildcard", "--roll", "Gaius=ranged,wildcard"], 1, "Gaius has no Advancement Roll to make"),
])
def test_an_advancement_roll_the_rules_refuse_is_refused_before_its_dice_are_rolled(league, dice, rolls, code, message):
    """Gaius owes one Advancement Roll. Refused after the dice (a --keep of neither table; a second roll, after the
    first's), the ledger's faces were seen and the step left pending: a void, and the same command rolled anew. A
    --keep of neither table is told from the command alone: bad input (exit 2), naming the option, as a table no
    skill table is ('there is no skill table …') and an exploration die that is none ('--reroll 9'); it was a rules
    refusal (exit 1). A second roll not owed is the rules' (exit 1)."""
    for step in (["trauma", "Pilgrims"], ["promotions", "Pilgrims", "--even", "--dice", "1,1,1"],
                 ["experience", "Pilgrims"]):
        assert league("trench-crusade", *step).exit_code == 0, step
    assert league("xp", "award", "Gaius", "1", "--reason", "missed").exit_code == 0
    before = events(league)
    result = league("trench-crusade", "advance", "Pilgrims", *rolls, *dice)
    assert (result.exit_code, result.output) == (code, f"Error: {message}\n")
    assert events(league) == before


def test_an_unknown_scenario_is_bad_input_listing_the_scenarios_and_writes_nothing(cli):
    """Rules §3 lists the scenarios after their numerals, "I Claim No Man's Land" to "XII The Great War"."""
    for args in SETUP[:-1]:
        assert cli(*args).exit_code == 0
    before = events(cli)
    result = cli("trench-crusade", "battle", "--warband", "Pilgrims", "--warband", "Legion", "--scenario", "Hill 223")
    assert (result.exit_code, result.output) == (2, (
        "Error: there is no scenario 'Hill 223' (scenarios: I Claim No Man's Land, II Hunt for Heroes, III Relic Hunt, "
        "IV Trench Warfare, V Armoured Train, VI Dragon Hunt, VII Supply Raid, VIII From Below, IX Fields of Glory, "
        "X Don't Breathe, XI The High Ground, XII The Great War; the numeral may be left out)\n"))
    assert events(cli) == before
    named = cli("trench-crusade", "battle", "--warband", "Pilgrims", "--warband", "Legion", "--scenario", "IV Trench Warfare")
    assert (named.exit_code, named.output.splitlines()[0]) == (0, "  battle 1 (Trench Warfare): Pilgrims vs Legion, a draw")


def test_the_enemy_a_prominent_scar_records_is_shown_where_players_read_the_roster(cli):
    """Rules §5, D66 66 Prominent Scar: "record that game's enemy warband; +1 DICE melee vs it"."""
    for args in SETUP[:-1]:
        assert cli(*args).exit_code == 0
    assert cli("trench-crusade", "battle", "--warband", "Pilgrims", "--warband", "Legion", "--scenario", "Trench Warfare",
               "--ooa", "Gaius").exit_code == 0
    assert cli("trench-crusade", "trauma", "Pilgrims", "--dice", "6,6").exit_code == 0
    status = cli("trench-crusade", "status", "Pilgrims").output.splitlines()
    assert status[3] == "  Gaius — War Prophet  XP 0  Trauma against Legion (Prominent Scar)"
    sheet = cli("roster", "Pilgrims", "--format", "md").output
    assert "| Gaius | elite<br>Model: War Prophet<br>Trauma against: Legion (Prominent Scar) |" in sheet  # no Battle Scar


def test_a_troop_that_survived_its_survival_roll_shows_no_battle_scars(cli):
    """Rules §5: a Troop Out of Action makes a Survival Roll, "3+ fine": it gains no Battle Scar."""
    for args in SETUP[:-1]:
        assert cli(*args).exit_code == 0
    # Given Bert taken Out of Action in battle 1, when he rolls a 4 for his Survival Roll,
    assert cli("trench-crusade", "battle", "--warband", "Pilgrims", "--warband", "Legion", "--scenario", "Trench Warfare",
               "--ooa", "Bert").exit_code == 0
    assert cli("trench-crusade", "trauma", "Pilgrims", "--dice", "4").exit_code == 0
    # then the roster after battle 1 shows him as any model without a scar: no "battle scars: 0".
    replayed = cli("replay", "--battle", "1", "--roster", "Pilgrims").output.splitlines()
    assert replayed[replayed.index("  Bert — troop  XP 0"):] == ["  Bert — troop  XP 0", "      model: Trench Pilgrim",
                                                                 "  Carl — troop  XP 0", "      model: Ecclesiastic Prisoners"]


BATTLE = ["trench-crusade", "battle", "--warband", "Pilgrims", "--warband", "Legion", "--scenario", "Trench Warfare"]


def gaius_minor_wound_in_battle_1(cli) -> list[str]:
    """Battle 1 with Gaius Out of Action and a Minor Wound (D66 35) for him, both Campaign Phases done: the battle
    command, for the next."""
    for args in SETUP[:-1]:
        assert cli(*args).exit_code == 0
    assert cli(*BATTLE, "--ooa", "Gaius").exit_code == 0
    assert cli("trench-crusade", "trauma", "Pilgrims", "--dice", "3,5").exit_code == 0  # Gaius: Minor Wound
    for step in (["promotions", "Pilgrims", "--even", "--dice", "1"], ["experience", "Pilgrims"], ["reinforcements", "Pilgrims"],
                 ["quartermaster", "Pilgrims"], ["roster", "Pilgrims"], ["trauma", "Legion"], ["promotions", "Legion", "--even"],
                 ["experience", "Legion"], ["reinforcements", "Legion"], ["quartermaster", "Legion"], ["roster", "Legion"]):
        assert cli("trench-crusade", *step).exit_code == 0, step
    return BATTLE


def test_a_model_named_in_the_battle_it_must_miss_is_refused_saying_for_which_injury(cli):
    """Rules §5, D66 35 Minor Wound: "misses the next game"."""
    battle = gaius_minor_wound_in_battle_1(cli)
    before = events(cli)
    refusal = ("Error: Gaius must miss this battle (Minor Wound): the Force is recorded without Gaius, so do not name "
               "Gaius in it\n")
    for named in (["--ooa", "Gaius"], ["--glorious", "gaius=Headshot"], ["--took-out", "Baal=Gaius"]):
        refused = cli(*battle, *named)
        assert (refused.exit_code, refused.output) == (1, refusal)
    assert events(cli) == before
    fought = cli(*battle, "--ooa", "Anna")  # without naming him, he is left out by himself
    assert (fought.exit_code, fought.output.splitlines()[1]) == (
        0, "  Pilgrims in battle 2: draw, 3 models fought, 1 Out of Action; Glorious Deeds: none")


def test_a_minor_wound_is_listed_until_its_game_is_missed_and_its_battle_scar_stays(cli):
    """Rules §5, D66 35 Minor Wound: "misses the next game", Battle Scar "yes". Given Gaius wounded so in battle 1,
    the roster lists the wound (and his scar) until he has missed battle 2, then the scar alone: the wound does
    nothing more. It stayed listed for good (rows format 7)."""
    battle = gaius_minor_wound_in_battle_1(cli)

    def gaius() -> list[str]:  # what the roster says of him, under his line
        lines = cli("roster", "Pilgrims").output.splitlines()
        start = next(index for index, line in enumerate(lines) if line.startswith("  Gaius"))
        return [line.strip() for line in itertools.takewhile(lambda line: line.startswith("      "), lines[start + 1:])]

    wounded = gaius()
    assert "injuries: Minor Wound" in wounded and "battle scars: 1" in wounded
    assert "Injuries: Minor Wound" in cli("trench-crusade", "status", "Pilgrims").output
    assert cli(*battle).exit_code == 0  # battle 2: Gaius misses it
    healed = gaius()
    assert not any(line.startswith("injuries:") for line in healed) and "battle scars: 1" in healed
    assert "Minor Wound" not in cli("trench-crusade", "status", "Pilgrims").output


def test_a_correction_of_an_elites_xp_owes_its_advancement_rolls_as_an_award_does(league):
    # Given Gaius, an ELITE at 0 XP, when an arbiter corrects his XP by 4,
    result = league("correct", "Pilgrims", "Gaius", "--xp", "4", "--reason", "deed XP missed")
    # then he reaches the 2 and 4 XP circles: two Advancement Rolls due, as `xp award 4` would owe.
    assert result.exit_code == 0
    assert result.output.splitlines()[:-1] == [
        "  Gaius gains 4 XP (correction: deed XP missed)",
        "  Gaius reached the 2 XP circle: one Advancement Roll due",
        "  Gaius reached the 4 XP circle: one Advancement Roll due",
    ]


def test_a_bad_house_rule_is_refused_with_exit_2(cli):
    result = cli("new", "League", "--ruleset", "trench-crusade", "--option", "promotion_stop_rule=never")
    assert (result.exit_code, result.output) == (2, "Error: trench-crusade option promotion_stop_rule: Invalid enum value 'never' (one of: first-six, per-model)\n")
    assert not os.path.exists(cli.store.removeprefix("sqlite:///"))  # a refused start leaves no file behind


def test_guided_post_game_without_a_terminal_runs_on_until_a_step_needs_dice(league):
    first = league("post-game", "Pilgrims")
    assert first.output.splitlines() == [
        "== Trauma: Survival Rolls for Troops, the Trauma Table for ELITE",
        "  Pilgrims begins the Promotions & Experience Phase of battle 1 with 1 ELITE model: Gaius",
        "  Pilgrims: post-game step Trauma done for battle 1",
        first.output.splitlines()[3],  # the transaction and head hash
        "== Promotions: the Promotion Dice pool",
        "Next step: Promotions — promotion die 1 of 3 for Anna needs D6 (1 more die): pass them with --dice, or use "
        "--ledger; then run `campaign post-game Pilgrims` again.",
    ]
    second = league("post-game", "Pilgrims", "--dice", "6")
    assert "  Pilgrims Promotion Dice pool: 3 (1 base + 2 Glorious Deeds); assigned Anna 2, Bert 1" in second.output
    assert "  Anna is promoted to elite" in second.output
    listed = league("post-game", "Pilgrims", "--list")
    assert listed.output.splitlines() == [  # the run with the promotion die went on through Experience
        "[x] trauma: Trauma: Survival Rolls for Troops, the Trauma Table for ELITE",
        "[x] promotions: Promotions: the Promotion Dice pool",
        "[x] experience: Experience: XP for the ELITE",
        "[ ] advancement: Advancement Rolls",
        "      --answer anna:1:first-table=melee-strength|ranged|stealth-speed|wildcard  Anna, Advancement Roll 1 of 1: "
        "first skill table",
        # the next question too, its choices whatever the first's answer (it listed them after the first's first
        # choice: melee-strength missing, which the second may take if the first is another)
        "      --answer anna:1:second-table=melee-strength|ranged|stealth-speed|wildcard  Anna, Advancement Roll 1 of 1: "
        "second skill table; its choices depend on the answer to anna:1:first-table",
        "      may ask, depending on what comes up: keep-N, FIGHTER:N:first-table, FIGHTER:N:second-table",
        "[ ] exploration: Exploration: explore, or take Reinforcements instead",
        "      --answer rerolls=no|yes  Re-roll Exploration dice once you have seen them?",
        "      may ask, depending on what comes up: table, reroll-N",
        "[ ] quartermaster: Quartermaster: done buying, selling, recruiting, retiring and allocating",
        "[ ] roster: Roster: the roster is up to date",
    ]


def test_the_listed_promotion_pool_is_made_of_what_the_step_records(cli):
    """Seed: "1D6, plus 1D6 for each Glorious Deed": one deed is one Glorious Deed, in the list as in the step."""
    for args in SETUP[:-1]:
        assert cli(*args).exit_code == 0
    assert cli("trench-crusade", "battle", "--warband", "Pilgrims", "--warband", "Legion", "--scenario", "Trench Warfare",
               "--glorious", "Anna=headshot").exit_code == 0
    assert cli("trench-crusade", "trauma", "Pilgrims").exit_code == 0
    listed = cli("post-game", "Pilgrims", "--list").output.splitlines()
    assert listed[2:5] == ["      --answer assignment=accept|edit  Promotion Dice: 2 (1 base + 1 Glorious Deed)",
                           "  Anna  1", "  Bert  1"]
    done = cli("trench-crusade", "promotions", "Pilgrims", "--even", "--dice", "1,1")
    assert done.output.splitlines()[0] == "  Pilgrims Promotion Dice pool: 2 (1 base + 1 Glorious Deed); assigned Anna 1, Bert 1"


@pytest.mark.parametrize("dice", [["--dice", "3,4,3,4"], ["--ledger"]])
def test_a_kept_table_answered_ahead_that_is_no_skill_table_is_refused_before_the_roll(league, dice):
    """The kept table of an Advancement Roll (keep-1) is one of the skill tables, whichever two are rolled: 'rangd' is
    none, so it is refused before the dice, exit 2, nothing written. With --ledger it was dropped once the dice were
    dealt and the step left pending, asking again."""
    for args in (["trauma", "Pilgrims"], ["promotions", "Pilgrims", "--even", "--dice", "6"], ["experience", "Pilgrims"]):
        assert league("trench-crusade", *args).exit_code == 0, args
    before = events(league)
    walked = league("post-game", "Pilgrims", "--answer", "anna:1:first-table=ranged", "--answer",
                    "anna:1:second-table=wildcard", "--answer", "keep-1=rangd", *dice, "--step", "advancement")
    assert (walked.exit_code, walked.output) == (2, (
        "Error: --answer keep-1: 'rangd' is not one of: melee-strength, ranged, stealth-speed, wildcard\n"))
    assert events(league) == before


def test_the_walk_takes_the_kept_table_of_an_advancement_roll_given_ahead(league):
    # "reaching a circle box = one Advancement Roll": two tables rolled, one result kept, answered ahead as keep-1
    for args in (["trauma", "Pilgrims"], ["promotions", "Pilgrims", "--even", "--dice", "6"], ["experience", "Pilgrims"]):
        assert league("trench-crusade", *args).exit_code == 0, args
    walked = league("post-game", "Pilgrims", "--answer", "anna:1:first-table=ranged", "--answer",
                    "anna:1:second-table=wildcard", "--answer", "keep-1=ranged", "--dice", "3,4,3,4", "--step", "advancement")
    assert walked.exit_code == 0, walked.output
    assert walked.output.splitlines()[1:5] == [
        "  R1 Advancement Roll for Anna on Ranged: 2D6 rolled [3, 4] = 7 (table)",
        "  R2 Advancement Roll for Anna on Wildcard: 2D6 rolled [3, 4] = 7 (table)",
        "  Anna's Advancement Roll: 7 on Ranged (Ranged Proficiency) and 7 on Wildcard (Skill & Expertise); "
        "keeps Ranged Proficiency",
        "  Anna learns Ranged Proficiency",
    ]


def test_the_walk_takes_a_key_written_with_a_skills_own_id(cli):
    """The Show Off Skill's source id holds a '/': `wildcard/show-off:dice` is the key the step asks
    (answers are read whatever their case and spacing, never by rewriting the key given)."""
    for args in (["new", "Show", "--ruleset", "trench-crusade"],
                 ["warband", "add", "P", "--player", "A", "--faction", "Trench Pilgrims", "--treasury", "700"],
                 ["trench-crusade", "recruit", "P", "Gaius", "--model", "War Prophet", "--elite", "--keyword", "LEADER"],
                 ["trench-crusade", "recruit", "P", "Anna", "--model", "Trench Pilgrim"],
                 ["xp", "award", "Gaius", "2", "--reason", "a circle box"],
                 ["trench-crusade", "advance", "P", "--roll", "Gaius=wildcard,ranged", "--keep", "wildcard", "--dice", "4,4,5,5"],
                 ["trench-crusade", "battle", "--warband", "P", "--scenario", "Trench Warfare"],
                 ["trench-crusade", "trauma", "P"]):
        assert cli(*args).exit_code == 0, args
    walked = cli("post-game", "P", "--answer", "Extra-Dice:1=Wildcard/Show-Off", "--answer", "wildcard/show-off:dice=1",
                 "--dice", "2,1")
    assert walked.exit_code == 0, walked.output
    assert "  P Promotion Dice pool: 2 (1 base + 1 from wildcard/show-off); assigned Anna 2" in walked.output.splitlines()


def test_the_steps_of_a_warband_that_has_not_fought_are_listed_and_an_answer_for_them_refused(cli):
    for args in SETUP[:2]:
        assert cli(*args).exit_code == 0, args
    listed = cli("post-game", "Pilgrims", "--list")
    assert (listed.exit_code, listed.output.splitlines()) == (0, [
        "[ ] trauma: Trauma: Survival Rolls for Troops, the Trauma Table for ELITE",
        "[ ] promotions: Promotions: the Promotion Dice pool",
        "[ ] experience: Experience: XP for the ELITE",
        "[ ] advancement: Advancement Rolls",
        "      may ask, depending on what comes up: keep-N, FIGHTER:N:first-table, FIGHTER:N:second-table",
        "[ ] exploration: Exploration: explore, or take Reinforcements instead",
        "[ ] quartermaster: Quartermaster: done buying, selling, recruiting, retiring and allocating",
        "[ ] roster: Roster: the roster is up to date",
    ])
    before = events(cli)
    answered = cli("post-game", "Pilgrims", "--answer", "table=rare")
    assert (answered.exit_code, answered.output) == (
        2, "Error: --answer table: no open step of the post-game asks it "
           "(keys: keep-N, FIGHTER:N:first-table, FIGHTER:N:second-table)\n")
    assert events(cli) == before


def test_the_ruleset_group_lists_its_commands(cli):
    listing = cli("trench-crusade", "--help").output.split("Commands:\n")[1]
    assert [line.split()[0] for line in listing.splitlines()] == [
        "advance", "battle", "buy", "experience", "exploration", "give", "promotions", "quartermaster", "ransom", "recruit",
        "reinforcements", "retire", "roster", "sell", "status", "stow", "trauma"]


@pytest.mark.parametrize("again", [
    pytest.param(["trench-crusade", "battle", "--warband", "Pilgrims", "--warband", "Legion", "--scenario", "Trench Warfare"],
                 id="trench-crusade battle"),
    pytest.param(["battle", "record", "--warband", "Pilgrims", "--warband", "Legion", "--scenario", "trench-warfare"],
                 id="the shared battle record"),
])
def test_a_battle_before_the_last_campaign_phase_is_finished_is_refused(league, again):
    # Given battle 1 recorded and the Pilgrims' Trauma step done,
    assert league("trench-crusade", "trauma", "Pilgrims").exit_code == 0
    before = events(league)
    # when the next battle is recorded,
    result = league(*again)
    # then it is refused, naming the step to do next, and nothing is written.
    assert (result.exit_code, result.output) == (
        1, "Error: Pilgrims has not finished the Campaign Phase of battle 1: next is Promotions (campaign post-game Pilgrims)\n"
    )
    assert events(league) == before


def test_at_a_terminal_the_walk_offers_reinforcements_before_exploration(league, monkeypatch):
    # Given the Pilgrims' Campaign Phase done through Experience (Gaius at 1 XP: no Advancement
    # Roll owed) and a player at a terminal,
    for args in (["trauma", "Pilgrims"], ["promotions", "Pilgrims", "--even", "--dice", "1,1,1"], ["experience", "Pilgrims"]):
        assert league("trench-crusade", *args).exit_code == 0
    monkeypatch.setattr(app, "is_interactive", lambda: True)
    # when the walk reaches Exploration and the player stops there,
    walk = league("post-game", "Pilgrims", input="stop here\n")
    assert walk.output.splitlines() == [
        "== Exploration: explore, or take Reinforcements instead",
        "Before this step: take Reinforcements instead (`campaign trench-crusade reinforcements`: the Arsenal is "
        "discarded, the Strongbox set to 0, no Exploration)?",
        "  1) go on",
        "  2) stop here",
        "Choose by number or name [stop here]: stop here",
        "Stopped before Exploration: run `campaign post-game Pilgrims` again to carry on.",
    ]
    # and takes Reinforcements,
    taken = league("trench-crusade", "reinforcements", "Pilgrims")
    assert (taken.exit_code, taken.output.splitlines()[:2]) == (0, [
        "  Pilgrims treasury -100 (Reinforcements: the Strongbox is set to 0)",
        "  Pilgrims: post-game step Reinforcements done for battle 1",
    ])
    # then Exploration counts as done,
    assert league("post-game", "Pilgrims", "--list").output.splitlines()[4] == "[x] exploration: Exploration: explore, or take Reinforcements instead"
    # and the walk goes on into the Quartermaster step, offering to stop for purchases first,
    # then the Roster step, which finish the Campaign Phase of battle 1.
    walk = league("post-game", "Pilgrims", input="1\n")  # a choice picked by its number
    assert [line.split(". Head ")[0] for line in walk.output.splitlines()] == [
        "== Quartermaster: done buying, selling, recruiting, retiring and allocating",
        "Before this step: retire, recruit, buy, sell or allocate Battlekit first (`campaign trench-crusade "
        "retire|recruit|buy|sell|give|stow`)?",
        "  1) go on",
        "  2) stop here",
        "Choose by number or name [stop here]: 1",
        "  Pilgrims: post-game step Quartermaster done for battle 1",
        "Recorded T14 (2 events)",
        "== Roster: the roster is up to date",
        "  Pilgrims: post-game step Roster done for battle 1",
        "Recorded T15 (2 events)",
        "Post-game sequence complete.",
    ]
    assert league("trench-crusade", "status", "Pilgrims").output.splitlines()[-1] == "Campaign Phase of battle 1: done"


def test_the_quartermaster_step_buys_allocates_and_sells(league):
    # Given the Pilgrims' Campaign Phase through Exploration (Roll 1+1+1 = 3: 30 ducats, so 130),
    for args in (["trauma", "Pilgrims"], ["promotions", "Pilgrims", "--even", "--dice", "1,1,1"], ["experience", "Pilgrims"],
                 ["exploration", "Pilgrims", "--dice", "1,1,1"]):
        assert league("trench-crusade", *args).exit_code == 0
    # when they buy ELITE-only Battlekit for 15 ducats,
    bought = league("trench-crusade", "buy", "Pilgrims", "Holy Relic Blade", "--price", "15", "--elite-only")
    assert (bought.exit_code, bought.output.splitlines()[:-1]) == (0, [
        "  Pilgrims treasury -15 (bought Holy Relic Blade)",
        "  Pilgrims buys Holy Relic Blade (ELITE-only Battlekit) for 15 ducats",
        "  Pilgrims stash gains Holy Relic Blade",
    ])
    # then a Troop cannot be given it (nothing written), an ELITE can,
    before = events(league)
    refused = league("trench-crusade", "give", "Pilgrims", "Anna", "Holy Relic Blade")
    assert (refused.exit_code, refused.output) == (1, "Error: Holy Relic Blade is ELITE-only Battlekit and Anna is not ELITE\n")
    assert events(league) == before
    given = league("trench-crusade", "give", "Pilgrims", "Gaius", "Holy Relic Blade")
    assert given.output.splitlines()[:-1] == ["  Pilgrims stash loses Holy Relic Blade", "  Gaius gains Holy Relic Blade"]
    # and sold from Gaius it brings back 8 ducats (half of 15, rounded up): 130 - 15 + 8 = 123.
    sold = league("trench-crusade", "sell", "Pilgrims", "Holy Relic Blade", "--from", "Gaius")
    assert sold.output.splitlines()[:-1] == ["  Gaius loses Holy Relic Blade", "  Pilgrims treasury +8 (sold Holy Relic Blade)"]
    assert league("trench-crusade", "status", "Pilgrims").output.splitlines()[0] == "Pilgrims (trench-pilgrims)  ducats 123  Glory 2"
    # --glory names the currency of a --price given, so alone it is bad input.
    alone = league("trench-crusade", "sell", "Pilgrims", "Rifle", "--glory")
    assert (alone.exit_code, alone.output) == (2, "Error: --glory goes with --price (the currency of the price paid)\n")


def test_advance_names_its_keep_option_when_the_kept_table_is_missing(league):
    """Issue 9, item 10: `trench-crusade advance` said "answer with --answer keep-0=…", an option
    it does not have; its own option is --keep."""
    for args in (["trauma", "Pilgrims"], ["promotions", "Pilgrims", "--even", "--dice", "6"], ["experience", "Pilgrims"]):
        assert league("trench-crusade", *args).exit_code == 0, args
    before = events(league)
    asked = league("trench-crusade", "advance", "Pilgrims", "--roll", "Anna=melee-strength,wildcard", "--dice", "3,4,5,6")
    assert asked.exit_code == 2
    assert asked.output.startswith("Error: Anna may learn ")
    assert asked.output.endswith(": keep which?: give --keep TABLE, one per --roll in order (one of: melee-strength, wildcard)\n")
    assert events(league) == before
    kept = league("trench-crusade", "advance", "Pilgrims", "--roll", "Anna=melee-strength,wildcard", "--keep", "wildcard",
                  "--dice", "3,4,5,6")
    assert kept.exit_code == 0, kept.output


@pytest.mark.parametrize(("tables", "code", "message"), [
    pytest.param("melee,wildcard", 2, "Error: there is no skill table 'melee'; tables: melee-strength, ranged, "
                 "stealth-speed, wildcard", id="a table mistyped is bad input, naming it"),
    pytest.param("ranged,ranged", 1, "Error: an Advancement Roll uses two different skill tables of: melee-strength, "
                 "ranged, stealth-speed, wildcard", id="the same table twice: the rules say two of the four"),
])
def test_an_advancement_roll_on_an_unknown_table_is_bad_input_and_writes_nothing(league, tables, code, message):
    """Rules §6.5: "Choose 2 of the 4 Skill Tables"."""
    # Given Gaius, owing an Advancement Roll for reaching the 2 XP circle,
    assert league("xp", "award", "Gaius", "2", "--reason", "test setup").exit_code == 0
    before = events(league)
    # when he rolls on a table the rules do not have (or on one table twice),
    result = league("trench-crusade", "advance", "Pilgrims", "--roll", f"Gaius={tables}", "--keep", "ranged",
                    "--dice", "3,4,5,6")
    # then a name mistyped is bad input (exit 2) naming it, the rule's refusal exits 1, and nothing is written.
    assert (result.exit_code, result.output) == (code, message + "\n")
    assert events(league) == before


def test_the_experience_step_rolls_no_dice_so_offers_no_dice_options(league):
    """Rules §6.4: +1 XP per ELITE that took part and survived, +1 more for a Glorious Deed: nothing is rolled."""
    for args in (["trauma", "Pilgrims"], ["promotions", "Pilgrims", "--even", "--dice", "1,1,1"]):
        assert league("trench-crusade", *args).exit_code == 0, args
    before = events(league)
    # Given the Experience step next, when dice are given to it, then they are an option it does not have (exit 2)
    given = league("trench-crusade", "experience", "Pilgrims", "--dice", "3")
    assert (given.exit_code, given.output.splitlines()[-1]) == (2, "Error: No such option '--dice'.")
    assert events(league) == before
    # and its help offers none of the dice options.
    shown = league("trench-crusade", "experience", "--help").output
    assert [option for option in ("--dice", "--card", "--ledger") if option in shown] == []
    assert league("trench-crusade", "experience", "Pilgrims").exit_code == 0


def test_exploration_asks_for_its_table_by_its_own_table_option(cli, tmp_path):
    """`trench-crusade exploration` has no --answer: a stage that offers two tables asks for --table
    (a house rule here offers the rare table after one game already)."""
    exploration = json.loads((Path(tables.__file__).parent / "data" / "exploration.json").read_text())
    exploration["stages"][0]["tables"] = ["common", "rare"]
    house_rules = tmp_path / "tables.json"
    house_rules.write_text(json.dumps({"exploration": exploration}))
    for args in [[*SETUP[0], "--tables", str(house_rules)], *SETUP[1:],
                 *(["trench-crusade", *step] for step in (["trauma", "Pilgrims"], ["promotions", "Pilgrims", "--even", "--dice", "1,1,1"],
                                                          ["experience", "Pilgrims"]))]:
        assert cli(*args).exit_code == 0, args
    asked = cli("trench-crusade", "exploration", "Pilgrims", "--dice", "1,1,1")
    assert (asked.exit_code, asked.output) == (
        2, "Error: Explore which table after 1 games?: answer with --table CHOICE (one of: common, rare)\n")


def test_a_reroll_cascade_before_a_pending_step_decides_again_what_it_stands_on(cli):
    """The exploration stopped pending; a reroll of the Trauma step's die, with --cascade, decides the
    Promotions and Experience steps again after it: the exploration follows them again and is answered
    (the void was refused, as if it stranded the exploration, before those were decided again)."""
    for args in (*SETUP[:-1],
                 ["trench-crusade", "battle", "--warband", "Pilgrims", "--warband", "Legion", "--scenario", "Trench Warfare",
                  "--winner", "Pilgrims", "--ooa", "Bert"],  # no deed: nobody reaches an Advancement Roll
                 ["trench-crusade", "trauma", "Pilgrims", "--dice", "4"],  # R0: Bert's Survival Roll, fine
                 ["trench-crusade", "promotions", "Pilgrims", "--even", "--dice", "1"],  # no promotion
                 ["trench-crusade", "experience", "Pilgrims"]):
        assert cli(*args).exit_code == 0, args
    stopped = cli("post-game", "Pilgrims", "--ledger", "--answer", "rerolls=yes", "--answer", "table=common")
    pending = cli("pending").output.split(":")[0]  # the exploration, waiting for which die to re-roll
    assert f"{pending} is pending" in stopped.output.splitlines()[-1], stopped.output
    rerolled = cli("reroll", "R0", "--reason", "cocked die", "--dice", "5", "--cascade")
    assert rerolled.exit_code == 0, rerolled.output
    assert cli("pending").output.startswith(f"{pending}: ")
    assert cli("answer", "reroll-1=none").exit_code == 0
    assert cli("replay", "--check").output.endswith("all match.\n")


def test_an_advancement_roll_the_walks_earlier_steps_owe_may_be_answered_before_them(league):
    """Anna's Advancement Roll is owed only once Promotions (a 6 makes her ELITE) and Experience (her
    first XP) are recorded: its tables, given ahead, were refused as asked by no open step."""
    assert league("trench-crusade", "trauma", "Pilgrims").exit_code == 0
    walked = league("post-game", "Pilgrims", "--dice", "6", "--answer", "anna:1:first-table=ranged",
                    "--answer", "anna:1:second-table=wildcard")
    assert walked.exit_code == 0, walked.output
    assert walked.output.splitlines()[-3:] == [
        "== Advancement Rolls",
        "Next step: Advancement Rolls — Advancement Roll for Anna on Ranged needs 2D6 (2 more dice): pass them with --dice, "
        "or use --ledger; then run `campaign post-game Pilgrims` again.",
        "Not used: anna:1:first-table=ranged, anna:1:second-table=wildcard (the Advancement Rolls step was not done)",
    ]


def test_an_advancement_roll_the_promotion_dice_never_owed_is_named_unused(league):
    """Given Anna's tables answered ahead, when no Promotion Die comes up 6 (she is not promoted, and
    so owes no Advancement Roll), then the walk, stopped before the exploration, names her tables with
    the step that did not ask them, as well as the exploration's answers still to give."""
    assert league("trench-crusade", "trauma", "Pilgrims").exit_code == 0
    walked = league("post-game", "Pilgrims", "--dice", "1,1,1", "--answer", "anna:1:first-table=ranged",
                    "--answer", "rerolls=no")
    assert (walked.exit_code, walked.output.splitlines()[-3:]) == (0, [
        "Before this step: take Reinforcements instead (`campaign trench-crusade reinforcements`: the Arsenal is "
        "discarded, the Strongbox set to 0, no Exploration)?",
        "Stopped before Exploration: run `campaign post-game Pilgrims` again to carry on, "
        "or with --go-on to go past the steps that close buying, selling or hiring.",
        "Not used: anna:1:first-table=ranged (the Advancement Rolls step did not ask it); "
        "rerolls=no (the Exploration step was not reached)",
    ])


def test_an_advancement_roll_no_step_can_owe_is_refused_before_anything_is_written(league):
    assert league("trench-crusade", "trauma", "Pilgrims").exit_code == 0
    before = events(league)
    refused = league("post-game", "Pilgrims", "--dice", "6", "--answer", "anan:1:first-table=ranged")
    assert (refused.exit_code, refused.output) == (2, (
        "Error: --answer anan:1:first-table: no open step of the post-game asks it (keys: assignment, order, leader, "
        "keep-N, FIGHTER:N:first-table, FIGHTER:N:second-table, rerolls, table, reroll-N)\n"))
    assert events(league) == before
