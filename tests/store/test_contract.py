"""What every store backend must do: the same tests on memory://, SQLite and PostgreSQL."""

from __future__ import annotations

import hashlib
import uuid

import msgspec
import pytest

from commands.shared import AwardXP, BareRoll, EnlistWarband
from ledger import events as ev
from ledger.decide import TableDice
from ledger.errors import Conflict, IntegrityFailure, NotFound, RuleViolation
from ledger.records import GENESIS, seal
from ledger.store import PAGE, Item, decode_record


def test_records_read_back_equal_to_the_committed_ones_from_another_connection(campaign, reopen):
    written = [*campaign.ledger.store.records(campaign.id)]
    award = campaign.execute(AwardXP(fighter="Gunnar", amount=3, reason="survived"))
    roll = campaign.execute(BareRoll(expression="2D6", purpose="weather"), dice=TableDice([3, 5]))
    written += award.records + roll.records

    assert list(reopen().records(campaign.id)) == written
    assert [r.event for r in written[-2:]] == [
        ev.CommandRecorded(command="roll", args={"answers": {}, "expression": "2D6", "purpose": "weather"}),
        ev.DiceRolled(roll=0, expression="2D6", purpose="weather", faces=[3, 5], value=8, source="table"),
    ]


def test_positions_are_contiguous_and_each_record_chains_to_the_one_before(campaign):
    campaign.execute(AwardXP(fighter="Gunnar", amount=3, reason="survived"))
    records = campaign.records()

    assert [r.position for r in records] == list(range(1, 12))
    assert [r.tx for r in records] == [1, 1, 1, 1, 2, 2, 3, 3, 3, 4, 4]
    assert [r.prev_hash for r in records] == [GENESIS] + [r.hash for r in records[:-1]]
    assert campaign.load().head == records[-1].hash


def test_reading_from_a_position_returns_only_what_follows_it(campaign, store):
    assert [r.position for r in store.records(campaign.id, after=6)] == [7, 8, 9]
    assert [r.position for r in store.records(campaign.id, after=2, upto=5)] == [3, 4, 5]


def _rivals_event_past_the_gap_check(store, campaign_id, record):
    """A rival's event stored by the library's own put: the store's append refuses to leave a gap
    (test_events_that_do_not_follow_the_last_one_stored_are_refused_and_nothing_is_stored)."""
    store.app.events.put([Item(campaign_id, record.position, ev.tag_of(record.event), record)])


def test_a_transaction_is_stored_whole_or_not_at_all(campaign, store):
    """Another writer took position 11 only: a transaction at 10–12 must not leave 10 or 12 behind."""
    head = campaign.records()[-1]
    transaction = seal(
        [
            ev.CommandRecorded(command="xp.award", args={"fighter": "gunnar", "amount": 1, "reason": "x"}),
            ev.XPAwarded(warband="reikland-rats", fighter="gunnar", amount=1, reason="x"),
            ev.NoteRecorded(text="third event of the transaction"),
        ],
        first_position=10,
        prev_hash=head.hash,
        tx=4,
        actor="Ann",
        recorded_at="2026-11-29T12:00:00.000000Z",
    )
    _rivals_event_past_the_gap_check(store, campaign.id, transaction[1])

    with pytest.raises(Conflict, match="another command was recorded in this campaign at the same time"):
        store.append(campaign.id, transaction)

    # The raw rows: reading records would refuse the gap the rival's event left at 10.
    assert [r.originator_version for r in store.raw_rows(campaign.id)] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 11]


def test_events_that_do_not_follow_the_last_one_stored_are_refused_and_nothing_is_stored(campaign, store):
    """The store holds 9 events: a writer who believed it held 10 (an older copy of the file put
    back under it, say) gets a conflict, never a gap at 10."""
    after_ten = seal([ev.NoteRecorded(text="decided after 10")], first_position=11, prev_hash="a" * 64, tx=5,
                     actor="Ann", recorded_at="2026-11-29T12:00:00.000000Z")

    with pytest.raises(Conflict, match="^the campaign holds fewer events than the 10 this was decided after; try again$"):
        store.append(campaign.id, after_ten)

    assert [r.originator_version for r in store.raw_rows(campaign.id)] == list(range(1, 10))


def _notes(count: int, first_position: int, prev_hash: str) -> list:
    return seal([ev.NoteRecorded(text=f"note {n}") for n in range(count)], first_position=first_position,
                prev_hash=prev_hash, tx=4, actor="Ann", recorded_at="2026-11-29T12:00:00.000000Z")


def test_a_history_longer_than_a_page_is_stored_whole_or_not_at_all(campaign, store):
    """An imported history is written a page at a time, but in one database transaction: a rival's
    event in its last page must not leave the pages before it behind."""
    history = _notes(PAGE + 2, 10, campaign.records()[-1].hash)
    _rivals_event_past_the_gap_check(store, campaign.id, history[-1])

    with pytest.raises(Conflict, match="another command was recorded in this campaign at the same time"):
        store.append(campaign.id, history)

    assert [r.originator_version for r in store.raw_rows(campaign.id)] == [*range(1, 10), history[-1].position]


def test_a_history_longer_than_a_page_reads_back_as_written(store):
    campaign_id = uuid.uuid4()
    history = _notes(2 * PAGE + 1, 1, GENESIS)

    store.append(campaign_id, history)

    assert list(store.records(campaign_id)) == history


def test_the_stored_topic_is_the_event_tag_and_the_bytes_decode_by_it(campaign, store):
    campaign.execute(AwardXP(fighter="Gunnar", amount=3, reason="survived"))
    rows = list(store.raw_rows(campaign.id))

    assert [row.topic for row in rows] == [
        "command.recorded", "campaign.started", "ruleset.pinned", "seed.committed",
        "command.recorded", "warband.enlisted",
        "command.recorded", "fighter.recruited", "treasury.changed",
        "command.recorded", "xp.awarded",
    ]  # fmt: skip
    award = msgspec.json.decode(rows[-1].state)["event"]
    # Whether fields left at their default are stored is the event vocabulary's business, not the store's.
    assert {key: award[key] for key in ("type", "warband", "fighter", "amount", "reason")} == {
        "type": "xp.awarded", "warband": "reikland-rats", "fighter": "gunnar", "amount": 3, "reason": "survived",
    }  # fmt: skip
    assert [decode_record(row.state) for row in rows] == campaign.records()


def test_a_stored_event_with_a_field_this_version_does_not_know_still_decodes(campaign, store):
    """Events written by newer code (an added field) must stay readable: no forbid_unknown_fields."""
    stored = msgspec.json.decode(list(store.raw_rows(campaign.id))[5].state)
    stored["event"]["motto"] = "Death before dishonour"

    record = decode_record(msgspec.json.encode(stored))

    assert record.event == ev.WarbandEnlisted(warband="reikland-rats", name="Reikland Rats", player="Ann", treasury=100)


def secret_seed(store, campaign_id, epoch: int) -> str | None:
    """The seed as its keeper reads it: the key file or memory, or (a league server, whose store
    never hands a seed out) the dice table, read here with the test server's superuser."""
    if store.dealer is None:
        return store.seed(campaign_id, epoch)
    assert store.seed(campaign_id, epoch) is None
    rows = store.dealer._connection().execute(
        "SELECT encode(seed, 'hex') FROM ledger_dice_seeds WHERE campaign_id = %s AND epoch = %s",
        (str(campaign_id), epoch)).fetchall()
    return rows[0][0] if rows else None


def test_the_dice_seed_is_kept_outside_the_stream_until_it_is_revealed(campaign, store):
    seed_0 = secret_seed(store, campaign.id, 0)
    committed = campaign.records()[3].event

    assert len(seed_0) == 64
    assert committed == ev.SeedCommitted(epoch=0, commitment=hashlib.sha256(bytes.fromhex(seed_0)).hexdigest())
    assert all(seed_0.encode() not in row.state for row in store.raw_rows(campaign.id))

    revealed = campaign.ledger.reveal_seed(campaign.id, actor="Ann")
    seed_1 = secret_seed(store, campaign.id, 1)

    assert [r.event for r in revealed.records[1:]] == [
        ev.SeedRevealed(epoch=0, seed=seed_0),
        ev.SeedCommitted(epoch=1, commitment=hashlib.sha256(bytes.fromhex(seed_1)).hexdigest()),
    ]
    assert all(seed_1.encode() not in row.state for row in store.raw_rows(campaign.id))
    assert secret_seed(store, campaign.id, 2) is None


def test_an_epoch_seed_is_stored_once(campaign, store):
    if store.dealer is not None:
        with pytest.raises(RuleViolation, match="drawn inside its database, never handed in"):
            store.save_seed(campaign.id, 0, "00" * 32)
        return
    with pytest.raises(IntegrityFailure, match="a seed for epoch 0 is already stored"):
        store.save_seed(campaign.id, 0, "00" * 32)


def test_the_store_lists_its_campaigns_in_the_order_they_were_started(ledger, reopen):
    first = ledger.start("Mordheim League", "freeform", {}, actor="Ann")
    second = ledger.start("Trench Winter", "freeform", {}, actor="Bob")

    assert [str(cid) for cid in reopen().campaign_ids()] == [first.state.campaign_id, second.state.campaign_id]
    assert [state.name for state in ledger.campaigns()] == ["Mordheim League", "Trench Winter"]
    assert [r.position for r in second.records] == [1, 2, 3, 4]
    assert str(ledger.find("trench winter")) == second.state.campaign_id


def test_a_campaign_is_found_by_name_or_id_without_loading_any_campaign(ledger, monkeypatch):
    first = uuid.UUID(ledger.start("Mordheim League", "freeform", {}, actor="Ann").state.campaign_id)
    second = uuid.UUID(ledger.start("Trench Winter", "freeform", {}, actor="Bob").state.campaign_id)

    def no_load(*args, **kwargs):
        raise AssertionError("find loaded a campaign")

    monkeypatch.setattr(ledger, "load", no_load)
    assert list(ledger.store.campaign_names()) == [(first, "Mordheim League"), (second, "Trench Winter")]
    assert (ledger.find("TRENCH WINTER"), ledger.find(str(first).upper())) == (second, first)
    with pytest.raises(NotFound, match="no campaign 'Nope'"):
        ledger.find("Nope")


def test_each_campaign_has_its_own_stream(ledger, campaign):
    other = uuid.UUID(ledger.start("Second League", "freeform", {}, actor="Bob").state.campaign_id)
    ledger.execute(other, EnlistWarband(name="Clan Skrittle", player="Bob", treasury=300), actor="Bob")

    assert [r.position for r in ledger.history(other)] == [1, 2, 3, 4, 5, 6]
    assert list(ledger.load(other).warbands) == ["clan-skrittle"]
    assert [r.position for r in campaign.records()] == [1, 2, 3, 4, 5, 6, 7, 8, 9]
    assert list(campaign.load().warbands) == ["reikland-rats"]


def _topic_index(store) -> list[str]:
    """The names of the events table's topic index, as the database lists it."""
    recorder = store.app.recorder
    index = f"{recorder.events_table_name}_topic_idx"
    with store.sql() as cursor:
        if store.kind == "sqlite":
            cursor.execute("SELECT name FROM sqlite_master WHERE type = 'index' AND name = ?", (index,))
        else:
            cursor.execute("SELECT indexname FROM pg_indexes WHERE schemaname = %s AND indexname = %s",
                           (recorder.datastore.schema, index))
        return [tuple(row.values())[0] if isinstance(row, dict) else row[0] for row in cursor.fetchall()]


def test_a_store_made_before_the_topic_index_gets_it_when_opened(ledger, store, reopen):
    """campaign_ids reads the campaign.started rows through an index, not a scan of every event."""
    if store.kind == "popo":
        pytest.skip("memory:// keeps no SQL tables")
    first = ledger.start("Mordheim League", "freeform", {}, actor="Ann")
    [index] = _topic_index(store)
    schema = f'"{store.app.recorder.datastore.schema}".' if store.kind == "postgres" else ""
    with store.sql() as cursor:
        cursor.execute(f"DROP INDEX {schema}{index}")
    assert _topic_index(store) == []

    again = reopen()

    assert _topic_index(again) == [index]
    assert [str(cid) for cid in again.campaign_ids()] == [first.state.campaign_id]
