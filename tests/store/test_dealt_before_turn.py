"""On a league server a ledger that keeps running asks which rolls were dealt before its turn, not in
it (the other writers of the campaign wait for its turn), and still burns every number dealt but
never recorded: one dealt before it asked by its next command, one dealt while it waited for its
turn by that command's next try, and none that another writer recorded meanwhile."""

from __future__ import annotations

import contextlib

import pytest

from commands.shared import BareRoll
from ledger import events as ev
from ledger.campaigns import Ledger

pytestmark = pytest.mark.postgres


@pytest.fixture
def store_url(fresh_postgres) -> str:
    return fresh_postgres


def roll(ledger, campaign, purpose):
    return ledger.execute(campaign.id, BareRoll(expression="D6", purpose=purpose), actor="Ann")


def peek(reopen, campaign, number):
    """A face dealt by hand (as a player calling the dealing function would), never recorded; read
    through a store of its own, so that the campaign's ledger still keeps the state it committed."""
    another = reopen()
    state = Ledger(another).load(campaign.id)
    assert another.dealer.deal(str(campaign.id), state.epoch, state.commitment, number, [6], "D6", "a peek")


def turns_and_questions(store, monkeypatch):
    """What a write does from now on, in order: "turn" as it takes its turn, "dealt" as it asks the
    league server which rolls were dealt, "dealt in turn" when it asks that during its turn."""
    seen: list[str] = []
    taking_turns, asking = store.writing, store.dealer.dealt
    in_turn = []

    @contextlib.contextmanager
    def writing(campaign_id):
        seen.append("turn")
        in_turn.append(True)
        try:
            with taking_turns(campaign_id):
                yield
        finally:
            in_turn.pop()

    def dealt(*args, **options):
        seen.append("dealt in turn" if in_turn else "dealt")
        return asking(*args, **options)

    monkeypatch.setattr(store, "writing", writing)
    monkeypatch.setattr(store.dealer, "dealt", dealt)
    return seen


def burns_and_rolls(outcome):
    """(the burned numbers a transaction's command lists, the rolls recorded) of a write."""
    burned = [r.event.args["rolls"] for r in outcome.records
              if isinstance(r.event, ev.CommandRecorded) and r.event.command == "dice.burn"]
    rolls = [(r.event.roll, r.event.purpose.split(":")[0]) for r in outcome.records if isinstance(r.event, ev.DiceRolled)]
    return burned, rolls


def test_the_rolls_dealt_are_asked_before_the_turn_by_a_ledger_that_kept_its_state(campaign, store, monkeypatch):
    roll(campaign.ledger, campaign, "first")  # R0: the ledger now keeps the state it committed
    seen = turns_and_questions(store, monkeypatch)

    burned, rolls = burns_and_rolls(roll(campaign.ledger, campaign, "second"))

    assert seen == ["dealt", "turn"]
    assert (burned, rolls) == ([], [(1, "second")])


def test_a_new_ledger_asks_in_its_turn(campaign, store, clock, monkeypatch):
    seen = turns_and_questions(store, monkeypatch)

    roll(Ledger(store, clock=clock), campaign, "first")

    assert seen == ["turn", "dealt in turn"]


def test_a_number_peeked_before_the_question_is_burned_and_none_another_writer_recorded(campaign, store, reopen, clock):
    roll(campaign.ledger, campaign, "first")  # R0
    roll(Ledger(reopen(), clock=clock), campaign, "another writer's")  # R1, recorded: not to be burned
    peek(reopen, campaign, 2)  # R2, never recorded

    burned, rolls = burns_and_rolls(roll(campaign.ledger, campaign, "mine"))

    assert (burned, rolls) == ([[2]], [(2, "burned"), (3, "mine")])
    assert [r.event.roll for r in campaign.records() if isinstance(r.event, ev.DiceRolled)] == [0, 1, 2, 3]


def test_a_number_peeked_while_waiting_for_the_turn_is_burned_by_the_next_try(campaign, store, reopen, monkeypatch):
    roll(campaign.ledger, campaign, "first")  # R0
    seen = turns_and_questions(store, monkeypatch)
    taking_turns = store.writing
    peeks = [1]

    @contextlib.contextmanager
    def peeked_meanwhile(campaign_id):
        if peeks:  # after the question, before the turn
            peek(reopen, campaign, peeks.pop())
        with taking_turns(campaign_id):
            yield

    monkeypatch.setattr(store, "writing", peeked_meanwhile)

    burned, rolls = burns_and_rolls(roll(campaign.ledger, campaign, "mine"))

    # The first try found R1 dealt: the numbers dealt were asked again to burn them, then by the next try.
    assert seen == ["dealt", "turn", "dealt in turn", "dealt in turn"]
    assert (burned, rolls) == ([[1]], [(1, "burned"), (2, "mine")])


def test_a_number_dealt_in_a_transaction_that_ends_while_the_roll_waits_a_moment_is_burned(campaign, store, store_url,
                                                                                            monkeypatch):
    """Another transaction deals R1 and has not ended (another writer's deal of this instant): the roll
    waits a moment and tries again; that transaction ended meanwhile, so R1 is burned and the roll is R2."""
    import psycopg

    from ledger import campaigns

    roll(campaign.ledger, campaign, "first")  # R0
    state = campaign.load()
    held = psycopg.connect(store_url)
    try:
        held.execute("SELECT ledger_dice_deal(%s, %s, %s, 1, ARRAY[6], 'D6', 'a deal of this instant')",
                     (str(campaign.id), state.epoch, state.commitment))
        waits: list[int] = []
        monkeypatch.setattr(campaigns, "pause_before_try", lambda tries: (waits.append(tries), held.commit()))

        burned, rolls = burns_and_rolls(roll(campaign.ledger, campaign, "mine"))
    finally:
        held.close()

    assert waits == [1]
    assert (burned, rolls) == ([[1]], [(1, "burned"), (2, "mine")])
