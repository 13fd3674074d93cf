"""What the writers of an append (the read models' rows, written in the events' own database
transaction) may rely on, on SQLite and PostgreSQL, where PostgreSQL sends the transaction's
statements ahead and reads their answers at one sync: a collision is a conflict with nothing kept,
a writer's check that fails stores the events alone, and a gap is refused with nothing kept."""

from __future__ import annotations

import pytest

from ledger import events as ev
from ledger.errors import Conflict
from ledger.records import seal
from ledger.store import Item
from projections import sql
from projections.tables import TRACKING


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def store_url(request, tmp_path) -> str:
    """The backends with a database transaction to write in (memory:// has none)."""
    if request.param == "sqlite":
        return "sqlite:///" + str(tmp_path / "campaign.db")
    return request.getfixturevalue("fresh_postgres")


@pytest.fixture
def tables(store):
    d = sql.dialect(store)
    with store.sql() as cursor:
        sql.create_tables(cursor, d)
    return d


def tracked(store, d) -> list[tuple]:
    with store.sql() as cursor:
        return d.select(cursor, f"SELECT campaign_id, position, head FROM {d.table(TRACKING)} ORDER BY campaign_id")


def marking(d, name: str, checked: list[str], fails: bool = False):
    """A writer that adds a tracking row named `name`, reads it back where it is answered later,
    and whose check records what it read (and fails, if asked to)."""
    def write(cursor):
        d.execute(cursor, f"INSERT INTO {d.table(TRACKING)} (campaign_id, position, head) VALUES (?, 1, 'h')", name)
        rows = d.select_later(cursor, f"SELECT position FROM {d.table(TRACKING)} WHERE campaign_id = ?", name)

        def check():
            checked.append(f"{name} read {rows()}")
            if fails:
                raise RuntimeError("the rows do not follow")
        return check
    return write


def next_note(campaign, position: int, text: str = "a note"):
    head = campaign.records()[-1]
    return seal([ev.NoteRecorded(text=text)], first_position=position, prev_hash=head.hash, tx=5, actor="Ann",
                recorded_at="2026-11-29T12:00:00.000000Z")


def test_a_writer_s_statements_commit_with_the_events_and_its_check_reads_what_they_wrote(campaign, store, tables):
    checked: list[str] = []
    store.append(campaign.id, next_note(campaign, 10), within=[marking(tables, "mark", checked)])

    assert checked == ["mark read [(1,)]"]
    assert tracked(store, tables) == [("mark", 1, "h")]
    assert [r.position for r in store.records(campaign.id)] == list(range(1, 11))


def test_a_check_that_fails_undoes_the_writer_s_statements_and_the_events_are_stored_alone(campaign, store, tables):
    checked: list[str] = []
    store.append(campaign.id, next_note(campaign, 10), within=[marking(tables, "mark", checked, fails=True)])

    assert checked == ["mark read [(1,)]"]
    assert tracked(store, tables) == []
    assert [r.position for r in store.records(campaign.id)] == list(range(1, 11))


def test_events_at_positions_another_writer_took_are_a_conflict_and_the_writer_s_statements_are_undone(
        campaign, store, tables):
    """The rival's event at 10 is found when the insert is answered (on PostgreSQL, at the sync that
    also answers the writer's statements): that is the conflict, not a failure of the writer's."""
    rival = next_note(campaign, 10, "the rival's")
    store.app.events.put([Item(campaign.id, 10, ev.tag_of(rival[0].event), rival[0])])
    checked: list[str] = []

    with pytest.raises(Conflict, match="^another command was recorded in this campaign at the same time$"):
        store.append(campaign.id, next_note(campaign, 10), within=[marking(tables, "mark", checked)])

    assert checked == []
    assert tracked(store, tables) == []
    assert [r.event.text for r in store.records(campaign.id, after=9)] == ["the rival's"]


def test_events_after_a_gap_are_refused_and_the_writer_s_statements_are_undone(campaign, store, tables):
    checked: list[str] = []
    after_ten = seal([ev.NoteRecorded(text="decided after 10")], first_position=11, prev_hash="a" * 64, tx=5,
                     actor="Ann", recorded_at="2026-11-29T12:00:00.000000Z")

    with pytest.raises(Conflict, match="^the campaign holds fewer events than the 10 this was decided after; try again$"):
        store.append(campaign.id, after_ten, within=[marking(tables, "mark", checked)])

    assert tracked(store, tables) == []
    assert [r.originator_version for r in store.raw_rows(campaign.id)] == list(range(1, 10))


def test_after_a_transaction_undone_the_store_reads_and_writes_as_before(campaign, store, tables):
    """A transaction undone also undoes what the driver prepared in it (PostgreSQL): the statements
    that follow are prepared again, not looked for on the server."""
    checked: list[str] = []
    for position in (10, 11, 12, 13, 14, 15):  # past psycopg's threshold for preparing a statement
        store.append(campaign.id, next_note(campaign, position), within=[marking(tables, f"m{position}", checked,
                                                                                fails=position % 2 == 0)])
        assert [r.position for r in store.records(campaign.id, after=position - 1)] == [position]

    assert [row[0] for row in tracked(store, tables)] == ["m11", "m13", "m15"]


@pytest.mark.postgres
@pytest.mark.parametrize("store_url", ["postgresql"], indirect=True)  # SQLite's transaction is the library's own
def test_a_rollback_that_fails_too_leaves_the_error_that_undid_the_transaction(campaign, store, tables, monkeypatch):
    """A connection lost in the middle of a transaction fails its rollback as well: what is told is
    why the transaction was undone (here, another writer's event at its position)."""
    import psycopg

    def lost(_connection):
        raise psycopg.OperationalError("the connection is lost")

    rival = next_note(campaign, 10, "the rival's")
    store.app.events.put([Item(campaign.id, 10, ev.tag_of(rival[0].event), rival[0])])
    monkeypatch.setattr(psycopg.Connection, "rollback", lost)

    with pytest.raises(Conflict, match="^another command was recorded in this campaign at the same time$"):
        store.append(campaign.id, next_note(campaign, 10), within=[marking(tables, "mark", [])])
