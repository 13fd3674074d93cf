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
