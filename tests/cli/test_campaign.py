"""campaign new / list / show / rulesets / seed reveal."""

import json
import sqlite3

from ledger import dice


def test_new_campaign_commits_to_the_seed(campaign):
    result = campaign("new", "Test League")
    assert result.exit_code == 0
    commitment = dice.commitment(bytes(range(32)))
    assert result.output.splitlines()[:3] == [
        "  campaign Test League started",
        "  ruleset freeform v1",
        f"  dice seed of epoch 0 committed: sha256 {commitment[:16]}…",
    ]


def test_campaign_refusals(campaign):
    campaign("new", "Test League")
    assert campaign("new", "test league").output == (
        f"Error: a campaign named 'test league' already exists in {campaign.store}\n"
    )
    refused = campaign("new", "X", "--ruleset", "nope")
    assert refused.exit_code == 2
    assert refused.output.startswith("Error: no ruleset 'nope' (known: ")
    bad_option = campaign("new", "Y", "--option", "dice")
    assert (bad_option.exit_code, bad_option.output) == (2, "Error: --option takes KEY=VALUE, not 'dice'\n")
    assert [c["name"] for c in json.loads(campaign("list", "--json").output)] == ["Test League"]


def test_commands_need_a_campaign(campaign):
    result = campaign("warband", "list")
    assert result.exit_code == 2
    assert result.output == f"Error: no campaign in {campaign.store}: start one with `campaign new NAME`\n"


def test_the_newest_campaign_is_current_and_use_picks_another(campaign):
    """Issue 9, item 13: `campaign new` in a store that holds campaigns already (the demo's) makes
    the new one current, so the README's quick tour works after its "Try it"."""
    campaign("new", "Spring")
    campaign("new", "Autumn")
    assert campaign("warband", "add", "Rats", "--player", "Ann").exit_code == 0  # Autumn's
    used = campaign("use", "spring")
    assert (used.exit_code, used.output) == (0, f"Now using Spring (freeform) in {campaign.store}.\n")
    assert campaign("warband", "add", "Skaven", "--player", "Bob").exit_code == 0  # Spring's
    assert campaign("--campaign", "autumn", "warband", "list").output == "Rats  (Ann)  0 fighters  treasury 0\n"
    listed = campaign("list").output.splitlines()
    assert listed[0].startswith("* Spring  freeform  1 warband  0 battles  6 events  head ")
    assert listed[1].startswith("  Autumn  freeform  1 warband  0 battles  6 events  head ")
    unknown = campaign("use", "Winter")
    assert (unknown.exit_code, unknown.output) == (2, f"Error: no campaign 'Winter' in {campaign.store}\n")
    assert campaign("warband", "list").output == "Skaven  (Bob)  0 fighters  treasury 0\n"


def test_several_campaigns_and_none_current_need_choosing(campaign, tmp_path):
    campaign("new", "Spring")
    campaign("new", "Autumn")
    with sqlite3.connect(tmp_path / "campaign.db") as db:  # as a store from before `campaign use`
        db.execute("DROP TABLE stored_settings")
    refused = campaign("warband", "list")
    assert (refused.exit_code, refused.output) == (
        2, "Error: this store holds several campaigns (Spring, Autumn): choose one with `campaign use NAME` or --campaign\n"
    )


def test_show_json(two_warbands):
    shown = json.loads(two_warbands("show", "--json").output)
    assert shown["name"] == "Test League"
    assert shown["ruleset"] == "freeform"
    assert [(w["name"], w["treasury"], w["fighters"]) for w in shown["warbands"]] == [
        ("Reikland Rats", 440, 1),
        ("Clan Skrittle", 210, 1),
    ]
    assert shown["events"] == 14 and shown["transactions"] == 5


def test_actor_is_recorded_on_every_event(campaign):
    campaign("--as", "Ann", "new", "Test League")
    rows = json.loads(campaign("log", "--json").output)
    assert {row["actor"] for row in rows} == {"Ann"}


def test_seed_reveal_publishes_the_seed_and_commits_a_new_one(two_warbands):
    two_warbands("roll", "D6", "--for", "x", "--ledger")
    result = two_warbands("seed", "reveal")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0] == f"  dice seed of epoch 0 revealed: {bytes(range(32)).hex()}"
    assert lines[1].startswith("  dice seed of epoch 1 committed: sha256 ")
    # Ledger dice go on from the new seed; roll numbers carry on.
    assert two_warbands("roll", "D6", "--for", "y", "--ledger").output.startswith("  R1 y: D6 rolled ")


def test_rulesets_lists_freeform(campaign):
    assert "freeform  v1  Freeform (shared commands only)" in campaign("rulesets").output.splitlines()
