"""Speedheim ruleset (`speedheim`): the Improvement Deck of seed 000 on the ledger.

`rules.py`, `tables.py` (with `data/*.json`) and `options.py` are the pure rules, their data and the
campaign's options; `handlers.py` runs draws and battles on the ledger, `postgame.py` the post-game
phase and its steps (the guided post-game too), `events.py` this ruleset's own events and their
typed facts, and `cli.py` the `campaign speedheim …` commands. It is built on the ruleset kit
(`commands/kit`, commands/README.md). See README.md.
"""

from __future__ import annotations

from commands.kit.refusals import refusing
from commands.shared import SHARED_HANDLERS, Correct, RecordBattle, RecruitFighter
from ledger.decide import Context
from ledger.rulesets import Ruleset, commands_in, register
from ledger.terms import Terms

from . import handlers as h
from . import postgame as pg
from .events import FOLDS
from .options import DEFAULT_OPTIONS, ID, check
from .rules import SpeedheimRuleError


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


HANDLERS = {
    **SHARED_HANDLERS,
    Correct: h.correct_fighter,
    **refusing(SpeedheimRuleError, {
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
        pg.LearnEach: pg.learn_each,
        pg.BuyAttempt: pg.buy_attempt,
        pg.BuyHeroSlot: pg.buy_hero_slot,
        pg.SpendGold: pg.spend_gold,
    }),
}

RULESET = register(
    Ruleset(
        id=ID,
        version="11",
        versions=("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11"),
        asks_again_after_a_reroll="11",  # an Advantage pair's card kept, answered of the disputed shuffle (README, 11)
        title="Speedheim v0.93 Improvement Deck (seed 000)",
        handlers=HANDLERS,
        evolve=FOLDS.evolve,
        # The stat line in the order the warband tables print it (rules file §1); money is gold.
        terms=Terms(treasury="Gold", resources={}, stat_order=("Mov", "Mel", "Rgd", "Def", "Agi", "Mrl", "Atk", "Wnd", "Inj", "Prc")),
        decks_for=h.decks_for,
        # Rules §5: "On each Incapacitation, the unit that caused it draws 1 card", and a hero's Improvement Attempts.
        decks_drawn_by=("its cards are drawn by `speedheim incapacitate` (or `speedheim battle --incap`) and by "
                        "Improvement Attempts: `speedheim scars` (Scar 20), `speedheim improvement`, "
                        "`speedheim buy-attempt`"),
        deck_order=h.deck_order,
        default_options=DEFAULT_OPTIONS,
        check_options=check,
        post_game=pg.PHASE.guided_steps,
        step_names=pg.PHASE.step_names,
        answer_choices=pg.answer_choices,  # an answer ahead that no draw could take is refused before the draw
        injuries_now=pg.injuries_now,  # a Light Wound healed once its game is missed
        roll_meaning=pg.roll_meaning,  # a Scars roll that changes nothing: "no effect (Scar 12: Full Recovery)"
        purpose_names=lambda purpose, name: purpose.startswith(f"{name}: "),  # "Hilde: Hero Scars", "Hilde: improve Agi, …"
        starting_treasury=lambda state: 500,  # "Warband creation uses 500g" (shared/rules/speedheim.md §7)
        # A walk's learning step for every hero at once is typed as the walk: `campaign post-game WARBAND`.
        typed_as=lambda tag, args: "post-game" if tag == pg.LearnEach.__struct_config__.tag else None,
        register_commands=commands_in(f"{__package__}.cli"),
    )
)
