"""CLI tests run the real `campaign` command on a SQLite file, with a fixed clock and dice seed so
that hashes, and therefore whole outputs, are exact."""

from __future__ import annotations

import pytest

from ledger.testing import CampaignRunner


@pytest.fixture
def campaign(tmp_path) -> CampaignRunner:
    """`campaign(*args)` runs `campaign --store <tmp db> *args` and returns the click Result;
    `campaign.store` is the store's URL."""
    return CampaignRunner("sqlite:///" + str(tmp_path / "campaign.db"))


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
