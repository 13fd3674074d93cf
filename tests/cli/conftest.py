"""CLI tests run the real `campaign` command on a SQLite file, with a fixed clock and dice seed so
that hashes, and therefore whole outputs, are exact."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from click.testing import CliRunner, Result

from ledger import campaigns, dice
from ledger.cli import main

FIXED_SEED = bytes(range(32))


@pytest.fixture
def campaign(tmp_path, monkeypatch) -> Callable[..., Result]:
    """`campaign(*args)` runs `campaign --store <tmp db> *args` and returns the click Result."""
    monkeypatch.setattr(campaigns, "utc_now", lambda: "2026-11-29T12:00:00.000000Z")
    monkeypatch.setattr(dice, "new_seed", lambda: FIXED_SEED)
    monkeypatch.delenv("CAMPAIGN_STORE", raising=False)
    monkeypatch.delenv("CAMPAIGN_ACTOR", raising=False)
    monkeypatch.delenv("CAMPAIGN_NAME", raising=False)
    store = "sqlite:///" + str(tmp_path / "campaign.db")
    runner = CliRunner()

    def run(*args: str, input: str | None = None) -> Result:
        return runner.invoke(main, ["--store", store, *args], input=input, catch_exceptions=False)

    run.store = store  # type: ignore[attr-defined]
    return run


@pytest.fixture
def two_warbands(campaign):
    """A freeform campaign with two warbands and a leader each."""
    for args in (
        ["new", "Test League"],
        ["warband", "add", "Reikland Rats", "--player", "Ann", "--treasury", "500"],
        ["warband", "add", "Clan Skrittle", "--player", "Bob", "--treasury", "300"],
        ["fighter", "add", "Reikland Rats", "Gunnar", "--role", "leader", "--stat", "WS=4", "--cost", "60"],
        ["fighter", "add", "Clan Skrittle", "Snikch", "--role", "leader", "--cost", "90"],
    ):
        assert campaign(*args).exit_code == 0
    return campaign
