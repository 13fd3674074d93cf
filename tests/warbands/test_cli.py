"""`campaign warbands …` through the CLI: exact output, exit codes, and nothing written on a refusal."""

from __future__ import annotations

import json
import os
import sqlite3


def started(cli, *options: str):
    assert cli("new", "Old World", "--ruleset", "warbands", *options).exit_code == 0
    return cli


def test_enlist_and_recruit_then_status_explains_the_rating(cli):
    started(cli)
    result = cli("warbands", "enlist", "Reiklanders", "--player", "Ann", "--type", "empire")
    assert (result.exit_code, result.output.splitlines()[0]) == (0, "  Reiklanders enlisted by Ann with 250 in the XP pool")
    assert json.loads(cli("roster", "Reiklanders", "--json").output)["faction"] == "Empire"
    # the treasury holds the warband's XP (R25), and its lines say so
    assert cli("roster", "Reiklanders").output.splitlines()[0] == "Reiklanders (Ann, Empire)  XP pool 250  rating 0  games 0  wins 0"
    cli("warbands", "recruit", "Reiklanders", "Swordsmen", "--points", "6", "--models", "10")
    cli("warbands", "recruit", "Reiklanders", "Hans", "--points", "50", "--archetype", "Intellectual")
    result = cli("warbands", "status", "Reiklanders")
    assert (result.exit_code, result.output) == (0, (
        "Reiklanders (Empire): 110 points, 140 XP, WBR 110\n"
        "   110  points\n"
        "  unit Swordsmen: 10 x 6 points, no Veteran Status\n"
        "  character Hans: 50 points, Intellectual (Advantage of Ground); no Archetype Ability yet; "
        "0 battles survived toward the next Archetype Ability\n"))


def test_mistakes_get_an_error_line_a_non_zero_exit_and_nothing_written(cli):
    started(cli)
    cli("warbands", "enlist", "Reiklanders", "--player", "Ann", "--type", "Empire")
    head = json.loads(cli("show", "--json").output)["head"]
    cases = [
        (["warbands", "enlist", "Kislevites", "--player", "Cy", "--type", "Kislev"], 2,
         "Error: 'Kislev' is not a warband type of the Archetype Table (types: Beasts of Chaos,"),
        (["warbands", "recruit", "Reiklanders", "Knights", "--points", "25", "--models", "11"], 1,
         "Error: recruiting Knights would make the starting warband 275 points; a warband starts with at most 250\n"),
        (["warbands", "recruit", "Reiklanders", "Hans", "--points", "50", "--archetype", "Wizard"], 2,
         "Error: 'Wizard' is not an Archetype (Archetypes: Barbarian, Intellectual, Intimidator, Magician, Noble, "
         "Psychopath, Trickster, Veteran)\n"),
        (["warbands", "recruit", "Reiklanders", "Hans", "--points", "50"], 2,
         "Error: a unit is recruited with its models, a character with his Archetype (one of the two)\n"),
        (["warbands", "upgrade", "Reiklanders", "Swordsmen"], 2, "Error: no fighter 'Swordsmen' in Reiklanders\n"),
        (["warbands", "recovery", "Reiklanders"], 1,
         "Error: Reiklanders has not fought a battle yet: there is no post-game to roll Recovery\n"),
        (["warbands", "battle", "--warband", "Reiklanders", "--removed", "Swordsmen=x"], 2,
         "Error: --removed Swordsmen: 'x' is not a whole number\n"),
        (["warband", "add", "Da Boyz", "--player", "Bob"], 1,
         "Error: in a Warbands campaign a warband is enlisted with its type: campaign warbands enlist NAME --player P --type TYPE\n"),
    ]
    for args, code, message in cases:
        result = cli(*args)
        assert (result.exit_code, result.output[:len(message)]) == (code, message), args
    assert json.loads(cli("show", "--json").output)["head"] == head


def tables_file(tmp_path, tables, name: str = "tables.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(tables), encoding="utf-8")
    return str(path)


def empire_row(archetypes: list[str]) -> dict:
    from commands.warbands.tables import SEED_ROW_SIZES

    return {"archetype-table": {"rows": [{"type": t, "archetypes": archetypes if t == "Empire" else None}
                                         for t in SEED_ROW_SIZES]}}


EMPIRE = ["Barbarian", "Intellectual", "Noble", "Magician", "Trickster", "Veteran"]


def test_campaign_new_tables_loads_the_groups_tables_and_the_rules_use_them(cli, tmp_path):
    result = cli("new", "Old World", "--ruleset", "warbands", "--tables", tables_file(tmp_path, empire_row(EMPIRE)))
    assert result.exit_code == 0, result.output
    assert json.loads(cli("show", "--json").output)["options"]["tables"] == empire_row(EMPIRE)
    cli("warbands", "enlist", "Reiklanders", "--player", "Ann", "--type", "Empire")
    result = cli("warbands", "recruit", "Reiklanders", "Max", "--points", "50", "--archetype", "Psychopath")
    assert (result.exit_code, result.output) == (
        1, "Error: Empire characters may not be Psychopaths (the Archetype Table allows " + ", ".join(EMPIRE) + ")\n")


TYPES_MISSING = ("missing Beasts of Chaos, Bretonnia, Chaos Dwarfs, Dark Elves, Dogs of War, Dwarfs, High Elves, Hordes of "
                 "Chaos, Lizardmen, Ogre Kingdoms, Orcs & Goblins, Skaven, Tomb Kings, Vampire Counts, Wood Elves, "
                 "Archaon's Horde, Army of Middenland, Army of Sylvania, Cult of Slaanesh, Daemonic Legions, Errantry War, "
                 "Grimgor's 'Ardboyz, High Elf Sea Patrol, Skaven Clan Eshin, Slayer Army of Karak Kadrin, "
                 "Bubonic Court of Nurglitch, Red Host of Tehenhauin")


def test_campaign_new_tables_refuses_a_bad_file_with_a_clear_error_and_starts_nothing(cli, tmp_path):
    not_json = tmp_path / "broken.json"
    not_json.write_text("{\"archetype-table\": ", encoding="utf-8")
    cases = [
        (tables_file(tmp_path, empire_row(EMPIRE[:5]), "short.json"),
         "Error: Warbands table 'archetype-table': Empire has 6 Archetypes in the seed's table, not 5\n"),
        (tables_file(tmp_path, {"archetype-table": {"rows": [{"type": "Empire", "archetypes": ["Noble"]}]}}, "few.json"),
         f"Error: Warbands table 'archetype-table': the seed's 28 warband types, each once; {TYPES_MISSING}\n"),
        (tables_file(tmp_path, {"injuries": {}}, "unknown.json"),
         "Error: there is no Warbands table 'injuries'; tables are: archetype-table, archetypes, character-injury, "
         "recovery, xp-awards\n"),
        (tables_file(tmp_path, [1, 2], "list.json"), f"Error: {tmp_path / 'list.json'}: tables must be a JSON object\n"),
        (str(not_json), f"Error: {not_json}: not JSON the ledger takes (Expecting value: line 1 column 21 (char 20))\n"),
    ]
    for path, message in cases:
        result = cli("new", "Old World", "--ruleset", "warbands", "--tables", path)
        assert (result.exit_code, result.output) == (2, message)
    assert not os.path.exists(cli.store.removeprefix("sqlite:///"))  # a refused start leaves no file behind


def test_tables_in_the_options_file_work_too_but_not_in_both_places(cli, tmp_path):
    house = tmp_path / "house.json"
    house.write_text(json.dumps({"points_cap": 400, "tables": empire_row(EMPIRE)}), encoding="utf-8")
    result = cli("new", "Old World", "--ruleset", "warbands", "--options-file", str(house),
                 "--tables", tables_file(tmp_path, empire_row(EMPIRE)))
    assert (result.exit_code, result.output) == (
        2, f"Error: {house} gives tables too: give them in one place, --tables or --options-file\n")
    assert cli("new", "Old World", "--ruleset", "warbands", "--options-file", str(house)).exit_code == 0
    assert json.loads(cli("show", "--json").output)["options"]["points_cap"] == 400


def test_an_unknown_option_is_refused(cli):
    result = cli("new", "Old World", "--ruleset", "warbands", "--option", "points_cap=lots")
    assert (result.exit_code, result.output) == (2, "Error: warbands option points_cap: Expected `int`, got `str`\n")
    result = cli("new", "Old World", "--ruleset", "warbands", "--option", "wbr_base=rating")
    assert (result.exit_code, result.output) == (
        2, "Error: warbands option wbr_base: Invalid enum value 'rating' (one of: points, none)\n")
    result = cli("new", "Old World", "--ruleset", "warbands", "--option", "underdog=yes")
    assert (result.exit_code, result.output.split(" (options:")[0]) == (2, "Error: warbands has no option underdog")


def reiklanders_and_da_boyz(cli, unit: str = "Swordsmen") -> None:
    """A campaign of Reiklanders (UNIT, 10 models at 6 points) and Da Boyz (Boyz, 10 models at 6)."""
    started(cli)
    cli("warbands", "enlist", "Reiklanders", "--player", "Ann", "--type", "Empire")
    cli("warbands", "recruit", "Reiklanders", unit, "--points", "6", "--models", "10")
    cli("warbands", "enlist", "Da Boyz", "--player", "Bob", "--type", "Orcs & Goblins")
    cli("warbands", "recruit", "Da Boyz", "Boyz", "--points", "6", "--models", "10")


def test_the_guided_post_game_asks_for_what_the_players_rolled(cli):
    reiklanders_and_da_boyz(cli)
    cli("warbands", "battle", "--warband", "Reiklanders", "--warband", "Da Boyz", "--removed", "Swordsmen=4")
    # the status names the step to do by its name, as the walk's heading below begins (was its key, "recovery")
    assert cli("warbands", "status", "Reiklanders").output.splitlines()[-1] == "  post-game: Recovery is next"
    result = cli("post-game", "Reiklanders")
    assert (result.exit_code, result.output) == (2, (
        "== Recovery: each unit's casualties that recover (survival counts after it)\n"
        "Error: Swordsmen: how many of its 4 casualties recovered?: answer with --answer recovered:swordsmen=CHOICE "
        "(one of: 0, 1, 2, 3, 4)\n"))
    # the walk runs on through injuries (nobody down) and survival, and stops at the XP to tell
    ran = cli("post-game", "Reiklanders", "--answer", "recovered:swordsmen=1")
    assert ran.exit_code == 0 and ran.output.splitlines()[-1].startswith("Next step: Experience — ")
    assert "  Swordsmen eligible for its next Veteran level (7 of 10 survived battle 1)" in ran.output.splitlines()
    result = cli("post-game", "Reiklanders")
    assert result.exit_code == 2  # an answer missing, as the recovery's above
    assert result.output.splitlines()[-1] == ("Error: Reiklanders: the campaign has no XP award table: give the XP earned "
                                              "in battle 1 (`campaign warbands experience Reiklanders --xp N`, or "
                                              "`campaign post-game Reiklanders --answer xp=N`)")
    # the step's own command says the same: each way in names its own option (it said "--xp N (or --answer xp=N)",
    # and the walk refused --xp, the command --answer)
    told = cli("warbands", "experience", "Reiklanders")
    assert (told.exit_code, told.output) == (2, f"{result.output.splitlines()[-1]}\n")
    result = cli("post-game", "Reiklanders", "--answer", "xp=7")
    lines = result.output.splitlines()
    assert (result.exit_code, lines[1], lines[-1]) == (0, "  Reiklanders XP pool +7 (XP for battle 1)", "Post-game sequence complete.")
    assert cli("post-game", "Reiklanders", "--list").output == (
        "[x] recovery: Recovery: each unit's casualties that recover (survival counts after it)\n"
        "[x] injuries: Injuries: each character removed as a casualty\n"
        "[x] survival: Survival: Veteran eligibility or loss for units, battles survived for characters\n"
        "[x] experience: Experience: the XP the battle earned\n")


ROLLING_TABLES = {
    "recovery": {"die": "D6", "rows": [{"id": "any", "target": 4}]},
    "character-injury": {"die": "2D6", "rows": [
        {"id": "dead", "low": 2, "high": 3, "name": "Killed Outright", "effect": "dead"},
        {"id": "hurt", "low": 4, "high": 6, "name": "Hurt", "effect": "misses-game", "missed_games": 1},
        {"id": "fine", "low": 7, "high": 12, "name": "Fine", "effect": "recovered"}]},
    "xp-awards": {"rows": [{"id": "fought", "result": "any", "xp": 5}]}}


def swordsmen_and_hans_hurt(cli, *options: str) -> None:
    """Reiklanders' Swordsmen lose 4 models and Hans is removed as a casualty against Da Boyz, in a campaign
    started with `options`."""
    started(cli, *options)
    for args in (("enlist", "Reiklanders", "--player", "Ann", "--type", "Empire"),
                 ("recruit", "Reiklanders", "Swordsmen", "--points", "6", "--models", "10"),
                 ("recruit", "Reiklanders", "Hans", "--points", "50", "--archetype", "Noble"),
                 ("enlist", "Da Boyz", "--player", "Bob", "--type", "Orcs & Goblins"),
                 ("recruit", "Da Boyz", "Boyz", "--points", "6", "--models", "10"),
                 ("battle", "--warband", "Reiklanders", "--warband", "Da Boyz", "--removed", "Swordsmen=4",
                  "--down", "Hans")):
        assert cli("warbands", *args).exit_code == 0, args


def test_the_walks_list_names_the_answers_a_campaign_without_tables_asks(cli):
    # Given a campaign with no Recovery, Character Injury or XP award table: the players say what each did
    swordsmen_and_hans_hurt(cli)
    result = cli("post-game", "Reiklanders", "--list")
    assert (result.exit_code, result.output) == (0, (
        "[ ] recovery: Recovery: each unit's casualties that recover (survival counts after it)\n"
        "      --answer recovered:swordsmen=0|1|2|3|4  Swordsmen: how many of its 4 casualties recovered?\n"
        "      may ask, depending on what comes up: recovered:UNIT\n"
        "[ ] injuries: Injuries: each character removed as a casualty\n"
        "      may ask, depending on what comes up: injury:CHARACTER\n"
        "[ ] survival: Survival: Veteran eligibility or loss for units, battles survived for characters\n"
        "[ ] experience: Experience: the XP the battle earned\n"
        "      may ask, depending on what comes up: xp\n"))


def test_the_walk_neither_lists_nor_takes_an_answer_its_campaigns_tables_decide(cli, tmp_path):
    """Given a campaign that rolls Recovery and Character Injuries on its tables and awards XP from one, when the
    walk is listed, then it asks nothing (it said 'may ask recovered:UNIT', 'injury:CHARACTER' and 'xp', answers
    its commands refuse); and an answer for one is refused before any step is written (Hans's, given with the
    Recovery's dice, was refused by the Injuries after the Recovery was recorded)."""
    swordsmen_and_hans_hurt(cli, "--tables", tables_file(tmp_path, ROLLING_TABLES))
    result = cli("post-game", "Reiklanders", "--list")
    assert (result.exit_code, result.output) == (0, (
        "[ ] recovery: Recovery: each unit's casualties that recover (survival counts after it)\n"
        "[ ] injuries: Injuries: each character removed as a casualty\n"
        "[ ] survival: Survival: Veteran eligibility or loss for units, battles survived for characters\n"
        "[ ] experience: Experience: the XP the battle earned\n"))
    head = json.loads(cli("show", "--json").output)["head"]
    result = cli("post-game", "Reiklanders", "--dice", "1,2,5,6", "--answer", "injury:Hans=dead", "--answer", "xp=3",
                 "--answer", "recovered:swordsmen=4")
    assert (result.exit_code, result.output) == (2, (
        "Error: --answer injury:Hans: not asked: this campaign rolls each character's injury on its Character Injury "
        "Table; --answer xp: not asked: this campaign awards XP from its table; --answer recovered:swordsmen: "
        "not asked: this campaign rolls each unit's Recovery on its table\n"))
    assert json.loads(cli("show", "--json").output)["head"] == head
    result = cli("post-game", "Reiklanders", "--answer", "injury:Hnas=dead")  # no warrior of the warband: no key
    assert (result.exit_code, result.output) == (2, (
        "Error: --answer injury:Hnas: no open step of the post-game asks it (keys: none)\n"))


def test_the_wbr_is_kept_in_the_read_models_as_a_series(cli, tmp_path):
    started(cli)
    cli("warbands", "enlist", "Reiklanders", "--player", "Ann", "--type", "Empire")
    cli("warbands", "recruit", "Reiklanders", "Swordsmen", "--points", "6", "--models", "10")
    cli("warbands", "recruit", "Reiklanders", "Hans", "--points", "50", "--archetype", "Intellectual")
    with sqlite3.connect(tmp_path / "c.db") as db:
        rows = db.execute("SELECT games, rating FROM rm_ratings WHERE warband = 'reiklanders' ORDER BY tx").fetchall()
        current = db.execute("SELECT rating, treasury FROM rm_warbands WHERE warband = 'reiklanders'").fetchone()
    assert rows == [(0, 0), (0, 60), (0, 110)]  # enlisted, then each recruit
    assert current == (110, 140)


def test_post_game_mistakes_are_refused_with_nothing_written(cli):
    started(cli)
    for args in (("warbands", "enlist", "R", "--player", "Ann", "--type", "Empire"),
                 ("warbands", "recruit", "R", "Swordsmen", "--points", "6", "--models", "10"),
                 ("warbands", "recruit", "R", "Hans", "--points", "50", "--archetype", "Noble"),
                 ("warbands", "enlist", "B", "--player", "Bob", "--type", "Skaven"),
                 ("warbands", "recruit", "B", "Rats", "--points", "5", "--models", "10")):
        assert cli(*args).exit_code == 0
    cases = [
        (["warbands", "battle", "--warband", "R", "--warband", "B", "--removed", "Swordsmen=-2"], 2,
         "Error: Swordsmen: models removed or fled cannot be negative\n"),
        (["warbands", "battle", "--warband", "R", "--warband", "B", "--removed", "Swordsmen=11"], 2,
         "Error: Swordsmen has 10 models: it cannot lose 11\n"),
        (["warbands", "battle", "--warband", "R", "--warband", "B", "--down", "Swordsmen"], 2,
         "Error: Swordsmen is a unit: give its casualties with --removed or --fled\n"),
        # contradictory input is bad input (it was 'Hans did not fight in this battle', exit 1)
        (["warbands", "battle", "--warband", "R", "--warband", "B", "--down", "Hans", "--absent", "Hans"], 2,
         "Error: Hans is given both --absent and --down: a model left out did not fight in this battle\n"),
        (["warbands", "battle", "--warband", "R", "--warband", "B", "--removed", "Swordsmen=2", "--absent", "Swordsmen"], 2,
         "Error: Swordsmen is given both --absent and --removed: a model left out did not fight in this battle\n"),
    ]
    head = json.loads(cli("show", "--json").output)["head"]
    for args, code, message in cases:
        result = cli(*args)
        assert (result.exit_code, result.output) == (code, message), args
    assert json.loads(cli("show", "--json").output)["head"] == head
    assert cli("warbands", "battle", "--warband", "R", "--warband", "B", "--removed", "Swordsmen=3", "--down", "Hans").exit_code == 0
    head = json.loads(cli("show", "--json").output)["head"]
    cases = [
        (["warbands", "recovery", "R", "--recovered", "Rats=1"], 2, "Error: no unit or character 'Rats' in R\n"),
        (["warbands", "recovery", "R", "--recovered", "Swordsmen=4"], 1, "Error: 4 models cannot recover out of 3 casualties\n"),
        (["warbands", "injuries", "R"], 1, "Error: R cannot roll character Injuries yet: roll Recovery first (post-game of battle 1)\n"),
    ]
    for args, code, message in cases:
        result = cli(*args)
        assert (result.exit_code, result.output) == (code, message), args
    assert json.loads(cli("show", "--json").output)["head"] == head
    assert cli("warbands", "recovery", "R", "--recovered", "Swordsmen=1").exit_code == 0
    result = cli("warbands", "injuries", "R", "--outcome", "Hans=maimed")
    assert (result.exit_code, result.output) == (
        2, "Error: an injury's outcome is one of: recovered, dead, amnesia, misses-game; not 'maimed'\n")


def test_ratings_name_each_value_by_the_campaign_battle_it_follows(cli):
    started(cli)
    for band, kind, unit, points in (("A", "Empire", "Swords", "6"), ("B", "Skaven", "Clanrats", "5"), ("C", "Dwarfs", "Warriors", "8")):
        assert cli("warbands", "enlist", band, "--player", band, "--type", kind).exit_code == 0
        assert cli("warbands", "recruit", band, unit, "--points", points, "--models", "10").exit_code == 0
    for other in ("B", "C"):  # battle 1: A against B; battle 2: A against C
        assert cli("warbands", "battle", "--warband", "A", "--warband", other).exit_code == 0
        for band in ("A", other):
            assert cli("post-game", band, "--answer", "xp=10").exit_code == 0
    result = cli("warbands", "ratings")
    assert (result.exit_code, result.output) == (0, (
        "A: WBR 60 at the start, 60 after battle 1, 60 after battle 2\n"
        "B: WBR 50 at the start, 50 after battle 1\n"
        "C: WBR 80 at the start, 80 after battle 2\n"))


def test_the_recovery_and_injuries_commands_ask_with_their_own_options(cli):
    # Given a battle whose casualties the players roll on their own tables (no --answer on these commands)
    reiklanders_and_da_boyz(cli)
    cli("warbands", "recruit", "Reiklanders", "Hans", "--points", "50", "--archetype", "Intellectual")
    cli("warbands", "battle", "--warband", "Reiklanders", "--warband", "Da Boyz", "--removed", "Swordsmen=4", "--down", "Hans")
    result = cli("warbands", "recovery", "Reiklanders")
    assert (result.exit_code, result.output) == (2, (
        "Error: Swordsmen: how many of its 4 casualties recovered?: answer with --recovered swordsmen=CHOICE "
        "(one of: 0, 1, 2, 3, 4)\n"))
    assert cli("warbands", "recovery", "Reiklanders", "--recovered", "swordsmen=1").exit_code == 0
    result = cli("warbands", "injuries", "Reiklanders")
    assert (result.exit_code, result.output) == (2, (
        "Error: Hans: what did the injury roll do?: answer with --outcome hans=CHOICE "
        "(one of: recovered, dead, amnesia, misses-game)\n"))
    assert cli("warbands", "injuries", "Reiklanders", "--outcome", "hans=recovered").exit_code == 0


def test_a_name_with_a_slash_that_names_no_warband_is_a_name_in_a_battle(cli):
    # WARBAND/NAME names a fighter of both sides' name; "Sw/ords" was taken for warband "Sw" and never found
    reiklanders_and_da_boyz(cli, unit="Sw/ords")
    result = cli("warbands", "battle", "--warband", "Reiklanders", "--warband", "Da Boyz", "--removed", "Sw/ords=4")
    assert result.exit_code == 0, result.output
    assert "  Reiklanders, battle 1 (draw): casualties Sw/ords 4 of 10; characters down none" in result.output.splitlines()


def test_a_guided_post_game_that_reaches_a_wrong_answer_given_ahead_ends_in_an_error(cli):
    """The steps before it are recorded; the answer given for a later one is refused with exit 2, not
    taken for a step still to do (exit 0, which told a script that all went well)."""
    started(cli)
    for args in (("warbands", "enlist", "A", "--player", "Ann", "--type", "Empire"),
                 ("warbands", "recruit", "A", "Swordsmen", "--points", "6", "--models", "10"),
                 ("warbands", "enlist", "B", "--player", "Bob", "--type", "Skaven"),
                 ("warbands", "recruit", "B", "Rats", "--points", "5", "--models", "10"),
                 ("warbands", "battle", "--warband", "A", "--warband", "B", "--removed", "Rats=4")):
        assert cli(*args).exit_code == 0, args
    result = cli("post-game", "B", "--answer", "recovered:rats=1", "--answer", "xp=-5")
    assert result.exit_code == 2
    assert [line for line in result.output.splitlines() if not line.startswith("Recorded T")][-3:] == [
        "  B: post-game step Survival done for battle 1",
        "== Experience: the XP the battle earned",
        "Error: XP earned cannot be negative (-5)",  # the answer it refuses is not named again as unused
    ]
    assert "[ ] experience: Experience: the XP the battle earned" in cli("post-game", "B", "--list").output.splitlines()


def test_a_veteran_level_above_3_is_refused_at_correct_and_the_status_stays_readable(cli):
    # "+3 Veteran Status (the highest level of Veteran Status)"
    reiklanders_and_da_boyz(cli)
    head = json.loads(cli("show", "--json").output)["head"]
    for keyword in ("Veteran +4", "Veteran +one"):
        result = cli("correct", "Reiklanders", "Swordsmen", "--add-keyword", keyword, "--reason", "x")
        assert (result.exit_code, result.output) == (
            2, f"Error: '{keyword}' is no Veteran Status: its levels are Veteran +1, Veteran +2, Veteran +3 (the highest)\n")
    assert json.loads(cli("show", "--json").output)["head"] == head
    result = cli("warbands", "status", "Reiklanders")
    assert (result.exit_code, result.output.splitlines()[0]) == (0, "Reiklanders (Empire): 60 points, 190 XP, WBR 60")


def test_an_archetype_given_as_a_keyword_is_refused_at_correct_with_nothing_written(cli):
    # "A character's Archetype can never change over the course of the campaign"
    reiklanders_and_da_boyz(cli)
    cli("warbands", "recruit", "Reiklanders", "Hans", "--points", "50", "--archetype", "Intellectual")
    head = json.loads(cli("show", "--json").output)["head"]
    result = cli("correct", "Reiklanders", "Hans", "--add-keyword", "Barbarian", "--reason", "x")
    assert (result.exit_code, result.output) == (2, (
        "Error: Hans is an Intellectual, and a character's Archetype can never change: not a Barbarian as well. "
        "If he was recruited as the wrong Archetype, void his recruitment and recruit him again with --archetype Barbarian\n"))
    assert json.loads(cli("show", "--json").output)["head"] == head


def test_a_unit_given_casualties_twice_in_another_case_is_refused_with_nothing_written(cli):
    reiklanders_and_da_boyz(cli)
    head = json.loads(cli("show", "--json").output)["head"]
    result = cli("warbands", "battle", "--warband", "Reiklanders", "--warband", "Da Boyz",
                 "--removed", "Swordsmen=3", "--removed", "swordsmen=2")
    assert (result.exit_code, result.output) == (2, "Error: --removed Swordsmen is given twice\n")
    assert json.loads(cli("show", "--json").output)["head"] == head


def test_the_guided_post_game_takes_answers_written_with_the_units_and_characters_names(cli):
    # Da Boyz' Hans is the campaign's second Hans: his answer key is injury:hans-2, yet the players call him Hans
    reiklanders_and_da_boyz(cli, unit="Arrer Boyz")
    cli("warbands", "recruit", "Reiklanders", "Hans", "--points", "50", "--archetype", "Intellectual")
    cli("warbands", "recruit", "Da Boyz", "Hans", "--points", "50", "--archetype", "Psychopath")
    cli("warbands", "battle", "--warband", "Reiklanders", "--warband", "Da Boyz", "--removed", "Arrer Boyz=4",
        "--down", "Da Boyz/Hans")
    result = cli("post-game", "Reiklanders", "--answer", "recovered:Arrer Boyz=1", "--answer", "xp=1")
    assert result.exit_code == 0, result.output
    assert "  Arrer Boyz: 1 of 4 casualties recovered; 7 of 10 models after Recovery" in result.output.splitlines()
    result = cli("post-game", "Da Boyz", "--answer", "injury:Hans=amnesia", "--answer", "xp=1")
    assert result.exit_code == 0, result.output
    assert {"  Hans suffers Amnesia", "Post-game sequence complete."} <= set(result.output.splitlines())


def test_an_injury_answered_ahead_that_is_no_outcome_is_refused_before_any_step(cli):
    """Where no Character Injury Table rolls it, what a character's injury roll did is one of recovered, dead, amnesia
    or misses-game: 'wounded' is none, so the walk refuses it before its first step; the Recovery was recorded, then
    the Injuries refused it."""
    reiklanders_and_da_boyz(cli)
    cli("warbands", "recruit", "Da Boyz", "Hans", "--points", "50", "--archetype", "Psychopath")
    cli("warbands", "battle", "--warband", "Reiklanders", "--warband", "Da Boyz", "--removed", "Boyz=1", "--down", "Hans")
    head = json.loads(cli("show", "--json").output)["head"]
    result = cli("post-game", "Da Boyz", "--answer", "recovered:Boyz=1", "--answer", "injury:Hans=wounded", "--answer", "xp=1")
    assert (result.exit_code, result.output) == (2, (
        "Error: --answer injury:Hans: 'wounded' is not one of: recovered, dead, amnesia, misses-game\n"))
    assert json.loads(cli("show", "--json").output)["head"] == head


def test_two_answers_for_one_character_in_the_guided_post_game_are_refused_with_nothing_written(cli):
    # Da Boyz' Hans is the campaign's second Hans (id hans-2): both keys name him
    reiklanders_and_da_boyz(cli)
    cli("warbands", "recruit", "Reiklanders", "Hans", "--points", "50", "--archetype", "Intellectual")
    cli("warbands", "recruit", "Da Boyz", "Hans", "--points", "50", "--archetype", "Psychopath")
    cli("warbands", "battle", "--warband", "Reiklanders", "--warband", "Da Boyz", "--down", "Da Boyz/Hans")
    assert cli("warbands", "recovery", "Da Boyz").exit_code == 0
    head = json.loads(cli("show", "--json").output)["head"]
    result = cli("post-game", "Da Boyz", "--answer", "injury:HANS_2=dead", "--answer", "injury:Hans=amnesia", "--answer", "xp=1")
    assert (result.exit_code, result.output) == (2, (
        "== Injuries: each character removed as a casualty\n"
        "Error: --answer injury:HANS_2=dead, injury:Hans=amnesia: 2 answers for the injury question of Hans (Da Boyz): "
        "give one\n"))
    assert json.loads(cli("show", "--json").output)["head"] == head


def test_a_warband_type_is_named_with_and_for_its_ampersand(cli):
    started(cli)
    result = cli("warbands", "enlist", "Da Boyz", "--player", "Bob", "--type", "orcs and goblins")
    assert (result.exit_code, result.output.splitlines()[0]) == (0, "  Da Boyz enlisted by Bob with 250 in the XP pool")
    assert json.loads(cli("roster", "Da Boyz", "--json").output)["faction"] == "Orcs & Goblins"


def injury_row(row_id: str, low: int, high: int) -> dict:
    return {"id": row_id, "low": low, "high": high, "name": row_id.capitalize(), "effect": "other"}


def advancement(**rows: list[dict]) -> dict:
    """The archetypes table: each Archetype a D6 of six abilities, but those given."""
    from commands.warbands.tables import ARCHETYPES

    return {"archetypes": {"archetypes": [
        {"name": a, "starting_ability": f"{a} start", "die": "D6",
         "advancement": rows.get(a, [{"id": f"{a}-{n}", "low": n, "high": n, "ability": f"{a} {n}"} for n in range(1, 7)])}
        for a in ARCHETYPES]}}


BACKWARDS_INJURY = ("Error: Warbands table 'character-injury': injury row grave runs backwards, from 6 down to 3: "
                    "a row runs from its low result up to its high one (low 3, high 6)\n")
BACKWARDS_NOBLE = ("Error: Warbands table 'archetypes': Noble row n6 runs backwards, from 6 down to 3: "
                   "a row runs from its low result up to its high one (low 3, high 6)\n")

UNPLAYABLE_TABLES = [
    # after a draw the Recovery step could never be done: "the recovery table has no row for a removed model after a draw"
    ({"recovery": {"die": "D6", "rows": [{"id": "win", "result": "win", "target": 3}, {"id": "loss", "result": "loss", "target": 4}]}},
     "Error: Warbands table 'recovery': no row for a removed model after a draw (result draw or any, casualty removed or any)\n"),
    ({"recovery": {"rows": [{"id": "easy", "target": 3}, {"id": "hard", "target": 4}]}},  # the first silently won
     "Error: Warbands table 'recovery': rows easy, hard give the same pair, result any and casualty any: give each pair once\n"),
    ({"recovery": {"rows": [{"id": "all", "target": 0}]}},
     "Error: Warbands table 'recovery': row all: target 0 is not a result of D6 (1 to 6)\n"),
    ({"recovery": {"rows": [{"id": "none", "target": 7}]}},
     "Error: Warbands table 'recovery': row none: target 7 is not a result of D6 (1 to 6)\n"),
    ({"character-injury": {"rows": [{"id": "hurt", "low": 1, "high": 6, "name": "Hurt", "effect": "misses-game"}]}},
     "Error: Warbands table 'character-injury': row hurt: a misses-game row gives the games missed (missed_games 1 or more)\n"),
    ({"character-injury": {"rows": [{"id": "fine", "low": 1, "high": 6, "name": "Fine", "effect": "recovered", "missed_games": 3}]}},
     "Error: Warbands table 'character-injury': row fine: a recovered row misses no game (missed_games 3)\n"),
    ({"character-injury": {"rows": [{"id": "hurt", "low": 1, "high": 6, "name": "Hurt", "effect": "other", "missed_games": -1}]}},
     "Error: Warbands table 'character-injury': row hurt: missed_games cannot be negative (-1)\n"),
    ({"character-injury": {"die": "2D6", "rows": [{"id": "all", "low": 0, "high": 12, "name": "Hurt", "effect": "other"}]}},
     "Error: Warbands table 'character-injury': row all: 0 to 12 reaches past what 2D6 rolls (2 to 12)\n"),
    ({"xp-awards": {"rows": [{"id": "win", "result": "win", "xp": -500}]}},  # as "XP earned cannot be negative" told
     "Error: Warbands table 'xp-awards': row win: xp cannot be negative (-500)\n"),
    # a die no row is rolled on is still the table's die: D0 or nonsense is refused as it is with rows
    ({"character-injury": {"die": "D0", "rows": []}},
     "Error: Warbands table 'character-injury': 'D0': a die has between 2 and 1000 sides\n"),
    ({"character-injury": {"die": "banana"}},
     "Error: Warbands table 'character-injury': 'banana' is not a dice expression (try D6, 2D6, D66, D3, 7D6 keep 6 highest)\n"),
    # a row written high to low holds no result: named, where it left 3 without a row ("injury result 3 on D6 has no row")
    ({"character-injury": {"rows": [injury_row("light", 1, 2), injury_row("grave", 6, 3)]}}, BACKWARDS_INJURY),
    ({"character-injury": {"rows": [injury_row("light", 1, 6), injury_row("grave", 6, 3)]}}, BACKWARDS_INJURY),  # and where it did not
    ({"character-injury": {"rows": [injury_row("light", 1, 6), injury_row("grave", 9, 7)]}},  # not "9 to 7 reaches past … (1 to 6)"
     "Error: Warbands table 'character-injury': injury row grave runs backwards, from 9 down to 7: "
     "a row runs from its low result up to its high one (low 7, high 9)\n"),
    (advancement(Noble=[{"id": "n1", "low": 1, "high": 5, "ability": "Stern"}, {"id": "n6", "low": 6, "high": 3, "ability": "Grim"}]),
     BACKWARDS_NOBLE),  # not "Noble result 6 on D6 has no row"
    (advancement(Noble=[{"id": "n1", "low": 1, "high": 6, "ability": "Stern"}, {"id": "n6", "low": 6, "high": 3, "ability": "Grim"}]),
     BACKWARDS_NOBLE),
]


def test_campaign_new_refuses_tables_a_campaign_could_not_be_played_with(cli, tmp_path):
    # Given a group's tables the rules cannot play to the end of a post-game, when a campaign starts with them,
    # then it is refused naming the table, the row and what is wrong, and nothing is written
    for tables, message in UNPLAYABLE_TABLES:
        result = cli("new", "Old World", "--ruleset", "warbands", "--tables", tables_file(tmp_path, tables))
        assert (result.exit_code, result.output) == (2, message), tables
    assert not os.path.exists(cli.store.removeprefix("sqlite:///"))


def test_a_recovery_table_with_a_row_for_every_result_and_casualty_starts_and_rolls(cli, tmp_path):
    # Given rows for a win and for any other result ("any" fills what "win" leaves), when a draw's casualties recover,
    # then the "any" row's target is rolled against
    tables = {"recovery": {"rows": [{"id": "won", "result": "win", "target": 3}, {"id": "else", "target": 5}]}}
    assert cli("new", "Old World", "--ruleset", "warbands", "--tables", tables_file(tmp_path, tables)).exit_code == 0
    cli("warbands", "enlist", "Reiklanders", "--player", "Ann", "--type", "Empire")
    cli("warbands", "recruit", "Reiklanders", "Swordsmen", "--points", "6", "--models", "10")
    cli("warbands", "battle", "--warband", "Reiklanders", "--removed", "Swordsmen=2")
    result = cli("warbands", "recovery", "Reiklanders", "--dice", "5,4")
    assert (result.exit_code, result.output.splitlines()[:3]) == (0, [
        "  R0 Recovery of Swordsmen, removed model 1 of 2 (5+): D6 rolled [5] = 5 (table)",
        "  R1 Recovery of Swordsmen, removed model 2 of 2 (5+): D6 rolled [4] = 4 (table)",
        "  Swordsmen: 1 of 2 casualties recovered; 9 of 10 models after Recovery"])


def test_a_campaign_recorded_with_such_tables_still_imports_verifies_and_replays(cli, tmp_path, monkeypatch):
    # Given a campaign started before these tables were refused (its Recovery table has no row for a draw)
    from commands.warbands import model

    with monkeypatch.context() as before:
        before.setattr(model, "check_playable", lambda tables: None)
        started(cli, "--tables", tables_file(tmp_path, UNPLAYABLE_TABLES[0][0]))
        cli("warbands", "enlist", "Reiklanders", "--player", "Ann", "--type", "Empire")
        cli("warbands", "recruit", "Reiklanders", "Swordsmen", "--points", "6", "--models", "10")
        cli("warbands", "battle", "--warband", "Reiklanders", "--winner", "Reiklanders", "--removed", "Swordsmen=2")
        assert cli("warbands", "recovery", "Reiklanders", "--dice", "3,2").exit_code == 0
        assert cli("export", "-o", str(tmp_path / "trail.jsonl")).exit_code == 0
    # When it is imported elsewhere and checked, then it is the same campaign, deciding as it did
    copy = type(cli)(f"sqlite:///{tmp_path / 'copy.db'}")
    result = copy("import", str(tmp_path / "trail.jsonl"))
    assert result.exit_code == 0, result.output
    assert json.loads(copy("show", "--json").output)["head"] == json.loads(cli("show", "--json").output)["head"]
    assert copy("verify").exit_code == 0
    checked = copy("replay", "--check")
    assert (checked.exit_code, checked.output.splitlines()[-1]) == (
        0, "Re-decided 4 transactions from their commands and dice: all match.")
    assert copy("warbands", "injuries", "Reiklanders").exit_code == 0  # and it plays on


def test_a_campaign_recorded_with_a_die_rolling_nothing_or_a_backwards_row_plays_on(cli, tmp_path, monkeypatch):
    # Given a campaign started before these were refused: its injury die D0 (no rows: the players tell the
    # ledger) and a Noble's Advancement row 6 to 3 beside a row that covers the die
    from commands.warbands import model

    tables = {"character-injury": {"die": "D0"},
              **advancement(Noble=[{"id": "n1", "low": 1, "high": 6, "ability": "Stern"}, {"id": "n6", "low": 6, "high": 3, "ability": "Grim"}])}
    with monkeypatch.context() as before:
        before.setattr(model, "check_playable", lambda tables: None)
        started(cli, "--tables", tables_file(tmp_path, tables))
    # When it plays on, then its tables are read as recorded and every transaction re-decides as it did
    cli("warbands", "enlist", "Reiklanders", "--player", "Ann", "--type", "Empire")
    cli("warbands", "recruit", "Reiklanders", "Hans", "--points", "50", "--archetype", "Noble")
    cli("warbands", "battle", "--warband", "Reiklanders", "--down", "Hans")
    cli("warbands", "recovery", "Reiklanders")
    result = cli("warbands", "injuries", "Reiklanders", "--outcome", "Hans=recovered")
    assert (result.exit_code, result.output.splitlines()[0]) == (0, "  Hans recovers: Full Recovery")
    checked = cli("replay", "--check")
    assert (checked.exit_code, checked.output.splitlines()[-1]) == (
        0, "Re-decided 5 transactions from their commands and dice: all match.")


def test_ratings_json_names_the_battle_of_each_value_for_a_warband_enlisted_mid_campaign(cli):
    # Given A and B fight battle 1, then C enlists and fights A in battle 2
    started(cli)
    for band, kind, unit, points in (("A", "Empire", "Swords", "6"), ("B", "Skaven", "Clanrats", "5")):
        assert cli("warbands", "enlist", band, "--player", band, "--type", kind).exit_code == 0
        assert cli("warbands", "recruit", band, unit, "--points", points, "--models", "10").exit_code == 0
    assert cli("warbands", "battle", "--warband", "A", "--warband", "B").exit_code == 0
    for band in ("A", "B"):
        assert cli("post-game", band, "--answer", "xp=10").exit_code == 0
    assert cli("warbands", "enlist", "C", "--player", "C", "--type", "Dwarfs").exit_code == 0
    assert cli("warbands", "recruit", "C", "Warriors", "--points", "8", "--models", "10").exit_code == 0
    assert cli("warbands", "battle", "--warband", "A", "--warband", "C").exit_code == 0
    # When the ratings are read as JSON, then each value after the start is keyed by the battle it follows
    result = cli("warbands", "ratings", "--json")
    assert (result.exit_code, json.loads(result.output)) == (0, [
        {"warband": "a", "start": 60, "by_battle": {"1": 60, "2": 60}},
        {"warband": "b", "start": 50, "by_battle": {"1": 50}},
        {"warband": "c", "start": 80, "by_battle": {"2": 80}}])


def test_a_unit_at_plus_3_that_survives_is_said_to_be_at_the_highest_level_and_one_model_is_a_model(cli):
    """Seed: "+3 Veteran Status (the highest level of Veteran Status)". Given Swordsmen at +3 and Da Boyz' Troll,
    a unit of one model; when both come through a battle unhurt, then the log says the Swordsmen are at the
    highest level (it read "not eligible for a Veteran level (10 of 10 survived battle 4)", as if surviving
    whole had kept them from the next level) and the Troll has 1 model (it read "1 models")."""
    reiklanders_and_da_boyz(cli)
    cli("warbands", "recruit", "Da Boyz", "Troll", "--points", "40", "--models", "1")
    battle = ("warbands", "battle", "--warband", "Reiklanders", "--warband", "Da Boyz")
    for _ in range(3):
        cli(*battle)
        cli("post-game", "Reiklanders", "--answer", "xp=10")
        cli("post-game", "Da Boyz", "--answer", "xp=0")
        assert cli("warbands", "upgrade", "Reiklanders", "Swordsmen").exit_code == 0
    cli(*battle)
    cli("warbands", "recovery", "Reiklanders")
    cli("warbands", "injuries", "Reiklanders")
    result = cli("warbands", "survival", "Reiklanders")
    assert (result.exit_code, result.output.splitlines()[:2]) == (0, [
        "  Swordsmen is already +3, the highest Veteran Status (10 of 10 survived battle 4)",
        "  Reiklanders: post-game step Survival done for battle 4"])
    result = cli("warbands", "recovery", "Da Boyz")
    assert (result.exit_code, result.output.splitlines()[:2]) == (0, [
        "  Boyz: no casualties; 10 models", "  Troll: no casualties; 1 model"])
    cli("warbands", "experience", "Reiklanders", "--xp", "10")
    result = cli("warbands", "upgrade", "Reiklanders", "Swordsmen")
    assert (result.exit_code, result.output) == (1, "Error: Swordsmen is already +3, the highest Veteran Status\n")
    cli("post-game", "Da Boyz", "--answer", "xp=0")
    cli("warbands", "battle", "--warband", "Reiklanders", "--warband", "Da Boyz", "--removed", "Troll=1")
    result = cli("warbands", "recovery", "Da Boyz", "--recovered", "Troll=0")
    assert (result.exit_code, result.output.splitlines()[1]) == (0, "  Troll: 0 of 1 casualty recovered; 0 of 1 model after Recovery")


def test_the_status_of_a_character_at_six_abilities_counts_toward_no_next_one(cli):
    """Seed: "A character may never have more than six Abilities (i.e., five Archetype Abilities plus the
    Starting Ability)". Given Hans with five Archetype Abilities who has since survived a battle, then his status
    says he has the most a character may have (it read "1 battle survived toward the next Archetype Ability")."""
    reiklanders_and_da_boyz(cli)
    cli("warbands", "recruit", "Reiklanders", "Hans", "--points", "50", "--archetype", "Intellectual")
    battle = ("warbands", "battle", "--warband", "Reiklanders", "--warband", "Da Boyz")
    for battles in range(1, 17):
        cli(*battle)
        cli("post-game", "Reiklanders", "--answer", "xp=10")
        cli("post-game", "Da Boyz", "--answer", "xp=0")
        if battles % 3 == 0:
            assert cli("warbands", "advance", "Reiklanders", "Hans", "--dice", str(battles // 3)).exit_code == 0
    result = cli("warbands", "status", "Reiklanders")
    assert (result.exit_code, result.output.splitlines()[-1]) == (0, (
        "  character Hans: 50 points, Intellectual (Advantage of Ground); Intellectual Advancement 1, "
        "Intellectual Advancement 2, Intellectual Advancement 3, Intellectual Advancement 4, Intellectual Advancement 5; "
        "six Abilities, the most a character may have"))


def test_veteran_recruits_of_no_model_are_bad_input_with_nothing_written(cli):
    """CLI: "2 bad input" — a count of recruits below one is a mistake in the command, as `recruit --models 0`
    is, not a refusal by the rules (it was "Error: buy at least one recruit", exit 1). Given Swordsmen at +1."""
    reiklanders_and_da_boyz(cli)
    cli("warbands", "battle", "--warband", "Reiklanders", "--warband", "Da Boyz")
    cli("post-game", "Reiklanders", "--answer", "xp=10")
    cli("post-game", "Da Boyz", "--answer", "xp=0")
    assert cli("warbands", "upgrade", "Reiklanders", "Swordsmen").exit_code == 0
    head = cli("show").output
    for models in ("0", "-2"):
        result = cli("warbands", "veteran-recruits", "Reiklanders", "Swordsmen", "--models", models)
        assert (result.exit_code, result.output) == (2, f"Error: Veteran recruits are at least 1 model, not {models}\n")
    assert cli("show").output == head


def test_a_character_named_in_a_battle_he_must_miss_is_refused_saying_so(cli):
    """Given Hans injured so that he misses a game, when the next battle names him removed as a casualty, then it is
    refused saying why he did not fight (it said 'Hans did not fight in this battle', though nobody left him out)."""
    swordsmen_and_hans_hurt(cli)
    ran = cli("post-game", "Reiklanders", "--answer", "recovered:Swordsmen=4", "--answer", "injury:Hans=misses-game",
              "--answer", "xp=0")
    assert ran.exit_code == 0, ran.output
    assert cli("post-game", "Da Boyz", "--answer", "xp=0").exit_code == 0
    head = json.loads(cli("show", "--json").output)["head"]
    result = cli("warbands", "battle", "--warband", "Reiklanders", "--warband", "Da Boyz", "--down", "Hans")
    assert (result.exit_code, result.output) == (1, "Error: Hans must miss this battle (injured: Injury), so did not fight in it\n")
    assert json.loads(cli("show", "--json").output)["head"] == head


def test_xp_past_the_ledgers_limit_is_refused_naming_the_option(cli):
    """Refused when sealed, the error named the recorded command's field: '999999999999999999999
    (command.recorded.args.xp) is too large'. Now --xp, as typed; nothing written."""
    reiklanders_and_da_boyz(cli)
    for step in (["battle", "--warband", "Reiklanders", "--warband", "Da Boyz"], ["recovery", "Reiklanders"],
                 ["injuries", "Reiklanders"], ["survival", "Reiklanders"]):
        assert cli("warbands", *step).exit_code == 0, step
    head = json.loads(cli("show", "--json").output)["head"]
    result = cli("warbands", "experience", "Reiklanders", "--xp", "999999999999999999999")
    assert (result.exit_code, result.output) == (
        2, "Error: --xp: 999999999999999999999 is too large: the ledger records whole numbers up to 9007199254740991\n")
    assert json.loads(cli("show", "--json").output)["head"] == head


def test_a_treasury_change_past_the_ledgers_limit_names_the_xp_pool(cli):
    """Warbands' treasury holds the warband's XP (R25): a total past what a record holds says so."""
    started(cli)
    cli("warbands", "enlist", "Reiklanders", "--player", "Ann", "--type", "empire")
    head = cli("verify", "--json").output
    refused = cli("treasury", "Reiklanders", "9007199254740991", "--reason", "x")
    assert (refused.exit_code, refused.output) == (
        2, "Error: Reiklanders' XP pool would be 9007199254741241 (250 +9007199254740991), too large: the ledger records "
           "whole numbers up to 9007199254740991\n")
    assert cli("verify", "--json").output == head


def test_a_treasury_change_the_xp_pool_cannot_pay_names_the_xp_pool(cli):
    """What a warband cannot pay is said of its XP pool, as the log and the roster call its treasury (R25)."""
    started(cli)
    cli("warbands", "enlist", "Reiklanders", "--player", "Ann", "--type", "empire")
    head = cli("verify", "--json").output
    refused = cli("treasury", "Reiklanders", "-10000", "--reason", "x")
    assert (refused.exit_code, refused.output) == (1, "Error: Reiklanders has 250 in the XP pool; cannot pay 10000\n")
    assert cli("verify", "--json").output == head
