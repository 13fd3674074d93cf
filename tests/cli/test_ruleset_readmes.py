"""Each ruleset README's "Playing a campaign" example runs, in order, as written: every `campaign …`
line of its block, continuation lines joined and comments dropped. Options in brackets are optional
and left out; where a line offers alternatives (`A | B`) the example plays the one named below. A
line ending in `…` stands for more of the same and is not run, and `campaign post-game WARBAND` is
the guided alternative to the steps that follow it, so it runs on a backup of the store, and must stop
as its comment says. A line the README says is refused must be refused (exit 1)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from ledger.testing import CampaignRunner

COMMANDS = Path(__file__).resolve().parents[2] / "commands"

# The alternative each example plays where a line offers two ("A | B"), as the text that replaces them.
PLAYED = {
    "--paid 50 | --unpaid": "--paid 50",
    "--even | --assign": "--assign",
}

# Lines the README says are refused, by the start of the command, and how each is refused.
REFUSED = {
    "campaign trench-crusade reinforcements Pilgrims": "Error: Pilgrims has done the Exploration step for battle 1",
    "campaign trench-crusade retire Pilgrims Gaius": "Error: Gaius has 0 Battle Scars",
    "campaign warbands advance Reiklanders Hans": "Error: Hans has survived 1 of the 3 battles since joining",
    "campaign retinue buy Hawks Wren Sa": "Error: S1: Wren has 3 XP; Sa +1 costs 6: 3 XP short",
    "campaign retinue buy Hawks Wren caster": "Error: S1: Wren has 3 XP; Caster costs 9: 6 XP short",
}

# Where the guided post-game, run without a terminal on what its line gives, stops: its exit code and
# the start of its last line (a first step that needs dice is an error; a later one stops the walk).
GUIDED_STOPS = {
    "coreheim": (2, "Error: exploration of Reikland Rats needs 3D6"),
    "trench_crusade": (2, "Error: Survival Roll for Bert needs D6"),
    "speedheim": (0, "Next step: Scars and the Blight — Ivo: Henchman Scars needs D20"),  # "it stops at the Scars, which need dice"
    "warbands": (2, "Error: Swordsmen: how many of its 4 casualties recovered?"),
    "retinue": (0, "Next step: Scenario pass — Which fighter of battle 1 does the scenario award XP?"),  # "the scenario's award"
}


def example_lines(ruleset: str) -> list[str]:
    """The block's `campaign …` lines, bracketed options left out."""
    text = (COMMANDS / ruleset / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Playing a campaign"):]
    block = re.search(r"```\n(.*?)```", section, re.DOTALL).group(1)
    lines: list[str] = []
    for line in block.replace("\\\n", " ").splitlines():
        command = line.partition("#")[0].strip()
        if not command:
            continue
        command = re.sub(r"\[[^\[\]]*(\[[^\]]*\][^\[\]]*)*\]", "", command)
        for offered, played in PLAYED.items():
            command = command.replace(offered, played)
        if not command.endswith("…"):
            lines.append(" ".join(command.split()))
    return lines


@pytest.mark.parametrize("ruleset", ["coreheim", "trench_crusade", "speedheim", "warbands", "retinue"])
def test_the_playing_example_runs_as_written(ruleset, tmp_path):
    campaign = CampaignRunner(f"sqlite:///{tmp_path / 'c.db'}")
    refused = []
    for command in example_lines(ruleset):
        words = shlex.split(command)
        assert words[0] == "campaign", command
        if words[1] == "post-game":
            guided = tmp_path / "guided.db"
            assert campaign("backup", str(guided)).exit_code == 0
            result = CampaignRunner(f"sqlite:///{guided}")(*words[1:])
            exit_code, last_line = GUIDED_STOPS[ruleset]
            assert result.exit_code == exit_code, f"{command}:\n{result.output}"
            assert result.output.splitlines()[-1].startswith(last_line), f"{command}:\n{result.output}"
            continue
        result = campaign(*words[1:])
        refusal = next((error for start, error in REFUSED.items() if command.startswith(start)), None)
        if refusal is None:
            assert result.exit_code == 0, f"{command}:\n{result.output}"
        else:
            assert (result.exit_code, result.output.splitlines()[0].startswith(refusal)) == (1, True), result.output
            refused.append(command)
    assert len(refused) == sum(command.startswith(f"campaign {ruleset.replace('_', '-')} ") for command in REFUSED)
