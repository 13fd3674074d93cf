"""Damaged stores: flipped bytes, a missing or stale -wal file, a store written by an older
version; each gets a clear message (never a crash, never a silent wrong answer)."""

from __future__ import annotations

import json
from pathlib import Path

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
