"""The `campaign` command: the outermost shell, where domain errors become user messages.

One module per noun; each registers its commands on `main`. Reads take `--json`.
"""

from __future__ import annotations

from ledger.cli.app import main
from ledger.cli import (  # noqa: F401 - each module registers its commands on `main`
    audit,
    battles,
    campaigns,
    demo,
    dicecmds,
    fighters,
    history,
    keys,
    pending,
    postgame,
    readmodels,
    warbands,
)


def _mount_ruleset_commands() -> None:
    """Each ruleset's own commands appear as `campaign <ruleset-id> …`."""
    from ledger.rulesets import load_rulesets

    for ruleset in load_rulesets().values():
        if ruleset.cli is not None:
            main.add_command(ruleset.cli, name=ruleset.id)


_mount_ruleset_commands()

__all__ = ["main"]
