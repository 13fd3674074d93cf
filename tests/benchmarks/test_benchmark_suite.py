"""The benchmark suite runs end to end at a tiny size (its timings are not checked here: speed
targets live in benchmarks/, never in timed unit tests)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks import run
from benchmarks.run import main

ROOT = Path(__file__).resolve().parents[2]


def test_the_suite_runs_at_a_tiny_size_and_prints_every_measurement():
    done = subprocess.run(
        [sys.executable, "benchmarks/run.py", "--size", "tiny", "--repeat", "1", "--rulesets", "freeform", "--postgres", ""],
        capture_output=True, text=True, cwd=ROOT, check=False,
    )
    assert done.returncode == 0, done.stderr
    rows = [line for line in done.stdout.splitlines() if line.startswith("| ") and "| freeform |" in line]
    measured = [row.split(" | ")[0].removeprefix("| ") for row in rows]
    assert [m.split(" at ")[0].split(" (")[0] for m in measured] == [
        "CLI roster", "CLI roll", "CLI xp award", "CLI log", "CLI log --json",
        "command + read model vs bare commit", "command", "building: events/s",
        "load", "export", "verify", "verify FILE", "import",
        "peak memory of export", "peak memory of verify FILE", "peak memory of import",
    ]
    assert all(row.rstrip(" |").endswith(("pass", "MISS")) for row in rows)
    assert "- machine: " in done.stdout and "eventsourcing " in done.stdout


@pytest.mark.parametrize("given", ["0", "-2", "x", "1.5"])
def test_a_repeat_that_gives_no_median_is_refused_before_anything_is_built(given, capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["--repeat", given, "--postgres", ""])
    assert stopped.value.code == 2
    assert "argument --repeat: " in capsys.readouterr().err


def test_only_postgres_measures_the_clients_and_builds_no_league(monkeypatch, capsys):
    measured = []
    monkeypatch.setattr(run, "build_league", lambda *args: pytest.fail("a league was built"))
    monkeypatch.setattr(run, "measure_postgres", lambda server, ruleset, commands: measured.append(server) or [])
    assert main(["--only", "postgres", "--postgres", "postgresql://example/db", "--rulesets", "coreheim"]) == 0
    assert measured == ["postgresql://example/db"]
    assert "0 of 0 targets met." in capsys.readouterr().out


def test_the_clients_are_measured_only_when_chosen(monkeypatch, capsys):
    monkeypatch.setattr(run, "build_league", lambda *args: {"coreheim": {"league": "L", "small": "S", "sample": "B"}})
    monkeypatch.setattr(run, "measure_load", lambda *args: [])
    monkeypatch.setattr(run, "measure_postgres", lambda *args: pytest.fail("the clients were measured"))
    assert main(["--only", "load", "--rulesets", "coreheim"]) == 0  # the default server given, not chosen
    assert "0 of 0 targets met." in capsys.readouterr().out


def test_only_postgres_without_a_server_is_refused(capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["--only", "postgres", "--postgres", ""])
    assert stopped.value.code == 2
    assert "nothing to measure: --only postgres needs a server (--postgres URL)" in capsys.readouterr().err
