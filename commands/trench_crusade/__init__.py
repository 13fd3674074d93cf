"""Trench Crusade ruleset (`trench-crusade`): the v1.0 Campaign Phase on the ledger.

`rules.py` and `tables.py` are the pure rules and their data; `handlers.py` runs them on the
ledger, `events.py` holds this ruleset's own events and their fold, `steps.py` the guided
post-game and `cli.py` the `campaign trench-crusade …` commands. See README.md.
"""

from __future__ import annotations

from typing import Any

import click

from ledger.rulesets import Ruleset, register
from ledger.terms import Terms

from .events import evolve
from .handlers import DEFAULT_OPTIONS, HANDLERS, check_options
from .steps import post_game


class _CommandsOnFirstUse(click.Group):
    """The `campaign trench-crusade` group, loading its commands only when it is used.

    Its commands need the CLI's helpers (`ledger.cli.app`), and importing `ledger.cli` mounts
    every registered ruleset's group: importing them while the rulesets are still registering
    would mount a partial list."""

    def _group(self) -> click.Group:
        from .cli import group

        return group

    def list_commands(self, ctx: click.Context) -> list[str]:
        return self._group().list_commands(ctx)

    def get_command(self, ctx: click.Context, name: str) -> Any:
        return self._group().get_command(ctx, name)


RULESET = register(
    Ruleset(
        id="trench-crusade",
        version="1.0.0",
        title="Trench Crusade v1.0 campaign (Promotions Step per seed 001)",
        handlers=HANDLERS,
        evolve=evolve,
        terms=Terms(
            treasury="Ducats",
            resources={"glory": "Glory", "promotion_streak": "Promotion streak"},
            fighter_facts={"model": "Model", "battle_scars": "Battle scars"},
        ),
        default_options=DEFAULT_OPTIONS,
        check_options=check_options,
        post_game=post_game,
        rating=None,  # the rules have no warband rating: a warband's Total Cost is its models and Battlekit
        cli=_CommandsOnFirstUse(
            "trench-crusade", help="Trench Crusade: recruit, record battles, and each step of the Campaign Phase."
        ),
    )
)
