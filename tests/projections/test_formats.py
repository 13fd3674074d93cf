"""Read-model rows of another version's format (`rm_tracking.format`): not compared by `verify`, and
computed again by the campaign's next command, a read included (docs/read-models.md, Formats).

Tables an older version made are given as this version makes them, then taken back to what that
version left: rm_tracking without its format column (or with another format), and a log line in
another wording, which a comparison would find to differ from the events."""

from __future__ import annotations

import json

import pytest

from ledger.store import Store
from projections import sql
from projections.tables import LOG, ROWS_FORMAT, TRACKING

OLDER = (f"Read models not compared: an older version of campaign-ledger wrote them (rows of format 1; this one "
         f"writes format {ROWS_FORMAT}); the next command that shows or changes the campaign computes them again from the events, as "
         "`campaign rebuild` does.\n")
MATCH = "Read models: the 7 rm_* tables match a rebuild from the events.\n"


@pytest.fixture
def played(cli):
    for args in (
        ["new", "Old League", "--ruleset", "freeform"],
        ["warband", "add", "Reikland Rats", "--player", "Ann"],
        ["fighter", "add", "Reikland Rats", "Gunnar", "--role", "leader"],
        ["xp", "award", "Gunnar", "2", "--reason", "won"],
    ):
        result = cli(*args)
        assert result.exit_code == 0, result.output
    return cli


def as_an_older_version_left_them(url: str, *, rows_format: int | None) -> None:
    """The tables as a version writing rows of `rows_format` left them (None: one before the column)."""
    store = Store(url)
    try:
        d = sql.require_sql(store)
        with store.sql() as cursor:
            if rows_format is None:
                d.execute(cursor, f"ALTER TABLE {d.table(TRACKING)} DROP COLUMN format")
            else:
                d.execute(cursor, f"UPDATE {d.table(TRACKING)} SET format = ?", rows_format)
            d.execute(cursor, f"UPDATE {d.table(LOG)} SET description = 'worded otherwise' WHERE event_type = 'xp.awarded'")
    finally:
        store.close()


def verified(cli) -> str:
    result = cli("verify")
    assert result.exit_code == 0, result.output
    return next(line + "\n" for line in result.output.splitlines() if line.startswith("Read models"))


def tracked_formats(url: str, dump) -> list[int | None]:
    return [row[-1] for row in dump(url)["rm_tracking"]]


@pytest.mark.parametrize("rows_format", [None, 1])
def test_rows_an_older_version_wrote_are_not_compared_and_a_read_computes_them_again(played, sql_url, dump, rows_format):
    as_an_older_version_left_them(sql_url, rows_format=rows_format)
    assert verified(played) == OLDER
    assert played("show").exit_code == 0  # a read: the load catches the tables up
    assert verified(played) == MATCH
    assert tracked_formats(sql_url, dump) == [ROWS_FORMAT]
    kind, description = LOG.column_names.index("event_type"), LOG.column_names.index("description")
    assert [row[description] for row in dump(sql_url)["rm_log"] if row[kind] == "xp.awarded"] == ["Gunnar gains 2 XP (won)"]


def test_a_command_on_rows_of_an_older_format_computes_them_again(played, sql_url, dump):
    as_an_older_version_left_them(sql_url, rows_format=None)
    noted = played("note", "after the upgrade")
    assert (noted.exit_code, "Warning" in noted.output) == (0, False), noted.output
    assert verified(played) == MATCH
    assert tracked_formats(sql_url, dump) == [ROWS_FORMAT]


def test_rows_a_newer_version_wrote_are_named_as_its_own(played, sql_url, dump):
    as_an_older_version_left_them(sql_url, rows_format=ROWS_FORMAT + 1)
    assert verified(played) == (
        f"Read models not compared: a newer version of campaign-ledger wrote them (rows of format {ROWS_FORMAT + 1}; "
        f"this one writes format {ROWS_FORMAT}); the next command that shows or changes the campaign computes them again from the events, as "
        "`campaign rebuild` does.\n")
    assert played("rebuild").exit_code == 0
    assert verified(played) == MATCH
    assert tracked_formats(sql_url, dump) == [ROWS_FORMAT]


def test_verify_reads_tables_an_older_version_made_without_altering_them(played, sql_url, dump):
    as_an_older_version_left_them(sql_url, rows_format=None)
    kept = dump(sql_url)
    assert verified(played) == OLDER
    assert dump(sql_url) == kept  # rm_tracking still without its format column, the log line as it was
    assert [len(row) for row in kept["rm_tracking"]] == [3]


def test_rows_of_this_version_s_format_worded_otherwise_fail_verify(played, sql_url):
    """The control: the same tables, said to be of this version's format, differ from the events."""
    as_an_older_version_left_them(sql_url, rows_format=ROWS_FORMAT)
    result = played("verify")
    assert result.exit_code == 3
    assert "holds description='worded otherwise', the events give description='Gunnar gains 2 XP (won)'" in result.output


def logged_award(cli) -> list[str]:
    """`campaign log`'s lines of Gunnar's XP, text and JSON (standard output only: a warning is not a row)."""
    rows = [row for row in json.loads(cli("log", "--json").stdout) if row["type"] == "xp.awarded"]
    text = [line for line in cli("log").stdout.splitlines() if line.startswith(f"{rows[0]['position']:>5} ")]
    return [line.split("arbiter    ")[1] for line in text] + [row["text"] for row in rows]


@pytest.mark.parametrize("rows_format", [None, 1])
def test_the_log_of_rows_an_older_version_wrote_shows_this_version_s_rows(played, sql_url, rows_format):
    """`campaign log` shows the rm_log rows: those of an older format are computed again as it loads
    the campaign, so it never shows an older version's wording."""
    as_an_older_version_left_them(sql_url, rows_format=rows_format)
    assert logged_award(played) == ["Gunnar gains 2 XP (won)"] * 2
    assert verified(played) == MATCH


def test_the_log_shows_the_rows_the_tables_hold(played, sql_url):
    """The control: rows said to be of this version's format are read as they are (`verify` finds them
    differing from the events)."""
    as_an_older_version_left_them(sql_url, rows_format=ROWS_FORMAT)
    assert logged_award(played) == ["worded otherwise"] * 2


def test_tables_that_cannot_catch_up_leave_the_log_computed_from_the_events(played, sql_url, monkeypatch):
    """Rows of an older format that cannot be computed again now (the update fails: a warning) are not
    shown: the log computes its rows from the events, as a rebuild would."""
    as_an_older_version_left_them(sql_url, rows_format=1)

    def fails(*_args, **_kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(sql, "update", fails)
    assert "Warning: the read-model tables are behind the events and could not catch up" in played("log").output
    assert logged_award(played) == ["Gunnar gains 2 XP (won)"] * 2


@pytest.mark.parametrize("damage", [
    "DELETE FROM {log} WHERE event_type = 'xp.awarded'",
    "UPDATE {log} SET actor = 'Mallory' WHERE event_type = 'xp.awarded'",
])
def test_a_log_table_that_does_not_say_what_the_records_say_is_not_shown(played, sql_url, damage):
    """Rows of this version's format at the head, but one lost or saying another actor than its record
    (a damaged table): the log computes its rows from the events, and answers as before."""
    before = played("log").output
    store = Store(sql_url)
    try:
        d = sql.require_sql(store)
        with store.sql() as cursor:
            d.execute(cursor, damage.format(log=d.table(LOG)))
    finally:
        store.close()
    assert played("log").output == before
    assert "   10 T4    arbiter    Gunnar gains 2 XP (won)" in before.splitlines()
