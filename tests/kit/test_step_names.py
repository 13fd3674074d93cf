"""Every ruleset's post-game steps are shown by their names, the names the guided walk's headings begin
with: the log's line of a step done ("post-game step Exploration done"; was the key its event records,
"explore") and the report's line of the steps a view of the campaign once a battle leaves out. The
events are unchanged: they record the key."""

from __future__ import annotations

import pytest

import commands.kit.example  # noqa: F401  (registers the kit's worked example, which the index does not list)
from ledger import events as ev
from ledger import rulesets
from ledger.describe import describe, post_games_left_out_lines
from ledger.state import CampaignState, evolve

# (ruleset, the key a step-done event records: what the log said, the name it says now)
STEPS = [
    ("coreheim", "explore", "Exploration"),
    ("coreheim", "injuries", "Injuries"),
    ("coreheim", "experience", "Experience"),
    ("coreheim", "advances", "Advances"),
    ("coreheim", "sell-shards", "Wyrdstone sale"),
    ("coreheim", "search", "Rare item search"),
    ("coreheim", "upkeep", "Hired Sword upkeep"),
    ("coreheim", "reinforce", "Reinforcing henchman groups"),
    ("trench-crusade", "trauma", "Trauma"),
    ("trench-crusade", "promotions", "Promotions"),
    ("trench-crusade", "experience", "Experience"),
    ("trench-crusade", "advancement", "Advancement Rolls"),
    ("trench-crusade", "exploration", "Exploration"),
    ("trench-crusade", "reinforcements", "Reinforcements"),  # taken instead of Exploration: not in the walk
    ("trench-crusade", "quartermaster", "Quartermaster"),
    ("trench-crusade", "roster", "Roster"),
    ("speedheim", "income", "Income & Loot"),
    ("speedheim", "promotions", "Resolve Promotions"),
    ("speedheim", "scars", "Scars and the Blight"),
    ("speedheim", "improvement", "Free Improvement Attempts"),
    ("speedheim", "learning", "Learn Skills & Spells"),
    ("speedheim", "spend-gold", "Spend Gold"),
    ("warbands", "recovery", "Recovery"),
    ("warbands", "injuries", "Injuries"),
    ("warbands", "survival", "Survival"),
    ("warbands", "experience", "Experience"),
    ("retinue", "battle-pass", "Battle pass"),
    ("retinue", "scenario-pass", "Scenario pass"),
    ("retinue", "casualty", "Casualty Table"),
    ("retinue", "doom", "Doom Table"),
    ("retinue", "post-game-pass", "Post-game pass"),
    ("retinue", "spending", "Spending"),
    ("kit-example", "injuries", "Injuries"),
    ("kit-example", "experience", "Experience"),
    ("kit-example", "done", "End of the post-game"),
]


def campaign(ruleset: str) -> CampaignState:
    state = CampaignState()
    for event in (ev.RulesetPinned(ruleset=ruleset, version=rulesets.get(ruleset).version),
                  ev.WarbandEnlisted(warband="reikland-rats", name="Reikland Rats", player="Ann"),
                  ev.BattleRecorded(battle=1, participants=["reikland-rats"])):
        evolve(state, event)
    return state


def test_the_table_names_every_step_of_every_ruleset_with_a_post_game():
    ruleset_ids = {ruleset_id for ruleset_id, _key, _name in STEPS}
    shipped = [rulesets.get(ruleset_id) for ruleset_id in (*rulesets.index(), "kit-example")]
    assert ruleset_ids == {ruleset.id for ruleset in shipped if ruleset.post_game is not None}
    for ruleset_id in ruleset_ids:
        assert rulesets.get(ruleset_id).step_names == {key: name for r, key, name in STEPS if r == ruleset_id}


@pytest.mark.parametrize("ruleset, key, name", STEPS)
def test_the_log_names_a_step_done_as_the_walk_does(ruleset, key, name):
    state = campaign(ruleset)
    line = describe(ev.PostGameStepDone(warband="reikland-rats", battle=1, step=key), state)
    assert line == f"Reikland Rats: post-game step {name} done for battle 1"
    # the walk's heading of the step begins with that name ("Exploration: a D6 per hero, …")
    walked = {step.key: step.title for step in rulesets.get(ruleset).post_game(state, "reikland-rats")}
    if key in walked:
        assert walked[key] == name or walked[key].startswith(f"{name}: ")


def test_a_step_its_ruleset_does_not_name_is_shown_as_recorded():
    # freeform has no post-game: a step-done event (as a hand-written trail might hold) reads as recorded
    line = describe(ev.PostGameStepDone(warband="reikland-rats", battle=1, step="loot"), campaign("freeform"))
    assert line == "Reikland Rats: post-game step loot done for battle 1"


def test_the_report_names_the_steps_a_view_of_the_campaign_leaves_out():
    steps = [ev.PostGameStepDone(warband="reikland-rats", battle=1, step=key) for key in ("explore", "sell-shards")]
    assert post_games_left_out_lines(campaign("coreheim"), steps) == [
        "Not in it, recorded once a later battle had begun: Reikland Rats' post-game of battle 1 "
        "(Exploration, Wyrdstone sale)"]  # was "(explore, sell-shards)"
