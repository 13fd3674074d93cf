"""Retinue ruleset (`retinue`): the XP bank of seed 004 — three award passes, priced advancements.

`rules.py` and `tables.py` (with `data/*.json`) are the pure rules and their data, `options.py`
the ambiguities A1-A4 as typed options, `handlers.py` runs the rules on the ledger, `events.py`
holds the one event of its own, `steps.py` the guided post-game and `cli.py` the
`campaign retinue …` commands. See README.md.
"""

from __future__ import annotations

from typing import Any

import click

from ledger.rulesets import Ruleset, register

from .events import evolve
from .handlers import HANDLERS
from .options import DEFAULT_OPTIONS, check_options
from .steps import post_game


class _CommandsOnFirstUse(click.Group):
    """`campaign retinue`, loading its commands when used: they import the CLI's helpers, and
    importing the CLI while rulesets still register would mount a partial list (as trench-crusade)."""

    def _group(self) -> click.Group:
        from .cli import group

        return group

    def list_commands(self, ctx: click.Context) -> list[str]:
        return self._group().list_commands(ctx)

    def get_command(self, ctx: click.Context, name: str) -> Any:
        return self._group().get_command(ctx, name)


RULESET = register(
    Ruleset(
        id="retinue",
        version="1.0.0",
        title="Retinue XP bank (seed 004): three award passes, priced advancements and their limits",
        handlers=HANDLERS,
        evolve=evolve,
        default_options=DEFAULT_OPTIONS,
        check_options=check_options,
        post_game=post_game,
        rating=None,  # the seed gives no retinue rating
        cli=_CommandsOnFirstUse("retinue", help="Retinue: recruit, each step of the post-game, buy advancements."),
    )
)
