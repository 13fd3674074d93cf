"""campaign battle record."""

from __future__ import annotations

import click

from commands.shared import RecordBattle
from ledger import events as ev
from ledger.cli.app import Session, main, parse_pairs, pass_session, run, writes
from ledger.errors import BadInput
from ledger.state import CampaignState


@main.group("battle")
def battle() -> None:
    """Battles."""


def deeds_for(state: CampaignState, warbands: list[str], absent: tuple[str, ...], out_of_action: tuple[str, ...],
              took_out: tuple[str, ...], glorious: tuple[str, ...]) -> list[ev.Deed]:
    """Every active fighter of the warbands fought, unless absent or missing games for an injury;
    flags add what each did."""
    band_ids = [state.warband(w).id for w in warbands]
    fighters = [f for b in band_ids for f in state.fighters_of(b) if not f.missed_games]
    missing = {state.fighter(name).id for name in absent}

    def ids(names: tuple[str, ...]) -> list[str]:
        return [state.fighter(name).id for name in names]

    ooa = set(ids(out_of_action))
    took: dict[str, list[str]] = {}
    for fighter_name, enemy in _pairs(took_out, "--took-out"):
        took.setdefault(state.fighter(fighter_name).id, []).append(enemy)
    deeds_of: dict[str, list[str]] = {}
    for fighter_name, deed in _pairs(glorious, "--glorious"):
        deeds_of.setdefault(state.fighter(fighter_name).id, []).append(deed)
    fought = {f.id for f in fighters if f.id not in missing}
    for named in ooa | set(took) | set(deeds_of):
        if named not in fought:
            raise BadInput(f"{state.fighters[named].name} did not fight in this battle")
    return [
        ev.Deed(fighter=f.id, out_of_action=f.id in ooa, took_out=took.get(f.id, []), glorious_deeds=deeds_of.get(f.id, []))
        for f in fighters
        if f.id in fought
    ]


def _pairs(values: tuple[str, ...], option: str) -> list[tuple[str, str]]:
    pairs = []
    for value in values:
        pairs.extend(parse_pairs([value], option).items())
    return pairs


@battle.command("record")
@writes
@click.option("--warband", "warbands", multiple=True, required=True, help="A warband that fought (repeat).")
@click.option("--winner", default=None, help="The winning warband (omit for a draw).")
@click.option("--scenario", default="", help="The scenario played.")
@click.option("--absent", multiple=True, help="A fighter who did not take part (repeatable).")
@click.option("--ooa", "out_of_action", multiple=True, help="A fighter taken out of action (repeatable).")
@click.option("--took-out", multiple=True, metavar="FIGHTER=ENEMY", help="FIGHTER took ENEMY out of action (repeatable).")
@click.option("--glorious", multiple=True, metavar="FIGHTER=DEED", help="FIGHTER did a glorious deed (repeatable).")
@pass_session
def battle_record(session: Session, warbands: tuple[str, ...], winner: str | None, scenario: str, absent: tuple[str, ...],
                  out_of_action: tuple[str, ...], took_out: tuple[str, ...], glorious: tuple[str, ...]) -> None:
    """Record a battle: who fought, who won, and what each fighter did."""
    _cid, state = session.state()
    deeds = deeds_for(state, list(warbands), absent, out_of_action, took_out, glorious)
    run(session, RecordBattle(participants=list(warbands), winner=winner, scenario=scenario, deeds=deeds))
