"""Tampering (issue #13, "what must hold" 3): editing, deleting, reordering or inserting an event
row in SQLite or PostgreSQL is reported by `verify` (exit 3) with the first bad position, and a
trail cut short (and given a trailer that matches) is caught against a noted head.

The edits of exported trails line by line are in tests/audit/test_verify_trail.py; the edits here
are made with nothing but the database's own client library, as someone with the file or a
database login would."""

from __future__ import annotations

import json
import sqlite3

import pytest

from ledger.testing import CampaignRunner


class Rows:
    """The stored event rows of the store's one campaign, edited behind the ledger's back."""

    def __init__(self, url: str):
        self.url = url
        if url.startswith("sqlite:///"):
            self.connection = sqlite3.connect(url.removeprefix("sqlite:///"))
            self.table, self.mark = "stored_events", "?"
        else:
            import psycopg

            self.connection = psycopg.connect(url, autocommit=True)
            self.table, self.mark = "campaignledger_events", "%s"

    def execute(self, sql: str, *params) -> list:
        cursor = self.connection.execute(sql.replace("?", self.mark).format(table=self.table), params)
        rows = cursor.fetchall() if cursor.description else []
        if isinstance(self.connection, sqlite3.Connection):
            self.connection.commit()
        return rows

    def state(self, position: int) -> bytes:
        return bytes(self.execute("SELECT state FROM {table} WHERE originator_version = ?", position)[0][0])

    def set_state(self, position: int, state: bytes) -> None:
        self.execute("UPDATE {table} SET state = ? WHERE originator_version = ?", state, position)

    def last(self) -> int:
        return self.execute("SELECT max(originator_version) FROM {table}")[0][0]

    def copy_row(self, position: int, to: int) -> None:
        self.execute("INSERT INTO {table} (originator_id, originator_version, topic, state) "
                     "SELECT originator_id, ?, topic, state FROM {table} WHERE originator_version = ?", to, position)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def played(request, tmp_path):
    """A campaign of 20-odd events with table and ledger dice, and its head noted."""
    url = f"sqlite:///{tmp_path / 'league.db'}" if request.param == "sqlite" else request.getfixturevalue("fresh_postgres")
    cli = CampaignRunner(url)
    for args in (["new", "League"], ["warband", "add", "Rats", "--player", "Ann", "--treasury", "100"],
                 ["fighter", "add", "Rats", "Gunnar", "--role", "leader"], ["roll", "2D6", "--for", "injury", "--dice", "3,5"],
                 ["roll", "D6", "--for", "loot", "--ledger"], ["xp", "award", "Gunnar", "2", "--reason", "won"],
                 ["note", "end of session"]):
        assert cli(*args).exit_code == 0
    rows = Rows(url)
    yield cli, rows
    rows.connection.close()


def verify_fails_at(cli, position: int, problem: str) -> None:
    result = cli("verify")
    assert (result.exit_code, result.output) == (3, f"Error: position {position}: {problem}\n")


def test_an_untouched_store_verifies(played):
    cli, _ = played
    assert cli("verify").exit_code == 0


def test_an_edited_row(played):
    cli, rows = played
    rows.set_state(6, rows.state(6).replace(b'"treasury":100', b'"treasury":900'))
    verify_fails_at(cli, 6, "stored hash does not match its record (the event was edited)")


def test_a_campaign_renamed_in_its_row_is_not_found_by_either_name(played):
    """`--campaign NAME` reads the name from the event that started the campaign, checked by its hash."""
    cli, rows = played
    started = 2  # after the command.recorded event of `campaign new`
    assert b'"campaign.started"' in rows.state(started)
    rows.set_state(started, rows.state(started).replace(b'"name":"League"', b'"name":"Forged"'))
    for name in ("League", "Forged"):
        result = cli("--campaign", name, "show")
        assert (result.exit_code, result.output) == (
            3, "Error: position 2: the stored event does not match its hash; the store was damaged or "
               "edited, and `campaign verify` says where\n")


def test_a_deleted_row(played):
    cli, rows = played
    rows.execute("DELETE FROM {table} WHERE originator_version = ?", 9)
    verify_fails_at(cli, 9, "missing (the stored events go from 8 to 10): an event was deleted")


def test_two_rows_swapped(played):
    cli, rows = played
    rows.execute("UPDATE {table} SET originator_version = -1 WHERE originator_version = 8")
    rows.execute("UPDATE {table} SET originator_version = 8 WHERE originator_version = 9")
    rows.execute("UPDATE {table} SET originator_version = 9 WHERE originator_version = -1")
    verify_fails_at(cli, 8, "holds position 9 where position 8 was expected (an event was removed, added or moved)")


def test_two_payloads_swapped_under_their_topics(played):
    cli, rows = played
    eight, nine = rows.state(8), rows.state(9)
    rows.set_state(8, nine)
    rows.set_state(9, eight)
    verify_fails_at(cli, 8, "stored under topic 'fighter.recruited' but holds a command.recorded event")


def test_a_row_inserted(played):
    cli, rows = played
    last = rows.last()
    rows.copy_row(7, last + 1)  # an old event told again at the end
    verify_fails_at(cli, last + 1, f"holds position 7 where position {last + 1} was expected "
                                   "(an event was removed, added or moved)")


def test_a_row_inserted_in_the_middle(played):
    cli, rows = played
    last = rows.last()
    for position in range(last, 9, -1):  # make room at 10, as an insert into the history would
        rows.execute("UPDATE {table} SET originator_version = ? WHERE originator_version = ?", position + 1, position)
    rows.copy_row(5, 10)
    verify_fails_at(cli, 10, "holds position 5 where position 10 was expected (an event was removed, added or moved)")


def test_a_trail_cut_short_with_a_matching_trailer_is_caught_against_the_noted_head(played, tmp_path):
    cli, _ = played
    noted = json.loads(cli("show", "--json").output)["head"]
    trail = tmp_path / "trail.jsonl"
    assert cli("export", "-o", str(trail)).exit_code == 0
    header, *events, trailer = (json.loads(line) for line in trail.read_text().splitlines())
    kept = events[:-3]
    trailer.update(count=len(kept), head=kept[-1]["hash"])
    short = tmp_path / "short.jsonl"
    short.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in [header, *kept, trailer]))
    assert cli("verify", str(short)).exit_code == 0  # on its own a shorter trail is a sound one
    result = cli("verify", str(short), "--head", noted)
    assert (result.exit_code, result.output) == (
        3, f"Error: the noted head {noted} is not in this chain: the history it ended was changed "
        "(unless it was noted wrong, or is another campaign's)\n")
    assert cli("verify", str(trail), "--head", noted).exit_code == 0


@pytest.mark.parametrize(("value", "verify_says", "log_says"), [
    ("NULL", "the stored event is NULL, not its JSON; the store was damaged or edited: see `campaign verify`",
     "the stored event is NULL, not its JSON; the store was damaged or edited: see `campaign verify`"),
    ("1000000000000000", "does not decode: not a JSON object",  # read as a blob of its digits, never as that many bytes
     "the stored event does not decode (Expected `object`, got `int`); the store was damaged or edited: "
     "see `campaign verify`"),
    ("CAST(x'ff7b' AS TEXT)", "does not decode: 'utf-8' codec can't decode byte 0xff in position 0: invalid start byte",
     "the stored event does not decode (JSON is malformed: invalid character (byte 0)); the store was damaged or "
     "edited: see `campaign verify`"),
])
def test_a_row_whose_value_an_sql_client_made_no_blob_is_named_by_every_reader(tmp_path, value, verify_says, log_says):
    """SQLite keeps whatever type a value is given: a number, NULL, or text that is not UTF-8 where
    the library writes a blob of JSON (a number or NULL was reported as a bug, and text that is not
    UTF-8 made `verify` say that there was no such campaign)."""
    cli = CampaignRunner(f"sqlite:///{tmp_path / 'league.db'}")
    for args in (["new", "League"], ["warband", "add", "Rats", "--player", "Ann", "--treasury", "100"]):
        assert cli(*args).exit_code == 0
    with sqlite3.connect(tmp_path / "league.db") as conn:
        conn.execute(f"UPDATE stored_events SET state = {value} WHERE originator_version = 5")
    verify_fails_at(cli, 5, verify_says)
    for args in (["log", "--full"], ["replay", "--check"]):
        result = cli(*args)
        assert (result.exit_code, result.output) == (3, f"Error: position 5: {log_says}\n")


@pytest.mark.parametrize("value", ["NULL", "12", "'not a campaign'", "x'ff'"])
def test_a_current_campaign_choice_edited_into_garbage_counts_as_none_and_can_be_made_again(tmp_path, value):
    """The choice is a convenience, not a record: a store whose choice an SQL client spoiled still
    lists its campaigns, asks for one to be chosen, and takes a new choice."""
    cli = CampaignRunner(f"sqlite:///{tmp_path / 'league.db'}")
    for name in ("North", "South"):
        assert cli("new", name).exit_code == 0
    with sqlite3.connect(tmp_path / "league.db") as conn:
        conn.execute(f"UPDATE stored_settings SET state = {value}")
    assert [line.split("  ")[0] for line in cli("list").output.splitlines()] == ["North", "South"]
    result = cli("show")
    assert (result.exit_code, result.output) == (
        2, "Error: this store holds several campaigns (North, South): choose one with `campaign use NAME` or --campaign\n")
    assert cli("use", "North").exit_code == 0
    assert [line[:7] for line in cli("list").output.splitlines()] == ["* North", "  South"]


def test_a_snapshot_left_as_text_that_is_not_utf8_is_a_lost_cache_that_verify_reports(tmp_path):
    cli = CampaignRunner(f"sqlite:///{tmp_path / 'league.db'}")
    assert cli("new", "League").exit_code == 0
    for n in range(55):  # two events each: a snapshot at 100
        assert cli("roll", "D6", "--for", f"roll {n}", "--dice", "3").exit_code == 0
    with sqlite3.connect(tmp_path / "league.db") as conn:
        assert conn.execute("UPDATE stored_snapshots SET state = CAST(x'ff' AS TEXT)").rowcount == 1
    result = cli("verify")
    assert (result.exit_code, result.output) == (3, "Error: the latest snapshot cannot be read (Could not decode to "
                                                    "UTF-8 column 'state' with text '\ufffd'): the store was damaged or edited\n")
    assert cli("roll", "D6", "--for", "after", "--dice", "4").exit_code == 0  # loaded from the events instead
    assert cli("verify").exit_code == 0  # and snapshotted again from them
