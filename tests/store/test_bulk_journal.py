"""A history written a page at a time (an import) into a SQLite file that holds no campaign yet is
written with SQLite's rollback journal, and the file is in WAL mode again after it: the pages go to
the file once instead of through the log. Never where the file holds a campaign, nor where another
connection has it open, and never left in another mode, whatever the append's outcome."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from ledger import events as ev
from ledger.records import GENESIS, seal
from ledger.store import Store


@pytest.fixture
def path(tmp_path) -> Path:
    return tmp_path / "campaign.db"


@pytest.fixture
def store(path):
    opened = Store(f"sqlite:///{path}")
    yield opened
    opened.close()


def started(campaign_id: uuid.UUID):
    """A campaign's first transaction, sealed."""
    return seal([ev.CommandRecorded(command="campaign.new", args={"name": "Test League"}),
                 ev.CampaignStarted(campaign_id=str(campaign_id), name="Test League")],
                first_position=1, prev_hash=GENESIS, tx=1, actor="Ann", recorded_at="2026-12-06T12:00:00.000000Z")


def journal_seen(seen: list[str]):
    """An each-page writer that notes the journal mode its transaction is written in."""
    def write(cursor):
        cursor.execute("PRAGMA journal_mode")
        seen.append(cursor.fetchone()[0])
    return write


def journal_mode(path: Path) -> str:
    connection = sqlite3.connect(path)
    try:
        return connection.execute("PRAGMA journal_mode").fetchone()[0]
    finally:
        connection.close()


def stored_positions(store: Store, campaign_id: uuid.UUID) -> list[int]:
    return [row.originator_version for row in store.raw_rows(campaign_id)]


def test_an_import_into_a_file_without_a_campaign_goes_through_the_rollback_journal_and_leaves_it_in_wal(store, path):
    seen: list[str] = []
    campaign_id = uuid.uuid4()
    store.append(campaign_id, started(campaign_id), each_page=[journal_seen(seen)])
    assert seen == ["delete"]
    assert stored_positions(store, campaign_id) == [1, 2]
    assert journal_mode(path) == "wal"
    assert not Path(f"{path}-journal").exists()


def test_an_import_into_a_file_holding_a_campaign_goes_through_the_log(store, path):
    first, second = uuid.uuid4(), uuid.uuid4()
    store.append(first, started(first))
    seen: list[str] = []
    store.append(second, started(second), each_page=[journal_seen(seen)])
    assert seen == ["wal"]
    assert stored_positions(store, second) == [1, 2]


def test_an_import_while_another_connection_has_the_file_open_goes_through_the_log_and_keeps_it_readable(store, path):
    reader = sqlite3.connect(path)
    try:
        assert reader.execute("SELECT count(*) FROM stored_events").fetchone() == (0,)
        seen: list[str] = []
        campaign_id = uuid.uuid4()
        store.append(campaign_id, started(campaign_id), each_page=[journal_seen(seen)])
        assert seen == ["wal"]
        assert reader.execute("SELECT count(*) FROM stored_events").fetchone() == (2,)
    finally:
        reader.close()
    assert journal_mode(path) == "wal"


def test_a_commit_alone_goes_through_the_log(store):
    seen: list[str] = []
    campaign_id = uuid.uuid4()
    store.append(campaign_id, started(campaign_id), within=[journal_seen(seen)])
    assert seen == ["wal"]


def test_a_refused_import_stores_nothing_and_leaves_the_file_in_wal_without_a_journal(store, path):
    seen: list[str] = []
    campaign_id = uuid.uuid4()

    def refuse() -> None:
        raise RuntimeError("the trail did not verify")

    with pytest.raises(RuntimeError, match="did not verify"):
        store.append(campaign_id, started(campaign_id), each_page=[journal_seen(seen)], before_commit=refuse)
    assert seen == ["delete"]
    assert stored_positions(store, campaign_id) == []
    assert journal_mode(path) == "wal"
    assert not Path(f"{path}-journal").exists()
    store.append(campaign_id, started(campaign_id))  # and the store writes as before
    assert stored_positions(store, campaign_id) == [1, 2]


CRASHING_IMPORT = """
import os, sys, uuid
sys.path.insert(0, {root!r})
from ledger.store import Store
from tests.store.test_bulk_journal import started

def write_then_die(cursor):
    cursor.execute("PRAGMA cache_size = 1")  # pages spill into the file before the commit, as a long import's do
    cursor.execute("CREATE TABLE filler (data BLOB)")
    cursor.executemany("INSERT INTO filler VALUES (?)", [(os.urandom(4000),) for _ in range(50)])
    os._exit(9)  # killed in the middle of the import: nothing of Python's tidying up runs

campaign_id = uuid.uuid4()
Store({url!r}).append(campaign_id, started(campaign_id), each_page=[write_then_die])
"""


def test_an_import_killed_midway_is_rolled_back_at_the_next_opening_which_puts_the_file_in_wal(path):
    root = str(Path(__file__).resolve().parents[2])
    code = CRASHING_IMPORT.format(root=root, url=f"sqlite:///{path}")
    assert subprocess.run([sys.executable, "-c", code], cwd=root, check=False).returncode == 9
    assert Path(f"{path}-journal").exists()  # the import was under way, through the rollback journal
    store = Store(f"sqlite:///{path}")
    try:
        assert store.campaign_ids() == []
        with store.sql() as cursor:
            cursor.execute("SELECT count(*) FROM stored_events")
            assert cursor.fetchone()[0] == 0
            cursor.execute("SELECT name FROM sqlite_master WHERE name = 'filler'")
            assert cursor.fetchall() == []
    finally:
        store.close()
    assert journal_mode(path) == "wal"
    assert not Path(f"{path}-journal").exists()
