"""A store on each backend (see tests/conftest.py), a ledger on it, and a small freeform campaign."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest

from commands.shared import EnlistWarband, RecruitFighter
from ledger.campaigns import Ledger
from ledger.store import Store


@pytest.fixture
def store(store_url) -> Iterator[Store]:
    opened = Store(store_url)
    yield opened
    opened.close()


@pytest.fixture
def reopen(store, store_url) -> Iterator[Callable[[], Store]]:
    """Another connection to the same database, as a second process would open it.

    memory:// lives inside one Store object, so there the 'other connection' is the store itself.
    """
    opened: list[Store] = []

    def open_again() -> Store:
        if store.kind == "popo":
            return store
        another = Store(store_url)
        opened.append(another)
        return another

    yield open_again
    for another in opened:
        another.close()


@pytest.fixture
def ledger(store, clock) -> Ledger:
    return Ledger(store, clock=clock)


@dataclass
class Campaign:
    ledger: Ledger
    id: uuid.UUID

    def execute(self, command, **options):
        return self.ledger.execute(self.id, command, actor=options.pop("actor", "Ann"), **options)

    def load(self):
        return self.ledger.load(self.id)

    def records(self):
        return self.ledger.history(self.id)


@pytest.fixture
def campaign(ledger) -> Campaign:
    """A freeform campaign (T1) with the warband Reikland Rats (T2) and its leader Gunnar, 0 XP (T3)."""
    started = ledger.start("Test League", "freeform", {}, actor="Ann")
    league = Campaign(ledger, uuid.UUID(started.state.campaign_id))
    league.execute(EnlistWarband(name="Reikland Rats", player="Ann", treasury=100))
    league.execute(RecruitFighter(warband="Reikland Rats", name="Gunnar", role="leader", cost=40))
    return league
