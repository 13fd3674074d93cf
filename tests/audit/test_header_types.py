"""The header's format version and the trailer's count are JSON integers: Python reads true as 1, so
a header saying `"version": true` passed for version 1."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

VERIFIER = Path(__file__).resolve().parent.parent / "independent_verifier.py"


@pytest.mark.parametrize("version, shown", [(True, "true"), ("1", '"1"'), (None, "null"), (2, "2")])
@pytest.mark.parametrize("command", ["verify", "import"])
def test_a_version_that_is_not_the_integer_1_is_refused(played, trail, command, version, shown):
    lines = trail.lines()
    lines[0]["version"] = version
    trail.write(lines)
    result = played(command, str(trail.path), store="imported.db")
    assert (result.exit_code, result.output) == (
        3, f"Error: line 1: format version {shown}; this campaign-ledger reads version 1\n")
    assert not (played.folder / "imported.db").exists()
    assert independent(trail.path)[:2] == (1, "FAIL line 1")


def independent(path) -> tuple[int, str]:
    """The independent verifier's exit code and where its verdict says the trail fails."""
    checked = subprocess.run([sys.executable, "-I", "-S", str(VERIFIER), str(path)], capture_output=True, text=True)
    return checked.returncode, checked.stdout.split(":")[0]


def test_a_count_that_is_not_an_integer_is_shown_as_the_file_writes_it(played, trail):
    """It was shown as `counts 25 events, the trail holds 25`: the string "25" is not the integer."""
    lines = trail.lines()
    lines[-1]["count"] = "25"
    trail.write(lines)
    result = played("verify", str(trail.path))
    assert (result.exit_code, result.output) == (3, 'Error: line 27: counts "25" events, the trail holds 25\n')
    assert independent(trail.path) == (1, "FAIL line 27")
