"""campaign demo builds the sample campaigns of fixtures/ and shows them."""

from ledger.cli import demo
from ledger.cli.demo import fixture_campaigns


def test_every_fixture_names_its_ruleset_and_steps():
    fixtures = fixture_campaigns()
    assert "freeform" in fixtures
    for ruleset_id, fixture in fixtures.items():
        assert fixture["ruleset"] == ruleset_id and fixture["name"].startswith("Demo: ") and fixture["steps"]


def test_freeform_demo(campaign):
    result = campaign("demo", "--ruleset", "freeform")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    # Worked by hand from fixtures/freeform/demo.json: Rats 500 - 60 - 3 × 25 = 365;
    # Skrittle 500 - 90 - 4 × 20 + 35 = 365; one battle each; Gunnar's injury roll voided by the reroll.
    assert "  Reikland Rats (Ann): 2 fighters, treasury 365, 2 games, 1 win" in lines
    assert "  Clan Skrittle (Bob): 2 fighters, treasury 365, 2 games, 1 win" in lines
    assert "  Gunnar — leader  XP 1  BS4 WS4" in lines  # no rules: the profile in alphabetical order, in any store
    assert "      equipment: sword, blunderbuss" in lines
    assert "  Snikch — leader  XP 0  WS4" in lines  # 2 XP awarded, 2 spent
    assert any(line.endswith("[VOIDED by T10 (arbiter): the die fell off the table]") for line in lines)
    again = campaign("demo", "--ruleset", "freeform")
    assert again.output.count("Reikland Rats (Ann): 2 fighters") == 1  # shown again, not built twice
    assert campaign("list").output.count("Demo: Freeform Skirmish") == 1


def test_unknown_sample(campaign):
    result = campaign("demo", "--ruleset", "chess")
    assert result.exit_code == 2
    assert result.output.startswith("Error: no sample campaign for 'chess' (samples: ")


def sample(*steps):
    return {"freeform": {"name": "Demo: Broken", "ruleset": "freeform", "steps": [["warband", "add", "Rats", "--player", "Ann"], *steps]}}


def test_a_sample_step_that_is_refused_stops_the_demo_with_its_message(campaign, monkeypatch):
    monkeypatch.setattr(demo, "fixture_campaigns", lambda: sample(["fighter", "add", "Nowhere", "Gunnar", "--role", "leader"]))
    result = campaign("demo")
    assert result.exit_code == 3
    assert result.output.splitlines()[-1] == (
        "Error: demo step `campaign fighter add Nowhere Gunnar --role leader` failed: "
        "Error: no warband 'Nowhere' in this campaign (warbands: Rats)")


def test_a_sample_step_may_expect_a_refusal_and_fails_the_demo_when_it_is_not_refused(campaign, monkeypatch):
    refused = {"step": ["warband", "add", "Rats", "--player", "Bob"], "refused": "Error: there is already a warband called Rats"}
    monkeypatch.setattr(demo, "fixture_campaigns", lambda: sample(refused))
    assert campaign("demo").exit_code == 0
    wrong = {"step": ["warband", "add", "Mice", "--player", "Bob"], "refused": "Error: no mice"}
    monkeypatch.setattr(demo, "fixture_campaigns", lambda: {"freeform": {**sample(wrong)["freeform"], "name": "Demo: Mice"}})
    result = campaign("demo")
    assert result.exit_code == 3
    assert "Error: demo step `campaign warband add Mice --player Bob` should be refused with 'Error: no mice': " \
           "Mice enlisted by Bob" in result.output
