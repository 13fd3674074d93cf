"""The one place where a ruleset's pure rules' refusal becomes a refusal a player reads."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ledger.decide import Command
from ledger.rulesets import Handler, refusing_as_rule_violation


def refusing(refusal: type[Exception], handlers: Mapping[type[Command], Handler]) -> dict[type[Command], Handler]:
    """The handler table with each handler wrapped: a `refusal` raised by the rules reaches the
    player as a RuleViolation with the same message."""
    wrap: Callable[[Handler], Handler] = refusing_as_rule_violation(refusal)
    return {command: wrap(handler) for command, handler in handlers.items()}
