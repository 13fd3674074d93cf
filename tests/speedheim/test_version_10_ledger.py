"""Version 10, given the usual warbands (conftest): one Treasure die is "1 Treasure die" in the Income roll
and the treasury's reason; and version 9, as campaigns recorded on it keep deciding ("1 Treasure dice")."""

from __future__ import annotations

import pytest

from commands.speedheim import postgame as pg
from ledger import events as ev

from .conftest import Table, of


def lost_to_the_skaven(version: str | None = None) -> Table:
    """Battle 1, won by the Skaven, nobody Incapacitated."""
    campaign = Table({}, version=version)
    campaign.warbands()
    campaign.battle(winner="Skaven")
    return campaign


@pytest.mark.parametrize(("version", "warband", "tokens", "dice", "purpose", "reason"), [
    # Rules §7: "Roll 1 d20 per token"; "the winner adds 1": the Skaven, winners with no token, roll one die
    (None, "Skaven", 0, [7], "Skaven: income, 1 Treasure die", "income: Treasure die 7 + 40g"),
    (None, "Sellswords", 2, [7, 5], "Sellswords: income, 2 Treasure dice", "income: Treasure dice 12 + 40g"),
    ("9", "Skaven", 0, [7], "Skaven: income, 1 Treasure dice", "income: Treasure dice 7 + 40g"),
    ("9", "Sellswords", 2, [7, 5], "Sellswords: income, 2 Treasure dice", "income: Treasure dice 12 + 40g"),
])
def test_treasure_dice_are_counted_in_the_singular_and_plural_from_version_10(version, warband, tokens, dice, purpose, reason):
    campaign = lost_to_the_skaven(version)
    # When the warband rolls its income
    events = campaign.do(pg.Income(warband=warband, tokens=tokens), dice)
    # Then its roll and the treasury's reason count the dice
    assert [roll.purpose for roll in of(events, ev.DiceRolled)] == [purpose]
    assert [change.reason for change in of(events, ev.TreasuryChanged)] == [reason]


@pytest.mark.parametrize(("version", "kept_card_asked_as"), [
    (None, "rikk.advantage.1.mel-rgd"),  # the pair is one draw: its keep and the kept card's question, draw 1
    ("9", "rikk.advantage.2.mel-rgd"),  # version 9 asked the kept card's question as a 2nd draw's
])
def test_an_advantage_pairs_questions_share_its_number_from_version_10(version, kept_card_asked_as):
    """Scar 20, "an Improvement Attempt with Advantage" (rules §7): Rikk draws 10 and 02 and keeps 10, Mel/Rgd."""
    campaign = Table({}, version=version)
    campaign.warbands()
    campaign.incap("Gunnar", "Rikk", cards=["01"])
    campaign.battle()
    campaign.do(pg.Income(warband="Skaven"))
    campaign.do(pg.Promotions(warband="Skaven"))
    # When his Scars roll is 20 and the answers name the pair's keep and the kept card's stat
    answers = {"rikk.advantage.1.keep": "10", kept_card_asked_as: "Mel"}
    events = campaign.do(pg.Scars(warband="Skaven", answers=answers), [20, 3], ["10", "02"])
    # Then he tries Mel with card 10, and his 3 improves it
    assert of(events, ev.StatChanged) == [ev.StatChanged(warband="skaven", fighter="rikk", stat="Mel", delta=-1,
                                                         reason="Improvement (advantage), card 10", row="10")]
