"""Snapshots keep loading flat without changing what is loaded; replay shows any earlier point."""

from __future__ import annotations

import hashlib

import msgspec
import pytest

from commands.shared import AwardXP, BareRoll, EnlistWarband, RecordBattle
from ledger import campaigns
from ledger import events as ev
from ledger import rulesets
from ledger.campaigns import fold
from ledger.fold import standing_battles
from ledger.decide import TableDice
from ledger.errors import BadInput, NotFound
from ledger.state import STATE_SCHEMA, CampaignState


def award(campaign, amount, reason="survived"):
    return campaign.execute(AwardXP(fighter="Gunnar", amount=amount, reason=reason))


def load_afresh(campaign):
    """The campaign as a new process loads it: from the latest snapshot, not from the state the
    ledger that wrote it keeps."""
    return campaigns.Ledger(campaign.ledger.store).load(campaign.id)


def count_records_read(store, monkeypatch):
    """Positions of the records `store.records` hands out from now on."""
    real_records = store.records
    read: list[int] = []

    def records(campaign_id, **bounds):
        for record in real_records(campaign_id, **bounds):
            read.append(record.position)
            yield record

    monkeypatch.setattr(store, "records", records)
    return read


def test_loading_from_a_snapshot_gives_the_state_of_a_full_fold(campaign, reopen, monkeypatch):
    monkeypatch.setattr(campaigns, "SNAPSHOT_INTERVAL", 10)
    for amount in range(1, 13):  # two records each: positions 10 to 33
        award(campaign, amount)
    campaign.execute(BareRoll(expression="D6", purpose="weather"), dice=TableDice([4]))  # 34, 35

    other = reopen()
    assert other.latest_snapshot(campaign.id)[0] == 31
    loaded = campaigns.Ledger(other).load(campaign.id)
    assert loaded == fold(campaign.records()) == campaign.ledger.replay(campaign.id)
    assert (loaded.position, loaded.transactions, loaded.rolls, loaded.fighters["gunnar"].xp) == (35, 16, 1, 78)


def test_load_reads_only_the_records_after_the_latest_snapshot(campaign, store, monkeypatch):
    """With the default interval, 60 awards (positions 10–129) leave a snapshot at 101."""
    for _ in range(60):
        award(campaign, 1)
    read = count_records_read(store, monkeypatch)

    state = load_afresh(campaign)

    assert store.latest_snapshot(campaign.id)[0] == 101
    assert read == list(range(101, 130))  # the record at the snapshot, which shows the stream reaches it, and after
    assert state.fighters["gunnar"].xp == 60


def test_a_snapshot_taken_before_a_void_does_not_leak_the_voided_award(campaign, store, monkeypatch):
    """The void's own snapshot is lost (as when a process dies after its commit): the snapshot
    at 11 still counts T4's 5 XP, and loading must notice and fold without T4."""
    monkeypatch.setattr(campaigns, "SNAPSHOT_INTERVAL", 10)
    award(campaign, 5)  # T4, positions 10–11: snapshot at 11
    award(campaign, 2)  # T5, positions 12–13
    monkeypatch.setattr(store, "save_snapshot", lambda *snapshot: None)
    campaign.ledger.void(campaign.id, "T4", reason="never survived", actor="Ann")  # T6, 14–15

    state = campaign.load()

    assert store.latest_snapshot(campaign.id)[0] == 11
    assert state.fighters["gunnar"].xp == 2
    assert state.voided == {"4": "never survived"}
    assert state == campaign.ledger.replay(campaign.id)


def test_a_void_takes_a_new_snapshot_that_loading_then_uses(campaign, store, monkeypatch):
    monkeypatch.setattr(campaigns, "SNAPSHOT_INTERVAL", 10)
    award(campaign, 5)  # T4, 10–11
    award(campaign, 2)  # T5, 12–13
    campaign.ledger.void(campaign.id, "T4", reason="never survived", actor="Ann")  # T6, 14–15
    read = count_records_read(store, monkeypatch)

    state = load_afresh(campaign)

    assert store.latest_snapshot(campaign.id)[0] == 15
    assert read == [15]  # only the event at the snapshot, to check that the stream does reach it
    assert state.fighters["gunnar"].xp == 2
    assert state == campaign.ledger.replay(campaign.id)


@pytest.mark.parametrize("shape", [
    lambda builtins: {**builtins, "schema": 2},
    lambda builtins: {**builtins, "schema": 6},  # before coreheim kept when a group's Talent! promoted
    lambda builtins: {key: value for key, value in builtins.items() if key != "schema"},  # before it was recorded
], ids=["older schema", "schema 6", "no schema"])
def test_a_snapshot_of_an_older_shape_is_replaced_by_the_load_that_cannot_use_it(campaign, store, monkeypatch, shape):
    """A snapshot taken by an older version of the ledger is not used; the load that folds instead
    snapshots its state, so the next load does not fold everything again."""
    monkeypatch.setattr(campaigns, "SNAPSHOT_INTERVAL", 10)
    current = campaigns.encode_state
    older = lambda state: msgspec.json.encode(shape(msgspec.to_builtins(state)))  # noqa: E731
    monkeypatch.setattr(campaigns, "encode_state", older)
    award(campaign, 5)  # T4, 10–11: a snapshot at 11, of the older shape
    monkeypatch.setattr(campaigns, "encode_state", current)
    award(campaign, 2)  # T5, 12–13
    read = count_records_read(store, monkeypatch)

    state = load_afresh(campaign)

    assert read == list(range(1, 14))
    assert store.latest_snapshot(campaign.id)[0] == 13
    read.clear()
    again = load_afresh(campaign)
    assert read == [13]  # only the event at the snapshot, which shows the stream ends there
    assert again == state == fold(campaign.records())


def test_replay_until_a_position_shows_the_campaign_as_it_stood_then(campaign):
    award(campaign, 3)  # T4, 10–11
    award(campaign, 4)  # T5, 12–13
    campaign.ledger.void(campaign.id, "T4", reason="miscounted", actor="Ann")  # T6, 14–15

    def xp_until(position):
        return campaign.ledger.replay(campaign.id, until=position).fighters["gunnar"].xp

    assert [xp_until(9), xp_until(11), xp_until(13), xp_until(15)] == [0, 3, 7, 4]
    assert campaign.ledger.replay(campaign.id, until=4).warbands == {}
    assert campaign.ledger.replay(campaign.id, until=13) == fold(campaign.ledger.history(campaign.id, upto=13))
    assert campaign.ledger.replay(campaign.id, until=15) == campaign.load()
    with pytest.raises(NotFound, match="^no position 1000: the campaign has 15 events$"):  # as the report says
        campaign.ledger.replay(campaign.id, until=1000)
    with pytest.raises(BadInput, match="^--until takes a position from 1$"):
        campaign.ledger.replay(campaign.id, until=0)


def test_replay_of_a_battle_runs_until_the_next_battle_starts(campaign):
    campaign.execute(EnlistWarband(name="Clan Skrittle", player="Bob"))  # T4, 10–11
    campaign.execute(RecordBattle(participants=["Reikland Rats", "Clan Skrittle"], winner="Clan Skrittle"))  # T5
    award(campaign, 2)  # T6, 14–15
    campaign.execute(RecordBattle(participants=["Reikland Rats", "Clan Skrittle"], winner="Reikland Rats"))  # T7
    award(campaign, 5)  # T8, 18–19

    first = campaign.ledger.history_at(campaign.id, battle=1)
    second = campaign.ledger.history_at(campaign.id, battle=2)

    assert campaign.ledger.replay(campaign.id, battle=1) == fold(first)
    assert (fold(first).position, [b.number for b in standing_battles(first)], fold(first).fighters["gunnar"].xp) == (15, [1], 2)
    assert (fold(second).position, [b.number for b in standing_battles(second)], fold(second).fighters["gunnar"].xp) == (19, [1, 2], 7)
    with pytest.raises(NotFound, match=r"^no battle 3 \(battles: 1, 2\)$"):
        campaign.ledger.replay(campaign.id, battle=3)


def test_a_snapshot_that_keeps_every_battle_is_folded_again_and_replaced(campaign, store, monkeypatch):
    """Before STATE_SCHEMA 6 a snapshot held every battle and no count of them: such a snapshot is
    not used (read as the new shape it would count no battles, and number the next one 1); the
    load that folds instead leaves a snapshot of the new shape, and both give the fold's state."""
    monkeypatch.setattr(campaigns, "SNAPSHOT_INTERVAL", 10)
    campaign.execute(EnlistWarband(name="Clan Skrittle", player="Bob"))  # T4, 10–11: a snapshot at 11
    campaign.execute(RecordBattle(participants=["Reikland Rats", "Clan Skrittle"], winner="Clan Skrittle"))  # T5, 12–13
    campaign.execute(RecordBattle(participants=["Reikland Rats", "Clan Skrittle"], winner="Reikland Rats"))  # T6, 14–15
    older = msgspec.to_builtins(campaign.load())
    del older["battles_fought"], older["latest_battles"]
    older |= {"schema": 5, "battles": msgspec.to_builtins(standing_battles(campaign.records()))}
    store.save_snapshot(campaign.id, 15, msgspec.json.encode(older))  # as the ledger wrote it then
    award(campaign, 2)  # T7, 16–17
    read = count_records_read(store, monkeypatch)

    state = load_afresh(campaign)

    assert read == list(range(1, 18))
    assert store.latest_snapshot(campaign.id) == (17, campaigns.encode_state(state))
    assert state == fold(campaign.records())
    assert (state.battles_fought, [b.number for b in state.latest_battles]) == (2, [2])
    read.clear()
    assert load_afresh(campaign) == state
    assert read == [17]  # only the event at the new snapshot, which shows the stream ends there
    third = campaign.execute(RecordBattle(participants=["Reikland Rats", "Clan Skrittle"]))
    assert [r.event.battle for r in third.records if isinstance(r.event, ev.BattleRecorded)] == [3]


def state_shape_digest() -> str:
    """SHA-256 of the JSON Schema of the state a snapshot holds and of every ruleset's facts (kept in its
    `ext`, typed when read): field names, types and defaults, not the docstrings' words."""

    def shape(node):
        if isinstance(node, dict):
            return {key: shape(value) for key, value in node.items() if key not in ("description", "title")}
        return [shape(value) for value in node] if isinstance(node, list) else node

    facts = []
    for ruleset_id in sorted(rulesets.index()):
        folds = getattr(rulesets.get(ruleset_id).evolve, "__self__", None)
        if getattr(folds, "facts", None) is not None:
            facts.append(folds.facts.facts_type)
    _, components = msgspec.json.schema_components([CampaignState, *facts])
    return hashlib.sha256(msgspec.json.encode(shape(components), order="sorted")).hexdigest()


def test_the_state_changes_shape_only_with_its_schema_number():
    """A field added to the state or to a ruleset's facts (coreheim's rolled prices) without raising
    STATE_SCHEMA let a snapshot of the old shape be read as the new one: loading was right (the field's
    default), but `verify` of a campaign recorded before found its snapshot no longer matched the
    events' fold. Raise STATE_SCHEMA with the shape (a snapshot of another one is then folded again),
    and this digest with it."""
    assert (STATE_SCHEMA, state_shape_digest()) == (
        9, "0bfc7f52c6539378515583b5b540dad491de7884b828cb4d7623a405d134cade")
