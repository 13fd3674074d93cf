"""campaign void / reroll: nothing is deleted, dependants are listed or cascaded, the log marks voids."""

import json

import pytest


@pytest.fixture
def after_battle(two_warbands):
    c = two_warbands
    c("battle", "record", "--warband", "Reikland Rats", "--warband", "Clan Skrittle", "--winner", "Clan Skrittle",
      "--ooa", "Gunnar", "--took-out", "Snikch=Gunnar")  # T6
    c("roll", "D6", "--for", "Gunnar's injury", "--dice", "2")  # T7, R0
    c("xp", "award", "Gunnar", "1", "--reason", "survived")  # T8
    return c


def show(c) -> dict:
    return json.loads(c("show", "--json").output)


def test_void_a_roll_without_dependants(after_battle):
    result = after_battle("void", "R0", "--reason", "cocked die")
    assert result.exit_code == 0
    assert result.output.splitlines()[0] == "  T7 voided (cocked die)"
    log = after_battle("log").output.splitlines()
    assert "   18 T7    arbiter    R0 Gunnar's injury: D6 rolled [2] = 2 (table)  [VOIDED by T9 (arbiter): cocked die]" in log
    assert show(after_battle)["voided"] == [7]


def test_void_with_dependants_is_refused_with_the_list_and_writes_nothing(after_battle):
    before = show(after_battle)["events"]
    result = after_battle("void", "T4", "--reason", "Gunnar was never hired")
    assert result.exit_code == 1
    assert result.output == (
        "Error: voiding T4 affects later transactions (add --cascade to void them too):\n"
        "  T6: no fighter 'gunnar'\n"
        "  T8: no fighter 'Gunnar'\n"
    )
    assert show(after_battle)["events"] == before


def test_void_with_cascade_voids_the_dependants_in_the_same_commit(after_battle):
    result = after_battle("--as", "Carol", "void", "T4", "--reason", "Gunnar was never hired", "--cascade")
    assert result.exit_code == 0
    assert result.output.splitlines()[:3] == [
        "  T4 voided (Gunnar was never hired)",
        "  T6 voided too (no longer follows once T4 is voided: no fighter 'gunnar')",
        "  T8 voided too (no longer follows once T4 is voided: no fighter 'Gunnar')",
    ]
    summary = show(after_battle)
    assert summary["voided"] == [4, 6, 8]
    assert summary["battles"] == []
    rats = next(w for w in summary["warbands"] if w["name"] == "Reikland Rats")
    assert (rats["treasury"], rats["fighters"]) == (500, 0)  # the hire's cost is back too
    assert "[VOIDED by T9 (Carol): Gunnar was never hired]" in after_battle("log").output


@pytest.mark.parametrize(
    ("ref", "message"),
    [
        ("T1", "Error: T1 (campaign.new) belongs to the ledger itself and cannot be voided\n"),
        ("T99", "Error: no transaction T99\n"),
        ("R42", "Error: no roll R42\n"),
        ("X1", "Error: 'X1' is not a reference: use T<transaction>, R<roll> or E<event position>\n"),
        ("", "Error: '' is not a reference: use T<transaction>, R<roll> or E<event position>\n"),
        (" ", "Error: ' ' is not a reference: use T<transaction>, R<roll> or E<event position>\n"),
        ("R²", "Error: 'R²' is not a reference: use T<transaction>, R<roll> or E<event position>\n"),
    ],
)
def test_void_refusals(after_battle, ref, message):
    assert after_battle("void", ref, "--reason", "why").output == message


def test_a_void_cannot_be_voided(after_battle):
    after_battle("void", "R0", "--reason", "cocked die")  # T9
    assert after_battle("void", "T9", "--reason", "undo").output == (
        "Error: T9 (void) belongs to the ledger itself and cannot be voided\n"
    )
    assert after_battle("void", "T7", "--reason", "again").output == "Error: T7 is already voided\n"


def test_void_by_event_position_voids_its_transaction(after_battle):
    assert after_battle("void", "E20", "--reason", "wrong fighter").output.splitlines()[0] == "  T8 voided (wrong fighter)"


def test_reroll_voids_and_rolls_again_in_one_commit(after_battle):
    result = after_battle("reroll", "R0", "--reason", "fell off the table", "--dice", "5")
    assert result.exit_code == 0
    assert result.output.splitlines()[:3] == [
        "  T7 voided (fell off the table)",
        "  R1 Gunnar's injury: D6 rolled [5] = 5 (table)",
        "Recorded T9, T10 (4 events). Head " + show(after_battle)["head"][:16],
    ]
    assert after_battle("replay", "--check").output == (
        "Re-decided 7 transactions from their commands and dice: all match.\n"
    )


def test_reroll_needs_a_roll_and_a_reason(after_battle):
    assert after_battle("reroll", "T7", "--reason", "x", "--dice", "5").output == (
        "Error: 'T7' is not a roll: reroll takes R<roll number>\n"
    )
    assert after_battle("void", "R0", "--reason", " ").output == "Error: say why with --reason: a void is part of the audit trail\n"


# --- void --cascade decides the later transactions again, with --answer and --dice (issue 9, item 10) ---

TRENCH = [
    ["new", "Crusade", "--ruleset", "trench-crusade"],
    ["warband", "add", "Pilgrims", "--player", "Ann", "--faction", "Trench Pilgrims"],
    ["trench-crusade", "recruit", "Pilgrims", "Gaius", "--model", "War Prophet", "--elite", "--keyword", "LEADER", "--free"],
    ["trench-crusade", "recruit", "Pilgrims", "Ezra", "--model", "Sniper Priest", "--elite", "--keyword", "LEADER", "--free"],
    ["trench-crusade", "recruit", "Pilgrims", "Anna", "--model", "Trench Pilgrim", "--free"],
    ["warband", "add", "Legion", "--player", "Bob", "--faction", "heretic-legions"],
    ["trench-crusade", "recruit", "Legion", "Baal", "--model", "Heretic Priest", "--elite"],  # T7
]


def lines(result) -> list[str]:
    assert result.exit_code == 0, result.output
    return result.output.splitlines()[:-1]  # without the transaction and head line


def given(campaign, *commands: list[str]):
    for args in commands:
        assert campaign(*args).exit_code == 0, args
    return campaign


@pytest.fixture
def crusade(campaign):
    return given(campaign, *TRENCH)


def test_void_cascade_answers_the_question_a_later_transaction_now_asks(crusade):
    # Given Ezra's LEADER keyword taken away (T8), then a battle won with a warband-level deed, its
    # Trauma, Promotions and Experience steps: the deed's XP went to Gaius, the only LEADER (T12),
    given(crusade, ["correct", "Pilgrims", "Ezra", "--remove-keyword", "LEADER", "--reason", "not a leader"],
          ["trench-crusade", "battle", "--warband", "Pilgrims", "--warband", "Legion", "--scenario", "Trench Warfare",
           "--winner", "Pilgrims", "--warband-deed", "Pilgrims=Victory or Death"],
          ["trench-crusade", "trauma", "Pilgrims"], ["trench-crusade", "promotions", "Pilgrims", "--even", "--dice", "1,2"],
          ["trench-crusade", "experience", "Pilgrims"])
    # when the correction is voided with --cascade and the answer to the question the Experience step
    # now asks (two LEADERs took part),
    result = crusade("void", "T8", "--reason", "Ezra leads after all", "--cascade", "--answer", "leader=Ezra")
    # then T12 is voided and decided again after the void, with that answer: Ezra gains the deed's XP.
    assert lines(result) == [
        "  T8 voided (Ezra leads after all)",
        "  T12 voided too (no longer follows once T8 is voided: Which ELITE LEADER gains the XP of the warband's "
        "Glorious Deed?: answer with --answer leader=CHOICE (one of: Gaius, Ezra); decided again after the void)",
        "  Gaius gains 1 XP (battle 1: survived)",
        "  Ezra gains 1 XP (battle 1: survived)",
        "  Ezra gains 1 XP (battle 1: Warband Glorious Deed)",
        "  Ezra reached the 2 XP circle: one Advancement Roll due",
        "  Pilgrims: post-game step Experience done for battle 1",
    ]
    assert result.output.splitlines()[-1].startswith("Recorded T13, T14 (9 events).")
    assert crusade("replay", "--check").output == "Re-decided 10 transactions from their commands and dice: all match.\n"


def test_void_cascade_rolls_the_dice_a_later_transaction_now_asks_for(crusade):
    # Given Anna and Ezra Out of Action, Ezra then corrected to dead (T9), so Trauma rolled for Anna alone (T10),
    given(crusade, ["trench-crusade", "battle", "--warband", "Pilgrims", "--warband", "Legion", "--scenario",
                    "Trench Warfare", "--ooa", "Anna", "--ooa", "Ezra"],
          ["correct", "Pilgrims", "Ezra", "--status", "dead", "--reason", "fell in the trench"],
          ["trench-crusade", "trauma", "Pilgrims", "--dice", "4"])
    # when the correction is voided with --cascade and a die,
    result = crusade("void", "T9", "--reason", "Ezra crawled back", "--cascade", "--dice", "4,1")
    # then Trauma is decided again: Anna's recorded die handed back, Ezra's D66 rolled with the new dice.
    assert lines(result) == [
        "  T9 voided (Ezra crawled back)",
        "  T10 voided too (no longer follows once T9 is voided: now needs a roll of D66 for Trauma roll for Ezra "
        "that was never made; decided again after the void)",
        "  R1 Survival Roll for Anna: D6 rolled [4] = 4 (table)",
        "  Anna rolled 4 after going Out of Action: survives",
        "  R2 Trauma roll for Ezra: D66 rolled [4, 1] = 41 (table)",
        "  Ezra rolled 41 after going Out of Action: Full Recovery",
        "  Pilgrims begins the Promotions & Experience Phase of battle 1 with 2 ELITE models: Gaius, Ezra",
        "  Pilgrims: post-game step Trauma done for battle 1",
    ]
    assert show(crusade)["voided"] == [9, 10]
    assert crusade("replay", "--check").output == "Re-decided 8 transactions from their commands and dice: all match.\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        pytest.param(["--answer", "leader=Ezra"],
                     "Error: --answer and --dice are for the later transactions --cascade decides again: add --cascade\n",
                     id="answers need --cascade"),
        pytest.param(["--cascade", "--answer", "colour=red"],
                     "Error: --answer colour: not a question of the transactions decided again (their keys: none: they "
                     "ask no questions)\n", id="an answer no transaction asks"),
    ],
)
def test_void_answers_and_dice_refusals_write_nothing(crusade, args, message):
    before = show(crusade)["events"]
    result = crusade("void", "T7", "--reason", "no Baal", *args)
    assert (result.exit_code, result.output) == (2, message)
    assert show(crusade)["events"] == before


def test_a_dependant_the_log_would_say_alike_is_named_by_the_fields_that_differ(campaign):
    """A void's dependant whose event reads the same either way (a battle's text names no deeds) was
    listed as “would now be X, not X”: the fields that differ say why, a battle's deeds by whose they are (they
    were their JSON: 'with deeds [{"fighter": "ivo", "glorious_deeds": [], …}], not […]')."""
    for args in (["new", "S", "--ruleset", "speedheim", "--option", "improvement=d20-table"],
                 ["warband", "add", "Sellswords", "--player", "Ann", "--treasury", "500"],
                 ["speedheim", "recruit", "Sellswords", "Ivo", "--role", "henchman", "--cost", "30",
                  "--stats", "Mov=6,Mel=14,Rgd=14,Def=18,Agi=10,Mrl=10,Atk=1,Wnd=1"],
                 ["speedheim", "recruit", "Sellswords", "Jan", "--role", "henchman", "--cost", "30",
                  "--stats", "Mov=6,Mel=14,Rgd=14,Def=18,Agi=10,Mrl=10,Atk=1,Wnd=1"],
                 ["speedheim", "incapacitate", "Sellswords", "Ivo", "Rat", "--kind", "henchman", "--dice", "20"],
                 ["speedheim", "battle", "--warband", "Sellswords"]):
        assert campaign(*args).exit_code == 0, args
    before = show(campaign)
    refused = campaign("void", "T5", "--reason", "wrong unit")
    assert (refused.exit_code, refused.output.splitlines()[1:]) == (1, [
        "  T6: event 18 would now be “battle 1: Sellswords, a draw” with Ivo's deeds: took out none, not Rat"])
    # Jan's recruitment voided, he never fought: named by his id, the fighter being gone
    refused = campaign("void", "T4", "--reason", "never hired")
    assert (refused.exit_code, refused.output.splitlines()[1:]) == (1, [
        "  T6: event 18 would now be “battle 1: Sellswords, a draw” with the deeds of Ivo, not of Ivo and jan"])
    assert show(campaign) == before


def test_a_decision_pending_for_want_of_dice_still_follows(campaign):
    """A Speedheim draw dealt by the ledger whose check die was not given is stored pending with no
    question: it was checked as if it no longer followed (replay --check, import, every later void)."""
    for args in (["new", "S", "--ruleset", "speedheim"], ["warband", "add", "Sellswords", "--player", "Ann", "--treasury", "500"],
                 ["speedheim", "recruit", "Sellswords", "Ivo", "--role", "hero", "--cost", "30",
                  "--stats", "Mov=6,Mel=14,Rgd=14,Def=18,Agi=10,Mrl=10,Atk=1,Wnd=1"],
                 ["speedheim", "recruit", "Sellswords", "Hal", "--role", "henchman", "--cost", "30",
                  "--stats", "Mov=6,Mel=14,Rgd=14,Def=18,Agi=10,Mrl=10,Atk=1,Wnd=1"]):  # T4
        assert campaign(*args).exit_code == 0, args
    for i in range(30):  # a card with no check die to roll is read without waiting: draw again
        drawn = campaign("speedheim", "incapacitate", "Sellswords", "Ivo", f"Rat{i}", "--kind", "hero",
                         "--answer", f"ivo.rat{i}.1.mel-rgd=Mel")
        if "is pending" in drawn.output:
            break
    assert "(1 more die)" in drawn.output and "is pending" in drawn.output, drawn.output
    assert campaign("replay", "--check").output.endswith("all match.\n")
    assert campaign("void", "T4", "--reason", "Hal was never hired").exit_code == 0
    assert campaign("answer", "--dice", "12").exit_code == 0
    assert campaign("replay", "--check").output.endswith("all match.\n")

