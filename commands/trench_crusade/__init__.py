"""Trench Crusade ruleset (`trench-crusade`): the v1.0 Campaign Phase on the ledger.

Built on the ruleset kit (commands/README.md). `rules/` (a package per topic: promotions,
experience, trauma, exploration) and `tables` are the pure rules and their data; `commands` are
what a player asks; `handlers/` runs the rules on the ledger (its `__init__` holds the one table of
handlers); `model` reads the state in the game's terms (options, tables, the latest battle);
`phase` declares the Campaign Phase and the guided walk; `events` holds this ruleset's own events,
its typed facts and their fold; `views` what `status` shows; `cli` the `campaign trench-crusade …` commands,
handed their group by the CLI. See README.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ledger.rulesets import Ruleset, commands_in, register
from ledger.terms import Terms

from .events import FACTS, FOLDS, warband_deeds
from .handlers import HANDLERS
from .handlers.experience import answer_choices
from .model import DEFAULT_OPTIONS, check_options, injuries_now, row_names
from .phase import PHASE


def typed_as(tag: str, args: Mapping[str, Any]) -> str | None:
    """The commands its CLI names otherwise: the Advancement Rolls, and an item given or stowed."""
    if tag == "trench-crusade.allocate":
        return "trench-crusade stow" if args.get("to_arsenal") else "trench-crusade give"
    return "trench-crusade advance" if tag == "trench-crusade.advancement" else None


RULESET = register(
    Ruleset(
        id="trench-crusade",
        version="1.8.0",
        versions=("1.0.0", "1.1.0", "1.2.0", "1.3.0", "1.4.0", "1.5.0", "1.6.0", "1.7.0", "1.8.0"),  # what each changed: README.md, Versions
        title="Trench Crusade v1.0 campaign (Promotions Step per seed 001)",
        handlers=HANDLERS,
        evolve=FOLDS.evolve,
        shown_ext=FACTS.shown_ext,  # the report's Glory, Promotion streak, Model, Battle scars, Trauma against
        terms=Terms(
            treasury="Ducats",
            resources={"glory": "Glory", "promotion_streak": "Promotion streak"},
            fighter_facts={"model": "Model", "battle_scars": "Battle scars", "trauma_against": "Trauma against"},
            counts=("battle_scars",),  # a Troop that survived its Survival Roll has none
        ),
        injuries_now=injuries_now,  # a Minor Wound listed until its game is missed
        answer_choices=answer_choices,  # a kept table answered ahead that is no skill table: refused before the roll
        row_names=row_names,  # the chronicle's "Battle 1 (Trench Warfare)", "Gaius: glorious deed Good Hunting."
        warband_deeds=warband_deeds,  # the chronicle's "Pilgrims: glorious deed Victory or Death."
        default_options=DEFAULT_OPTIONS,
        check_options=check_options,
        post_game=PHASE.guided_steps,
        step_names=PHASE.step_names,
        rating=None,  # the rules have no warband rating: a warband's Total Cost is its models and Battlekit
        starting_treasury=lambda state: 700,  # "its starting ducats — usually 700" (shared/rules/trench-crusade.md)
        typed_as=typed_as,
        register_commands=commands_in(f"{__package__}.cli"),
    )
)
