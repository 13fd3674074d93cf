"""campaign seed where / export / import / new-epoch: where the secret dice seeds are kept, and
how a campaign's dice move to another machine (or start afresh there, visibly)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import click

from ledger.cli.app import Session, main, pass_session, report
from ledger.cli.campaigns import seed
from ledger.errors import BadInput
from ledger.keyfile import KEYS_ENV, KeyFile


@seed.command("where")
@pass_session
def seed_where(session: Session) -> None:
    """Say where this store's secret dice seeds are kept."""
    keys = KeyFile() if session.store_url.startswith("sqlite") else None
    if keys is None:
        kind = "in memory" if session.store_url.startswith("memory") else "in the database, readable by its dice role only"
        click.echo(f"Seeds of {session.store_url} are kept {kind}.")
        return
    held = "holds no seeds yet" if not keys.path.exists() else f"holds the seeds of {keys.campaigns()} campaign(s)"
    click.echo(f"Key file: {keys.path} ({held}; set {KEYS_ENV} to use another file).")


@seed.command("export")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="The file to write (readable by you only): keep it secret, it predicts every ledger die.")
@pass_session
def seed_export(session: Session, output: Path) -> None:
    """Write the open epoch's secret seed to a file, to take the campaign's dice to another machine."""
    exported = session.ledger.export_seed(session.campaign())
    try:
        handle = os.open(output, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise BadInput(f"{output} already exists: choose a new file") from None
    except OSError as error:
        raise BadInput(f"cannot write {output}: {error.strerror}") from None
    with os.fdopen(handle, "w", encoding="utf-8") as out:
        out.write(json.dumps(exported, sort_keys=True) + "\n")
    click.echo(f"Exported the seed of epoch {exported['epoch']} of {exported['campaign']['name']} to {output}. "
               "Anyone who reads it can predict the ledger dice: move it, import it, then delete it.")


@seed.command("import")
@click.argument("seed_file", type=click.File("rb"))
@pass_session
def seed_import(session: Session, seed_file) -> None:
    """Keep a seed exported with `campaign seed export`, after checking it against its commitment."""
    try:
        data = json.loads(seed_file.read())
    except (ValueError, UnicodeDecodeError) as error:
        raise BadInput(f"{seed_file.name}: not JSON ({error})") from None
    state = session.ledger.import_seed(data)
    where = session.ledger.store.keys.path if session.ledger.store.keys else session.store_url
    click.echo(f"The seed of epoch {state.epoch} of {state.name} matches its commitment and is kept in {where}: "
               "ledger dice roll here now.")


@seed.command("new-epoch")
@click.option("--reason", required=True, help="Why the open epoch's seed is not at hand (kept in the log).")
@pass_session
def seed_new_epoch(session: Session, reason: str) -> None:
    """Commit to a new seed here when the open epoch's seed stayed on another machine.

    The old epoch is recorded as left behind: its ledger dice can never be re-derived here."""
    report(session.ledger.new_epoch(session.campaign(), reason=reason, actor=session.actor))
