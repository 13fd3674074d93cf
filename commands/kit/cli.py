"""What a ruleset's command hook is handed: the click group `campaign <ruleset-id>` and the shell.

A ruleset adds its commands in `register_commands(group, shell)` (its `Ruleset.register_commands`),
as sqlite-utils plugins do: it never imports the CLI. The shell carries the helpers every command
needs (the session, dice and answer options, running a command and printing what it recorded);
these Protocols say what they are, for type checkers and readers.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from ledger.campaigns import Ledger, Outcome
from ledger.decide import Command
from ledger.state import CampaignState

Decorator = Callable[[Callable[..., Any]], Callable[..., Any]]


class Session(Protocol):
    """The store, actor and campaign of one CLI invocation."""

    actor: str

    @property
    def ledger(self) -> Ledger: ...

    def state(self) -> tuple[uuid.UUID, CampaignState]: ...


class DiceChoice(Protocol):
    """`--dice 3,5`, `--card …` or `--ledger`, as given (see `Shell.dice_options`)."""

    text: str | None
    cards: list[str]
    use_ledger: bool


class Shell(Protocol):
    # Hands the command its Session as first argument. A command taking it that declares no --json of
    # its own records: the group gives it the shared writes' --json (transactions, rolls, new head),
    # so a ruleset declares --json only on its reads.
    pass_session: Decorator
    dice_options: Decorator  # --dice/--card/--ledger (no --card for rules with no deck), handed to the command as `dice: DiceChoice`
    answers_option: Decorator  # --answer KEY=CHOICE (repeatable), handed as `answers: dict[str, str]`
    battle_warbands_option: Decorator  # --warband (repeatable, required): the warbands a battle command records, handed as `warbands`

    def run(self, session: Session, command: Command, *, dice: DiceChoice | None = None, reason: str = "",
            answered_by: Callable[[str], str | None] | None = None) -> Outcome:
        """Record the command in the session's campaign and print the events it recorded (after
        --json, one line of JSON). A question the command cannot decide without an answer tells the
        player to `--answer KEY=CHOICE`; `answered_by(key)` says instead how the command's own option
        answers it (e.g. "answer with --outcome kestrel=CHOICE"), or None to keep `--answer`."""

    def emit_json(self, value: Any) -> None:
        """Print a read for `--json`."""

    def parse_pairs(self, pairs: Sequence[str], option: str) -> dict[str, str]:
        """KEY=VALUE options; `Error: …` naming the option on a malformed one."""

    def parse_int_pairs(self, pairs: Sequence[str], option: str) -> dict[str, int]:
        """KEY=N options."""

    def parse_pair_list(self, values: Sequence[str], option: str) -> list[tuple[str, str]]:
        """KEY=VALUE options where a key may come back, in the order given."""


def answered_by_options(**options: str) -> Callable[[str], str | None]:
    """`Shell.run`'s `answered_by` for a command whose own options answer its questions (question
    key -> option): `answered_by_options(table="--table")` says "answer with --table CHOICE"."""
    return lambda key: f"answer with {options[key]} CHOICE" if key in options else None


def answered_by_pair_options(**options: str) -> Callable[[str], str | None]:
    """The same for questions keyed KIND:NAME that an option NAME=CHOICE answers:
    `answered_by_pair_options(recovered="--recovered")` says "answer with --recovered zero=CHOICE"
    for the key `recovered:zero`."""
    def how(key: str) -> str | None:
        kind, colon, name = key.partition(":")
        return f"answer with {options[kind]} {name}=CHOICE" if colon and kind in options else None
    return how
