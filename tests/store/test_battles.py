"""Every battle that stands, which the state no longer keeps (only each warband's latest): read
from the battle and void records alone, exactly as the whole history gives them, on every backend."""

from __future__ import annotations

import uuid

import pytest

from commands.shared import EnlistWarband, RecordBattle
from ledger import events as ev
from ledger.errors import IntegrityFailure
from ledger.fold import standing_battles
from .conftest import Campaign

RATS_AND_SKRITTLE = ["Reikland Rats", "Clan Skrittle"]


def test_the_battles_are_the_historys_own_without_the_voided_ones(campaign, ledger):
    gunnar = ev.Deed(fighter="gunnar", glorious_deeds=["held the bridge"])
    campaign.execute(EnlistWarband(name="Clan Skrittle", player="Bob"))  # T4
    campaign.execute(RecordBattle(participants=RATS_AND_SKRITTLE, winner="Reikland Rats", deeds=[gunnar]))  # T5
    campaign.execute(RecordBattle(participants=RATS_AND_SKRITTLE))  # T6
    campaign.ledger.void(campaign.id, "T6", reason="wrong table", actor="Ann")  # T7
    campaign.execute(RecordBattle(participants=RATS_AND_SKRITTLE[::-1], winner="Clan Skrittle", scenario="Skirmish"))  # T8
    other = Campaign(ledger, uuid.UUID(ledger.start("Other League", "freeform", {}, actor="Bob").state.campaign_id))
    other.execute(EnlistWarband(name="Orcs", player="Cy"))
    other.execute(RecordBattle(participants=["Orcs"]))  # not a battle of the first campaign
    state = campaign.load()

    battles = ledger.battles(campaign.id, state)

    assert battles == standing_battles(campaign.records())
    assert [(b.number, b.tx, b.participants, b.winner, b.scenario, b.deeds) for b in battles] == [
        (1, 5, ["reikland-rats", "clan-skrittle"], "reikland-rats", "", [gunnar]),
        (2, 8, ["clan-skrittle", "reikland-rats"], "clan-skrittle", "Skirmish", []),
    ]
    assert (state.battles_fought, state.latest_battles) == (2, battles[1:])  # battle 1 is nobody's latest now
    assert state.position == 19  # T4 10–11, T5 12–13, T6 14–15, T7 16–17, T8 18–19
    as_it_stood = [(b.number, b.tx) for b in ledger.battles(campaign.id, ledger.replay(campaign.id, until=15))]
    assert as_it_stood == [(1, 5), (2, 6)]  # before T6 was voided
    assert [b.number for b in ledger.battles(other.id, other.load())] == [1]


def test_a_battle_the_store_no_longer_gives_is_an_integrity_failure(campaign, ledger, store, monkeypatch):
    campaign.execute(EnlistWarband(name="Clan Skrittle", player="Bob"))
    campaign.execute(RecordBattle(participants=RATS_AND_SKRITTLE))
    records_tagged = store.records_tagged
    monkeypatch.setattr(store, "records_tagged", lambda *args, **bounds: records_tagged(*args, **bounds)[:-1])

    with pytest.raises(IntegrityFailure, match="^the store holds 0 battles where its events count 1; "):
        ledger.battles(campaign.id, campaign.load())
