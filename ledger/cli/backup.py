"""campaign backup: a consistent copy of a live SQLite store, verified before it is reported."""

from __future__ import annotations

import os
from pathlib import Path

import click

from ledger import audit, files
from ledger.cli.app import FileToWrite, Session, force_option, main, pass_session
from ledger.describe import plural
from ledger.errors import BadInput, IntegrityFailure
from ledger.store import Store


@main.command("backup")
@click.argument("target", type=FileToWrite())
@force_option
@pass_session
def backup(session: Session, target: Path, force: bool) -> None:
    """Copy the SQLite store to TARGET while it is in use (SQLite's online backup), and verify the copy.

    The copy holds every command committed when it was taken, whatever other players are doing.
    To restore, use the copy as --store (or put it in the damaged file's place)."""
    store = session.ledger.store
    files.refuse_writing(target, store.own_files, force)  # with --force too: the copy would be taken over the store
    if files.is_device_or_pipe(target):
        raise BadInput(f"{target} is a device or a pipe: a backup is a SQLite file to open as --store; nothing written")
    with files.written_whole(target, kept=store.own_files, force=force) as temporary:
        store.backup(os.path.abspath(temporary))
    copy = Store("sqlite:///" + os.path.abspath(target), create=False)
    try:
        damage = copy.damage()
        if damage:
            raise IntegrityFailure(f"the copy in {target} is damaged ({damage}): the store itself is; see `campaign verify`")
        for campaign_id in copy.campaign_ids():
            try:
                chain = audit.verify_store(copy, campaign_id)
            except IntegrityFailure as error:
                raise IntegrityFailure(f"the copy in {target} does not verify, nor does the store: {error}") from None
            click.echo(f"{chain.name}: {plural(chain.count, 'event')}, head {chain.head}")
        click.echo(f"Backed up {plural(len(copy.campaign_ids()), 'campaign')} to {target}; the copy verifies.")
    finally:
        copy.close()
