"""`campaign import` into a store whose seeds are the key file's verifies and re-decides the trail
in a process forked beside the one storing it (ledger.trail.import_trail), and the storing's one
database transaction (the events and their read-model rows) commits once the trail has passed and
proved to be the one stored. Every answer is the one given when the trail is checked first, in
this process: an honest trail imports to the same head, a refusal stores nothing (in a new store,
or one holding other campaigns) and is named before anything the storing failed on, and the trail
is checked here, then stored, where the other process is lost or read another trail."""

from __future__ import annotations

import io
import multiprocessing
import os
import signal
import sqlite3
import uuid

import msgspec
import pytest

from ledger import audit, campaigns, dice, trail as trails
from ledger.beside import Beside, Outcome
from ledger.errors import IntegrityFailure
from ledger.keyfile import KeyFile
from projections import sql
from projections.history import void_annotations

HERE, BESIDE = "here", "beside"
FORGED = ("Error: T2: would now produce 2 events instead of 3 — the rules in force at it do not produce the "
          "trail's events from its command and dice; nothing imported\n")


@pytest.fixture(autouse=True)
def outcomes(beside_outcomes) -> list[Outcome]:
    """The outcomes that came back from the process beside."""
    return beside_outcomes


@pytest.fixture
def both_ways(played, monkeypatch):
    """`both_ways(*args, store=…)`: the exit code and output of `campaign *args`, the check run
    beside the storing and in this process first (no process to be had), each into the same store
    as it was before."""
    started = Beside.started

    def run(*args: str, store: str) -> dict[str, tuple[int, str]]:
        path = played.folder / store
        before = path.read_bytes() if path.exists() else None
        given = {}
        for where in (BESIDE, HERE):
            if before is None:
                path.unlink(missing_ok=True)
            else:
                path.write_bytes(before)
            monkeypatch.setattr(Beside, "started", started if where == BESIDE else lambda *_args, **_kw: None)
            result = played(*args, store=store)
            given[where] = (result.exit_code, result.output)
        return given

    return run


def forge(trail) -> None:
    """A treasury change slipped into T2, the chain hashed again over it: it verifies as a chain,
    but the rules do not produce it."""
    lines = trail.lines()
    enlisted = next(i for i, line in enumerate(lines) if line.get("type") == "warband.enlisted")
    lines.insert(enlisted + 1, {**lines[enlisted], "type": "treasury.changed",
                                "payload": {"warband": "rattenfanger", "delta": -1000000, "reason": "fine"}})
    for position, line in enumerate((line for line in lines if "kind" not in line), start=1):
        line["position"] = position
    lines[-1]["count"] += 1
    trail.write(lines, rehash=True)


def came_back(outcomes: list[Outcome]) -> bool:
    return bool(outcomes) and all(outcome.done or outcome.refused is not None for outcome in outcomes)


def test_an_honest_trail_imports_alike_beside(played, trail, both_ways, outcomes):
    given = both_ways("import", str(trail.path), store="copy.db")
    assert given[BESIDE] == given[HERE]
    assert given[BESIDE][0] == 0
    assert given[BESIDE][1].endswith(f"Head {played.show()['head']}\n")
    [checked] = outcomes  # verified and re-decided beside, once
    assert checked.done and (checked.result.name, checked.result.count, checked.result.transactions) == ("Demo", 25, 10)
    verified = played("verify", store="copy.db")
    assert verified.exit_code == 0
    assert "Read models: the 7 rm_* tables match a rebuild from the events.\n" in verified.output


def test_a_refused_trail_leaves_no_new_store_behind(played, trail, both_ways, outcomes):
    forge(trail)
    assert both_ways("import", str(trail.path), store="copy.db") == {BESIDE: (3, FORGED), HERE: (3, FORGED)}
    assert not (played.folder / "copy.db").exists()
    assert [str(outcome.refused) for outcome in outcomes] == [FORGED[len("Error: "):-1]]


def test_a_refused_trail_leaves_a_store_of_other_campaigns_as_it_was(played, trail, both_ways, monkeypatch):
    monkeypatch.setattr(campaigns, "uuid", uuid)  # another campaign id than the fixture's
    assert played("new", "Other", store="other.db").exit_code == 0
    assert played("warband", "add", "Reavers", "--player", "Bo", store="other.db").exit_code == 0
    with sqlite3.connect(played.folder / "other.db") as conn:
        tables = [name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        before = {name: sorted(conn.execute(f"SELECT * FROM {name}")) for name in tables}
    forge(trail)
    assert both_ways("import", str(trail.path), store="other.db") == {BESIDE: (3, FORGED), HERE: (3, FORGED)}
    with sqlite3.connect(played.folder / "other.db") as conn:
        assert {name: sorted(conn.execute(f"SELECT * FROM {name}")) for name in tables} == before


def test_the_trails_refusal_is_named_before_what_the_storing_refuses(played, trail, both_ways):
    """The campaign is in the store already, and the trail does not follow the rules: as when the
    trail is checked first, the trail's fault is named."""
    forge(trail)
    assert both_ways("import", str(trail.path), store="c.db") == {BESIDE: (3, FORGED), HERE: (3, FORGED)}
    assert played.show()["events"] == 25


def killed_beside(trail, annotate, seed_of, items):
    os.kill(os.getpid(), signal.SIGKILL)


@pytest.mark.parametrize("forged, answer", [(False, 0), (True, 3)])
def test_where_the_process_beside_is_lost_the_trail_is_checked_here(played, trail, outcomes, monkeypatch, forged,
                                                                     answer):
    if forged:
        forge(trail)
    monkeypatch.setattr(trails, "_verified_beside", killed_beside)
    result = played("import", str(trail.path), store="copy.db")
    assert (result.exit_code, result.output == FORGED) == (answer, forged)
    assert (played.folder / "copy.db").exists() != forged
    assert len(outcomes) == 1 and not outcomes[0].done and outcomes[0].refused is None  # lost
    assert multiprocessing.active_children() == []


def test_a_trail_read_here_otherwise_than_beside_is_stored_as_verified_here(played, trail, both_ways, outcomes):
    """A void's line written with spaces (its hash is of the canonical form, so it verifies): the
    storing, which finds the voids ahead by the export's spelling, did not see it as one, so what it
    read is not what was verified; it is verified and stored here instead, void and all."""
    text = trail.path.read_text(encoding="utf-8")
    assert text.count('"type":"transaction.voided"') == 2
    trail.path.write_text(text.replace('"type":"transaction.voided"', '"type": "transaction.voided"'), "utf-8")
    given = both_ways("import", str(trail.path), store="copy.db")
    assert given[BESIDE] == given[HERE]
    assert given[BESIDE][0] == 0 and given[BESIDE][1].endswith(f"Head {played.show()['head']}\n")
    assert outcomes[0].done  # verified beside, then again here
    assert played.log(store="copy.db") == played.log()
    assert played("verify", store="copy.db").exit_code == 0


def test_an_interrupted_import_stops_the_process_beside(trail):
    with pytest.raises(KeyboardInterrupt), trails._VerifiedBeside(trails._TrailFile(trail.path.read_bytes()),
                                                                   void_annotations, lambda _cid, _epoch: None):
        raise KeyboardInterrupt
    assert multiprocessing.active_children() == []


class OffsetShared(io.FileIO):
    """A trail file whose offset another process shares: reading it through that offset (read,
    seek, iteration) fails the test once it is open."""

    def tell(self) -> int:
        return 0

    def read(self, *_args):
        raise AssertionError("read at the offset another process shares")

    readinto = readline = readall = read

    def seek(self, *_args):
        raise AssertionError("moved the offset another process shares")


def test_a_trail_file_is_read_at_its_own_offsets(trail):
    """Import's check beside reads the file the storing reads, through the descriptor both processes
    share: each reading keeps to its own offsets, so that neither moves the other's."""
    with OffsetShared(trail.path, "r") as file:
        chain = audit.read_trail(file, void_annotations)
        pairs = list(zip(chain.records, chain.records))  # two readings at once, too
    assert len(pairs) == 25 and all(first == second for first, second in pairs)


def test_a_trail_edited_while_it_is_imported_is_refused(played, trail, monkeypatch):
    """Edited once the storing has read it, before the process beside verifies it."""
    verified = trails._verified_beside

    def after_an_edit(*args):
        trail.path.write_bytes(trail.path.read_bytes().replace(b'"actor":"arbiter"', b'"actor":"forger!"', 1))
        return verified(*args)

    monkeypatch.setattr(trails, "_verified_beside", after_an_edit)
    result = played("import", str(trail.path), store="copy.db")
    assert (result.exit_code, result.output) == (
        3, "Error: line 2: stored hash does not match its record (the event was edited)\n")
    assert not (played.folder / "copy.db").exists()


def test_where_the_rows_cannot_be_written_with_the_events_the_events_are_stored_and_the_rows_after(
        played, trail, monkeypatch):
    """The read-model rows are written in the events' transaction a page at a time, as the trail is
    read; where writing them fails, the transaction is undone, the trail read again and its events
    stored alone, and the rows made after the commit, as after any commit whose rows failed."""
    fought = played("battle", "record", "--warband", "Rattenfänger", "--winner", "Rattenfänger")  # a game won
    assert fought.exit_code == 0, fought.output
    assert played("export", "--force", "-o", str(trail.path)).exit_code == 0
    monkeypatch.setattr(sql._HistoryRows, "__call__", lambda _self, _cursor: 1 / 0)
    result = played("import", str(trail.path), store="copy.db")
    assert result.exit_code == 0, result.output
    assert played.log(store="copy.db") == played.log()
    verified = played("verify", store="copy.db")
    assert verified.exit_code == 0, verified.output
    assert "Read models: the 7 rm_* tables match a rebuild from the events.\n" in verified.output
    assert "Snapshot at position 27 matches the events.\n" in verified.output
    assert played.show(store="copy.db") == played.show()


def test_where_no_process_can_be_had_a_refused_trail_is_checked_once(played, trail, monkeypatch):
    forge(trail)
    monkeypatch.setattr(Beside, "started", lambda *_args, **_kw: None)
    checked = []
    check = trails.check_before_import
    monkeypatch.setattr(trails, "check_before_import", lambda *args: checked.append(1) or check(*args))
    assert (played("import", str(trail.path), store="copy.db").output, checked) == (FORGED, [1])


def test_the_storing_takes_for_voids_only_the_lines_that_are_voids(trail):
    """It finds them by the export's spelling of their type, which a nested object may spell too
    (here a command's argument): such a line is not one (the verified chain's voids would not be
    the ones read, and the trail would be stored again, checked first)."""
    lines = trail.lines()
    opened = next(line for line in lines[1:] if line.get("type") == "command.recorded")
    opened["payload"]["args"]["x"] = {"type": "transaction.voided"}
    trail.write(lines, rehash=True)
    assert b'"type":"transaction.voided"}' in trail.path.read_bytes()
    read = trails._as_read(trails._TrailFile(trail.path.read_bytes()), None)
    verified = audit.read_trail(trail.path.read_bytes(), void_annotations)
    assert [(v.position, v.hash) for v in read.voids] == [(v.position, v.hash) for v in verified.voids] != []


def readings_of(monkeypatch) -> list[str]:
    """From now on, "lines" for each reading of a trail file from its start, "again" for each of a
    verified chain's readings again (its events read back as verified)."""
    readings: list[str] = []
    raw_lines, reread = trails._TrailFile.raw_lines, audit.Chain.reread
    monkeypatch.setattr(trails._TrailFile, "raw_lines", lambda self: readings.append("lines") or raw_lines(self))
    monkeypatch.setattr(audit.Chain, "reread", lambda self, *args: readings.append("again") or reread(self, *args))
    return readings


def checked_beside(data: bytes) -> audit.Chain:
    return trails._checked_in_one_reading(trails._TrailFile(data), void_annotations, lambda _cid, _epoch: None)


def test_beside_a_trail_is_verified_and_re_decided_in_one_reading(trail, monkeypatch):
    """Its voids, found ahead by a scan of its lines, are the chain's: each event is re-decided once
    its line verified, so the trail is read twice (the scan, then the one reading), not three times
    (verified, then read again to be re-decided)."""
    readings = readings_of(monkeypatch)
    chain = checked_beside(trail.path.read_bytes())
    assert readings == ["lines", "lines"]
    verified = audit.read_trail(trail.path.read_bytes(), void_annotations)
    assert (chain.count, chain.head, [(v.position, v.hash) for v in chain.voids]) == (
        verified.count, verified.head, [(v.position, v.hash) for v in verified.voids]) == (25, verified.head, [
            (16, verified.voids[0].hash), (18, verified.voids[1].hash)])


@pytest.mark.parametrize("spelled", ['"type": "transaction.voided"', '"type":"transaction\\u002evoided"'])
def test_beside_a_void_the_scan_did_not_find_has_the_trail_checked_by_the_chains_own_voids(trail, monkeypatch, spelled):
    """A void's line not spelled as the export writes it (its hash is of the canonical form, so it
    verifies) is not found by the scan: once its line verified, the reading stops, and the chain is
    verified and checked by its own voids, as `check_before_import` checks it."""
    data = trail.path.read_bytes().replace(b'"type":"transaction.voided"', spelled.encode(), 1)
    readings = readings_of(monkeypatch)
    chain = checked_beside(data)
    assert readings == ["lines", "lines", "lines", "again", "lines"]  # the scan, the reading it stopped, then
    # read_trail and check_before_import's reading again
    assert [v.position for v in chain.voids] == [16, 18]


def test_beside_a_void_the_scan_found_where_the_chain_has_none_has_the_trail_checked_by_the_chains_own_voids(
        trail, monkeypatch):
    """A command's argument spelling a void's type is not one; nor is a line the scan read as a void
    that is not the verified one (here it is told another hash than the line's, as if the line had
    changed between the two readings)."""
    void_record = trails._void_record
    monkeypatch.setattr(trails, "_void_record", lambda number, raw: (found := void_record(number, raw)) and
                        msgspec.structs.replace(found, hash="0" * 64))
    readings = readings_of(monkeypatch)
    chain = checked_beside(trail.path.read_bytes())
    assert readings == ["lines", "lines", "lines", "again", "lines"]
    assert [v.position for v in chain.voids] == [16, 18]


def test_beside_a_trail_that_does_not_verify_is_refused_for_that_whatever_its_re_deciding_found(played, trail):
    """Forged in T2 (the rules do not produce it: found while re-deciding, before the end), then cut
    short: the reading's failure is the refusal, as when the trail is verified first."""
    forge(trail)
    data = trail.path.read_bytes()
    cut = data[:data.rindex(b"\n", 0, len(data) - 1) + 1]
    with pytest.raises(IntegrityFailure, match="the trailer line is missing"):
        checked_beside(cut)
    with pytest.raises(IntegrityFailure, match="would now produce 2 events instead of 3"):
        checked_beside(data)


def test_beside_the_dice_of_an_epoch_the_trailer_reveals_are_derived_once(trail, monkeypatch):
    """Epoch 0 is revealed (R1, the shuffle R2, R3): the chain derives its rolls from the seed it
    reveals, and the check against the seeds this machine keeps derives only R4, of epoch 1, which is
    not (the trailer, scanned ahead, says which epochs are revealed)."""
    keys = KeyFile()
    derived: list[int] = []
    faces = dice.ledger_faces
    monkeypatch.setattr(dice, "ledger_faces",
                        lambda seed, cid, roll, sides: derived.append(roll) or faces(seed, cid, roll, sides))
    trails._checked_in_one_reading(trails._TrailFile(trail.path.read_bytes()), void_annotations,
                                   lambda cid, epoch: keys.seed(str(cid), epoch))
    assert sorted(derived) == [1, 2, 3, 4]
