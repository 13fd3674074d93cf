"""Speedheim ruleset (`speedheim`): the Improvement Deck of seed 000 on the ledger.

`rules.py`, `tables.py` (with `data/*.json`) and `options.py` are the pure rules, their data and the
campaign's options; `handlers.py` runs draws and battles on the ledger, `postgame.py` the post-game
steps, `events.py` holds this ruleset's own events and their fold, `steps.py` the guided post-game and
`cli.py` the `campaign speedheim …` commands. See README.md.
"""

from __future__ import annotations

from typing import Any

import click

from commands.shared import SHARED_HANDLERS, RecordBattle, RecruitFighter
from ledger.decide import Context
from ledger.rulesets import Ruleset, refusing_as_rule_violation, register

from . import handlers as h
from . import postgame as pg
from .events import evolve
from .options import DEFAULT_OPTIONS, check_options
from .rules import SpeedheimRuleError
from .steps import post_game


def record_shared_battle(cmd: RecordBattle, ctx: Context) -> None:
    """`campaign battle record` in a Speedheim campaign: its took-out deeds are Incapacitations."""
    incaps = [h.Incap(fighter=deed.fighter, victim=victim) for deed in cmd.deeds for victim in deed.took_out]
    credited = {victim.lower() for deed in cmd.deeds for victim in deed.took_out}
    incaps += [h.Incap(fighter=None, victim=deed.fighter) for deed in cmd.deeds
               if deed.out_of_action and deed.fighter.lower() not in credited
               and ctx.state.fighter(deed.fighter).name.lower() not in credited]
    absent = [f.id for band in cmd.participants for f in ctx.state.fighters_of(ctx.state.warband(band).id)
              if f.id not in {deed.fighter for deed in cmd.deeds}] if cmd.deeds else []
    h.record_battle(h.RecordSpeedheimBattle(participants=cmd.participants, winner=cmd.winner, scenario=cmd.scenario,
                                            absent=absent, incapacitations=incaps), ctx)


def recruit_shared(cmd: RecruitFighter, ctx: Context) -> None:
    """`campaign fighter add` in a Speedheim campaign: a Speedheim recruit (its role checked, hero slots kept)."""
    h.recruit(h.Recruit(warband=cmd.warband, name=cmd.name, role=cmd.role, stats=cmd.stats, keywords=cmd.keywords,
                        equipment=cmd.equipment, cost=cmd.cost, paid=cmd.paid), ctx)


_refusing = refusing_as_rule_violation(SpeedheimRuleError)

HANDLERS = {
    **SHARED_HANDLERS,
    **{
        command: _refusing(handler)
        for command, handler in {
            RecordBattle: record_shared_battle,
            RecruitFighter: recruit_shared,
            h.Recruit: h.recruit,
            h.SetModifiers: h.set_modifiers,
            h.Incapacitate: h.incapacitate,
            h.RecordSpeedheimBattle: h.record_battle,
            pg.Income: pg.income,
            pg.Promotions: pg.promotions,
            pg.Scars: pg.scars,
            pg.FreeAttempts: pg.free_attempts,
            pg.Learn: pg.learn,
            pg.BuyAttempt: pg.buy_attempt,
            pg.BuyHeroSlot: pg.buy_hero_slot,
            pg.SpendGold: pg.spend_gold,
        }.items()
    },
}


class _CommandsOnFirstUse(click.Group):
    """The `campaign speedheim` group, adding its commands only when it is used: they need the CLI's
    helpers, and importing the CLI mounts every registered ruleset's group (as trench-crusade's). Once
    the ruleset kit's `register_commands` hook is on main, `cli.register_commands` is that hook."""

    _loaded = False

    def _group(self) -> click.Group:
        if not self._loaded:
            from types import SimpleNamespace

            from ledger.cli import app

            from .cli import register_commands

            register_commands(self, SimpleNamespace(
                pass_session=app.pass_session, run=app.run, dice_options=app.dice_options,
                answers_option=app.answers_option, emit_json=app.emit_json, parse_int_pairs=app.parse_int_pairs))
            self._loaded = True
        return self

    def list_commands(self, ctx: click.Context) -> list[str]:
        self._group()
        return super().list_commands(ctx)

    def get_command(self, ctx: click.Context, name: str) -> Any:
        self._group()
        return super().get_command(ctx, name)


RULESET = register(
    Ruleset(
        id="speedheim",
        version="1",
        title="Speedheim v0.93 Improvement Deck (seed 000)",
        handlers=HANDLERS,
        evolve=evolve,
        decks_for=h.decks_for,
        default_options=DEFAULT_OPTIONS,
        check_options=check_options,
        post_game=post_game,
        cli=_CommandsOnFirstUse("speedheim", help="Speedheim: recruit, Incapacitations and their draws, battles, "
                                                  "and each post-game step."),
    )
)
