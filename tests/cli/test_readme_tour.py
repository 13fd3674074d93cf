"""The README's "Try it" and then its quick tour, in the same folder, work as written (issue 9,
item 13): every `campaign …` line of the tour's block is run as it stands, comments dropped."""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from unittest import mock

from click.testing import CliRunner

from ledger import campaigns, dice
from ledger.cli import main
from ledger.testing import CAMPAIGN_ENVIRONMENT, FIXED_SEED, fixed_clock

README = Path(__file__).resolve().parents[2] / "README.md"


def tour_lines() -> list[list[str]]:
    text = README.read_text(encoding="utf-8")
    tour = text[text.index("## A quick tour of the CLI"):]
    block = re.search(r"```\n(.*?)```", tour, re.DOTALL).group(1)
    lines = []
    for line in block.splitlines():
        words = shlex.split(line, comments=True)
        if words:
            assert words[0] == "campaign", line
            lines.append(words[1:])
    return lines


def test_the_quick_tour_after_try_it_works_as_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the tour's store is the default ./campaign.db, its export ./trail.jsonl
    runner = CliRunner()

    def campaign(*args: str):
        with mock.patch.object(campaigns, "utc_now", fixed_clock), mock.patch.object(dice, "new_seed", lambda: FIXED_SEED):
            return runner.invoke(main, list(args), env=dict.fromkeys(CAMPAIGN_ENVIRONMENT), catch_exceptions=False)

    assert campaign("demo").exit_code == 0  # "Try it"
    lines = tour_lines()
    assert len(lines) > 20
    for args in lines:
        result = campaign(*args)
        assert result.exit_code == 0, f"campaign {shlex.join(args)}:\n{result.output}"
    assert (tmp_path / "copy.db").exists() and (tmp_path / "trail.jsonl").exists()
