"""The `campaign` command: the outermost shell, where domain errors become user messages.

One module per noun; each registers its commands on `main` when one of them is used (see
COMMAND_MODULES in ledger.cli.app). Reads take `--json`. A ruleset's own commands come through its
`register_commands` hook, when `campaign <ruleset-id>` is used.
"""

from __future__ import annotations

from ledger.cli import readmodels  # noqa: F401 - every command that writes keeps the read models
from ledger.cli.app import main

__all__ = ["main"]
