"""A stored row, or a trail's event line, is read fast when msgspec, writing it again, gives its bytes
back; anything else is read the strict way, which names its fault. Both readings agree on every row
and line the fast one takes."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import uuid
from pathlib import Path
from types import SimpleNamespace

import msgspec
import pytest

from ledger import audit, rulesets
from ledger.campaigns import Ledger
from ledger.chain import Entry
from ledger.errors import IntegrityFailure
from ledger.records import canonical
from ledger.store import Store
from ledger.stored_chain import _plain_entry, _stored_entry, _strict_entry, verify_store
from ledger.trail import _event_entry, _line, _plain_event_entry, read_trail
from projections.history import void_annotations

GOLDEN = sorted((Path(__file__).parents[1] / "golden").glob("*.jsonl"))
CAMPAIGN_ID = "0b0c0d0e-0000-4000-8000-000000000001"  # the played campaign's (tests/audit/conftest.py)


def stored_rows(path) -> list[SimpleNamespace]:
    with sqlite3.connect(path) as conn:
        found = conn.execute("SELECT originator_version, state FROM stored_events WHERE topic NOT LIKE 'ledger.%' "
                             "ORDER BY originator_version")
        return [SimpleNamespace(originator_version=version, state=state) for version, state in found.fetchall()]


def test_every_row_as_the_store_writes_it_is_read_fast_and_as_the_strict_reader_reads_it(database):
    rulesets.load_rulesets()
    rows = stored_rows(database.path)
    assert len(rows) == 25
    slow = []
    for row in rows:
        fast = _plain_entry(row.originator_version, bytes(row.state))
        if fast is None:
            slow.append(row.originator_version)
        else:
            assert fast == _strict_entry(row.originator_version, bytes(row.state))
    assert slow == []


@pytest.mark.parametrize("trail", GOLDEN, ids=lambda path: path.stem)
def test_every_row_of_every_golden_campaign_is_read_fast_and_as_the_strict_reader_reads_it(trail, tmp_path):
    """Every event type of every ruleset, as the store writes it."""
    ledger = Ledger(Store(f"sqlite:///{tmp_path / 'golden.db'}"))
    try:
        audit.import_chain(ledger, audit.read_trail(trail.read_bytes(), void_annotations))
    finally:
        ledger.store.close()
    rows = stored_rows(tmp_path / "golden.db")
    fast = [_plain_entry(row.originator_version, bytes(row.state)) for row in rows]
    assert [row.originator_version for row, entry in zip(rows, fast) if entry is None] == []
    assert fast == [_strict_entry(row.originator_version, bytes(row.state)) for row in rows]


@pytest.mark.parametrize("edit", [
    lambda data: data.replace(b'"tx":', b' "tx" : ', 1),  # spaced out
    lambda data: data.replace(b'{"position":8,', b'{"position":8,"position":8,', 1),  # a key twice
    lambda data: data.replace(b'"faces":[3,5]', b'"faces":[3,5],"faces":[3,6]', 1),  # a payload key twice
    lambda data: data.replace(b'"faces":[3,5]', b'"faces":[3.0,5]', 1),  # a float
    lambda data: data.replace(b'{"position":8,', b'{"position":true,', 1),  # not an integer
    lambda data: data.replace(b'"tx":3,', b'"tx":3,"extra":1,', 1),  # a key the format has not
    lambda data: data.replace(b'"actor":', b'"author":', 1),  # a key missing
    lambda data: data.replace(b'"faces":[3,5]', b'"faces":[3,5],"n":' + b"9" * 25, 1),  # a number too long
    lambda data: data.replace(b'"purpose":"injury"', b'"purpose":"inj\\u0075ry"', 1),  # another spelling
])
def test_a_row_in_any_other_form_is_left_to_the_strict_reader(database, edit):
    rulesets.load_rulesets()
    row = stored_rows(database.path)[7]
    assert b'"faces":[3,5]' in bytes(row.state) and b'"purpose":"injury"' in bytes(row.state)
    edited = edit(bytes(row.state))
    assert edited != bytes(row.state)
    assert _plain_entry(row.originator_version, edited) is None


def test_every_event_line_as_the_export_writes_it_is_read_fast_and_as_the_strict_reader_reads_it(trail):
    rulesets.load_rulesets()
    lines = trail.path.read_bytes().splitlines()
    slow = []
    for number, raw in enumerate(lines[1:-1], start=2):
        fast = _plain_event_entry(number, raw)
        if fast is None:
            slow.append(number)
        else:
            entry, notes = fast
            assert entry.as_stored  # its payload is its event as the store writes it: not decoded twice
            assert entry.hashed == canonical(entry.body)  # what the chain hashes: the line's own bytes
            assert (unknown_if_as_stored(entry), notes) == _event_entry(_line(number, raw))
    assert slow == [23]  # position 22, the seed of 01s (see above)
    assert _plain_event_entry(1, lines[0]) is None and _plain_event_entry(len(lines), lines[-1]) is None  # header, trailer


def test_the_record_hashed_of_every_golden_line_read_fast_is_the_line_without_its_annotations_and_hash():
    """The chain hashes those bytes instead of writing the record again: they must be what it wrote."""
    rulesets.load_rulesets()
    annotated = 0
    for trail in GOLDEN:
        for number, raw in enumerate(trail.read_bytes().splitlines()[1:-1], start=2):
            fast = _plain_event_entry(number, raw)
            if fast is not None and fast[0].as_stored:
                assert fast[0].hashed == canonical(fast[0].body), f"{trail.name} line {number}"
                annotated += fast[1] != {}
            elif fast is not None:
                assert fast[0].hashed is None  # its payload is not in its canonical form: the chain writes it
    assert annotated > 0  # voided lines, whose annotations are cut out too


DEMOS = [path for path in GOLDEN if path.name.startswith("demo-")]


@pytest.mark.parametrize("trail", DEMOS, ids=lambda path: path.stem)
def test_a_fresh_process_reads_a_trail_importing_only_the_ruleset_of_its_events(trail):
    """`verify FILE` and import's process beside import a ruleset as they meet its first event (read by
    the strict reader, which imports it), not every ruleset first: the chain is the one read here."""
    code = ("import sys; from ledger.trail import read_trail; from projections.history import void_annotations; "
            f"chain = read_trail(open({str(trail)!r}, 'rb'), void_annotations); "
            "print(chain.count, chain.head, *sorted({m.split('.')[1] for m in sys.modules if m.startswith('commands.')}))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          cwd=Path(__file__).parents[2])
    count, head, *imported = done.stdout.split()
    chain = read_trail(trail.read_bytes(), void_annotations)
    assert (int(count), head) == (chain.count, chain.head)
    # freeform's events are all the ledger's own: it needs no ruleset's
    assert set(imported) - {"kit", "shared"} <= {trail.stem.removeprefix("demo-").replace("-", "_")}


@pytest.mark.parametrize("edit", [
    lambda line: line.replace(b'"tx":', b' "tx" : ', 1),
    lambda line: line.replace(b'"faces":[3,5]', b'"faces":[3,5],"faces":[3,6]', 1),
    lambda line: line.replace(b'"faces":[3,5]', b'"faces":[3.0,5]', 1),
    lambda line: line.replace(b'"annotations":{', b'"annotations":{"x":1.5,', 1),
    lambda line: line.replace(b'"tx":3,', b'"tx":true,', 1),
    lambda line: line.replace(b'"tx":3,', b'"tx":3,"kind":"event",', 1),
    lambda line: line.replace(b'"payload":{', b'"payload":{"type":"dice.rolled",', 1),
    lambda line: line.replace(b'"type":"dice.rolled"', b'"type":"nobody.knows"', 1),
    lambda line: line.replace(b'"faces":[3,5]', b'"faces":"3,5"', 1),  # not what the event type holds
    lambda line: line.replace(b'{"actor"', b'{"position":8,"actor"', 1),  # keys out of their sorted order
])
def test_an_event_line_in_any_other_form_is_left_to_the_strict_reader(trail, edit):
    rulesets.load_rulesets()
    line = trail.path.read_bytes().splitlines()[8]  # position 8, R0 of 2D6 showing 3 and 5
    assert b'"faces":[3,5]' in line and b'"annotations":{' in line
    edited = edit(line)
    assert edited != line
    assert _plain_event_entry(9, edited) is None


@pytest.mark.parametrize("edit", [
    lambda line: line.replace(b'"faces":[3,5],"purpose":"injury"', b'"purpose":"injury","faces":[3,5]', 1),  # unsorted
    lambda line: line.replace(b'"value":8', b'"value":90071992547409920', 1),  # a number beyond bounds
    lambda line: line.replace(b'"value":8', b'"banner":"red","value":8', 1),  # a field this version does not know
])
def test_an_event_line_not_written_as_the_store_writes_its_event_is_read_fast_but_checked_on_import(trail, edit):
    rulesets.load_rulesets()
    line = trail.path.read_bytes().splitlines()[8]  # position 8, R0 of 2D6 showing 3 and 5, worth 8
    assert b'"faces":[3,5],"purpose":"injury"' in line and b'"value":8' in line
    edited = edit(line)
    assert edited != line
    entry, notes = _plain_event_entry(9, edited)
    assert not entry.as_stored
    assert (entry, notes) == _event_entry(_line(9, edited))


def test_a_fraction_where_an_event_takes_any_value_is_left_to_the_strict_reader(trail):
    rulesets.load_rulesets()
    line = trail.path.read_bytes().splitlines()[7]  # position 7, the command of R0
    edited = line.replace(b'"args":{"answers":{},', b'"args":{"answers":{},"x":1.5,', 1)
    assert edited != line
    assert _plain_event_entry(8, edited) is None
    with pytest.raises(IntegrityFailure, match=r"^line 8: does not decode: 1\.5 is not an integer"):
        _event_entry(_line(8, edited))


# --- reading a verified chain again -----------------------------------------------------------------
# Each row or line is checked against a keyed digest of the bytes verified at its place, then read by
# the typed decoders alone: it must give the entry the verifying reading gave, whichever reader that was.


def verifying_entries(lines: list[bytes]) -> list:
    return [(_plain_event_entry(n, raw) or _event_entry(_line(n, raw)))[0] for n, raw in enumerate(lines[1:-1], start=2)]


def unknown_if_as_stored(entry: Entry) -> Entry:
    """The entry as the strict reader gives it, which does not look whether it is `as_stored` (and so
    keeps no `hashed` bytes of its record)."""
    return msgspec.structs.replace(entry, as_stored=False, hashed=None)


@pytest.mark.parametrize("spelling", [
    lambda line: line,  # as exported: every line but one read fast the first time
    lambda line: line.replace(b'"tx":', b' "tx" : ', 1) if b'"kind"' not in line else line,  # every event line strictly
])
def test_a_trail_read_again_gives_the_entries_its_verifying_reading_gave(trail, spelling):
    lines = [spelling(line) for line in trail.path.read_bytes().splitlines()]
    trail.path.write_bytes(b"\n".join(lines) + b"\n")
    with trail.path.open("rb") as file:
        chain = read_trail(file, void_annotations)
        assert list(map(unknown_if_as_stored, chain.entries)) == list(map(unknown_if_as_stored, verifying_entries(lines)))
        # Every payload is written as the store writes it; position 22's seed, 0101…, is a run of digits
        # as long as a number beyond bounds, so the checks of its numbers are left to be made.
        assert [e.record.position for e in chain.entries if not e.as_stored] == [22]
        assert [e.record.position for e in chain.entries] == list(range(1, 26))
        assert list(chain.records) == [entry.record for entry in verifying_entries(lines)]  # no body built


def test_a_store_read_again_gives_the_entries_its_verifying_reading_gave(database):
    database.rewrite(8, b'"tx":', b' "tx" : ')  # this row is read strictly
    store = Store(f"sqlite:///{database.path}")
    try:
        chain = verify_store(store, uuid.UUID(CAMPAIGN_ID))
        rows = stored_rows(database.path)
        assert list(chain.entries) == [_stored_entry(row.originator_version, bytes(row.state)) for row in rows]
        assert list(chain.records) == [_stored_entry(row.originator_version, bytes(row.state)).record for row in rows]
        assert _plain_entry(8, bytes(rows[7].state)) is None
    finally:
        store.close()


def test_a_trail_line_changed_after_its_verifying_reading_is_refused_when_read_again(trail):
    lines = trail.path.read_bytes().splitlines()
    with trail.path.open("rb") as file:
        chain = read_trail(file, void_annotations)
        trail.path.write_bytes(b"\n".join([*lines[:8], lines[8].replace(b'"tx":', b' "tx" : ', 1), *lines[9:]]) + b"\n")
        with pytest.raises(IntegrityFailure, match=r"^line 9: changed since it was verified$"):
            list(chain.records)


def test_a_trail_cut_short_after_its_verifying_reading_is_refused_when_read_again(trail):
    lines = trail.path.read_bytes().splitlines()
    with trail.path.open("rb") as file:
        chain = read_trail(file, void_annotations)
        trail.path.write_bytes(b"\n".join(lines[:20]) + b"\n")
        with pytest.raises(IntegrityFailure, match=r"^line 21: gone since it was verified$"):
            list(chain.records)


def test_a_stored_row_changed_after_its_verifying_reading_is_refused_when_read_again(database):
    store = Store(f"sqlite:///{database.path}")
    try:
        chain = verify_store(store, uuid.UUID(CAMPAIGN_ID))
        database.rewrite(8, b'"tx":', b' "tx" : ')  # the same record, other bytes
        with pytest.raises(IntegrityFailure, match=r"^position 8: changed since it was verified$"):
            list(chain.records)
    finally:
        store.close()
