"""Optimistic concurrency: two writers on one campaign never lose or double an event; on
PostgreSQL they take turns, so that they seldom need to decide again."""

from __future__ import annotations

import contextlib
import threading

import pytest

from commands.shared import AwardXP, SpendXP
from ledger import events as ev
from ledger.campaigns import Ledger
from ledger.errors import Conflict, RuleViolation


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
