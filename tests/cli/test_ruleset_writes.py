"""A ruleset's own writes answer `--json` as the shared writes do (issue 9, item 15): the
transactions recorded, their rolls and events, and the new head. The ruleset groups give it to
every command that records, in one place (`RulesetCommands`), so each ruleset is tried here on
one of its writes; `tests/trench_crusade/test_cli.py` tries one that rolls."""

from __future__ import annotations

import json

import click
import pytest

from tests.cli.test_help import all_commands
from ledger.cli import main

STAT_LINE = ["--stat", "M=4", "--stat", "WS=3", "--stat", "BS=3", "--stat", "T=3", "--stat", "W=1", "--stat", "I=3",
             "--stat", "A=1", "--stat", "Ld=7"]


def event(position: int, text: str, kind: str) -> dict[str, object]:
    return {"position": position, "text": text, "tx": 3, "type": kind}


WRITES = [
    pytest.param(
        [["new", "L", "--ruleset", "coreheim"], ["warband", "add", "Rats", "--player", "Ann", "--treasury", "500", "--faction", "skaven"]],
        ["coreheim", "hire", "Rats", "Kurt", "--type", "henchman", "--race", "human", "--cost", "25", *STAT_LINE],
        [event(7, "coreheim.hire", "command.recorded"), event(8, "Kurt, henchman, joins Rats", "fighter.recruited"),
         event(9, "Kurt is of type Henchman (Human)", "coreheim.warrior-profile"),
         event(10, "Rats treasury -25 (hired Kurt)", "treasury.changed")],
        id="coreheim hire",
    ),
    pytest.param(
        [["new", "L", "--ruleset", "trench-crusade"], ["warband", "add", "Pilgrims", "--player", "Ann", "--faction", "Trench Pilgrims"]],
        ["trench-crusade", "recruit", "Pilgrims", "Anna", "--model", "Trench Pilgrim", "--free"],
        [event(7, "trench-crusade.recruit", "command.recorded"), event(8, "Anna, troop, joins Pilgrims", "fighter.recruited"),
         event(9, "Anna's Faction List entry: Trench Pilgrim", "trench-crusade.model")],
        id="trench-crusade recruit",
    ),
    pytest.param(
        [["new", "L", "--ruleset", "speedheim"], ["warband", "add", "Crows", "--player", "Ann", "--treasury", "100"]],
        ["speedheim", "recruit", "Crows", "Vera", "--role", "hero", "--stats", "Mov=6,Mel=13,Agi=10,Mrl=10,Atk=1,Wnd=1"],
        [event(7, "speedheim.recruit", "command.recorded"), event(8, "Vera, hero, joins Crows", "fighter.recruited")],
        id="speedheim recruit",
    ),
    pytest.param(
        [["new", "L", "--ruleset", "warbands"], ["warbands", "enlist", "Hawks", "--player", "Bob", "--type", "Empire"]],
        ["warbands", "enlist", "Reavers", "--player", "Ann", "--type", "Skaven"],
        [event(7, "warbands.enlist", "command.recorded"),
         event(8, "Reavers enlisted by Ann with 250 in the XP pool", "warband.enlisted")],
        id="warbands enlist",
    ),
    pytest.param(
        [["new", "L", "--ruleset", "retinue"], ["warband", "add", "Hawks", "--player", "Ann"]],
        ["retinue", "recruit", "Hawks", "Wren", "--ancestry", "Human", "--archetype", "Mystic", "--domain", "Storm"],
        [event(7, "retinue.recruit", "command.recorded"), event(8, "Wren, fighter, joins Hawks", "fighter.recruited")],
        id="retinue recruit",
    ),
]


@pytest.mark.parametrize(("setup", "write", "events"), WRITES)
def test_a_rulesets_write_answers_with_json(campaign, setup, write, events):
    for args in setup:
        assert campaign(*args).exit_code == 0
    answered = campaign(*write, "--json")
    assert answered.exit_code == 0
    head = json.loads(campaign("show", "--json").output)["head"]
    assert json.loads(answered.output) == {"transactions": [3], "rolls": [], "events": events, "head": head}
    assert answered.output.count("\n") == 1  # one line of JSON, and nothing else


RULESET_GROUPS = ("coreheim", "trench-crusade", "speedheim", "warbands", "retinue")


def test_every_rulesets_commands_take_json():
    """A read of a ruleset declares its own --json; every command that records gets the writes'.
    Left out: `retinue data`, which checks files and always prints JSON."""
    missing = []
    for group in RULESET_GROUPS:
        ruleset = main.get_command(click.Context(main), group)
        ruleset.list_commands(click.Context(ruleset))  # the ruleset hands its commands over when first used
        missing += [
            " ".join((group, *path)) for path, command in all_commands(ruleset)
            if (group, *path) != ("retinue", "data")
            and "--json" not in {opt for p in command.params for opt in getattr(p, "opts", [])}
        ]
    assert missing == []
