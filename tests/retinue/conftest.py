"""A retinue campaign in memory, driven through the ledger command by command (given/when/then).

The usual cast (sample data, `commands/retinue/data/`):
  Hawks:  Kestrel, Vampire Warrior of the Blood Domain, the Leader (Wi 3, CC 4, baseline CC 4);
          Finch, Human Scout; Wren, Human Mystic of the Storm Domain (Sa 4).
  Wolves: Lupa, Dwarf Warrior, the Leader; Fang and Grim, Human Warriors.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from commands.retinue.commands import BattlePass, Buy, Casualties, Doom, PostGamePass, Recruit, ScenarioPass, SpendingDone
from commands.shared import Correct, EnlistWarband, RecordBattle
from ledger import events as ev
from ledger.state import CampaignState
from ledger.testing import CampaignRunner, LedgerHarness


class Retinues(LedgerHarness):
    def __init__(self, options: Mapping[str, Any] | None = None, *, version: str | None = None):
        super().__init__("retinue", options, version=version)
        self.do(EnlistWarband(name="Hawks", player="Ann"))
        self.do(EnlistWarband(name="Wolves", player="Bob"))
        self.recruit("Hawks", "Kestrel", ancestry="Vampire", archetype="Warrior", domain="Blood", leader=True)
        self.recruit("Hawks", "Finch", ancestry="Human", archetype="Scout")
        self.recruit("Hawks", "Wren", ancestry="Human", archetype="Mystic", domain="Storm", stats={"Sa": 4})
        self.recruit("Wolves", "Lupa", ancestry="Dwarf", archetype="Warrior", leader=True)
        self.recruit("Wolves", "Fang", ancestry="Human", archetype="Warrior")
        self.recruit("Wolves", "Grim", ancestry="Human", archetype="Warrior")

    def recruit(self, warband: str, name: str, **fighter: Any) -> list[ev.Event]:
        return self.do(Recruit(warband=warband, name=name, **fighter))

    def fighter(self, name: str):
        return self.state.fighter(name)

    def battle(self, *, took_out: Sequence[tuple[str, str]] = (), ooa: Sequence[str] = (), absent: Sequence[str] = ()) -> None:
        """Hawks against Wolves, every active fighter but the absent fighting; `took_out` pairs are
        direct actions (fighter, enemy), which put the enemy Out of Action (as `battle record` does);
        `ooa` the other fighters that went Out of Action."""
        state = self.state
        fought = [f for band in ("hawks", "wolves") for f in state.fighters_of(band) if f.name not in absent]
        out = {*ooa, *(enemy for _, enemy in took_out)}
        deeds = [ev.Deed(fighter=f.name, out_of_action=f.name in out, took_out=[e for by, e in took_out if by == f.name])
                 for f in fought]
        self.do(RecordBattle(participants=["Hawks", "Wolves"], winner="Hawks", scenario="Horn Run", deeds=deeds))

    def xp(self, name: str, amount: int) -> None:
        """An arbiter's correction puts XP in the bank (setup for spending cases)."""
        self.do(Correct(warband=self.fighter(name).warband, fighter=name, reason="test setup", xp=amount))

    def stat(self, name: str, attribute: str, delta: int) -> None:
        self.do(Correct(warband=self.fighter(name).warband, fighter=name, reason="test setup", stats={attribute: delta}))

    def awards(self, events: Sequence[ev.Event]) -> list[tuple[str, int, str]]:
        names = {f.id: f.name for f in self.state.fighters.values()}
        return [(names[e.fighter], e.amount, e.reason) for e in events if isinstance(e, ev.XPAwarded)]

    def finish_post_game(self, warband: str = "Hawks", *, casualty_dice: Sequence[int] = (),
                         outcomes: Mapping[str, str] | None = None) -> None:
        """Every step of the warband's post-game with no scenario award, nobody on the Doom Table."""
        self.do(BattlePass(warband=warband))
        self.do(ScenarioPass(warband=warband))
        self.do(Casualties(warband=warband, outcomes=dict(outcomes or {})), casualty_dice)
        self.do(Doom(warband=warband))
        self.do(PostGamePass(warband=warband))
        self.do(SpendingDone(warband=warband))

    def buy(self, fighter: str, advancement: str, **choice: Any) -> list[ev.Event]:
        return self.do(Buy(warband=self.fighter(fighter).warband, fighter=fighter, advancement=advancement, **choice))

    def buy_refused(self, fighter: str, advancement: str, **choice: Any) -> str:
        return self.refusal(Buy(warband=self.fighter(fighter).warband, fighter=fighter, advancement=advancement, **choice))


def stats_of(state: CampaignState, name: str) -> dict[str, int]:
    return dict(state.fighter(name).stats)


@pytest.fixture
def game() -> Retinues:
    return Retinues()


@pytest.fixture
def house_rules():
    """`house_rules(options)` gives the usual campaign started with these options."""
    return Retinues


@pytest.fixture
def cli(tmp_path) -> CampaignRunner:
    return CampaignRunner("sqlite:///" + str(tmp_path / "c.db"))
