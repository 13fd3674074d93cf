"""Export, verify (a store or a trail) and import show a progress bar on standard error over a
campaign long enough to wait for (5,000 events), as rebuild does: a terminal sees it move, a
pipe its label once. Every reading of the chain reports how far it got."""

from __future__ import annotations

import contextlib

import pytest

from ledger import audit, chain
from ledger.beside import Beside
from ledger.cli import app
from ledger.cli import audit as cli_audit
from projections.history import void_annotations


@pytest.mark.parametrize("threshold, shown", [(25, True), (26, False)])  # the played campaign holds 25 events
def test_export_and_verify_of_a_long_campaign_show_their_progress(played, monkeypatch, threshold, shown):
    monkeypatch.setattr(app, "PROGRESS_EVENTS", threshold)
    path = played.folder / "trail.jsonl"
    exported, verified = played("export", "-o", str(path)), played("verify")
    verified_file = played("verify", str(path))
    assert [r.exit_code for r in (exported, verified, verified_file)] == [0, 0, 0]
    assert [r.stderr for r in (exported, verified, verified_file)] == (
        ["Exporting\n", "Verifying\n", "Verifying\n"] if shown else ["", "", ""])


@pytest.mark.parametrize("beside", [True, False])
def test_an_import_counts_the_three_readings_of_its_trail(played, monkeypatch, beside):
    """Verified, re-decided (beside the storing, or first, where no process can be had), and stored
    with its read-model rows: the bar ends where it was told it would."""
    path = played.folder / "trail.jsonl"
    assert played("export", "-o", str(path)).exit_code == 0
    told: dict[str, int] = {}

    @contextlib.contextmanager
    def counted(_label: str, events: int):
        told.update(total=events, done=0)
        yield lambda done: told.update(done=told["done"] + done)

    monkeypatch.setattr(cli_audit, "progress", counted)
    if not beside:
        monkeypatch.setattr(Beside, "started", lambda *_args, **_kw: None)
    result = played("import", str(path), store="copy.db")
    assert result.exit_code == 0, result.output
    assert told == {"total": 3 * 25, "done": 3 * 25}


def test_each_reading_of_a_trail_reports_every_step_of_events(played, monkeypatch):
    path = played.folder / "trail.jsonl"
    assert played("export", "-o", str(path)).exit_code == 0
    monkeypatch.setattr(chain, "PROGRESS_STEP", 10)
    told: list[int] = []
    with open(path, "rb") as trail:
        verified = audit.read_trail(trail, void_annotations, told.append)
        assert told == [10, 10, 5]  # 25 events: two steps of ten in the verifying reading, then the rest
        assert len(list(verified.records)) == 25
    assert told == [10, 10, 5, 10, 10, 5]  # and as many reading it again
