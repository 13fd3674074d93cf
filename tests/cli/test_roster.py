"""campaign warband / fighter / battle / roster / xp / item / treasury / correct / log / history."""

import json
import os

import pytest

from ledger.errors import BadInput

from ledger.campaigns import Ledger
from ledger.store import Store
from ledger.testing import CampaignRunner

from ledger.cli import history as history_cli


def test_roster_text(two_warbands):
    two_warbands("item", "gain", "Reikland Rats", "sword", "--fighter", "Gunnar")
    two_warbands("item", "gain", "Reikland Rats", "rope")
    two_warbands("fighter", "add", "Reikland Rats", "Marksmen", "--role", "henchman", "--group-size", "3", "--cost", "25")
    assert two_warbands("roster", "Reikland Rats").output == (
        "Reikland Rats (Ann)  treasury 365  games 0  wins 0\n"  # 500 - 60 - 3 × 25
        "  stash: rope\n"
        "  Gunnar — leader  XP 0  WS4\n"
        "      equipment: sword\n"
        "  Marksmen x3 — henchman  XP 0\n"
    )


def test_roster_json_has_every_fighter_field(two_warbands):
    roster = json.loads(two_warbands("roster", "Reikland Rats", "--json").output)
    gunnar = roster["roster"][0]
    assert (roster["treasury"], gunnar["name"], gunnar["stats"], gunnar["status"]) == (440, "Gunnar", {"WS": 4}, "active")
    assert set(gunnar) >= {"xp", "keywords", "skills", "injuries", "equipment", "group_size", "games"}


def test_battle_then_xp_and_history(two_warbands):
    c = two_warbands
    assert c("history").output == "No battle recorded yet.\n"
    assert c("history", "--json").output == "[]\n"
    result = c("battle", "record", "--warband", "Reikland Rats", "--warband", "Clan Skrittle", "--winner",
               "Clan Skrittle", "--scenario", "Skirmish", "--ooa", "Gunnar", "--took-out", "Snikch=Gunnar",
               "--glorious", "Snikch=Slew the leader")
    assert result.output.splitlines()[0] == "  battle 1 (Skirmish): Reikland Rats vs Clan Skrittle, won by Clan Skrittle"
    c("xp", "award", "Snikch", "2", "--reason", "won and took Gunnar out")
    assert c("history", "--fighter", "Snikch").output == c("history", "Snikch").output  # older scripts still work
    history = c("history", "Snikch").output.splitlines()  # like `roster WARBAND` and `xp award FIGHTER`
    assert history == [  # under a battle, what he did there
        "   13 T5    arbiter    Snikch, leader, joins Clan Skrittle",
        "   16 T6    arbiter    battle 1 (Skirmish): Reikland Rats vs Clan Skrittle, won by Clan Skrittle",
        "                         Snikch took out Gunnar.",
        "                         Snikch: glorious deed Slew the leader.",
        "   18 T7    arbiter    Snikch gains 2 XP (won and took Gunnar out)",
    ]
    assert c("history", "Gunnar").output.splitlines() == [  # and what was done to him, said once
        "   10 T4    arbiter    Gunnar, leader, joins Reikland Rats",
        "   16 T6    arbiter    battle 1 (Skirmish): Reikland Rats vs Clan Skrittle, won by Clan Skrittle",
        "                         Snikch took out Gunnar.",
    ]
    assert c("history").output.splitlines() == [  # every battle, with all its deeds, as the report says them
        "   16 T6    arbiter    battle 1 (Skirmish): Reikland Rats vs Clan Skrittle, won by Clan Skrittle",
        "                         Snikch took out Gunnar.",
        "                         Snikch: glorious deed Slew the leader.",
    ]
    battle = json.loads(c("history", "--json").output)
    assert [row["text"] for row in battle] == [
        "battle 1 (Skirmish): Reikland Rats vs Clan Skrittle, won by Clan Skrittle"
    ]
    shown = json.loads(c("show", "--json").output)
    assert [(w["name"], w["games"], w["wins"]) for w in shown["warbands"]] == [
        ("Reikland Rats", 1, 0),
        ("Clan Skrittle", 1, 1),
    ]


def test_battle_refusals_write_nothing(two_warbands):
    before = json.loads(two_warbands("show", "--json").output)["events"]
    absent = two_warbands("battle", "record", "--warband", "Reikland Rats", "--warband", "Clan Skrittle",
                          "--absent", "Gunnar", "--ooa", "Gunnar")
    assert (absent.exit_code, absent.output) == (2, "Error: Gunnar did not fight in this battle\n")
    unknown = two_warbands("battle", "record", "--warband", "Reikland Rats", "--warband", "Orcs")
    assert (unknown.exit_code, unknown.output) == (
        2, "Error: no warband 'Orcs' in this campaign (warbands: Reikland Rats, Clan Skrittle)\n"
    )
    bad_pair = two_warbands("battle", "record", "--warband", "Reikland Rats", "--took-out", "Gunnar")
    assert (bad_pair.exit_code, bad_pair.output) == (2, "Error: --took-out takes KEY=VALUE, not 'Gunnar'\n")
    assert json.loads(two_warbands("show", "--json").output)["events"] == before


def test_money_items_and_corrections(two_warbands):
    c = two_warbands
    assert c("treasury", "Clan Skrittle", "-10", "--reason", "upkeep").output.splitlines()[0] == (
        "  Clan Skrittle treasury -10 (upkeep)"
    )
    assert c("treasury", "Clan Skrittle", "-500", "--reason", "x").output == (
        "Error: Clan Skrittle has 200 in the treasury; cannot pay 500\n"
    )
    assert c("item", "lose", "Reikland Rats", "sword", "--fighter", "Gunnar").output == "Error: Gunnar has no sword\n"
    corrected = c("correct", "Reikland Rats", "Gunnar", "--reason", "misread card", "--stat", "WS=-1", "--status", "retired")
    assert corrected.output.splitlines()[:2] == [
        "  Gunnar WS -1 (correction: misread card)",
        "  Gunnar retires (correction: misread card)",
    ]
    assert c("xp", "award", "Gunnar", "1", "--reason", "x").output == "Error: Gunnar is retired\n"
    bad_stat = c("correct", "Reikland Rats", "Gunnar", "--reason", "x", "--stat", "WS=up")
    assert (bad_stat.exit_code, bad_stat.output) == (2, "Error: --stat WS: 'up' is not a whole number\n")


def test_log_json_marks_voided_transactions(two_warbands):
    two_warbands("roll", "D6", "--for", "x", "--dice", "1")
    two_warbands("--as", "Bob", "void", "R0", "--reason", "misread")
    rows = json.loads(two_warbands("log", "--json").output)
    roll = next(r for r in rows if r["type"] == "dice.rolled")
    assert roll["voided"] == {
        "voided_by": 7,
        "voided_by_actor": "Bob",
        "voided_at": "2026-11-29T12:00:00.000000Z",
        "reason": "misread",
    }


def test_a_key_given_twice_is_refused(two_warbands):
    refused = two_warbands("correct", "Reikland Rats", "Gunnar", "--reason", "x", "--stat", "WS=1", "--stat", "WS=2")
    assert (refused.exit_code, refused.output) == (2, "Error: --stat WS is given twice\n")


def test_the_roster_shows_games_a_fighter_will_miss(capsys):
    from ledger import events as ev
    from ledger.cli.views import print_roster
    from ledger.state import CampaignState, evolve

    state = CampaignState(ruleset="freeform")
    for event in (
        ev.WarbandEnlisted(warband="rats", name="Rats", player="Ann"),
        ev.FighterRecruited(warband="rats", fighter="hans", name="Hans", role="hero"),
        ev.InjurySuffered(warband="rats", fighter="hans", injury="Hand Injury", missed_games=1),
    ):
        evolve(state, event)
    print_roster(state, "rats")
    assert capsys.readouterr().out.splitlines()[1:] == [
        "  Hans — hero  XP 0  misses 1 game",
        "      injuries: Hand Injury",
    ]



def test_battle_record_leaves_out_a_fighter_who_must_miss_the_game():
    from ledger import events as ev
    from ledger.cli.battles import deeds_for
    from ledger.state import CampaignState, evolve

    state = CampaignState(ruleset="freeform")
    for event in (
        ev.WarbandEnlisted(warband="rats", name="Rats", player="Ann"),
        ev.FighterRecruited(warband="rats", fighter="hans", name="Hans", role="hero"),
        ev.FighterRecruited(warband="rats", fighter="otto", name="Otto", role="hero"),
        ev.InjurySuffered(warband="rats", fighter="hans", injury="Leg Wound", missed_games=1),
    ):
        evolve(state, event)
    assert deeds_for(state, ["Rats"], (), (), (), ()) == [ev.Deed(fighter="otto")]
    # Named in it, he is refused saying why: "Hans did not fight in this battle" left the player guessing
    with pytest.raises(BadInput, match=r"^Hans must miss this battle \(injured: Leg Wound\), so did not fight in it$"):
        deeds_for(state, ["Rats"], (), ("Hans",), (), ())


def test_log_filters_by_warband_battle_and_tail_and_json_gives_the_rows_shown(two_warbands):
    c = two_warbands
    c("battle", "record", "--warband", "Reikland Rats", "--warband", "Clan Skrittle", "--winner", "Clan Skrittle")
    c("xp", "award", "Snikch", "2", "--reason", "won")
    c("battle", "record", "--warband", "Reikland Rats", "--warband", "Clan Skrittle", "--winner", "Reikland Rats")
    c("treasury", "Reikland Rats", "5", "--reason", "loot")
    head = json.loads(c("show", "--json").output)["head"]
    after_1 = json.loads(c("replay", "--battle", "1", "--json").output)["head"]
    assert c("log", "--battle", "1").output.splitlines() == [
        "   16 T6    arbiter    battle 1: Reikland Rats vs Clan Skrittle, won by Clan Skrittle",
        "   18 T7    arbiter    Snikch gains 2 XP (won)",
        f"      Head after battle 1: {after_1}",  # as replay --battle 1 gives it, for players to compare
        f"Head {head}",
    ]
    assert c("log", "--warband", "Reikland Rats", "--tail", "3").output.splitlines() == [
        "   16 T6    arbiter    battle 1: Reikland Rats vs Clan Skrittle, won by Clan Skrittle",
        "   20 T8    arbiter    battle 2: Reikland Rats vs Clan Skrittle, won by Reikland Rats",
        "   22 T9    arbiter    Reikland Rats treasury +5 (loot)",
        f"Head {head}",
    ]
    shown = json.loads(c("log", "--json", "--warband", "Clan Skrittle", "--tail", "3").output)
    assert [(row["position"], row["text"]) for row in shown] == [
        (16, "battle 1: Reikland Rats vs Clan Skrittle, won by Clan Skrittle"),
        (18, "Snikch gains 2 XP (won)"),
        (20, "battle 2: Reikland Rats vs Clan Skrittle, won by Reikland Rats"),
    ]
    # Text and JSON show the same rows (the text also notes the head after each battle but the
    # last, and the head now); --all adds each transaction's recorded command.
    text = [line for line in c("log").output.splitlines() if not line.lstrip().startswith("Head ")]
    assert [f"{row['position']:>5} T{row['tx']:<4}" for row in json.loads(c("log", "--json").output)] == [
        line[:11] for line in text]
    assert c("log").output.splitlines().count(f"      Head after battle 1: {json.loads(c('replay', '--battle', '1', '--json').output)['head']}") == 1
    everything = json.loads(c("log", "--json", "--all").output)
    assert [row["position"] for row in everything] == list(range(1, 23))
    assert everything[20] == {**everything[20], "type": "command.recorded", "text": "treasury.change"}
    for args, message in [
        (["--battle", "3"], "Error: no battle 3 (battles: 1, 2)"),
        (["--tail", "0"], "Error: --tail takes a number of rows from 1"),
        (["--warband", "Orcs"], "Error: no warband 'Orcs' in this campaign (warbands: Reikland Rats, Clan Skrittle)"),
    ]:
        refused = c("log", *args)
        assert (refused.exit_code, refused.output) == (2, message + "\n")


def test_at_a_terminal_the_log_shows_a_screenful_and_the_full_log_goes_through_the_pager(two_warbands, monkeypatch):
    whole = two_warbands("log", "--full").output  # not at a terminal: printed
    paged = []
    monkeypatch.setattr(history_cli, "output_is_terminal", lambda: True)
    monkeypatch.setattr(history_cli.shutil, "get_terminal_size", lambda: os.terminal_size((80, 5)))
    monkeypatch.setattr(history_cli.click, "echo_via_pager", paged.append)
    assert two_warbands("log").output.splitlines() == [
        "(the last 4 rows: --tail N shows the last N, --full all of them)", *whole.splitlines()[-5:]]
    assert two_warbands("log", "--full").output == ""
    assert paged == [whole] and whole.count("\n") > 5
    assert two_warbands("log", "--tail", "2").output.count("\n") == 3  # short enough: printed


def test_a_log_longer_than_a_page_shows_its_last_page_reading_only_what_it_shows(two_warbands, monkeypatch):
    """Issue #14: `campaign log` shows a page of the log, not all of it, unless asked (--full), and
    reads only the events it needs from the end: twice as many each time a read holds too few rows."""
    whole = two_warbands("log", "--full").output.splitlines()
    assert len(whole) == 10 and whole == two_warbands("log").output.splitlines()  # it fits in a page
    monkeypatch.setattr(history_cli, "PAGE", 3)
    read = []
    history = Ledger.history
    monkeypatch.setattr(Ledger, "history", lambda self, cid, **kw: read.append(kw.get("after")) or history(self, cid, **kw))
    assert two_warbands("log").output.splitlines() == [
        "(the last 3 rows: --tail N shows the last N, --full all of them)", *whole[-4:]]
    assert read == [11, 8]  # of 14 events: the last 3 hold 2 rows (one is bookkeeping), the last 6 enough
    assert json.loads(two_warbands("log", "--json").stdout) == json.loads(two_warbands("log", "--json", "--full").output)[-3:]


def test_a_fighter_is_renamed_by_an_event_and_the_history_keeps_both_names(two_warbands):
    """Issue 9, item 8: `fighter rename` exists, names stay unique within a warband."""
    c = two_warbands
    c("fighter", "add", "Reikland Rats", "Swords", "--role", "henchman", "--cost", "25")
    renamed = c("fighter", "rename", "Swords", "Swords of Altdorf")
    assert (renamed.exit_code, renamed.output.splitlines()[0]) == (0, "  Swords is now called Swords of Altdorf")
    assert "  Swords of Altdorf — henchman  XP 0" in c("roster", "Reikland Rats").output.splitlines()
    assert [row["text"] for row in json.loads(c("history", "Swords of Altdorf", "--json").output)] == [
        "Swords, henchman, joins Reikland Rats",
        "Swords is now called Swords of Altdorf",
    ]
    for args, message in [
        (["Swords of Altdorf", "Gunnar"], "Error: Reikland Rats already has a fighter called Gunnar"),
        (["Swords of Altdorf", "gunnar"], "Error: Reikland Rats already has a fighter called gunnar"),
        (["Swords of Altdorf", " "], "Error: a fighter needs a name"),
        (["Swords", "Axes"], "Error: no fighter 'Swords'"),
    ]:
        refused = c("fighter", "rename", *args)
        assert (refused.exit_code, refused.output) == (2, message + "\n")
    assert c("fighter", "rename", "swords", "Snikch").exit_code == 0  # the id; another warband's name is free
    assert c("replay", "--check").exit_code == 0


def test_an_event_reads_alike_in_the_log_the_history_the_report_the_exports_and_its_command(two_warbands, tmp_path):
    """A ledger records each sentence as it was at the time: Gunnar's XP, awarded before he was renamed
    Gunther, is Gunnar's in the chronicle (rm_log, the report), and `log`, `history` and the CSV export
    show those very rows. They described every event with the campaign as it stands now: "Gunther
    gains 3 XP (survived)", where the report and the command itself said Gunnar."""
    c = two_warbands
    awarded = c("xp", "award", "Gunnar", "3", "--reason", "survived")
    assert (awarded.exit_code, awarded.output.splitlines()[0]) == (0, "  Gunnar gains 3 XP (survived)")
    assert c("fighter", "rename", "Gunnar", "Gunther").exit_code == 0
    head = json.loads(c("show", "--json").output)["head"]
    assert c("log", "--tail", "2").output.splitlines() == [
        "   16 T6    arbiter    Gunnar gains 3 XP (survived)",
        "   18 T7    arbiter    Gunnar is now called Gunther",
        f"Head {head}",
    ]
    assert [row["text"] for row in json.loads(c("log", "--json", "--tail", "2").output)] == [
        "Gunnar gains 3 XP (survived)", "Gunnar is now called Gunther"]
    assert c("history", "Gunther").output.splitlines() == [
        "   10 T4    arbiter    Gunnar, leader, joins Reikland Rats",
        "   16 T6    arbiter    Gunnar gains 3 XP (survived)",
        "   18 T7    arbiter    Gunnar is now called Gunther",
    ]
    chronicle = c("export", "--format", "md").output.splitlines()
    assert chronicle[chronicle.index("  - Gunnar gains 3 XP (survived).") - 1].startswith("- T6 `campaign xp award` by arbiter")
    assert [line.split(",")[5] for line in c("export", "--format", "csv").output.splitlines()[1:]
            if ",T6," in line] == ["xp.award", "Gunnar gains 3 XP (survived)"]
    assert c("report", "-o", str(tmp_path / "r.html")).exit_code == 0
    assert "Gunnar gains 3 XP (survived)" in (tmp_path / "r.html").read_text(encoding="utf-8")
    assert c("verify").exit_code == 0


def test_an_enemy_taken_out_is_out_of_action_unless_the_record_says_otherwise(two_warbands):
    """Issue 9, item 4: "out of action: nobody" after `--took-out Gunnar=Snikch` left the injuries
    step nothing to roll."""
    c = two_warbands
    c("fighter", "add", "Clan Skrittle", "Skreet", "--role", "hero")
    c("battle", "record", "--warband", "Reikland Rats", "--warband", "Clan Skrittle", "--took-out", "Gunnar=Snikch",
      "--took-out", "Gunnar=Skreet", "--not-out", "Skreet")
    ledger = Ledger(Store(c.store))
    deeds = {d.fighter: d for d in ledger.load(ledger.find(None)).latest_battles[0].deeds}
    ledger.store.close()
    assert (deeds["snikch"].out_of_action, deeds["skreet"].out_of_action) == (True, False)
    assert not deeds["gunnar"].out_of_action and deeds["gunnar"].took_out == ["snikch", "skreet"]


def test_a_name_two_fighters_share_is_refused_naming_both(two_warbands):
    """Issue 9, item 8: `xp award NAME` silently picked one of the fighters called so."""
    c = two_warbands
    assert c("fighter", "add", "Clan Skrittle", "Gunnar", "--role", "hero").exit_code == 0
    before = json.loads(c("show", "--json").output)["events"]
    refused = c("xp", "award", "Gunnar", "1", "--reason", "x")
    assert (refused.exit_code, refused.output) == (
        2, "Error: 2 fighters are called Gunnar: gunnar (Reikland Rats), gunnar-2 (Clan Skrittle); "
           "give the id of the one you mean\n"
    )
    assert json.loads(c("show", "--json").output)["events"] == before
    # the id, or the warband, tells them apart
    assert c("xp", "award", "gunnar-2", "1", "--reason", "x").output.splitlines()[0] == "  Gunnar gains 1 XP (x)"
    assert c("xp", "award", "Gunnar", "1", "--reason", "x", "--warband", "Reikland Rats").exit_code == 0


def test_an_imported_campaign_shows_each_profile_in_its_rules_order(campaign, tmp_path):
    # Given a Coreheim captain (M A W T WS BS I Ld), exported: the trail's JSON sorts each profile's keys
    for args in (["new", "X", "--ruleset", "coreheim"], ["warband", "add", "A", "--player", "Ann", "--faction", "mercenaries", "--treasury", "500"],
                 ["coreheim", "hire", "A", "Cap", "--type", "captain"], ["export", "-o", str(tmp_path / "t.jsonl")]):
        assert campaign(*args).exit_code == 0, args
    # When it is imported into another store
    copy = CampaignRunner("sqlite:///" + str(tmp_path / "copy.db"))
    assert copy("import", str(tmp_path / "t.jsonl")).exit_code == 0
    # Then its roster, fighter and JSON read the profile as the original does, not A BS I Ld M T W WS
    assert "  Cap — leader  XP 20  M7 A1 W1 T0 WS8 BS8 I5 Ld4\n" in campaign("roster", "A").output
    for command in (["roster", "A"], ["fighter", "show", "Cap"], ["roster", "A", "--json"]):
        assert copy(*command).output == campaign(*command).output


def test_a_name_another_warband_shares_is_the_fighter_of_the_warband_that_fought(two_warbands):
    assert two_warbands("fighter", "add", "Clan Skrittle", "Gunnar", "--role", "hero").exit_code == 0
    # When only the Rats fight, their Gunnar is the one out of action (the Skaven's did not fight)
    result = two_warbands("battle", "record", "--warband", "Reikland Rats", "--ooa", "Gunnar")
    assert result.exit_code == 0, result.output
    battle = [row for row in map(json.loads, two_warbands("export").output.splitlines())
              if row.get("type") == "battle.recorded"][-1]
    assert [(d["fighter"], d.get("out_of_action")) for d in battle["payload"]["deeds"]] == [("gunnar", True)]
    # And where both fought, the name is still the two of them: refused naming their ids
    both = two_warbands("battle", "record", "--warband", "Reikland Rats", "--warband", "Clan Skrittle", "--ooa", "Gunnar")
    assert (both.exit_code, both.output) == (
        2, "Error: 2 fighters are called Gunnar: gunnar (Reikland Rats), gunnar-2 (Clan Skrittle); give the id of the "
           "one you mean\n")


def test_an_enemy_who_did_not_fight_cannot_have_been_taken_out(two_warbands):
    """He gained the taker XP for it ("+1 experience for each time they took an enemy out of action")."""
    before = json.loads(two_warbands("show", "--json").output)["events"]
    result = two_warbands("battle", "record", "--warband", "Reikland Rats", "--warband", "Clan Skrittle",
                          "--absent", "Snikch", "--took-out", "Gunnar=Snikch")
    assert (result.exit_code, result.output) == (
        2, "Error: Snikch did not fight in this battle: Gunnar cannot have taken him out\n")
    assert json.loads(two_warbands("show", "--json").output)["events"] == before
    # One who fought, named by his id, is out of action
    assert two_warbands("battle", "record", "--warband", "Reikland Rats", "--warband", "Clan Skrittle",
                        "--took-out", "Gunnar=snikch").exit_code == 0
    battle = [row for row in map(json.loads, two_warbands("export").output.splitlines())
              if row.get("type") == "battle.recorded"][-1]
    assert [(d["fighter"], d.get("out_of_action", False)) for d in battle["payload"]["deeds"]] == [
        ("gunnar", False), ("snikch", True)]


def test_an_enemy_is_read_among_the_warbands_that_fought_and_one_of_another_is_refused(two_warbands):
    # Given a third warband whose Snikch (snikch-2) did not fight
    assert two_warbands("warband", "add", "Third", "--player", "Cy").exit_code == 0
    assert two_warbands("fighter", "add", "Third", "Snikch", "--role", "leader").exit_code == 0
    # When Gunnar takes out Snikch in a battle of the Rats and the Skrittle, it is the Skrittle's Snikch
    result = two_warbands("battle", "record", "--warband", "Reikland Rats", "--warband", "Clan Skrittle",
                          "--took-out", "Gunnar=Snikch")
    assert result.exit_code == 0, result.output
    battle = [row for row in map(json.loads, two_warbands("export").output.splitlines())
              if row.get("type") == "battle.recorded"][-1]
    assert [(d["fighter"], d.get("took_out"), d.get("out_of_action", False)) for d in battle["payload"]["deeds"]] == [
        ("gunnar", ["snikch"], False), ("snikch", [], True)]
    # And the Third's Snikch, who did not fight, cannot have been taken out, even by his id
    before = json.loads(two_warbands("show", "--json").output)["events"]
    refused = two_warbands("battle", "record", "--warband", "Reikland Rats", "--took-out", "Gunnar=snikch-2")
    assert (refused.exit_code, refused.output) == (2, (
        "Error: Snikch of Third did not fight in this battle: Gunnar cannot have taken him out (an enemy from outside "
        "the campaign needs a name of its own)\n"))
    assert json.loads(two_warbands("show", "--json").output)["events"] == before


def test_a_warband_added_without_a_treasury_starts_with_what_its_rules_give(campaign):
    """Coreheim "Start: 500gc", Speedheim "Warband creation uses 500g", Trench Crusade "starting ducats —
    usually 700" (shared/rules); a freeform campaign names none. It started at 0, so a new player's first
    hire was refused "Rats has 0 gc"."""
    for ruleset, treasury, faction in (("coreheim", 500, "skaven"), ("speedheim", 500, ""),
                                       ("trench-crusade", 700, "Trench Pilgrims"), ("freeform", 0, "")):
        assert campaign("new", ruleset.title(), "--ruleset", ruleset).exit_code == 0
        added = campaign("warband", "add", f"{ruleset} Rats", "--player", "Ann", "--faction", faction)
        assert added.exit_code == 0, added.output
        assert json.loads(campaign("roster", f"{ruleset} Rats", "--json").output)["treasury"] == treasury
    assert campaign("warband", "add", "Poor Rats", "--player", "Bob", "--treasury", "0").exit_code == 0
    assert json.loads(campaign("roster", "Poor Rats", "--json").output)["treasury"] == 0
