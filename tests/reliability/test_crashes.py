"""Crashes (issue #13, "what must hold" 2): a process issuing commands is killed with SIGKILL at
random moments spread over its whole run — its start-up, its commands, and, every few kills, right
between the commit of its events and an update of the read models left for after it — at least 50
times on SQLite and 20 on PostgreSQL. After each kill every acknowledged command is present, no
transaction is half stored, the chain verifies, and read models that fell behind catch up when the
campaign is next read (nobody runs `rebuild`). At the end every transaction is re-decided (replay
--check) and the read models equal a rebuild. A process killed inside its commit, after its events
and read-model rows were written, leaves neither.

CAMPAIGN_TEST_KILLS_SQLITE / CAMPAIGN_TEST_KILLS_POSTGRES change the counts (never below the
issue's), CAMPAIGN_TEST_CRASH_SEED replays one run's moments."""

from __future__ import annotations

import os
import random
import signal
import time

import pytest

from ledger.testing import CampaignRunner

KILLS = {"sqlite": max(50, int(os.environ.get("CAMPAIGN_TEST_KILLS_SQLITE", "50"))),
         "postgresql": max(20, int(os.environ.get("CAMPAIGN_TEST_KILLS_POSTGRES", "20")))}
# How long a worker may run before its kill, in seconds, at first (a PostgreSQL command is slower).
# On a busy machine a command takes longer: the span grows while kills land before any command is
# acknowledged, and shrinks back while several are, so that kills stay spread over whole commands.
SPAN = {"sqlite": 0.35, "postgresql": 1.2}
SEED = int(os.environ.get("CAMPAIGN_TEST_CRASH_SEED", str(random.SystemRandom().randrange(10**6))))
BETWEEN_COMMIT_AND_READ_MODELS = 5  # every 5th kill lands there


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def backend(request, tmp_path) -> tuple[str, str]:
    if request.param == "sqlite":
        return "sqlite", f"sqlite:///{tmp_path / 'league.db'}"
    return "postgresql", request.getfixturevalue("fresh_postgres")


def test_sigkill_at_random_moments_loses_nothing_acknowledged(backend, worker, worker_report, check, read_models_behind):
    kind, url = backend
    print(f"CAMPAIGN_TEST_CRASH_SEED={SEED}")  # shown when the test fails, to replay its moments
    moments = random.Random(SEED)
    cli = CampaignRunner(url)
    for args in (["new", "League"], ["warband", "add", "Rats", "--player", "Ann"],
                 ["fighter", "add", "Rats", "Gunnar", "--role", "leader"]):
        assert cli(*args).exit_code == 0
    report = worker_report("")
    kinds = {"start-up": 0, "commands": 0, "between commit and read models": 0}
    span = SPAN[kind]
    waiting = worker(url, "League", "w0", 0, "--wait")  # the next victim starts while the last dies
    for k in range(KILLS[kind]):
        victim = waiting
        waiting = worker(url, "League", f"w{k + 1}", 0, "--wait")
        if k % BETWEEN_COMMIT_AND_READ_MODELS == BETWEEN_COMMIT_AND_READ_MODELS - 1:
            victim.kill()  # this one is replaced by a worker that stops right after its commit
            victim.communicate()
            victim = worker(url, "League", f"p{k}", 0, "--pause-after-commit")
            assert victim.stdout.readline() == f"committed p{k}-0\n"
            moment = "between commit and read models"
        elif moments.random() < 0.1:
            time.sleep(moments.uniform(0, 0.3))  # still importing, or opening the store
            moment = "start-up"
        else:
            assert victim.stdout.readline() == "ready\n"
            victim.stdin.write("go\n")
            victim.stdin.flush()
            time.sleep(moments.uniform(0, span))
            moment = "commands"
        os.kill(victim.pid, signal.SIGKILL)
        out, _ = victim.communicate(timeout=60)
        assert victim.returncode == -signal.SIGKILL
        before = len(report.acknowledged)
        report.read(out)
        if moment == "commands":
            done = len(report.acknowledged) - before
            span = min(span * 1.5, 10) if done == 0 else max(span * 0.8, SPAN[kind]) if done >= 3 else span
        kinds[moment] += 1
        if moment == "between commit and read models":
            tracked, head = read_models_behind(url)
            assert tracked < head  # the kill did leave the read models behind the events
        check(url, "League", report, full=False)
    waiting.kill()
    waiting.communicate()
    records = check(url, "League", report)
    print(kinds, len(report.acknowledged), "acknowledged,", len(records), "events")
    assert sum(kinds.values()) >= KILLS[kind] and kinds["between commit and read models"] >= KILLS[kind] // 5
    assert len(report.acknowledged) > 0


def test_a_process_killed_inside_its_commit_leaves_neither_its_events_nor_its_read_model_rows(
        backend, worker, worker_report, check, read_models_behind):
    """The events and the read-model rows of a command are one database transaction: killed after
    both were written but before it committed, the store holds neither, and stays consistent."""
    kind, url = backend
    cli = CampaignRunner(url)
    for args in (["new", "League"], ["warband", "add", "Rats", "--player", "Ann"],
                 ["fighter", "add", "Rats", "Gunnar", "--role", "leader"]):
        assert cli(*args).exit_code == 0
    before = read_models_behind(url)
    victim = worker(url, "League", "p0", 0, "--pause-in-commit")
    assert victim.stdout.readline() == "in commit p0-0\n"

    os.kill(victim.pid, signal.SIGKILL)
    out, _ = victim.communicate(timeout=60)

    assert victim.returncode == -signal.SIGKILL
    assert read_models_behind(url) == before == (8, 8)  # (tracked, head): neither moved
    records = check(url, "League", worker_report(out))
    assert records[-1].position == 8
