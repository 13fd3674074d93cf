"""The kit's worked example (commands/README.md), given/when/then through the ledger: the phase,
the dice protocol, typed options, tables with house rules, typed facts, versions and the CLI hook.

The example's seed: "A fighter taken out of action rolls a D6 on the Injury table. Badly hurt:
roll again, and a second Badly hurt means he misses a game." Version 2 adds: "a missed game
leaves a scar"."""

from __future__ import annotations

import dataclasses

import msgspec
import pytest

import commands.kit.example as example
from commands.kit import MoreDice, Rolled
from commands.kit.example import rules
from commands.shared import EnlistWarband, RecordBattle, RecruitFighter
from ledger import events as ev
from ledger.errors import BadInput
from ledger.rulesets import register
from ledger.testing import LedgerHarness
from projections.roster import fighter_rows


def campaign(**options) -> LedgerHarness:
    table = LedgerHarness("kit-example", options)
    table.do(EnlistWarband(name="Rats", player="Ann"))
    table.do(EnlistWarband(name="Orcs", player="Bob"))
    table.do(RecruitFighter(warband="Rats", name="Gunnar", role="hero"))
    table.do(RecruitFighter(warband="Orcs", name="Grok", role="hero"))
    return table


def battle(table: LedgerHarness) -> None:
    table.do(RecordBattle(participants=["Rats", "Orcs"], winner="orcs", deeds=[
        ev.Deed(fighter="gunnar", out_of_action=True), ev.Deed(fighter="grok", took_out=["gunnar"])]))


@pytest.mark.parametrize("dice, then", [
    ([6], []),
    ([3], [ev.InjurySuffered(warband="rats", fighter="gunnar", injury="miss-a-game", row="miss-a-game", missed_games=1),
           example.Scarred(warband="rats", fighter="gunnar")]),
    ([2, 5], []),  # badly hurt, then recovered
    ([2, 2], [ev.InjurySuffered(warband="rats", fighter="gunnar", injury="badly-hurt", row="badly-hurt", missed_games=1),
              example.Scarred(warband="rats", fighter="gunnar")]),  # "a second Badly hurt means he misses a game"
    ([1], [ev.FighterDied(warband="rats", fighter="gunnar", reason="injury", row="dead")]),
])
def test_injuries_roll_again_on_badly_hurt(dice, then):
    table = campaign()
    battle(table)
    events = table.do(example.Injuries(warband="Rats"), dice)
    rolls = [e for e in events if isinstance(e, ev.DiceRolled)]
    assert [r.faces for r in rolls] == [[face] for face in dice]
    assert [e for e in events if not isinstance(e, (ev.DiceRolled, ev.PostGameStepDone))] == then
    assert events[-1] == ev.PostGameStepDone(warband="rats", battle=1, step="injuries")


def test_the_phase_goes_in_order_and_holds_the_next_battle():
    table = campaign()
    assert table.refusal(example.Injuries(warband="Rats")) == \
        "Rats has not fought a battle yet: there is no post-game to roll injuries"
    battle(table)
    assert table.refusal(example.Experience(warband="Rats")) == \
        "Rats cannot award experience yet: roll injuries first (post-game of battle 1)"
    assert table.refusal(RecordBattle(participants=["Rats", "Orcs"])) == \
        "Rats must finish the post-game of battle 1 first (next: Injuries)"
    table.do(example.Injuries(warband="Rats"), [6])
    assert table.refusal(example.Injuries(warband="Rats"), [6]) == "Rats has already done the post-game step Injuries for battle 1"


def test_the_trading_window_opens_after_experience_and_closes_with_the_phase():
    table = campaign()
    battle(table)
    with pytest.raises(Exception, match="Rats cannot trade yet: roll injuries first"):
        example.PHASE.open_window(table.state, table.state.warband("Rats"), "trade")
    table.do(example.Injuries(warband="Rats"), [6])
    table.do(example.Experience(warband="Rats"))
    example.PHASE.open_window(table.state, table.state.warband("Rats"), "trade")
    table.do(example.Done(warband="Rats"))
    with pytest.raises(Exception, match="Rats can no longer trade after battle 1: 'finish the post-game' is done"):
        example.PHASE.open_window(table.state, table.state.warband("Rats"), "trade")


def test_experience_reads_the_deeds_the_core_keeps_and_the_typed_option():
    table = campaign(xp_per_enemy=2)
    battle(table)
    table.do(example.Injuries(warband="Orcs"))
    assert table.do(example.Experience(warband="Orcs")) == [
        ev.XPAwarded(warband="orcs", fighter="grok", amount=3, reason="battle"),
        ev.PostGameStepDone(warband="orcs", battle=1, step="experience"),
    ]


@pytest.mark.parametrize("options, refusal", [
    ({"exploration": "weird"}, "kit-example has no option exploration (options: dice, xp_per_enemy, tables)"),
    ({"two\nlines": 1}, "kit-example has no option 'two\\nlines' (options: dice, xp_per_enemy, tables)"),
    ({"xp_per_enemy": "two"}, "kit-example option xp_per_enemy: Expected `int`, got `str`"),
    ({"dice": "loaded"}, "kit-example option dice: Invalid enum value 'loaded' (one of: table, ledger)"),
    ({"tables": {"injry": {}}}, "there is no Example table 'injry'; tables are: injury"),
    ({"tables": {"injury": {"die": "D6", "rows": []}}}, "injury table: the rows must end at 6"),
])
def test_options_and_house_rule_tables_are_checked_when_the_campaign_starts(options, refusal):
    with pytest.raises(BadInput) as refused:
        LedgerHarness("kit-example", options)
    assert str(refused.value) == refusal


def test_a_house_rule_table_replaces_the_default():
    lethal = {"die": "D6", "rows": [{"id": "gone", "low": 1, "high": 6, "result": "dead"}]}
    table = campaign(tables={"injury": lethal})
    battle(table)
    assert table.do(example.Injuries(warband="Rats"), [6])[1] == \
        ev.FighterDied(warband="rats", fighter="gunnar", reason="injury", row="gone")


def test_a_pure_rule_asks_for_more_dice_and_is_driven_without_a_ledger():
    tables = example.TABLES.defaults
    with pytest.raises(MoreDice) as needed:
        rules.injury("Gunnar", Rolled.of([[2]]), tables)
    assert (needed.value.key, needed.value.expression, needed.value.purpose) == ("1", "D6", "injury of Gunnar")
    assert [row.id for row in rules.injury("Gunnar", Rolled.of([[2], [4]]), tables)] == ["badly-hurt", "miss-a-game"]


def test_the_facts_are_typed_and_survive_a_snapshot_copy():
    table = campaign()
    battle(table)
    table.do(example.Injuries(warband="Rats"), [3])
    copied = table.state.copy()
    # A copy (as a snapshot) holds them as their JSON until they are asked for, then typed once, in place.
    assert copied.ext[example.ID] == msgspec.Raw(b'{"scars":{"gunnar":1}}')
    assert example.FACTS.of(copied) == example.ExampleFacts(scars={"gunnar": 1})
    assert copied.ext[example.ID] is example.FACTS.of(copied)


def test_the_read_models_show_the_typed_facts_the_ruleset_declares_shown():
    table = campaign()
    battle(table)
    table.do(example.Injuries(warband="Rats"), [3])
    assert {row["fighter"]: row["ext"] for row in fighter_rows(table.state.copy(), "rats")} == {"gunnar": {"scars": 1}}


def test_a_campaign_keeps_its_version_until_it_upgrades_and_replays_under_each():
    newest = example.RULESET
    register(dataclasses.replace(newest, version="1", versions=("1",)))
    try:
        table = campaign()  # pinned v1, as a campaign recorded before v2 existed
    finally:
        register(newest)
    battle(table)
    assert example.Scarred(warband="rats", fighter="gunnar") not in table.do(example.Injuries(warband="Rats"), [3])
    for step in (example.Injuries(warband="Orcs"), example.Experience(warband="Rats"),
                 example.Experience(warband="Orcs"), example.Done(warband="Rats"), example.Done(warband="Orcs")):
        table.do(step)
    from commands.shared import UpgradeRules

    assert table.do(UpgradeRules(version="2")) == [ev.RulesetUpgraded(version="2", previous="1")]
    assert table.refusal(UpgradeRules(version="2")) == \
        "the campaign already plays kit-example v2: nothing to upgrade to (the newest is v2)"
    table.do(RecordBattle(participants=["Rats", "Orcs"], deeds=[ev.Deed(fighter="grok", out_of_action=True)]))
    table.do(example.Injuries(warband="Rats"))
    assert example.Scarred(warband="orcs", fighter="grok") in table.do(example.Injuries(warband="Orcs"), [3])
    assert table.ledger.check(table.cid)[1] == []
