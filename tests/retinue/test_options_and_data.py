"""The ambiguities A1-A4 as named options with the rules file's defaults, and the data files
(ancestries, archetypes, domains, feats, the Casualty and Doom tables): the sample set, a group's
own files, and the errors a bad file gets."""

from __future__ import annotations

import json
import os

import pytest

from commands.retinue import RULESET, tables
from commands.retinue.events import OutcomeRolled
from commands.retinue.commands import BattlePass, Casualties, Recruit, ScenarioPass
from commands.retinue.options import DEFAULT_OPTIONS
from ledger import events as ev

DEFAULTS_SHOWN = ('options: dice="table", baseline_excess="one-per-purchase", reduce_at_one="refuse", '
                  'outcome_tables="by-name", tables={}')


def test_the_defaults_are_the_first_reading_of_each_ambiguity():
    assert DEFAULT_OPTIONS == {"dice": "table", "baseline_excess": "one-per-purchase", "reduce_at_one": "refuse",
                               "outcome_tables": "by-name", "tables": {}}


def test_campaign_show_and_the_audit_trail_header_carry_the_options(cli, tmp_path):
    assert cli("new", "R", "--ruleset", "retinue", "--option", "reduce_at_one=no-effect").exit_code == 0
    assert cli("show").output.splitlines()[-1] == DEFAULTS_SHOWN.replace("refuse", "no-effect")
    trail = tmp_path / "trail.jsonl"
    assert cli("export", "-o", str(trail)).exit_code == 0
    header = json.loads(trail.read_text(encoding="utf-8").splitlines()[0])
    assert header["ruleset"] == {"id": "retinue", "version": RULESET.version, "options": {
        "baseline_excess": "one-per-purchase", "dice": "table", "outcome_tables": "by-name",
        "reduce_at_one": "no-effect", "tables": {}}}


@pytest.mark.parametrize(("option", "error"), [
    ("baseline_excess=half", "Error: retinue option baseline_excess: Invalid enum value 'half' (one of: one-per-purchase, whole-excess)"),
    ("reduce_at_one=maybe", "Error: retinue option reduce_at_one: Invalid enum value 'maybe' (one of: refuse, no-effect)"),
    ("outcome_tables=dice", "Error: retinue option outcome_tables: Invalid enum value 'dice' (one of: by-name, data)"),
    ("colour=red", "Error: retinue has no option colour (options: dice, baseline_excess, reduce_at_one, outcome_tables, tables)"),
])
def test_a_bad_option_is_refused_and_nothing_is_written(cli, option, error):
    result = cli("new", "R", "--ruleset", "retinue", "--option", option)
    assert (result.exit_code, result.output.strip()) == (2, error)
    assert not os.path.exists(cli.store.removeprefix("sqlite:///"))  # a refused start leaves no file behind


def test_a_groups_own_data_file_replaces_the_sample(house_rules):
    """A4: the group supplies its ancestries; an Elf's baselines are the group's."""
    elves = {"Elf": {"baselines": {"Wi": 3, "Sa": 3, "Mt": 2, "Sk": 4, "W": 2, "M": 4, "Df": 2, "CC": 3, "RC": 4}},
             "Human": {"baselines": dict.fromkeys(tables.ATTRIBUTES, 2)},
             "Vampire": {"baselines": dict.fromkeys(tables.ATTRIBUTES, 3), "keywords": ["Vampire"]},
             "Dwarf": {"baselines": dict.fromkeys(tables.ATTRIBUTES, 3)}}
    game = house_rules({"tables": {"ancestries": elves}})
    game.recruit("Hawks", "Sylph", ancestry="Elf", archetype="Scout")
    assert game.fighter("Sylph").stats["Sk"] == 4
    assert game.refusal(Recruit(warband="Hawks", name="Tam", ancestry="Thrall")) == (
        "no ancestry 'Thrall' in this campaign's data (Dwarf, Elf, Human, Vampire)")


@pytest.mark.parametrize(("files", "error"), [
    ({"domains": {"Blood": {"casting": "Mt", "spells": []}}}, "Retinue table 'domains' is invalid: Invalid enum value 'Mt' - at `$[...].casting`"),
    ({"ancestries": {"Imp": {"baselines": {"Wi": 2}}}}, "Retinue table 'ancestries' is invalid: Imp: no value for Sa, Mt, Sk, W, M, Df, CC, RC"),
    ({"ancestries": {"Imp": {"baselines": dict.fromkeys(tables.ATTRIBUTES, 7)}}}, "Retinue table 'ancestries' is invalid: Imp: Wi 7 is outside 1-6"),
    ({"casualty": {"dice": "D6", "rows": [{"low": 1, "high": 5, "outcome": "Slain", "kind": "slain"}]}},
     "Retinue table 'casualty' is invalid: a roll of 6 gives no row; every result needs exactly one row"),
    ({"doom": {"dice": "2D6", "rows": [{"low": 2, "high": 12, "outcome": "Hardy", "kind": "hardy"}]}},
     "Retinue table 'doom' is invalid: row 'Hardy' is hardy, which is not a Doom Table result"),
    ({"doom": {"dice": "D6", "rows": []}}, "Retinue table 'doom' is invalid: the Doom Table is rolled on 2D6, not D6"),
    ({"feats": {"universal": ["Tough"], "prerequisites": {"Flight": {"keywords": ["Caster"]}}}},
     "Retinue table 'feats' is invalid: prerequisites for 'Flight', which no feat list holds"),
    ({"spells": {}}, "there is no Retinue table 'spells'; tables are: ancestries, archetypes, casualty, domains, doom, feats"),
])
def test_a_bad_data_file_gets_an_error_naming_the_file_and_the_fault(cli, tmp_path, files, error):
    group = tmp_path / "group.json"
    group.write_text(json.dumps({"tables": files}), encoding="utf-8")
    result = cli("new", "R", "--ruleset", "retinue", "--options-file", str(group))
    assert (result.exit_code, result.output.strip()) == (2, f"Error: {error}")


def test_the_sample_set_validates():
    data = tables.TABLES.defaults
    assert set(data.ancestries) == {"Human", "Dwarf", "Vampire", "Thrall"}
    assert {name: d.casting for name, d in data.domains.items()} == {"Blood": "Wi", "Storm": "Sa"}


def test_A3_by_name_an_outcome_the_ledger_does_not_know_is_recorded_and_changes_nothing(game):
    """A3: "Until a group supplies them, the outcome is entered by name with the roll.\""""
    game.battle(ooa=["Finch"])
    game.do(BattlePass(warband="Hawks"))
    game.do(ScenarioPass(warband="Hawks"))
    events = game.do(Casualties(warband="Hawks", outcomes={"Finch": "Lost an Ear"}), [4])
    assert [(type(e), getattr(e, "outcome", None)) for e in events] == [
        (ev.DiceRolled, None), (OutcomeRolled, "Lost an Ear"), (ev.PostGameStepDone, None)]
    assert (events[1].kind, events[1].row, events[1].result) == ("none", "", 4)


def test_A3_data_the_table_decides_and_naming_the_outcome_is_refused(house_rules):
    game = house_rules({"outcome_tables": "data"})
    game.battle(ooa=["Finch"])
    game.do(BattlePass(warband="Hawks"))
    game.do(ScenarioPass(warband="Hawks"))
    # Refused before the die is rolled (none is given): after it, ledger dice were seen and the decision left pending.
    assert game.refusal(Casualties(warband="Hawks", outcomes={"Finch": "Hardy"})) == (
        "A3: this campaign reads the Casualty Table from its data: do not name the outcome")
    events = game.do(Casualties(warband="Hawks"), [1])
    assert [type(e) for e in events] == [ev.DiceRolled, OutcomeRolled, ev.FighterDied, ev.PostGameStepDone]
    assert events[2].row == "casualty 1"
