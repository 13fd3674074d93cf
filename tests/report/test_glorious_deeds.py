"""The chronicle's battle line tells each glorious deed under the name the campaign's own tables
give it (a ruleset's `row_names`), whatever id the battle recorded, and the deeds a warband did with
no doer (a ruleset's `warband_deeds`), worded for the warband; the members of a group taken out are
counted."""

from __future__ import annotations

from pathlib import Path

import msgspec

from commands.trench_crusade.tables import TABLES
from ledger.testing import CampaignRunner
from projections.deeds import BattleWords
from projections.report import Ratings, _battle_summary

from .conftest import FIXTURES
from .dom import Element
from .test_report import write_report


def deeds_line(page: Element, battle: int) -> str:
    """The battle's last paragraph: what each fighter did."""
    return page.find("div", data_battle=str(battle)).find_all("p")[-1].text


def test_a_trench_crusade_battle_names_its_glorious_deeds(demo, tmp_path):
    page = write_report(demo, FIXTURES["trench-crusade"]["name"], tmp_path / "tc.html")
    assert deeds_line(page, 1) == (
        "Gaius: glorious deed Good Hunting. Anna: glorious deed Headshot. Bert was taken out of action. "
        "Pilgrims of Saint Gaius: glorious deed Victory or Death. "
        "Baal was taken out of action. Cain: glorious deed Into the Trenches! Dag was taken out of action."
    )


def trench_league(tmp_path: Path, *battle: str, setup: tuple[str, ...] = ()) -> CampaignRunner:
    """A Trench Crusade campaign (`setup`: more options of `campaign new`) whose battle 1, Trench Warfare
    won by the Pilgrims, took `battle`'s options too."""
    runner = CampaignRunner("sqlite:///" + str(tmp_path / "c.db"))
    for args in (
        ["new", "League", "--ruleset", "trench-crusade", *setup],
        ["warband", "add", "Pilgrims", "--player", "Ann", "--faction", "Trench Pilgrims"],
        ["trench-crusade", "recruit", "Pilgrims", "Gaius", "--model", "War Prophet", "--elite", "--keyword", "LEADER", "--free"],
        ["warband", "add", "Legion", "--player", "Bob", "--faction", "heretic-legions"],
        ["trench-crusade", "recruit", "Legion", "Baal", "--model", "Heretic Priest", "--elite", "--free"],
        ["trench-crusade", "battle", "--warband", "Pilgrims", "--warband", "Legion", "--scenario", "Trench Warfare",
         "--winner", "Pilgrims", *battle],
    ):
        result = runner(*args)
        assert result.exit_code == 0, result.output
    return runner


def test_a_group_s_own_deeds_table_names_the_deeds(tmp_path):
    deeds = msgspec.to_builtins(TABLES.defaults.glorious_deeds)
    for deed in deeds["deeds"]:
        if deed["id"] == "good-hunting":
            deed["name"] = "Hunter's Mark"
    tables = tmp_path / "tables.json"
    tables.write_bytes(msgspec.json.encode({"glorious-deeds": deeds}))
    runner = trench_league(tmp_path, "--glorious", "Gaius=Hunter's Mark", setup=("--tables", str(tables)))
    page = write_report(runner, "League", tmp_path / "r.html")
    assert deeds_line(page, 1) == "Gaius: glorious deed Hunter's Mark."


def test_a_deed_the_tables_do_not_know_is_shown_as_recorded():
    words = BattleWords({"deed": {"good-hunting": "Good Hunting"}})
    assert words.deed_line("Gaius", "good-hunting") == "Gaius: glorious deed Good Hunting."
    assert words.deed_line("Gaius", "slew the troll") == "Gaius: glorious deed slew the troll."
    assert words.named("scenario", "a night raid") == "a night raid"


def test_a_warband_s_deed_with_no_doer_is_told_for_the_warband(tmp_path):
    runner = trench_league(tmp_path, "--warband-deed", "Pilgrims=Victory or Death")
    page = write_report(runner, "League", tmp_path / "r.html")
    assert deeds_line(page, 1) == "Pilgrims: glorious deed Victory or Death."
    # The log line keeps the words it was stored with (a rebuild makes the same rows): only the battle line names it.
    assert "Pilgrims in battle 1: win, 1 model fought, 0 Out of Action; Glorious Deeds: Victory or Death (the warband)." in [
        li.text for li in page.find("section", id="chronicle").find_all("li")
    ]


def test_a_trench_crusade_battle_is_headed_by_its_scenario_s_name(demo, tmp_path):
    page = write_report(demo, FIXTURES["trench-crusade"]["name"], tmp_path / "tc.html")
    heading = page.find("div", data_battle="1").find("strong").text
    assert heading == "Battle 1 (Trench Warfare):"


def test_two_members_of_a_group_taken_out_are_counted_not_repeated(demo, tmp_path):
    """The Retinue demo records `--took-out Finch=Fang` twice: two of the Fang group. Finch, whom Fang took
    out, is not said again to have been taken out of action (he was, in a sentence of its own, as Grim,
    whom no one is said to have taken out, still is)."""
    page = write_report(demo, FIXTURES["retinue"]["name"], tmp_path / "retinue.html")
    assert deeds_line(page, 1) == (
        "Kestrel took out Lupa. Finch took out Fang ×2. Fang took out Finch. Grim was taken out of action.")


def test_each_warband_s_deeds_follow_its_own_fighters_in_the_participants_order(tmp_path):
    runner = trench_league(tmp_path, "--ooa", "Baal", "--glorious", "Gaius=Good Hunting",
                           "--warband-deed", "Legion=Hold Your Ground", "--warband-deed", "Pilgrims=Victory or Death")
    page = write_report(runner, "League", tmp_path / "r.html")
    assert deeds_line(page, 1) == (
        "Gaius: glorious deed Good Hunting. Pilgrims: glorious deed Victory or Death. "
        "Baal was taken out of action. Legion: glorious deed Hold Your Ground."
    )


def test_deeds_recorded_out_of_order_are_told_warband_by_warband():
    """The battle's deeds in the order recorded (Baal's first), told in the participants' order; a fighter no
    participant holds (here one the ledger lost track of) comes last, as recorded. Baal, whom Gaius took out,
    is not said again to have been taken out of action."""
    battle = {"battle": 1, "tx": 7, "position": 9, "scenario": "", "participants": ["pilgrims", "legion"], "winner": None,
              "voided_by": None, "deeds": [{"fighter": "baal", "out_of_action": True, "took_out": []},
                                           {"fighter": "stray", "out_of_action": True, "took_out": []},
                                           {"fighter": "gaius", "out_of_action": False, "took_out": ["baal"]}]}
    words = BattleWords({}, {7: [("legion", "Hold Your Ground"), ("pilgrims", "Victory or Death")]})
    names = {"pilgrims": "Pilgrims", "legion": "Legion", "baal": "Baal", "gaius": "Gaius"}
    summary = _battle_summary(battle, names, Ratings([]), words, {"baal": "legion", "gaius": "pilgrims"})
    assert summary.deeds == [
        "Gaius took out Baal.", "Pilgrims: glorious deed Victory or Death.", "Legion: glorious deed Hold Your Ground.",
        "stray was taken out of action.",
    ]
