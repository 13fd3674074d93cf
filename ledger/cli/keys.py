"""campaign seed reveal / where / export / import / new-epoch: revealing a seed, where the secret
dice seeds are kept, and how a campaign's dice move to another machine (or start afresh there,
visibly)."""

from __future__ import annotations

import json
from pathlib import Path

import click

from ledger import files
from ledger.cli.app import FileToWrite, Session, force_option, main, pass_session, report, writes
from ledger.dealer import DICE_ROLE, init_roles_sql
from ledger.errors import BadInput
from ledger.keyfile import KEYS_ENV, KeyFile
from ledger.store import KINDS, Store, public_url, settings_for
from projections import sql
from projections.tables import TABLES


@main.group("seed")
def seed() -> None:
    """The secret seed behind ledger dice."""


@seed.command("reveal")
@writes
@pass_session
def seed_reveal(session: Session) -> None:
    """Reveal this epoch's seed so anyone can recompute its dice, and commit to a new one."""
    cid = session.campaign()
    report(session.ledger.reveal_seed(cid, actor=session.actor))


@seed.command("where")
@pass_session
def seed_where(session: Session) -> None:
    """Say where this store's secret dice seeds are kept."""
    keys = KeyFile() if session.store_url.startswith("sqlite") else None
    if keys is None:
        kind = "in memory" if session.store_url.startswith("memory") else (
            "in its database, in the tables of the dice role (see `campaign admin init-roles`)")
        click.echo(f"Seeds of {public_url(session.store_url)} are kept {kind}.")
        return
    held = "holds no seeds yet" if not keys.path.exists() else f"holds the seeds of {keys.campaigns()} campaign(s)"
    click.echo(f"Key file: {keys.path} ({held}; set {KEYS_ENV} to use another file).")


@seed.command("export")
@click.option("-o", "--output", type=FileToWrite(), required=True,
              help="The file to write (readable by you only): keep it secret, it predicts every ledger die.")
@force_option
@pass_session
def seed_export(session: Session, output: Path, force: bool) -> None:
    """Write the open epoch's secret seed to a file, to take the campaign's dice to another machine."""
    kept = session.ledger.store.own_files
    files.refuse_writing(output, kept, force)  # before the seed is read, and again as it is written
    exported = session.ledger.export_seed(session.campaign())
    files.write_whole(output, (json.dumps(exported, sort_keys=True) + "\n").encode("utf-8"), kept=kept, force=force,
                      private=True)
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
@writes
@click.option("--reason", required=True, help="Why the open epoch's seed is not at hand (kept in the log).")
@pass_session
def seed_new_epoch(session: Session, reason: str) -> None:
    """Commit to a new seed here when the open epoch's seed stayed on another machine.

    The old epoch is recorded as left behind: its ledger dice can never be re-derived here."""
    report(session.ledger.new_epoch(session.campaign(), reason=reason, actor=session.actor))


@main.group("admin")
def admin() -> None:
    """Setting up a league server (PostgreSQL)."""


@admin.command("init-roles")
@click.option("--player", "player_role", required=True, help="The role players connect as (created if missing).")
@click.option("--player-password", default=None, help="Its password (none: the server's own authentication).")
@click.option("--dice-role", default=DICE_ROLE, show_default=True, help="The role that owns the seeds (no login).")
@click.option("--print-sql", is_flag=True, help="Print the SQL instead of running it (to run it by hand).")
@pass_session
def init_roles(session: Session, player_role: str, player_password: str | None, dice_role: str, print_sql: bool) -> None:
    """Create the dice role (owns the seeds, the dealt dice and the dice functions) and a player
    role (may roll ledger dice and record events, may not read any seed), on the store's PostgreSQL
    database. Run it once, connected as an administrator; players then use --store with their role.
    It makes everything in one transaction: refused, it leaves nothing made."""
    if KINDS[settings_for(session.store_url)["PERSISTENCE_MODULE"]] != "postgres":
        raise BadInput(f"{public_url(session.store_url)} is not a PostgreSQL store: roles are for a league server")
    # Opened without making its tables: they are made in the set-up's one transaction, so that a refusal
    # (a role that may not, a statement refused, a connection lost) leaves none behind.
    store = Store(session.store_url, make_tables=False)
    try:
        d = sql.require_sql(store)
        script = init_roles_sql(
            schema=store.dealer.schema, dice_role=dice_role, player_role=player_role, password=player_password,
            event_tables=store.event_tables(), read_model_tables=[table.name for table in TABLES],
        )
        with store.dealer.setting_up() as cursor:
            store.make_event_tables(cursor)
            sql.create_tables(cursor, d)  # the read models, so that players need not create tables
            if not print_sql:
                cursor.execute(script)
    finally:
        store.close()
    if print_sql:  # the tables it grants rights on made, as the script expects them
        click.echo(script, nl=False)
        return
    click.echo(f"Roles ready on {store.url}: {dice_role} owns the dice seeds and deals the faces; {player_role} "
               f"rolls ledger dice and records events, and cannot read a seed.")
