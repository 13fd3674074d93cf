"""Version 6, given the usual warbands (conftest): a card read says the rule that decided it; and
version 5, as campaigns recorded on it keep deciding."""

from __future__ import annotations

import pytest

from commands.speedheim import events as se

from .conftest import Table, of


def warbands(options: dict, version: str | None = None) -> Table:
    campaign = Table(options, version=version)
    campaign.warbands()
    return campaign


@pytest.mark.parametrize(("face", "version", "why"), [
    (3, None, "rolled 3, a natural 1-4 fails: Def stays 17"),
    (20, None, "rolled 20, a natural 20 succeeds: Def 17 -> 16"),
    (3, "5", "rolled 3, over 17: Def stays 17"),
    (20, "5", "rolled 20, 17 or under: Def 17 -> 16"),
])
def test_a_check_decided_by_a_natural_roll_says_so(face, version, why):
    """"Recall that an unmodified roll of 1-4 is always a failure for Defence, Melee, Ranged, Agility, and
    Morale Stat Checks" (and a natural 20 always succeeds, rules file §1), under natural_rolls_on_improvement."""
    campaign = warbands({"natural_rolls_on_improvement": True}, version)
    # When Gunnar (Def 17) draws a Def card and rolls a natural 3, or a natural 20
    read = of(campaign.incap("Gunnar", "Rat", [face], ["08"]), se.CardRead)[0]
    # Then the card read gives the natural roll as the reason (version 5: "over 17" of a 3, "17 or under" of a 20)
    assert (read.outcome, read.why) == ("failed" if face == 3 else "improved", why)
