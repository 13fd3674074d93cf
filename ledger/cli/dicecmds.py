"""campaign roll / draw / note: what the rules do not cover."""

from __future__ import annotations

import click

from commands.shared import BareDraw, BareRoll, RecordNote
from ledger.cli.app import DiceChoice, Session, dice_options, main, pass_session, run, writes


@main.command("roll")
@writes
@click.argument("expression")
@click.option("--for", "purpose", required=True, help="What the roll is for.")
@dice_options
@pass_session
def roll(session: Session, expression: str, purpose: str, dice: DiceChoice) -> None:
    """Roll EXPRESSION (D6, 2D6, D66, D3, D12, D20, 7D6 keep 6 highest) and record it."""
    run(session, BareRoll(expression=expression, purpose=purpose), dice=dice)


@main.command("draw")
@writes
@click.argument("deck")
@click.option("--for", "purpose", required=True, help="What the card is for.")
@dice_options
@pass_session
def draw(session: Session, deck: str, purpose: str, dice: DiceChoice) -> None:
    """Draw a card from DECK and record it."""
    run(session, BareDraw(deck=deck, purpose=purpose), dice=dice)


@main.command("note")
@writes
@click.argument("text")
@click.option("--warband", default=None, help="The warband the note is about.")
@pass_session
def note(session: Session, text: str, warband: str | None) -> None:
    """Record a note in the chronicle (a ruling, a pending decision, a story)."""
    run(session, RecordNote(text=text, warband=warband))
