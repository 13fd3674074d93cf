"""`campaign verify` compares the rm_* tables with a rebuild from the events and names the first
table and row that differ (issue #7, "What must hold" 6): a forged read-model row is found."""

from __future__ import annotations

import sqlite3

import pytest

from ledger.cli import main

CID = "0b0c0d0e-0000-4000-8000-000000000001"


def sql(played, statement: str) -> None:
    with sqlite3.connect(played.folder / "c.db") as conn:
        conn.execute(statement)


def test_a_forged_treasury_in_rm_warbands_is_found(played):
    sql(played, "UPDATE rm_warbands SET treasury = 9999")
    result = played("verify")
    assert (result.exit_code, result.output) == (3, (
        f"Error: rm_warbands: row (campaign_id={CID}, warband=rattenf-nger) holds treasury=9999, "
        "the events give treasury=100; `campaign rebuild` makes the read models again from the events\n"
    ))


def test_a_deleted_log_row_is_found(played):
    sql(played, "DELETE FROM rm_log WHERE position = 9")
    result = played("verify")
    assert (result.exit_code, result.output) == (3, (
        f"Error: rm_log: row (campaign_id={CID}, position=9) is missing (the events give one); "
        "`campaign rebuild` makes the read models again from the events\n"
    ))


def test_an_added_battle_row_is_found(played):
    sql(played, f"INSERT INTO rm_battles (campaign_id, position, tx, battle, recorded_at, actor, scenario, "
                f"participants, winner, deeds, voided_by) VALUES ('{CID}', 99, 99, 1, 'now', 'forger', '', "
                "'[]', NULL, '[]', NULL)")
    result = played("verify")
    assert (result.exit_code, result.output) == (3, (
        f"Error: rm_battles: row (campaign_id={CID}, position=99) is not given by the events; "
        "`campaign rebuild` makes the read models again from the events\n"
    ))


def test_a_rebuild_repairs_them(played):
    sql(played, "UPDATE rm_warbands SET treasury = 9999")
    assert played("rebuild").exit_code == 0
    assert "Read models: the 7 rm_* tables match a rebuild from the events." in played("verify").output


def test_tables_behind_the_events_are_compared_at_the_position_they_reflect(played):
    sql(played, "UPDATE rm_tracking SET position = 0, head = '" + "0" * 64 + "'")
    sql(played, "DELETE FROM rm_log")
    for table in ("rm_campaigns", "rm_warbands", "rm_fighters", "rm_ratings", "rm_battles", "rm_fighter_history"):
        sql(played, f"DELETE FROM {table}")
    result = played("verify")
    assert result.exit_code == 0, result.output
    assert ("Read models: the 7 rm_* tables match a rebuild from the events (they reflect position 0: "
            "`campaign rebuild` catches them up).") in result.output.splitlines()


@pytest.mark.postgres
def test_ledger_rolls_after_the_position_the_tables_reflect_are_recorded_not_dealt_only(fresh_postgres, cli):
    """A league server's verify names the rolls it dealt that the stream does not hold: one the
    stream holds after the position the read models reflect (a writer stopped between its commit
    and their update) is recorded, not dealt only."""
    import psycopg

    def run(*args: str):
        return cli.runner.invoke(main, ["--store", fresh_postgres, *args])

    for args in (["new", "League"], ["warband", "add", "Reavers", "--player", "Bo"], ["roll", "D6", "--for", "loot", "--ledger"]):
        assert run(*args).exit_code == 0
    with psycopg.connect(fresh_postgres, autocommit=True) as conn:  # the tables as they were before any command
        conn.execute("UPDATE rm_tracking SET position = 0, head = %s", ("0" * 64,))
        for table in ("rm_log", "rm_campaigns", "rm_warbands", "rm_fighters", "rm_ratings", "rm_battles",
                      "rm_fighter_history"):
            conn.execute(f"DELETE FROM {table}")
    result = run("verify")
    assert result.exit_code == 0, result.output
    assert ("Read models: the 7 rm_* tables match a rebuild from the events (they reflect position 0: "
            "`campaign rebuild` catches them up).") in result.output.splitlines()
    assert "Dealt but not recorded" not in result.output
