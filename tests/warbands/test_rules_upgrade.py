"""`campaign rules upgrade` from version 4 onto 5 and the post-battle sequence (Recovery, Injuries, survival,
Experience): typed while a warband is part way through a battle's sequence it is refused, so that one battle's
steps are all decided under one version; before any step of the latest battle is recorded, or once every step is
done, it is taken; one recorded part way (before the refusal) is decided again as it was."""

from __future__ import annotations

import pytest

from commands.shared import UpgradeRules
from commands.warbands.handlers import Injuries, Recovery
from ledger import events as ev

from .conftest import Table

ONTO_5 = UpgradeRules(version="5")
UPGRADED = [ev.RulesetUpgraded(version="5", previous="4")]


def fought_on_version_4() -> Table:
    """Battle 1 on version 4, the Reiklanders winning, nobody a casualty."""
    table = Table(version="4")
    table.empire()
    table.orcs()
    table.battle()
    return table


def reiklanders_recovery(table: Table) -> None:
    table.do(Recovery(warband="Reiklanders"))


def reiklanders_recovery_and_injuries(table: Table) -> None:
    reiklanders_recovery(table)
    table.do(Injuries(warband="Reiklanders"))


@pytest.mark.parametrize(("given", "done", "next_step"), [
    (reiklanders_recovery, "Recovery", "Injuries"),
    (reiklanders_recovery_and_injuries, "Recovery, Injuries", "Survival"),
])
def test_an_upgrade_typed_part_way_through_the_sequence_is_refused(given, done, next_step):
    table = fought_on_version_4()
    given(table)
    # When the upgrade is typed, then it is refused naming who, which battle and what to finish, nothing written
    assert table.refusal(ONTO_5) == (
        f"Reiklanders is part way through the post-game of battle 1 (done: {done}; next: {next_step}): a battle's "
        "post-game is decided under one version, so finish it first (campaign post-game Reiklanders), then upgrade "
        "from v4 to v5")


@pytest.mark.parametrize("given", [
    lambda table: None,  # the battle recorded, no step of its sequence yet
    lambda table: (table.post_game("Reiklanders"), table.post_game("Da Boyz")),  # between battles
])
def test_an_upgrade_typed_before_or_after_the_sequence_is_taken(given):
    table = fought_on_version_4()
    given(table)
    assert table.do(ONTO_5) == UPGRADED


def test_an_upgrade_recorded_part_way_through_the_sequence_is_decided_again_as_it_was():
    """Replay, voids and import decide a recorded command again (not typed now): it is not refused."""
    table = fought_on_version_4()
    reiklanders_recovery(table)
    assert table.decided_again(ONTO_5) == UPGRADED
