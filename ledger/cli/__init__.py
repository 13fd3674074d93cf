"""The `campaign` command: the outermost shell, where domain errors become user messages.

One module per noun; each registers its commands on `main`. Reads take `--json`.
"""

from __future__ import annotations

from ledger.cli.app import main
from ledger.cli import (  # noqa: F401 - each module registers its commands on `main`
    battles,
    campaigns,
    dicecmds,
    fighters,
    history,
    postgame,
    warbands,
)

__all__ = ["main"]
