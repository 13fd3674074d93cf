"""Concurrent writers (issue #13, "what must hold" 1): several processes issuing commands with
ledger dice against one campaign at once, on SQLite and PostgreSQL, and against many campaigns in
one PostgreSQL database. Afterwards every acknowledged command is there exactly once, none that
failed is, roll numbers are contiguous, the chain verifies, `replay --check` finds no difference,
and the read models equal a rebuild. A command that cannot commit after its retries fails cleanly.

WRITERS and COMMANDS (environment CAMPAIGN_TEST_WRITERS / CAMPAIGN_TEST_COMMANDS) size the run."""

from __future__ import annotations

import os

import pytest

from ledger.testing import CampaignRunner

WRITERS = int(os.environ.get("CAMPAIGN_TEST_WRITERS", "4"))
COMMANDS = int(os.environ.get("CAMPAIGN_TEST_COMMANDS", "10"))


def start_league(url: str, name: str) -> None:
    cli = CampaignRunner(url)
    for args in (["new", name], ["--campaign", name, "warband", "add", "Rats", "--player", "Ann"],
                 ["--campaign", name, "fighter", "add", "Rats", "Gunnar", "--role", "leader"]):
        result = cli(*args)
        assert result.exit_code == 0, result.output


def race(worker, url: str, campaigns: list[str], writers: int = WRITERS) -> dict[str, list[tuple[str, str]]]:
    """`writers` workers per campaign, all started at once; their outputs, by campaign."""
    started = [(name, worker(url, name, f"w{n}{c}", COMMANDS, "--wait"))
               for c, name in enumerate(campaigns) for n in range(writers)]
    for _, process in started:
        assert process.stdout.readline() == "ready\n"
    for _, process in started:
        process.stdin.write("go\n")
        process.stdin.flush()
    outputs: dict[str, list[tuple[str, str]]] = {name: [] for name in campaigns}
    for name, process in started:
        out, err = process.communicate(timeout=300)
        assert process.returncode == 0, err
        outputs[name].append((out, err))
    return outputs


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def url(request, tmp_path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'league.db'}"
    return request.getfixturevalue("fresh_postgres")


def test_writers_in_several_processes_lose_and_double_nothing(url, worker, worker_report, check):
    start_league(url, "League")
    [outputs] = race(worker, url, ["League"]).values()
    report = worker_report("".join(out for out, _ in outputs))
    assert len(report.acknowledged) + len(report.refused) == WRITERS * COMMANDS
    assert len(report.acknowledged) >= COMMANDS  # the retries let most commands through
    records = check(url, "League", report)
    assert sum(1 for r in records if r.actor == "worker" and r.event.__class__.__name__ == "CommandRecorded") == len(report.acknowledged)


@pytest.mark.postgres
def test_writers_on_many_campaigns_in_one_postgresql_database(fresh_postgres, worker, worker_report, check):
    campaigns = [f"League {n}" for n in range(3)]
    for name in campaigns:
        start_league(fresh_postgres, name)
    for name, outputs in race(worker, fresh_postgres, campaigns, writers=2).items():
        report = worker_report("".join(out for out, _ in outputs))
        assert len(report.acknowledged) + len(report.refused) == 2 * COMMANDS
        check(fresh_postgres, name, report)


def test_a_command_that_cannot_commit_after_its_retries_fails_cleanly(cli, db_path, monkeypatch, store_bytes):
    start_league(cli.store, "League")
    from ledger.errors import Conflict
    from ledger.store import Store

    def always_taken(self, campaign_id, records, **_options):
        raise Conflict("another command was recorded in this campaign at the same time")

    before = store_bytes()
    monkeypatch.setattr(Store, "append", always_taken)
    result = cli("roll", "D6", "--for", "contested", "--ledger")
    assert (result.exit_code, result.output) == (1, "Error: the campaign kept changing while recording roll; try again\n")
    monkeypatch.undo()
    assert cli("verify").exit_code == 0
    assert "contested" not in cli("log").output
