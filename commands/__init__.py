"""The rules: one package per ruleset. Importing this package registers every ruleset."""

from commands import freeform  # noqa: F401 - registers the ruleset
from commands import trench_crusade  # noqa: F401 - registers the ruleset
from commands import coreheim  # noqa: F401 - registers the ruleset
from commands import retinue  # noqa: F401 - registers the ruleset
