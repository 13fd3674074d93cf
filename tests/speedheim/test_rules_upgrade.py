"""`campaign rules upgrade` from version 8 onto 9 and the post-game (§7): typed while a warband is part way through
a battle's post-game it is refused, so that one battle's steps are all decided under one version; before any step
of the latest battle is recorded it is taken; one recorded part way (before the refusal) is decided again as it was."""

from __future__ import annotations

from commands.shared import UpgradeRules
from commands.speedheim import postgame as pg
from ledger import events as ev

from .conftest import Table

ONTO_9 = UpgradeRules(version="9")
UPGRADED = [ev.RulesetUpgraded(version="9", previous="8")]


def fought_on_version_8() -> Table:
    """Battle 1 on version 8, won by the Sellswords, nobody incapacitated."""
    campaign = Table({}, version="8")
    campaign.warbands()
    campaign.battle()
    return campaign


def test_an_upgrade_typed_after_the_income_step_is_refused():
    # Given the Skaven's Income & Loot step done, their promotions not yet resolved
    campaign = fought_on_version_8()
    campaign.do(pg.Income(warband="Skaven"))
    # When the upgrade is typed, then it is refused naming who, which battle and what to finish, nothing written
    assert campaign.refusal(ONTO_9) == (
        "Skaven is part way through the post-game of battle 1 (done: Income & Loot; next: Resolve Promotions): a battle's post-game "
        "is decided under one version, so finish it first (campaign post-game Skaven), then upgrade from v8 to v9")


def test_an_upgrade_typed_before_any_step_of_the_battle_is_taken():
    assert fought_on_version_8().do(ONTO_9) == UPGRADED


def test_an_upgrade_recorded_part_way_through_a_post_game_is_decided_again_as_it_was():
    """Replay, voids and import decide a recorded command again (not typed now): it is not refused."""
    campaign = fought_on_version_8()
    campaign.do(pg.Income(warband="Skaven"))
    assert campaign.decided_again(ONTO_9) == UPGRADED
