"""campaign report: the campaign as one self-contained HTML page (standings, rosters, charts,
chronicle, audit); and the file writing and report building that `roster --format` and
`export --format md` share with it."""

from __future__ import annotations

import uuid
from pathlib import Path

import click

from commands.shared import slug
from ledger import audit, files
from ledger.cli.app import FileToWrite, Session, force_option, main, pass_session
from ledger.describe import plural
from ledger.errors import IntegrityFailure
from ledger.records import Record
from projections import render
from projections.report import Verification, build_report


def dice_line(chain: audit.Chain) -> str:
    """What the verification says of the ledger dice, e.g. `Ledger dice: 3 rolls re-derived …`."""
    parts = []
    if chain.ledger_rolls_verified:
        epochs = ", ".join(str(e) for e in sorted(chain.revealed))
        parts.append(f"{plural(chain.ledger_rolls_verified, 'roll')} re-derived from the revealed "
                     f"{'seed' if len(chain.revealed) == 1 else 'seeds'} of epoch {epochs}")
    for epoch, count in sorted(chain.ledger_rolls_waiting.items()):
        if epoch in chain.abandoned:
            parts.append(f"{plural(count, 'roll')} of epoch {epoch} can never be re-derived here (its seed was left behind)")
        else:
            parts.append(f"{plural(count, 'roll')} of epoch {epoch} {'waits' if count == 1 else 'wait'} "
                         "for its seed to be revealed")
    return "Ledger dice: " + ("; ".join(parts) if parts else "none used (table dice only)") + "."


def verified_history(session: Session, campaign_id: uuid.UUID) -> tuple[list[Record], Verification]:
    """The campaign's records and what checking its stored chain said. A chain that does not verify
    still gives its records (from the ledger's own reading), with the failure to show."""
    try:
        chain = audit.verify_store(session.ledger.store, campaign_id)
    except IntegrityFailure as error:
        # Read as stored, unchecked: the report shows the failure on its first line.
        return session.ledger.history(campaign_id, check=False), Verification(
            ok=False, summary=f"The stored hash chain does NOT verify: {error}"
        )
    return list(chain.records), verified(chain)


def verified(chain: audit.Chain) -> Verification:
    return Verification(
        ok=True,
        summary=f"Hash chain intact: {plural(chain.count, 'event')} in "
                f"{plural(chain.transactions, 'transaction')}, checked when this was written.",
        dice=dice_line(chain),
    )


def write_output(session: Session, output: Path, text: str, *, force: bool) -> None:
    """Write the whole file or nothing (see ledger.files); without `force`, never over an existing
    file, and never over the store's own files (a report written over the store destroyed it)."""
    files.write_whole(output, text.encode("utf-8"), kept=session.ledger.store.own_files, force=force)


def roster_sheet(session: Session, warband_ref: str, fmt: str) -> tuple[str, str]:
    """`campaign roster WARBAND --format html|md`: the warband's name and its printable roster sheet."""
    cid, state = session.state()
    band = state.warband(warband_ref)
    report = build_report(session.ledger.history(cid), verification=None)
    return band.name, render.roster_sheet(report, band.name, fmt)


@main.command("report")
@click.option("-o", "--out", "--output", "output", type=FileToWrite(), default=None,
              help="The HTML file to write (default: the campaign's name, e.g. spring-league-report.html).")
@click.option("--until", type=int, help="The campaign as it stood at this event position.")
@click.option("--battle", type=int, help="The campaign once battle K and what followed it, before the next battle.")
@force_option
@pass_session
def report(session: Session, output: Path | None, until: int | None, battle: int | None, force: bool) -> None:
    """Write the campaign as one self-contained HTML page: standings, rosters, charts, the battle
    chronicle with its dice and voids, and the audit box. Opens in any browser, offline; prints."""
    if output is not None:  # before the work, and again as it is written (the default name too)
        files.refuse_writing(output, session.ledger.store.own_files, force)
    cid = session.campaign()
    records, verification = verified_history(session, cid)
    built = build_report(records, verification, until=until, battle=battle)
    path = output or Path(f"{slug(built.campaign['name'])}-report.html")
    write_output(session, path, render.report_html(built), force=force)
    where = f" as it stood {built.cut}" if built.cut else ""
    click.echo(f"Wrote the report of {built.campaign['name']}{where} to {path}. Head {built.campaign['head']}")
    if not verification.ok:
        raise IntegrityFailure(f"{verification.summary} (the report says so)")
