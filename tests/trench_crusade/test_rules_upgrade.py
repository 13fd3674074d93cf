"""`campaign rules upgrade` onto 1.6.0, which counts the ELITE "at the start of the Promotions & Experience Phase"
as the Trauma step records them (rules §4): given a campaign on 1.5.0 whose Pilgrims did their Trauma step, which
recorded no count, the upgrade typed now is refused while their post-game is part way done (so their Promotions step
is taken under the version their Trauma step was); once it is finished the upgrade is taken; an upgrade recorded
mid-phase (before the refusal) is decided again as it was."""

from __future__ import annotations

import pytest

from commands.shared import UpgradeRules
from commands.trench_crusade.commands import Promotions, Trauma
from ledger import events as ev

from .conftest import Table

ONTO_1_6_0 = UpgradeRules(version="1.6.0")
UPGRADED = [ev.RulesetUpgraded(version="1.6.0", previous="1.5.0")]


def refused(done: str, next_step: str) -> str:
    return (f"Pilgrims is part way through the post-game of battle 1 (done: {done}; next: {next_step}): a battle's "
            "post-game is decided under one version, so finish it first (campaign post-game Pilgrims), then upgrade "
            "from v1.5.0 to v1.6.0")


def traumas_done_on_1_5_0() -> Table:
    """A battle of the Pilgrims and the Legion on 1.5.0, the Pilgrims' Trauma step done."""
    table = Table({}, version="1.5.0")
    table.pilgrims()
    table.legion()
    table.battle()
    table.do(Trauma(warband="Pilgrims"))
    return table


def promotions_done_too(table: Table) -> None:
    table.do(Promotions(warband="Pilgrims", even=True), [1])


@pytest.mark.parametrize(("given", "done", "next_step"), [
    (lambda table: None, "Trauma", "Promotions"),  # between the Trauma and Promotions steps
    (promotions_done_too, "Trauma, Promotions", "Experience"),
])
def test_an_upgrade_onto_1_6_0_part_way_through_the_post_game_is_refused(given, done, next_step):
    table = traumas_done_on_1_5_0()
    given(table)
    # When the upgrade is typed with the Pilgrims part way through their post-game
    # Then it is refused, saying what to do, and nothing is written
    assert table.refusal(ONTO_1_6_0) == refused(done, next_step)


def test_the_upgrade_is_taken_once_the_post_game_is_finished():
    table = traumas_done_on_1_5_0()
    table.finish_phase("Pilgrims", promotions=[1])
    # The Legion has not begun its phase: its Trauma step will record the count under 1.6.0
    assert table.do(ONTO_1_6_0) == UPGRADED


def test_an_upgrade_recorded_between_the_steps_is_decided_again_as_it_was():
    """Replay, voids and import decide a recorded command again (not typed now): it is not refused."""
    assert traumas_done_on_1_5_0().decided_again(ONTO_1_6_0) == UPGRADED
