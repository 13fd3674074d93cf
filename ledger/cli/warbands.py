"""campaign warband add / list / show, and campaign roster."""

from __future__ import annotations

from pathlib import Path

import click

from commands.shared import EnlistWarband
from ledger import files, rulesets
from ledger.cli.app import FileToWrite, Session, emit_json, force_option, main, pass_session, run, writes
from ledger.cli.views import print_roster, resources_held
from ledger.describe import plural
from ledger.errors import BadInput
from projections import render
from projections.roster import roster as roster_view
from projections.roster import warband_row


@main.group("warband")
def warband() -> None:
    """Warbands of the campaign."""


@warband.command("add")
@writes
@click.argument("name")
@click.option("--player", required=True, help="Who plays it.")
@click.option("--faction", default="", help="Faction, race or warband type.")
@click.option("--treasury", type=int, default=None,
              help="Starting gold, ducats, points… [default: what the rules start a warband with, "
                   "e.g. 500 gc in coreheim; 0 where they name none]")
@pass_session
def warband_add(session: Session, name: str, player: str, faction: str, treasury: int | None) -> None:
    """Enlist a warband NAME."""
    if treasury is None:  # decided here, so the command records the treasury it was given
        _cid, state = session.state()
        starting = rulesets.get(state.ruleset).starting_treasury
        treasury = starting(state) if starting else 0
    run(session, EnlistWarband(name=name, player=player, faction=faction, treasury=treasury))


@warband.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pass_session
def warband_list(session: Session, as_json: bool) -> None:
    """List the warbands."""
    _cid, state = session.state()
    rows = [warband_row(state, w) for w in state.warbands]
    if as_json:
        emit_json(rows)
        return
    if not rows:
        click.echo("No warbands yet: add one with `campaign warband add NAME --player PLAYER`.")
    for row in rows:
        rating = f"  rating {row['rating']}" if row["rating"] is not None else ""
        click.echo(f"{row['name']}  ({row['player']})  {plural(row['fighters'], 'fighter')}  treasury {row['treasury']}"
                   f"{''.join('  ' + held for held in resources_held(row))}{rating}")


@warband.command("show")
@click.argument("warband_ref", metavar="WARBAND")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pass_session
def warband_show(session: Session, warband_ref: str, as_json: bool) -> None:
    """Show a warband's roster."""
    _show_roster(session, warband_ref, as_json)


@main.command("roster")
@click.argument("warband_ref", metavar="WARBAND")
@click.option("--format", "fmt", type=click.Choice(["text", *render.FORMATS]), default="text", show_default=True,
              help="text for the terminal; html or md: a printable roster sheet.")
@click.option("-o", "--out", "--output", "output", type=FileToWrite(), default=None,
              help="Write the sheet to this file instead of standard output.")
@force_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pass_session
def roster(session: Session, warband_ref: str, fmt: str, output: Path | None, force: bool, as_json: bool) -> None:
    """Show a warband's roster: fighters, stats, XP, skills, keywords, injuries, equipment, treasury."""
    if fmt == "text":
        if output is not None:
            raise BadInput("--out writes a roster sheet: add --format html or --format md")
        _show_roster(session, warband_ref, as_json)
        return
    if as_json:
        raise BadInput(f"give --json or --format {fmt}, not both")
    from ledger.cli.report import roster_sheet, write_output  # deferred: only a sheet needs the report builder

    if output is not None:  # before the work, and again as it is written
        files.refuse_writing(output, session.ledger.store.own_files, force)
    name, sheet = roster_sheet(session, warband_ref, fmt)
    if output is None:
        click.echo(sheet.encode("utf-8"), nl=False)
        return
    write_output(session, output, sheet, force=force)
    click.echo(f"Wrote the roster sheet of {name} to {output} ({fmt}).")


def _show_roster(session: Session, warband_ref: str, as_json: bool) -> None:
    _cid, state = session.state()
    band = state.warband(warband_ref)
    if as_json:
        emit_json(roster_view(state, band.id))
    else:
        print_roster(state, band.id)
