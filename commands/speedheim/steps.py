"""The guided post-game (`campaign post-game WARBAND`) for Speedheim: the steps of `postgame.py` in
order, each building one command; whether a step is done is read from the events of the warband's
latest battle, so the walk resumes where it stopped. With no one to ask (no terminal), Income counts
no Treasure tokens but the winner's (give them with `campaign speedheim income --tokens N`), and a
Skill/Spell to learn needs a terminal or `campaign speedheim learn`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ledger.decide import AskChoice, Command
from ledger.errors import NeedsDice, RuleViolation
from ledger.rulesets import Step
from ledger.state import CampaignState

from . import rules as r
from .handlers import learned_skills, spells_of, tables_for
from .postgame import (
    STEPS,
    FreeAttempts,
    Income,
    Learn,
    Promotions,
    Scars,
    SpendGold,
    done_steps,
    learning_left,
)
from . import events as se

MAX_TOKENS = 12


def _done(step: str) -> Callable[[CampaignState, str], bool]:
    def done(state: CampaignState, warband: str) -> bool:
        try:
            return step in done_steps(state, state.warbands[warband])
        except RuleViolation:
            return False

    return done


def _income(state: CampaignState, warband: str, ask: AskChoice) -> Command:
    try:
        tokens = int(ask("Treasure tokens carried at the end of the game (the winner's extra one is added)",
                         [str(n) for n in range(MAX_TOKENS + 1)]))
    except NeedsDice:
        tokens = 0
    return Income(warband=warband, tokens=tokens)


def _learn(state: CampaignState, warband: str, ask: AskChoice) -> Command:
    band = state.warbands[warband]
    fighter = learning_left(state, band)[0]
    tables = tables_for(state)
    schools, _left = spells_of(fighter, tables)
    allowed = r.learnable(fighter.ext.get(se.SKILL_TYPES) or list(tables.skills.skills), tables.skills.skills,
                          tables.skills.spells, schools, [*fighter.skills, *fighter.keywords],
                          len(learned_skills(fighter, tables)) >= tables.caps.skills)
    return Learn(warband=warband, fighter=fighter.id, skill=ask(f"{fighter.name} learns", allowed))


def _simple(command: type[Command]) -> Callable[[CampaignState, str, AskChoice], Command]:
    return lambda state, warband, ask: command(warband=warband)


BUILDERS: dict[str, Callable[[CampaignState, str, AskChoice], Command]] = {
    "income": _income, "promotions": _simple(Promotions), "scars": _simple(Scars),
    "improvement": _simple(FreeAttempts), "learning": _learn, "spend-gold": _simple(SpendGold),
}
BEFORE = {"spend-gold": "buy Improvement Attempts (speedheim buy-attempt, 25g, once per hero), hero slots "
                        "(speedheim buy-hero-slot), units (speedheim recruit) and equipment"}


def post_game(state: CampaignState, warband: str) -> Sequence[Step]:
    return [Step(key=key, title=title, done=_done(key), build=BUILDERS[key], before=BEFORE.get(key, ""))
            for key, title in STEPS.items()]
