"""`campaign rebuild`, the CLI's commit hook, and the documentation of the tables."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from ledger.cli import app, main
from ledger.store import Store
from projections import sql
from projections.tables import LOG, ROWS_FORMAT, TABLES


@pytest.fixture
def league(cli, rated_ruleset):
    """rated-test: two warbands, two fighters, a battle, XP, a roll voided (T8), XP again (T10)."""
    for args in (
        ["new", "Test League", "--ruleset", "rated-test"],
        ["warband", "add", "Reikland Rats", "--player", "Ann", "--treasury", "100"],
        ["warband", "add", "Clan Skrittle", "--player", "Bob", "--treasury", "100"],
        ["fighter", "add", "Reikland Rats", "Gunnar", "--role", "leader", "--cost", "40", "--stat", "WS=4"],
        ["fighter", "add", "Clan Skrittle", "Snikch", "--role", "leader", "--cost", "30"],
        ["battle", "record", "--warband", "Reikland Rats", "--warband", "Clan Skrittle", "--winner", "Reikland Rats",
         "--took-out", "Gunnar=Snikch"],
        ["xp", "award", "Gunnar", "2", "--reason", "won"],
        ["roll", "D6", "--for", "loot", "--dice", "5"],
        ["void", "R0", "--reason", "cocked die"],
        ["xp", "award", "Snikch", "1", "--reason", "survived"],
    ):
        result = cli(*args)
        assert result.exit_code == 0, result.output
    return cli


def head(cli, campaign: str = "Test League") -> str:
    return json.loads(cli("--campaign", campaign, "show", "--json").output)["head"]


def test_rebuild_reports_each_campaign_and_gives_the_same_tables(league, sql_url, dump):
    kept = dump(sql_url)
    assert [row[-1] for row in kept["rm_ratings"]] == [0, 30, 31, 0, 40, 42]  # Skrittle, then the Rats
    result = league("rebuild")
    assert result.exit_code == 0
    assert result.output == (
        f"Test League: 24 events, 2 warbands, 2 fighters, 1 battle; head {head(league)[:16]}\n"
        f"Rebuilt the read models of 1 campaign in {sql_url} from the events.\n"
    )
    assert dump(sql_url) == kept


def test_rebuild_of_one_campaign_leaves_the_others_alone(league, sql_url, dump):
    assert league("new", "Other League").exit_code == 0
    kept = dump(sql_url)
    store = Store(sql_url)
    d = sql.require_sql(store)
    with store.sql() as cursor:  # lose both campaigns' logs
        d.execute(cursor, f"DELETE FROM {d.table(LOG)}")
    store.close()
    result = league("rebuild", "--campaign", "Other League")
    assert result.exit_code == 0
    assert result.output == (
        f"Other League: 4 events, 0 warbands, 0 fighters, 0 battles; head {head(league, 'Other League')[:16]}\n"
        "Rebuilt the read models of 1 campaign from the events.\n"
    )
    other = next(row[0] for row in kept["rm_campaigns"] if row[1] == "Other League")
    assert {row[0] for row in dump(sql_url)["rm_log"]} == {other}  # Test League's log is still lost
    assert league("rebuild").exit_code == 0
    assert dump(sql_url) == kept


def test_a_long_rebuild_shows_a_progress_bar(league, monkeypatch):
    monkeypatch.setattr(app, "PROGRESS_EVENTS", 24)
    result = league("rebuild")
    assert result.exit_code == 0
    assert result.stderr == "Rebuilding read models\n"  # a terminal sees the bar move; a pipe, its label


def test_a_short_rebuild_shows_no_progress_bar(league, monkeypatch):
    monkeypatch.setattr(app, "PROGRESS_EVENTS", 25)
    assert league("rebuild").stderr == ""


def test_rebuild_of_an_unknown_campaign_is_refused_and_changes_nothing(league, sql_url, dump):
    kept = dump(sql_url)
    result = league("rebuild", "--campaign", "Nowhere")
    assert (result.exit_code, result.output) == (2, f"Error: no campaign 'Nowhere' in {sql_url}\n")
    assert dump(sql_url) == kept


def test_a_memory_store_has_no_tables_to_rebuild():
    result = CliRunner().invoke(main, ["--store", "memory://", "rebuild"])
    assert (result.exit_code, result.output) == (
        2,
        "Error: memory:// keeps no SQL tables: read models are stored in SQLite and PostgreSQL stores only\n",
    )


@pytest.mark.parametrize("broken_part", ["_rows_after", "_write"])
def test_a_failed_update_warns_and_the_next_command_catches_up(league, sql_url, monkeypatch, dump, broken_part):
    """Computing the rows fails (before the commit), or writing them does (inside the commit's own
    transaction, then again after it): the command is recorded all the same, with a warning."""
    def broken(*_args):
        raise RuntimeError("database is locked")

    with monkeypatch.context() as patch:
        patch.setattr(sql, broken_part, broken)
        result = league("xp", "award", "Gunnar", "1", "--reason", "late")
    assert result.exit_code == 0
    assert result.stderr == (
        "Warning: the command is recorded, but the read-model tables were not updated (database is locked); "
        "they catch up with the next command, or run `campaign rebuild`.\n"
    )
    assert dump(sql_url)["rm_tracking"][0][1] == 24
    assert league("xp", "award", "Gunnar", "1", "--reason", "later").exit_code == 0
    caught_up = dump(sql_url)
    assert caught_up["rm_tracking"][0][1:] == (28, head(league), ROWS_FORMAT)
    assert [row[-1] for row in caught_up["rm_ratings"] if row[1] == "reikland-rats"] == [0, 40, 42, 43, 44]
    assert league("rebuild").exit_code == 0
    assert dump(sql_url) == caught_up


DOCS = Path(__file__).parents[2] / "docs" / "read-models.md"


def test_every_table_and_column_is_documented():
    sections = re.split(r"^### ", DOCS.read_text(encoding="utf-8"), flags=re.MULTILINE)[1:]
    documented = {
        section.split("\n", 1)[0].strip(): re.findall(r"^\| `(\w+)` \|", section, flags=re.MULTILINE)
        for section in sections
    }
    assert documented == {table.name: list(table.column_names) for table in TABLES}


def test_verify_sums_up_the_tables_and_names_a_forged_row(league, sql_url):
    """On both backends: the tables are read a page at a time (on PostgreSQL through a cursor on the
    server) and summed up; a row that differs is then named."""
    verified = league("verify")
    assert verified.exit_code == 0, verified.output
    assert "Read models: the 7 rm_* tables match a rebuild from the events." in verified.output.splitlines()
    store = Store(sql_url)
    d = sql.require_sql(store)
    with store.sql() as cursor:
        d.execute(cursor, f"UPDATE {d.table(LOG)} SET actor = 'forger' WHERE position = ?", 12)
    store.close()
    result = league("verify")
    campaign_id = json.loads(league("show", "--json").output)["campaign_id"]
    assert (result.exit_code, result.output) == (3, (
        f"Error: rm_log: row (campaign_id={campaign_id}, position=12) holds actor='forger', the events give actor='arbiter'"
        "; `campaign rebuild` makes the read models again from the events\n"))
