"""Warhammer Warbands (`warbands`): Warband Rating, Veteran Status and character Archetypes
(seed 003, White Dwarf 298; rules restated in shared/rules/warbands.md as R1–R25, U1–U12).

`rules` (pure functions) and `tables` (data files, a group's own tables) are the game; `model`,
`handlers` (with the post-game phase) and `events` put them on the ledger; `cli` is `campaign warbands …`.
"""

from __future__ import annotations

from ledger.rulesets import Ruleset, commands_in, register
from ledger.terms import Terms

from . import events, handlers, model


RULESET = register(
    Ruleset(
        id="warbands",
        version="6",
        versions=("1", "2", "3", "4", "5", "6"),  # what each changed: README.md, Versions
        title="Warhammer Warbands (WD 298): Warband Rating, Veteran Status, Archetypes",
        handlers=handlers.HANDLERS,
        evolve=events.FOLDS.evolve,
        # The report's words: the rating is the seed's WBR; the treasury is the warband's XP pool (R25).
        terms=Terms(rating="WBR", treasury="XP pool", treasury_word="XP pool"),
        default_options=model.DEFAULT_OPTIONS,
        check_options=model.check_options,
        post_game=handlers.PHASE.guided_steps,
        step_names=handlers.PHASE.step_names,
        rating=model.rating,
        answer_choices=handlers.answer_choices,  # an injury answered ahead that is no outcome: refused before any step
        register_commands=commands_in(f"{__package__}.cli"),
    )
)
