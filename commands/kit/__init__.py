"""The ruleset kit: what every ruleset needs besides its rules, its tables and its tests.

- `phase`: the post-game phase, declared (`Phase`, `PhaseStep`, `Window`, `PhaseMessages`)
- `tables`: rule tables from the package's data files, with house-rule overrides (`Tables`, `TableError`)
- `options`: options as a typed Struct (`Options`, `check_options`, `option_defaults`, `options_of`)
- `state`: the ruleset's own facts, typed, and their fold (`RulesetFacts`, `Facts`, `Folds`); `injuries_held`
- `dice`: rules that need more dice (`MoreDice`, `Rolled`, `resolve`), `check_faces`, `d66`
- `as_spelled`: a typed name as the rules spell it (`ledger.text`'s: answers and choices are read with it too)
- `versions`: gating a rule fix on the version in force (`since`; `possessive_since`, a possessive's stored words)
- `refusals`: the one wrapper turning a ruleset's own refusals into RuleViolations (`refusing`)
- `cli`: what a ruleset's `register_commands(group, shell)` hook is handed (`Shell`, `Session`)

commands/README.md shows a whole minimal ruleset (`commands/kit/example/`). Who fought a battle,
who was taken out of action and what each did are in the core state (`projections.battles`).
"""

from commands.kit.dice import MoreDice, Rolled, check_faces, d66, resolve
from commands.kit.options import Options, check_options, option_defaults, options_of
from commands.kit.phase import Phase, PhaseMessages, PhaseStep, Window
from commands.kit.refusals import refusing
from commands.kit.state import Facts, Folds, RulesetFacts, injuries_held
from commands.kit.tables import TableError, Tables, derived_from_tables
from commands.kit.versions import possessive_since, since
from ledger.text import as_spelled

__all__ = [
    "Facts", "Folds", "as_spelled", "MoreDice", "Options", "Phase", "PhaseMessages", "PhaseStep", "Rolled", "RulesetFacts",
    "TableError", "Tables", "Window", "check_faces", "check_options", "d66", "option_defaults", "options_of", "refusing", "resolve",
    "derived_from_tables", "injuries_held", "possessive_since", "since",
]
