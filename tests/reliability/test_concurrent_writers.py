"""Concurrent writers (issue #13, "what must hold" 1): several processes issuing commands with
ledger dice against one campaign at once, on SQLite and PostgreSQL, and against many campaigns in
one PostgreSQL database. Afterwards every acknowledged command is there exactly once, none that
failed is, roll numbers are contiguous, the chain verifies, `replay --check` finds no difference,
and the read models equal a rebuild. A command that cannot commit after its retries fails cleanly.

WRITERS and COMMANDS (environment CAMPAIGN_TEST_WRITERS / CAMPAIGN_TEST_COMMANDS) size the run."""

from __future__ import annotations

import json
import os
import threading
from concurrent.futures import ThreadPoolExecutor

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


def test_campaigns_started_at_once_under_one_name_are_one(url):
    """Eight `campaign new Race` at once, each with a connection of its own: each found the name free,
    and several started a campaign of it (`--campaign Race` then picked one)."""
    from ledger.campaigns import Ledger
    from ledger.errors import BadInput
    from ledger.store import Store

    assert CampaignRunner(url)("new", "First").exit_code == 0  # the tables made once, before the race
    ledgers = [Ledger(Store(url)) for _ in range(8)]
    at_once = threading.Barrier(len(ledgers))

    def start(ledger: Ledger) -> str:
        at_once.wait()
        try:
            ledger.start("Race", "freeform", {}, "arbiter")
            return "started"
        except BadInput as refused:
            return str(refused).split(" in ")[0]
        finally:
            ledger.store.close()

    with ThreadPoolExecutor(len(ledgers)) as pool:
        outcomes = sorted(pool.map(start, ledgers))
    assert outcomes == ["a campaign named 'Race' already exists"] * 7 + ["started"]
    assert [row["name"] for row in json.loads(CampaignRunner(url)("list", "--json").output)] == ["First", "Race"]


def test_a_name_two_campaigns_share_is_refused_naming_their_ids(tmp_path, monkeypatch):
    """A store where two campaigns share a name, as two started at once by an older ledger left it."""
    from ledger.campaigns import Ledger
    from ledger.store import Store

    url = f"sqlite:///{tmp_path / 'league.db'}"
    ledger = Ledger(Store(url))
    first = ledger.start("Race", "freeform", {}, "Ann").state.campaign_id
    # as an older ledger did: the name found free, and nothing looked at again in the commit
    monkeypatch.setattr(ledger.store, "campaign_names", lambda: iter(()))
    monkeypatch.setattr(ledger.store, "started_alone", lambda before: (lambda cursor: None, lambda: None))
    second = ledger.start("Race", "freeform", {}, "Bob").state.campaign_id
    ledger.store.close()
    monkeypatch.undo()
    result = CampaignRunner(url)("--campaign", "race", "show")
    assert (result.exit_code, result.output) == (2, f"Error: 2 campaigns are called 'race' in {url}: name the one "
                                                    f"you mean by its id ({first}, {second})\n")
    assert CampaignRunner(url)("--campaign", second, "show").exit_code == 0


def test_trails_of_one_name_imported_at_once_are_one_campaign(tmp_path, processes):
    """Three trails of three campaigns called Dup, imported at once into one file: each found the name
    free, and all three were imported."""
    trails = []
    for n in range(3):
        store = CampaignRunner(f"sqlite:///{tmp_path / f'dup{n}.db'}")
        assert store("new", "Dup").exit_code == 0
        trails.append(tmp_path / f"dup{n}.jsonl")
        assert store("export", "-o", str(trails[-1])).exit_code == 0
    url = f"sqlite:///{tmp_path / 'league.db'}"
    assert CampaignRunner(url)("new", "First").exit_code == 0
    importing = [processes.spawn("--store", url, "import", str(trail)) for trail in trails]
    codes = sorted(processes.finished(process)[0] for process in importing)
    assert codes[0] == 0 and all(code != 0 for code in codes[1:])
    assert [row["name"] for row in json.loads(CampaignRunner(url)("list", "--json").output)] == ["First", "Dup"]
