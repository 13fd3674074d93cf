"""The kit's worked example (`kit-example`): a whole minimal ruleset, the one commands/README.md
walks through. It is not in the ruleset index (players never see it); tests import it."""

from __future__ import annotations

from typing import Any

import click

from commands.kit import Facts, Folds, Phase, PhaseStep, RulesetFacts, Tables, Window
from commands.kit import check_options, option_defaults, options_of, resolve, since
from commands.kit.cli import Session, Shell
from commands.kit.example import rules
from commands.shared import SHARED_HANDLERS, RecordBattle, record_battle
from ledger import events as ev
from ledger.decide import Command, Context
from ledger.rulesets import Ruleset, register
from ledger.state import CampaignState, Fighter, Warband
from projections.battles import fought

ID = "kit-example"
TABLES = Tables("Example", rules.ExampleTables, __package__, check=rules.check_tables)


# --- commands and the ruleset's own event ------------------------------------------------------------

class Injuries(Command, frozen=True, kw_only=True, tag="kit-example.injuries"):
    warband: str


class Experience(Command, frozen=True, kw_only=True, tag="kit-example.experience"):
    warband: str


class Done(Command, frozen=True, kw_only=True, tag="kit-example.done"):
    warband: str


@ev.event_type
class Scarred(ev.Event, frozen=True, kw_only=True, tag="kit-example.scarred"):
    """No shared event says "a scar": the example's one event of its own."""

    warband: str
    fighter: str


class ExampleFacts(RulesetFacts, kw_only=True):
    scars: dict[str, int] = {}  # fighter id -> scars

    def shown(self, holder: Warband | Fighter) -> dict[str, Any]:  # a fighter's roster row shows its scars
        return {"scars": self.scars[holder.id]} if isinstance(holder, Fighter) and holder.id in self.scars else {}


FACTS = Facts(ID, ExampleFacts)
FOLDS = Folds(FACTS)


@FOLDS.on(Scarred)
def _scarred(facts: ExampleFacts, event: Scarred, state: CampaignState) -> None:
    facts.scars[event.fighter] = facts.scars.get(event.fighter, 0) + 1


# --- the phase and the handlers ------------------------------------------------------------------------

PHASE = Phase(
    steps=[
        PhaseStep("injuries", "roll injuries", "Injuries", build=lambda state, band, ask: Injuries(warband=band)),
        PhaseStep("experience", "award experience", "Experience", build=lambda state, band, ask: Experience(warband=band)),
        PhaseStep("done", "finish the post-game", "End of the post-game", build=lambda state, band, ask: Done(warband=band)),
    ],
    windows={"trade": Window(after="experience", until="done")},
)


def injuries(cmd: Injuries, ctx: Context) -> None:
    band = ctx.state.warband(cmd.warband)
    battle = PHASE.begin(ctx.state, band, "injuries")
    tables = TABLES.for_options(ctx.state.options)
    for deed in fought(battle, band.id, ctx.state):
        if not deed.out_of_action:
            continue
        name = ctx.state.fighters[deed.fighter].name
        rows = resolve(ctx, lambda rolled: rules.injury(name, rolled, tables))
        last = rows[-1]
        if last.result == "dead":
            ctx.emit(ev.FighterDied(warband=band.id, fighter=deed.fighter, reason="injury", row=last.id))
        elif last.result in ("miss-game", "roll-again"):
            ctx.emit(ev.InjurySuffered(warband=band.id, fighter=deed.fighter, injury=last.id, row=last.id,
                                       missed_games=1))
            if since(ctx, "2"):  # v2 fixed a rule: a missed game also leaves a scar
                ctx.emit(Scarred(warband=band.id, fighter=deed.fighter))
    PHASE.finish(ctx, band, battle, "injuries")


def experience(cmd: Experience, ctx: Context) -> None:
    band = ctx.state.warband(cmd.warband)
    battle = PHASE.begin(ctx.state, band, "experience")
    options = options_of(ctx.state.options, rules.ExampleOptions)
    for deed in fought(battle, band.id, ctx.state):
        if ctx.state.fighters[deed.fighter].active:
            xp = rules.experience(True, len(deed.took_out), options)
            ctx.emit(ev.XPAwarded(warband=band.id, fighter=deed.fighter, amount=xp, reason="battle"))
    PHASE.finish(ctx, band, battle, "experience")


def done(cmd: Done, ctx: Context) -> None:
    band = ctx.state.warband(cmd.warband)
    PHASE.finish(ctx, band, PHASE.begin(ctx.state, band, "done"), "done")


def battle(cmd: RecordBattle, ctx: Context) -> None:
    PHASE.refuse_unfinished(ctx.state, [ctx.state.warband(w).id for w in cmd.participants])
    record_battle(cmd, ctx)


HANDLERS = {
    **SHARED_HANDLERS,
    RecordBattle: battle,
    Injuries: injuries,
    Experience: experience,
    Done: done,
}


# --- the CLI: `campaign kit-example …` -------------------------------------------------------------------

def register_commands(group: click.Group, shell: Shell) -> None:
    @group.command("injuries")
    @click.argument("warband")
    @shell.dice_options
    @shell.pass_session
    def injuries_command(session: Session, warband: str, dice: Any) -> None:
        """Injuries of WARBAND's fighters taken out of action in its latest battle."""
        shell.run(session, Injuries(warband=warband), dice=dice)

    @group.command("experience")
    @click.argument("warband")
    @shell.pass_session
    def experience_command(session: Session, warband: str) -> None:
        """Experience for the latest battle."""
        shell.run(session, Experience(warband=warband))


RULESET = register(Ruleset(
    id=ID, version="2", versions=("1", "2"), title="The kit's worked example",
    handlers=HANDLERS, evolve=FOLDS.evolve, default_options=option_defaults(rules.ExampleOptions),
    check_options=check_options(ID, rules.ExampleOptions, lambda options: TABLES.for_options({"tables": options.tables})),
    post_game=PHASE.guided_steps, step_names=PHASE.step_names, register_commands=register_commands,
    shown_ext=FACTS.shown_ext,
))
