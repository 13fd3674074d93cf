"""Warhammer Warbands (`warbands`): Warband Rating, Veteran Status and character Archetypes
(seed 003, White Dwarf 298; rules restated in shared/rules/warbands.md as R1–R25, U1–U12).

`rules` (pure functions) and `tables` (data files, a group's own tables) are the game.
"""

from __future__ import annotations

from typing import Any

import click

from ledger.rulesets import Ruleset, register

from . import events, handlers, model, steps


class _CommandsOnFirstUse(click.Group):
    """`campaign warbands …`, loaded when first used: the commands need the CLI's helpers, and
    importing those while the rulesets register would mount the CLI before this ruleset exists."""

    def _load(self) -> None:
        if not self.commands:
            from . import cli

            for command in cli.COMMANDS:
                self.add_command(command)

    def list_commands(self, ctx: click.Context) -> list[str]:
        self._load()
        return super().list_commands(ctx)

    def get_command(self, ctx: click.Context, name: str) -> Any:
        self._load()
        return super().get_command(ctx, name)


RULESET = register(
    Ruleset(
        id="warbands",
        version="1",
        title="Warhammer Warbands (WD 298): Warband Rating, Veteran Status, Archetypes",
        handlers=handlers.HANDLERS,
        evolve=events.evolve,
        default_options=model.DEFAULT_OPTIONS,
        check_options=model.check_options,
        post_game=steps.post_game,
        rating=model.rating,
        cli=_CommandsOnFirstUse("warbands", help="Warhammer Warbands: enlist, recruit, battles, each post-game step, spending XP."),
    )
)
