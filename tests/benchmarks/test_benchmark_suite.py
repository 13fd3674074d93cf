"""The benchmark suite runs end to end at a tiny size (its timings are not checked here: speed
targets live in benchmarks/, never in timed unit tests)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import click
import pytest

from benchmarks import league, run
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


def test_a_ruleset_without_a_sample_campaign_is_refused_before_anything_is_built(monkeypatch, capsys):
    monkeypatch.setattr(run, "build_league", lambda *args: pytest.fail("a league was built"))
    with pytest.raises(SystemExit) as stopped:
        main(["--rulesets", "coreheim", "mordheim", "--postgres", ""])
    assert stopped.value.code == 2
    assert capsys.readouterr().err.endswith(
        " error: argument --rulesets: invalid choice: 'mordheim' "
        "(choose from 'coreheim', 'freeform', 'retinue', 'speedheim', 'trench-crusade', 'warbands')\n")


def test_a_ruleset_named_twice_is_measured_once(monkeypatch):
    built = []
    monkeypatch.setattr(run, "build_league", lambda folder, size, chosen: built.append(chosen) or {})
    assert main(["--only", "load", "--rulesets", "coreheim", "coreheim", "--postgres", ""]) == 0
    assert built == [["coreheim"]]


def test_a_keep_folder_that_holds_anything_is_refused_before_anything_is_built(monkeypatch, capsys, tmp_path):
    monkeypatch.setattr(run, "build_league", lambda *args: pytest.fail("a league was built"))
    (tmp_path / "league.db").write_bytes(b"")
    not_utf8 = tmp_path / os.fsdecode(b"le\xffague")
    for keep, problem in [
        (tmp_path, f"{tmp_path} is not empty: give a new or empty folder to build the league in"),
        (tmp_path / "league.db", f"{tmp_path / 'league.db'} is a file, not a folder"),
        (tmp_path / "league.db" / "under", f"cannot make or read {tmp_path / 'league.db' / 'under'}: Not a directory"),
        (not_utf8, f"{bytes(not_utf8)!r} is not UTF-8 text, which a store's address must be: give a folder named in it"),
    ]:
        with pytest.raises(SystemExit) as stopped:
            main(["--keep", str(keep), "--postgres", ""])
        assert stopped.value.code == 2
        assert capsys.readouterr().err.endswith(f" error: argument --keep: {problem}\n")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["league.db"]


def test_a_new_keep_folder_is_made_and_built_in(monkeypatch, tmp_path):
    built = []
    monkeypatch.setattr(run, "build_league", lambda folder, size, chosen: built.append(folder) or {})
    assert main(["--only", "load", "--rulesets", "coreheim", "--keep", str(tmp_path / "new" / "league"), "--postgres", ""]) == 0
    assert built == [tmp_path / "new" / "league"] and built[0].is_dir()


def test_a_league_that_cannot_be_built_is_reported_with_a_failing_exit(monkeypatch, capsys):
    def fails(*args):
        raise OSError("No space left on device")

    monkeypatch.setattr(run, "build_league", fails)
    assert main(["--only", "load", "--rulesets", "coreheim", "--postgres", ""]) == 1
    out = capsys.readouterr().out
    assert "0 of 0 targets met." in out
    assert out.endswith("Failed to measure: building the league: OSError: No space left on device\n")


def test_a_ctrl_c_in_a_cli_step_of_the_build_stops_the_suite(monkeypatch, tmp_path):
    # click turns a Ctrl-C inside a command it runs without standalone mode into Abort, an Exception
    # that the suite's report of failed measurements would otherwise take in and carry on after.
    from ledger.cli import demo

    def interrupted(session, fixture):
        raise click.Abort()

    monkeypatch.setattr(demo, "build", interrupted)
    with pytest.raises(KeyboardInterrupt):
        league.sample_campaign(f"sqlite:///{tmp_path}/league.db", "coreheim", "Bench")
