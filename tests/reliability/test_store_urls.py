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


QUERY_NOT_TAKEN = "a store URL takes no query or fragment (in a file name or a password, write ? as %3F and # as %23)"


def test_a_query_is_refused_not_dropped(league, db_path, store_bytes):
    """`?mode=ro` was dropped without a word, and the award written."""
    before = store_bytes()
    result = CampaignRunner(f"sqlite:///{db_path}?mode=ro")("xp", "award", "Gunnar", "1", "--reason", "test")
    assert (result.exit_code, result.output) == (2, f"Error: store 'sqlite:///{db_path}' is followed by ?…: {QUERY_NOT_TAKEN}\n")
    assert store_bytes() == before


@pytest.mark.parametrize("url, shown", [
    ("sqlite:///campaign.db#spring", "store 'sqlite:///campaign.db' is followed by #…"),
    ("sqlite:///campaign.db?mode=ro#x", "store 'sqlite:///campaign.db' is followed by ?…"),
    ("memory://?cache=shared", "store 'memory://' is followed by ?…"),
    # The ledger reads no libpq parameters: TLS asked for and silently not used would be worse.
    ("postgresql://ann@db.example:5432/league?sslmode=require", "store 'postgresql://ann@db.example:5432/league' is followed by ?…"),
    # Never shown: a password, in the URL or in the query, nor one cut short by a '#' it holds.
    ("postgresql://ann:s3cret@db.example/league?password=s3cret", "store 'postgresql://ann:***@db.example/league' is followed by ?…"),
    ("postgresql://ann:s3#cret@db.example/league", "store 'postgresql://…' is followed by #…"),
], ids=["fragment", "query and fragment", "memory", "libpq parameter", "password", "password holding #"])
def test_a_query_or_fragment_is_refused_in_every_kind_of_store_url(tmp_path, monkeypatch, url, shown):
    monkeypatch.chdir(tmp_path)
    result = CampaignRunner(url)("new", "Spring")
    assert (result.exit_code, result.output) == (2, f"Error: {shown}: {QUERY_NOT_TAKEN}\n")
    assert list(tmp_path.iterdir()) == []


def test_a_file_name_holding_a_question_mark_is_written_percent_encoded(tmp_path):
    result = CampaignRunner(f"sqlite:///{tmp_path}/who%3F.db")("new", "Spring")
    assert result.exit_code == 0, result.output
    assert [p.name for p in tmp_path.iterdir()] == ["who?.db"]
