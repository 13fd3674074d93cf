"""Decisions left half-way: a command that stopped after drawing ledger dice waits, stored with its
dice, for `campaign answer` (its command decided again with those dice, handed back as copies) or a
void; meanwhile it blocks other writes about its warband, or about the campaign.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any


from ledger import events as ev
from ledger import rulesets
from ledger.deciding import Attempt, Halted, RerollDice, decide, refused_before_rolls, scope
from ledger.decide import (AskChoice, Command, DiceSource, NeedsAnswer, TableDice, command_name, documents_key, loose_key,
                           recorded_args)
from ledger.describe import warband_name
from ledger.errors import BadInput, Conflict, LedgerError, NotFound
from ledger.fold import transactions
from ledger.records import Record
from ledger.state import CampaignState, Pending

if TYPE_CHECKING:
    from ledger.deciding import Outcome

class PendingDecision(LedgerError):
    """A command stopped half-way after drawing ledger dice: its dice are stored, and it waits as
    pending transaction `tx` for an answer or a void (the message names both). `cause` is what
    stopped it: a question or dice not given (a NeedsDice), or a refusal or an interrupted prompt.
    `pending` is every decision pending in the campaign, which the way to answer this one depends on."""

    def __init__(self, tx: int, waiting: Pending, cause: BaseException, pending: Mapping[str, Pending],
                 outcome: Outcome | None = None):
        why = "stopped at the prompt" if isinstance(cause, KeyboardInterrupt | EOFError) or not str(cause) else waiting.prompt
        super().__init__(f"{why} — its dice are recorded and T{tx} is pending: {ways_out(tx, waiting, pending)}")
        self.tx, self.waiting, self.cause, self.pending, self.outcome = tx, waiting, cause, pending, outcome


class PendingDecisions:
    """The pending-decision part of the service (mixed into `Ledger`, which provides `store`,
    `load`, `history`, `ledger_dice`, `_write` and `_decided_again_once_answered`)."""

    def pending_transaction(self, campaign_id: uuid.UUID, state: CampaignState, tx: int) -> list[Record]:
        opened_at = state.pending[str(tx)].opened_at
        return [r for r in self.store.records(campaign_id, after=opened_at - 1) if r.tx == tx]

    def _pending_in_the_way(self, campaign_id: uuid.UUID, state: CampaignState, command: Command) -> int | None:
        """The pending transaction this command is the same as (to be answered), if any; refuses a
        command about a warband (or the campaign) that a pending decision concerns."""
        if not state.pending:
            return None
        name, args = command_name(command), _args_without_answers(command)
        concerns = scope(state, command)
        for tx_text, waiting in sorted(state.pending.items(), key=lambda item: int(item[0])):
            opened = self.pending_transaction(campaign_id, state, int(tx_text))[0].event
            if opened.command == name and _without_answers(opened.args) == args:
                return int(tx_text)
            if waiting.warband is None or concerns is None or waiting.warband in concerns:
                about = "the campaign" if waiting.warband is None else warband_name(state, waiting.warband)
                raise Conflict(f"T{tx_text} ({opened.command}) is pending, so nothing more can be recorded for {about} "
                               f"until it is settled: {waiting.prompt}; {ways_out(int(tx_text), waiting, state.pending)}")
        return None

    def answer(
        self,
        campaign_id: uuid.UUID,
        answers: dict[str, str],
        *,
        actor: str,
        target: int | None = None,
        dice: DiceSource | None = None,
        ask: AskChoice | None = None,
    ) -> Outcome:
        """Complete a pending transaction with these answers and the dice it recorded."""

        def attempt() -> Attempt:
            state = self._state_to_decide_on(campaign_id)
            tx = which_pending(state, target, answers)
            return self._answer_attempt(campaign_id, state, tx, answers, actor, dice, ask)

        return self._write(campaign_id, "answering", attempt)

    def _answer_attempt(
        self, campaign_id: uuid.UUID, state: CampaignState, tx: int, answers: dict[str, str], actor: str,
        dice: DiceSource | None, ask: AskChoice | None,
    ) -> Attempt:
        """The answer of pending `tx` (a ledger transaction) and its command decided again on the
        state now, its recorded rolls handed back in order as copies, new dice after them."""
        waiting = state.pending[str(tx)]
        group = self.pending_transaction(campaign_id, state, tx)
        opened = group[0].event
        ruleset = rulesets.get(state.ruleset)
        recorded = opened.args.get("answers", {})
        command_type = type(ruleset.command_from(opened.command, opened.args))
        answers = _not_answered_before(tx, command_type, recorded, answers)
        records, left = self._left_by_a_cascade(campaign_id, group, tx)
        given = answers
        if left:  # answers for the later transactions decided again after it are theirs
            answers = {key: answer for key, answer in answers.items() if documents_key(command_type, key)}
        command = ruleset.command_from(opened.command, {**opened.args, "answers": {**recorded, **answers}})
        # Checked as the command typed with them checks them: taken, one it does not ask would stand with it.
        if answers and (refused := refused_before_rolls(ruleset, state, command, answers)) is not None:
            raise refused
        rolls = [r.event for r in group if isinstance(r.event, ev.DiceRolled)]
        ledger_dice = self.ledger_dice(campaign_id, state)
        if dice is None:
            # New dice come as the recorded ones came: from the ledger, or typed in (asked for).
            by_hand = any(r.source == "table" for r in rolls if not r.expression.startswith("shuffle"))
            dice = TableDice(ask=None) if by_hand else ledger_dice
        kept = RerollDice(rolls=rolls, draws=[], disputed_roll=-1, fresh=dice)
        # Shuffles take their dice from the same recorded rolls: one record of which were handed back.
        kept_for_shuffles = RerollDice(rolls=rolls, draws=[], disputed_roll=-1, fresh=ledger_dice, _used=kept._used)
        kept.rewind()
        marker: list[ev.Event] = [
            ev.CommandRecorded(command="answer", args={"target": tx, "answers": given}),
            ev.DecisionAnswered(target=tx, answers=given),
        ]
        asked: list[str] = []
        try:
            events = decide(ruleset, state, command, dice=kept, shuffle_dice=kept_for_shuffles, ask=ask,
                            reason=opened.reason, keep_dice=True, answered_now=answers, asks_again=bool(answers),
                            asked=asked, answering=True)
        except Halted as halted:
            if not answers and isinstance(halted.cause, NeedsAnswer) and halted.cause.key == waiting.question:
                # Given nothing, it stops where it waited: answering it so wrote an empty answer and the
                # same pending decision again, each time the command was run again.
                raise PendingDecision(tx, waiting, halted.cause, state.pending) from None
            # Pending again, it keeps copies of the recorded rolls it has not reached, for the next answer to hand
            # back: it kept the rolls before its question alone, and the next answer rolled the others anew.
            concerns = {waiting.warband} if waiting.warband else None
            return Attempt(state, [(marker, actor), (halted.handed_back(concerns, kept, state.rolls), actor)],
                           halted=halted)
        except NeedsAnswer as asked:
            now = Pending(opened_at=waiting.opened_at, question=asked.key, prompt=asked.prompt,
                          options=asked.options, warband=waiting.warband)
            raise PendingDecision(tx, now, asked, state.pending) from None
        again, stopped = self._decided_again_once_answered(records, state, events, left, given, dice, ledger_dice, ask)
        if stopped is None:
            kept.finish()
        return Attempt(state, [(marker, actor), (events, actor), *((decided, actor) for decided in again),
                               *([(stopped.events, actor)] if stopped else [])],
                       unused=_not_used(command, asked), halted=stopped.halted if stopped else None)

    def _left_by_a_cascade(self, campaign_id: uuid.UUID, group: Sequence[Record], tx: int
                           ) -> tuple[list[Record], list[int]]:
        """The campaign's records and the transactions a cascade left to decide again once pending `tx` (its records
        `group`) is answered (`left_by_a_cascade`); none (nor any record) where it leaves none and the transaction
        before it, read first, voids or answers nothing, so that no other answer reads the whole history."""
        opened_at = group[0].position
        before = next(iter(self.store.records(campaign_id, after=opened_at - 2, upto=opened_at - 1)), None)
        voids_or_answers = isinstance(getattr(before, "event", None), ev.TransactionVoided | ev.DecisionAnswered)
        if not voids_or_answers and not _leaves(group):
            return [], []
        records = self.history(campaign_id)
        return records, left_by_a_cascade(records, tx)


def left_by_a_cascade(records: Sequence[Record], tx: int) -> list[int]:
    """The transactions a reroll with --cascade voided because of its target and left to decide again once its new
    decision, stored pending as `tx` (or, answered, pending again as `tx`), is answered: a reroll decides them again
    after its new decision, and one stopped pending does so once it is complete; or those a cascade (a reroll's, a
    void's, an answer's) left to a transaction it decided again that stopped pending, which names them (its
    `decision.pending`'s `leaves`). None where no such reroll or cascade stored it. The chain hands them back to the
    answer so, letting the transactions decided again copy their rolls."""
    groups = {group[0].tx: group for group in transactions(records)}
    if leaves := _leaves(groups.get(tx, [])):
        return leaves  # a transaction a cascade decided again, stopped pending
    before = groups.get(tx - 1, [])
    opened = before[0].event if before else None
    if not isinstance(opened, ev.CommandRecorded):
        return []
    if opened.command == "answer":
        return left_by_a_cascade(records, opened.args["target"])
    if opened.command != "reroll":
        return []
    return [r.event.target for r in before if isinstance(r.event, ev.TransactionVoided) and r.event.because_of is not None]


def _leaves(group: Sequence[Record]) -> list[int]:
    """The transactions a cascade left to pending `group` (`DecisionPending.leaves`) to decide again once answered."""
    return next((list(r.event.leaves) for r in group if isinstance(r.event, ev.DecisionPending)), [])


def _not_answered_before(tx: int, command_type: type[Command], recorded: dict[str, str],
                         answers: dict[str, str]) -> dict[str, str]:
    """The answers not yet recorded with pending `tx`. One its command asks, already given, stands:
    answering it otherwise once the dice after it were shown would choose again knowing them (and
    answers racing each other would each be taken, the last winning); the same answer again (its
    words in any order or case: `speed+strength` recorded as `strength+speed`) adds nothing. Answers
    a guided walk handed along for later steps, which its command never asks, are not held to it."""
    settled = {loose_key(key): answer for key, answer in recorded.items() if documents_key(command_type, key)}
    for key, answer in answers.items():
        before = settled.get(loose_key(key))
        if before is not None and _words(before) != _words(answer):
            raise BadInput(f"T{tx} already holds the answer {key}={before}, given before: an answer stands once "
                           f"given (void T{tx} to drop the decision)")
    return {key: answer for key, answer in answers.items() if loose_key(key) not in settled}


def _not_used(command: Command, asked: list[str]) -> dict[str, str]:
    """The answers a completed decision holds, given with its command or to it since, that its questions document
    and it did not ask: one whose question the dice did not open (a skill where the advance's roll gave a
    characteristic). Held while it was pending, as one it might yet ask, each is unused once it is complete."""
    taken = {loose_key(key) for key in asked}
    return {key: answer for key, answer in command.answers.items()
            if loose_key(key) not in taken and documents_key(type(command), key)}


def _words(answer: str) -> list[str]:
    return sorted(re.findall(r"\w+", answer.casefold()))


def which_pending(state: CampaignState, target: int | None, answers: dict[str, str]) -> int:
    """The pending transaction these answers are for: `target`, the only one, or the one asking them."""
    if target is not None:
        if str(target) not in state.pending:
            raise NotFound(f"T{target} is not a pending decision"
                           + (f" (pending: {_listed(state)})" if state.pending else ""))
        return target
    if not state.pending:
        raise NotFound("no decision is pending in this campaign")
    found = _answered_without_naming(state.pending, answers)
    if found is None:
        raise BadInput(f"several decisions are pending ({_listed(state)}): name one with --decision T<number>")
    return found


def _answered_without_naming(pending: Mapping[str, Pending], answers: Mapping[str, str]) -> int | None:
    """The pending transaction answers given without --decision go to: the only one, or the only one
    asking them (None: they do not tell which)."""
    if len(pending) == 1:
        return int(next(iter(pending)))
    given = {loose_key(key) for key in answers}
    asked = [int(t) for t, w in pending.items() if loose_key(w.question) in given]
    return asked[0] if len(asked) == 1 else None


def _args_without_answers(command: Command) -> dict[str, Any]:
    return _without_answers(recorded_args(command))


def _without_answers(args: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in args.items() if key != "answers"}


def _listed(state: CampaignState) -> str:
    return ", ".join(f"T{tx}" for tx in sorted(state.pending, key=int))


def ways_out(tx: int, waiting: Pending, pending: Mapping[str, Pending]) -> str:
    """How to answer pending `tx`, which waits as `waiting`, or void it: the answer command works as
    given, naming the decision where the campaign's other `pending` decisions ask the same (or it asks nothing)."""
    asks = {waiting.question: "CHOICE"} if waiting.question else {}
    named = "" if _answered_without_naming({**pending, str(tx): waiting}, asks) == tx else f" --decision T{tx}"
    if waiting.question:
        answer = f"`campaign answer {waiting.question}=CHOICE{named}` ({' | '.join(waiting.options)})"
    else:
        answer = f"`campaign answer{named}` (with the answers the command needs)"
    return f"settle it with {answer}, or void it with `campaign void T{tx} --reason …`"

