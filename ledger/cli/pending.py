"""campaign answer / pending: completing a decision that stopped half-way after its ledger dice."""

from __future__ import annotations

import click

from ledger.campaigns import ways_out, which_pending
from ledger.cli.app import (
    DiceChoice,
    Session,
    dice_options,
    emit_json,
    interactive_ask,
    main,
    parse_answers,
    pass_session,
    report,
    settle,
    writes,
)
from ledger import events as ev
from ledger.errors import BadInput
from ledger.state import CampaignState, Pending


def _decision(text: str | None) -> int | None:
    if text is None:
        return None
    number = text.strip().upper().removeprefix("T")
    if not number.isdecimal():
        raise BadInput(f"--decision takes a transaction, e.g. T12, not '{text}'")
    return int(number)


@main.command("answer")
@writes
@click.argument("answers", nargs=-1, metavar="[KEY=CHOICE… | CHOICE]")
@click.option("--decision", "decision", default=None, metavar="T<n>",
              help="The pending transaction to complete (needed when several are pending).")
@dice_options
@pass_session
def answer(session: Session, answers: tuple[str, ...], decision: str | None, dice: DiceChoice) -> None:
    """Complete a pending decision with the dice it already recorded.

    A command that drew ledger dice and then stopped (a choice not given, Ctrl-C at a prompt, a
    refusal) is stored as pending with its dice; this records the answers and decides the command
    again with those same dice. A lone CHOICE answers the question the decision is waiting for. At
    a terminal, questions not answered here are asked."""
    cid, state = session.state()
    target = _decision(decision)
    given = _answers(answers, state, target)
    typed = bool(dice.text or dice.cards)
    if not given and not typed and interactive_ask() is None and target is None and len(state.pending) == 1:
        tx, waiting = next(iter(state.pending.items()))
        raise _waits_for(int(tx), waiting, state)
    source = dice.source(state) if typed else None
    outcome = settle(session, lambda: session.ledger.answer(
        cid, given, target=target, actor=session.actor, dice=source, ask=interactive_ask()))
    report(outcome)
    if outcome.unused and not session.answer_json:  # as the post-game walk names the answers no step asked
        tx = next(record.event.target for record in outcome.records if isinstance(record.event, ev.DecisionAnswered))
        named = ", ".join(f"{key}={answer}" for key, answer in outcome.unused.items())
        click.echo(f"Not used: {named} (T{tx} did not ask {'it' if len(outcome.unused) == 1 else 'them'})")


def _answers(answers: tuple[str, ...], state: CampaignState, target: int | None) -> dict[str, str]:
    """KEY=CHOICE pairs, or one bare CHOICE for the question the decision waits for."""
    if len(answers) != 1 or "=" in answers[0]:
        return parse_answers(answers, "answer")
    tx = which_pending(state, target, {})
    waiting = state.pending[str(tx)]
    if not waiting.question:
        raise _waits_for(tx, waiting, state)
    return {waiting.question: answers[0].strip()}


def _waits_for(tx: int, waiting: Pending, state: CampaignState) -> BadInput:
    return BadInput(f"T{tx} waits for: {waiting.prompt}; {ways_out(tx, waiting, state.pending)}")


@main.command("pending")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pass_session
def pending(session: Session, as_json: bool) -> None:
    """List the decisions waiting for an answer (or a void), with their ways out."""
    _cid, state = session.state()
    rows = [
        {"tx": int(tx), "question": w.question, "prompt": w.prompt, "options": w.options, "warband": w.warband}
        for tx, w in sorted(state.pending.items(), key=lambda item: int(item[0]))
    ]
    if as_json:
        emit_json(rows)
        return
    if not rows:
        click.echo("No decision is pending.")
    for tx, waiting in sorted(state.pending.items(), key=lambda item: int(item[0])):
        click.echo(f"T{tx}: {waiting.prompt}; {ways_out(int(tx), waiting, state.pending)}")
