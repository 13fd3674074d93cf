"""fixtures/speedheim/demo.json replayed step by step through the CLI (`campaign speedheim …` with
--dice, --card and --answer), and the campaign checked against the one worked out by hand from the
seed and shared/rules/speedheim.md. S = Sellswords, K = Clan Skrittle; a physical deck, so every card
is named; "card 08 @1" is card 08, 1st from the top.

Set-up. S: 500 - 75 Gunnar - 50 Hilde - 30 Ivo - 30 Jan = 315. K: 500 - 80 Skab - 45 Rikk - 25 Rat - 20 Fang = 330.
Battle 1, K wins. During it: Gunnar takes out Rat, card 08 @1 Def, d20 15 <= 17: Def 16. Rikk takes out Ivo,
  card 05 @2 Skill: pending. Fang (Animal henchman) takes out Hilde, card 01 @3 Promote! (works for an Animal):
  promotes at the end; Fang takes out Jan: no card (promoting). With the battle record: Gunnar takes out Skab,
  card 12 @4 Mel/Rgd, picks Mel, 3 <= 12: Mel 11.
  K: income 1 token + 1 for the win: 14 + 6 + 40 = 60 -> 390. Promotions: Fang a hero, slots 3 -> 4.
    Scars: Rat 12 nothing; Skab 18 Disfigured: Fear. Free attempts: Skab 06 @5 Skill (pending), Rikk 02 @6
    Atk 2, Fang 07 @7 Skill: an Animal hero draws again, 03 @8 Prc 1. Learning: Skab (Blight Magic) the spell
    Swarm of Rats, Rikk Sprint (Agility). Spend Gold: Rikk buys an attempt (-25 -> 365), 15 @9 Agi, 4 <= 8: Agi 7.
  S: income 0 tokens, lost: 0 + 40 -> 355. Scars: Ivo 3 dead; Hilde 10 Light Wound (misses a game); Jan 1
    Blighted, Blight roll 17 cured. Free attempts: Gunnar 09 @10 Def 16 <= 16: Def 15; Hilde 20 @11 Mrl,
    11 > 10: stays. Spend Gold: Kurt recruited (-30 -> 325), hero slot 4 (-50 -> 275).
Battle 2, S wins; Hilde misses it. Skab takes out Kurt, card 10 @12, picks Rgd, 2 <= 12: Rgd 11. Jan takes
  out Fang (a hero now), card 04 @13 "promote if a Leader": not met. Gunnar takes out Rikk, 13 @14 Mel,
  11 <= 11: Mel 10. With the record: Jan takes out Rat, 11 @15, blank.
  S: income 2 tokens + 1: 20 + 5 + 9 + 40 = 74 -> 349; the natural 20 rolls Loot 17: Rare Armour & Weapons.
    Scars: Kurt 5 nothing. Free: Gunnar 14 @16 Rgd 12 <= 12: Rgd 11; Hilde (missed the game, still draws)
    16 @17 Agi 10 <= 10: Agi 9.
  K: income 0 + 40 -> 405. Scars: Fang 9 Major Wound, 12 -> Rgd, which Fang does not have: nothing; Rikk 20
    an attempt with Advantage: cards 17 @18 and 18 @19, keeps 17 Agi, 5 <= 7: Agi 6; Rat 13 nothing.
    Free: Skab 19 @20 Mrl 7 <= 7: Mrl 6; the deck is out: reshuffled; Rikk 01 @1 Wnd 2; Fang 05 @2 Skill:
    draws again, 04 @3 Inj 1.
Battle 3, K wins. Rat takes out Gunnar (the Leader), 06 @4 "promote if a Leader": promotes; Rat takes out
  Hilde: no card. With the record: Kurt takes out Skab, 20 @5 blank; Jan falls (no unit credited).
  K: income 1 + 1: 8 + 8 + 40 = 56 -> 461. Promotions: Rat a hero, slots 4 -> 5. Scars: Skab 15 nothing.
    Free: Skab 08 @6 Def 18 <= 18: 17; Rikk 09 @7 Def 19 > 18; Rat 10 @8 Mel 1 <= 14: 13; Fang 11 @9 (no Rgd:
    Mel or draw again) Mel 14 <= 14: 13.
  S: income 0 + 40 -> 389. Scars: Gunnar 19 Hatred; Hilde 7 Madness; Jan 12 nothing. Free: Gunnar 12 @10 Mel
    20 > 10; Hilde 13 @11 Rgd 13 <= 13: 12.
"""

from __future__ import annotations

import json
from importlib.resources import files

FIXTURE = json.loads((files("fixtures") / "speedheim" / "demo.json").read_text(encoding="utf-8"))
HUMAN = {"Mov": 6, "Mel": 14, "Rgd": 14, "Def": 18, "Agi": 10, "Mrl": 10, "Atk": 1, "Wnd": 1, "Inj": 0, "Prc": 0}


def unit(name, role, stats, *, keywords=(), skills=(), injuries=(), learned=0):
    return {"name": name, "role": role, "stats": stats, "keywords": list(keywords), "skills": list(skills),
            "injuries": list(injuries), "learned_skills": learned, "pending": 0, "promotes_after_battle": None}


EXPECTED = {
    "Sellswords": {
        "warband": "Sellswords", "gold": 389, "hero_slots": 4, "leader": "Gunnar", "battle": 3, "next_step": None,
        "heroes": [
            unit("Gunnar", "leader", {"Mov": 6, "Mel": 10, "Rgd": 11, "Def": 15, "Agi": 8, "Mrl": 7, "Atk": 1, "Wnd": 1,
                                      "Inj": 0, "Prc": 0}, keywords=["Leader", "Hatred"]),
            unit("Hilde", "hero", {"Mov": 6, "Mel": 13, "Rgd": 12, "Def": 18, "Agi": 9, "Mrl": 10, "Atk": 1, "Wnd": 1,
                                   "Inj": 0, "Prc": 0}, keywords=["Madness"]),  # her Light Wound healed: she missed battle 2
        ],
        "henchmen": [unit("Jan", "henchman", HUMAN), unit("Kurt", "henchman", HUMAN)],
    },
    "Clan Skrittle": {
        "warband": "Clan Skrittle", "gold": 461, "hero_slots": 5, "leader": "Skab", "battle": 3, "next_step": None,
        "heroes": [
            unit("Skab", "leader", {"Mov": 6, "Mel": 13, "Rgd": 11, "Def": 17, "Agi": 8, "Mrl": 6, "Atk": 1, "Wnd": 1,
                                    "Inj": 0, "Prc": 0}, keywords=["Leader", "Blight Magic", "Sewer Filth", "Fear"],
                 skills=["Swarm of Rats"]),
            unit("Rikk", "hero", {"Mov": 7, "Mel": 13, "Rgd": 13, "Def": 18, "Agi": 6, "Mrl": 10, "Atk": 2, "Wnd": 2,
                                  "Inj": 0, "Prc": 0}, skills=["Sprint"], learned=1),
            unit("Rat", "hero", {**HUMAN, "Mel": 13}),
            unit("Fang", "hero", {"Mov": 8, "Mel": 13, "Def": 18, "Agi": 8, "Mrl": 10, "Atk": 1, "Wnd": 1, "Inj": 1,
                                  "Prc": 1}, keywords=["Animal"], injuries=["Major Wound"]),
        ],
        "henchmen": [],
    },
}

# Every card drawn, in order: (fighter, card, position from the top, outcome).
CARDS = [
    ("gunnar", "08", 1, "improved"), ("rikk", "05", 2, "skill"), ("fang", "01", 3, "promote"), ("gunnar", "12", 4, "improved"),
    ("skab", "06", 5, "skill"), ("rikk", "02", 6, "improved"), ("fang", "07", 7, "redraw"), ("fang", "03", 8, "improved"),
    ("rikk", "15", 9, "improved"), ("gunnar", "09", 10, "improved"), ("hilde", "20", 11, "failed"),
    ("skab", "10", 12, "improved"), ("jan", "04", 13, "nothing"), ("gunnar", "13", 14, "improved"), ("jan", "11", 15, "nothing"),
    ("gunnar", "14", 16, "improved"), ("hilde", "16", 17, "improved"),
    ("rikk", "18", 19, "set-aside"), ("rikk", "17", 18, "improved"), ("skab", "19", 20, "improved"),
    ("rikk", "01", 1, "improved"), ("fang", "05", 2, "redraw"), ("fang", "04", 3, "improved"),
    ("rat", "06", 4, "promote"), ("kurt", "20", 5, "nothing"),
    ("skab", "08", 6, "improved"), ("rikk", "09", 7, "failed"), ("rat", "10", 8, "improved"), ("fang", "11", 9, "improved"),
    ("gunnar", "12", 10, "failed"), ("hilde", "13", 11, "improved"),
]


def test_the_demo_campaign_ends_as_worked_out_by_hand(campaign):
    name = FIXTURE["name"]
    options = [arg for key, value in FIXTURE["options"].items() for arg in ("--option", f"{key}={value}")]
    assert campaign("new", name, "--ruleset", FIXTURE["ruleset"], *options).exit_code == 0
    for step in FIXTURE["steps"]:
        result = campaign("--campaign", name, *step)
        assert result.exit_code == 0, f"{step}: {result.output}"
    for warband, expected in EXPECTED.items():
        assert json.loads(campaign("--campaign", name, "speedheim", "status", warband, "--json").output) == expected
    # The text shows a unit's keywords and injuries too (it showed neither Hatred nor Fang's Major Wound)
    assert campaign("--campaign", name, "speedheim", "status", "Sellswords").output.splitlines()[2:4] == [
        "  Gunnar (leader) Mov 6 Mel 10 Rgd 11 Def 15 Agi 8 Mrl 7 Atk 1 Wnd 1 Inj 0 Prc 0  keywords: Leader, Hatred",
        "  Hilde (hero) Mov 6 Mel 13 Rgd 12 Def 18 Agi 9 Mrl 10 Atk 1 Wnd 1 Inj 0 Prc 0  keywords: Madness"]
    assert campaign("--campaign", name, "speedheim", "status", "Clan Skrittle").output.splitlines()[5] == (
        "  Fang (hero) Mov 8 Mel 13 Def 18 Agi 8 Mrl 10 Atk 1 Wnd 1 Inj 1 Prc 1  keywords: Animal; injuries: Major Wound")
    roster = {row["name"]: row for band in EXPECTED for row in json.loads(campaign("--campaign", name, "roster", band, "--json").output)["roster"]}
    assert roster["Ivo"]["status"] == "dead"
    # Hilde's Light Wound ("misses the next game") healed once she missed battle 2; Fang's Major Wound lasts
    assert (roster["Hilde"]["injuries"], roster["Fang"]["injuries"]) == ([], ["Major Wound"])
    lines = [json.loads(line) for line in campaign("--campaign", name, "export", "--format", "jsonl").output.splitlines()]
    header, records = lines[0], lines[1:-1]
    assert header["ruleset"]["options"]["leader_counts_as_hero"] is False  # every section-10 option, in the header
    reads = [r["payload"] for r in records if r["type"] == "speedheim.card-read"]
    assert [(p["fighter"], p["card"], p["position"], p["outcome"]) for p in reads] == CARDS
    assert [r["payload"]["source"] for r in records if r["type"] == "deck.shuffled"] == ["table"]  # the deck ran out once
    checked = campaign("--campaign", name, "replay", "--check")
    assert (checked.exit_code, checked.output.splitlines()[-1]) == (
        0, f"Re-decided {len(FIXTURE['steps'])} transactions from their commands and dice: all match.")


def test_campaign_demo_builds_the_speedheim_sample(campaign):
    result = campaign("demo", "--ruleset", "speedheim")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert "  Sellswords (Ann): 4 fighters, treasury 389, 3 games, 1 win" in lines
    assert "  Clan Skrittle (Bob): 4 fighters, treasury 461, 3 games, 2 wins" in lines
    assert any(line.endswith("Gunnar reads the hero half of card 08 (1st from the top of improvement), Def (roll under): "
                             "rolled 15, 17 or under: Def 17 -> 16") for line in lines)
