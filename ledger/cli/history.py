"""campaign log / history."""

from __future__ import annotations

import shutil
import sys
from typing import Any

import click

from ledger.campaigns import battle_span
from ledger.cli.app import Session, emit_json, main, pass_session
from ledger.errors import BadInput
from ledger.records import Record
from ledger.state import CampaignState
from ledger.text import shown, shown_sentence
from projections.history import fighter_history, log_rows, warband_transactions


def _row_lines(rows: list[dict[str, Any]]) -> list[str]:
    lines = []
    for row in rows:
        mark = ""
        if row["voided"]:
            v = row["voided"]
            mark = f"  [VOIDED by T{v['voided_by']} ({shown(v['voided_by_actor'])}): {shown(v['reason'])}]"
        # Each text of people's is escaped and isolated: it cannot forge a line or reorder the columns.
        lines.append(f"{row['position']:>5} T{row['tx']:<4} {shown(row['actor']):<10} {shown_sentence(row['text'])}{mark}")
    return lines


def output_is_terminal() -> bool:
    return sys.stdout.isatty()


def _show(lines: list[str]) -> None:
    """At a terminal a long log goes through the pager (`$PAGER`, else less/more); piped, it is printed."""
    if output_is_terminal() and len(lines) > shutil.get_terminal_size().lines:
        click.echo_via_pager("\n".join(lines) + "\n")
    else:
        for line in lines:
            click.echo(line)


def shown_rows(
    records: list[Record],
    state: CampaignState,
    *,
    show_all: bool = False,
    warband: str | None = None,
    battle: int | None = None,
    tail: int | None = None,
) -> list[dict[str, Any]]:
    """The log's rows, text and JSON alike: without `show_all` the bookkeeping (`command.recorded`)
    rows are left out; then the warband's transactions, battle K's span, the last N rows."""
    keep = set(range(1, state.position + 1))
    if warband is not None:
        txs = warband_transactions(records, state, state.warband(warband).id)
        keep &= {r.position for r in records if r.tx in txs}
    if battle is not None:
        first, last = battle_span(records, battle)
        keep &= set(range(first, last + 1))
    rows = [row for row in log_rows(records, state) if row["position"] in keep]
    rows = [row for row in rows if show_all or row["type"] != "command.recorded"]
    if tail is not None:
        if tail < 1:
            raise BadInput("--tail takes a number of rows from 1")
        rows = rows[-tail:]
    return rows


@main.command("log")
@click.option("--warband", "warband_ref", default=None, metavar="WARBAND", help="Only the transactions about this warband.")
@click.option("--battle", type=int, default=None, metavar="K", help="Only battle K and what followed it before the next battle.")
@click.option("--tail", type=int, default=None, metavar="N", help="Only the last N rows.")
@click.option("--all", "show_all", is_flag=True, help="Include bookkeeping rows (each transaction's recorded command).")
@click.option("--json", "as_json", is_flag=True, help="Print the same rows as JSON.")
@pass_session
def log(session: Session, warband_ref: str | None, battle: int | None, tail: int | None, show_all: bool,
        as_json: bool) -> None:
    """The campaign chronicle: every event, voided ones marked with who voided them and why.

    At a terminal a log longer than the screen is shown through the pager."""
    cid, state = session.state()
    records = session.ledger.history(cid)
    rows = shown_rows(records, state, show_all=show_all, warband=warband_ref, battle=battle, tail=tail)
    if as_json:
        emit_json(rows)
        return
    _show([*_row_lines(rows), f"Head {state.head}"])


def print_log(records: list[Record], state: CampaignState) -> None:
    for line in [*_row_lines(shown_rows(records, state)), f"Head {state.head}"]:
        click.echo(line)


@main.command("history")
@click.argument("fighter_ref", metavar="[FIGHTER]", required=False)
@click.option("--fighter", "fighter_option", default=None, hidden=True, help="The same as FIGHTER (older scripts).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pass_session
def history(session: Session, fighter_ref: str | None, fighter_option: str | None, as_json: bool) -> None:
    """FIGHTER's timeline, or without one the battles of the campaign."""
    if fighter_ref is not None and fighter_option is not None:
        raise BadInput("name the fighter once: `campaign history FIGHTER`")
    fighter_ref = fighter_ref or fighter_option
    cid, state = session.state()
    records = session.ledger.history(cid)
    if fighter_ref is not None:
        rows = fighter_history(records, state, state.fighter(fighter_ref).id)
    else:
        rows = [r for r in log_rows(records, state) if r["type"] == "battle.recorded"]
    if as_json:
        emit_json(rows)
        return
    _show(_row_lines(rows))
