"""campaign log / history."""

from __future__ import annotations

import click

from ledger.cli.app import Session, emit_json, main, pass_session
from ledger.campaigns import battle_ends
from ledger.records import Record
from ledger.state import CampaignState
from ledger.text import shown, shown_sentence
from projections.history import fighter_history, log_rows


def _print_rows(rows: list[dict]) -> None:
    for row in rows:
        mark = ""
        if row["voided"]:
            v = row["voided"]
            mark = f"  [VOIDED by T{v['voided_by']} ({shown(v['voided_by_actor'])}): {shown(v['reason'])}]"
        # Each text of people's is escaped and isolated: it cannot forge a line or reorder the columns.
        click.echo(f"{row['position']:>5} T{row['tx']:<4} {shown(row['actor']):<10} {shown_sentence(row['text'])}{mark}")


@main.command("log")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("--all", "show_all", is_flag=True, help="Include bookkeeping events (commands, seeds).")
@pass_session
def log(session: Session, as_json: bool, show_all: bool) -> None:
    """The campaign chronicle: every event, voided ones marked with who voided them and why."""
    cid, state = session.state()
    records = session.ledger.history(cid)
    if as_json:
        emit_json(log_rows(records, state))
        return
    print_log(records, state, show_all=show_all)


def print_log(records: list[Record], state: CampaignState, *, show_all: bool = False) -> None:
    """The rows, and after each battle (the battle and all that followed it before the next one,
    as `replay --battle K` shows it) the head hash then, for players to note and check later
    with `campaign verify --head`."""
    rows = log_rows(records, state)
    # The last battle ends at the current head, which the log ends with.
    ends = {end: battle for battle, end in battle_ends(records).items() if end != state.position}
    for row in rows:
        if show_all or row["type"] != "command.recorded":
            _print_rows([row])
        if row["position"] in ends:
            click.echo(f"      Head after battle {ends[row['position']]}: {row['hash']}")
    click.echo(f"Head {state.head}")


@main.command("history")
@click.option("--fighter", "fighter_ref", default=None, help="One fighter's timeline.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pass_session
def history(session: Session, fighter_ref: str | None, as_json: bool) -> None:
    """A fighter's timeline, or the battles of the campaign."""
    cid, state = session.state()
    records = session.ledger.history(cid)
    if fighter_ref is not None:
        rows = fighter_history(records, state, state.fighter(fighter_ref).id)
    else:
        rows = [r for r in log_rows(records, state) if r["type"] == "battle.recorded"]
    if as_json:
        emit_json(rows)
        return
    _print_rows(rows)
