"""A Coreheim campaign in memory, driven through the ledger command by command.

`table` gives a fresh campaign; its methods set up the usual warbands and battles, run a
command with table dice and return the events it produced (without the `command.recorded`
event that opens every transaction), or a refusal's message (checking nothing was written).

The usual warbands (stats are v10 targets: WS 8 means 8+):
- Reikland Rats (mercenaries/reikland, 500 gc): Gunnar, Captain (60 gc, 20 XP, Ld 5+);
  Hans, Youngblood (15 gc, 0 XP); Marksmen, 3 henchmen at 25 gc. Treasury 350, rating
  5 x 5 members + 20 XP = 45.
- Clan Skrit (skaven, 500 gc): Snikch, Assassin (70 gc, 20 XP). Treasury 430, rating 25.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any
from unittest import mock

import pytest

from commands.coreheim.commands import (
    Advance,
    Experience,
    Explore,
    Hire,
    Injuries,
    Reinforce,
    Search,
    SellShards,
    Upkeep,
)
from commands.coreheim.phase import PHASE
from commands.shared import EnlistWarband, RecordBattle
from ledger import campaigns
from ledger import dice as ledger_dice
from ledger import events as ev
from ledger.testing import FIXED_SEED, LedgerHarness

HUMAN = {"M": 4, "A": 1, "W": 1, "T": 0, "WS": 8, "BS": 8, "I": 8, "Ld": 7}
SKAVEN = {"M": 5, "A": 1, "W": 1, "T": 0, "WS": 7, "BS": 8, "I": 6, "Ld": 7}


class Table(LedgerHarness):
    def __init__(self, options: dict[str, Any] | None = None, *, version: str | None = None):
        """A campaign on the newest rules, or pinned to an older `version` as one recorded then is."""
        super().__init__("coreheim", options, version=version)

    @classmethod
    def dealt_alike(cls, *, version: str | None = None) -> Table:
        """A campaign whose ledger dice deal the same faces on every run: its seed and its id are fixed."""
        with (mock.patch.object(ledger_dice, "new_seed", lambda: FIXED_SEED),
              mock.patch.object(campaigns, "uuid", SimpleNamespace(uuid4=lambda: uuid.UUID(int=7), UUID=uuid.UUID))):
            return cls(version=version)

    def by_the_ledger(self, command) -> list[ev.Event]:
        """The events the command produced with ledger dice (`--ledger`), without the `command.recorded` event; one
        that stops after them raises PendingDecision, its transaction stored pending."""
        outcome = self.ledger.execute(self.cid, command, actor=self.actor)
        return [record.event for record in outcome.records[1:]]

    def fighter(self, name: str):
        return self.state.fighter(name)

    # --- the usual campaign -------------------------------------------------------------------

    def hire(self, warband: str, name: str, type_: str, stats: dict[str, int] | None = None, **more: Any) -> list[ev.Event]:
        race = more.pop("race", "skaven" if warband == "Clan Skrit" else "human")
        base = SKAVEN if race == "skaven" else HUMAN
        return self.do(Hire(warband=warband, name=name, type=type_, race=race, stats={**base, **(stats or {})}, **more))

    def rats(self, *, faction: str = "mercenaries/reikland") -> None:
        self.do(EnlistWarband(name="Reikland Rats", player="Ann", faction=faction, treasury=500))
        self.hire("Reikland Rats", "Gunnar", "captain", {"Ld": 5})
        self.hire("Reikland Rats", "Hans", "youngblood")
        self.hire("Reikland Rats", "Marksmen", "henchman", cost=25, group_size=3)

    def skaven(self) -> None:
        self.do(EnlistWarband(name="Clan Skrit", player="Bob", faction="skaven", treasury=500))
        self.hire("Clan Skrit", "Snikch", "assassin")

    def battle(
        self,
        *,
        winner: str | None = "Reikland Rats",
        ooa: Sequence[str] = (),
        took_out: dict[str, list[str]] | None = None,
        absent: Sequence[str] = (),
    ) -> list[ev.Event]:
        """Rats against Skrit, every active warrior fighting unless absent."""
        state = self.state
        fighters = [f for band in state.warbands for f in state.fighters_of(band) if f.name not in absent]
        return self.do(RecordBattle(
            participants=list(w.name for w in state.warbands.values()),
            winner=winner,
            deeds=[ev.Deed(fighter=f.id, out_of_action=f.name in ooa, took_out=(took_out or {}).get(f.name, []))
                   for f in fighters],
        ))

    def explore_quietly(self, warband: str = "Reikland Rats") -> None:
        """Exploration with dice that make no multiples: 1, 2, 3, … (one die per hero, +1 for a win)."""
        state = self.state
        band = state.warband(warband)
        heroes = sum(1 for f in state.fighters_of(band.id) if f.role in ("leader", "hero"))
        battle = state.latest_battle(band.id)
        count = heroes + (battle.winner == band.id)
        self.do(Explore(warband=warband), list(range(1, count + 1)))

    def through(self, step: str, warband: str = "Reikland Rats", **dice: Sequence[int]) -> None:
        """Do every post-game step not yet done before `step` ("end": all of them), each with no
        choice to make and its dice from `dice` (keyed by step, "-" as "_")."""
        commands = {
            "injuries": Injuries(warband=warband),
            "experience": Experience(warband=warband),
            "advances": Advance(warband=warband),
            "sell-shards": SellShards(warband=warband, shards=0),
            "search": Search(warband=warband),
            "upkeep": Upkeep(warband=warband),
            "reinforce": Reinforce(warband=warband, answers={"reinforce": "no"}),
        }
        for key in PHASE.sequence:
            if key == step:
                return
            if PHASE.is_done(self.state, self.state.warband(warband), key):
                continue
            if key == "explore":
                self.explore_quietly(warband)
            else:
                self.do(commands[key], dice.get(key.replace("-", "_"), ()))

    def finish(self) -> None:
        """Every warband's post-game done quietly, so the next battle may be recorded."""
        for band in self.state.warbands.values():
            self.through("end", band.name)


@pytest.fixture
def table() -> Table:
    return Table()


@pytest.fixture
def rats_and_skaven(table: Table) -> Table:
    table.rats()
    table.skaven()
    return table


def rats_and_skaven_on(version: str) -> Table:
    """The usual warbands in a campaign recorded on an older `version` of the rules."""
    table = Table(version=version)
    table.rats()
    table.skaven()
    return table


@pytest.fixture
def rats_and_skaven_v1() -> Table:
    return rats_and_skaven_on("1")


@pytest.fixture
def rats_and_skaven_v2() -> Table:
    return rats_and_skaven_on("2")


@pytest.fixture
def rats_and_skaven_v3() -> Table:
    return rats_and_skaven_on("3")


@pytest.fixture
def rats_and_skaven_v4() -> Table:
    return rats_and_skaven_on("4")


@pytest.fixture
def rats_and_skaven_v7() -> Table:
    return rats_and_skaven_on("7")


@pytest.fixture
def house_rules():
    """`house_rules(options)` gives a fresh campaign started with these options."""
    return Table
