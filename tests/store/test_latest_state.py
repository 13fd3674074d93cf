"""A ledger that keeps running loads a campaign from the state it last loaded or committed itself,
and the records other writers added since; from the latest snapshot, as any new process would,
when a void among those made it stale, or more than a snapshot's interval of them came since."""

from __future__ import annotations

import pytest

from commands.shared import AwardXP
from ledger import campaigns
from ledger.campaigns import fold
from ledger.errors import RuleViolation
from projections import sql


def award(campaign, amount, ledger=None):
    ledger = ledger or campaign.ledger
    return ledger.execute(campaign.id, AwardXP(fighter="Gunnar", amount=amount, reason="survived"), actor="Ann")


def records_and_snapshots_read(store, monkeypatch):
    """What loading reads from now on: the positions of the records `store.records` hands out, and
    one "snapshot" entry per snapshot looked up."""
    read: list[int | str] = []
    real_records, real_snapshot = store.records, store.latest_snapshot

    def records(campaign_id, **bounds):
        for record in real_records(campaign_id, **bounds):
            read.append(record.position)
            yield record

    def latest_snapshot(campaign_id, *args, **options):
        read.append("snapshot")
        return real_snapshot(campaign_id, *args, **options)

    monkeypatch.setattr(store, "records", records)
    monkeypatch.setattr(store, "latest_snapshot", latest_snapshot)
    return read


def test_a_ledger_loads_what_it_committed_without_reading_the_events_again(campaign, store, monkeypatch):
    committed = award(campaign, 3).state  # T4, positions 10–11
    read = records_and_snapshots_read(store, monkeypatch)

    state = campaign.load()

    assert read == [11]  # only the record at its position: the store still ends there
    assert state == committed == fold(campaign.ledger.history(campaign.id))
    assert (state.position, state.fighters["gunnar"].xp) == (11, 3)


def test_a_state_that_was_loaded_and_then_changed_by_its_caller_is_not_what_the_next_load_gives(campaign):
    loaded = campaign.load()
    loaded.fighters["gunnar"].xp = 99
    committed = award(campaign, 3).state
    committed.fighters["gunnar"].xp = 98

    state = campaign.load()

    assert state.fighters["gunnar"].xp == 3
    assert state == fold(campaign.ledger.history(campaign.id))


def test_after_another_ledger_wrote_the_records_it_added_are_folded_in(campaign, store, reopen, monkeypatch):
    award(campaign, 3)  # T4, 10–11, through the first ledger
    other = campaigns.Ledger(reopen(), clock=campaign.ledger.clock)
    award(campaign, 4, ledger=other)  # T5, 12–13, through another one (another process)
    read = records_and_snapshots_read(store, monkeypatch)

    state = campaign.load()

    assert read == [11, 12, 13]  # from its own state at 11
    assert (state.position, state.fighters["gunnar"].xp) == (13, 7)
    assert state == fold(campaign.ledger.history(campaign.id))


def test_more_than_a_snapshot_s_interval_behind_the_campaign_is_loaded_from_the_latest_snapshot(
        campaign, store, reopen, monkeypatch):
    monkeypatch.setattr(campaigns, "SNAPSHOT_INTERVAL", 10)
    award(campaign, 1)  # T4, 10–11: a snapshot at 11
    other = campaigns.Ledger(reopen(), clock=campaign.ledger.clock)
    for _ in range(6):
        award(campaign, 1, ledger=other)  # T5–T10, 12–23: a snapshot at 21
    read = records_and_snapshots_read(store, monkeypatch)

    state = campaign.load()

    assert read == [*range(11, 22), "snapshot", 21, 22, 23]  # its own state is 12 records behind: the snapshot at 21
    assert (state.position, state.fighters["gunnar"].xp) == (23, 7)
    assert state == fold(campaign.ledger.history(campaign.id))


def test_a_void_by_another_ledger_shows_in_the_next_load(campaign, reopen):
    award(campaign, 3)  # T4
    award(campaign, 4)  # T5
    other = campaigns.Ledger(reopen(), clock=campaign.ledger.clock)
    other.void(campaign.id, "T4", reason="never survived", actor="Bob")

    state = campaign.load()

    assert state.voided == {"4": "never survived"}
    assert state.fighters["gunnar"].xp == 4
    assert state == fold(campaign.ledger.history(campaign.id))


def test_a_command_after_another_ledger_wrote_is_decided_on_the_store_s_state(campaign, reopen):
    award(campaign, 3)  # T4, 10–11
    other = campaigns.Ledger(reopen(), clock=campaign.ledger.clock)
    award(campaign, 4, ledger=other)  # T5, 12–13

    outcome = award(campaign, 5)

    assert [(r.position, r.tx) for r in outcome.records] == [(14, 6), (15, 6)]
    assert outcome.state.fighters["gunnar"].xp == 12
    assert outcome.state == fold(campaign.ledger.history(campaign.id))


def test_a_commit_that_collides_is_decided_again_on_the_other_writer_s_state(campaign, monkeypatch):
    """Another ledger commits while this one is deciding on the state it kept (positions 12–13
    taken): the commit conflicts, and the next try loads the store's state, not the kept one. (The
    other ledger shares the store: on PostgreSQL another connection would wait for this writer's turn.)"""
    award(campaign, 3)  # T4, 10–11
    other = campaigns.Ledger(campaign.ledger.store, clock=campaign.ledger.clock)
    real_decide = campaigns.decide
    tries = []

    def decide_while_another_writes(ruleset, state, command, **options):
        tries.append(state.position)
        if len(tries) == 1:
            award(campaign, 4, ledger=other)  # T5, 12–13
        return real_decide(ruleset, state, command, **options)

    monkeypatch.setattr(campaigns, "decide", decide_while_another_writes)
    outcome = award(campaign, 5)

    assert tries == [11, 11, 13]  # this ledger's first try, the other's command, this ledger's second try
    assert [(r.position, r.tx) for r in outcome.records] == [(14, 6), (15, 6)]
    assert campaign.load().fighters["gunnar"].xp == 12
    assert campaign.load() == fold(campaign.ledger.history(campaign.id))


def test_the_caller_s_outcome_is_its_own_and_the_next_command_is_decided_on_the_state_as_stored(campaign):
    outcome = award(campaign, 3)
    outcome.state.fighters["gunnar"].xp = 50  # the caller's copy: the ledger decides on the one it kept

    after = award(campaign, 1)

    assert after.state.fighters["gunnar"].xp == 4
    assert after.state == campaign.load() == fold(campaign.ledger.history(campaign.id))


def test_a_command_refused_after_its_decision_changed_the_state_leaves_the_next_decision_unchanged(
        campaign, monkeypatch):
    """A command is decided on the ledger's latest state itself, which its events change as they are
    decided: one refused half-way must leave nothing of that behind for the next command."""
    award(campaign, 3)
    real_decide = campaigns.decide

    def decide_then_refuse(ruleset, state, command, **options):
        real_decide(ruleset, state, command, **options)  # in place: Gunnar's XP is raised on `state`
        raise RuleViolation("refused after deciding")

    monkeypatch.setattr(campaigns, "decide", decide_then_refuse)
    with pytest.raises(RuleViolation):
        award(campaign, 7)
    monkeypatch.setattr(campaigns, "decide", real_decide)

    after = award(campaign, 1)

    assert after.state.fighters["gunnar"].xp == 4
    assert [(r.position, r.tx) for r in after.records] == [(12, 5), (13, 5)]
    assert after.state == campaign.load() == fold(campaign.ledger.history(campaign.id))


def test_with_the_read_models_hooks_each_command_is_decided_on_the_state_its_history_folds_to(campaign, store):
    """The commit hooks are handed the state the ledger keeps to decide its next command on: the read
    models' hooks (as every CLI command has them) leave it as the history folds it."""
    hooked = campaigns.Ledger(store, clock=campaign.ledger.clock, on_commit=[sql.on_commit], in_commit=[sql.in_commit])
    for amount in (1, 2, 3):
        outcome = award(campaign, amount, ledger=hooked)
        assert outcome.state == hooked.load(campaign.id) == fold(hooked.history(campaign.id))

    assert outcome.state.fighters["gunnar"].xp == 6
