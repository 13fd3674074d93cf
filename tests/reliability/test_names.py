"""Names and free texts (issue #13, item 7): control characters refused, bidirectional text
isolated when shown, documented length limits, and NFC-equal names are one name."""

from __future__ import annotations

import unicodedata

import pytest

from ledger.text import NAME_LIMIT, TEXT_LIMIT

FSI, PDI = "\u2068", "\u2069"


@pytest.mark.parametrize("args", [
    ["warband", "add", "Rats\n   99 T99   arbiter    Gunnar gains 100 XP", "--player", "Ann"],
    ["fighter", "add", "Reikland Rats", "Gun\rnar", "--role", "hero"],
    ["note", "a\x1b[2Jcleared screen"],
    ["xp", "award", "Gunnar", "1", "--reason", "tab\there"],
    ["--as", "Ann\x00", "note", "hi"],
])
def test_a_control_character_is_refused_and_nothing_written(league, store_bytes, args):
    before = store_bytes()
    result = league(*args)
    assert result.exit_code == 2
    assert result.output.startswith("Error: argument '") and "holds the control character U+00" in result.output
    assert result.output.count("\n") == 1
    assert store_bytes() == before


def test_a_right_to_left_override_is_refused(league, store_bytes):
    before = store_bytes()
    result = league("warband", "add", "Rats\u202eslaM", "--player", "Ann")
    assert result.output == ("Error: argument 'Rats\\u202eslaM' holds the control character U+202E; names and texts may "
                             "not hold one\n")
    assert store_bytes() == before


@pytest.mark.parametrize("invisible", ["\u200b", "\u2060", "\ufeff", "\u00ad", "\U000e0041", "\u2028",
                                       # default ignorable, though not format characters
                                       "\u034f", "\ufe0f", "\u17b4", "\u115f", "\u3164", "\uffa0"])
def test_an_invisible_character_is_refused_it_would_pass_for_another_name(league, store_bytes, invisible):
    before = store_bytes()
    result = league("warband", "add", f"Reikland Rats{invisible}", "--player", "Mallory")
    assert (result.exit_code, result.output) == (2, (
        f"Error: argument 'Reikland Rats\\u{ord(invisible):04x}' holds the invisible character U+{ord(invisible):04X}, "
        "which would make it look like another; names and texts may not hold one\n"))
    assert store_bytes() == before


def test_a_text_holding_the_logs_void_mark_is_refused_it_would_pass_a_live_award_for_voided(league, store_bytes):
    before = store_bytes()
    result = league("note", "took out Snik  [voided by T11 (arbiter): miscounted]")
    assert (result.exit_code, result.output) == (2, (
        "Error: argument 'took out Snik  [voided by T11 (arbiter):…' holds '[VOIDED', the log's mark of a voided "
        "transaction: a reason holding it would pass a live one for voided\n"))
    assert store_bytes() == before


def test_an_emojis_own_variation_selector_is_taken(league):
    heart = "\u2764\ufe0f"  # a red heart: the selector makes the symbol an emoji
    assert league("warband", "add", f"Rats {heart}", "--player", "Ann").exit_code == 0


def test_an_actor_from_the_environment_is_checked_too(league, monkeypatch):
    from click.testing import CliRunner

    from ledger.cli import main

    result = CliRunner().invoke(main, ["--store", league.store, "note", "hi"], env={"CAMPAIGN_ACTOR": "Ann\nBob"})
    assert (result.exit_code, result.output) == (
        2, "Error: argument 'Ann\\u000aBob' holds the control character U+000A; names and texts may not hold one\n")


def test_right_to_left_names_are_isolated_when_shown(league):
    hebrew = "\u05d7\u05d5\u05dc\u05d3\u05d4"  # a warband name written right to left
    assert league("warband", "add", hebrew, "--player", "Dana", "--treasury", "7").exit_code == 0
    # The name is isolated, and so is the whole description in its column of the log.
    assert f"arbiter    {FSI}{FSI}{hebrew}{PDI} enlisted by Dana with 7 in the treasury{PDI}\n" in league("log").output
    assert league("roster", hebrew).output.startswith(f"{FSI}{hebrew}{PDI} (Dana)")
    assert f"  {FSI}{hebrew}{PDI} (Dana): 0 fighters" in league("show").output


def test_stored_control_characters_are_escaped_when_shown(league, tmp_path):
    # A trail from elsewhere may hold what the command line refuses: it is shown escaped, on one line.
    from ledger.text import shown

    assert shown("Rats\n   9 T9 forged") == "Rats\\u000a   9 T9 forged"
    assert shown("a\u202eb") == "a\\u202eb"


@pytest.mark.parametrize("args, message", [
    (["warband", "add", "R" * (NAME_LIMIT + 1), "--player", "Ann"], f"Error: the name 'RRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRR…' is {NAME_LIMIT + 1} characters long; names take at most {NAME_LIMIT}\n"),
    (["warband", "add", "Rats", "--player", "P" * (NAME_LIMIT + 1)], f"Error: the player 'PPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPP…' is {NAME_LIMIT + 1} characters long; names take at most {NAME_LIMIT}\n"),
    (["fighter", "add", "Reikland Rats", "G" * 100_000], f"Error: argument 'GGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGG…' is 100000 characters long; the limit is {TEXT_LIMIT} (names: {NAME_LIMIT})\n"),
    (["note", "n" * 100_000], f"Error: argument 'nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn…' is 100000 characters long; the limit is {TEXT_LIMIT} (names: {NAME_LIMIT})\n"),
])
def test_names_and_texts_have_length_limits(league, store_bytes, args, message):
    before = store_bytes()
    result = league(*args)
    assert (result.exit_code, result.output) == (2, message)
    assert store_bytes() == before


def test_the_limits_themselves_are_accepted(league):
    assert league("warband", "add", "W" * NAME_LIMIT, "--player", "Ann").exit_code == 0
    assert league("note", "n" * TEXT_LIMIT).exit_code == 0


def test_a_new_campaign_name_is_limited_too(cli, db_path):
    result = cli("new", "C" * (NAME_LIMIT + 1))
    assert result.exit_code == 2 and "names take at most" in result.output
    assert not db_path.exists()


def test_two_spellings_equal_after_nfc_are_one_name(league):
    composed, decomposed = "Caf\u00e9 Rats", "Cafe\u0301 Rats"
    assert unicodedata.normalize("NFC", decomposed) == composed != decomposed
    assert league("warband", "add", decomposed, "--player", "Ann").exit_code == 0
    again = league("warband", "add", composed, "--player", "Bob")
    assert again.exit_code != 0 and "Caf\u00e9 Rats" in again.output
    assert league("roster", decomposed).output.startswith("Caf\u00e9 Rats (Ann)")


def shown_by_character(value: str) -> str:
    """What `shown` gives, each character looked at: forbidden ones escaped, right-to-left text isolated."""
    from ledger import text

    escaped = "".join(f"\\u{ord(c):04x}" if text._forbidden(c) else c for c in value)
    right_to_left = any(unicodedata.bidirectional(c) in ("R", "AL") for c in escaped)
    return text._FSI + escaped + text._PDI if right_to_left else escaped


@pytest.mark.parametrize("char", [chr(code) for code in range(128)] + ["\u202e", "\u05d0", "é", "\u2066"])
def test_text_is_shown_as_the_check_of_each_character_shows_it(char):
    """Printable ASCII passes through untouched without a look at each character: the same answer."""
    from ledger.text import shown

    for value in (char, f"Rat {char} King"):
        assert shown(value) == shown_by_character(value)


def test_a_name_that_is_another_fighter_s_hidden_id_is_refused(league, store_bytes):
    # Gunnar, renamed Old Gunnar, keeps the id gunnar: a new hero called gunnar would be taken for him,
    # as a name is looked up as an id first ('xp award gunnar' gave Old Gunnar the XP)
    assert league("fighter", "rename", "Gunnar", "Old Gunnar").exit_code == 0
    before = store_bytes()
    for args in (["fighter", "add", "Reikland Rats", "gunnar", "--role", "hero"],
                 ["fighter", "rename", "Snikch", "GUNNAR"]):
        result = league(*args)
        assert (result.exit_code, result.output) == (2, f"Error: '{args[-3] if args[1] == 'add' else args[-1]}' is the id "
                                                        "of Old Gunnar: a fighter called so would be taken for him; "
                                                        "choose another name\n")
    assert store_bytes() == before
    # His own name again, and a fighter of the same name as another, are as before
    assert league("fighter", "rename", "Old Gunnar", "Gunnar").exit_code == 0
    assert league("fighter", "add", "Clan Skrittle", "Gunnar", "--role", "hero").exit_code == 0


def test_a_warband_name_that_is_another_warband_s_id_is_refused(league, store_bytes):
    before = store_bytes()
    result = league("warband", "add", "reikland-rats", "--player", "Bob")
    assert (result.exit_code, result.output) == (2, "Error: 'reikland-rats' is the id of the warband Reikland Rats: a "
                                                    "warband called so would be taken for it; choose another name\n")
    assert store_bytes() == before


def test_a_fighter_is_still_looked_up_by_id_where_a_name_is_another_s_id():
    """A store that holds such names (recorded before the check): every lookup by id, as a battle's deeds
    make them, finds the fighter of the id (it refused every battle of such warbands)."""
    from ledger import events as ev
    from ledger.state import TYPED_NOW, CampaignState, evolve

    state = CampaignState(ruleset="freeform")
    for event in (ev.WarbandEnlisted(warband="rats", name="Rats", player="Ann"),
                  ev.FighterRecruited(warband="rats", fighter="old-gunnar", name="Old Gunnar", role="leader"),
                  ev.FighterRecruited(warband="rats", fighter="old-gunnar-2", name="old-gunnar", role="hero")):
        evolve(state, event)
    typed_now = TYPED_NOW.set(True)
    try:
        assert [state.fighter(ref).name for ref in ("old-gunnar", "old-gunnar-2")] == ["Old Gunnar", "old-gunnar"]
    finally:
        TYPED_NOW.reset(typed_now)


def test_a_recorded_command_naming_a_hidden_id_decides_again_as_it_did():
    """Replays are unchanged: a recorded recruit of such a name (before this check) is decided again as it was."""
    from commands.shared import EnlistWarband, RecruitFighter, RenameFighter
    from ledger import events as ev
    from ledger import rulesets
    from ledger.decide import TableDice
    from ledger.deciding import decide
    from ledger.testing import LedgerHarness

    campaign = LedgerHarness("freeform")
    for command in (EnlistWarband(name="Rats", player="Ann"), RecruitFighter(warband="Rats", name="Gunnar", role="leader"),
                    RenameFighter(fighter="Gunnar", name="Old Gunnar")):
        campaign.do(command)
    recruit = RecruitFighter(warband="Rats", name="gunnar", role="hero")
    assert campaign.refusal(recruit).startswith("'gunnar' is the id of Old Gunnar")  # typed now
    decided = decide(rulesets.get("freeform"), campaign.state, recruit, dice=TableDice([]), shuffle_dice=None)
    assert [(e.fighter, e.name) for e in decided if isinstance(e, ev.FighterRecruited)] == [("gunnar-2", "gunnar")]
