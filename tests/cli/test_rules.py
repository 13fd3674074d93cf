"""campaign rules upgrade: a campaign keeps the ruleset version it started under until it records
the switch to the newest one, which then decides the transactions that follow."""

from __future__ import annotations

import dataclasses
import json

import commands.kit.example as example
from ledger.rulesets import register


def test_a_campaign_on_the_newest_version_has_nothing_to_upgrade(campaign):
    assert campaign("new", "League").exit_code == 0
    refused = campaign("rules", "upgrade")
    assert (refused.exit_code, refused.output) == (
        1, "Error: the campaign already plays freeform v1: nothing to upgrade to (the newest is v1)\n")
    assert [row["type"] for row in campaign_log(campaign)][-1] == "seed.committed"  # nothing written


def example_campaign_on_version_1(campaign) -> None:
    """A kit-example campaign pinned to v1, as one started before v2 existed."""
    newest = example.RULESET
    register(dataclasses.replace(newest, version="1", versions=("1",)))
    try:
        assert campaign("new", "League", "--ruleset", "kit-example").exit_code == 0
    finally:
        register(newest)


def test_an_older_campaign_upgrades_from_the_next_transaction_on(campaign):
    example_campaign_on_version_1(campaign)
    assert json.loads(campaign("show", "--json").output)["ruleset_version"] == "1"
    upgraded = campaign("rules", "upgrade", "--reason", "the scar rule")
    assert upgraded.exit_code == 0, upgraded.output
    assert upgraded.output.splitlines()[0] == "  rules upgraded from v1 to v2 for the transactions that follow"
    assert upgraded.output.splitlines()[1].startswith("Recorded T2 (2 events). Head ")
    assert json.loads(campaign("show", "--json").output)["ruleset_version"] == "2"
    checked = campaign("replay", "--check")
    assert (checked.exit_code, checked.output) == (0, "Re-decided 1 transaction from its command and dice: all match.\n")


def test_an_upgrade_typed_part_way_through_a_post_game_is_refused_until_it_is_finished(campaign):
    example_campaign_on_version_1(campaign)
    for args in (["warband", "add", "Red Guard", "--player", "Ann"], ["warband", "add", "Blues", "--player", "Bob"],
                 ["fighter", "add", "Red Guard", "Rolf", "--role", "leader"],
                 ["fighter", "add", "Blues", "Bert", "--role", "leader"],
                 ["battle", "record", "--warband", "Red Guard", "--warband", "Blues", "--winner", "Red Guard"]):
        assert campaign(*args).exit_code == 0, args
    # Once a step of the battle's post-game is recorded, the upgrade is refused until the post-game is finished
    assert campaign("post-game", "Red Guard", "--step", "injuries").exit_code == 0
    head = campaign_log(campaign)[-1]
    refused = campaign("rules", "upgrade", "--reason", "the scar rule")
    assert (refused.exit_code, refused.output) == (1, (
        "Error: Red Guard is part way through the post-game of battle 1 (done: Injuries; next: Experience): a battle's "
        "post-game is decided under one version, so finish it first (campaign post-game 'Red Guard'), then upgrade "
        "from v1 to v2\n"))
    assert campaign_log(campaign)[-1] == head  # nothing written
    assert campaign("post-game", "Red Guard").exit_code == 0
    upgraded = campaign("rules", "upgrade", "--reason", "the scar rule")
    assert (upgraded.exit_code, upgraded.output.splitlines()[0]) == (
        0, "  rules upgraded from v1 to v2 for the transactions that follow")


def campaign_log(campaign) -> list[dict]:
    return json.loads(campaign("log", "--json").output)
