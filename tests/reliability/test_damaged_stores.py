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
