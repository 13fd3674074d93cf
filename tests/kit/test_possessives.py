"""A name ending in s takes an apostrophe alone ("Lucius' Promotion Die", not "Lucius's"), by ledger.text.possessive,
wherever the words are not stored in events: the log's lines (rows format 7) and the refusals, under every version.
Words stored in events say it so from a version of their ruleset (kit.possessive_since; tested with each ruleset)."""

from __future__ import annotations

import pytest

from commands.retinue import events as re
from commands.speedheim import events as se
from commands.trench_crusade import events as te
from ledger.state import CampaignState


@pytest.mark.parametrize(("event", "said"), [
    (se.Modifiers(warband="w", fighter="Lucius", modifiers={"Fight": 1}), "Lucius' equipment modifiers: Fight +1"),
    (te.ModelEntry(warband="w", fighter="Lucius", model="Trench Pilgrim"), "Lucius' Faction List entry: Trench Pilgrim"),
    (te.PromotionRollsStopped(warband="w", stopped="first-six", unrolled=2, fighter="Lucius"),
     "w stopped rolling Promotion Dice: Lucius' die is the first 6, and a 6 ends the rolling; 2 dice not rolled"),
    (te.PromotionDieRolled(warband="w", fighter="Lucius", roll=0, die=1, of=2, face=3, counted_as_six=False,
                           promoted=False, streak=1), "Lucius' Promotion Die 1 of 2: 3, no Promotion (1 die in a row without one)"),
    (re.OutcomeRolled(warband="w", battle=1, fighter="Lucius", table="casualty", roll=0, result=4, outcome="Hardy", kind="hardy",
                      row="casualty 4"), "Lucius' Casualty Table: 4 — Hardy (row casualty 4)"),
])
def test_the_logs_lines_say_a_possessive_of_a_name_ending_in_s_with_an_apostrophe_alone(event, said):
    """They said "Lucius's …"."""
    assert event.describe(CampaignState()) == said


def lucius(**stats: int):
    from commands.retinue import rules
    return rules.Fighter(id="lucius", name="Lucius", stats=stats, keywords=("Human", "Warrior"))


def test_the_rules_refusals_say_a_possessive_of_a_name_ending_in_s_with_an_apostrophe_alone():
    """Retinue's S6 and Coreheim's injuries said "Lucius's Fight", "Hans's injuries"."""
    from commands.coreheim.rules import CoreheimRuleError, resolve_hero_injury
    from commands.coreheim.tables import TABLES
    from commands.retinue import rules

    with pytest.raises(rules.RetinueRuleError, match="^S6: Lucius' Fight is 6, the maximum of 6$"):
        rules.check_attribute_raise(lucius(Fight=6), "Fight")
    with pytest.raises(CoreheimRuleError, match="^Hans' injuries needed 1 D66 rolls, but 2 were given$"):
        resolve_hero_injury([(6, 6), (6, 6)], hero="Hans", warband_game_number=1, tables=TABLES.defaults)
