"""`campaign export` reads the stored chain once (issue #14): each event is verified as its line is
written, the voids that lines annotate read ahead through the topic index. It writes exactly what
verifying the whole chain and then reading it again wrote, and names the same first failure."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from ledger import audit
from ledger.campaigns import Ledger
from ledger.chain import ChainChecker
from ledger.errors import IntegrityFailure
from ledger.store import Store
from projections.history import void_annotations

GOLDEN = sorted((Path(__file__).parent.parent / "golden").glob("*.jsonl"))


def streamed(store: Store, campaign_id: uuid.UUID) -> list[str]:
    return list(audit.store_trail_lines(store, campaign_id, void_annotations))


@pytest.mark.parametrize("trail", GOLDEN, ids=lambda path: path.stem)
def test_the_streamed_export_of_an_imported_trail_is_the_trail(trail: Path, store_url: str):
    chain = audit.read_trail(trail.read_bytes(), void_annotations)
    ledger = Ledger(Store(store_url))
    try:
        audit.import_chain(ledger, chain)
        campaign_id = uuid.UUID(chain.campaign_id)
        lines = streamed(ledger.store, campaign_id)
        assert lines == list(audit.trail_lines(audit.verify_store(ledger.store, campaign_id), void_annotations))
        # The events and the trailer as they were exported then (headers since then name the decks)
        assert lines[1:] == trail.read_text(encoding="utf-8").splitlines()[1:]
    finally:
        ledger.store.close()


def test_an_edited_void_is_named_as_verify_names_it(played, database):
    database.rewrite(16, b'"reason":"typo in the dice"', b'"reason":"typo in the dice!"')  # T6's transaction.voided
    result = played("export")
    assert (result.exit_code, result.stdout) == (3, "")
    assert result.output == ("Error: nothing exported: the stored chain does not verify: "
                             "position 16: stored hash does not match its record (the event was edited)\n")


def test_an_event_edited_before_an_edited_void_is_named_first(played, database):
    database.rewrite(16, b'"reason":"typo in the dice"', b'"reason":"typo"')
    database.rewrite(8, b'"faces":[3,5]', b'"faces":[3,6]')
    result = played("export")
    assert result.output == ("Error: nothing exported: the stored chain does not verify: "
                             "position 8: stored hash does not match its record (the event was edited)\n")


def test_an_export_to_standard_output_that_fails_at_the_last_event_writes_nothing(played, database):
    database.rewrite(25, b'"purpose":"later"', b'"purpose":"sooner"')  # T10's roll, the last event
    result = played("export")
    assert (result.exit_code, result.stdout) == (3, "")
    assert result.output.endswith("position 25: stored hash does not match its record (the event was edited)\n")


def test_voids_the_index_gives_that_are_not_the_chains_are_refused(played, monkeypatch):
    """Both are read from the same rows up to one position; were a void row rewritten between the
    two readings, a line's annotations would be wrong: the export fails instead."""
    ledger = Ledger(Store(played.url()))
    try:
        campaign_id = ledger.find(None)
        tagged = ledger.store.records_tagged
        monkeypatch.setattr(ledger.store, "records_tagged", lambda *args, **kwargs: tagged(*args, **kwargs)[1:])
        with pytest.raises(IntegrityFailure, match="^the transaction.voided events read through the store's index"):
            streamed(ledger.store, campaign_id)
    finally:
        ledger.store.close()


def test_events_stored_after_the_export_began_are_not_in_it(played, monkeypatch):
    ledger = Ledger(Store(played.url()))
    try:
        campaign_id = ledger.find(None)
        lines = audit.store_trail_lines(ledger.store, campaign_id, void_annotations)
        header = next(lines)
        assert played("note", "while exporting").exit_code == 0  # positions 26-27
        rest = list(lines)
        assert header.startswith('{"campaign":') and '"count":25,' in rest[-1] and len(rest) == 26
    finally:
        ledger.store.close()


def test_a_verified_chain_keeps_the_checkers_digests_without_copying_them(monkeypatch):
    """40 bytes an event (a hash and a read digest): copied at the chain's end, a million events
    would hold 40 MB twice at the peak of an export."""
    finished = []
    finish = ChainChecker.finish

    def kept(checker, *args, **kwargs):
        chain = finish(checker, *args, **kwargs)
        finished.append((checker, chain))
        return chain

    monkeypatch.setattr(ChainChecker, "finish", kept)
    chain = audit.read_trail(GOLDEN[0].read_bytes(), void_annotations)
    [(checker, finished_chain)] = finished
    assert finished_chain is chain
    assert chain.digests.obj is checker.digests and chain.read_digests.obj is checker.read_digests
    assert chain.digests.readonly and chain.read_digests.readonly
    assert len(chain.digests) == 32 * chain.count and chain.digest(chain.count).hex() == chain.head


def test_the_streamed_export_keeps_nothing_to_read_its_events_again_by(store_url: str, monkeypatch):
    """An export writes each event once as it verifies: its chain keeps no hash or read digest of
    each event (40 bytes an event, which verify keeps to read the chain again), so its peak does not
    grow by them, and it refuses to be read again rather than call every event changed."""
    chain = audit.read_trail(GOLDEN[0].read_bytes(), void_annotations)
    ledger = Ledger(Store(store_url))
    finished = []
    finish = ChainChecker.finish
    monkeypatch.setattr(ChainChecker, "finish", lambda self, *args: finished.append(finish(self, *args)) or finished[-1])
    try:
        audit.import_chain(ledger, chain)
        campaign_id = uuid.UUID(chain.campaign_id)
        streamed(ledger.store, campaign_id)
        exported = finished[-1]
        assert (exported.count, len(exported.digests), len(exported.read_digests)) == (chain.count, 0, 0)
        with pytest.raises(RuntimeError, match="verified to be read once"):
            list(exported.records)
        verified = audit.verify_store(ledger.store, campaign_id)
        assert len(verified.read_digests) == 8 * chain.count and len(list(verified.records)) == chain.count
    finally:
        ledger.store.close()
