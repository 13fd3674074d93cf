"""campaign verify / export / import: the audit trail (docs/audit-format.md describes the file)."""

from __future__ import annotations

import contextlib
import csv
import functools
import io
import json
import os
import stat
import tempfile
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Iterator, Mapping
from typing import Any, BinaryIO

import click

from ledger import audit, files
from ledger.beside import Beside, Outcome
from ledger import events as ev
from ledger.cli.app import FileToWrite, Session, emit_json, force_option, main, pass_session, progress
from ledger.cli.report import dice_line, verified, write_output
from ledger.describe import plural
from ledger.errors import IntegrityFailure, LedgerError
from ledger.keyfile import KeyFile
from ledger.store import Store, uses_key_file
from ledger.records import Record, canonical
from ledger.text import written_out
from ledger.seeds import NO_SEED_FROM_A_LEAGUE, committed_to
from ledger.chain import die_sides
from ledger.dealer import expression_for
from projections import render, sql
from projections.render import md_cell, md_code_cell, md_text
from projections.history import void_annotations
from projections.report import build_report
from projections.tables import log_rows


def _summary(chain: audit.Chain, noted: int | None) -> dict[str, Any]:
    return {
        "campaign_id": chain.campaign_id,
        "name": chain.name,
        "events": chain.count,
        "transactions": chain.transactions,
        "head": chain.head,
        "revealed_seeds": {str(e): s for e, s in sorted(chain.revealed.items())},
        "ledger_rolls_verified": chain.ledger_rolls_verified,
        "ledger_rolls_waiting": {str(e): n for e, n in sorted(chain.ledger_rolls_waiting.items())},
        "snapshot": chain.snapshot,
        "noted_head_position": noted,
    }


@contextlib.contextmanager
def _naming(trail: BinaryIO | None) -> Iterator[None]:
    """With two trails to read, a failure names the file it is in ("line 21" could be either)."""
    try:
        yield
    except IntegrityFailure as error:
        if trail is None:
            raise
        raise IntegrityFailure(f"{trail.name}: {error}") from None


@main.command("verify")
@click.argument("trail", required=False, type=click.File("rb"))
@click.option("--head", "noted_head", default=None, metavar="HASH",
              help="A head hash noted earlier (at least 8 hex digits): it must be in the chain.")
@click.option("--extends", "older_trail", type=click.File("rb"), default=None, metavar="OLD.jsonl",
              help="An earlier export of the campaign: prove this history starts with exactly its events.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pass_session
def verify(session: Session, trail: BinaryIO | None, noted_head: str | None, older_trail: BinaryIO | None,
           as_json: bool) -> None:
    """Check the hash chain and the revealed ledger dice of the campaign, or of an exported TRAIL file.

    Exits 3 naming the first position (or line) that does not verify."""
    read_models = None
    league = LeagueDice()
    if trail is not None:
        with progress("Verifying", _events_in(trail)) as advance, _naming(trail if older_trail else None):
            chain = audit.read_trail(trail, void_annotations, advance)
        subject = f"{trail.name}, campaign"
    else:
        chain, read_models, league = _verified_store(session.ledger.store, session.campaign_ref)
        subject = "campaign"
    noted = audit.locate_head(chain, noted_head) if noted_head is not None else None
    extended = 0
    if older_trail is not None:
        with _naming(older_trail):
            older = audit.read_trail(older_trail, void_annotations)
        extended = audit.check_extends(chain, older, older_trail.name)
    unanchored = _unanchored_after(chain, noted, chain.count - extended if older_trail is not None else None)
    if as_json:
        summary = _summary(chain, noted)
        summary["unanchored_after_position"] = unanchored
        if league.unrecorded:
            summary["dealt_unrecorded"] = [
                {"roll": x.roll, "epoch": x.epoch, "dealt_to": x.dealt_to, "dealt_at": x.dealt_at}
                for x in league.unrecorded
            ]
        if league.revealed_outside:
            summary["revealed_outside_history"] = league.revealed_outside
        if older_trail is not None:
            summary["extends"] = {"trail": older_trail.name, "events": chain.count - extended, "added": extended}
        emit_json(summary)
        return
    click.echo(f"Hash chain intact: {subject} {chain.name} ({chain.campaign_id}), "
               f"{plural(chain.count, 'event')} in {plural(chain.transactions, 'transaction')}.")
    click.echo(dice_line(chain))
    if unanchored is not None:
        click.echo(_not_checked_line(unanchored, chain.count, None if trail is not None else session.ledger.store))
    if chain.snapshot is not None:
        click.echo(f"Snapshot at position {chain.snapshot} matches the events.")
    for epoch in league.revealed_outside:
        click.echo(f"Epoch {epoch}: its seed was revealed in this database, but the campaign's history has no "
                   "record of it, so no ledger die is dealt from it any more: `campaign seed reveal` records the "
                   f"reveal and opens epoch {epoch + 1} (the league's administrator runs it).")
    if league.unrecorded:
        state = session.ledger.load(uuid.UUID(chain.campaign_id))
        dealt = {(x.epoch, x.roll) for x in league.unrecorded}
        taken = _rolls_numbered(session.ledger.store, uuid.UUID(chain.campaign_id),
                                {x.roll for x in league.unrecorded if x.roll < state.rolls})
        for x in league.unrecorded:
            click.echo(f"Dealt but not recorded: R{x.roll} (epoch {x.epoch}) to {x.dealt_to} at {x.dealt_at}; "
                       f"{_burned_when(x.epoch, x.roll, state.epoch, state.rolls, dealt)}{_taken_alike(x, taken)}.")
    if isinstance(read_models, sql.OtherFormat):
        click.echo(f"Read models not compared: {read_models}.")
    elif read_models is not None:
        position, tables = read_models.position, read_models.tables
        behind = "" if position == chain.count else (
            f" (they reflect position {position}: `campaign rebuild` catches them up)")
        click.echo(f"Read models: the {tables} rm_* tables match a rebuild from the events{behind}.")
    if noted is not None:
        added = chain.count - noted
        click.echo("The noted head is the current head." if added == 0 else
                   f"Head noted at position {noted}; {plural(added, 'event')} {'was' if added == 1 else 'were'} added since.")
    if older_trail is not None:
        kept = chain.count - extended
        click.echo(f"Extends {older_trail.name}: its {plural(kept, 'event')} are the first {kept} here; "
                   f"{plural(extended, 'event')} added since.")
    click.echo(f"Head {chain.head}")


def _unanchored_after(chain: audit.Chain, noted: int | None, kept: int | None) -> int | None:
    """The position after which a history is held to nothing but itself (0: all of it), None when a noted
    head or an earlier export it extends reaches its last event."""
    anchored = max(noted or 0, kept or 0)
    return anchored if anchored < chain.count else None


def _not_checked_line(unanchored: int, count: int, store: Store | None) -> str:
    """What neither a trail (`store` None) nor a store's own rows can show of the events past a noted head or
    an earlier export (docs/audit-format.md, "What a trail cannot show"): someone who can write them may
    rewrite and rehash them, and the chain holds with another head. A league server's record of the dice it
    dealt, which its dice role alone writes, checks each ledger roll's source and purpose; nothing checks what
    a person typed, or an end cut off."""
    where = "" if unanchored == 0 else f" in the {plural(count - unanchored, 'event')} after position {unanchored}"
    typed, cut_off = "what a person typed (commands, answers, table dice)", "that no event was cut off the end"
    if store is not None and store.dealer is not None:
        unchecked = f"{typed} and {cut_off}"
    else:
        unchecked = (f"{typed}, that a roll shown as table dice was not the ledger's, what each roll was for (a ledger "
                     f"die is derived from its roll's number alone), and {cut_off}")
    if store is None:
        cannot, rewritten, next_time = ("no trail can show it", "rewritten so and rehashed, a trail",
                                        "note this one to check the next export against")
    else:
        cannot, rewritten, next_time = ("the store's own rows cannot show it",
                                        "rewritten so and rehashed by someone with write access to the database, "
                                        "the store", "note this one to check the store against next time")
    check = ("check it against a head noted earlier (--head HASH) or an earlier export (--extends OLD.jsonl)"
             if unanchored == 0 else next_time)
    return f"Not checked{where} ({cannot}): {unchecked}; {rewritten} has another head: {check}."


def _verified_store(
    store: Store, campaign_ref: str | None
) -> tuple[audit.Chain, sql.ReadModelCheck | sql.OtherFormat | None, LeagueDice]:
    """A stored campaign's chain verified, its read models checked against a rebuild, and what a league
    server's dice say beside it (LeagueDice); a damaged file named first."""
    with _damage_named_first(store) as file_check:
        campaign_id = audit.find_campaign(store, campaign_ref)
        # The tables' tracking row is read before the chain; their rows are summed up beside the
        # chain's reading (by the process that checks a large file, after its check; else, in a long
        # history, by the process that rebuilds them, while it waits for the first records), or,
        # where a writer moved them on meanwhile, as they were at its start.
        with sql.held_read_models(store, campaign_id) as held:
            file_check.start(held.tracked)

            def read_models_and_rolls(checked: Store, records: Iterator[Record], voids: list[Record]
                                      ) -> tuple[sql.StoredReadModels | None, dict[str, Any] | None, LedgerRolls]:
                """The stored read models' sums (None where they moved on, or are summed up by the
                file's check), the rebuilt ones, and the ledger rolls recorded. A refusal of the
                tables is raised here: a chain that does not verify is named first."""
                if isinstance(held.tracked, LedgerError):
                    raise held.tracked
                stored = held.stored or (sql.stored_as_tracked(checked, held.tracked)
                                         if held.tracked and not file_check.sums_tables else None)
                ledger_rolls: LedgerRolls = {}
                recorded = _ledger_rolls(records, ledger_rolls, details=store.dealer is not None)
                rebuilt = sql.rebuilt_sums(held.tracked, recorded, voids)
                for _record in recorded:  # those after the position the read models reflect
                    pass
                return stored, rebuilt, ledger_rolls

            with progress("Verifying", store.last_position(campaign_id)) as advance:
                chain, (stored, rebuilt, ledger_rolls) = audit.verify_store_reading(
                    store, campaign_id, read_models_and_rolls, advance, beside=True)
            stored = stored or file_check.stored_tables()
            if stored is None:
                held.read()
                stored = held.stored
        read_models = sql.compare(stored, rebuilt)
        if read_models is not None and read_models.differ:
            sql.name_difference(store, campaign_id, read_models, chain.records)
    if held.other_format is not None:
        read_models = sql.OtherFormat(held.other_format)
    return chain, read_models, _league_dice(store, campaign_id, ledger_rolls, chain.revealed)


def _burned_when(epoch: int, roll: int, open_epoch: int, next_roll: int, dealt: set[tuple[int, int]]) -> str:
    """What becomes of a roll number dealt and never recorded (SeedKeeping._burns): the next command
    burns the numbers dealt in the open epoch from the next one on, one after another; a number further
    on is burned when the campaign's rolls reach it; one of an epoch closed since (revealed, left
    behind), or whose number the campaign took meanwhile (a table roll that won a race), is never used."""
    if epoch != open_epoch:
        return f"never used: epoch {epoch} is closed"
    if roll < next_roll:
        return f"never used: the campaign's R{roll} was recorded without it"
    if all((epoch, number) in dealt for number in range(next_roll, roll)):
        return "the next command burns it"
    return f"burned when the campaign's rolls reach R{roll}"


def _rolls_numbered(store: Store, campaign_id: uuid.UUID, numbers: set[int]) -> dict[int, ev.DiceRolled]:
    """The campaign's rolls of these numbers (not a reroll's copies), read through the topic index."""
    if not numbers:
        return {}
    rolls = store.records_tagged(campaign_id, [ev.DiceRolled.__struct_config__.tag])
    return {r.event.roll: r.event for r in rolls if r.event.roll in numbers and r.event.copy_of is None}


def _taken_alike(dealt: Any, taken: Mapping[int, ev.DiceRolled]) -> str:
    """What to say of a number dealt here that the campaign recorded as table dice for what it was dealt
    for: either a command that took the number while a ledger roll was being dealt it, or a ledger roll
    relabelled as table dice in the store (no chain can tell them apart: docs/audit-format.md)."""
    roll = taken.get(dealt.roll)
    if roll is None or roll.source != "table" or (roll.expression, roll.purpose) != (dealt.expression, dealt.purpose):
        return ""
    faces = ", with the very faces dealt here" if roll.faces == list(dealt.faces) else ""
    return (f", as table dice of {roll.expression} for '{roll.purpose}', what it was dealt for{faces}: a command that "
            "took the number while it was dealt, or a ledger roll relabelled as table dice in the store")


def _raise_if_damaged(store: Any, *, quick: bool = False) -> None:
    """IntegrityFailure naming what SQLite's full check of the file finds; with `quick`, looked for
    only where its quick check finds something (named by the quick check if the full one does not)."""
    found = store.damage(quick=True) if quick else None
    if quick and not found:
        return
    damage = store.damage() or found
    if damage:
        raise IntegrityFailure(f"the store {store.url} is damaged (SQLite finds: {damage}); restore a copy made by "
                               "`campaign backup`, or import an exported trail into a new store")


# From this size a SQLite file is checked in a process beside the verifying (about 1 ms a MB for
# the quick check; a fork and the store opened again cost about 10 ms): in a league's store it
# takes seconds.
DAMAGE_CHECK_BESIDE_FROM = 8 << 20


class _FileCheck:
    """SQLite's quick check of every page of the file: a small file's at once, a large file's in a
    process beside the verifying, `start`ed once the tables' tracking row is read. That process,
    which ends well before the chain's reading, then sums up the read-model tables (where they are
    still at that tracking row), which the process rebuilding them would otherwise do (it is the
    longer of the two)."""

    def __init__(self, store: Store):
        self.store = store
        self.large = store.opens_elsewhere and store.file_size >= DAMAGE_CHECK_BESIDE_FROM
        self.checker: Beside | None = None
        self.outcome: Outcome | None = None  # the checker's, once it came back
        if not self.large:
            _raise_if_damaged(store, quick=True)

    @property
    def sums_tables(self) -> bool:
        return self.checker is not None

    def start(self, tracked: sql.TrackingRow | LedgerError | None) -> None:
        if self.large and self.checker is None:
            tables = tracked if isinstance(tracked, sql.TrackingRow) else None
            self.checker = Beside.started(functools.partial(_damage_checked, self.store, tables))
            if self.checker is None:  # no process to be had: checked here
                self.large = False
                _raise_if_damaged(self.store, quick=True)

    def stored_tables(self) -> sql.StoredReadModels | None:
        """The tables' sums the process beside read (None where it did not, or they had moved on),
        once it ended: IntegrityFailure if it found the file damaged."""
        if self.checker is None:
            return None
        outcome = self.finish()
        return outcome.result if outcome.done else None

    def finish(self) -> Outcome:
        """The check's outcome (done here where there was no process beside, or it was lost);
        IntegrityFailure naming the damage it found."""
        if self.outcome is None:
            # a small file was checked at the start; a large one never `start`ed is checked below
            self.outcome = self.checker.finish() if self.checker is not None else Outcome(done=not self.large)
            if self.outcome.refused is not None:
                raise self.outcome.refused
            if not self.outcome.done:  # lost, or never started: checked here
                _raise_if_damaged(self.store, quick=True)
        return self.outcome

    def stop(self) -> None:
        if self.checker is not None and self.outcome is None:
            self.checker.stop()

    def named(self, failure: BaseException) -> bool:
        """Is `failure` the damage this check found (so that the file need not be checked again)?"""
        return self.outcome is not None and failure is self.outcome.refused


@contextlib.contextmanager
def _damage_named_first(store: Store) -> Iterator[_FileCheck]:
    """SQLite's check of the whole file (_FileCheck), named instead of anything the block failed on
    (a damaged file fails in ways of its own), as if it had been checked first. Its quick check of
    every page runs in any case; the full check, which also matches each index with its table at 2.5
    times the cost (most of a verify in a league's store), runs where the quick one finds something
    or the block failed: an index that does not match its table fails the block where the block
    reads through it, and elsewhere changes nothing it says."""
    check = _FileCheck(store)
    try:
        yield check
    except BaseException as failure:
        check.stop()
        if isinstance(failure, Exception) and not check.named(failure):  # not when interrupted
            _raise_if_damaged(store)
        raise
    check.finish()


def _damage_checked(store: Store, tracked: sql.TrackingRow | None, _items: object) -> sql.StoredReadModels | None:
    """The quick check, in the process beside (on the store opened again), then the read-model
    tables summed up where they are still at `tracked` (None where they moved on, or cannot be
    read: the first process reads them, and names what keeps them from being read)."""
    again = store.reopened()
    try:
        _raise_if_damaged(again, quick=True)
        if tracked is None:
            return None
        try:
            return sql.stored_as_tracked(again, tracked)
        except LedgerError:
            return None
    finally:
        again.close()


# (epoch, roll number) -> (position, expression, faces, purpose) of each ledger roll stored (None: not asked)
LedgerRolls = dict[tuple[int | None, int], tuple[int, str, list[int], str] | None]


def _ledger_rolls(records: Iterator[Record], rolls: LedgerRolls, *, details: bool) -> Iterator[Record]:
    """The records, passed on; (epoch, roll) of each ledger roll among them (not a reroll's copy)
    added to `rolls` as they go by, with where it is and what it shows if `details`."""
    for record in records:
        event = record.event
        if isinstance(event, ev.DiceRolled) and event.source == "ledger" and event.copy_of is None:
            rolls[(event.epoch, event.roll)] = (
                (record.position, event.expression, event.faces, event.purpose) if details else None)
        yield record


@dataclass(frozen=True)
class LeagueDice:
    """What `verify` says of a league server's dice beside the chain: the roll numbers it dealt that
    the stream does not hold (a peek, or a crash), and the epochs whose seed it revealed without the
    history recording it (a reveal called by hand, or one that stopped before it was stored), from
    which no die is dealt any more."""

    unrecorded: list[Any] = field(default_factory=list)
    revealed_outside: list[int] = field(default_factory=list)


def _league_dice(store: Any, campaign_id: uuid.UUID, recorded: LedgerRolls, revealed: Mapping[int, Any]) -> LeagueDice:
    """The league server's dice beside the chain (`revealed`: the epochs the history reveals);
    IntegrityFailure for a stored ledger roll of an epoch whose seed the server holds that it never
    dealt, or dealt other dice or for another expression or purpose (written into the store by hand,
    not rolled)."""
    if store.dealer is None:
        return LeagueDice()
    dealt = store.dealer.dealt(str(campaign_id))
    held = store.dealer.holds(str(campaign_id), committed_to(store, campaign_id))
    _refuse_abandoned_here(store, campaign_id, held)
    _refuse_undealt(held, dealt, recorded)
    return LeagueDice(unrecorded=[x for x in dealt if (x.epoch, x.roll) not in recorded],
                      revealed_outside=sorted(e for e, shown in held.items() if shown and e not in revealed))


def _refuse_abandoned_here(store: Any, campaign_id: uuid.UUID, held: dict[int, bool]) -> None:
    """An epoch is left behind (`seed new-epoch`) only where its seed is not at hand: one whose seed this
    server holds, as the campaign committed to it, was left behind by events written by hand, which
    then rolled from a seed of their own choosing in the epoch after it."""
    for record in store.records_tagged(campaign_id, [ev.SeedAbandoned.__struct_config__.tag]):
        if record.event.epoch in held:
            raise IntegrityFailure(f"position {record.position}: epoch {record.event.epoch} is left behind (seed "
                                   "new-epoch), but this database holds its seed as the campaign committed to it: "
                                   "an epoch is left behind only where its seed is elsewhere; the store was edited")


def _refuse_undealt(held: dict[int, bool], dealt: list[Any], recorded: LedgerRolls) -> None:
    """Every ledger roll of an epoch whose seed is in the database was dealt by its dice role, as
    stored, and for what it is stored for (a burned roll aside; a roll dealt by an older version
    recorded no purpose): the first (in stream order) that was not is named. Epochs committed
    elsewhere (a trail imported from another store) are not the server's to check."""
    by_number = {(x.epoch, x.roll): x for x in dealt}
    for (epoch, roll), (position, expression, faces, purpose) in sorted(
            ((key, shown) for key, shown in recorded.items() if shown is not None and key[0] in held),
            key=lambda item: item[1][0]):
        x = by_number.get((epoch, roll))
        if x is None:
            raise IntegrityFailure(f"position {position}: ledger roll R{roll} (epoch {epoch}) was never dealt by "
                                   "the database's dice role: it was written into the store, not rolled; the store "
                                   "was edited")
        if x.faces != list(faces) or x.sides != die_sides(expression):
            raise IntegrityFailure(f"position {position}: ledger roll R{roll} (epoch {epoch}) shows {expression} "
                                   f"{list(faces)}, but the database's dice role dealt it {expression_for(x.sides)} "
                                   f"{x.faces}; the store was edited")
        if x.purpose is not None and (x.expression, x.purpose) != (expression, purpose) and purpose != x.burned_purpose:
            raise IntegrityFailure(f"position {position}: ledger roll R{roll} (epoch {epoch}) is stored as {expression} "
                                   f"for '{purpose}', but the database's dice role dealt it as {x.expression} for "
                                   f"'{x.purpose}'; the store was edited")


# --- export ---------------------------------------------------------------------------------------------


def _rows(chain: audit.Chain) -> list[dict[str, Any]]:
    """The trail's rows for people: the log's description (its rm_log row's, computed from the verified
    chain as a rebuild computes it) beside each event's payload."""
    rows = log_rows(list(chain.records))
    for row, entry in zip(rows, chain.entries):
        row["payload"] = canonical(entry.body["payload"]).decode("utf-8")
    return rows


def _voided_text(row: dict[str, Any]) -> str:
    v = row["voided"]
    return f"by T{v['voided_by']} ({v['voided_by_actor']}, {v['voided_at']}): {v['reason']}" if v else ""


COLUMNS = ("position", "tx", "type", "actor", "recorded_at", "description", "payload", "voided", "hash")


def _cells(row: dict[str, Any]) -> list[str]:
    return [str(row["position"]), f"T{row['tx']}", row["type"], row["actor"], row["recorded_at"],
            row["text"], row["payload"], _voided_text(row), row["hash"]]


def _csv(rows: list[dict[str, Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    writer.writerows([_inert(written_out(cell)) for cell in _cells(row)] for row in rows)
    return out.getvalue()


def _inert(cell: str) -> str:
    """A cell a spreadsheet shows as text: one that begins as a formula does (a fighter named
    `@SUM(1+1)`, `=HYPERLINK(…)`) is written after an apostrophe, which the spreadsheet does not show."""
    return "'" + cell if cell[:1] in ("=", "+", "-", "@", "\t", "\r") else cell


def _markdown(chain: audit.Chain, rows: list[dict[str, Any]]) -> str:
    ruleset = chain.ruleset
    options = canonical(ruleset["options"]).decode("utf-8")
    lines = [
        f"# Audit trail of {md_text(chain.name)}",
        "",
        f"- Campaign id: {chain.campaign_id}",
        f"- Ruleset: {ruleset['id']} v{ruleset['version']}, options {md_cell(options)}",
        f"- Events: {chain.count} in {plural(chain.transactions, 'transaction')}",
        f"- Head: {chain.head}",
        "- Revealed seeds: " + (", ".join(f"epoch {e} {s}" for e, s in sorted(chain.revealed.items())) or "none"),
        "",
        "The JSON Lines export of this campaign is the verifiable trail (`campaign verify FILE`).",
        "",
        "| " + " | ".join(COLUMNS) + " |",
        "|" + "---|" * len(COLUMNS),
    ]
    payload = COLUMNS.index("payload")  # JSON, shown as written: a code span
    lines += ["| " + " | ".join(md_code_cell(cell) if column == payload else md_cell(cell)
                                for column, cell in enumerate(_cells(row))) + " |" for row in rows]
    return "\n".join(lines) + "\n"


@main.command("export")
@click.option("--format", "fmt", type=click.Choice(["jsonl", "csv", "md", "md-audit"]), default="jsonl", show_default=True,
              help="jsonl: the verifiable trail; csv and md-audit: its rows for people; md: the chronicle to read.")
@click.option("-o", "--output", type=FileToWrite(), default=None,
              help="Write to this file instead of standard output (never over an existing one).")
@force_option
@pass_session
def export(session: Session, fmt: str, output: Path | None, force: bool) -> None:
    """Export the campaign's audit trail: every event, who did it, when, why, with its hash chain;
    or (md) the campaign as a readable chronicle: standings, rosters, battles, heads."""
    store = session.ledger.store
    if output is not None:  # before the work, and again as it is written
        files.refuse_writing(output, store.own_files, force)
    campaign_id = audit.find_campaign(store, session.campaign_ref)
    with _unverified_exports_nothing():
        if fmt == "jsonl":
            with progress("Exporting", store.last_position(campaign_id)) as advance:
                lines = audit.store_trail_lines(store, campaign_id, void_annotations, advance)
                count, name, head = _write_lines(lines, output, store.own_files, force)
            if output is not None:
                click.echo(f"Exported {plural(count, 'event')} of {name} to {output} ({fmt}). Head {head}")
            return
        chain = audit.verify_store(store, campaign_id)
    if fmt == "csv":
        text = _csv(_rows(chain))
    elif fmt == "md-audit":
        text = _markdown(chain, _rows(chain))
    else:
        text = render.chronicle_md(build_report(list(chain.records), verified(chain)))
    if output is None:
        click.echo(text.encode("utf-8"), nl=False)  # bytes: written as UTF-8 whatever the terminal's encoding
        return
    write_output(session, output, text, force=force)
    click.echo(f"Exported {plural(chain.count, 'event')} of {chain.name} to {output} ({fmt}). Head {chain.head}")


def _events_in(trail: BinaryIO) -> int:
    """The event lines of a trail file (all but its header and trailer), counted without parsing
    them, for a progress bar; 0 for one that cannot be read twice (a pipe), or that has no end to
    count to (a device: /dev/zero reads as long as it is read, and is refused at its first line)."""
    if not trail.seekable() or not _has_an_end(trail):
        return 0
    start = trail.tell()
    lines = sum(chunk.count(b"\n") for chunk in iter(lambda: trail.read(1 << 20), b""))
    trail.seek(start)
    return max(0, lines - 2)


def _has_an_end(trail: BinaryIO) -> bool:
    """Is the trail a regular file (or bytes in memory), not a device?"""
    try:
        return stat.S_ISREG(os.fstat(trail.fileno()).st_mode)
    except (OSError, ValueError):  # io.UnsupportedOperation: in memory (a test's standard input)
        return True


@contextlib.contextmanager
def _unverified_exports_nothing() -> Iterator[None]:
    try:
        yield
    except IntegrityFailure as error:
        raise IntegrityFailure(f"nothing exported: the stored chain does not verify: {error}") from None


def _write_lines(lines: Iterator[str], output: Path | None, kept: Mapping[str, str],
                 force: bool) -> tuple[int, str, str]:
    """The trail written as it is verified (never held whole), whole or not at all: to a file renamed
    into place once the trailer is written, or to standard output once all of it verified (kept in
    a temporary file meanwhile). (events, campaign name, head), read back from the header and trailer."""
    with contextlib.ExitStack() as stack:
        if output is None:
            out: BinaryIO = stack.enter_context(tempfile.TemporaryFile())
        else:
            temporary = stack.enter_context(files.written_whole(output, kept=kept, force=force))
            out = stack.enter_context(open(temporary, "wb"))
        header = trailer = ""
        for line in lines:
            header, trailer = header or line, line
            out.write(line.encode("utf-8") + b"\n")
        if output is None:
            out.seek(0)
            while chunk := out.read(1 << 16):
                click.echo(chunk, nl=False)  # bytes: UTF-8 whatever the terminal's encoding
    campaign, end = json.loads(header)["campaign"], json.loads(trailer)
    return end["count"], campaign["name"], end["head"]


# --- import ---------------------------------------------------------------------------------------------


@main.command("import")
@click.argument("trail", type=click.File("rb"))
@pass_session
def import_trail(session: Session, trail: BinaryIO) -> None:
    """Rebuild a campaign from an exported JSON Lines TRAIL, identical down to its head hash.

    The trail is verified first; nothing is written unless all of it verifies. The secret seed of
    the campaign's open dice epoch is not in a trail: it comes from this machine's key file (see
    `campaign seed`)."""
    # Three steps over the whole trail, which is never held: verified, re-decided, and stored with its
    # read-model rows (beside the storing, the first two are one reading of it).
    with progress("Importing", 3 * _events_in(trail)) as advance:
        if uses_key_file(session.store_url):
            # Verified and re-decided beside the storing (its seeds are the key file's, not the
            # store's), which commits once it passed: a refusal stores nothing, and leaves no file.
            keys = KeyFile()
            chain, state = audit.import_trail(lambda: session.ledger, trail, void_annotations,
                                              lambda cid, epoch: keys.seed(str(cid), epoch), advance)
        else:
            chain = audit.read_trail(trail, void_annotations, advance)
            state = audit.import_chain(session.ledger, chain)
    click.echo(f"Imported {chain.name} ({chain.campaign_id}) from {trail.name}: "
               f"{plural(chain.count, 'event')} in {plural(chain.transactions, 'transaction')}, hash chain verified.")
    if session.ledger.holds_seed(uuid.UUID(chain.campaign_id), state):
        where = "this database" if session.ledger.store.dealer is not None else "this machine's key"
        click.echo(f"Ledger dice: {where} holds the secret seed of epoch {state.epoch}, so ledger dice "
                   "roll on as before.")
    elif session.ledger.store.dealer is not None:  # a league server keeps its own seeds: none comes from a file
        click.echo(f"Ledger dice: the secret seed of epoch {state.epoch} is not in this database: open a new epoch "
                   "with `campaign seed new-epoch --reason …`; table dice (--dice) work meanwhile.")
    else:
        click.echo(f"Ledger dice: the secret seed of epoch {state.epoch} is not on this machine: bring it with "
                   f"`campaign seed import FILE` ({NO_SEED_FROM_A_LEAGUE}) or open a new epoch with `campaign seed "
                   "new-epoch --reason …`; table dice (--dice) work meanwhile.")
    click.echo(f"Head {state.head}")

