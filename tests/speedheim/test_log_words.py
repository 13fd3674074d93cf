"""The log's lines of Speedheim events (read-model rows formats 3 and 4): given these events, then they read so.
Games side by side (an Incapacitation's battle) are in test_games_side_by_side."""

from __future__ import annotations

import pytest

from commands.speedheim import events as se
from ledger import events as ev
from ledger.describe import describe

from .conftest import Table


@pytest.mark.parametrize("event, said", [
    # was "Gunnar learns Skills from: Melee, Defence"
    (se.SkillTypes(warband="sellswords", fighter="gunnar", types=["Melee", "Defence"]),
     "Gunnar learns Skills of the types Melee, Defence"),
    # were "Skaven has 4 hero slots: Rat promoted" and "…: bought" (the reasons as recorded)
    (se.HeroSlots(warband="skaven", slots=4, reason="Rat promoted"), "Skaven has 4 hero slots (Rat promoted)"),
    (se.HeroSlots(warband="sellswords", slots=4, reason="bought"), "Sellswords has 4 hero slots (bought)"),
])
def test_skill_types_and_hero_slots_read_as_sentences(event, said):
    campaign = Table({})
    campaign.warbands()
    assert describe(event, campaign.state) == said


def test_a_blank_henchman_half_says_it_does_not_promote():
    """Seed 000: "For a henchman, check the 'Henchman' half of the card. It will usually be blank". The log said
    "Jan reads the henchman half of card 11 (…), blank: blank henchman half"."""
    campaign = Table({})
    campaign.warbands()
    read = se.CardRead(warband="sellswords", fighter="gunnar", attempt="incapacitation", battle=1, half="henchman",
                       card="11", deck="improvement", position=15, reads="blank", outcome="nothing",
                       why="blank henchman half")
    assert describe(read, campaign.state) == (
        "Gunnar reads the henchman half of card 11 (15th from the top of improvement), which is blank: it does not promote")


def _d20(purpose: str, face: int, expression: str = "D20") -> ev.DiceRolled:
    return ev.DiceRolled(roll=2, expression=expression, purpose=purpose, faces=[face], value=face, source="table")


@pytest.mark.parametrize("rolled, meaning", [
    # Hero Scars "11–15: nothing", Henchman Scars "5–20 nothing", the Blight Roll "5–15 nothing" (rules file §7 step 4):
    # no record follows the roll, which read alone (format 3)
    (_d20("Gunnar: Hero Scars", 11), "; no effect (Scar 11: Full Recovery)"),
    (_d20("Gunnar: Hero Scars", 15), "; no effect (Scar 15: Full Recovery)"),
    (_d20("Ivo: Henchman Scars", 5), "; no effect (Scar 5: Full Recovery)"),
    (_d20("Ivo: Henchman Scars", 20), "; no effect (Scar 20: Full Recovery)"),
    (_d20("Ivo: Blight roll", 5), "; no effect (Blight roll: No change)"),
    (_d20("Gunnar: Blight roll", 15), "; no effect (Blight roll: No change)"),
    # a row that does something says it in the records after the roll, with the row as their reason
    (_d20("Gunnar: Hero Scars", 10), ""),  # Light Wound
    (_d20("Gunnar: Hero Scars", 16), ""),  # Pit Fight
    (_d20("Ivo: Henchman Scars", 4), ""),  # Dead
    (_d20("Ivo: Blight roll", 16), ""),  # Cured
    (_d20("Gunnar: Major Wound", 12), ""),
    # a roll of `campaign roll` is described as it was rolled, whatever its purpose says
    (_d20("Ivo: Hero Scars", 37, expression="2D20"), ""),
])
def test_a_scars_roll_that_changes_nothing_says_so(rolled, meaning):
    campaign = Table({})
    campaign.warbands()
    assert describe(rolled, campaign.state) == (
        f"R2 {rolled.purpose}: {rolled.expression} rolled [{rolled.value}] = {rolled.value} (table){meaning}")


@pytest.mark.parametrize("half, row, reads, outcome, why, said", [
    # was "Gunnar reads the hero half of d20 row 20 (R5), +1 Wnd: …": a row of the d20 table has no halves
    ("hero", "20", "+1 Wnd", "redraw", "Wnd already at its cap of 3: roll again",
     "Gunnar reads row 20 of the Hero Improvement Table (R5), +1 Wnd: Wnd already at its cap of 3: roll again"),
    ("hero", "7-11", "Mel/Rgd (roll under)", "improved", "rolled 12, 12 or under: Mel 12 -> 11",
     "Gunnar reads row 7-11 of the Hero Improvement Table (R5), Mel/Rgd (roll under): rolled 12, 12 or under: Mel 12 -> 11"),
    # a henchman on the d20 method rolls the deck's henchman odds as a d20 (rules file §4)
    ("henchman", "18-19", "Promote if a Hero", "promote", "promote: it Incapacitated a Hero",
     "Gunnar reads row 18-19 of the henchman d20 table (R5), Promote if a Hero: promote: it Incapacitated a Hero"),
    ("henchman", "1-14", "blank", "nothing", "blank henchman half",
     "Gunnar reads row 1-14 of the henchman d20 table (R5), which is blank: it does not promote"),
])
def test_a_row_of_a_d20_table_reads_as_a_row_not_a_half(half, row, reads, outcome, why, said):
    """`improvement=d20-table` (the seed's "alternate method … via rolling a d20"): the log names the table's row and
    its roll, as it names a card and its place in the deck (read-model rows format 6)."""
    campaign = Table({"improvement": "d20-table"})
    campaign.warbands()
    read = se.CardRead(warband="sellswords", fighter="gunnar", attempt="incapacitation", battle=1, half=half, card=row,
                       roll=5, reads=reads, outcome=outcome, why=why)
    assert describe(read, campaign.state) == said
