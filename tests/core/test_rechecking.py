"""Re-deciding a history (`recheck`: import and `replay --check`) decides each transaction on the
state itself and puts the state back, where one no longer follows, from a checkpoint taken every
CHECKPOINT_EVERY transactions and the transactions since: every difference it finds is the one it
finds putting the state back from an encoding made before each transaction."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from ledger import audit, rechecking
from ledger import events as ev
from ledger.dice import parse_expression
from ledger.decide import Command, TableDice, recorded_args
from ledger.deciding import RerollDice, is_redecided, redecide
from ledger.fold import apply_record, transactions, void_records, voids_in
from ledger.records import GENESIS, seal
from ledger.state import CampaignState, encode_state
from projections.history import void_annotations

GOLDEN = Path(__file__).parents[1] / "golden"


def with_faces_changed(records, every: int):
    """Every `every`-th table roll of a live transaction shows its faces turned (1 <-> 6, 2 <-> 5,
    3 <-> 4), counted again (a roll whose value is not its faces' is refused before the rules read
    it), so the decisions that read them no longer follow."""
    changed, rolls = [], 0
    for record in records:
        event = record.event
        if isinstance(event, ev.DiceRolled) and event.source == "table" and event.copy_of is None:
            rolls += 1
            if rolls % every == 0:
                faces = [7 - face if 1 <= face <= 6 else face for face in event.faces]
                value, kept = parse_expression(event.expression).evaluate(faces)
                record = msgspec.structs.replace(record, event=msgspec.structs.replace(
                    event, faces=faces, value=value, kept=kept))
        changed.append(record)
    return changed


@pytest.mark.parametrize("trail", ["demo-coreheim.jsonl", "demo-trench-crusade.jsonl", "demo-retinue.jsonl"])
@pytest.mark.parametrize("first_only", [False, True])
def test_the_differences_are_those_found_putting_the_state_back_before_each_transaction(trail, first_only,
                                                                                       monkeypatch):
    records = with_faces_changed(list(audit.read_trail((GOLDEN / trail).read_bytes(), void_annotations).records), 3)
    found = {}
    for every in (1, 3, rechecking.CHECKPOINT_EVERY):
        monkeypatch.setattr(rechecking, "CHECKPOINT_EVERY", every)
        check = rechecking._Recheck(void_records(records), first_only)
        for group in transactions(records):
            check.add(group)
        found[every] = (check.checked, check.shape_differences, check.redecided_differences,
                        encode_state(check.state))  # the state it ends in, folded on from each one put back
    assert found[3] == found[1] == found[rechecking.CHECKPOINT_EVERY] == put_back_before_each(records, first_only)
    checked, shapes, redecided, _state = found[1]
    assert checked > 0 and shapes == [] and len(redecided) >= (1 if first_only else 2)


def put_back_before_each(records, first_only: bool):
    """What re-deciding found putting the state back from its encoding made before each transaction."""
    voided, state = voids_in(records), CampaignState()
    checked, differences = 0, []
    for group in transactions(records):
        live = group[0].tx not in voided
        if live and is_redecided(group) and not (first_only and differences):
            checked += 1
            why = redecide(state, group, folding=True)  # puts the state back where it no longer follows
            if why is None:
                continue
            differences.append(f"T{group[0].tx}: {why}")
        for record in group:
            apply_record(state, record, not live)
    return checked, [], differences, encode_state(state)


def transaction_of(*events: ev.Event):
    return seal(list(events), first_position=10, prev_hash=GENESIS, tx=4, actor="Ann",
                recorded_at="2026-12-06T12:00:00.000000Z")


AWARD = ev.CommandRecorded(command="xp.award", args={"fighter": "hans", "amount": 1})
VOID = ev.CommandRecorded(command="void", args={"target": 2, "reason": "disputed"})
XP = ev.XPAwarded(warband="rats", fighter="hans", amount=1, reason="a deed")
ROLL = ev.DiceRolled(roll=3, expression="D6", purpose="a roll", faces=[4], value=4, source="ledger", epoch=0)


@pytest.mark.parametrize(("events", "problem"), [
    ((AWARD, XP), None),
    ((AWARD, ROLL, XP), None),
    ((VOID, ev.TransactionVoided(target=2, reason="disputed")), None),
    ((XP,), "opens with xp.awarded, not with the command.recorded of a command"),
    ((AWARD, AWARD), "event 11 is a second command.recorded in one transaction"),
    ((VOID, ev.TransactionVoided(target=2, reason="disputed"), XP),
     "event 12 (xp.awarded) has no place in a void transaction"),
    ((AWARD, ev.SeedCommitted(epoch=1, commitment="0" * 64)),
     "event 11 (seed.committed) belongs to the ledger's own transactions only"),
    ((AWARD, XP, ev.TransactionVoided(target=2, reason="disputed")),
     "event 12 (transaction.voided) belongs to the ledger's own transactions only"),
    ((AWARD, ev.CampaignStarted(campaign_id="c", name="Another")),
     "event 11 (campaign.started) belongs to the ledger's own transactions only"),
    ((AWARD, ev.DecisionAnswered(target=2)),
     "event 11 (decision.answered) belongs to the ledger's own transactions only"),
])
def test_a_transaction_holds_only_the_events_its_kind_of_transaction_holds(events, problem):
    assert rechecking._shape_problem(transaction_of(*events)) == problem


class Gathering(Command, frozen=True, kw_only=True, tag="test.gathering"):
    warband: str
    gifts: dict[str, int] = {}  # a field added after campaigns recorded the command

    added_later = ("gifts",)


@pytest.mark.parametrize(
    "command, recorded",
    [
        # at its default, a field added later is left out: the record made before it existed is what re-deciding gives
        (Gathering(warband="Rats"), {"warband": "Rats", "answers": {}}),
        (Gathering(warband="Rats", gifts={"sword": 7}), {"warband": "Rats", "gifts": {"sword": 7}, "answers": {}}),
    ],
)
def test_a_field_added_to_a_command_later_is_recorded_only_when_given(command, recorded):
    assert recorded_args(command) == recorded


def drew(card: str, purpose: str) -> ev.CardDrawn:
    return ev.CardDrawn(deck="improvement", card=card, purpose=purpose, source="table")


def test_a_reroll_hands_each_physical_card_back_to_the_draw_it_was_drawn_for():
    # Given a transaction where Hench drew 10 and 15 (an Advantage) and Cap drew 18 (a Pit Fight)
    recorded = [drew("10", "Hench: Improvement (advantage)"), drew("15", "Hench: Improvement (advantage)"),
                drew("18", "Cap: Improvement (pit-fight)")]
    fresh = TableDice(cards=["07"])
    rerolled = RerollDice(rolls=[], draws=recorded, disputed_roll=0, fresh=fresh)
    deck = ["07", "10", "15", "18"]
    # When the disputed roll means Hench no longer draws: Cap's draw takes his own card, not Hench's first
    assert rerolled.card("improvement", "Cap: Improvement (pit-fight)", deck) == "18"
    # and a draw never recorded is a new card from the table
    assert rerolled.card("improvement", "Hilde: Improvement (free)", deck) == "07"
    rerolled.finish()
    # Decided again after a conflict, it starts over: Cap's card is his again (rewind kept it used, and
    # the table was asked for another)
    rerolled.rewind()
    assert rerolled.card("improvement", "Cap: Improvement (pit-fight)", deck) == "18"
