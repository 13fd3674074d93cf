"""The read-model tables: kept current after every command (a commit hook), and `campaign rebuild`.

See docs/read-models.md for the tables. A failed update never hides that the command itself was
recorded: it warns, and the next command that loads the campaign — a read such as `show` or `log`
too — catches up from the events (so does `campaign rebuild`).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

import click

from ledger.cli.app import COMMIT_HOOKS, IN_COMMIT_HOOKS, LOAD_HOOKS, Session, main, pass_session, progress
from ledger.describe import plural
from ledger.errors import LedgerError, RuleViolation
from ledger.records import Record
from ledger.state import CampaignState
from ledger.store import lacks_privilege
from projections import sql

def keep_read_models(ledger: Any, campaign_id: uuid.UUID, state: CampaignState, records: Sequence[Record]) -> None:
    try:
        sql.on_commit(ledger, campaign_id, state, records)
    except sql.TablesOfOlderVersion as error:
        click.echo(f"Warning: the command is recorded, but {error}.", err=True)
    except Exception as error:  # noqa: BLE001 - the events are committed whatever went wrong here
        click.echo(
            f"Warning: the command is recorded, but the read-model tables were not updated ({error}); "
            "they catch up with the next command, or run `campaign rebuild`.",
            err=True,
        )


def catch_up_read_models(ledger: Any, campaign_id: uuid.UUID, state: CampaignState) -> None:
    try:
        sql.catch_up(ledger.store, campaign_id, state)
    except LedgerError:
        raise  # the tables show that events were lost: that must not pass as a warning
    except sql.TablesOfOlderVersion:
        pass  # said once the command is recorded, or not at all by a read
    except Exception as error:  # noqa: BLE001 - a read must not fail because its side job did
        click.echo(f"Warning: the read-model tables are behind the events and could not catch up ({error}); "
                   "run `campaign rebuild`.", err=True)


IN_COMMIT_HOOKS.append(sql.in_commit)  # never fails a command: keep_read_models then catches up and warns
COMMIT_HOOKS.append(keep_read_models)
LOAD_HOOKS.append(catch_up_read_models)


@main.command("rebuild")
@click.option("--campaign", "campaign_ref", default=None,
              help="Rebuild only this campaign's rows (default: the global --campaign, else drop and rebuild every table).")
@pass_session
def rebuild(session: Session, campaign_ref: str | None) -> None:
    """Drop the read-model tables and rebuild them from the events alone."""
    ref = campaign_ref or session.campaign_ref
    ledger = session.ledger
    sql.require_sql(ledger.store)
    campaign_ids = [ledger.find(ref)] if ref is not None else ledger.store.campaign_ids()
    total = sum(ledger.load(cid).position for cid in campaign_ids)
    with progress("Rebuilding read models", total) as advance:
        try:
            states = sql.rebuild(ledger.store, campaign_ids, drop=ref is None, advance=advance)
        except Exception as error:
            if ref is None and lacks_privilege(error):  # a league's player: the tables are the administrator's
                raise RuleViolation(
                    f"role {ledger.store.role} may not drop and make again the read-model tables of every campaign "
                    "(on a league server the administrator's full `campaign rebuild` does): rebuild one campaign's "
                    "rows with `campaign rebuild --campaign NAME`; nothing was changed") from None
            raise
    for state in states:
        click.echo(
            f"{state.name}: {plural(state.position, 'event')}, {plural(len(state.warbands), 'warband')}, "
            f"{plural(len(state.fighters), 'fighter')}, {plural(state.battles_fought, 'battle')}; head {state.head[:16]}"
        )
    where = "" if ref is not None else f" in {ledger.store.url}"
    click.echo(f"Rebuilt the read models of {plural(len(states), 'campaign')}{where} from the events.")
