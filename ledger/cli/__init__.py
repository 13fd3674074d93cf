"""The `campaign` command: the outermost shell, where domain errors become user messages.

One module per noun; each registers its commands on `main`. Reads take `--json`. A ruleset's own
commands come through its `register_commands` hook, when `campaign <ruleset-id>` is used.
"""

from __future__ import annotations

from ledger.cli.app import main
from ledger.cli import (  # noqa: F401 - each module registers its commands on `main`
    audit,
    backup,
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
    report,
    warbands,
)

__all__ = ["main"]
