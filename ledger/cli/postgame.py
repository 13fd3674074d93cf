"""campaign post-game WARBAND: the ruleset's post-battle sequence, step by step, resumable."""

from __future__ import annotations

import click
import msgspec

from ledger import rulesets
from ledger.cli.app import (
    DiceChoice,
    Session,
    answers_option,
    dice_options,
    emit_json,
    interactive_ask,
    main,
    pass_session,
    report,
    settle,
)
from ledger.errors import BadInput, NeedsDice, RuleViolation


@main.command("post-game")
@click.argument("warband_ref", metavar="WARBAND")
@click.option("--step", "only", default=None, help="Do just this step (by key).")
@click.option("--list", "list_only", is_flag=True, help="Show the steps and which are done, without doing any.")
@click.option("--json", "as_json", is_flag=True, help="With --list: print JSON.")
@answers_option
@dice_options
@pass_session
def post_game(session: Session, warband_ref: str, only: str | None, list_only: bool, as_json: bool,
              dice: DiceChoice, answers: dict[str, str]) -> None:
    """Walk WARBAND through its game's post-battle sequence in order.

    Each step is one transaction: if you stop half way, run this again and it carries on with the
    first step not yet done for the warband's latest battle. Dice are asked for at a terminal
    (or given with --dice / --ledger); choices are asked for as they come up."""
    cid, state = session.state()
    ruleset = rulesets.get(state.ruleset)
    band = state.warband(warband_ref)
    if ruleset.post_game is None:
        raise RuleViolation(f"ruleset {ruleset.id} has no guided post-game sequence")
    steps = list(ruleset.post_game(state, band.id))
    if only is not None and only not in {s.key for s in steps}:
        raise BadInput(f"no step '{only}' (steps: {', '.join(s.key for s in steps)})")
    if list_only and as_json:
        emit_json([{"key": s.key, "title": s.title, "done": s.done(state, band.id)} for s in steps])
        return
    if list_only:
        for step in steps:
            click.echo(f"[{'x' if step.done(state, band.id) else ' '}] {step.key}: {step.title}")
        return
    ask = interactive_ask()
    did = 0
    for step in steps:
        if (only is not None and step.key != only) or step.done(state, band.id):
            continue
        if ask is None and did:
            # Without a terminal each step takes its own --dice: stop and say what comes next.
            click.echo(f"Next step: {step.key} (run `campaign post-game {warband_ref}` again with its dice).")
            return
        click.echo(f"== {step.title}")
        if ask is not None and step.before and ask(f"Before this step: {step.before}", [GO_ON, STOP]) == STOP:
            click.echo(f"Stopped before {step.key}: run `campaign post-game {warband_ref}` again to carry on.")
            return
        command = step.build(state, band.id, ask or _no_ask(step.key))
        command = msgspec.structs.replace(command, answers={**command.answers, **answers})
        outcome = settle(session, lambda: session.ledger.execute(  # noqa: B023 - called at once
            cid, command, actor=session.actor, dice=dice.source(state), ask=ask))
        report(outcome)
        state = outcome.state
        did += 1
    if all(s.done(state, band.id) for s in steps):
        click.echo("Post-game sequence complete.")


GO_ON, STOP = "go on", "stop here"


def _no_ask(step: str):
    def refuse(prompt: str, options):
        raise NeedsDice(f"{step}: {prompt} — run at a terminal or give the choice as an option")

    return refuse

