"""Version 11, given the usual warbands (conftest): an Arcane caster's Basic spell is innate ("Arcane casters (Blight,
Life, Necromantic and Vampiric Magic) also have an innate Basic spell", rules §2), so it is no spell to learn; and
version 10, as campaigns recorded on it keep deciding (Skab, a Blight Magic caster, was offered Sewer Filth)."""

from __future__ import annotations

import pytest

from commands.shared import Correct
from commands.speedheim import handlers as h
from commands.speedheim import postgame as pg

from .conftest import Table

BLIGHT_SPELLS = ["Blight Bolt", "Swarm of Rats", "Pounce", "Rat Rage"]  # and its Basic spell, Sewer Filth


def blight_caster(version: str | None) -> Table:
    """Skab, the Skaven's leader, a Blight Magic caster."""
    campaign = Table({}, version=version)
    campaign.warbands()
    campaign.do(Correct(warband="Skaven", fighter="Skab", reason="a Blight Magic caster", add_keywords=["Blight Magic"]))
    return campaign


@pytest.mark.parametrize(("version", "spells"), [(None, BLIGHT_SPELLS), ("10", [*BLIGHT_SPELLS[:2], "Sewer Filth", *BLIGHT_SPELLS[2:]])])
def test_an_arcane_caster_learns_no_basic_spell_from_version_11(version, spells):
    campaign = blight_caster(version)
    skab = campaign.state.fighter("Skab")
    # Then his spells to learn, and those a Skill/Spell card counts as left, are his school's but its Basic spell
    assert [s for s in h.allowed_to_learn(campaign.state, skab) if s in spells or s == "Sewer Filth"] == spells
    assert h.unit_of(campaign.state, skab, h.tables_for(campaign.state)).spells_left == len(spells)


def test_a_basic_spell_named_to_learn_is_refused_saying_it_is_innate():
    # Given Skab drew a Skill/Spell card (07) and the Skaven are at the learning step
    campaign = blight_caster(None)
    campaign.incap("Skab", "Ivo", cards=["07"])
    campaign.battle(winner="Skaven")
    for step, dice, cards in ((pg.Income(warband="Skaven"), [7], []), (pg.Promotions(warband="Skaven"), [], []),
                              (pg.Scars(warband="Skaven"), [], []), (pg.FreeAttempts(warband="Skaven"), [], ["02", "04"])):
        campaign.do(step, dice, cards)
    # When he is to learn Sewer Filth, then it is refused as his already
    refused = campaign.refusal(pg.Learn(warband="Skaven", fighter="Skab", skill="sewer filth"))
    assert refused.startswith("Skab cannot learn Sewer Filth, the Basic spell of Blight Magic: an Arcane caster has it "
                              "innately and does not learn it (can learn: Ambush, ")
    assert refused.endswith(", Blight Bolt, Swarm of Rats, Pounce, Rat Rage)")
