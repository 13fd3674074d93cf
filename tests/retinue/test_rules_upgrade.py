"""`campaign rules upgrade` from 1.4.0 onto 1.5.0, which holds the battle pass's "did not go Out of Action" +1
until the Doom Table is rolled (E3, E5): typed while a warband is part way through a battle's post-game it is
refused (a fighter who spent that +1 under 1.4.0 and was Slain on the Doom Table under 1.5.0 would end at -1 XP);
between battles, or before any step of the latest battle is recorded, it is taken; one recorded part way (before
the refusal) is decided again as it was. Last, an upgrade onto 1.7.0 changing a Vampire's recorded price wording
from the next purchase on."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from commands.retinue.commands import BattlePass, Casualties, ScenarioPass
from commands.shared import UpgradeRules
from ledger import events as ev

from .conftest import Retinues

ONTO_1_5_0 = UpgradeRules(version="1.5.0")
UPGRADED = [ev.RulesetUpgraded(version="1.5.0", previous="1.4.0")]
FINISH = "a battle's post-game is decided under one version, so finish"


def hawks_battle_pass(game: Retinues) -> None:
    game.do(BattlePass(warband="Hawks"))


def hawks_up_to_the_doom_table(game: Retinues) -> None:
    hawks_battle_pass(game)
    game.do(ScenarioPass(warband="Hawks"))
    game.do(Casualties(warband="Hawks"))


def both_battle_passes(game: Retinues) -> None:
    hawks_battle_pass(game)
    game.do(BattlePass(warband="Wolves"))


def on_1_4_0_after_a_battle(given: Callable[[Retinues], None]) -> Retinues:
    game = Retinues(version="1.4.0")
    game.battle()
    given(game)
    return game


@pytest.mark.parametrize(("given", "refusal"), [
    (hawks_battle_pass,
     "Hawks is part way through the post-game of battle 1 (done: Battle pass; next: Scenario pass): "
     f"{FINISH} it first (campaign post-game Hawks), then upgrade from v1.4.0 to v1.5.0"),
    (hawks_up_to_the_doom_table,
     "Hawks is part way through the post-game of battle 1 (done: Battle pass, Scenario pass, Casualty Table; next: Doom Table): "
     f"{FINISH} it first (campaign post-game Hawks), then upgrade from v1.4.0 to v1.5.0"),
    (both_battle_passes,
     "Hawks is part way through the post-game of battle 1 (done: Battle pass; next: Scenario pass); "
     "Wolves is part way through the post-game of battle 1 (done: Battle pass; next: Scenario pass): "
     f"{FINISH} them first (campaign post-game Hawks, campaign post-game Wolves), then upgrade from v1.4.0 to v1.5.0"),
])
def test_an_upgrade_typed_part_way_through_a_post_game_is_refused(given, refusal):
    # Given a battle on 1.4.0 and some of its post-game steps recorded
    game = on_1_4_0_after_a_battle(given)
    # When the upgrade is typed, then it is refused naming who, which battle and what to finish, nothing written
    assert game.refusal(ONTO_1_5_0) == refusal


@pytest.mark.parametrize("given", [
    lambda game: None,  # the battle recorded, no step of its post-game yet
    lambda game: game.finish_post_game("Hawks"),  # the Hawks finished, the Wolves not begun
    lambda game: (game.finish_post_game("Hawks"), game.finish_post_game("Wolves")),  # between battles
])
def test_an_upgrade_typed_before_or_after_a_post_game_is_taken(given):
    assert on_1_4_0_after_a_battle(given).do(ONTO_1_5_0) == UPGRADED


def test_an_upgrade_recorded_part_way_through_a_post_game_is_decided_again_as_it_was():
    """Replay, voids and import decide a recorded command again (not typed now): it is not refused."""
    assert on_1_4_0_after_a_battle(hawks_battle_pass).decided_again(ONTO_1_5_0) == UPGRADED


def test_after_an_upgrade_onto_1_7_0_a_vampires_price_is_made_up_inside_the_labels_brackets():
    """Given Kestrel's Feat outside bought on 1.6.0, when the campaign upgrades, then the next one records 1.7.0's
    wording and the first keeps its own, replayed as recorded."""
    game = Retinues(version="1.6.0")
    game.xp("Kestrel", 34)
    game.stat("Kestrel", "Wi", 1)  # Wi 4: Warding Sigil's prerequisite
    bought = [e.on for e in game.buy("Kestrel", "feat-outside", feat="Focus") if isinstance(e, ev.XPSpent)]
    assert game.do(UpgradeRules(version="1.7.0")) == [ev.RulesetUpgraded(version="1.7.0", previous="1.6.0")]
    bought += [e.on for e in game.buy("Kestrel", "feat-outside", feat="Warding Sigil") if isinstance(e, ev.XPSpent)]
    assert bought == ["Feat (outside Archetype or Domain) (15 + 2 for a Vampire)",
                      "Feat (outside Archetype or Domain; 15 + 2 for a Vampire)"]
    assert game.ledger.check(game.cid)[1] == []  # replay --check: every transaction decides again as recorded


@pytest.mark.parametrize(("version", "whose"), [("1.7.0", "Lucius's"), ("1.8.0", "Lucius'")])
def test_a_casualty_roll_of_a_fighter_whose_name_ends_in_s_is_his_in_an_apostrophe_alone_from_1_8_0(version, whose):
    """Given Lucius out of action, when his Casualty Table is rolled, then its purpose is "Lucius' Casualty Table"
    from 1.8.0; 1.7.0 recorded "Lucius's", and keeps it."""
    game = Retinues(version=version)
    game.recruit("Hawks", "Lucius", ancestry="Human", archetype="Scout")
    game.battle(ooa=["Lucius"])
    hawks_battle_pass(game)
    game.do(ScenarioPass(warband="Hawks"))
    rolled = [e for e in game.do(Casualties(warband="Hawks", outcomes={"Lucius": "Hardy"}), [6]) if isinstance(e, ev.DiceRolled)]
    assert [e.purpose for e in rolled] == [f"{whose} Casualty Table"]
    assert game.ledger.check(game.cid)[1] == []
