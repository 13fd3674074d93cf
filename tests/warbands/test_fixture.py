"""fixtures/warbands/demo.json replayed step by step through the CLI, and the campaign's end
checked against the one worked out by hand from the seed (003) and shared/rules/warbands.md.
The default tables are in force, so the players enter Recovery, injuries and XP themselves.

The working (R = Reiklanders, Empire; B = Da Boyz, Orcs & Goblins). Points are models x points
per model for a unit, a character's own points; WBR = points + 10/20/30 per Veteran +1/+2/+3
unit + 25 per Archetype Ability beyond the Starting Ability.

Set-up, 250 starting points each. R: Swordsmen 10 x 6 = 60, Handgunners 5 x 8 = 40, Hans
(Intellectual) 50, Greta (Magician) 45 = 195 points, 55 XP left (R25); WBR 195.
B: Boyz 10 x 6 = 60, Arrer Boyz 8 x 6 = 48, Grubnash (Psychopath) 60 = 168, 82 XP; WBR 168.

Battle 1, R wins. R Swordsmen lose 3, 1 recovers: 8 of 10 > half, eligible. Handgunners lose
3, none recover: 2 of 5, not eligible. +10 XP -> 65; Swordsmen to +1 for 10 -> 55.
R: 48 + 16 + 95 = 159 points + 10 = WBR 169.
B Boyz lose 6 + 1 fled, 2 recover: 5 of 10 is not more than half. Grubnash down, recovers
(survived 1). +8 XP -> 90. B: 30 + 48 + 60 = 138.
Battle 2, a draw. R Swordsmen lose 2 of 8, 1 recovers: 7 of 8, eligible again. +10 -> 65;
Swordsmen to +2 for 10 -> 55; 2 Veteran recruits at 6 -> 43 XP, 9 models.
R: 54 + 16 + 95 = 165 + 20 = 185.
B Boyz lose 1 of 5: 4 of 5, eligible; Arrer Boyz lose 4 of 8, 1 recovers: 5 of 8, eligible.
+10 -> 100; Boyz to +1 -> 90. B: 24 + 30 + 60 = 114 + 10 = 124.
Battle 3, B wins. R Swordsmen lose 5 + 1 fled of 9, 1 recovers: 4 of 9, half or less: +2 lost
with its 20 WBR. +5 -> 48. Hans has survived 3 battles: 25 XP -> 23, rolls 4: Intellectual
Advancement 4 (+25). R: 24 + 16 + 95 = 135 + 25 = 160.
B Arrer Boyz lose 2 of 5, both recover. +12 -> 102. B stays 124.
Battle 4, R wins. R Handgunners lose both models, none recover: wiped out (dead). Greta down,
misses a game (alive: survived 4). Swordsmen 4 of 4: eligible. +10 -> 33.
R: 24 + 95 = 119 + 25 = 144.
B Boyz lose 2 of 4, 1 recovers: 3 of 4, keeps +1. +6 -> 108. Grubnash survived 4: 25 -> 83,
rolls 2 (useless to him, rerolled free), then 5: Psychopath Advancement 5.
B: 18 + 30 + 60 = 108 + 10 + 25 = 143.
"""

from __future__ import annotations

import json
from importlib.resources import files

FIXTURE = json.loads((files("fixtures") / "warbands" / "demo.json").read_text(encoding="utf-8"))
NAME = FIXTURE["name"]

EXPECTED = {
    "Reiklanders": {
        "warband": "reiklanders", "name": "Reiklanders", "type": "Empire", "points": 119, "xp": 33, "wbr": 144,
        "wbr_lines": [{"what": "points", "points": 119}, {"what": "Hans: 1 Archetype Ability", "points": 25}],
        "post_game_next": None,
        "units": [{"name": "Swordsmen", "models": 4, "points_per_model": 6, "veteran": 0, "eligible": True}],
        "characters": [
            {"name": "Hans", "points": 50, "archetype": "Intellectual", "starting_ability": "Advantage of Ground",
             "abilities": ["Intellectual Advancement 4"], "survived_since_ability": 1},
            {"name": "Greta", "points": 45, "archetype": "Magician", "starting_ability": "Magician Starting Ability",
             "abilities": [], "survived_since_ability": 4},
        ],
    },
    "Da Boyz": {
        "warband": "da-boyz", "name": "Da Boyz", "type": "Orcs & Goblins", "points": 108, "xp": 83, "wbr": 143,
        "wbr_lines": [{"what": "points", "points": 108}, {"what": "Boyz: Veteran +1", "points": 10},
                      {"what": "Grubnash: 1 Archetype Ability", "points": 25}],
        "post_game_next": None,
        "units": [{"name": "Boyz", "models": 3, "points_per_model": 6, "veteran": 1, "eligible": True},
                  {"name": "Arrer Boyz", "models": 5, "points_per_model": 6, "veteran": 0, "eligible": True}],
        "characters": [
            {"name": "Grubnash", "points": 60, "archetype": "Psychopath", "starting_ability": "Psychopath Starting Ability",
             "abilities": ["Psychopath Advancement 5"], "survived_since_ability": 0},
        ],
    },
}


def build(cli) -> list[str]:
    assert cli("new", NAME, "--ruleset", FIXTURE["ruleset"]).exit_code == 0
    outputs = []
    for step in FIXTURE["steps"]:
        result = cli("--campaign", NAME, *step)
        assert result.exit_code == 0, f"{step}: {result.output}"
        outputs.append(result.output)
    return outputs


def test_the_demo_campaign_ends_as_worked_out_by_hand(cli):
    build(cli)
    for warband, expected in EXPECTED.items():
        assert json.loads(cli("--campaign", NAME, "warbands", "status", warband, "--json").output) == expected
    assert json.loads(cli("--campaign", NAME, "warbands", "ratings", "--json").output) == [
        {"warband": "reiklanders", "start": 195, "by_battle": {"1": 169, "2": 185, "3": 160, "4": 144}},
        {"warband": "da-boyz", "start": 168, "by_battle": {"1": 138, "2": 124, "3": 124, "4": 143}}]
    roster = json.loads(cli("--campaign", NAME, "roster", "Reiklanders", "--json").output)["roster"]
    assert [(f["name"], f["status"]) for f in roster if f["status"] != "active"] == [("Handgunners", "dead")]
    checked = cli("--campaign", NAME, "replay", "--check")
    assert (checked.exit_code, checked.output.splitlines()[-1]) == (
        # one transaction per step, and one more: a post-game run goes on from Injuries through Survival
        0, f"Re-decided {len(FIXTURE['steps']) + 1} transactions from their commands and dice: all match.")


def test_the_unit_gains_1_then_2_then_loses_its_status_and_its_wbr_in_one_transaction(cli):
    outputs = build(cli)
    survival_3 = outputs[FIXTURE["steps"].index(["warbands", "survival", "Reiklanders"], 30)]
    assert survival_3.splitlines()[:2] == [
        "  Swordsmen loses Veteran +2",
        "  Swordsmen not eligible for a Veteran level (4 of 9 survived battle 3)"]
    upgrades = [out.splitlines()[0] for step, out in zip(FIXTURE["steps"], outputs) if step[:3] == ["warbands", "upgrade", "Reiklanders"]]
    assert upgrades == ["  Reiklanders XP pool -10 (XP: +1 Veteran Status for Swordsmen)",
                        "  Reiklanders XP pool -10 (XP: +2 Veteran Status for Swordsmen)"]
    status = cli("--campaign", NAME, "warbands", "status", "Reiklanders").output
    assert status.splitlines()[:3] == ["Reiklanders (Empire): 119 points, 33 XP, WBR 144", "   119  points",
                                       "    25  Hans: 1 Archetype Ability"]


def test_the_demo_command_builds_it(cli):
    result = cli("demo", "--ruleset", "warbands")
    assert result.exit_code == 0, result.output
    assert "Reiklanders (Ann): 3 fighters, XP pool 33, 4 games, 2 wins, rating 144" in result.output
