"""fixtures/retinue/demo.json replayed step by step through the CLI, and the final rosters checked
against the campaign worked out by hand from the seed (E1-E7, S1-S9) and the sample data.

Hawks of the Mere (H): Kestrel, Vampire Warrior of Blood, Leader (baselines Wi 3 Mt 4 CC 4);
Finch, Human Scout; Wren, Human Mystic of Storm with Sa 4 and the Caster keyword at recruitment.
Wolves of Harrow (W): Lupa, Dwarf Warrior, Leader; Fang, Grim, Human Warriors; Moth, Human Mystic.

Battle 1, Horn Run, H wins. Kestrel puts Lupa OOA; Finch puts Fang OOA (twice); Fang puts Finch
OOA; Grim falls into The Void (OOA, nobody credited).
  H battle pass: Kestrel not OOA +1, the Leader Lupa +2 (not +1 more) = 3; Finch went OOA, Fang
    once +1 = 1; Wren not OOA +1.  Scenario: Wren +2 (escaped with the Horn token) = 3.
  H Casualty: Finch D6 6, Hardy. Doom: nobody. Post-game pass: Finch Hardy +1 = 2.
  H buys: Wren Feat Focus (Mystic list) 3 -> 0.
  W battle pass: Fang +1 for Finch (he went OOA: no "did not go OOA"); Moth not OOA +1; Grim's
    removal was indirect: nobody earns it. Casualty: Lupa 4 Recovered, Fang 1 Slain, Grim 5
    Recovered. Fang keeps his 1 XP, dead (E5). Post-game pass: nothing.
Battle 2, Ambush, W wins. Lupa puts Wren OOA, Moth puts Finch OOA, Kestrel puts Grim OOA.
  H: Kestrel +1 +1 = 5. Casualty: Finch 3, Wren 5 Recovered. Doom: Kestrel 2D6 12, Miraculous;
    post-game pass +2 = 7. Kestrel buys Feat Cleave: 3 + 2 for a Vampire = 5 -> 2.
  W: Lupa +1 +1, Moth +1 +1 = 3; scenario Lupa +1 (held the crossroads) = 3. Casualty: Grim 6,
    Hardy; post-game pass Grim +1 = 1.
Battle 3, Last Stand, H wins. Kestrel puts Moth OOA, Finch Grim, Wren the Leader Lupa.
  H: Kestrel +2 = 4; Finch +2 = 4; Wren +1 +2 = 3, scenario +2 = 5, survival roll +1 = 6.
    Wren buys Sa +1 for 6 -> 0: Sa 5 is 2 above her Human baseline 2 (her recruitment Sa 4 does
    not count), so Mt 3 -> 2 (A1 default: one point per purchase).
    Kestrel's Caster is refused: Wren already has the Caster keyword (S9) — nothing written.
  W, through the guided `post-game`: everyone went OOA, so no battle XP; no scenario award; Casualty
    3, 4, 5 all Recovered; nobody on the Doom Table, no survival +1 (each given with --answer, the
    walk having nobody to ask); no post-game XP; spending closed.
"""

from __future__ import annotations

import json
from importlib.resources import files

from ledger.cli.demo import fixture_step

FIXTURE = json.loads((files("fixtures") / "retinue" / "demo.json").read_text(encoding="utf-8"))
HUMAN = {"Wi": 2, "Sa": 2, "Mt": 3, "Sk": 3, "W": 2, "M": 3, "Df": 3, "CC": 3, "RC": 3}

EXPECTED = {
    "Kestrel": {"xp": 4, "status": "active", "skills": ["Cleave"], "keywords": ["Vampire", "Warrior", "Blood"],
                "stats": {"Wi": 3, "Sa": 2, "Mt": 4, "Sk": 3, "W": 2, "M": 4, "Df": 3, "CC": 4, "RC": 2}},
    "Finch": {"xp": 4, "status": "active", "skills": [], "keywords": ["Human", "Scout"], "stats": HUMAN},
    "Wren": {"xp": 0, "status": "active", "skills": ["Focus"], "keywords": ["Human", "Mystic", "Storm", "Caster"],
             "stats": {**HUMAN, "Sa": 5, "Mt": 2}},
    "Lupa": {"xp": 3, "status": "active", "skills": [], "keywords": ["Dwarf", "Warrior"],
             "stats": {"Wi": 2, "Sa": 3, "Mt": 4, "Sk": 3, "W": 2, "M": 2, "Df": 4, "CC": 3, "RC": 3}},
    "Fang": {"xp": 1, "status": "dead", "skills": [], "keywords": ["Human", "Warrior"], "stats": HUMAN},
    "Grim": {"xp": 1, "status": "active", "skills": [], "keywords": ["Human", "Warrior"], "stats": HUMAN},
    "Moth": {"xp": 3, "status": "active", "skills": [], "keywords": ["Human", "Mystic", "Blood"], "stats": {**HUMAN, "Wi": 3}},
}


def test_the_demo_campaign_ends_as_worked_out_by_hand(cli):
    name = FIXTURE["name"]
    assert cli("new", name, "--ruleset", FIXTURE["ruleset"]).exit_code == 0
    refusals = 0
    for step in FIXTURE["steps"]:
        args, refused = fixture_step(step)
        result = cli("--campaign", name, *args)
        if refused is None:
            assert result.exit_code == 0, f"{args}: {result.output}"
        else:
            refusals += 1
            assert (result.exit_code, result.output.strip()) == (1, refused)
    assert refusals == 1
    rows = {row["name"]: {key: row[key] for key in ("xp", "status", "skills", "keywords", "stats")}
            for band in ("Hawks of the Mere", "Wolves of Harrow")
            for row in json.loads(cli("--campaign", name, "roster", band, "--json").output)["roster"]}
    assert rows == EXPECTED
    # E2: the fighter's history keeps the passes apart.
    history = cli("--campaign", name, "history", "--fighter", "Wren").output.splitlines()
    assert [line.split("arbiter    ")[1] for line in history if " XP" in line] == [
        "Wren gains 1 XP (battle pass: did not go Out of Action)",
        "Wren gains 2 XP (scenario pass: escaped with the Horn token)",
        "Wren spends 3 XP on Feat",
        "Wren gains 1 XP (battle pass: did not go Out of Action)",
        "Wren gains 2 XP (battle pass: put the enemy Leader Lupa Out of Action)",
        "Wren gains 2 XP (scenario pass: escaped with the Horn token)",
        "Wren gains 1 XP (post-game pass: survival roll of 6)",
        "Wren spends 6 XP on Sa +1",
    ]
    post_game = cli("--campaign", name, "post-game", "Wolves of Harrow", "--list")
    assert post_game.output.splitlines()[-1] == "[x] spending: Spending: advancements bought (S1-S9)"
    checked = cli("--campaign", name, "replay", "--check")
    assert (checked.exit_code, checked.output.splitlines()[-1]) == (
        # a step each, less the refusals, and four more: the two guided runs go on through the steps that
        # need no dice (battle-pass then scenario-pass; casualty then doom, post-game-pass, spending-done)
        0, f"Re-decided {len(FIXTURE['steps']) - refusals + 4} transactions from their commands and dice: all match."
    )


def test_campaign_demo_builds_the_retinue_sample_and_shows_the_slain_fighter(cli):
    result = cli("demo", "--ruleset", "retinue")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "  Fang — fighter [dead]  XP 1  Wi2 Sa2 Mt3 Sk3 W2 M3 Df3 CC3 RC3" in lines
    assert any(line.endswith("Kestrel spends 5 XP on Feat (3 + 2 for a Vampire)") for line in lines)
    assert any(line.endswith("Wren Mt -1 (S7: Sa 5 is beyond the ancestry baseline 2 + 1)") for line in lines)
