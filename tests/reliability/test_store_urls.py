"""A --store value the ledger cannot read is bad input (exit 2) naming what is wrong with it, never a
traceback, and no store is opened or created."""

from __future__ import annotations

import pytest

from ledger.testing import CampaignRunner

NOT_A_URL = "is not a URL (Invalid IPv6 URL): use sqlite:///PATH, postgresql://USER@HOST:PORT/DB or memory://"


@pytest.mark.parametrize("command", [["list"], ["new", "Spring"], ["import", "trail.jsonl"]])
@pytest.mark.parametrize("url, shown", [
    ("postgresql://postgres@[::1", "postgresql://postgres@[::1"),
    ("postgresql://postgres@[::1/league", "postgresql://postgres@[::1/league"),
    ("postgresql://ann:s3cr:et@[::1/league", "postgresql://ann:***@[::1/league"),  # the password is never shown
    ("sqlite://[::1/campaign.db", "sqlite://[::1/campaign.db"),
], ids=["unclosed IPv6 host", "… with a database", "… with a password", "sqlite"])
def test_a_url_that_does_not_parse_is_named(tmp_path, monkeypatch, command, url, shown):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "trail.jsonl").write_bytes(b"")
    result = CampaignRunner(url)(*command)
    assert (result.exit_code, result.output) == (2, f"Error: store '{shown}' {NOT_A_URL}\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["trail.jsonl"]
