"""Damaged stores: flipped bytes, a missing or stale -wal file, a store written by an older
version; each gets a clear message (never a crash, never a silent wrong answer)."""

from __future__ import annotations

import json
import os
import random
import shutil
import sqlite3
import uuid
from pathlib import Path
from types import SimpleNamespace

import pytest

from ledger import campaigns
from ledger.keyfile import KEYS_ENV
from ledger.testing import CampaignRunner

OLD = json.loads((Path(__file__).parent / "fixtures" / "old-store.json").read_text(encoding="utf-8"))


def test_a_store_written_by_the_older_version_opens_verifies_and_replays(old_store):
    cli = CampaignRunner("sqlite:///" + str(old_store))
    verified = cli("verify", "--head", OLD["head"])
    assert verified.exit_code == 0, verified.output
    assert f"{OLD['events']} events" in verified.output
    assert "1 roll re-derived from the revealed seed of epoch 0" in verified.output
    checked = cli("replay", "--check")
    assert checked.exit_code == 0, checked.output
    assert "all match" in checked.output
    shown = json.loads(cli("show", "--json").output)
    assert (shown["name"], shown["head"], shown["events"]) == (OLD["campaign"], OLD["head"], OLD["events"])


def test_a_store_written_by_the_older_version_takes_new_commands_with_its_open_seed(old_store):
    cli = CampaignRunner("sqlite:///" + str(old_store))
    rolled = cli("roll", "D6", "--for", "the first die of the new version", "--ledger")
    assert rolled.exit_code == 0, rolled.output
    assert cli("verify").exit_code == 0


def test_a_store_written_by_the_older_version_moves_to_a_new_store_by_export_and_import(old_store, tmp_path):
    """The other upgrade path: its trail, imported into a store made by this version, is the same
    campaign down to the head hash."""
    trail = tmp_path / "old.jsonl"
    assert CampaignRunner("sqlite:///" + str(old_store))("export", "-o", str(trail)).exit_code == 0
    fresh = CampaignRunner(f"sqlite:///{tmp_path / 'new.db'}")
    imported = fresh("import", str(trail))
    assert imported.exit_code == 0, imported.output
    assert imported.output.endswith(f"Head {OLD['head']}\n")
    assert fresh("verify", "--head", OLD["head"]).exit_code == 0
    assert fresh("replay", "--check").exit_code == 0


def flip(path, offset: int, count: int = 2) -> None:
    with open(path, "r+b") as file:
        file.seek(offset)
        data = file.read(count)
        file.seek(offset)
        file.write(bytes(b ^ 0xFF for b in data))


def test_two_flipped_bytes_at_offset_4096_are_a_clear_error_not_a_traceback(old_store):
    flip(old_store, 4096)
    result = CampaignRunner("sqlite:///" + str(old_store))("verify")
    assert result.exit_code == 3, result.output
    assert result.output == (
        f"Error: the store sqlite:///{old_store} is damaged (database disk image is malformed); nothing was "
        "written to it. Restore a copy made by `campaign backup`, or import an exported trail into a new store\n"
    )


def test_text_in_a_row_that_is_not_utf8_is_damage(old_store):
    """Bytes flipped inside a row's text leave a file SQLite's quick check passes: reading the row
    failed with exit 2, 'the store failed', where every other damage says so with exit 3."""
    with sqlite3.connect(old_store) as db:
        db.execute("UPDATE stored_events SET topic = CAST(X'ff71' AS TEXT) WHERE rowid = (SELECT max(rowid) FROM stored_events)")
    result = CampaignRunner("sqlite:///" + str(old_store))("log")
    assert (result.exit_code, result.output.split(" (")[0]) == (3, f"Error: the store sqlite:///{old_store} is damaged")


PAGE = 4096


def outputs(cli) -> dict[str, tuple[int, str]]:
    # `show` first: its load computes again the read models the older version wrote (not compared by
    # `verify` until then), so that the commands answer alike before and after the flip
    return {command: (result.exit_code, result.output)
            for command in ("show", "log", "verify")
            for result in [cli(*command.split())]}


FLIPS_PER_PAGE = int(os.environ.get("CAMPAIGN_TEST_FLIPS_PER_PAGE", "2"))


@pytest.mark.parametrize("page, seed", [(page, seed) for page in range(1, 35) for seed in range(FLIPS_PER_PAGE)])
def test_flipped_bytes_anywhere_are_an_error_line_or_change_nothing(old_store, page, seed):
    """Two bytes flipped in each page of the file, at random places: every command either answers
    exactly as before (the bytes were unused space, or in a table the command does not read) or
    gives one `Error:` line — never a traceback, never a different answer."""
    before = outputs(CampaignRunner("sqlite:///" + str(old_store)))
    offset = (page - 1) * PAGE + random.Random(f"{page}:{seed}").randrange(PAGE - 2)
    flip(old_store, offset)
    after = outputs(CampaignRunner("sqlite:///" + str(old_store)))
    for command, (code, text) in after.items():
        if code == 0:
            assert text == before[command][1], (command, offset)
        else:
            assert code in (1, 2, 3) and text.startswith("Error: ") and text.count("\n") == 1, (command, offset, text)


# --- the -wal file ----------------------------------------------------------------------------------


def head_of(cli) -> str:
    return json.loads(cli("show", "--json").output)["head"]


def test_a_copy_taken_without_its_wal_file_is_caught_against_the_noted_head(league, db_path, tmp_path):
    keeper = sqlite3.connect(db_path)  # another client keeps the -wal file from being folded in
    keeper.execute("SELECT count(*) FROM stored_events").fetchall()
    for n in range(3):
        assert league("note", f"session {n}").exit_code == 0
    noted = head_of(league)
    assert Path(f"{db_path}-wal").stat().st_size > 0
    copy = tmp_path / "copy.db"
    shutil.copyfile(db_path, copy)  # the file alone, as a careless copy takes it
    keeper.close()
    copied = CampaignRunner(f"sqlite:///{copy}")
    assert copied("verify").exit_code == 0  # an older state, whole in itself
    result = copied("verify", "--head", noted)
    assert (result.exit_code, result.output) == (
        3, f"Error: the noted head {noted} is not in this chain: the history it ended was changed "
        "(unless it was noted wrong, or is another campaign's)\n")


def test_a_stale_wal_file_never_passes_for_the_noted_head(league, db_path, tmp_path):
    keeper = sqlite3.connect(db_path)
    keeper.execute("SELECT count(*) FROM stored_events").fetchall()
    assert league("note", "kept in the wal").exit_code == 0
    stale = tmp_path / "stale-wal"
    shutil.copyfile(f"{db_path}-wal", stale)
    keeper.close()  # the last client: the -wal file is folded into the database and removed
    for n in range(3):
        assert league("note", f"later {n}").exit_code == 0
    noted = head_of(league)
    shutil.copyfile(stale, f"{db_path}-wal")
    for args in (["verify", "--head", noted], ["log"], ["show"]):
        result = league(*args)
        assert result.exit_code in (0, 1, 2, 3), result.output
        if result.exit_code:
            assert result.output.startswith("Error: ") and result.output.count("\n") == 1, result.output
        elif args[0] == "verify":
            assert result.output.endswith(f"Head {noted}\n")


# --- campaign backup ---------------------------------------------------------------------------------


def test_backup_of_a_live_store_is_consistent_and_restoring_it_verifies(league, db_path, tmp_path, worker, worker_report):
    writer = worker(league.store, "Test League", "w", 0)  # keeps writing while the backup is taken
    try:
        while writer.stdout.readline().startswith("ok w-") is False:
            pass
        copy = tmp_path / "backup.db"
        result = league("backup", str(copy))
        assert result.exit_code == 0, result.output
        assert result.output.endswith(f"Backed up 1 campaign to {copy}; the copy verifies.\n")
    finally:
        writer.kill()
        writer.communicate()
    assert not Path(f"{copy}-wal").exists()
    backed_up = CampaignRunner(f"sqlite:///{copy}")
    head = head_of(backed_up)
    assert backed_up("verify").exit_code == 0
    assert league("verify", "--head", head).exit_code == 0  # the copy is a moment of the original's history
    # Restoring: the copy takes the damaged file's place.
    flip(db_path, 4096)
    assert league("verify").exit_code == 3
    for suffix in ("-wal", "-shm"):
        Path(f"{db_path}{suffix}").unlink(missing_ok=True)
    shutil.copyfile(copy, db_path)
    assert league("verify", "--head", head).output.endswith(f"Head {head}\n")


def test_backup_refuses_to_replace_a_file_and_postgresql(league, tmp_path):
    kept = tmp_path / "kept.db"
    kept.write_text("x")
    result = league("backup", str(kept))
    assert (result.exit_code, result.output) == (2, f"Error: {kept} already exists: nothing written; --force replaces it\n")
    assert league("backup", str(kept), "--force").exit_code == 0
    result = CampaignRunner("memory://")("backup", str(tmp_path / "m.db"))
    assert result.exit_code != 0 and result.output.startswith("Error: ")


def test_sqlite_keeps_its_full_durability_setting(league):
    """The README promises that a recorded command survives a power loss: WAL with synchronous=FULL."""
    from ledger.store import Store

    store = Store(league.store, create=False)
    try:
        with store.sql() as cursor:
            cursor.execute("PRAGMA synchronous")
            [(synchronous,)] = cursor.fetchall()
            cursor.execute("PRAGMA journal_mode")
            [(journal,)] = cursor.fetchall()
    finally:
        store.close()
    assert (synchronous, journal) == (2, "wal")  # 2 is FULL


def flip_last_byte_of(store: Path, tree: str) -> None:
    """One bit of the last byte of a table's or an index's root page (the end of its cell content)."""
    connection = sqlite3.connect(store)
    [(root,)] = connection.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (tree,)).fetchall()
    connection.close()
    with open(store, "r+b") as file:
        file.seek(root * PAGE - 1)
        byte = file.read(1)[0]
        file.seek(root * PAGE - 1)
        file.write(bytes([byte ^ 1]))


@pytest.mark.parametrize("tree, found", [
    # a read-model table's index: the chain reads well, SQLite's check of the file does not
    ("sqlite_autoindex_rm_log_1", "row 1 missing from index sqlite_autoindex_rm_log_1"),
    # the index the events are read by: named as the damage, whatever the reading made of it
    ("sqlite_autoindex_stored_events_1", "row 1 missing from index sqlite_autoindex_stored_events_1"),
    # SQLite's finding spans two lines: one line of error
    ("stored_events", "*** in database main *** On tree page 22 cell 8: Rowid 9 out of order"),
])
def test_verify_names_what_sqlites_check_of_the_file_finds(old_store, tree, found):
    assert CampaignRunner("sqlite:///" + str(old_store))("show").exit_code == 0  # the read models in this version's format
    flip_last_byte_of(old_store, tree)
    result = CampaignRunner("sqlite:///" + str(old_store))("verify")
    assert (result.exit_code, result.output) == (
        3, f"Error: the store sqlite:///{old_store} is damaged (SQLite finds: {found}); restore a copy made by "
           "`campaign backup`, or import an exported trail into a new store\n")


def coreheim_demo_with_a_damaged_index_entry(tmp_path, monkeypatch, campaign_id: str, entry: str
                                              ) -> tuple[CampaignRunner, int]:
    """The coreheim demo (under its own campaign id and key file: the id is fixed, its seed is not)
    with one byte changed in the campaign id of an entry of the events' index: the first leaf's
    31st entry ("31st"), or the last leaf's last ("last"). The entry no longer names the campaign.
    With the demo's number of events (it grows with the ruleset's newest version)."""
    monkeypatch.setattr(campaigns, "uuid", SimpleNamespace(uuid4=lambda: uuid.UUID(campaign_id), UUID=uuid.UUID))
    monkeypatch.setenv(KEYS_ENV, str(tmp_path / "keys.json"))
    db = tmp_path / "c.db"
    cli = CampaignRunner(f"sqlite:///{db}")
    assert cli("demo", "--ruleset", "coreheim").exit_code == 0
    events = json.loads(cli("show", "--json").output)["events"]
    with sqlite3.connect(db) as connection:
        size = connection.execute("pragma page_size").fetchone()[0]
        order = "pageno" if entry == "31st" else "path desc"
        leaf = connection.execute("select pageno from dbstat where name = 'sqlite_autoindex_stored_events_1' "
                                  f"and pagetype = 'leaf' order by {order}").fetchone()[0]
    data = bytearray(db.read_bytes())
    page = (leaf - 1) * size
    index = 30 if entry == "31st" else int.from_bytes(data[page + 3:page + 5], "big") - 1
    cell = page + int.from_bytes(data[page + 8 + 2 * index:page + 10 + 2 * index], "big")
    data[cell + 12] = 0xFF  # a byte of the campaign id it indexes: the entry sorts after the campaign's others
    db.write_bytes(data)
    return cli, events


def test_an_index_that_ends_the_history_early_is_an_error_not_a_shorter_campaign(tmp_path, monkeypatch):
    """A forward read stopped at the damaged entry (30 of the demo's 338 events, as it was then), and
    `replay` and `export` answered with the shorter campaign, exit 0 — a trail that verified on its own."""
    cli, events = coreheim_demo_with_a_damaged_index_entry(tmp_path, monkeypatch, "0b0c0d0e-0000-4000-8000-0000000000d1", "31st")
    for args in (["replay"], ["export", "-o", str(tmp_path / "trail.jsonl")]):
        result = cli(*args)
        assert result.exit_code == 3, (args, result.output)
        assert f"position 31: a read of the history ends at event 30, but the store holds {events}" in result.output
    assert not (tmp_path / "trail.jsonl").exists()


def test_an_index_that_hides_the_latest_events_from_every_indexed_read_is_an_error(tmp_path, monkeypatch):
    """The entry of the campaign's last event: a forward read and the index's own "latest event"
    both ended at 337 of 338, so `export` wrote a shorter trail that verified, exit 0. The latest
    event is also looked up without the index."""
    cli, events = coreheim_demo_with_a_damaged_index_entry(tmp_path, monkeypatch, "0b0c0d0e-0000-4000-8000-0000000000d2", "last")
    for args in (["replay"], ["replay", "--check"], ["export", "-o", str(tmp_path / "trail.jsonl")]):
        result = cli(*args)
        assert result.exit_code == 3, (args, result.output)
        assert (f"position {events}: a read of the history ends at event {events - 1}, but the store holds {events}"
                in result.output)
    assert not (tmp_path / "trail.jsonl").exists()


def test_a_store_too_damaged_to_open_is_a_damaged_store_exit_3(old_store):
    """The exit codes: 3 is "a chain or store that does not verify"; one cut short was "cannot open store", exit 2."""
    with open(old_store, "r+b") as file:
        file.truncate(100)
    result = CampaignRunner("sqlite:///" + str(old_store))("verify")
    assert (result.exit_code, result.output) == (3, (
        f"Error: the store sqlite:///{old_store} is damaged (database disk image is malformed); nothing was "
        "written to it. Restore a copy made by `campaign backup`, or import an exported trail into a new store\n"))


@pytest.mark.parametrize("command", [
    ["xp", "award", "Gunnar", "1", "--reason", "t"],
    ["roll", "D6", "--for", "t", "--ledger"],
])
def test_a_store_whose_end_was_cut_off_takes_no_write(league, db_path, store_bytes, command):
    """A file cut short inside its last page: `verify` said it was damaged (exit 3), yet an XP award
    or a ledger roll was recorded into it (exit 0), on pages SQLite reads without noticing the page
    cut short. A SQLite file is whole pages; a write is refused as a read of damage is."""
    with open(db_path, "r+b") as file:
        file.truncate(os.path.getsize(db_path) - 1000)
    assert league("verify").exit_code == 3
    before = store_bytes()
    result = league(*command)
    assert (result.exit_code, result.output) == (3, (
        f"Error: the store sqlite:///{db_path} is damaged (the file is {os.path.getsize(db_path)} bytes, not a whole "
        "number of its 4096-byte pages: its end was cut off); nothing was written to it. Restore a copy made by "
        "`campaign backup`, or import an exported trail into a new store\n"))
    assert store_bytes() == before
