"""Trench Crusade ruleset (`trench-crusade`): the v1.0 Campaign Phase on the ledger.

`rules.py` and `tables.py` are the pure rules and their data; `handlers.py` runs them on the
ledger, `events.py` holds this ruleset's own events and their fold, `steps.py` the guided
post-game and `cli.py` the `campaign trench-crusade …` commands. See README.md.
"""

from __future__ import annotations

from ledger.rulesets import Ruleset, register
from ledger.terms import Terms

from .cli import register_commands
from .events import evolve
from .handlers import DEFAULT_OPTIONS, HANDLERS, check_options
from .steps import post_game

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
        register_commands=register_commands,
    )
)
