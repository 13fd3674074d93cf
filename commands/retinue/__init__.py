"""Retinue ruleset (`retinue`): the XP bank of seed 004 — three award passes, priced advancements.

`rules.py` and `tables.py` (with `data/*.json`) are the pure rules and their data, `options.py`
the ambiguities A1-A4 as typed options, `commands.py` and `handlers.py` the commands and how they
run on the ledger, `phase.py` the post-game, `events.py` the one event of its own and its fold,
`cli.py` the `campaign retinue …` commands. See README.md.
"""

from __future__ import annotations

from ledger.rulesets import Ruleset, commands_in, register
from ledger.terms import Terms

from .events import FOLDS
from .handlers import HANDLERS
from .options import CHECK_OPTIONS, DEFAULT_OPTIONS
from .phase import PHASE
from .tables import ATTRIBUTES

RULESET = register(
    Ruleset(
        id="retinue",
        version="1.8.0",
        versions=("1.0.0", "1.1.0", "1.2.0", "1.3.0", "1.4.0", "1.5.0", "1.6.0", "1.7.0", "1.8.0"),
        title="Retinue XP bank (seed 004): three award passes, priced advancements and their limits",
        handlers=HANDLERS,
        evolve=FOLDS.evolve,
        default_options=DEFAULT_OPTIONS,
        check_options=CHECK_OPTIONS,
        post_game=PHASE.guided_steps,
        step_names=PHASE.step_names,
        rating=None,  # the seed gives no retinue rating
        terms=Terms(resources={}, stat_order=ATTRIBUTES),  # XP is banked per fighter: no warband resources
        register_commands=commands_in(f"{__package__}.cli"),
    )
)
