"""`verify` of a long history checks its read models in a process forked beside the one that
verifies the chain (ledger/beside.py): every answer is the one given when both are done in one
process — a sound campaign, an edited read-model row, a tracking row the chain does not hold, an
edited event, a damaged file, a record the snapshot's fold cannot take — and the work is done in one
process where the other is lost."""

from __future__ import annotations

import functools
import multiprocessing
import os
import signal
import sqlite3
import threading

import pytest

from ledger import audit
from ledger import beside, stored_chain
from ledger.cli import audit as cli_audit
from ledger.cli import main
from ledger.beside import Beside, Outcome
from ledger.errors import IntegrityFailure
from ledger.store import Store
from projections import sql

ONE_PROCESS = 10**9  # BESIDE_FROM for a reading done in one process
BESIDE = 1  # and for one done beside it (the played campaign holds 25 events)


@pytest.fixture(autouse=True)
def outcomes(beside_outcomes, monkeypatch) -> list[Outcome]:
    """The outcomes that came back from a process beside (none lost: the work was done there)."""
    monkeypatch.setattr(stored_chain, "BESIDE_FROM", stored_chain.BESIDE_FROM)
    monkeypatch.setattr(cli_audit, "DAMAGE_CHECK_BESIDE_FROM", 10**12)  # checked first, here, unless a test says
    return beside_outcomes


def verify_both_ways(run, outcomes: list[Outcome], *args: str) -> dict[int, tuple[int, str]]:
    """verify's exit code and output with the read models checked in one process and beside it."""
    given = {}
    for beside_from in (ONE_PROCESS, BESIDE):
        stored_chain.BESIDE_FROM = beside_from
        result = run("verify", *args)
        given[beside_from] = (result.exit_code, result.output)
    return given


@pytest.fixture
def answers(played, outcomes):
    """`answers(*args)`: verify_both_ways on the played campaign."""
    return lambda *args: verify_both_ways(played, outcomes, *args)


def came_back(outcomes: list[Outcome]) -> bool:
    """The work beside was done there (not lost, and so not done again here)."""
    return bool(outcomes) and all(outcome.done or outcome.refused is not None for outcome in outcomes)


@pytest.mark.parametrize("damage_checked_beside", [False, True])
def test_a_sound_campaign_verifies_alike_beside(answers, outcomes, monkeypatch, damage_checked_beside):
    monkeypatch.setattr(cli_audit, "DAMAGE_CHECK_BESIDE_FROM", 0 if damage_checked_beside else 10**12)
    given = answers()
    assert given[BESIDE] == given[ONE_PROCESS]
    assert given[BESIDE][0] == 0
    assert "Read models: the 7 rm_* tables match a rebuild from the events.\n" in given[BESIDE][1]
    json_given = answers("--json")
    assert json_given[BESIDE] == json_given[ONE_PROCESS]
    # the read models beside, once a run; SQLite's check of the file beside too, every run
    assert came_back(outcomes) and len(outcomes) == (6 if damage_checked_beside else 2)


def test_an_edited_read_model_row_is_named_alike_beside(answers, outcomes, database):
    with sqlite3.connect(database.path) as conn:
        conn.execute("UPDATE rm_log SET description = 'nothing happened' WHERE position = 8")
    given = answers()
    assert given[BESIDE] == given[ONE_PROCESS]
    assert given[BESIDE][0] == 3
    assert given[BESIDE][1].startswith("Error: rm_log: row (campaign_id=0b0c0d0e-0000-4000-8000-000000000001, "
                                       "position=8) holds description='nothing happened', the events give ")
    assert came_back(outcomes)


@pytest.mark.parametrize("edit, reflects", [
    ("UPDATE rm_tracking SET head = '" + "ab" * 32 + "'", "position 25 with head abababababababab"),
    ("UPDATE rm_tracking SET position = 99", "position 99 with head {head}"),  # beyond the chain's end
])
def test_a_tracking_row_the_chain_does_not_hold_is_refused_alike_beside(answers, outcomes, played, database, edit,
                                                                        reflects):
    """The refusal is raised in the process beside and comes back as itself."""
    head = played.show()["head"][:16]
    with sqlite3.connect(database.path) as conn:
        conn.execute(edit)
    given = answers()
    assert given[BESIDE] == given[ONE_PROCESS]
    assert given[BESIDE] == (3, "Error: rm_tracking: row (campaign_id=0b0c0d0e-0000-4000-8000-000000000001) says the "
                                f"tables reflect {reflects.format(head=head)}, which is not in the chain\n")
    assert came_back(outcomes)


def test_an_edited_snapshot_is_named_alike_beside(answers, outcomes, database):
    """The snapshot is checked against the events folded as the chain is read, the read models rebuilt beside."""
    with sqlite3.connect(database.path) as conn:
        (state,) = conn.execute("SELECT state FROM stored_snapshots WHERE originator_version = 20").fetchone()
        conn.execute("UPDATE stored_snapshots SET state = ? WHERE originator_version = 20",
                     (bytes(state).replace(b'"treasury":100', b'"treasury":900', 1),))
    given = answers()
    assert given[BESIDE] == given[ONE_PROCESS] == (3, (
        "Error: the snapshot at position 20 does not match the events before it (it was edited): "
        "campaigns would load a state the history does not give\n"))
    assert came_back(outcomes)


def test_an_edited_event_is_named_alike_beside(answers, outcomes, database):
    database.rewrite(20, b'"actor":"', b'"actor":"forger ')
    given = answers()
    assert given[BESIDE] == given[ONE_PROCESS]
    assert given[BESIDE][0] == 3
    assert given[BESIDE][1].startswith("Error: position 20: ")
    assert outcomes == [] and multiprocessing.active_children() == []  # stopped when the chain failed


def failing_at(position: int, fold):
    """The fold, refusing the record at `position` (a record a ruleset's evolve cannot take)."""
    def apply_record(state, record, voided):
        if record.position == position:
            raise IntegrityFailure(f"the fold cannot take the record at position {position}")
        return fold(state, record, voided)
    return apply_record


def test_the_snapshot_fold_failing_names_a_chain_failing_later_first_alike_beside(answers, database, monkeypatch):
    """The snapshot's fold (done as the chain is read) fails at position 5, the chain at 20."""
    monkeypatch.setattr(stored_chain, "apply_record", failing_at(5, stored_chain.apply_record))
    database.rewrite(20, b'"actor":"', b'"actor":"forger ')
    given = answers()
    assert given[BESIDE] == given[ONE_PROCESS]
    assert given[BESIDE][0] == 3
    assert given[BESIDE][1].startswith("Error: position 20: ")


def test_the_snapshot_fold_failing_on_a_sound_chain_is_named_alike_beside(answers, monkeypatch):
    monkeypatch.setattr(stored_chain, "apply_record", failing_at(5, stored_chain.apply_record))
    given = answers()
    assert given[BESIDE] == given[ONE_PROCESS] == (3, "Error: the fold cannot take the record at position 5\n")


def flip_last_byte_of(path: str, tree: str) -> None:
    """One bit of the last byte of a table's or an index's root page."""
    with sqlite3.connect(path) as conn:
        [(root,)] = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (tree,))
        [(page_size,)] = conn.execute("PRAGMA page_size")
    with open(path, "r+b") as file:
        file.seek(root * page_size - 1)
        byte = file.read(1)[0]
        file.seek(root * page_size - 1)
        file.write(bytes([byte ^ 1]))


@pytest.mark.parametrize("damage_checked_beside", [False, True])
@pytest.mark.parametrize("tree, found, quick_check_finds", [
    # An index that no longer matches its table: SQLite's quick check of the pages does not see
    # it, the reading through it does (a read-model row is missing), and the full check names it.
    ("sqlite_autoindex_rm_log_1", "row 1 missing from index sqlite_autoindex_rm_log_1", False),
    # A page out of order: the quick check sees it, beside the reading where the file is large.
    ("stored_events", "*** in database main *** On tree page 24 cell 8: Rowid 9 out of order", True),
])
def test_a_damaged_file_is_named_alike_beside(answers, outcomes, played, database, monkeypatch, damage_checked_beside,
                                              tree, found, quick_check_finds):
    """Named before anything else, whether SQLite's check ran first here or beside the reading."""
    monkeypatch.setattr(cli_audit, "DAMAGE_CHECK_BESIDE_FROM", 0 if damage_checked_beside else 10**12)
    flip_last_byte_of(database.path, tree)
    checked_here = []  # SQLite's checks run in this process
    damage = Store.damage
    monkeypatch.setattr(Store, "damage", lambda store, **quick: checked_here.append(quick) or damage(store, **quick))
    given = answers()
    assert given[BESIDE] == given[ONE_PROCESS]
    damaged = (f"the store {played.url()} is damaged (SQLite finds: {found}); restore a copy made by `campaign "
               "backup`, or import an exported trail into a new store")
    assert given[BESIDE] == (3, f"Error: {damaged}\n")
    refusals = [str(outcome.refused) for outcome in outcomes if outcome.refused is not None]
    # named beside where the quick check ran there and found it; else here, after the reading failed
    assert refusals == ([damaged, damaged] if damage_checked_beside and quick_check_finds else [])
    # what the check beside found is not looked for again here
    assert (checked_here == []) == (damage_checked_beside and quick_check_finds)


# --- the reading itself ------------------------------------------------------------------------------


def verified_with(url: str, read, **options):
    """What `read` returned, and the hashes of the verified chain."""
    store = Store(url)
    try:
        chain, result = audit.verify_store_reading(store, audit.find_campaign(store, None), read, **options)
        return result, [entry.hash for entry in chain.entries]
    finally:
        store.close()


def hashes_and_process(store, records, voids):
    return [record.hash for record in records], os.getpid(), [void.position for void in voids]


def test_the_process_beside_reads_the_verified_records_and_its_result_comes_back(played):
    stored_chain.BESIDE_FROM = BESIDE
    (hashes, pid, voids), verified = verified_with(played.url(), hashes_and_process, beside=True)
    assert pid != os.getpid()
    assert hashes == verified and len(hashes) == 25
    assert voids == [16, 18]  # the transaction.voided events of T6 and T7
    assert multiprocessing.active_children() == []


@pytest.mark.parametrize("beside_from, beside", [
    (ONE_PROCESS, True),  # too short a history to be worth a process
    (BESIDE, False),  # not asked for
])
def test_the_reading_is_done_in_this_process(played, beside_from, beside):
    stored_chain.BESIDE_FROM = beside_from
    (_hashes, pid, _voids), _verified = verified_with(played.url(), hashes_and_process, beside=beside)
    assert pid == os.getpid()


def test_only_a_store_on_disk_or_on_a_server_opens_in_another_process(tmp_path):
    opened = {url: Store(url) for url in ("memory://", "sqlite:///:memory:", f"sqlite:///{tmp_path / 'c.db'}")}
    try:
        assert {url: store.opens_elsewhere for url, store in opened.items()} == {
            "memory://": False, "sqlite:///:memory:": False, f"sqlite:///{tmp_path / 'c.db'}": True}
    finally:
        for store in opened.values():
            store.close()


def killed_beside(store, records, voids):
    """Killed, when run in a process of its own; else the hashes."""
    if multiprocessing.parent_process() is not None:
        os.kill(os.getpid(), signal.SIGKILL)
    return [record.hash for record in records]


def test_where_the_process_beside_is_lost_the_reading_is_done_here(played):
    stored_chain.BESIDE_FROM = BESIDE
    hashes, verified = verified_with(played.url(), killed_beside, beside=True)
    assert hashes == verified and len(hashes) == 25
    assert multiprocessing.active_children() == []


def refused_beside(store, records, voids):
    for _record in records:
        pass
    raise IntegrityFailure(f"refused in process {os.getpid()}")


def test_a_refusal_beside_is_raised_here_as_itself(played):
    stored_chain.BESIDE_FROM = BESIDE
    with pytest.raises(IntegrityFailure, match=r"^refused in process (\d+)$") as refused:
        verified_with(played.url(), refused_beside, beside=True)
    assert refused.value.args[0] != f"refused in process {os.getpid()}"


def test_an_interrupted_reading_stops_the_process_beside(played):
    stored_chain.BESIDE_FROM = BESIDE

    def interrupted(_events: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        verified_with(played.url(), hashes_and_process, beside=True, advance=interrupted)
    assert multiprocessing.active_children() == []


def writing_while_verifying(monkeypatch, run) -> None:
    """A command recorded (with its read-model rows) once verify has read the tables' tracking row,
    just before the tables' rows are read beside the chain's reading."""
    stored_as_tracked = sql.stored_as_tracked

    def after_a_write(store: Store, tracked: sql.TrackingRow) -> sql.StoredReadModels | None:
        written = run("roll", "2D6", "--for", "meanwhile", "--dice", "2,4")
        assert written.exit_code == 0, written.output
        return stored_as_tracked(store, tracked)

    monkeypatch.setattr(sql, "stored_as_tracked", after_a_write)


def verified_while_writing(run, outcomes: list[Outcome]) -> list[str]:
    """verify's output, the read models checked in one process and beside it, each time with a
    command recorded meanwhile (writing_while_verifying): each passes, the tables matching."""
    outputs = []
    for beside_from in (ONE_PROCESS, BESIDE):
        stored_chain.BESIDE_FROM = beside_from
        result = run("verify")
        assert result.exit_code == 0, result.output
        assert "Read models: the 7 rm_* tables match a rebuild from the events.\n" in result.output
        outputs.append(result.output)
    assert came_back(outcomes)
    return outputs


def test_a_command_recorded_while_verifying_leaves_the_tables_as_the_reading_began(played, outcomes, monkeypatch):
    """Where a writer moved the tables on, their rows are read in the transaction their tracking
    row was read in: read as they are, they would hold rows of a position the chain it read does
    not reach, and verify would name one."""
    writing_while_verifying(monkeypatch, played)
    here, beside = verified_while_writing(played, outcomes)
    assert "25 events in " in here.splitlines()[0] and "27 events in " in beside.splitlines()[0]
    assert len(played.log()) == 29  # both writes were recorded


def test_a_command_recorded_while_a_large_file_is_checked_leaves_the_tables_as_the_reading_began(
        played, outcomes, monkeypatch):
    """The process checking a large file sums the tables up after its check, by which time a writer
    (here, that process itself) moved them on: they are read in the held transaction instead."""
    monkeypatch.setattr(cli_audit, "DAMAGE_CHECK_BESIDE_FROM", 0)
    writing_while_verifying(monkeypatch, played)
    verified_while_writing(played, outcomes)
    assert len(played.log()) == 29  # both writes were recorded
    assert not any(isinstance(outcome.result, sql.StoredReadModels) for outcome in outcomes)


@pytest.mark.parametrize("beside_from", [ONE_PROCESS, BESIDE])
def test_where_a_large_file_is_checked_beside_that_process_sums_the_tables_up(played, outcomes, monkeypatch,
                                                                              beside_from):
    """Not the process rebuilding them (whose work is the longer), nor this one."""
    monkeypatch.setattr(cli_audit, "DAMAGE_CHECK_BESIDE_FROM", 0)
    stored_chain.BESIDE_FROM = beside_from
    monkeypatch.setattr(sql.HeldReadModels, "read", lambda _held: pytest.fail("read in the held transaction"))
    result = played("verify")
    assert result.exit_code == 0, result.output
    assert "Read models: the 7 rm_* tables match a rebuild from the events.\n" in result.output
    summed = [outcome.result for outcome in outcomes if isinstance(outcome.result, sql.StoredReadModels)]
    assert [stored.tracked.position for stored in summed] == [25]
    rebuilt_beside = [outcome.result for outcome in outcomes if isinstance(outcome.result, tuple)]
    # (what the reading gave: the stored sums, the rebuilt ones, the ledger rolls)
    assert [read[0] for read in rebuilt_beside] == ([None] if beside_from == BESIDE else [])


def test_where_nothing_moved_the_tables_are_read_beside_the_chain_alone(answers, outcomes, monkeypatch):
    def read_as_held(_held: sql.HeldReadModels) -> None:
        raise AssertionError("read in the held transaction, though nothing had moved")

    monkeypatch.setattr(sql.HeldReadModels, "read", read_as_held)
    given = answers()
    assert given[BESIDE] == given[ONE_PROCESS]
    assert given[BESIDE][0] == 0
    assert "Read models: the 7 rm_* tables match a rebuild from the events.\n" in given[BESIDE][1]
    assert came_back(outcomes)


@pytest.mark.postgres
def test_a_command_recorded_while_verifying_on_postgresql_leaves_the_tables_as_the_reading_began(
        fresh_postgres, cli, outcomes, monkeypatch):
    def run(*args: str):
        return cli.runner.invoke(main, ["--store", fresh_postgres, *args])

    for args in (["new", "League"], ["warband", "add", "Reavers", "--player", "Bo"]):
        assert run(*args).exit_code == 0
    writing_while_verifying(monkeypatch, run)
    verified_while_writing(run, outcomes)


@pytest.mark.postgres
def test_a_postgresql_campaign_verifies_alike_beside(fresh_postgres, cli, outcomes):
    def run(*args: str):
        return cli.runner.invoke(main, ["--store", fresh_postgres, *args])

    for args in (["new", "League"], ["warband", "add", "Reavers", "--player", "Bo"], ["roll", "D6", "--for", "loot", "--ledger"]):
        assert run(*args).exit_code == 0
    given = verify_both_ways(run, outcomes)
    assert given[BESIDE] == given[ONE_PROCESS]
    assert given[BESIDE][0] == 0
    assert came_back(outcomes)
    assert "Read models: the 7 rm_* tables match a rebuild from the events.\n" in given[BESIDE][1]


def test_where_the_store_cannot_be_opened_again_beside_the_work_is_done_here(answers, outcomes, monkeypatch):
    """A store the process beside cannot open (its server refuses another connection, say) is no
    refusal of the campaign: what it was to check is checked in the first process, alike."""
    given_before = answers()
    outcomes.clear()
    reopened = Store.reopened

    def reopened_elsewhere(self: Store) -> Store:
        self._given_url = "sqlite:////no-such-folder/c.db"  # this process's copy of the store, beside
        return reopened(self)

    monkeypatch.setattr(Store, "reopened", reopened_elsewhere)
    monkeypatch.setattr(cli_audit, "DAMAGE_CHECK_BESIDE_FROM", 0)
    given = answers()
    assert given == given_before and given[BESIDE][0] == 0
    # SQLite's check beside, both times; the read models beside, once: none came back done
    assert len(outcomes) == 3 and not any(outcome.done or outcome.refused for outcome in outcomes)


def count_after_the_go(go, items) -> int:
    """The work beside in the test below: it reads nothing until told to go."""
    go.wait()
    return sum(1 for _item in items)


def test_this_process_sends_megabytes_ahead_of_a_busy_process_beside():
    """The items wait in the kernel, not in this process: while the work beside is busy (here,
    not reading at all), this one sends on (a verify's chain is read on while the read models'
    rebuild catches up). With the system's default buffer the adds would wait for the go."""
    go = multiprocessing.get_context("fork").Event()
    worker = Beside.started(functools.partial(count_after_the_go, go))
    sent = threading.Thread(target=lambda: [worker.add("x" * 300) for _ in range(4000)])  # 1.2 MB in msgpack
    sent.start()
    sent.join(timeout=30)
    all_sent = not sent.is_alive()
    go.set()
    sent.join()
    assert all_sent
    assert worker.finish() == Outcome(done=True, result=4000)


def test_a_beside_runs_no_thread_of_its_own_until_it_has_a_page_to_send():
    """verify forks its read-model rebuild after the file's check is started beside: no thread of
    the first Beside runs then (a fork copies only the thread that forks, not what another holds)."""
    threads = threading.active_count()
    checker = Beside.started(lambda items: sum(1 for _item in items))
    rebuild = Beside.started(lambda items: sum(1 for _item in items))
    assert threading.active_count() == threads
    for n in range(beside.PAGE_ITEMS):
        rebuild.add(n)
    assert threading.active_count() == threads + 1
    assert (rebuild.finish(), checker.finish()) == (Outcome(done=True, result=beside.PAGE_ITEMS), Outcome(done=True, result=0))
    assert threading.active_count() == threads
