"""The log's lines of Speedheim events (read-model rows format 3): given these events, then they read so.
Games side by side (an Incapacitation's battle) are in test_games_side_by_side."""

from __future__ import annotations

import pytest

from commands.speedheim import events as se
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
