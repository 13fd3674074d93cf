"""campaign roll / draw: table dice, ledger dice, and refusals that write nothing."""

import json

import pytest

from ledger import dice
from ledger.cli import app
from ledger.testing import CampaignRunner


def events(campaign) -> int:
    return json.loads(campaign("show", "--json").output)["events"]


def test_table_roll_is_recorded_with_faces_and_value(two_warbands):
    result = two_warbands("roll", "2D6", "--for", "rare item search", "--dice", "3,5")
    assert result.exit_code == 0
    assert result.output.splitlines()[0] == "  R0 rare item search: 2D6 rolled [3, 5] = 8 (table)"


@pytest.mark.parametrize(
    ("expression", "faces", "line"),
    [
        ("D3", "5", "R0 x: D3 rolled [5] = 3 (table)"),  # a D3 is a D6 halved up
        ("D3", "1", "R0 x: D3 rolled [1] = 1 (table)"),
        ("D66", "3,5", "R0 x: D66 rolled [3, 5] = 35 (table)"),  # tens first
        ("7D6 keep 6 highest", "1,2,3,4,5,6,6", "R0 x: 7D6 keep 6 highest rolled [1, 2, 3, 4, 5, 6, 6] = 26 (table)"),
        ("D12", "12", "R0 x: D12 rolled [12] = 12 (table)"),
        ("D20", "20", "R0 x: D20 rolled [20] = 20 (table)"),
    ],
)
def test_expressions(two_warbands, expression, faces, line):
    result = two_warbands("roll", expression, "--for", "x", "--dice", faces)
    assert result.output.splitlines()[0] == "  " + line


@pytest.mark.parametrize(
    ("args", "message", "code"),
    [
        (["2D6", "--dice", "3"], "Error: x needs 2D6 (1 more die): pass them with --dice, or use --ledger", 2),
        (["2D6", "--dice", "3,5,6"], "Error: 3 dice given but only 2 used: check --dice", 2),
        (["D6", "--dice", "7"], "Error: x: the die of the D6 roll shows 7, not 1-6", 2),
        (["2D6", "--dice", "3,five"], "Error: --dice: the 2nd value 'five' is not a whole number", 2),
        (["2D6", "--dice", "3 , x"], "Error: --dice: the 2nd value 'x' is not a whole number", 2),  # values, not tokens, counted
        (["D6", "--dice", "²"], "Error: --dice: the 1st value '²' is not a whole number", 2),
        (["D6", "--dice", "-1"], "Error: --dice: the 1st value '-1' is below 1: a die shows 1 or more", 2),
        (["2D6", "--dice", "3,-0"], "Error: --dice: the 2nd value '-0' is below 1: a die shows 1 or more", 2),
        (["D6", "--dice", "-x"], "Error: --dice: the 1st value '-x' is not a whole number", 2),
        (["D6", "--dice", "1" * 2000], "Error: --dice: the 1st value has 2000 digits, more than any die shows", 2),  # a digit to isdigit(), not to int()
        (["2D6"], "Error: x needs 2D6 (2 more dice): pass them with --dice, or use --ledger", 2),
        (["2Q6", "--dice", "1"], "Error: '2Q6' is not a dice expression (try D6, 2D6, D66, D3, 7D6 keep 6 highest)", 2),
        (["D6", "--dice", "3", "--ledger"], "Error: give either --dice/--card or --ledger, not both", 2),
    ],
)
def test_bad_dice_are_refused_and_nothing_is_written(two_warbands, args, message, code):
    before = events(two_warbands)
    result = two_warbands("roll", *args[:1], "--for", "x", *args[1:])
    assert (result.exit_code, result.output) == (code, message + "\n")
    assert events(two_warbands) == before


def test_dice_given_in_several_options_are_read_in_order(two_warbands):
    # A second --dice was taken alone, the first dropped: "needs 2D6 (1 more die)" of faces given twice
    result = two_warbands("roll", "3D6", "--for", "x", "--dice", "3", "--dice", "", "--dice", "5,6")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == "  R0 x: 3D6 rolled [3, 5, 6] = 14 (table)"


def test_ledger_dice_follow_the_committed_seed(two_warbands):
    result = two_warbands("roll", "D66", "--for", "exploration", "--ledger")
    seed = bytes(range(32))  # the fixed seed of the test fixture
    campaign_id = json.loads(two_warbands("show", "--json").output)["campaign_id"]
    faces = dice.ledger_faces(seed, campaign_id, 0, [6, 6])
    assert result.output.splitlines()[0] == (
        f"  R0 exploration: D66 rolled {faces} = {faces[0] * 10 + faces[1]} (ledger)"
    )


def test_a_disputed_ledger_roll_is_rolled_again_by_the_ledger_never_with_faces_typed_in(two_warbands):
    assert two_warbands("roll", "D6", "--for", "x", "--ledger").exit_code == 0
    before = events(two_warbands)
    typed = two_warbands("reroll", "R0", "--reason", "cocked", "--dice", "6")
    assert (typed.exit_code, typed.output) == (
        2, "Error: R0 was rolled by the ledger: it is rolled again by the ledger (--ledger), not with faces typed in\n")
    assert events(two_warbands) == before
    # Without dice it is the ledger's, whatever the campaign's default dice
    again = two_warbands("reroll", "R0", "--reason", "cocked")
    assert again.exit_code == 0, again.output
    assert again.output.splitlines()[1].startswith("  R1 x: D6 rolled [") and again.output.splitlines()[1].endswith("(ledger)")


def test_campaign_option_makes_ledger_dice_the_default(campaign):
    campaign("new", "Digital", "--option", "dice=ledger")
    result = campaign("roll", "D6", "--for", "x")
    assert result.exit_code == 0
    assert result.output.splitlines()[0].endswith("(ledger)")


def test_digital_deck_is_shuffled_with_ledger_dice_and_drawn_in_order(two_warbands):
    first = two_warbands("draw", "cards", "--for", "a card", "--ledger")
    lines = first.output.splitlines()
    assert lines[0] == "  R0 shuffle cards (ledger dice)"
    assert lines[1] == "  cards shuffled (ledger)"
    assert lines[2].startswith("  a card: drew ")
    second = two_warbands("draw", "cards", "--for", "another", "--ledger")
    assert second.output.splitlines()[0].startswith("  another: drew ")  # no second shuffle


def test_physical_deck_takes_the_card_drawn_at_the_table(campaign):
    campaign("new", "Cards", "--option", "decks=physical")
    assert campaign("draw", "cards", "--for", "event", "--card", "QH").output.splitlines()[0] == (
        "  event: drew QH from cards"
    )
    refused = campaign("draw", "cards", "--for", "event", "--card", "QH")
    assert (refused.exit_code, refused.output) == (2, "Error: event: 'QH' is not a card left in cards\n")


def test_a_deck_the_campaign_does_not_have_is_refused_naming_those_it_has(two_warbands, tmp_path):
    refused = two_warbands("draw", "standard", "--for", "event")
    assert (refused.exit_code, refused.output) == (2, "Error: there is no deck 'standard' in this campaign (decks: cards)\n")
    coreheim = CampaignRunner(f"sqlite:///{tmp_path / 'coreheim.db'}")
    assert coreheim("new", "Feud", "--ruleset", "coreheim").exit_code == 0
    refused = coreheim("draw", "cards", "--for", "event")
    assert (refused.exit_code, refused.output) == (
        2, "Error: there is no deck 'cards' in this campaign: its ruleset has no decks\n")


def test_interactive_prompt_asks_for_missing_dice_naming_the_roll(two_warbands, monkeypatch):
    monkeypatch.setattr(app, "is_interactive", lambda: True)
    result = two_warbands("roll", "2D6", "--for", "injury of Gunnar", input="9 2\n4 2\n")
    assert result.exit_code == 0
    assert "injury of Gunnar (2D6) — enter 2 faces (D6, D6): 9 2" in result.output
    assert "  injury of Gunnar (2D6): the 1st die of the 2D6 roll shows 9, not 1-6" in result.output
    assert "  R0 injury of Gunnar: 2D6 rolled [4, 2] = 6 (table)" in result.output


def test_a_die_given_to_a_command_that_rolls_none_is_refused(campaign):
    campaign("new", "Cards", "--option", "decks=physical")
    refused = campaign("draw", "cards", "--for", "event", "--card", "QH", "--dice", "3")
    assert (refused.exit_code, refused.output) == (2, "Error: 1 die given but only 0 used: check --dice\n")


def test_a_write_answers_with_json_its_transactions_rolls_and_new_head(two_warbands):
    rolled = two_warbands("roll", "2D6", "--for", "loot", "--dice", "3,5", "--json")
    assert rolled.exit_code == 0
    answer = json.loads(rolled.output)
    head = json.loads(two_warbands("show", "--json").output)["head"]
    assert answer == {
        "transactions": [6],
        "rolls": [{"roll": 0, "tx": 6, "expression": "2D6", "purpose": "loot", "faces": [3, 5], "value": 8,
                   "source": "table", "copy_of": None}],
        "events": [
            {"position": 15, "tx": 6, "type": "command.recorded", "text": "roll"},
            {"position": 16, "tx": 6, "type": "dice.rolled", "text": "R0 loot: 2D6 rolled [3, 5] = 8 (table)"},
        ],
        "head": head,
    }
    rerolled = json.loads(two_warbands("reroll", "R0", "--reason", "cocked", "--dice", "6,6", "--json").output)
    assert rerolled["transactions"] == [7, 8] and rerolled["rolls"][0]["faces"] == [6, 6]
    awarded = json.loads(two_warbands("xp", "award", "Gunnar", "1", "--reason", "x", "--json").output)
    assert [e["text"] for e in awarded["events"]] == ["xp.award", "Gunnar gains 1 XP (x)"]


@pytest.mark.parametrize("ruleset", ["coreheim", "trench-crusade", "warbands", "retinue"])
def test_rules_that_draw_no_card_offer_no_card_and_say_so_when_one_is_given(campaign, ruleset):
    """--card was offered by every ruleset command that rolls, and refused when given with a hint
    about speedheim's option `decks`, which these rulesets do not have."""
    assert campaign("new", "C", "--ruleset", ruleset).exit_code == 0
    before = events(campaign)
    refused = campaign("roll", "D6", "--for", "loot", "--card", "05")
    assert (refused.exit_code, refused.output) == (
        2, "Error: --card 05: this campaign draws no card by hand (its rules draw no card)\n")
    assert events(campaign) == before
    rolling = {"coreheim": "explore", "trench-crusade": "trauma", "warbands": "recovery", "retinue": "casualty"}
    if ruleset in rolling:
        shown = campaign(ruleset, rolling[ruleset], "--help").output
        assert "--dice" in shown and "--card" not in shown
    assert "--card" in campaign("speedheim", "incapacitate", "--help").output  # its deck is drawn by hand on request
