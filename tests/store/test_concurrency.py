"""Optimistic concurrency: two writers on one campaign never lose or double an event; on
PostgreSQL they take turns, so that they seldom need to decide again."""

from __future__ import annotations

import contextlib
import sqlite3
import threading
import time
import uuid
from collections.abc import Callable
from typing import Any

import pytest

from commands.shared import AwardXP, SpendXP
from ledger import campaigns as ledger_campaigns
from ledger import events as ev
from ledger.campaigns import Ledger
from ledger.errors import Conflict, RuleViolation
from ledger.store import CURRENT_ID, CURRENT_TOPIC, RETRIES, Item, Store


def interleave_before_first_append(store, monkeypatch, rival_command):
    """Make `store`'s next append wait until `rival_command()` has committed, as if another
    writer had got in between this writer's load and its commit. Returns the positions that
    first append tried. The writer does not take its turn (Store.writing): as one whose wait for it
    ran out, it decides while the rival may too."""
    monkeypatch.setattr(store, "writing", lambda campaign_id: contextlib.nullcontext())
    real_append = store.append
    first_attempt = []

    def append(campaign_id, records, **options):
        # Only the first append is interleaved (memory:// rivals share this store object).
        monkeypatch.setattr(store, "append", real_append)
        first_attempt.extend(r.position for r in records)
        rival_command()
        real_append(campaign_id, records, **options)

    monkeypatch.setattr(store, "append", append)
    return first_attempt


def xp_events(records):
    return [(r.position, r.event.amount) for r in records if isinstance(r.event, ev.XPAwarded)]


def test_a_commit_that_lost_the_race_is_decided_again_on_the_new_state(campaign, reopen, clock, monkeypatch):
    mine, rival = campaign.ledger, Ledger(reopen(), clock=clock)
    award_5 = AwardXP(fighter="Gunnar", amount=5, reason="rival's award")
    first_attempt = interleave_before_first_append(
        mine.store, monkeypatch, lambda: rival.execute(campaign.id, award_5, actor="Bob")
    )

    outcome = mine.execute(campaign.id, AwardXP(fighter="Gunnar", amount=3, reason="my award"), actor="Ann")

    assert first_attempt == [10, 11]
    assert [r.position for r in outcome.records] == [12, 13]
    assert outcome.state.fighters["gunnar"].xp == 8
    records = campaign.records()
    assert [r.position for r in records] == list(range(1, 14))
    assert xp_events(records) == [(11, 5), (13, 3)]
    assert [r.actor for r in records[-4:]] == ["Bob", "Bob", "Ann", "Ann"]
    assert campaign.load().fighters["gunnar"].xp == 8


def test_the_second_decision_follows_the_rules_on_the_new_state(campaign, reopen, clock, monkeypatch):
    """Both spend Gunnar's 5 XP; the rival commits first, so mine is refused, not stored on top."""
    campaign.execute(AwardXP(fighter="Gunnar", amount=5, reason="survived"))
    mine, rival = campaign.ledger, Ledger(reopen(), clock=clock)
    spend = SpendXP(fighter="Gunnar", amount=5, on="+1 WS")
    interleave_before_first_append(mine.store, monkeypatch, lambda: rival.execute(campaign.id, spend, actor="Bob"))

    with pytest.raises(RuleViolation, match=r"^Gunnar has 0 XP; \+1 WS costs 5 XP$"):
        mine.execute(campaign.id, spend, actor="Ann")

    spent = [r for r in campaign.records() if isinstance(r.event, ev.XPSpent)]
    assert [(r.position, r.actor) for r in spent] == [(13, "Bob")]
    assert campaign.load().fighters["gunnar"].xp == 0


def test_a_writer_decides_on_what_it_last_knew_and_again_on_what_another_process_committed_since(
        campaign, reopen, clock, monkeypatch):
    """A long-lived ledger decides unread on the state of its own last commit; the rival's commit
    in between makes that decision's commit fail, and it is decided again on a load."""
    monkeypatch.setattr("ledger.store.RETRY_PAUSE", 0)
    mine, rival = campaign.ledger, Ledger(reopen(), clock=clock)
    rival.execute(campaign.id, AwardXP(fighter="Gunnar", amount=5, reason="rival's award"), actor="Bob")

    outcome = mine.execute(campaign.id, AwardXP(fighter="Gunnar", amount=3, reason="my award"), actor="Ann")

    assert [r.position for r in outcome.records] == [12, 13]
    assert xp_events(campaign.records()) == [(11, 5), (13, 3)]
    assert mine.load(campaign.id).fighters["gunnar"].xp == 8


def test_a_refusal_decided_on_an_old_state_is_decided_again_on_the_stored_one(campaign, reopen, clock):
    """Mine last knew Gunnar with 0 XP; the rival has awarded him 5 since: spending them is not refused."""
    mine, rival = campaign.ledger, Ledger(reopen(), clock=clock)
    rival.execute(campaign.id, AwardXP(fighter="Gunnar", amount=5, reason="rival's award"), actor="Bob")

    mine.execute(campaign.id, SpendXP(fighter="Gunnar", amount=5, on="+1 WS"), actor="Ann")

    assert [(r.position, r.actor) for r in campaign.records() if isinstance(r.event, ev.XPSpent)] == [(13, "Ann")]
    assert campaign.load().fighters["gunnar"].xp == 0


def test_a_refusal_on_the_latest_state_is_decided_once(campaign, monkeypatch):
    decisions = []
    real_decide = ledger_campaigns.decide
    monkeypatch.setattr(ledger_campaigns, "decide", lambda *a, **k: decisions.append(1) or real_decide(*a, **k))

    with pytest.raises(RuleViolation, match=r"^Gunnar has 0 XP; \+1 WS costs 5 XP$"):
        campaign.execute(SpendXP(fighter="Gunnar", amount=5, on="+1 WS"))

    assert len(decisions) == 1


@pytest.mark.parametrize("store_url", ["sqlite"], indirect=True)
def test_a_writer_that_knew_more_events_than_the_file_holds_leaves_no_gap(campaign, store, monkeypatch):
    """The file loses its last transaction under a running ledger (an older copy put back): the
    ledger's next command conflicts instead of being stored after the missing events, and is
    decided again on what the file holds."""
    monkeypatch.setattr("ledger.store.RETRY_PAUSE", 0)
    campaign.execute(AwardXP(fighter="Gunnar", amount=5, reason="lost with the copy"))
    with sqlite3.connect(store._sqlite_path) as db:
        db.execute("DELETE FROM stored_events WHERE originator_id = ? AND originator_version > 9", (campaign.id.hex,))

    outcome = campaign.execute(AwardXP(fighter="Gunnar", amount=3, reason="after the copy"))

    records = campaign.records()
    assert [r.position for r in outcome.records] == [10, 11]
    assert [r.position for r in records] == list(range(1, 12))
    assert xp_events(records) == [(11, 3)]
    assert campaign.ledger.check(campaign.id) == (3, [])


def test_a_writer_that_keeps_losing_gives_up_with_a_conflict_and_writes_nothing(campaign, monkeypatch):
    def always_taken(campaign_id, records, **_options):
        raise Conflict("another command was recorded in this campaign at the same time")

    monkeypatch.setattr(campaign.ledger.store, "append", always_taken)

    with pytest.raises(Conflict, match="^the campaign kept changing while recording xp.award; try again$"):
        campaign.execute(AwardXP(fighter="Gunnar", amount=3, reason="x"))
    monkeypatch.undo()

    assert campaign.records()[-1].position == 9


def test_writers_in_two_threads_lose_and_double_nothing(campaign, reopen, clock):
    """Each thread has its own connection; an award is either stored once or refused with Conflict."""
    ledgers = [campaign.ledger, Ledger(reopen(), clock=clock)]
    stored: list[int] = []
    refused: list[int] = []
    failures: list[BaseException] = []
    start = threading.Barrier(len(ledgers))

    def award_many(ledger: Ledger, first_amount: int) -> None:
        start.wait()
        for amount in range(first_amount, first_amount + 15):
            try:
                ledger.execute(campaign.id, AwardXP(fighter="Gunnar", amount=amount, reason="race"), actor="x")
                stored.append(amount)
            except Conflict:
                refused.append(amount)
            except BaseException as error:  # reported below: a thread's exception would be lost
                failures.append(error)

    threads = [threading.Thread(target=award_many, args=(ledger, 100 * (n + 1))) for n, ledger in enumerate(ledgers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert failures == []
    assert len(stored) + len(refused) == 30
    records = campaign.records()
    assert [r.position for r in records] == list(range(1, len(records) + 1))
    assert sorted(amount for _, amount in xp_events(records)) == sorted(stored)
    assert campaign.load().fighters["gunnar"].xp == sum(stored)
    assert campaign.ledger.check(campaign.id) == (2 + len(stored), [])


@pytest.mark.postgres
@pytest.mark.parametrize("store_url", ["postgresql"], indirect=True)
def test_postgresql_writers_of_one_campaign_take_turns_instead_of_deciding_again(campaign, reopen, clock, monkeypatch):
    """Issue #14: eight clients on one campaign ran out of retries. A rival that starts while
    this writer decides waits for its commit, then decides on it: no retry is needed (with one
    allowed, a rival that had decided at the same time would fail with Conflict)."""
    monkeypatch.setattr("ledger.campaigns.RETRIES", 1)
    mine, rival = campaign.ledger, Ledger(reopen(), clock=clock)
    rival_loaded, mine_committed = threading.Event(), threading.Event()
    failures: list[BaseException] = []

    def rival_writes() -> None:
        try:
            rival.execute(campaign.id, AwardXP(fighter="Gunnar", amount=5, reason="rival's award"), actor="Bob")
        except BaseException as error:  # reported below: a thread's exception would be lost
            failures.append(error)

    rival_thread = threading.Thread(target=rival_writes)
    mine_load, rival_load = mine.load, rival.load
    mine_append, rival_append = mine.store.append, rival.store.append

    def mine_loads(*args, **kwargs):  # inside its turn: the rival starts now
        if not rival_thread.is_alive():
            rival_thread.start()
        return mine_load(*args, **kwargs)

    def rival_loads(*args, **kwargs):
        state = rival_load(*args, **kwargs)
        rival_loaded.set()
        return state

    def mine_appends(*args, **options):
        rival_loaded.wait(timeout=2)  # without turns the rival decides meanwhile; with them it cannot
        mine_append(*args, **options)
        mine_committed.set()

    def rival_appends(*args, **options):
        mine_committed.wait(timeout=10)
        rival_append(*args, **options)

    monkeypatch.setattr(mine, "load", mine_loads)
    monkeypatch.setattr(rival, "load", rival_loads)
    monkeypatch.setattr(mine.store, "append", mine_appends)
    monkeypatch.setattr(rival.store, "append", rival_appends)
    mine.execute(campaign.id, AwardXP(fighter="Gunnar", amount=3, reason="my award"), actor="Ann")
    rival_thread.join()

    assert failures == []
    assert xp_events(campaign.records()) == [(11, 3), (13, 5)]


@pytest.mark.postgres
@pytest.mark.parametrize("store_url", ["postgresql"], indirect=True)
def test_postgresql_a_writers_turn_waits_for_the_holder_and_goes_ahead_after_its_wait(store, reopen):
    """A turn is one statement: it waits while another session holds the campaign's lock, for at
    most its wait (then goes ahead without the lock), and takes the lock once it is free."""
    holder, waiter = store.dealer, reopen().dealer
    key = 14
    waiter._connection().execute("SET statement_timeout = '4s'")  # a turn that never times out fails, not hangs

    def lock_held_by(dealer) -> bool:
        pid = dealer._connection().info.backend_pid
        found = dealer._connection().execute(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objid = %s AND pid = %s AND granted",
            (key, pid)).fetchone()
        return found[0] == 1

    with holder.turn(key, wait_seconds=5):
        assert lock_held_by(holder)
        started = time.perf_counter()
        with waiter.turn(key, wait_seconds=0.3):
            waited = time.perf_counter() - started
            assert not lock_held_by(waiter)
        assert 0.25 < waited < 3
    with waiter.turn(key, wait_seconds=0.3):
        assert lock_held_by(waiter)
    assert not lock_held_by(waiter)
    timeout = waiter._connection().execute("SHOW lock_timeout").fetchone()[0]
    assert timeout == "0"  # the wait was the turn's statement's own, not the session's


def stored_choices(store):
    return [uuid.UUID(item.value) for item in store._settings.get(CURRENT_ID)]


def rival_chooses_first(store, reopen, monkeypatch, rival_choice, times):
    """Make `store`'s next `times` choices of the current campaign lose the race: another process
    stores `rival_choice` between this one's reading of the latest choice and its writing."""
    monkeypatch.setattr("ledger.store.RETRY_PAUSE", 0)
    rival_put = reopen()._settings.put  # on memory:// the rival is this store: its put before patching
    real_put = store._settings.put
    lost: list[int] = []

    def put(items):
        if len(lost) < times:
            version = items[0].originator_version
            rival_put([Item(CURRENT_ID, version, CURRENT_TOPIC, str(rival_choice))])
            lost.append(version)
        return real_put(items)

    monkeypatch.setattr(store._settings, "put", put)
    return lost


def test_a_choice_of_the_current_campaign_that_lost_the_race_is_made_again_and_comes_last(store, reopen, monkeypatch):
    ours, theirs = uuid.uuid4(), uuid.uuid4()
    lost = rival_chooses_first(store, reopen, monkeypatch, theirs, times=RETRIES - 1)

    store.set_current_campaign(ours)

    assert lost == [1, 2, 3, 4]
    assert store.current_campaign() == ours
    assert stored_choices(store) == [theirs, theirs, theirs, theirs, ours]


def test_a_choice_that_keeps_losing_the_race_gives_up_with_a_conflict_and_writes_nothing(store, reopen, monkeypatch):
    ours, theirs = uuid.uuid4(), uuid.uuid4()
    rival_chooses_first(store, reopen, monkeypatch, theirs, times=RETRIES)

    with pytest.raises(Conflict, match=r"^another process kept choosing the current campaign; try again$"):
        store.set_current_campaign(ours)

    assert store.current_campaign() == theirs
    assert stored_choices(store) == [theirs] * RETRIES


@pytest.mark.postgres
@pytest.mark.parametrize("store_url", ["postgresql"], indirect=True)
def test_postgresql_choosers_of_the_current_campaign_take_turns(store_url, monkeypatch):
    """Eight `campaign new` at once outran the optimistic tries (CI, stop 19): choosers take turns,
    so that each chooses once, even with a single try allowed."""
    monkeypatch.setattr("ledger.store.RETRIES", 1)
    stores = [Store(store_url) for _ in range(8)]
    chosen = [uuid.uuid4() for _ in stores]
    at_once = threading.Barrier(len(stores))
    failures: list[BaseException] = []

    def choose(store, campaign_id):
        try:
            store.current_campaign()  # opened before the start, so that all choose at once
            at_once.wait(timeout=10)
            store.set_current_campaign(campaign_id)
        except BaseException as error:  # reported below: a thread's exception would be lost
            failures.append(error)

    threads = [threading.Thread(target=choose, args=pair) for pair in zip(stores, chosen, strict=True)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    try:
        assert failures == []
        assert sorted(stored_choices(stores[0])) == sorted(chosen)
    finally:
        for store in stores:
            store.close()


def _events_function(store: Store, _drop: Callable[[str], None]) -> list[Any]:
    """The statement re-creating the events' insert function, made again at every opening."""
    return [store.app.recorder.sql_create_pg_function_insert_events]


def _settings_table(store: Store, drop: Callable[[str], None]) -> list[Any]:
    """The statements making the settings' table, made the first time a process reads them
    (dropped here, to be made again)."""
    store.current_campaign()
    recorder = store._settings.recorder
    drop(f"DROP TABLE {recorder.events_table_name}")
    return [statement for statement in recorder.sql_create_statements
            if "CREATE TYPE" not in statement.as_string()]  # the types, shared with the events', stay


def _opened(url: str) -> Store:
    return Store(url)


def _settings_read(url: str) -> Store:
    store = Store(url)
    assert store.current_campaign() is None
    return store


@pytest.mark.postgres
@pytest.mark.parametrize("statements_of, make, waits_in", [
    (_events_function, _opened, "CREATE OR REPLACE FUNCTION"),
    (_settings_table, _settings_read, "CREATE TABLE"),
])
def test_tables_are_made_while_the_session_of_a_killed_maker_still_commits_its_schema(
        fresh_postgres, statements_of, make, waits_in):
    """A process killed while it makes a store's tables loses the schema lock with its lock's
    connection at once, while the session that was making the tables and functions (another of
    its connections) may still commit: the next maker's statements then meet it ("tuple
    concurrently updated" where a function is re-created, seen in the crash test; a duplicate
    catalog row where a table is made) and must succeed on a try after it."""
    import psycopg

    with psycopg.connect(fresh_postgres) as killed_makers_session, \
            psycopg.connect(fresh_postgres, autocommit=True) as watcher:
        first = Store(fresh_postgres)
        statements = statements_of(first, watcher.execute)
        first.close()
        for statement in statements:  # its transaction holds the catalog rows they write
            killed_makers_session.execute(statement)
        made: list[Store | BaseException] = []

        def make_tables() -> None:
            try:
                made.append(make(fresh_postgres))
            except BaseException as error:  # noqa: BLE001 - handed to the test's assertion
                made.append(error)

        maker = threading.Thread(target=make_tables)
        maker.start()
        for _ in range(500):  # until the maker waits for that row
            waiting = watcher.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                "AND query LIKE %s", (waits_in + "%",)).fetchone()[0]
            if waiting or not maker.is_alive():
                break
            time.sleep(0.01)
        assert waiting == 1
        killed_makers_session.commit()
    maker.join(timeout=30)

    assert len(made) == 1 and isinstance(made[0], Store), made
    made[0].close()
