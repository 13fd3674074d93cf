"""Eight clients opening one new PostgreSQL database at once all get in (issue #13, item 6): the
tables, types and functions are created under an advisory lock instead of raced for."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.postgres

CLIENTS = 8


@pytest.mark.parametrize("attempt", range(2))
def test_eight_clients_opening_a_new_database_at_once_all_succeed(fresh_postgres, processes, attempt):
    started = [processes.spawn("--store", fresh_postgres, "list") for _ in range(CLIENTS)]
    results = [processes.finished(p) for p in started]
    assert [r[2] for r in results if r[0] != 0] == []
    assert all(r[1] == "No campaigns yet: start one with `campaign new NAME --ruleset RULESET`.\n" for r in results)


def test_eight_campaigns_started_at_once_in_a_new_database_are_all_there(fresh_postgres, processes):
    # Starting also creates the read-model tables, after the events are committed.
    started = [processes.spawn("--store", fresh_postgres, "new", f"League {n}") for n in range(CLIENTS)]
    results = [processes.finished(p) for p in started]
    assert [r[2] for r in results if r[0] != 0 or r[2]] == []
    code, out, _ = processes.run("--store", fresh_postgres, "list")
    assert code == 0 and sorted(line.lstrip("* ").split("  ")[0] for line in out.splitlines()) == [f"League {n}" for n in range(CLIENTS)]
