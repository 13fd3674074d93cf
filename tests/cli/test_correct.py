"""`campaign correct`, shared by every ruleset, on each sample campaign: what it refuses of what is typed now."""

import json

import pytest

DEATH_BY_MISTAKE = ("Error: {fighter} is dead: a correction cannot make a dead fighter {becomes}; if the death was "
                    "recorded by mistake, void it (campaign history --fighter {fighter} shows which transaction: "
                    "campaign void T… --reason …)\n")


def head(campaign) -> str:
    return json.loads(campaign("show", "--json").output)["head"]


@pytest.mark.parametrize(("ruleset", "warband", "fighter"), [
    ("coreheim", "Reikland Rats", "Hans"),
    ("warbands", "Reiklanders", "Hans"),
    ("retinue", "Hawks of the Mere", "Kestrel"),
    ("trench-crusade", "Pilgrims of Saint Gaius", "Gaius"),
    ("freeform", "Reikland Rats", "Gunnar"),
])
@pytest.mark.parametrize(("status", "becomes"), [("dead", "dead again"), ("captured", "captured"), ("retired", "retired")])
def test_a_dead_fighter_s_status_is_not_corrected_in_any_ruleset(campaign, ruleset, warband, fighter, status, becomes):
    """As Speedheim v9 refuses it: death has no way back but a void of what recorded it, which re-decides what followed."""
    assert campaign("demo", "--ruleset", ruleset).exit_code == 0
    killed = campaign("correct", warband, fighter, "--status", "dead", "--reason", "fell")
    assert killed.exit_code == 0, killed.output
    before = head(campaign)
    refused = campaign("correct", warband, fighter, "--status", status, "--reason", "a second look")
    assert (refused.exit_code, refused.output) == (1, DEATH_BY_MISTAKE.format(fighter=fighter, becomes=becomes))
    assert head(campaign) == before
    # His record, not his status, is still corrected
    assert campaign("correct", warband, fighter, "--xp", "1", "--reason", "missed").exit_code == 0


@pytest.mark.parametrize(("warband", "fighter", "said"), [
    ("Clan Skrittle", "Gunnar", "Error: no fighter 'Gunnar' in Clan Skrittle: Gunnar is in Reikland Rats\n"),
    ("Clan Skrittle", "gunnar", "Error: no fighter 'gunnar' in Clan Skrittle: Gunnar is in Reikland Rats\n"),  # his id
    ("Clan Skrittle", "Nobody", "Error: no fighter 'Nobody' in Clan Skrittle\n"),
])
def test_a_fighter_named_in_the_wrong_warband_is_not_found_saying_where_he_is(campaign, warband, fighter, said):
    assert campaign("demo", "--ruleset", "freeform").exit_code == 0
    before = head(campaign)
    refused = campaign("correct", warband, fighter, "--xp", "1", "--reason", "missed")
    assert (refused.exit_code, refused.output) == (2, said)
    assert head(campaign) == before
