"""Version 7, given the usual warbands (conftest): an arbiter's correction that takes a warband's last Leader
with no hero left to gain the Leader skill records that the warband has no Leader; and version 6, as campaigns
recorded on it keep deciding."""

from __future__ import annotations

import pytest

from commands.shared import Correct
from ledger import events as ev

from .conftest import Table, of


def gunnar_the_only_hero(version: str | None = None) -> Table:
    """The Sellswords with Gunnar, their Leader, as their only hero (Hilde dead), and Ivo, a henchman."""
    campaign = Table({}, version=version)
    campaign.warbands()
    campaign.do(Correct(warband="Sellswords", fighter="Hilde", reason="setup", status="dead"))
    return campaign


@pytest.mark.parametrize(("status", "event", "gone"), [
    ("dead", ev.FighterDied, "died"),
    ("captured", ev.FighterCaptured, "was captured"),
    ("retired", ev.FighterRetired, "retired"),
])
def test_the_last_leader_corrected_away_with_no_hero_left_leaves_a_warband_said_to_have_no_leader(status, event, gone):
    """A warband "must always have a Leader"; "If the Leader dies, another hero gains the `Leader` skill" (rules
    file §2). With no hero to gain it the death is still a fact of the table: it is recorded, and so is what it
    leaves, as a death of a Scar does (version 6); a Leader is recruited later (`speedheim status` says how)."""
    campaign = gunnar_the_only_hero()
    # When the arbiter corrects Gunnar to dead, captured or retired
    events = campaign.do(Correct(warband="Sellswords", fighter="Gunnar", reason="fell off the bridge", status=status))
    # Then that is recorded, and that the Sellswords have no Leader
    assert events == [event(warband="sellswords", fighter="gunnar", reason="correction: fell off the bridge"),
                      ev.NoteRecorded(text=f"Gunnar, the Leader, {gone}, and no hero is left to gain the Leader skill: "
                                           "Sellswords has no Leader", warband="sellswords")]


def test_on_version_6_the_correction_recorded_the_leaders_death_alone():
    events = gunnar_the_only_hero("6").do(Correct(warband="Sellswords", fighter="Gunnar", reason="x", status="dead"))
    assert events == [ev.FighterDied(warband="sellswords", fighter="gunnar", reason="correction: x")]


def as_recruited(campaign: Table) -> None:
    """Gunnar leads, and Hilde is a hero."""


def gunnar_dead_already(campaign: Table) -> None:
    campaign.do(Correct(warband="Sellswords", fighter="Hilde", reason="setup", status="dead"))
    campaign.do(Correct(warband="Sellswords", fighter="Gunnar", reason="x", status="dead"))


@pytest.mark.parametrize(("version", "given", "fighter"), [
    (None, as_recruited, "Gunnar"),  # Hilde is left to gain the skill (version 7: by hand; 8: as she is named)
    ("8", gunnar_dead_already, "Gunnar"),  # it was said when he died (from version 9 a dead man is not corrected dead)
    (None, gunnar_dead_already, "Ivo"),  # a henchman leads nothing
])
def test_a_correction_that_leaves_no_warband_newly_without_a_leader_notes_nothing(version, given, fighter):
    campaign = Table({}, version=version)
    campaign.warbands()
    given(campaign)
    # Version 8 as recorded: typed now, no version corrects a dead fighter's status
    decided = campaign.do if version is None else campaign.decided_again
    events = decided(Correct(warband="Sellswords", fighter=fighter, reason="y", status="dead"))
    assert of(events, ev.NoteRecorded) == [] and len(of(events, ev.FighterDied)) == 1
