"""Test support for rulesets and the CLI, shipped with the core (as `click.testing` is with click).

- `LedgerHarness`: a campaign of one ruleset in memory, driven command by command with table
  dice, for rules written as given/when/then: given the commands done so far, when this command
  with these dice, then these events (`do`) or this refusal (`refusal`).
- `CampaignRunner`: the real `campaign` command on one store, as a user types it.

Both keep the clock at `FIXED_TIME`, and the runner gives every new dice seed as `FIXED_SEED`, so
that record hashes, ledger dice and therefore whole outputs are the same on every run.
"""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Callable, Mapping, Sequence
from typing import Any
from unittest import mock

from click.testing import CliRunner, Result

from ledger import campaigns, dice, rulesets
from ledger import events as ev
from ledger.campaigns import Ledger
from ledger.cli import main
from ledger.decide import Command, TableDice
from ledger.deciding import decide
from ledger.errors import LedgerError
from ledger.state import CampaignState
from ledger.store import Store

FIXED_TIME = "2026-11-29T12:00:00.000000Z"
FIXED_SEED = bytes(range(32))
# Set in a developer's shell they would change who acts or which campaign is meant.
CAMPAIGN_ENVIRONMENT = ("CAMPAIGN_STORE", "CAMPAIGN_ACTOR", "CAMPAIGN_NAME")
# A bug raises its traceback in a test instead of becoming an `Error:` line (see ledger.cli.app).
TEST_ENVIRONMENT = {**dict.fromkeys(CAMPAIGN_ENVIRONMENT), "CAMPAIGN_DEBUG": "1"}


def fixed_clock() -> str:
    return FIXED_TIME


class LedgerHarness:
    """A fresh campaign of `ruleset` (with these options) in a memory store, started by `actor`,
    who also does every command. `clock=None` records the real time instead of `FIXED_TIME`.
    `version`: the campaign is pinned to this older version of the ruleset, as one started before
    the newer versions existed is (to show it still decides as it did)."""

    def __init__(self, ruleset: str, options: Mapping[str, Any] | None = None, *,
                 clock: Callable[[], str] | None = fixed_clock, actor: str = "arbiter", version: str | None = None):
        self.ledger = Ledger(Store("memory://"), clock=clock)
        self.actor = actor
        newest = rulesets.get(ruleset)
        if version is not None:
            rulesets.register(dataclasses.replace(newest, version=version,
                                                  versions=newest.versions[:newest.versions.index(version) + 1]))
        try:
            self.cid = uuid.UUID(self.ledger.start("Test", ruleset, dict(options or {}), actor).state.campaign_id)
        finally:
            rulesets.register(newest)

    @property
    def state(self) -> CampaignState:
        return self.ledger.load(self.cid)

    def do(self, command: Command, dice: Sequence[int] = ()) -> list[ev.Event]:
        """The events the command produced with these table dice, without the `command.recorded`
        event that opens every transaction."""
        outcome = self.ledger.execute(self.cid, command, actor=self.actor, dice=TableDice(list(dice)))
        return [record.event for record in outcome.records[1:]]

    def decided_again(self, command: Command, dice: Sequence[int] = ()) -> list[ev.Event]:
        """The events the command produces on the campaign as it stands, decided as a recorded one is (replay,
        voids, import: not typed now, so a refusal of what is typed now lets it by), without the `command.recorded`
        event; nothing is written."""
        state = self.state
        return decide(rulesets.get(state.ruleset), state, command, dice=TableDice(list(dice)), shuffle_dice=None)[1:]

    def refusal(self, command: Command, dice: Sequence[int] = ()) -> str:
        """The message of the command's refusal, once it is checked that nothing was written."""
        before = self.state.position
        try:
            self.do(command, dice)
        except LedgerError as refused:
            message = str(refused)
        else:
            raise AssertionError(f"{type(command).__name__} was done, not refused")
        after = self.state.position
        if after != before:
            raise AssertionError(f"refused with {message!r}, yet the campaign went from position {before} to {after}")
        return message


class CampaignRunner:
    """`runner(*args)` runs `campaign --store STORE *args` and gives click's `Result`; `input` is
    what a person would type at the prompts. The `CAMPAIGN_*` environment variables are unset, but
    CAMPAIGN_DEBUG is set: an unforeseen failure raises its traceback in the test."""

    def __init__(self, store: str):
        self.store = store
        self.runner = CliRunner()

    def __call__(self, *args: str, input: str | None = None) -> Result:
        with mock.patch.object(campaigns, "utc_now", fixed_clock), mock.patch.object(dice, "new_seed", lambda: FIXED_SEED):
            return self.runner.invoke(main, ["--store", self.store, *args], input=input,
                                      env=TEST_ENVIRONMENT, catch_exceptions=False)
