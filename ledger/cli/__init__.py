"""The `campaign` command: the outermost shell, where domain errors become user messages.

One module per noun; each registers its commands on `main` when one of them is used (see
COMMAND_MODULES in ledger.cli.app). Reads take `--json`. A ruleset's own commands come through its
`register_commands` hook, when `campaign <ruleset-id>` is used.
"""

from __future__ import annotations

import gc

from ledger.cli import readmodels  # noqa: F401 - every command that writes keeps the read models
from ledger.cli.app import main

__all__ = ["main"]

# What importing the CLI made (the libraries' and the ledger's modules, classes, functions) lives
# as long as the process: frozen, it is left out of every garbage collection, the one at exit
# above all (about a tenth of a command's CPU time).
gc.freeze()
