"""fixtures/trench_crusade/demo.json replayed step by step through the CLI, and the final rosters
checked against the campaign worked out by hand from the seed and the rules file.

The working, battle by battle ("P" = Pilgrims of Saint Gaius, "L" = Legion of Gehenna):

Set-up. P: 700 - 80 (Gaius) - 30 (Anna) - 30 (Bert) - 15 (Carl) = 545 ducats.
        L: 700 - 80 (Baal) - 25 (Cain) - 25 (Dag) - 10 (Wret) = 560 ducats.

Battle 1, Trench Warfare, P wins. Deeds: Anna Headshot, Gaius Good Hunting, P Victory or Death
(warband), Cain Into the Trenches. Glory P 3, L 1. Out of Action: Bert, Baal, Dag.
  P Trauma: Bert's Survival Roll 4 -> fine.
  P Promotions: 1 + 3 deeds = 4 dice; Troops Anna, Bert (Carl is an Ecclesiastic Prisoner: no
    dice); even spread 2/2; rolls 3, 1, 2, 5: no 6 -> streak 4.
  P Experience: Gaius survived +1, did a deed +1 = 2 XP (he did a deed himself, so the warband's
    deed gives no more) -> circle 2: one Advancement Roll. Anna did a deed but is a Troop: no XP.
  P Advancement: Gaius 7 on Melee & Strength (Melee Proficiency), 11 on Wildcard (War Stories):
    keeps War Stories.
  P Exploration: game 1, 3 dice, Common: 2+3+4 = 9 Survivor; +90 ducats -> 635.
  P Quartermaster, Roster: nothing bought. Every phase below ends with these two steps, for
    both warbands; only the Pilgrims' last Quartermaster step buys anything.
  L Trauma: Troops first: Dag's Survival Roll 1 -> dead. Baal D66 35 Minor Wound, 1 Battle Scar.
  L Promotions: 1 + 1 deed = 2 dice; Cain is the only promotable Troop (Wret is Wretched; Dag is
    dead): Cain 2; rolls 4 (streak 1), 6 -> Cain promoted, ELITE, 0 XP; streak 0.
  L Experience: Baal survived +1 = 1; Cain (now ELITE) survived +1, deed +1 = 2 -> circle 2.
  L Advancement: Cain 4 on Ranged (Gunslinger), 12 on Stealth & Speed (Patron Skill): Gunslinger.
  L Exploration: the loser may re-roll 1 die: 1, 1, 2, die 3 re-rolled to 6 -> 8 Ruined House;
    +80 -> 640.
Battle 2, Hunt for Heroes, L wins; Baal misses it (Minor Wound). Deed: Cain Kill their Leaders
(L Glory 2). Out of Action: Gaius.
  P Trauma: Gaius D66 65 Bitter Lessons (no scar), D3 from a 4 = 2 XP: 2 -> 4, circle 4.
  P Promotions: 1 die, to Anna (even spread of 1 over 2 Troops); rolls 2 -> streak 5.
  P Experience: Gaius survived +1 = 5.
  P Advancement: Gaius 7 Melee Proficiency / 3 Hunter: keeps Melee Proficiency.
  P Exploration: game 2, 3 dice: 5+5+4 = 14 Map & Document Bag; +140 -> 775.
  L Trauma: nobody Out of Action. L Promotions: 2 dice, no promotable Troop: lost; streak 0.
  L Experience: Cain +1 +1 = 4 -> circle 4; Baal was not in the Force: nothing.
  L Advancement: Cain 6 Sharp Eyes / 8 Show Off: keeps Show Off.
  L Exploration: 6+6+6 = 18 Fallen Knight; +180 -> 820.
Battle 3, Relic Hunt, a draw. Deeds: Bert Relic Hunter (P Glory 4), Baal Sniper (L Glory 3).
Out of Action: Wret. P's phase runs through the guided `post-game`.
  P Trauma: nothing. P Promotions: 1 + 1 = 2 dice, Anna 1, Bert 1; the streak is 5, so Anna's
    first die (a 3) counts as a 6: Anna promoted, 0 XP; rolling stops; streak 0.
  P Experience: Gaius +1 = 6; Anna, promoted before Experience, survived +1 = 1.
  P Exploration: game 3, 4 dice, the Rare table chosen: 3+4+5+5 = 17 Book of Golems; +170 -> 945.
  P Quartermaster: a Trench Shield for 15 ducats -> 930, given to Bert (not ELITE-only, so a
    Troop may carry it); a Glory Item, Martyr's Medal, for 3 of its 4 Glory -> 1, kept in the
    Arsenal. Then the guided post-game does the Quartermaster step and, run again, the Roster step.
  L Trauma: Wret's Survival Roll 3 -> fine. L Promotions: 2 dice lost again.
  L Experience: Baal +1 (circle 2) +1 deed = 3; Cain +1 = 5.
  L Advancement: Baal 11 Champion / 5 Shadow Walker: keeps Champion.
  L Exploration: game 3, 4 dice, Common: 1+2+3+4 = 10 Fallen Soldier; +100 -> 920.
"""

from __future__ import annotations

import json
from importlib.resources import files

FIXTURE = json.loads((files("fixtures") / "trench_crusade" / "demo.json").read_text(encoding="utf-8"))


SKILLS = {"Gaius": ["War Stories", "Melee Proficiency"], "Anna": [], "Baal": ["Champion"], "Cain": ["Gunslinger", "Show Off"]}


def elite(name, model, xp, *, keywords=("ELITE",), scars=0, injuries=()):
    """An ELITE's status: none of the demo's models is of the Limited Potential list, so each may have 18 XP."""
    return {"name": name, "model": model, "xp": xp, "keywords": list(keywords), "battle_scars": scars, "advancements_due": 0, "head_wound": None,
            "trauma_against": [], "skills": SKILLS[name], "injuries": list(injuries), "xp_cap": 18, "limited_potential": None,
            "cannot_be_promoted": None}


def troop(name, model, cannot_be_promoted=None):
    return {"name": name, "model": model, "xp": 0, "keywords": [], "battle_scars": 0, "advancements_due": 0, "head_wound": None,
            "trauma_against": [], "skills": [], "injuries": [], "xp_cap": 18, "limited_potential": None,
            "cannot_be_promoted": cannot_be_promoted}


EXPECTED = {
    "Pilgrims of Saint Gaius": {
        "warband": "Pilgrims of Saint Gaius", "faction": "trench-pilgrims", "ducats": 930, "glory": 1, "promotion_streak": 0, "head_wound_promotion": False,
        "elite": [elite("Gaius", "War Prophet", 6, keywords=("ELITE", "LEADER")), elite("Anna", "Trench Pilgrim", 1)],
        "elite_counted": 2,
        "troops": [troop("Bert", "Trench Pilgrim"), troop("Carl", "Ecclesiastic Prisoners", "trench-pilgrims/ecclesiastic-prisoners")],
        "locations_found": ["common/9-survivor", "common/14-map-document-bag", "rare/17-book-of-golems"],
        "battle": 3, "steps_done": ["trauma", "promotions", "experience", "exploration", "quartermaster", "roster"],
    },
    "Legion of Gehenna": {
        "warband": "Legion of Gehenna", "faction": "heretic-legions", "ducats": 920, "glory": 3, "promotion_streak": 0, "head_wound_promotion": False,
        # Baal's Minor Wound ("misses the next game") healed once he missed battle 2; its Battle Scar stays
        "elite": [elite("Baal", "Heretic Priest", 3, keywords=("ELITE", "LEADER"), scars=1),
                  elite("Cain", "Heretic Trooper", 5)],
        "elite_counted": 2,
        "troops": [troop("Wret", "Wretched", "heretic-legions/wretched")],
        "locations_found": ["common/8-ruined-house", "common/18-fallen-knight", "common/10-fallen-soldier"],
        "battle": 3, "steps_done": ["trauma", "promotions", "experience", "exploration", "quartermaster", "roster"],
    },
}


def test_the_demo_campaign_ends_as_worked_out_by_hand(cli):
    name = FIXTURE["name"]
    assert cli("new", name, "--ruleset", FIXTURE["ruleset"]).exit_code == 0
    for step in FIXTURE["steps"]:
        result = cli("--campaign", name, *step)
        assert result.exit_code == 0, f"{step}: {result.output}"
    for warband, expected in EXPECTED.items():
        assert json.loads(cli("--campaign", name, "trench-crusade", "status", warband, "--json").output) == expected
    roster = {row["name"]: row for band in EXPECTED for row in json.loads(cli("--campaign", name, "roster", band, "--json").output)["roster"]}
    assert {fighter: roster[fighter]["skills"] for fighter in SKILLS} == SKILLS
    assert roster["Dag"]["status"] == "dead"
    assert roster["Baal"]["injuries"] == []  # healed: he missed battle 2 (his scar: the status above)
    assert (roster["Anna"]["role"], roster["Cain"]["role"]) == ("elite", "elite")
    assert roster["Bert"]["equipment"] == ["Trench Shield"]
    assert json.loads(cli("--campaign", name, "roster", "Pilgrims of Saint Gaius", "--json").output)["stash"] == ["Martyr's Medal"]
    checked = cli("--campaign", name, "replay", "--check")
    # One transaction per step, and one more for each of the two post-game runs that go on through a
    # second step (Promotions then Experience; Quartermaster then Roster).
    assert (checked.exit_code, checked.output.splitlines()[-1]) == (
        0, f"Re-decided {len(FIXTURE['steps']) + 2} transactions from their commands and dice: all match."
    )
