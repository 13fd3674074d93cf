"""campaign log / history."""

from __future__ import annotations

import shutil
import sys
import uuid
from typing import Any

import click

from ledger import describe, rulesets
from ledger import events as ev
from ledger.campaigns import battle_ends, battle_views, end_of_battle
from ledger.cli.app import Session, emit_json, main, pass_session
from ledger.errors import BadInput
from ledger.events import CommandRecorded
from ledger.fold import post_games_left_out
from ledger.records import Record
from ledger.state import CampaignState
from ledger.text import VOID_MARK, shown, shown_sentence, visible
from projections import sql
from projections.deeds import BattleWords, battle_deed_lines, battle_row
from projections.history import NamesKnown, positions_involving, warband_transactions
from projections.tables import log_entry, log_rows


def _head_after(battle: int, head: str) -> str:
    """The log's line of the head after a battle, for players to note and check with `verify --head`."""
    return f"      Head after battle {battle}: {head}"


def _row_lines(rows: list[dict[str, Any]], heads: dict[int, tuple[int, str]] | None = None) -> list[str]:
    """The rows as text; `heads` (see heads_after_battles) adds the head after each battle once the
    rows shown have reached its end."""
    lines: list[str] = []
    pending = sorted((heads or {}).items())
    for row in rows:
        while pending and pending[0][0] < row["position"]:
            _, (battle, head) = pending.pop(0)
            if lines:
                lines.append(_head_after(battle, head))
        mark = ""
        if row["voided"]:
            v = row["voided"]
            mark = f"  {VOID_MARK} by T{v['voided_by']} ({shown(v['voided_by_actor'])}): {shown(v['reason'])}]"
        # Each text of people's is escaped and isolated: it cannot forge a line or reorder the columns.
        lines.append(f"{row['position']:>5} T{row['tx']:<4} {visible(shown(row['actor'])):<10} "
                     f"{visible(shown_sentence(row['text']))}{mark}")
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


# The rows `campaign log` shows when no terminal says how many fit (piped, or in a script).
PAGE = 50


def page_rows() -> int:
    """The log's page: what fits on the screen with the head line below it, else PAGE rows."""
    return max(1, shutil.get_terminal_size().lines - 1) if output_is_terminal() else PAGE


def last_records(session: Session, cid: uuid.UUID, state: CampaignState, rows: int, show_all: bool) -> list[Record]:
    """The fewest records from the end that give the log's last `rows` rows (the voids that mark
    them come after them, so they are among these): a page costs the same whatever the history."""
    window = rows
    while True:
        after = max(0, state.position - window)
        records = session.ledger.history(cid, after=after)
        if after == 0 or sum(1 for r in records if show_all or not isinstance(r.event, CommandRecorded)) >= rows:
            return records
        window *= 2


def chronicle(session: Session, cid: uuid.UUID, state: CampaignState, records: list[Record]) -> list[dict[str, Any]]:
    """The log's rows of `records` (the history's last ones, or all of it): the rm_log rows, each event
    worded as the campaign stood just after its own transaction, as the report, the command that
    recorded it and `verify` word it. Read from the table where it reflects `state` (the load caught
    it up) and holds a row of each record, saying of it what the record says; else computed from the
    whole history as a rebuild computes them (a damaged table that lost rows changes no answer)."""
    first = records[0].position
    stored = sql.stored_log(session.ledger.store, cid, state, after=first - 1)
    if stored is not None:
        rows = [log_entry(row) for row in stored]
        if [(row["position"], row["tx"], row["type"], row["actor"], row["recorded_at"], row["hash"]) for row in rows] == [
                (r.position, r.tx, ev.tag_of(r.event), r.actor, r.recorded_at, r.hash) for r in records]:
            return rows
    history = records if first == 1 else session.ledger.history(cid)
    return [row for row in log_rows(history) if row["position"] >= first]


def shown_rows(
    records: list[Record],
    rows: list[dict[str, Any]],
    state: CampaignState,
    *,
    show_all: bool = False,
    warband: str | None = None,
    battle: int | None = None,
) -> list[dict[str, Any]]:
    """The log's rows (`chronicle`'s of `records`) it shows, text and JSON alike: without `show_all` the
    bookkeeping (`command.recorded`) rows are left out; then the warband's transactions, battle K's
    (`battle_views`)."""
    keep = set(range(1, state.position + 1))
    if warband is not None:
        txs = warband_transactions(records, state, state.warband(warband).id)
        keep &= {r.position for r in records if r.tx in txs}
    if battle is not None:
        end_of_battle(records, battle)  # no such battle: said so
        views = battle_views(records)
        keep &= {r.position for r in records if views[r.tx] == battle}
    return [row for row in rows if row["position"] in keep and (show_all or row["type"] != "command.recorded")]


@main.command("log")
@click.option("--warband", "warband_ref", default=None, metavar="WARBAND", help="Only the transactions about this warband.")
@click.option("--battle", type=int, default=None, metavar="K", help="Only battle K and what followed it before the next battle.")
@click.option("--tail", type=int, default=None, metavar="N", help="Only the last N rows.")
@click.option("--full", is_flag=True, help="The whole log, not only its last page (at a terminal, through the pager).")
@click.option("--all", "show_all", is_flag=True, help="Include bookkeeping rows (each transaction's recorded command).")
@click.option("--json", "as_json", is_flag=True, help="Print the same rows as JSON.")
@pass_session
def log(session: Session, warband_ref: str | None, battle: int | None, tail: int | None, full: bool, show_all: bool,
        as_json: bool) -> None:
    """The campaign chronicle: every event worded as when it was recorded, voided ones marked with who
    voided them and why.

    Without --full, --tail, --warband or --battle it shows its last page: what fits on the screen,
    or the last 50 rows when not at a terminal; only those events are read."""
    if tail is not None and tail < 1:
        raise BadInput("--tail takes a number of rows from 1")
    cid, state = session.state()
    paged = not full and tail is None and warband_ref is None and battle is None
    if paged:
        tail = page_rows()
    if tail is not None and warband_ref is None and battle is None:
        records = last_records(session, cid, state, tail, show_all)
    else:
        records = session.ledger.history(cid)
    rows = shown_rows(records, chronicle(session, cid, state, records), state, show_all=show_all, warband=warband_ref,
                      battle=battle)
    cut = tail is not None and (records[0].position > 1 or len(rows) > tail)
    if cut:
        rows = rows[-tail:]
        if paged:
            click.echo(f"(the last {tail} rows: --tail N shows the last N, --full all of them)", err=True)
    if as_json:
        emit_json(rows)
        return
    # The whole log notes the head after each battle; a part of it shows only what was asked for,
    # and --battle K the head after it, which `replay --battle K` and the report give for it.
    whole = (full or paged) and not cut
    heads = heads_after_battles(records, state) if whole or battle is not None else {}
    _show([*_row_lines(rows, heads if whole else None),
           *(_head_after(number, head) for number, head in heads.values() if number == battle),
           *(left_out_lines(records, state, battle, warband_ref) if battle is not None else []), f"Head {state.head}"])


def left_out_lines(records: list[Record], state: CampaignState, battle: int, warband_ref: str | None) -> list[str]:
    """What `log --battle K` does not show of battle K, as `replay --battle K` and the report name it:
    its post-game steps (or an earlier battle's) recorded once a later battle had begun; with
    --warband, that warband's only."""
    steps = post_games_left_out(records, battle)
    if warband_ref is not None:
        band = state.warband(warband_ref).id
        steps = [step for step in steps if step.warband == band]
    return describe.post_games_left_out_lines(state, steps)


def print_log(session: Session, cid: uuid.UUID, state: CampaignState, records: list[Record]) -> None:
    rows = shown_rows(records, chronicle(session, cid, state, records), state)
    for line in [*_row_lines(rows, heads_after_battles(records, state)), f"Head {state.head}"]:
        click.echo(line)


def heads_after_battles(records: list[Record], state: CampaignState) -> dict[int, tuple[int, str]]:
    """Position where each battle ends (the battle and all that followed it before the next one, as
    `replay --battle K` shows it) -> (battle, head hash then), for players to note and check later
    with `campaign verify --head`. The last battle ends at the current head, which the log ends with."""
    hashes = {r.position: r.hash for r in records}
    return {end: (battle, hashes[end]) for battle, end in battle_ends(records).items() if end != state.position}


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
    rows = chronicle(session, cid, state, records)
    about = state.fighter(fighter_ref).id if fighter_ref is not None else None
    if about is not None:
        involving = positions_involving(records, about, state.ruleset)
        rows = [row for row in rows if row["position"] in involving]
    else:
        rows = [row for row in rows if row["type"] == "battle.recorded"]
    if as_json:
        emit_json(rows)
        return
    if not rows and about is None:
        click.echo("No battle recorded yet.")
        return
    deeds = _deed_lines(records, state, about)
    _show([line for row in rows for line in _row_lines([row]) + deeds.get(row["position"], [])])


# Where a battle's deeds begin under its row: past the position, transaction and actor columns.
DEED_INDENT = " " * 25


def _deed_lines(records: list[Record], state: CampaignState, about: str | None) -> dict[int, list[str]]:
    """Position of each battle -> what its fighters did (`about`: only what that fighter did and
    what was done to him), as the report says it, to show under its row."""
    known = NamesKnown()
    for record in records:
        known.learn(record.event)
    named = known.filled_in(state)
    names = {f.id: f.name for f in named.fighters.values()} | {w.id: w.name for w in named.warbands.values()}
    owners = {f.id: f.warband for f in named.fighters.values()}
    words = BattleWords.of(rulesets.get(state.ruleset), state, records)
    return {record.position: [DEED_INDENT + visible(shown(line)) for line in battle_deed_lines(
                battle_row(record), names, words, owners, about)]
            for record in records if isinstance(record.event, ev.BattleRecorded)}
