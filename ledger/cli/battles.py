"""campaign battle record."""

from __future__ import annotations

import click

from commands.shared import RecordBattle
from ledger.cli.app import Session, battle_warbands_option, main, parse_pair_list, pass_session, run, writes
from projections.battles import deeds_for


@main.group("battle")
def battle() -> None:
    """Battles."""


@battle.command("record")
@writes
@battle_warbands_option
@click.option("--winner", default=None, help="The winning warband (omit for a draw).")
@click.option("--scenario", default="", help="The scenario played.")
@click.option("--absent", multiple=True, help="A fighter who did not take part (repeatable).")
@click.option("--ooa", "out_of_action", multiple=True, help="A fighter taken out of action (repeatable).")
@click.option("--took-out", multiple=True, metavar="FIGHTER=ENEMY",
              help="FIGHTER took ENEMY out of action (repeatable); ENEMY, if on a roster, is then out of action.")
@click.option("--not-out", multiple=True, metavar="FIGHTER",
              help="A fighter taken out by an enemy who is nonetheless not out of action (repeatable).")
@click.option("--glorious", multiple=True, metavar="FIGHTER=DEED", help="FIGHTER did a glorious deed (repeatable).")
@pass_session
def battle_record(session: Session, warbands: tuple[str, ...], winner: str | None, scenario: str, absent: tuple[str, ...],
                  out_of_action: tuple[str, ...], took_out: tuple[str, ...], not_out: tuple[str, ...],
                  glorious: tuple[str, ...]) -> None:
    """Record a battle: who fought, who won, and what each fighter did."""
    _cid, state = session.state()
    deeds = deeds_for(state, list(warbands), absent, out_of_action, parse_pair_list(took_out, "--took-out"),
                      parse_pair_list(glorious, "--glorious"), not_out)
    run(session, RecordBattle(participants=list(warbands), winner=winner, scenario=scenario, deeds=deeds))
